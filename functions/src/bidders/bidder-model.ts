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
} from './bidders.schema.js';
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
  etag: record._etag,
});

export const toBidder = (record: Stored<BidderRecord>): Bidder => ({
  ...pick(record, bidderFields),
  etag: record._etag,
});

/** The audit's view of a bidder: its facts, not the derived or bulky fields. */
export const auditView = (record: BidderRecord) => pick(record, factFields);
