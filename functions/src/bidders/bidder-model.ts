import type { Stored } from '../platform/repo.js';
import { autoInviteStatusOf, lotwiseScore, scoreWith } from '../scoring/score-formula.js';
import type { ScoringRules } from '../scoring/scoring.schema.js';
import {
  bidderFactsSchema,
  bidderListItemSchema,
  bidderSchema,
  keysOf,
  type Bidder,
  type BidderListItem,
  type PlatformIdentity,
} from './bidders.schema.js';
import type { BidderListRecord, BidderRecord, Scores } from './bidders.repo.js';
import { blockingKeys } from './duplicate-matcher.js';

/** How a bidder record becomes what is stored and shown: its scores and derived fields. */

export const searchTextOf = (
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

type Derived = keyof Scores | 'searchText' | 'matchKeys';

/** The scores and automation status, from the facts they are computed from. */
export function scoresOf(
  record: Pick<BidderRecord, 'stats'>,
  settings: ScoringRules,
  now = new Date(),
): Scores {
  const facts = record.stats;
  const custom = scoreWith(facts, settings.customWeights, settings.customTiers, now);
  return {
    lotwiseScore: lotwiseScore(facts, now),
    customScore: custom,
    customVersion: settings.version,
    autoInviteStatus: autoInviteStatusOf(custom, facts, settings.automation),
  };
}

/** The fields computed from a record's facts: scores, automation status, search and matching. */
export function derivedOf(
  record: Omit<BidderRecord, Derived | 'accountId'>,
  settings: ScoringRules,
  now = new Date(),
): Pick<BidderRecord, Derived> {
  const scores = scoresOf(record, settings, now);
  return {
    lotwiseScore: scores.lotwiseScore,
    customScore: scores.customScore,
    customVersion: scores.customVersion,
    autoInviteStatus: scores.autoInviteStatus,
    searchText: searchTextOf(record),
    matchKeys: blockingKeys(record),
  };
}

/** The record with its derived fields computed afresh from its facts. */
export function derive<T extends Omit<BidderRecord, Derived | 'accountId'>>(
  record: T,
  settings: ScoringRules,
  now = new Date(),
): T & Pick<BidderRecord, Derived> {
  return { ...record, ...derivedOf(record, settings, now) };
}

/** The named fields of a record, and nothing else. */
export function pick<T, K extends keyof T>(record: T, fields: readonly K[]): Pick<T, K> {
  return Object.fromEntries(fields.map((field) => [field, record[field]])) as Pick<T, K>;
}

const listFields = keysOf(bidderListItemSchema).filter(
  (field): field is Exclude<keyof BidderListItem, 'etag'> => field !== 'etag',
);
const bidderFields = keysOf(bidderSchema).filter(
  (field): field is Exclude<keyof Bidder, 'etag'> => field !== 'etag',
);
const factFields = keysOf(bidderFactsSchema);

export const toListItem = (record: BidderListRecord | Stored<BidderRecord>): BidderListItem => ({
  ...pick(record, listFields),
  marketingOptOut: record.marketingOptOut ?? false,
  etag: record._etag,
});

export const toBidder = (record: Stored<BidderRecord>): Bidder => ({
  ...pick(record, bidderFields),
  marketingOptOut: record.marketingOptOut ?? false,
  platformIdentities: record.platformIdentities ?? [],
  etag: record._etag,
});

/** The audit's view of a bidder: its facts, not the derived or bulky fields. */
export const auditView = (record: BidderRecord) => pick(record, factFields);

/** A bidder's platform identities, one per platform bidder (the newest figures win), in order. */
export function identitiesOf(identities: PlatformIdentity[]): PlatformIdentity[] {
  const byKey = new Map<string, PlatformIdentity>();
  for (const identity of identities) {
    const key = `${identity.platform}:${identity.externalId}`;
    const known = byKey.get(key);
    if (!known || known.updatedAt < identity.updatedAt) byKey.set(key, identity);
  }
  return [...byKey.values()].sort(
    (a, b) => a.platform.localeCompare(b.platform) || a.externalId.localeCompare(b.externalId),
  );
}
