import type { Stored } from '../platform/repo.js';
import { autoInviteStatusOf, lotwiseScore, scoreWith } from '../scoring/score-formula.js';
import type { ScoringRules } from '../scoring/scoring.schema.js';
import type { Bidder, BidderListItem } from './bidders.schema.js';
import type { BidderListRecord, BidderRecord } from './bidders.repo.js';
import { blockingKeys } from './duplicate-matcher.js';

/** How a bidder record becomes what is stored and shown: its scores and derived fields. */

const searchTextOf = (
  record: Pick<BidderRecord, 'firstName' | 'lastName' | 'bidderId' | 'aliases' | 'email'>,
) =>
  [
    record.firstName,
    record.lastName,
    `${record.firstName} ${record.lastName}`,
    record.bidderId,
    ...record.aliases,
    record.email ?? '',
  ]
    .join(' ')
    .toLowerCase();

type Derived =
  | 'lotwiseScore'
  | 'customScore'
  | 'customVersion'
  | 'autoInviteStatus'
  | 'searchText'
  | 'matchKeys';

/** Scores, automation status and the derived search and matching fields, from the record's facts. */
export function derive<T extends Omit<BidderRecord, Derived | 'accountId'>>(
  record: T,
  settings: ScoringRules,
  now = new Date(),
): T & Pick<BidderRecord, Derived> {
  const facts = { ...record.stats, registeredAt: record.createdAt };
  const custom = scoreWith(facts, settings.customWeights, settings.customTiers, now);
  return {
    ...record,
    lotwiseScore: lotwiseScore(facts, now),
    customScore: custom,
    customVersion: settings.version,
    autoInviteStatus: autoInviteStatusOf(custom, facts, settings.automation),
    searchText: searchTextOf(record),
    matchKeys: blockingKeys(record),
  };
}

export function toListItem(record: BidderListRecord | Stored<BidderRecord>): BidderListItem {
  return {
    id: record.id,
    bidderId: record.bidderId,
    aliases: record.aliases,
    firstName: record.firstName,
    lastName: record.lastName,
    email: record.email,
    phone: record.phone,
    address: record.address,
    status: record.status,
    preferredCategories: record.preferredCategories,
    preferredPaymentMethod: record.preferredPaymentMethod,
    stats: record.stats,
    lotwiseScore: record.lotwiseScore,
    customScore: record.customScore,
    localScore: record.localScore,
    autoInviteStatus: record.autoInviteStatus,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    etag: record._etag,
  };
}

export const toBidder = (record: Stored<BidderRecord>): Bidder => ({
  ...toListItem(record),
  invitations: record.invitations,
});

/** The audit's view of a bidder: its facts, not the derived or bulky fields. */
export const auditView = (record: BidderRecord) => ({
  bidderId: record.bidderId,
  firstName: record.firstName,
  lastName: record.lastName,
  email: record.email,
  phone: record.phone,
  address: record.address,
  status: record.status,
  stats: record.stats,
});
