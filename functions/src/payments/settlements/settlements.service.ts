import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { getAuction } from '../../auctions/auctions.service.js';
import { listLots } from '../../auctions/lots/lots.service.js';
import { DEFAULT_HOUSE_CURRENCY } from '../../identity/accounts/accounts.schema.js';
import { accountNameOf, housesOf } from '../../identity/accounts/accounts.service.js';
import { writeAudit } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/context.js';
import { isConflict, isNotFound, isStale } from '../../platform/cosmos-errors.js';
import { conflict, notFound, preconditionFailed } from '../../platform/errors.js';
import { validationError } from '../../platform/validation.js';
import { lotPaymentFacts } from '../payments.service.js';
import {
  DEFAULT_AGREEMENT_ID,
  agreementPage,
  agreementsByKey,
  createAgreement as insertAgreement,
  createStatement,
  deleteAgreement as removeAgreement,
  deleteStatement,
  findAgreement,
  findStatement,
  replaceAgreement,
  replaceStatement,
  statementPage,
  statementsOfAuction,
  type AgreementRecord,
  type StatementRecord,
} from './settlements.repo.js';
import {
  DEFAULT_AGREEMENT_TERMS,
  agreementCurrencySchema,
  type Agreement,
  type AgreementCurrency,
  type AgreementInput,
  type AgreementTerms,
  type BuildResult,
  type ListStatementsQuery,
  type MarkPaid,
  type Statement,
  type StatementSummary,
} from './settlements.schema.js';
import { renderStatementPdf } from './statement-pdf.js';
import {
  nextStatement,
  settlesAnything,
  type BuyerPaymentState,
  type ConsignorLot,
} from './statement-diff.js';

type Person = { id: string; name: string };

const personOf = (ctx: RequestContext): Person | null =>
  ctx.actor.kind === 'system' ? null : { id: ctx.actor.userId, name: ctx.actor.name };

const etagOf = (record: { id: string; revision: number }) => `${record.id}-r${record.revision}`;

/** How lots and agreements name the same consignor: case, accents' forms and spacing aside. */
export const consignorKeyOf = (name: string) =>
  name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 40);

export const agreementIdOf = (consignorKey: string) => `agreement-${hashOf(consignorKey)}`;

/** One id per consignor, auction and sequence: two builds at once cannot both add a statement. */
const statementIdOf = (auctionId: string, consignorKey: string, sequence: number) =>
  `statement-${hashOf(`${auctionId}\n${consignorKey}`)}-${sequence}`;

// ---- Agreements ----

/** The account's currency, which agreements are kept in unless said otherwise: its first house's. */
async function accountCurrency(ctx: RequestContext): Promise<AgreementCurrency> {
  const [first] = [...(await housesOf(ctx.scope))].sort((a, b) =>
    a.createdAt.localeCompare(b.createdAt),
  );
  const known = agreementCurrencySchema.safeParse(first?.currency);
  return known.success ? known.data : DEFAULT_HOUSE_CURRENCY;
}

/** `accountCurrency` is what an agreement kept before agreements had a currency is read in. */
function toAgreement(record: AgreementRecord, accountCurrency: AgreementCurrency): Agreement {
  return {
    id: record.id,
    consignorName: record.consignorName,
    isDefault: record.isDefault,
    currency: record.currency ?? accountCurrency,
    commission: record.commission,
    fees: record.fees,
    payoutDetails: record.payoutDetails,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    updatedBy: record.updatedBy,
    etag: etagOf(record),
  };
}

/** The account's default, as documented: fixed 15% with no minimum, no fees, until changed. */
function defaultView(
  record: AgreementRecord | undefined,
  accountCurrency: AgreementCurrency,
): Agreement {
  if (record) return toAgreement(record, accountCurrency);
  return {
    id: DEFAULT_AGREEMENT_ID,
    consignorName: null,
    isDefault: true,
    currency: accountCurrency,
    ...DEFAULT_AGREEMENT_TERMS,
    createdAt: null,
    updatedAt: null,
    updatedBy: null,
    etag: `${DEFAULT_AGREEMENT_ID}-r0`,
  };
}

const staleAgreement = () =>
  preconditionFailed('Someone else changed this agreement; reload it to see their changes');

export async function defaultAgreement(ctx: RequestContext): Promise<Agreement> {
  const current = await findAgreement(ctx.scope, DEFAULT_AGREEMENT_ID);
  return defaultView(current, current?.currency ?? (await accountCurrency(ctx)));
}

export async function updateDefaultAgreement(
  ctx: RequestContext,
  terms: AgreementTerms,
  ifMatch: string,
): Promise<Agreement> {
  const current = await findAgreement(ctx.scope, DEFAULT_AGREEMENT_ID);
  const currency = terms.currency ?? current?.currency ?? (await accountCurrency(ctx));
  if (ifMatch !== defaultView(current, currency).etag) throw staleAgreement();
  const now = new Date().toISOString();
  const next: AgreementRecord = {
    id: DEFAULT_AGREEMENT_ID,
    accountId: ctx.scope.accountId,
    kind: 'agreement',
    consignorKey: '',
    consignorName: null,
    isDefault: true,
    ...terms,
    currency,
    revision: (current?.revision ?? 0) + 1,
    createdAt: current?.createdAt ?? now,
    updatedAt: now,
    updatedBy: personOf(ctx),
  };
  try {
    const saved = current
      ? await replaceAgreement(ctx.scope, next, current._etag)
      : await insertAgreement(ctx.scope, next);
    await writeAudit(ctx, {
      action: 'consignor_agreement.update',
      entity: { type: 'consignor_agreement', id: DEFAULT_AGREEMENT_ID },
      ...(current ? { before: termsOf(current) } : {}),
      after: { ...terms, currency },
    });
    return toAgreement(saved, currency);
  } catch (error) {
    if (isStale(error) || isConflict(error)) throw staleAgreement();
    throw error;
  }
}

const termsOf = (record: AgreementRecord): AgreementTerms => ({
  ...(record.currency ? { currency: record.currency } : {}),
  commission: record.commission,
  fees: record.fees,
  payoutDetails: record.payoutDetails,
});

export async function listAgreements(
  ctx: RequestContext,
  query: { limit: number; continuationToken?: string | undefined },
) {
  const [page, currency] = await Promise.all([
    agreementPage(ctx.scope, query.limit, query.continuationToken),
    accountCurrency(ctx),
  ]);
  return {
    agreements: page.items.map((record) => toAgreement(record, currency)),
    continuationToken: page.continuationToken ?? null,
    currency,
  };
}

async function agreementOrThrow(ctx: RequestContext, id: string) {
  const found = await findAgreement(ctx.scope, id);
  if (!found || found.isDefault) throw notFound('Agreement not found');
  return found;
}

export async function getAgreement(ctx: RequestContext, id: string): Promise<Agreement> {
  const record = await agreementOrThrow(ctx, id);
  return toAgreement(record, record.currency ?? (await accountCurrency(ctx)));
}

export async function createAgreement(
  ctx: RequestContext,
  input: AgreementInput,
): Promise<Agreement> {
  const { consignorName, ...terms } = input;
  const consignorKey = consignorKeyOf(consignorName);
  const currency = terms.currency ?? (await accountCurrency(ctx));
  const now = new Date().toISOString();
  try {
    const created = await insertAgreement(ctx.scope, {
      id: agreementIdOf(consignorKey),
      kind: 'agreement',
      consignorKey,
      consignorName,
      isDefault: false,
      ...terms,
      currency,
      revision: 1,
      createdAt: now,
      updatedAt: now,
      updatedBy: personOf(ctx),
    });
    await writeAudit(ctx, {
      action: 'consignor_agreement.create',
      entity: { type: 'consignor_agreement', id: created.id },
      after: { consignorName, ...terms, currency },
    });
    return toAgreement(created, currency);
  } catch (error) {
    if (isConflict(error)) {
      throw conflict(`${consignorName} has an agreement already; change that one instead`, {
        id: agreementIdOf(consignorKey),
      });
    }
    throw error;
  }
}

export async function updateAgreement(
  ctx: RequestContext,
  id: string,
  input: AgreementInput,
  ifMatch: string,
): Promise<Agreement> {
  const current = await agreementOrThrow(ctx, id);
  if (ifMatch !== etagOf(current)) throw staleAgreement();
  const { consignorName, ...terms } = input;
  // The name may be spelt anew but must still name the same consignor: lots are matched by it.
  if (consignorKeyOf(consignorName) !== current.consignorKey) {
    throw validationError([
      {
        location: 'body',
        field: 'consignorName',
        message: 'names another consignor; make that consignor an agreement of their own',
      },
    ]);
  }
  const currency = terms.currency ?? current.currency ?? (await accountCurrency(ctx));
  const { _etag, _ts, ...stored } = current;
  const next: AgreementRecord = {
    ...stored,
    consignorName,
    ...terms,
    currency,
    revision: current.revision + 1,
    updatedAt: new Date().toISOString(),
    updatedBy: personOf(ctx),
  };
  try {
    const saved = await replaceAgreement(ctx.scope, next, _etag);
    await writeAudit(ctx, {
      action: 'consignor_agreement.update',
      entity: { type: 'consignor_agreement', id },
      before: { consignorName: current.consignorName, ...termsOf(current) },
      after: { consignorName, ...terms, currency },
    });
    return toAgreement(saved, currency);
  } catch (error) {
    if (isStale(error)) throw staleAgreement();
    throw error;
  }
}

export async function deleteAgreement(
  ctx: RequestContext,
  id: string,
  ifMatch: string | undefined,
) {
  const current = await agreementOrThrow(ctx, id);
  if (ifMatch !== undefined && ifMatch !== etagOf(current)) throw staleAgreement();
  try {
    await removeAgreement(ctx.scope, id, current._etag);
  } catch (error) {
    if (isStale(error) || isNotFound(error)) throw staleAgreement();
    throw error;
  }
  await writeAudit(ctx, {
    action: 'consignor_agreement.delete',
    entity: { type: 'consignor_agreement', id },
    before: { consignorName: current.consignorName, ...termsOf(current) },
  });
}

// ---- Statements ----

function toSummary(record: StatementRecord): StatementSummary {
  return {
    id: record.id,
    auctionId: record.auctionId,
    auctionTitle: record.auctionTitle,
    consignorKey: record.consignorKey,
    consignorName: record.consignorName,
    sequence: record.sequence,
    status: record.status,
    currency: record.currency,
    totals: record.totals,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    approvedAt: record.approvedAt,
    approvedBy: record.approvedBy,
    paidAt: record.paidAt,
    paidOn: record.paidOn,
    payoutReference: record.payoutReference,
    lotCount: record.lines.length,
    pendingCount: record.pending.length,
    etag: etagOf(record),
  };
}

export function toStatement(record: StatementRecord): Statement {
  const { lotCount: _lots, pendingCount: _pending, ...summary } = toSummary(record);
  return {
    ...summary,
    agreement: record.agreement,
    lines: record.lines,
    adjustments: record.adjustments,
    pending: record.pending,
  };
}

/** Which buyer-side state counts for each lot: the latest change when several invoices named it. */
function statesOf(facts: Awaited<ReturnType<typeof lotPaymentFacts>>) {
  const latest = new Map<string, { state: BuyerPaymentState; changedAt: string }>();
  for (const fact of facts) {
    const known = latest.get(fact.lotId);
    if (!known || known.changedAt <= fact.changedAt) {
      latest.set(fact.lotId, { state: fact.state, changedAt: fact.changedAt });
    }
  }
  return new Map([...latest].map(([lotId, { state }]) => [lotId, state]));
}

interface Consignor {
  key: string;
  name: string;
  lots: ConsignorLot[];
}

/**
 * The consignors of an auction's sold lots, each with their lots in sale order. A lot is a
 * buy-back when the buyer the clerk recorded has the consignor's name (a house bids for its
 * consignor under the consignor's own bidder record). Lots without a consignor are the house's.
 */
function consignorsOf(lots: Awaited<ReturnType<typeof listLots>>): Consignor[] {
  const byKey = new Map<string, Consignor>();
  for (const lot of [...lots].sort((a, b) => a.position - b.position)) {
    const result = lot.result;
    if (!lot.consignor || result?.outcome !== 'sold' || result.hammer === null) continue;
    const key = consignorKeyOf(lot.consignor.name);
    const consignor = byKey.get(key) ?? { key, name: lot.consignor.name.trim(), lots: [] };
    consignor.lots.push({
      lotId: lot.id,
      lotNumber: lot.lotNumber,
      title: lot.title,
      hammer: result.hammer,
      boughtBack: result.buyerName !== null && consignorKeyOf(result.buyerName) === key,
    });
    byKey.set(key, consignor);
  }
  return [...byKey.values()];
}

const isClosed = (record: StatementRecord) => record.status !== 'draft';

/** What a draft says that a rebuild may change: equal content means nothing to write. */
const contentOf = (
  record: Pick<
    StatementRecord,
    'lines' | 'adjustments' | 'pending' | 'totals' | 'agreement' | 'consignorName'
  >,
) =>
  JSON.stringify([
    record.lines,
    record.adjustments,
    record.pending,
    record.totals,
    record.agreement,
    record.consignorName,
  ]);

type Outcome = 'created' | 'updated' | 'unchanged';

/**
 * Builds (or brings up to date) every consignor's draft statement for a Completed auction. A
 * consignor's first statement is always made (listing what is pending); a later one only when a
 * lot became payable or must be taken back. An open draft is rewritten in place; approved and paid
 * statements never are. Building again with nothing changed writes nothing.
 */
export async function buildSettlements(
  ctx: RequestContext,
  auctionId: string,
): Promise<BuildResult> {
  const auction = await getAuction(ctx, auctionId);
  if (auction.status !== 'Completed') {
    throw conflict(
      `Settlements are built once an auction is Completed; this one is ${auction.status}`,
      { status: auction.status },
    );
  }
  const [lots, facts, agreementDefault] = await Promise.all([
    listLots(ctx, auctionId),
    lotPaymentFacts(ctx.scope, auctionId),
    findAgreement(ctx.scope, DEFAULT_AGREEMENT_ID),
  ]);
  const consignors = consignorsOf(lots);
  const states = statesOf(facts);
  const agreements = new Map(
    (
      await agreementsByKey(
        ctx.scope,
        consignors.map((consignor) => consignor.key),
      )
    ).map((record) => [record.consignorKey, record]),
  );
  // Statements take the terms alone: the currency the default is read in does not matter here.
  const fallback = defaultView(agreementDefault, DEFAULT_HOUSE_CURRENCY);
  const counts: Record<Outcome, number> = { created: 0, updated: 0, unchanged: 0 };
  const touched: StatementRecord[] = [];
  for (const consignor of consignors) {
    const own = agreements.get(consignor.key);
    const agreement = {
      id: own?.id ?? fallback.id,
      isDefault: !own,
      commission: own?.commission ?? fallback.commission,
      fees: own?.fees ?? fallback.fees,
      payoutDetails: own?.payoutDetails ?? fallback.payoutDetails,
    };
    const { outcome, record } = await settleConsignor(ctx, auction, consignor, agreement, states);
    counts[outcome] += 1;
    if (record) touched.push(record);
  }
  return { ...counts, statements: touched.map(toSummary) };
}

type AuctionRef = Awaited<ReturnType<typeof getAuction>>;

async function settleConsignor(
  ctx: RequestContext,
  auction: AuctionRef,
  consignor: Consignor,
  agreement: StatementRecord['agreement'],
  states: Map<string, BuyerPaymentState>,
): Promise<{ outcome: Outcome; record: StatementRecord | undefined }> {
  // Another build (or an approval) landing meanwhile makes a write fail; read again and redo.
  for (let attempt = 0; ; attempt += 1) {
    const mine = (await statementsOfAuction(ctx.scope, auction.id))
      .filter((record) => record.consignorKey === consignor.key)
      .sort((a, b) => a.sequence - b.sequence);
    const closed = mine.filter(isClosed);
    const draft = mine.find((record) => !isClosed(record));
    const next = nextStatement(
      consignor.lots,
      states,
      closed,
      agreement.commission,
      agreement.fees,
    );
    const wanted = settlesAnything(next) || closed.length === 0;
    const now = new Date().toISOString();
    const content = {
      consignorName: consignor.name,
      agreement,
      lines: next.lines,
      adjustments: next.adjustments,
      pending: next.pending,
      totals: next.totals,
    };
    try {
      if (draft && !wanted) {
        await deleteStatement(ctx.scope, draft.id, draft._etag);
        await writeAudit(ctx, {
          action: 'settlement.delete',
          entity: { type: 'settlement', id: draft.id },
          before: toStatement(draft),
        });
        return { outcome: 'updated', record: undefined };
      }
      if (draft) {
        if (contentOf(draft) === contentOf(content)) return { outcome: 'unchanged', record: draft };
        const { _etag, _ts, ...stored } = draft;
        const saved = await replaceStatement(
          ctx.scope,
          { ...stored, ...content, revision: draft.revision + 1, updatedAt: now },
          _etag,
        );
        await writeAudit(ctx, {
          action: 'settlement.update',
          entity: { type: 'settlement', id: draft.id },
          before: toStatement(draft),
          after: toStatement(saved),
        });
        return { outcome: 'updated', record: saved };
      }
      if (!wanted) return { outcome: 'unchanged', record: undefined };
      const sequence = (mine.at(-1)?.sequence ?? 0) + 1;
      const created = await createStatement(ctx.scope, {
        id: statementIdOf(auction.id, consignor.key, sequence),
        kind: 'statement',
        auctionId: auction.id,
        auctionTitle: auction.title,
        consignorKey: consignor.key,
        sequence,
        status: 'draft',
        currency: auction.currency,
        ...content,
        revision: 1,
        createdAt: now,
        updatedAt: now,
        approvedAt: null,
        approvedBy: null,
        paidAt: null,
        paidOn: null,
        payoutReference: null,
        paidRecordedBy: null,
      });
      await writeAudit(ctx, {
        action: 'settlement.create',
        entity: { type: 'settlement', id: created.id },
        after: toStatement(created),
      });
      return { outcome: 'created', record: created };
    } catch (error) {
      const raced = isConflict(error) || isStale(error) || isNotFound(error);
      if (!raced || attempt >= 4) throw error;
    }
  }
}

async function statementOrThrow(ctx: RequestContext, id: string) {
  const found = await findStatement(ctx.scope, id);
  if (!found) throw notFound('Statement not found');
  return found;
}

export async function getStatement(ctx: RequestContext, id: string): Promise<Statement> {
  return toStatement(await statementOrThrow(ctx, id));
}

export async function listStatements(ctx: RequestContext, query: ListStatementsQuery) {
  const page = await statementPage(
    ctx.scope,
    filterOf(query),
    query.pageSize ?? query.limit,
    query.continuationToken,
  );
  return {
    statements: page.items.map(toSummary),
    continuationToken: page.continuationToken ?? null,
  };
}

const filterOf = (query: Pick<ListStatementsQuery, 'auctionId' | 'consignor' | 'status'>) => ({
  auctionId: query.auctionId,
  consignorKey: query.consignor ? consignorKeyOf(query.consignor) : undefined,
  status: query.status,
});

const staleStatement = () =>
  preconditionFailed('Someone else changed this statement; reload it to see their changes');

/** Moves a statement on over the version the caller read, with the audit entry. */
async function moveStatement(
  ctx: RequestContext,
  id: string,
  ifMatch: string | undefined,
  from: StatementRecord['status'],
  change: (record: StatementRecord, now: string) => Partial<StatementRecord>,
  action: string,
): Promise<Statement> {
  const current = await statementOrThrow(ctx, id);
  if (ifMatch !== undefined && ifMatch !== etagOf(current)) throw staleStatement();
  if (current.status !== from) {
    throw conflict(
      from === 'draft'
        ? `This statement is ${current.status} already; a later change goes on a new statement`
        : `Only an approved statement can be marked paid; this one is ${current.status}`,
      { status: current.status },
    );
  }
  const { _etag, _ts, ...stored } = current;
  const now = new Date().toISOString();
  try {
    const saved = await replaceStatement(
      ctx.scope,
      { ...stored, ...change(stored, now), revision: current.revision + 1, updatedAt: now },
      _etag,
    );
    await writeAudit(ctx, {
      action,
      entity: { type: 'settlement', id },
      before: { status: current.status },
      after: {
        status: saved.status,
        ...(saved.payoutReference ? { payoutReference: saved.payoutReference } : {}),
        ...(saved.paidOn ? { paidOn: saved.paidOn } : {}),
      },
    });
    return toStatement(saved);
  } catch (error) {
    if (isStale(error)) throw staleStatement();
    throw error;
  }
}

/** Closes a draft: from now on it is never rewritten; later changes make a new statement. */
export const approveStatement = (ctx: RequestContext, id: string, ifMatch: string | undefined) =>
  moveStatement(
    ctx,
    id,
    ifMatch,
    'draft',
    (_record, now) => ({ status: 'approved', approvedAt: now, approvedBy: personOf(ctx) }),
    'settlement.approve',
  );

/** Records the payout of an approved statement (its reference and the day it was paid). */
export const markStatementPaid = (
  ctx: RequestContext,
  id: string,
  ifMatch: string | undefined,
  paid: MarkPaid,
) =>
  moveStatement(
    ctx,
    id,
    ifMatch,
    'approved',
    (_record, now) => ({
      status: 'paid',
      paidAt: now,
      paidOn: paid.paidOn,
      payoutReference: paid.payoutReference,
      paidRecordedBy: personOf(ctx),
    }),
    'settlement.mark_paid',
  );

/** A file name that is safe everywhere: letters, digits and dashes. */
const fileSafe = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'consignor';

export interface StatementFile {
  data: Readable;
  fileName: string;
}

/** The statement as a PDF: the house, the consignor, the auction, its lots, totals and payout. */
export async function statementPdf(ctx: RequestContext, id: string): Promise<StatementFile> {
  const record = await statementOrThrow(ctx, id);
  const auction = await getAuction(ctx, record.auctionId).catch(() => undefined);
  const house = auction?.auctionHouseName || (await accountNameOf(ctx.scope.accountId));
  return {
    data: await renderStatementPdf(toStatement(record), house),
    fileName: `statement-${fileSafe(record.consignorName)}-${record.sequence}-${record.createdAt.slice(0, 10)}.pdf`,
  };
}

/** One page of whole statements (lines included), for exports. */
export async function statementsPage(ctx: RequestContext, query: ListStatementsQuery) {
  const page = await statementPage(
    ctx.scope,
    filterOf(query),
    query.pageSize ?? query.limit,
    query.continuationToken,
  );
  return {
    items: page.items.map(toStatement),
    continuationToken: page.continuationToken ?? null,
  };
}
