import { randomUUID } from 'node:crypto';
import { getAuction } from '../auctions/auctions.service.js';
import { listLots } from '../auctions/lots/lots.service.js';
import { currencyExponent } from '../auctions/auctions.schema.js';
import { getBidder } from '../bidders/bidders.service.js';
import { recordCaseStanding, type CaseStanding } from '../bidders/legal-disputes.service.js';
import { membersHolding } from '../identity/team/team.service.js';
import { notify } from '../notifications/notifications.service.js';
import type { NotificationSubject } from '../notifications/notifications.schema.js';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { isConflict, isNotFound, isStale } from '../platform/cosmos-errors.js';
import { AppError, conflict, forbidden, notFound, preconditionFailed } from '../platform/errors.js';
import { MAX_BATCH_OPERATIONS, type BatchOperation, type Stored } from '../platform/repo.js';
import { validationError } from '../platform/validation.js';
import {
  COUNTER_ID,
  actionItemsOf,
  caseFigures,
  caseKeys,
  countCases,
  documentIdsOf,
  eventsOf,
  findActionItem,
  findCase,
  findCounter,
  findPurchaseClaim,
  legalDocuments,
  listCasePage,
  notesOf,
  type ActionItemRecord,
  type CaseEventRecord,
  type CaseNoteRecord,
  type CaseRecord,
  type LegalDocument,
  type NonPaymentRecord,
  type PurchaseClaim,
  purchaseClaimId,
} from './legal.repo.js';
import {
  DIRECTOR_APPROVAL_ABOVE,
  NON_PAYMENT_FILE_AFTER_DAYS,
  NON_PAYMENT_FILE_WITHIN_DAYS,
  caseStatuses,
  casePriorities,
  caseTransitions,
  caseTypeLabels,
  caseTypes,
  isActiveStatus,
  priorityWeights,
  type ActionItem,
  type ActionUpdate,
  type ApprovalDecision,
  type CaseAnalytics,
  type CaseInput,
  type CaseNote,
  type CaseStatus,
  type CaseUpdate,
  type LegalCase,
  type ListCasesQuery,
  type ListCasesResponse,
  type NonPayment,
  type NonPaymentInput,
  type Person,
  type SettlementPaymentInput,
  type StatusChange,
  type TimelineEntry,
} from './legal.schema.js';
import { departmentHeads } from './rules/department-head.service.js';
import { builtInEnabled } from './rules/rules.repo.js';

/** The case's ETag: the revision of what people edit, stable across a retried write. */
export const caseEtag = (record: Pick<CaseRecord, 'id' | 'revision'>) =>
  `${record.id}-r${record.revision}`;

const APPROVE = 'legal:workflow_approve';
const ASSIGNABLE = 'legal:workflow';

function nonPaymentView(record: NonPaymentRecord): NonPayment {
  const { dismissed: _dismissed, ...shown } = record;
  return { ...shown, strike: isStrike(record) };
}

export function toCase(record: CaseRecord): LegalCase {
  return {
    id: record.id,
    caseNumber: record.caseNumber,
    caseType: record.caseType,
    category: record.category,
    priority: record.priority,
    title: record.title,
    description: record.description,
    jurisdiction: record.jurisdiction,
    claimAmount: record.claimAmount,
    currency: record.currency,
    plaintiff: record.plaintiff,
    defendant: record.defendant,
    auction: record.auction,
    bidder: record.bidder,
    status: record.status,
    assignedTo: record.assignedTo,
    legalCounsel: record.legalCounsel,
    courtCaseNumber: record.courtCaseNumber,
    estimatedResolutionDate: record.estimatedResolutionDate,
    filingDeadline: record.filingDeadline,
    settlementAmount: record.settlementAmount,
    settlementPayment: record.settlementPayment,
    resolutionNotes: record.resolutionNotes,
    pendingApproval: record.pendingApproval,
    nonPayment: record.nonPayment ? nonPaymentView(record.nonPayment) : null,
    automationPaused: record.automationPaused,
    allowedTransitions: record.pendingApproval ? [] : [...caseTransitions[record.status]],
    createdAt: record.createdAt,
    createdBy: record.createdBy,
    updatedAt: record.updatedAt,
    statusChangedAt: record.statusChangedAt,
    etag: caseEtag(record),
  };
}

/** Who acted, as a case records it; Lotwise's own automation is nobody. */
const personOf = (ctx: RequestContext): Person | null =>
  ctx.actor.kind === 'system' ? null : { id: ctx.actor.userId, name: ctx.actor.name };

const searchTextOf = (
  record: Pick<CaseRecord, 'caseNumber' | 'title' | 'caseType' | 'auction' | 'bidder'>,
) =>
  [
    record.caseNumber,
    record.title,
    caseTypeLabels[record.caseType],
    record.caseType,
    record.auction?.title ?? '',
    record.auction?.id ?? '',
    record.bidder?.name ?? '',
  ]
    .join(' ')
    .toLowerCase();

const referenceProblem = (field: string, message: string) =>
  validationError([{ location: 'body', field, message }]);

/** A record the request names by id: the account's own, or a 400 naming the field. */
async function referenced<T>(field: string, message: string, read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error) || (error as { code?: string }).code === 'not_found') {
      throw referenceProblem(field, message);
    }
    throw error;
  }
}

const accountAuction = (ctx: RequestContext, id: string) =>
  referenced('auctionId', 'is not an auction of this account', getAuction(ctx, id));
const accountBidder = (ctx: RequestContext, id: string) =>
  referenced('bidderId', 'is not a bidder of this account', getBidder(ctx, id));

/** The auction a case names, if any. */
async function auctionRef(ctx: RequestContext, id: string | null) {
  if (id === null) return null;
  const auction = await accountAuction(ctx, id);
  return { id: auction.id, title: auction.title };
}

async function bidderRef(ctx: RequestContext, id: string | null) {
  if (id === null) return null;
  const bidder = await accountBidder(ctx, id);
  return { id: bidder.id, name: `${bidder.firstName} ${bidder.lastName}`.trim() };
}

/** Whom a case may be assigned to: an active member who may move cases through the workflow. */
export const assignees = (ctx: RequestContext) => membersHolding(ctx.scope, ASSIGNABLE);

async function assigneeRef(ctx: RequestContext, id: string | null, field = 'assignedTo') {
  if (id === null) return null;
  const found = (await assignees(ctx)).find((member) => member.id === id);
  if (!found) {
    throw referenceProblem(field, 'is not a member who can work on legal cases');
  }
  return found;
}

export const eventOf = (
  caseId: string,
  at: string,
  by: Person | null,
  fields: Pick<CaseEventRecord, 'action' | 'detail'> &
    Partial<Pick<CaseEventRecord, 'fromStatus' | 'toStatus'>>,
): Omit<CaseEventRecord, 'accountId'> => ({
  id: randomUUID(),
  kind: 'event',
  caseId,
  at,
  by,
  automated: by === null,
  fromStatus: fields.fromStatus ?? null,
  toStatus: fields.toStatus ?? null,
  action: fields.action,
  detail: fields.detail,
});

export const statusEvent = (
  caseId: string,
  at: string,
  by: Person | null,
  from: CaseStatus,
  to: CaseStatus,
  reason: string,
) =>
  eventOf(caseId, at, by, {
    action: 'Status changed',
    detail: reason,
    fromStatus: from,
    toStatus: to,
  });

/**
 * SUBMITTED -> PENDING on assignment (spec 4.1, "initial review and assignment"), unless the
 * case's automation is paused.
 */
function assignmentMove(
  record: Omit<CaseRecord, 'accountId'>,
  at: string,
): Omit<CaseEventRecord, 'accountId'> | null {
  if (record.status !== 'SUBMITTED' || !record.assignedTo || record.automationPaused) return null;
  record.status = 'PENDING';
  record.active = isActiveStatus('PENDING');
  record.statusChangedAt = at;
  return statusEvent(
    record.id,
    at,
    null,
    'SUBMITTED',
    'PENDING',
    `Assigned to ${record.assignedTo.name}: initial review and assignment`,
  );
}

/** A non-paying-bidder case holds against its bidder until paid or dismissed, open or lost. */
const isStrike = (nonPayment: CaseRecord['nonPayment']) =>
  !!nonPayment && nonPayment.payment === null && !nonPayment.dismissed;

/**
 * Where a case leaves the bidder it names: an open payment dispute counts in their dispute history
 * (spec: it lowers their Lotwise Score) until it ends or the purchase it is about is paid, and an
 * unpaid non-paying-bidder case is a strike.
 */
const standingOf = (record: CaseRecord): CaseStanding => ({
  // A purchase paid ends the dispute for the bidder, whatever the case's paperwork still needs.
  disputed: record.caseType === 'payment_dispute' && record.active && !record.nonPayment?.payment,
  strike: isStrike(record.nonPayment),
});

const sameStanding = (a: CaseStanding, b: CaseStanding) =>
  a.disputed === b.disputed && a.strike === b.strike;

const NO_STANDING: CaseStanding = { disputed: false, strike: false };

/**
 * Keeps the bidders' records in step with a case's write: the bidder it stopped naming loses what
 * it held against them, the one it names now gets where it stands (each idempotent, so a write
 * retried or repeated counts once).
 */
async function syncDispute(
  ctx: RequestContext,
  before: CaseRecord | null,
  after: CaseRecord | null,
) {
  const was = before?.bidder?.id ?? null;
  const is = after?.bidder?.id ?? null;
  const record = (after ?? before) as CaseRecord;
  const cause = (standing: CaseStanding) =>
    `Legal case ${record.caseNumber} ${
      standing.disputed
        ? 'open against them'
        : standing.strike
          ? 'holds a non-paying-bidder strike against them'
          : 'no longer open against them'
    }`;
  if (was && was !== is) {
    await recordCaseStanding(ctx, was, record.id, NO_STANDING, cause(NO_STANDING));
  }
  if (is && after) {
    const standing = standingOf(after);
    const changed = was !== is || !before || !sameStanding(standingOf(before), standing);
    // Whatever a case holds is applied again on every write, which mends a bidder write lost
    // after the case's landed.
    if (changed || standing.disputed || standing.strike)
      await recordCaseStanding(ctx, is, record.id, standing, cause(standing));
  }
}

const caseNumberOf = (number: number, at: string) =>
  `LC-${at.slice(0, 4)}-${String(number).padStart(4, '0')}`;

/** What the audit keeps of a case: its fields without the search key. */
const auditView = (record: CaseRecord) => {
  const { searchText: _s, ...rest } = record;
  return rest;
};

/**
 * Files a case. Its number comes from the account's counter, bumped in the same batch that writes
 * the case, so two cases filed at once never share a number and a deleted one's is never reused.
 */
export async function createCase(
  ctx: RequestContext,
  input: CaseInput,
  /** The unpaid purchase of a non-paying-bidder case (fileNonPaymentCase). */
  nonPayment: NonPaymentRecord | null = null,
  /**
   * An upload's row: its document id (a second write of it is refused, 409) and the case number
   * its file gives, which the account's counter then does not issue.
   */
  given: { id?: string; caseNumber?: string } = {},
) {
  const [auction, bidder, assignedTo] = await Promise.all([
    auctionRef(ctx, input.auctionId),
    bidderRef(ctx, input.bidderId),
    assigneeRef(ctx, input.assignedTo),
  ]);
  const by = personOf(ctx);
  for (let attempt = 0; ; attempt += 1) {
    const counter = await findCounter(ctx.scope);
    const number = (counter?.next ?? 1) as number;
    const now = new Date().toISOString();
    const id = given.id ?? randomUUID();
    const caseNumber = given.caseNumber ?? caseNumberOf(number, now);
    const record: Omit<CaseRecord, 'accountId'> = {
      id,
      kind: 'case',
      caseNumber,
      caseType: input.caseType,
      category: input.category,
      priority: input.priority,
      priorityWeight: priorityWeights[input.priority],
      title: input.title,
      description: input.description,
      jurisdiction: input.jurisdiction,
      claimAmount: input.claimAmount,
      currency: input.currency,
      plaintiff: input.plaintiff,
      defendant: input.defendant,
      auction,
      bidder,
      status: 'SUBMITTED',
      active: true,
      assignedTo,
      legalCounsel: '',
      courtCaseNumber: '',
      estimatedResolutionDate: null,
      filingDeadline: null,
      settlementAmount: null,
      settlementPayment: null,
      resolutionNotes: '',
      pendingApproval: null,
      nonPayment,
      automationPaused: false,
      searchText: '',
      revision: 1,
      createdAt: now,
      filedDay: now.slice(0, 10),
      createdBy: by,
      updatedAt: now,
      statusChangedAt: now,
      remindedAt: null,
    };
    record.searchText = searchTextOf(record);
    const filed = eventOf(id, now, by, {
      action: 'Case filed',
      detail: `${caseNumber}: ${input.title}`,
      toStatus: 'SUBMITTED',
    });
    const moved = assignmentMove(record, now);
    const nextCounter = { id: COUNTER_ID, kind: 'counter' as const, next: number + 1 };
    const claim: Omit<PurchaseClaim, 'accountId'> | null =
      nonPayment && auction && bidder
        ? { id: purchaseClaimId(auction.id, bidder.id), kind: 'purchaseClaim', caseId: id }
        : null;
    const operations: BatchOperation<LegalDocument>[] = [
      ...(given.caseNumber
        ? []
        : [
            counter
              ? { op: 'replace' as const, document: nextCounter, etag: counter._etag }
              : { op: 'create' as const, document: nextCounter },
          ]),
      { op: 'create', document: record },
      { op: 'create', document: filed },
      ...(moved ? [{ op: 'create' as const, document: moved }] : []),
      ...(claim ? [{ op: 'create' as const, document: claim }] : []),
    ];
    try {
      const written = await legalDocuments.batch(ctx.scope, operations);
      const saved = written[given.caseNumber ? 0 : 1] as Stored<CaseRecord>;
      await writeAudit(ctx, {
        action: 'legal_case.create',
        entity: { type: 'legal_case', id },
        after: auditView(saved),
      });
      if (saved.priority === 'critical') await tellLegalHead(ctx, saved, filed);
      await syncDispute(ctx, null, saved);
      return saved;
    } catch (error) {
      if (nonPayment && auction && bidder && isConflict(error)) {
        await refuseSecondClaim(ctx, auction.id, bidder.id);
      }
      if (given.id && isConflict(error) && (await findCase(ctx.scope, given.id))) {
        throw conflict('This case is already on file', { caseId: given.id });
      }
      // Someone else took this number first: take the next.
      if (!(isStale(error) || isConflict(error)) || attempt >= 10) throw error;
    }
  }
}

/** A purchase already has its non-paying-bidder case: the 409 names it. */
async function refuseSecondClaim(ctx: RequestContext, auctionId: string, bidderId: string) {
  const claim = await findPurchaseClaim(ctx.scope, auctionId, bidderId);
  if (!claim) return;
  const existing = await findCase(ctx.scope, claim.caseId);
  throw conflict(
    `${existing?.caseNumber ?? 'Another case'} is already the non-paying-bidder case for this purchase`,
    { caseId: claim.caseId },
  );
}

export const DAY_MS = 86_400_000;

/**
 * Files a non-paying-bidder case for what a bidder bought in a closed auction and has not paid
 * for, as the platforms do (LiveAuctioneers: 5 to 45 days after the sale). The amount due is the
 * hammer total of the lots they won; the bidder is reminded by the automation (three reminders, a
 * week apart), and until the purchase is paid or the case dismissed it is a strike against them.
 */
export async function fileNonPaymentCase(ctx: RequestContext, input: NonPaymentInput) {
  const auction = await accountAuction(ctx, input.auctionId);
  if (auction.status !== 'Completed' || !auction.closedAt) {
    throw referenceProblem('auctionId', 'has not closed: a purchase is unpaid only after the sale');
  }
  const bidder = await accountBidder(ctx, input.bidderId);
  const bought = (await listLots(ctx, auction.id)).filter(
    (lot) => lot.result?.outcome === 'sold' && lot.result.buyerId === bidder.id,
  );
  if (bought.length === 0) throw referenceProblem('bidderId', 'bought nothing in this auction');
  // The sale is when bidding ended; a sale clerked and closed later still dates from then.
  const saleAt = auction.closedAt < auction.endsAt ? auction.closedAt : auction.endsAt;
  const saleDay = saleAt.slice(0, 10);
  const days = (Date.now() - Date.parse(saleAt)) / DAY_MS;
  if (days < NON_PAYMENT_FILE_AFTER_DAYS) {
    const from = new Date(Date.parse(saleAt) + NON_PAYMENT_FILE_AFTER_DAYS * DAY_MS);
    throw conflict(
      `The purchase is not overdue yet: a non-paying-bidder case can be filed from ${NON_PAYMENT_FILE_AFTER_DAYS} days after the sale (${from.toISOString().slice(0, 10)})`,
    );
  }
  if (days > NON_PAYMENT_FILE_WITHIN_DAYS) {
    throw conflict(
      `A non-paying-bidder case must be filed within ${NON_PAYMENT_FILE_WITHIN_DAYS} days of the sale; this sale ended on ${saleDay}`,
    );
  }
  await refuseSecondClaim(ctx, auction.id, bidder.id);
  const name = `${bidder.firstName} ${bidder.lastName}`.trim();
  const amountDue = bought.reduce((sum, lot) => sum + (lot.result?.hammer ?? 0), 0);
  const lots = bought
    .map((lot) => ({ lotNumber: lot.lotNumber, title: lot.title, hammer: lot.result?.hammer ?? 0 }))
    .sort((a, b) => a.lotNumber.localeCompare(b.lotNumber, 'en', { numeric: true }));
  const now = new Date().toISOString();
  return createCase(
    ctx,
    {
      caseType: 'payment_dispute',
      category: 'post_sale',
      priority: input.priority,
      title: `Non-paying bidder: ${name}`,
      description:
        input.description ||
        `${name} has not paid for ${lots.length === 1 ? '1 lot' : `${lots.length} lots`} bought in ${auction.title} on ${saleDay} (${money(amountDue, auction.currency)}).`,
      jurisdiction: input.jurisdiction,
      claimAmount: amountDue,
      currency: auction.currency,
      plaintiff: { name: auction.auctionHouseName, type: 'business', email: '' },
      defendant: { name, type: 'individual', email: bidder.email ?? '' },
      auctionId: auction.id,
      bidderId: bidder.id,
      assignedTo: input.assignedTo,
    },
    {
      saleDate: saleAt,
      lots,
      amountDue,
      reminders: [],
      // The first reminder goes with the automation's next run.
      nextReminderAt: now,
      payment: null,
      dismissed: false,
    },
  );
}

export async function getCase(ctx: Pick<RequestContext, 'scope'>, id: string) {
  const found = await findCase(ctx.scope, id);
  if (!found) throw notFound('Case not found');
  return found;
}

const stale = () =>
  preconditionFailed('Someone else changed this case; reload it to see their changes');

export interface Revision {
  changes: Partial<CaseRecord>;
  /** What the change adds beside the case: timeline entries, a note. */
  events: Omit<CaseEventRecord | CaseNoteRecord, 'accountId'>[];
  /** Run once the write has landed (notifications). */
  after?: (saved: Stored<CaseRecord>) => Promise<void>;
}

/**
 * Writes a change to a case with what the timeline records of it, all or none. With `expected`,
 * only while the caller's revision is current (412 otherwise); without, a write that lost a race
 * is worked out again from the case as it now is. A change that finds nothing (left) to do
 * answers null and nothing is written (automation run twice).
 */
export async function reviseCase(
  ctx: RequestContext,
  id: string,
  expected: string | undefined,
  action: string,
  change: (current: Stored<CaseRecord>, now: string) => Revision | null | Promise<Revision | null>,
  /** Automation's clock: a run at a given instant writes that instant. */
  clock: () => Date = () => new Date(),
) {
  for (let attempt = 0; ; attempt += 1) {
    const current = await getCase(ctx, id);
    if (expected !== undefined && expected !== caseEtag(current)) throw stale();
    const now = clock().toISOString();
    const revision = await change(current, now);
    if (revision === null) return current;
    const { changes, events, after } = revision;
    const { _etag, _ts, ...stored } = current;
    const next: Omit<CaseRecord, 'accountId'> = {
      ...stored,
      ...changes,
      revision: current.revision + 1,
      updatedAt: changes.updatedAt ?? now,
    };
    next.priorityWeight = priorityWeights[next.priority];
    next.active = isActiveStatus(next.status);
    if (next.nonPayment) {
      next.nonPayment = {
        ...next.nonPayment,
        dismissed: next.nonPayment.dismissed || next.status === 'DISMISSED',
        // The bidder is reminded only while the case is open and the purchase unpaid.
        nextReminderAt:
          next.active && next.nonPayment.payment === null ? next.nonPayment.nextReminderAt : null,
      };
    }
    next.searchText = searchTextOf(next);
    const moved = 'assignedTo' in changes ? assignmentMove(next, now) : null;
    const operations: BatchOperation<LegalDocument>[] = [
      { op: 'replace', document: next, etag: _etag },
      ...[...events, ...(moved ? [moved] : [])].map((document) => ({
        op: 'create' as const,
        document,
      })),
    ];
    try {
      const [saved] = (await legalDocuments.batch(ctx.scope, operations)) as [Stored<CaseRecord>];
      await writeAudit(ctx, {
        action,
        entity: { type: 'legal_case', id },
        before: auditView(current),
        after: auditView(saved),
      });
      await syncDispute(ctx, current, saved);
      await after?.(saved);
      if (saved.priority === 'critical' && events.length > 0) {
        await tellLegalHead(ctx, saved, events[0] as Omit<CaseEventRecord, 'accountId'>);
      }
      return saved;
    } catch (error) {
      if (!isStale(error) || attempt >= 5) throw error;
    }
  }
}

const labelled: Partial<Record<keyof CaseUpdate, string>> = {
  caseType: 'Case type',
  category: 'Category',
  priority: 'Priority',
  title: 'Title',
  description: 'Description',
  jurisdiction: 'Jurisdiction',
  plaintiff: 'Plaintiff',
  defendant: 'Defendant',
  claimAmount: 'Claim amount',
  legalCounsel: 'Legal counsel',
  courtCaseNumber: 'Court case number',
  estimatedResolutionDate: 'Estimated resolution',
  filingDeadline: 'Filing deadline',
  resolutionNotes: 'Resolution notes',
};

export async function updateCase(
  ctx: RequestContext,
  id: string,
  ifMatch: string,
  update: CaseUpdate,
) {
  return reviseCase(ctx, id, ifMatch, 'legal_case.update', async (current, now) => {
    if (current.status === 'CLOSED') {
      const edited = Object.keys(update).filter((key) => key !== 'resolutionNotes');
      if (edited.length > 0) {
        throw conflict('A CLOSED case keeps its record; only its resolution notes can change', {
          fields: edited,
        });
      }
    }
    const { auctionId, bidderId, assignedTo, ...fields } = update;
    const changes: Partial<CaseRecord> = { ...fields };
    if (auctionId !== undefined) changes.auction = await auctionRef(ctx, auctionId);
    if (bidderId !== undefined) changes.bidder = await bidderRef(ctx, bidderId);
    if (assignedTo !== undefined && assignedTo !== (current.assignedTo?.id ?? null)) {
      changes.assignedTo = await assigneeRef(ctx, assignedTo);
    }
    const by = personOf(ctx);
    const described = Object.entries(labelled)
      .filter(([key]) => key in fields)
      .filter(
        ([key]) =>
          JSON.stringify(fields[key as keyof typeof fields]) !==
          JSON.stringify(current[key as keyof CaseRecord]),
      )
      .map(([, label]) => label);
    const events: Omit<CaseEventRecord, 'accountId'>[] = [];
    if (described.length > 0) {
      events.push(eventOf(id, now, by, { action: 'Case updated', detail: described.join(', ') }));
    }
    if ('assignedTo' in changes) {
      events.push(
        eventOf(id, now, by, {
          action: changes.assignedTo ? 'Case assigned' : 'Assignment removed',
          detail: changes.assignedTo ? `Assigned to ${changes.assignedTo.name}` : '',
        }),
      );
    }
    return {
      changes,
      events,
      after: async (saved) => {
        if (saved.assignedTo && saved.assignedTo.id !== current.assignedTo?.id) {
          await notifyPeople(ctx, [saved.assignedTo.id], saved, {
            kind: 'legal.assigned',
            title: `${saved.caseNumber} assigned to you`,
            body: saved.title,
          });
        }
      },
    };
  });
}

/** Deletes a case with its timeline, notes and action items. */
export async function deleteCase(ctx: RequestContext, id: string, ifMatch: string | undefined) {
  const current = await getCase(ctx, id);
  if (ifMatch !== undefined && ifMatch !== caseEtag(current)) throw stale();
  const dependents = await documentIdsOf(ctx.scope, id);
  // The case goes last and with its ETag, so a failure part-way leaves it to delete again.
  for (let start = 0; start < dependents.length; start += MAX_BATCH_OPERATIONS) {
    await legalDocuments.writeBatch(
      ctx.scope,
      dependents
        .slice(start, start + MAX_BATCH_OPERATIONS)
        .map((documentId) => ({ op: 'delete', id: documentId })),
    );
  }
  try {
    await legalDocuments.delete(ctx.scope, id, current._etag);
  } catch (error) {
    if (isStale(error)) throw stale();
    throw error;
  }
  await syncDispute(ctx, current, null);
  await writeAudit(ctx, {
    action: 'legal_case.delete',
    entity: { type: 'legal_case', id },
    before: auditView(current),
  });
}

/** Every case's number, type, auction and bidder: what an upload matches its rows against. */
export const caseKeysOf = (ctx: Pick<RequestContext, 'scope'>) => caseKeys(ctx.scope);

/** The fields an upload may overwrite, and so what undoing it puts back. */
const restorable = [
  'caseType',
  'category',
  'priority',
  'title',
  'description',
  'jurisdiction',
  'claimAmount',
  'currency',
  'plaintiff',
  'defendant',
  'auction',
  'bidder',
] as const satisfies readonly (keyof CaseRecord)[];
export type RestorableCase = Pick<CaseRecord, 'id' | 'updatedAt' | (typeof restorable)[number]>;

/**
 * Puts a case's fields back as `before` had them (an upload undone), with the time it was last
 * changed then, so undoing an earlier upload still sees it as that one left it. A case changed
 * after `since` (by anyone, automation too) is kept as it is.
 */
export async function restoreCase(
  ctx: RequestContext,
  before: RestorableCase,
  since: string,
): Promise<'restored' | 'kept' | 'gone'> {
  let kept = false;
  try {
    await reviseCase(ctx, before.id, undefined, 'legal_case.restore', (current, now) => {
      kept = current.updatedAt > since;
      const edited = restorable.filter(
        (field) => JSON.stringify(before[field]) !== JSON.stringify(current[field]),
      );
      if (kept || edited.length === 0) return null;
      return {
        changes: {
          ...Object.fromEntries(edited.map((field) => [field, before[field]])),
          updatedAt: before.updatedAt,
        },
        events: [
          eventOf(before.id, now, personOf(ctx), {
            action: 'Case updated',
            detail: `Put back as it was before an upload: ${edited.join(', ')}`,
          }),
        ],
      };
    });
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return 'gone';
    throw error;
  }
  return kept ? 'kept' : 'restored';
}

/** Who holds the case's assignee, for a query's `assignedTo=me`. */
const assigneeFilter = (ctx: RequestContext, query: ListCasesQuery) =>
  query.assignedTo === 'me' ? ctx.actor.userId : query.assignedTo;

export async function listCases(
  ctx: RequestContext,
  query: ListCasesQuery,
): Promise<ListCasesResponse> {
  const assignee = assigneeFilter(ctx, query);
  const [records, total] = await Promise.all([
    listCasePage(ctx.scope, query, assignee),
    countCases(ctx.scope, query, assignee),
  ]);
  return { cases: records.map(toCase), total, page: query.page, limit: query.limit };
}

export async function caseAnalytics(ctx: RequestContext): Promise<CaseAnalytics> {
  const rows = await caseFigures(ctx.scope);
  const tally = <K extends string>(keys: readonly K[], of: (row: (typeof rows)[number]) => K) =>
    keys.map((key) => ({ key, count: rows.filter((row) => of(row) === key).length }));
  const amounts = new Map<string, number>();
  for (const row of rows.filter((candidate) => candidate.active)) {
    amounts.set(row.currency, (amounts.get(row.currency) ?? 0) + row.claimAmount);
  }
  return {
    total: rows.length,
    active: rows.filter((row) => row.active).length,
    critical: rows.filter((row) => row.active && row.priority === 'critical').length,
    pending: rows.filter((row) => row.status === 'PENDING').length,
    totalAmount: [...amounts]
      .map(([currency, amount]) => ({ currency: currency as LegalCase['currency'], amount }))
      .sort((a, b) => b.amount - a.amount),
    byStatus: tally(caseStatuses, (row) => row.status),
    byPriority: tally(casePriorities, (row) => row.priority),
    byType: tally(caseTypes, (row) => row.caseType),
  };
}

/** Whether a settlement needs a director: above $50,000 in the case's own currency units. */
const needsApproval = (amount: number, currency: LegalCase['currency']) =>
  amount > DIRECTOR_APPROVAL_ABOVE * 10 ** currencyExponent[currency];

function refuseMove(from: CaseStatus, to: CaseStatus): never {
  const allowed = caseTransitions[from].map((transition) => transition.to);
  throw conflict(
    allowed.length
      ? `A ${from} case can move to ${allowed.join(' or ')}, not ${to}`
      : `A ${from} case is final and cannot move to ${to}`,
    { status: from, allowed },
  );
}

/** The fields a move sets on the case. */
export const moveFields = (
  to: CaseStatus,
  now: string,
  settlement?: number,
): Partial<CaseRecord> => ({
  status: to,
  statusChangedAt: now,
  ...(to === 'SETTLED' ? { settlementAmount: settlement ?? null } : {}),
});

export const money = (amount: number, currency: LegalCase['currency']) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(
    amount / 10 ** currencyExponent[currency],
  );

/**
 * Moves a case along the workflow (spec 4.1), with a reason. A settlement above the director's
 * threshold does not take effect: it waits for someone who may approve it.
 */
export async function changeStatus(ctx: RequestContext, id: string, request: StatusChange) {
  return reviseCase(ctx, id, undefined, 'legal_case.status', async (current, now) => {
    if (current.pendingApproval) {
      throw conflict('This case has a settlement waiting for approval; decide it first', {
        pendingApproval: current.pendingApproval,
      });
    }
    const transition = caseTransitions[current.status].find((move) => move.to === request.to);
    if (!transition) refuseMove(current.status, request.to);
    if (transition.requiresSettlement && request.settlementAmount === undefined) {
      throw validationError([
        { location: 'body', field: 'settlementAmount', message: 'is required to settle a case' },
      ]);
    }
    const by = personOf(ctx);
    if (
      transition.requiresSettlement &&
      needsApproval(request.settlementAmount!, current.currency) &&
      (await builtInEnabled(ctx.scope, 'director-approval'))
    ) {
      const requester = by ?? { id: ctx.actor.userId, name: ctx.actor.name };
      const amount = request.settlementAmount!;
      return {
        changes: {
          pendingApproval: {
            to: request.to,
            settlementAmount: amount,
            reason: request.reason,
            requestedBy: requester,
            requestedAt: now,
          },
        },
        events: [
          eventOf(id, now, by, {
            action: 'Settlement sent for approval',
            detail: `${money(amount, current.currency)} needs a director's approval: ${request.reason}`,
          }),
        ],
        after: async (saved) => {
          const approvers = (await membersHolding(ctx.scope, APPROVE)).filter(
            (member) => member.id !== requester.id,
          );
          await notifyPeople(
            ctx,
            approvers.map((member) => member.id),
            saved,
            {
              kind: 'legal.approval',
              subject: { type: 'settlement_approval', id: saved.id },
              title: `Approval required: ${saved.caseNumber}`,
              body: `${requester.name} asks to settle for ${money(amount, saved.currency)}: ${request.reason}`,
            },
          );
        },
      };
    }
    return {
      changes: moveFields(request.to, now, request.settlementAmount),
      events: [statusEvent(id, now, by, current.status, request.to, request.reason)],
    };
  });
}

/** Approves or rejects a settlement waiting for a director: never by the one who asked. */
export async function decideApproval(ctx: RequestContext, id: string, decision: ApprovalDecision) {
  return reviseCase(
    ctx,
    id,
    undefined,
    `legal_case.settlement_${decision.decision}`,
    (current, now) => {
      const pending = current.pendingApproval;
      if (!pending) throw conflict('This case has no settlement waiting for approval');
      if (pending.requestedBy.id === ctx.actor.userId) {
        throw forbidden('You asked for this settlement; someone else must approve or reject it');
      }
      const by = personOf(ctx);
      const amount = money(pending.settlementAmount, current.currency);
      const approved = decision.decision === 'approve';
      const events = [
        eventOf(id, now, by, {
          action: approved ? 'Settlement approved' : 'Settlement rejected',
          detail: `${amount}: ${decision.reason}`,
        }),
        ...(approved ? [statusEvent(id, now, by, current.status, pending.to, pending.reason)] : []),
      ];
      return {
        changes: {
          pendingApproval: null,
          ...(approved ? moveFields(pending.to, now, pending.settlementAmount) : {}),
        },
        events,
        after: async (saved) => {
          await notifyPeople(ctx, [pending.requestedBy.id], saved, {
            kind: approved ? 'legal.approved' : 'legal.rejected',
            title: `Settlement ${approved ? 'approved' : 'rejected'}: ${saved.caseNumber}`,
            body: `${by?.name ?? 'Lotwise'}: ${decision.reason}`,
          });
        },
      };
    },
  );
}

/** Pauses or resumes the case's automation (the Workflow tab's toggle). */
export async function toggleAutomation(ctx: RequestContext, id: string, enabled: boolean) {
  return reviseCase(ctx, id, undefined, 'legal_case.automation', (current, now) => ({
    changes: { automationPaused: !enabled },
    events:
      current.automationPaused === !enabled
        ? []
        : [
            eventOf(id, now, personOf(ctx), {
              action: enabled ? 'Automation enabled' : 'Automation paused',
              detail: '',
            }),
          ],
  }));
}

/**
 * Every update of a Critical case reaches the legal department head (spec 4.2 "escalate
 * notification"), as the account names them (rules/department-head.service).
 */
async function tellLegalHead(
  ctx: RequestContext,
  record: CaseRecord,
  what: Pick<CaseEventRecord, 'action' | 'detail'>,
) {
  if (!(await builtInEnabled(ctx.scope, 'critical-escalation'))) return;
  const heads = await departmentHeads(ctx.scope);
  await notifyPeople(
    ctx,
    heads.map((head) => head.id),
    record,
    {
      kind: 'legal.critical',
      title: `Critical case ${record.caseNumber}: ${what.action}`,
      body: what.detail || record.title,
    },
  );
}

async function notifyPeople(
  ctx: RequestContext,
  userIds: string[],
  record: CaseRecord,
  message: { kind: string; title: string; body: string; subject?: NotificationSubject },
) {
  const others = userIds.filter((userId) => userId !== ctx.actor.userId);
  if (others.length === 0) return;
  await notify(ctx, others, { ...message, link: `/legal/cases/${record.id}/workflow` });
}

const toEntry = (record: CaseEventRecord): TimelineEntry => ({
  id: record.id,
  at: record.at,
  action: record.action,
  detail: record.detail,
  fromStatus: record.fromStatus,
  toStatus: record.toStatus,
  by: record.by,
  automated: record.automated,
});

export async function timeline(ctx: RequestContext, caseId: string) {
  await getCase(ctx, caseId);
  return { entries: (await eventsOf(ctx.scope, caseId)).map(toEntry) };
}

/** A line someone adds to the timeline by hand (a call, a letter sent). */
export async function addTimelineEntry(
  ctx: RequestContext,
  caseId: string,
  entry: { action: string; detail: string },
) {
  let added: Omit<CaseEventRecord, 'accountId'> | undefined;
  await reviseCase(ctx, caseId, undefined, 'legal_case.timeline', (_current, now) => {
    added = eventOf(caseId, now, personOf(ctx), entry);
    return { changes: {}, events: [added] };
  });
  return toEntry({
    ...(added as Omit<CaseEventRecord, 'accountId'>),
    accountId: ctx.scope.accountId,
  });
}

const toNote = (record: CaseNoteRecord): CaseNote => ({
  id: record.id,
  text: record.text,
  by: record.by,
  at: record.at,
});

export async function caseNotes(ctx: RequestContext, caseId: string) {
  await getCase(ctx, caseId);
  return { notes: (await notesOf(ctx.scope, caseId)).map(toNote) };
}

/** Adds a note; the case's last update moves with it (the inactivity reminder counts from it). */
export async function addNote(ctx: RequestContext, caseId: string, text: string) {
  let note: Omit<CaseNoteRecord, 'accountId'> | undefined;
  await reviseCase(ctx, caseId, undefined, 'legal_case.note', (_current, now) => {
    note = { id: randomUUID(), kind: 'note', caseId, text, by: personOf(ctx), at: now };
    return { changes: {}, events: [note] };
  });
  return toNote({ ...(note as Omit<CaseNoteRecord, 'accountId'>), accountId: ctx.scope.accountId });
}

const toActionItem = (record: ActionItemRecord): ActionItem => ({
  id: record.id,
  text: record.text,
  assignee: record.assignee,
  dueDate: record.dueDate,
  done: record.done,
  doneAt: record.doneAt,
  doneBy: record.doneBy,
  createdAt: record.createdAt,
  createdBy: record.createdBy,
});

export async function actionItems(ctx: RequestContext, caseId: string) {
  await getCase(ctx, caseId);
  return { actions: (await actionItemsOf(ctx.scope, caseId)).map(toActionItem) };
}

export async function addActionItem(
  ctx: RequestContext,
  caseId: string,
  input: { text: string; assigneeId: string | null; dueDate: string | null },
) {
  const current = await getCase(ctx, caseId);
  const assignee = await assigneeRef(ctx, input.assigneeId, 'assigneeId');
  const item: Omit<ActionItemRecord, 'accountId'> = {
    id: randomUUID(),
    kind: 'action',
    caseId,
    text: input.text,
    assignee,
    dueDate: input.dueDate,
    done: false,
    doneAt: null,
    doneBy: null,
    createdAt: new Date().toISOString(),
    createdBy: personOf(ctx),
  };
  const saved = (await legalDocuments.create(ctx.scope, item)) as Stored<ActionItemRecord>;
  if (assignee) {
    await notifyPeople(ctx, [assignee.id], current, {
      kind: 'legal.action',
      title: `Action item on ${current.caseNumber}`,
      body: input.text,
    });
  }
  return toActionItem(saved);
}

/** Completes, reopens or reassigns an action item. */
export async function updateActionItem(
  ctx: RequestContext,
  caseId: string,
  actionId: string,
  update: ActionUpdate,
) {
  await getCase(ctx, caseId);
  for (let attempt = 0; ; attempt += 1) {
    const current = await findActionItem(ctx.scope, caseId, actionId);
    if (!current) throw notFound('Action item not found');
    const { _etag, _ts, ...stored } = current;
    const next: Omit<ActionItemRecord, 'accountId'> = { ...stored };
    if (update.assigneeId !== undefined) {
      next.assignee = await assigneeRef(ctx, update.assigneeId, 'assigneeId');
    }
    if (update.done !== undefined && update.done !== current.done) {
      const now = new Date().toISOString();
      next.done = update.done;
      next.doneAt = update.done ? now : null;
      next.doneBy = update.done ? personOf(ctx) : null;
    }
    try {
      const saved = (await legalDocuments.replace(
        ctx.scope,
        { ...next, accountId: ctx.scope.accountId },
        _etag,
      )) as Stored<ActionItemRecord>;
      return toActionItem(saved);
    } catch (error) {
      if (!isStale(error) || attempt >= 5) throw error;
    }
  }
}

/**
 * Records the settlement's payment. With automation on, the case closes on it at once (spec 4.2
 * "payment received: close settled cases"); paused, it waits for automation or a person.
 */
export async function recordSettlementPayment(
  ctx: RequestContext,
  id: string,
  payment: SettlementPaymentInput,
) {
  return reviseCase(ctx, id, undefined, 'legal_case.settlement_payment', async (current, now) => {
    if (current.status !== 'SETTLED') {
      throw conflict(
        `Only a SETTLED case takes its settlement's payment; this one is ${current.status}`,
      );
    }
    if (current.settlementPayment) throw conflict("This settlement's payment is already recorded");
    const by = personOf(ctx);
    const recorded = eventOf(id, now, by, {
      action: 'Settlement payment recorded',
      detail: `${money(payment.amount, current.currency)} received on ${payment.receivedOn}${
        payment.reference ? ` (${payment.reference})` : ''
      }`,
    });
    const close =
      !current.automationPaused && (await builtInEnabled(ctx.scope, 'payment-closes-settled'));
    return {
      changes: {
        settlementPayment: { ...payment, recordedBy: by, recordedAt: now },
        ...(close ? moveFields('CLOSED', now) : {}),
      },
      events: [
        recorded,
        ...(close
          ? [statusEvent(id, now, null, 'SETTLED', 'CLOSED', 'Automatic: payment received')]
          : []),
      ],
    };
  });
}

/**
 * Records that the non-paying bidder paid for the purchase in full: the strike against them is
 * cleared, the reminders stop and, with automation on, an open case is resolved where the
 * workflow allows it (otherwise it waits for a person).
 */
export async function recordNonPaymentPayment(
  ctx: RequestContext,
  id: string,
  payment: SettlementPaymentInput,
) {
  return reviseCase(ctx, id, undefined, 'legal_case.purchase_paid', (current, now) => {
    const nonPayment = current.nonPayment;
    if (!nonPayment) throw conflict('Only a non-paying-bidder case takes the purchase payment');
    if (nonPayment.payment) throw conflict('The purchase is already recorded as paid');
    if (payment.amount < nonPayment.amountDue) {
      throw validationError([
        {
          location: 'body',
          field: 'amount',
          message: `is less than the ${money(nonPayment.amountDue, current.currency)} due`,
        },
      ]);
    }
    const by = personOf(ctx);
    const resolve =
      !current.automationPaused &&
      caseTransitions[current.status].some((transition) => transition.to === 'RESOLVED');
    return {
      changes: {
        nonPayment: {
          ...nonPayment,
          payment: { ...payment, recordedBy: by, recordedAt: now },
          nextReminderAt: null,
        },
        ...(resolve ? moveFields('RESOLVED', now) : {}),
      },
      events: [
        eventOf(id, now, by, {
          action: 'Purchase paid',
          detail: `${money(payment.amount, current.currency)} received on ${payment.receivedOn}${
            payment.reference ? ` (${payment.reference})` : ''
          }; the strike against the bidder is cleared`,
        }),
        ...(resolve
          ? [
              statusEvent(
                id,
                now,
                null,
                current.status,
                'RESOLVED',
                'Automatic: the bidder paid for the purchase',
              ),
            ]
          : []),
      ],
    };
  });
}
