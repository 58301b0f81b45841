import type { SqlParameter } from '@azure/cosmos';
import type { ContainerDefinition } from '../../platform/cosmos.js';
import {
  TenantRepository,
  type AccountScope,
  type Page,
  type Stored,
} from '../../platform/repo.js';
import type { CommissionScheme, ConsignorFees } from '../money-math.js';
import type {
  AgreementCurrency,
  PendingLot,
  StatementAdjustment,
  StatementLine,
  StatementStatus,
  StatementTotals,
} from './settlements.schema.js';
import type { Currency } from '../../auctions/auctions.schema.js';

/**
 * Consignor agreements and settlement statements, one partition per account. A consignor's
 * agreement is keyed by their normalised name (one per consignor, two creates cannot both land);
 * a statement by auction, consignor and sequence (two builds at once cannot both add one).
 */
export const settlementsContainer: ContainerDefinition = {
  id: 'settlements',
  partitionKey: '/accountId',
  compositeIndexes: [
    [
      { path: '/kind', order: 'ascending' },
      { path: '/createdAt', order: 'descending' },
    ],
    [
      { path: '/kind', order: 'ascending' },
      { path: '/consignorKey', order: 'ascending' },
    ],
  ],
};

interface Person {
  id: string;
  name: string;
}

export interface AgreementRecord {
  id: string;
  accountId: string;
  kind: 'agreement';
  /** The normalised name lots are matched by; '' on the default. */
  consignorKey: string;
  consignorName: string | null;
  isDefault: boolean;
  /** What the amounts are in; absent on agreements kept before it was (read as the account's). */
  currency?: AgreementCurrency;
  commission: CommissionScheme;
  fees: ConsignorFees;
  payoutDetails: string;
  /** The ETag clients hold, versioned apart from the document. */
  revision: number;
  createdAt: string;
  updatedAt: string;
  updatedBy: Person | null;
}

export interface StatementRecord {
  id: string;
  accountId: string;
  kind: 'statement';
  auctionId: string;
  auctionTitle: string;
  consignorKey: string;
  consignorName: string;
  sequence: number;
  status: StatementStatus;
  currency: Currency;
  agreement: {
    id: string;
    isDefault: boolean;
    commission: CommissionScheme;
    fees: ConsignorFees;
    payoutDetails: string;
  };
  lines: StatementLine[];
  adjustments: StatementAdjustment[];
  pending: PendingLot[];
  totals: StatementTotals;
  revision: number;
  createdAt: string;
  updatedAt: string;
  approvedAt: string | null;
  approvedBy: Person | null;
  paidAt: string | null;
  paidOn: string | null;
  payoutReference: string | null;
  paidRecordedBy: Person | null;
}

type SettlementsDocument = AgreementRecord | StatementRecord;

const documents = new TenantRepository<SettlementsDocument>(settlementsContainer.id);

export const DEFAULT_AGREEMENT_ID = 'agreement-default';

export async function findAgreement(scope: AccountScope, id: string) {
  const found = await documents.find(scope, id);
  return found?.kind === 'agreement' ? (found as Stored<AgreementRecord>) : undefined;
}

export async function agreementsByKey(scope: AccountScope, keys: string[]) {
  if (keys.length === 0) return [];
  return (await documents.all(scope, {
    where: "c.kind = 'agreement' AND ARRAY_CONTAINS(@keys, c.consignorKey)",
    parameters: [{ name: '@keys', value: keys }],
  })) as Stored<AgreementRecord>[];
}

export async function agreementPage(
  scope: AccountScope,
  pageSize: number,
  continuationToken: string | undefined,
): Promise<Page<Stored<AgreementRecord>>> {
  return (await documents.page(scope, {
    where: "c.kind = 'agreement' AND c.isDefault = false",
    orderBy: 'c.kind ASC, c.consignorKey ASC',
    pageSize,
    ...(continuationToken ? { continuationToken } : {}),
  })) as Page<Stored<AgreementRecord>>;
}

export const createAgreement = (scope: AccountScope, record: Omit<AgreementRecord, 'accountId'>) =>
  documents.create(scope, record) as Promise<Stored<AgreementRecord>>;

export const replaceAgreement = (scope: AccountScope, record: AgreementRecord, etag: string) =>
  documents.replace(scope, record, etag) as Promise<Stored<AgreementRecord>>;

export const deleteAgreement = (scope: AccountScope, id: string, etag: string) =>
  documents.delete(scope, id, etag);

export async function findStatement(scope: AccountScope, id: string) {
  const found = await documents.find(scope, id);
  return found?.kind === 'statement' ? (found as Stored<StatementRecord>) : undefined;
}

/** Every statement of one auction (all consignors), for a build. */
export async function statementsOfAuction(scope: AccountScope, auctionId: string) {
  return (await documents.all(scope, {
    where: "c.kind = 'statement' AND c.auctionId = @auctionId",
    parameters: [{ name: '@auctionId', value: auctionId }],
  })) as Stored<StatementRecord>[];
}

export interface StatementFilter {
  auctionId?: string | undefined;
  consignorKey?: string | undefined;
  status?: StatementStatus | undefined;
}

/** One page of statements, newest first; `select` keeps rows small for lists and exports. */
export async function statementPage(
  scope: AccountScope,
  filter: StatementFilter,
  pageSize: number,
  continuationToken: string | undefined,
): Promise<Page<Stored<StatementRecord>>> {
  const where = ["c.kind = 'statement'"];
  const parameters: SqlParameter[] = [];
  if (filter.auctionId) {
    where.push('c.auctionId = @auctionId');
    parameters.push({ name: '@auctionId', value: filter.auctionId });
  }
  if (filter.consignorKey) {
    where.push('c.consignorKey = @consignorKey');
    parameters.push({ name: '@consignorKey', value: filter.consignorKey });
  }
  if (filter.status) {
    where.push('c.status = @status');
    parameters.push({ name: '@status', value: filter.status });
  }
  return (await documents.page(scope, {
    where: where.join(' AND '),
    parameters,
    orderBy: 'c.kind ASC, c.createdAt DESC',
    pageSize,
    ...(continuationToken ? { continuationToken } : {}),
  })) as Page<Stored<StatementRecord>>;
}

export const createStatement = (scope: AccountScope, record: Omit<StatementRecord, 'accountId'>) =>
  documents.create(scope, record) as Promise<Stored<StatementRecord>>;

export const replaceStatement = (scope: AccountScope, record: StatementRecord, etag: string) =>
  documents.replace(scope, record, etag) as Promise<Stored<StatementRecord>>;

export const deleteStatement = (scope: AccountScope, id: string, etag: string) =>
  documents.delete(scope, id, etag);
