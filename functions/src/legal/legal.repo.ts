import type { SqlParameter } from '@azure/cosmos';
import { container, type ContainerDefinition } from '../platform/cosmos.js';
import { TenantRepository, type AccountScope, type Stored } from '../platform/repo.js';
import type { Currency } from '../auctions/auctions.schema.js';
import type {
  CaseCategory,
  CasePriority,
  CaseStatus,
  CaseType,
  ListCasesQuery,
  NonPayment,
  Party,
  PendingApproval,
  Person,
  SettlementPayment,
} from './legal.schema.js';

/**
 * One container holds an account's cases with their timeline, notes and action items, so a case
 * and what it records of a change are written in one transactional batch.
 */
export const legalContainer: ContainerDefinition = {
  id: 'legal',
  partitionKey: '/accountId',
};

export interface CaseRecord {
  id: string;
  accountId: string;
  kind: 'case';
  caseNumber: string;
  caseType: CaseType;
  category: CaseCategory;
  priority: CasePriority;
  /** Critical 4 ... Low 1, for the list's priority sort. */
  priorityWeight: number;
  title: string;
  description: string;
  jurisdiction: string;
  claimAmount: number;
  currency: Currency;
  plaintiff: Party;
  defendant: Party;
  auction: { id: string; title: string } | null;
  bidder: { id: string; name: string } | null;
  status: CaseStatus;
  active: boolean;
  assignedTo: Person | null;
  legalCounsel: string;
  courtCaseNumber: string;
  estimatedResolutionDate: string | null;
  filingDeadline: string | null;
  settlementAmount: number | null;
  settlementPayment: SettlementPayment | null;
  resolutionNotes: string;
  pendingApproval: PendingApproval | null;
  /** A non-paying-bidder case's purchase; absent on other cases and on records written before. */
  nonPayment?: NonPaymentRecord | null;
  automationPaused: boolean;
  /** Lower-cased case number, title, auction, bidder and type, for the list's search. */
  searchText: string;
  /** Versioned apart from the document so its ETag is stable across retried writes. */
  revision: number;
  createdAt: string;
  /** The UTC day it was filed, for the list's date filter. */
  filedDay: string;
  createdBy: Person | null;
  updatedAt: string;
  statusChangedAt: string;
  /** When the assignee was last reminded of the case going quiet. */
  remindedAt: string | null;
}

/** What a non-paying-bidder case keeps of its purchase; the strike is worked out from it. */
export type NonPaymentRecord = Omit<NonPayment, 'strike'> & {
  /** The case was dismissed at some point: the bidder is not held to it. */
  dismissed: boolean;
};

/**
 * One per purchase (auction and bidder) a non-paying-bidder case was filed for, created in the
 * case's batch: a second case for the same purchase, even filed at the same instant, conflicts.
 * It names its case, so deleting the case frees the purchase.
 */
export interface PurchaseClaim {
  id: string;
  accountId: string;
  kind: 'purchaseClaim';
  caseId: string;
}

export const purchaseClaimId = (auctionId: string, bidderId: string) =>
  `npb:${auctionId}:${bidderId}`;

export async function findPurchaseClaim(scope: AccountScope, auctionId: string, bidderId: string) {
  const found = await legalDocuments.find(scope, purchaseClaimId(auctionId, bidderId));
  return found?.kind === 'purchaseClaim' ? (found as Stored<PurchaseClaim>) : undefined;
}

/** The account's next case number: bumped in the batch that creates a case, never reused. */
export interface CaseCounter {
  id: 'case-counter';
  accountId: string;
  kind: 'counter';
  next: number;
}

export interface CaseEventRecord {
  id: string;
  accountId: string;
  kind: 'event';
  caseId: string;
  at: string;
  action: string;
  detail: string;
  fromStatus: CaseStatus | null;
  toStatus: CaseStatus | null;
  by: Person | null;
  automated: boolean;
}

export interface CaseNoteRecord {
  id: string;
  accountId: string;
  kind: 'note';
  caseId: string;
  text: string;
  by: Person | null;
  at: string;
}

export interface ActionItemRecord {
  id: string;
  accountId: string;
  kind: 'action';
  caseId: string;
  text: string;
  assignee: Person | null;
  dueDate: string | null;
  done: boolean;
  doneAt: string | null;
  doneBy: Person | null;
  createdAt: string;
  createdBy: Person | null;
}

export type LegalDocument =
  CaseRecord | CaseCounter | CaseEventRecord | CaseNoteRecord | ActionItemRecord | PurchaseClaim;

export const legalDocuments = new TenantRepository<LegalDocument>(legalContainer.id);

export const COUNTER_ID = 'case-counter';

export async function findCase(scope: AccountScope, id: string) {
  const found = await legalDocuments.find(scope, id);
  return found?.kind === 'case' ? (found as Stored<CaseRecord>) : undefined;
}

export async function findCounter(scope: AccountScope) {
  const found = await legalDocuments.find(scope, COUNTER_ID);
  return found?.kind === 'counter' ? (found as Stored<CaseCounter>) : undefined;
}

export async function findActionItem(scope: AccountScope, caseId: string, id: string) {
  const found = await legalDocuments.find(scope, id);
  return found?.kind === 'action' && found.caseId === caseId
    ? (found as Stored<ActionItemRecord>)
    : undefined;
}

const sortPaths: Record<ListCasesQuery['sortBy'], string> = {
  date: 'c.createdAt',
  priority: 'c.priorityWeight',
  amount: 'c.claimAmount',
  updated: 'c.updatedAt',
  caseNumber: 'c.caseNumber',
};

/** The SQL condition and parameters of a list's filters (cases only). */
function listCondition(
  query: ListCasesQuery,
  assignee: string | undefined,
): { where: string; parameters: SqlParameter[] } {
  const clauses = ["c.kind = 'case'"];
  const parameters: SqlParameter[] = [];
  const oneOf = (path: string, name: string, values: readonly string[] | undefined) => {
    if (!values || values.length === 0) return;
    clauses.push(`ARRAY_CONTAINS(@${name}, ${path})`);
    parameters.push({ name: `@${name}`, value: [...values] });
  };
  oneOf('c.status', 'statuses', query.status);
  oneOf('c.caseType', 'types', query.type);
  oneOf('c.priority', 'priorities', query.priority);
  if (query.state) clauses.push(query.state === 'active' ? 'c.active = true' : 'c.active = false');
  if (assignee) {
    clauses.push('c.assignedTo.id = @assignee');
    parameters.push({ name: '@assignee', value: assignee });
  }
  if (query.bidderId) {
    clauses.push('c.bidder.id = @bidderId');
    parameters.push({ name: '@bidderId', value: query.bidderId });
  }
  if (query.search) {
    clauses.push('CONTAINS(c.searchText, @search)');
    parameters.push({ name: '@search', value: query.search.toLowerCase() });
  }
  if (query.startDate) {
    clauses.push('c.filedDay >= @from');
    parameters.push({ name: '@from', value: query.startDate });
  }
  if (query.endDate) {
    clauses.push('c.filedDay <= @until');
    parameters.push({ name: '@until', value: query.endDate });
  }
  return { where: clauses.join(' AND '), parameters };
}

/** One numbered page of the list, in its order (see TenantRepository.numberedPage). */
export async function listCasePage(
  scope: AccountScope,
  query: ListCasesQuery,
  assignee: string | undefined,
): Promise<Stored<CaseRecord>[]> {
  const { where, parameters } = listCondition(query, assignee);
  const orderBy = `${sortPaths[query.sortBy]} ${query.sortOrder === 'asc' ? 'ASC' : 'DESC'}`;
  return (await legalDocuments.numberedPage(
    scope,
    { where, parameters, orderBy },
    query.page,
    query.limit,
  )) as Stored<CaseRecord>[];
}

export function countCases(
  scope: AccountScope,
  query: ListCasesQuery,
  assignee: string | undefined,
) {
  return legalDocuments.count(scope, listCondition(query, assignee));
}

/** Every case's number, type, auction and bidder (an upload matches its rows against them). */
export async function caseKeys(scope: AccountScope) {
  return (await legalDocuments.all(scope, {
    select: 'c.id, c.caseNumber, c.caseType, c.auction.id AS auctionId, c.bidder.id AS bidderId',
    where: "c.kind = 'case'",
  })) as unknown as {
    id: string;
    caseNumber: string;
    caseType: CaseType;
    auctionId?: string;
    bidderId?: string;
  }[];
}

/** What the analytics count of every case: small rows, one query. */
export async function caseFigures(scope: AccountScope) {
  return (await legalDocuments.all(scope, {
    select: 'c.status, c.priority, c.caseType, c.active, c.claimAmount, c.currency',
    where: "c.kind = 'case'",
  })) as unknown as Pick<
    CaseRecord,
    'status' | 'priority' | 'caseType' | 'active' | 'claimAmount' | 'currency'
  >[];
}

/** The records of one kind that hang off a case, in the order given. */
async function recordsOf<T extends LegalDocument>(
  scope: AccountScope,
  kind: T['kind'],
  caseId: string,
  orderBy: string,
) {
  return (await legalDocuments.all(scope, {
    where: 'c.kind = @kind AND c.caseId = @caseId',
    parameters: [
      { name: '@kind', value: kind },
      { name: '@caseId', value: caseId },
    ],
    orderBy,
  })) as unknown as Stored<T>[];
}

export const eventsOf = (scope: AccountScope, caseId: string) =>
  recordsOf<CaseEventRecord>(scope, 'event', caseId, 'c.at DESC');
export const notesOf = (scope: AccountScope, caseId: string) =>
  recordsOf<CaseNoteRecord>(scope, 'note', caseId, 'c.at DESC');
export const actionItemsOf = (scope: AccountScope, caseId: string) =>
  recordsOf<ActionItemRecord>(scope, 'action', caseId, 'c.createdAt ASC');

/** Every document of a case (it and what hangs off it), for deleting it. */
export async function documentIdsOf(scope: AccountScope, caseId: string) {
  return (
    (await legalDocuments.all(scope, {
      select: 'c.id',
      where: 'c.caseId = @caseId',
      parameters: [{ name: '@caseId', value: caseId }],
    })) as unknown as { id: string }[]
  ).map((row) => row.id);
}

/** A case automation may have something to do with, in any account. */
export interface AutomationCandidate {
  id: string;
  accountId: string;
}

/**
 * Cases of every account that automation may move or remind about at `now`: crosses partitions
 * on purpose, reads ids only, and each is checked again before anything is written.
 */
export async function automationCandidates(cutoffs: {
  review: string;
  resolved: string;
  dismissed: string;
  quiet: string;
  now: string;
}): Promise<AutomationCandidate[]> {
  const { resources } = await container(legalContainer.id)
    .items.query<AutomationCandidate>({
      query: `SELECT c.id, c.accountId FROM c WHERE c.kind = 'case' AND c.automationPaused = false AND (
        (c.status = 'PENDING' AND c.createdAt <= @review)
        OR (c.status = 'RESOLVED' AND c.statusChangedAt <= @resolved)
        OR (c.status = 'DISMISSED' AND c.statusChangedAt <= @dismissed)
        OR (c.status = 'SETTLED' AND IS_DEFINED(c.settlementPayment) AND NOT IS_NULL(c.settlementPayment))
        OR (c.active = true AND NOT IS_NULL(c.assignedTo) AND c.updatedAt <= @quiet
          AND (IS_NULL(c.remindedAt) OR c.remindedAt <= @quiet))
        OR (c.active = true AND IS_DEFINED(c.nonPayment) AND NOT IS_NULL(c.nonPayment)
          AND NOT IS_NULL(c.nonPayment.nextReminderAt) AND c.nonPayment.nextReminderAt <= @now))`,
      parameters: [
        { name: '@review', value: cutoffs.review },
        { name: '@resolved', value: cutoffs.resolved },
        { name: '@dismissed', value: cutoffs.dismissed },
        { name: '@quiet', value: cutoffs.quiet },
        { name: '@now', value: cutoffs.now },
      ],
    })
    .fetchAll();
  return resources;
}
