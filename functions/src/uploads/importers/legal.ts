import { currencies, currencyExponent, type Currency } from '../../auctions/auctions.schema.js';
import { bidderWithBidderId, bidderWithEmail, getBidder } from '../../bidders/bidders.service.js';
import { recordConflict } from '../../conflicts/conflicts.service.js';
import type { ConflictField } from '../../conflicts/conflicts.schema.js';
import {
  caseCategories,
  caseCategoryLabels,
  caseInputSchema,
  casePriorities,
  caseTypeLabels,
  caseTypes,
  partyTypes,
  priorityLabels,
  type CaseInput,
  type CaseUpdate,
} from '../../legal/legal.schema.js';
import {
  caseEtag,
  caseKeysOf,
  createCase,
  deleteCase,
  getCase,
  money,
  restoreCase,
  updateCase,
  type RestorableCase,
} from '../../legal/legal.service.js';
import { caseFiles } from '../../legal/documents/documents.service.js';
import { runRulesFor } from '../../legal/rules/rules.service.js';
import type { RequestContext } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { StringMap } from '../../platform/string-table.js';
import type {
  ImporterContext,
  ImporterDefinition,
  Overwrite,
  RowImporter,
  RowProblem,
  RowRef,
} from '../importer.js';
import {
  cellText,
  choiceOf,
  given,
  issueProblem,
  minorOf,
  normalised,
  perContext,
  refusalOf,
  refusesFormat,
  same,
} from './cells.js';

/**
 * Legal cases from an upload. A case's key is its case number; a row without one is the case of
 * its bidder, auction and type (it needs a bidder or an auction for that). A row's case number
 * that is not on file becomes the new case's number, except a Lotwise number (LC-2026-0001),
 * which only Lotwise issues. Bidders are named by bidder ID or email and must be on file.
 *
 * A row matching a case on file that says something else is, in modes `new` and `failed`, a
 * conflict for a person to decide (Conflict Resolution): `mismatch` when the case number is the
 * same, `related` when only the bidder, auction and type are; mode `update` writes it over.
 */

export const legalFields = [
  {
    key: 'caseNumber',
    label: 'Case Number',
    required: false,
    aliases: ['caseno', 'casenum', 'caseid', 'case', 'reference', 'ref', 'fileno'],
  },
  {
    key: 'caseType',
    label: 'Case Type',
    required: true,
    aliases: ['type', 'disputetype', 'claimtype'],
  },
  { key: 'category', label: 'Category', required: true, aliases: ['casecategory', 'stage'] },
  { key: 'priority', label: 'Priority', required: true, aliases: ['urgency', 'severity'] },
  { key: 'title', label: 'Title', required: true, aliases: ['subject', 'casetitle', 'name'] },
  {
    key: 'description',
    label: 'Description',
    required: false,
    aliases: ['desc', 'details', 'summary'],
  },
  {
    key: 'jurisdiction',
    label: 'Jurisdiction',
    required: true,
    aliases: ['court', 'venue', 'governinglaw'],
  },
  {
    key: 'claimAmount',
    label: 'Claim Amount',
    required: false,
    aliases: ['amount', 'claim', 'dueamount', 'amountdue', 'amountclaimed'],
  },
  { key: 'currency', label: 'Currency', required: false, aliases: ['claimcurrency'] },
  {
    key: 'plaintiffName',
    label: 'Plaintiff',
    required: false,
    aliases: ['plaintiff', 'claimant', 'complainant'],
  },
  { key: 'plaintiffType', label: 'Plaintiff Type', required: false, aliases: ['claimanttype'] },
  {
    key: 'plaintiffEmail',
    label: 'Plaintiff Email',
    required: false,
    aliases: ['claimantemail'],
  },
  {
    key: 'defendantName',
    label: 'Defendant',
    required: false,
    aliases: ['defendant', 'respondent'],
  },
  {
    key: 'defendantType',
    label: 'Defendant Type',
    required: false,
    aliases: ['respondenttype'],
  },
  {
    key: 'defendantEmail',
    label: 'Defendant Email',
    required: false,
    aliases: ['respondentemail'],
  },
  { key: 'auctionId', label: 'Auction ID', required: false, aliases: ['auction', 'sale'] },
  {
    key: 'bidderId',
    label: 'Bidder ID',
    required: false,
    aliases: ['bidder', 'biddernumber', 'buyer', 'buyerid'],
  },
  {
    key: 'bidderEmail',
    label: 'Bidder Email',
    required: false,
    aliases: ['email', 'buyeremail'],
  },
] as const;

/** A case as its service answers it (the document, with its ETag). */
type CaseRecord = Awaited<ReturnType<typeof getCase>>;

/** A number in Lotwise's own form: issued by the account's counter, never by a file. */
const LOTWISE_NUMBER = /^LC-\d{4}-\d{4,}$/i;

/** A case as a row gives it: the input (its bidder as the file names it) and its case number. */
export interface CaseRow {
  input: CaseInput;
  caseNumber: string | undefined;
  /** How the row names its bidder; `input.bidderId` is set once it is found. */
  bidder: { by: 'bidderId' | 'bidderEmail'; value: string } | null;
}

const problem = (field: string, message: string) => ({ problem: { field, message } });

const categoryNames: Record<string, (typeof caseCategories)[number]> = {
  presale: 'pre_sale',
  before: 'pre_sale',
  duringsale: 'during_sale',
  during: 'during_sale',
  postsale: 'post_sale',
  after: 'post_sale',
};

/** Where the case contract names a problem, as the column it came from. */
function fieldOfPath([first, second]: string[]): string {
  if (first === 'plaintiff' || first === 'defendant') {
    return `${first}${second === 'email' ? 'Email' : second === 'type' ? 'Type' : 'Name'}`;
  }
  return first ?? 'title';
}

function party(values: Record<string, unknown>, side: 'plaintiff' | 'defendant') {
  const typeText = given(values, `${side}Type`);
  const type = typeText === undefined ? 'individual' : choiceOf(typeText, partyTypes);
  if (!type) return problem(`${side}Type`, `must be one of ${partyTypes.join(', ')}`);
  return {
    party: {
      name: cellText(values[`${side}Name`]),
      type,
      email: cellText(values[`${side}Email`]),
    },
  };
}

/** A row's cells as a case, or the first problem in the order of the fields. */
export function caseOfRow(
  values: Record<string, unknown>,
): { row: CaseRow } | { problem: RowProblem } {
  const caseNumber = given(values, 'caseNumber');
  if (caseNumber !== undefined && caseNumber.length > 50) {
    return problem('caseNumber', 'is at most 50 characters');
  }
  const choices = [
    ['caseType', caseTypes, caseTypeLabels, {}],
    ['category', caseCategories, caseCategoryLabels, categoryNames],
    ['priority', casePriorities, priorityLabels, {}],
  ] as const;
  const chosen: Record<string, string> = {};
  for (const [field, options, labels, extra] of choices) {
    const text = given(values, field);
    if (text === undefined) return problem(field, 'is required');
    const choice = choiceOf<string>(text, options, labels, extra);
    if (!choice) {
      return problem(
        field,
        `must be one of ${options.map((option) => (labels as Record<string, string>)[option]).join(', ')}`,
      );
    }
    chosen[field] = choice;
  }
  if (!given(values, 'title')) return problem('title', 'is required');
  if (!given(values, 'jurisdiction')) return problem('jurisdiction', 'is required');
  const currencyText = given(values, 'currency');
  const currency: Currency | undefined =
    currencyText === undefined ? 'USD' : choiceOf(currencyText, currencies);
  if (!currency) return problem('currency', `must be one of ${currencies.join(', ')}`);
  const amount = minorOf(values.claimAmount, currencyExponent[currency]);
  if ('problem' in amount) return problem('claimAmount', amount.problem);
  const plaintiff = party(values, 'plaintiff');
  if ('problem' in plaintiff) return plaintiff;
  const defendant = party(values, 'defendant');
  if ('problem' in defendant) return defendant;
  const bidderId = given(values, 'bidderId');
  const bidderEmail = given(values, 'bidderEmail');
  const parsed = caseInputSchema.safeParse({
    ...chosen,
    title: cellText(values.title),
    description: cellText(values.description),
    jurisdiction: cellText(values.jurisdiction),
    claimAmount: amount.minor ?? 0,
    currency,
    plaintiff: plaintiff.party,
    defendant: defendant.party,
    auctionId: given(values, 'auctionId') ?? null,
    bidderId: bidderId ?? null,
  });
  if (!parsed.success) return { problem: issueProblem(parsed.error, fieldOfPath) };
  if (bidderEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(bidderEmail)) {
    return problem('bidderEmail', 'is not an email address');
  }
  const bidder =
    bidderId !== undefined
      ? { by: 'bidderId' as const, value: bidderId }
      : bidderEmail !== undefined
        ? { by: 'bidderEmail' as const, value: bidderEmail }
        : null;
  return { row: { input: { ...parsed.data, bidderId: null }, caseNumber, bidder } };
}

const compositeKey = (bidder: string | null, auction: string | null, caseType: string) =>
  `${bidder ?? ''}|${auction ?? ''}|${caseType}`;

/** The stable key of a case: its case number, else its bidder, auction and type. */
export function caseKeyOf(values: Record<string, unknown>): string | null {
  const caseNumber = given(values, 'caseNumber');
  if (caseNumber !== undefined) return `#${caseNumber.toLowerCase()}`;
  const bidder = given(values, 'bidderId') ?? given(values, 'bidderEmail')?.toLowerCase() ?? null;
  const auction = given(values, 'auctionId') ?? null;
  if (bidder === null && auction === null) return null;
  const typeText = given(values, 'caseType') ?? '';
  const caseType = choiceOf<string>(typeText, caseTypes, caseTypeLabels) ?? normalised(typeText);
  return compositeKey(bidder, auction, caseType);
}

/** The account's cases by number and by bidder, auction and type, and those this run files. */
class CaseIndex {
  private readonly byNumber = new StringMap();
  private readonly byParties = new StringMap();

  add(
    id: string,
    caseNumber: string,
    input: Pick<CaseInput, 'bidderId' | 'auctionId' | 'caseType'>,
  ) {
    this.byNumber.set(caseNumber.toLowerCase(), id);
    if (input.bidderId || input.auctionId) {
      this.byParties.setIfAbsent(compositeKey(input.bidderId, input.auctionId, input.caseType), id);
    }
  }

  /** The case a row names, and how: by its number, or by its bidder, auction and type. */
  find(
    row: Pick<CaseRow, 'caseNumber'> & {
      input: Pick<CaseInput, 'bidderId' | 'auctionId' | 'caseType'>;
    },
  ): { id: string; by: 'number' | 'parties' } | undefined {
    if (row.caseNumber !== undefined) {
      const id = this.byNumber.get(row.caseNumber.toLowerCase());
      return id ? { id, by: 'number' } : undefined;
    }
    const { bidderId, auctionId, caseType } = row.input;
    if (!bidderId && !auctionId) return undefined;
    const id = this.byParties.get(compositeKey(bidderId, auctionId, caseType));
    return id ? { id, by: 'parties' } : undefined;
  }
}

async function indexOf(ctx: RequestContext) {
  const index = new CaseIndex();
  for (const found of await caseKeysOf(ctx)) {
    index.add(found.id, found.caseNumber, {
      bidderId: found.bidderId ?? null,
      auctionId: found.auctionId ?? null,
      caseType: found.caseType,
    });
  }
  return index;
}

/** The most bidders a run remembers finding (a file names far fewer as a rule). */
const MAX_REMEMBERED_BIDDERS = 5000;

/** The bidders a run finds by the ID or email its rows give, remembered for the next rows. */
class Bidders {
  private readonly found = new Map<string, string | null>();

  constructor(private readonly ctx: RequestContext) {}

  /** The bidder's document id, or null when the account has no such bidder. */
  async idOf(bidder: NonNullable<CaseRow['bidder']>): Promise<string | null> {
    const key = `${bidder.by}:${bidder.value.toLowerCase()}`;
    const known = this.found.get(key);
    if (known !== undefined) return known;
    const id =
      bidder.by === 'bidderEmail'
        ? ((await bidderWithEmail(this.ctx, bidder.value))?.id ?? null)
        : await this.byBidderId(bidder.value);
    if (this.found.size >= MAX_REMEMBERED_BIDDERS) this.found.clear();
    this.found.set(key, id);
    return id;
  }

  /** By the bidder ID a house knows them by (an alias after a merge too), or the record's id. */
  private async byBidderId(value: string) {
    const listed = await bidderWithBidderId(this.ctx, value);
    if (listed) return listed.id;
    try {
      return (await getBidder(this.ctx, value)).id;
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    }
  }
}

/** The row's case with its bidder found, or the problem naming the bidder's field. */
async function withBidder(
  row: CaseRow,
  bidders: Bidders,
): Promise<{ row: CaseRow } | { problem: RowProblem }> {
  if (!row.bidder) return { row };
  const id = await bidders.idOf(row.bidder);
  if (!id) return problem(row.bidder.by, 'is not a bidder of this account');
  return { row: { ...row, input: { ...row.input, bidderId: id } } };
}

async function caseOnFile(ctx: RequestContext, id: string) {
  try {
    return await getCase(ctx, id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  }
}

type Compared = Exclude<keyof CaseInput, 'assignedTo'>;

/** The case's fields as the case contract names them (what the imported values are compared to). */
function fieldsOf(record: CaseRecord): Record<Compared, unknown> {
  return {
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
    auctionId: record.auction?.id ?? null,
    bidderId: record.bidder?.id ?? null,
  };
}

const fieldLabels: Record<Compared, string> = {
  caseType: 'Case Type',
  category: 'Category',
  priority: 'Priority',
  title: 'Title',
  description: 'Description',
  jurisdiction: 'Jurisdiction',
  claimAmount: 'Claim Amount',
  currency: 'Currency',
  plaintiff: 'Plaintiff',
  defendant: 'Defendant',
  auctionId: 'Auction',
  bidderId: 'Bidder',
};

/** The fields the row has cells for: a blank cell says nothing about the case on file. */
function comparedFields(values: Record<string, unknown>): Compared[] {
  const has = (...fields: string[]) => fields.some((field) => given(values, field) !== undefined);
  const fields: Compared[] = ['caseType', 'category', 'priority', 'title', 'jurisdiction'];
  if (has('description')) fields.push('description');
  if (has('claimAmount')) fields.push('claimAmount');
  if (has('currency')) fields.push('currency');
  if (has('plaintiffName', 'plaintiffType', 'plaintiffEmail')) fields.push('plaintiff');
  if (has('defendantName', 'defendantType', 'defendantEmail')) fields.push('defendant');
  if (has('auctionId')) fields.push('auctionId');
  if (has('bidderId', 'bidderEmail')) fields.push('bidderId');
  return fields;
}

/** The compared fields whose imported value differs from the case on file. */
function differences(record: CaseRecord, input: CaseInput, values: Record<string, unknown>) {
  const existing = fieldsOf(record);
  const compared = comparedFields(values);
  return {
    compared,
    differing: compared.filter((field) => !same(existing[field], input[field])),
  };
}

/** A field as Conflict Resolution shows it: money as the house reads it. */
function shown(field: Compared, value: unknown, currency: Currency): unknown {
  return field === 'claimAmount' && typeof value === 'number' ? money(value, currency) : value;
}

class LegalRows implements RowImporter {
  private readonly tally = { created: 0, updated: 0, conflicts: 0 };

  constructor(
    private readonly run: ImporterContext,
    private readonly index: CaseIndex,
    private readonly bidders: Bidders,
  ) {}

  async row(ref: RowRef, id: string, values: Record<string, unknown>) {
    const { sink } = this.run;
    const read = caseOfRow(values);
    if ('problem' in read) {
      sink.error(ref, read.problem);
      return;
    }
    const found = await withBidder(read.row, this.bidders);
    if ('problem' in found) {
      sink.error(ref, found.problem);
      return;
    }
    const { row } = found;
    const match = this.index.find(row);
    const current = match && (await caseOnFile(this.run.ctx, match.id));
    if (!match || !current) {
      await this.file(ref, id, row);
      return;
    }
    // Just after resuming, the case on file may be the one this row filed before the crash.
    if (current.id === id && this.run.wroteBeforeCrash(current)) {
      this.tally.created += 1;
      sink.created('legal-case', id);
      return;
    }
    const { compared, differing } = differences(current, row.input, values);
    if (differing.length === 0) {
      sink.duplicate();
      return;
    }
    if (this.run.mode === 'update') await this.overwrite(ref, current, row.input, differing);
    else await this.conflict(ref, current, row, match.by, compared, differing);
  }

  private async file(ref: RowRef, id: string, row: CaseRow) {
    const { ctx, sink, ledger } = this.run;
    if (row.caseNumber !== undefined && LOTWISE_NUMBER.test(row.caseNumber)) {
      sink.error(ref, {
        field: 'caseNumber',
        message:
          'is a Lotwise case number that is not on file: leave it blank to file the case under a new number',
      });
      return;
    }
    // This row's own case may be on file without its key matching (a row with neither number,
    // bidder nor auction): filed by an earlier run, or by the run that stopped before its
    // checkpoint. Its id says so, before an intent is recorded for a case already there.
    const own = await caseOnFile(ctx, id);
    if (own) {
      this.index.add(id, own.caseNumber, row.input);
      this.ownCase(own);
      return;
    }
    await ledger.intend([{ entity: 'legal-case', id, before: null }]);
    let caseNumber: string;
    let created = false;
    try {
      const saved = await createCase(ctx, row.input, null, {
        id,
        ...(row.caseNumber !== undefined ? { caseNumber: row.caseNumber } : {}),
      });
      caseNumber = saved.caseNumber;
      created = true;
    } catch (error) {
      const already =
        error instanceof AppError &&
        error.code === 'conflict' &&
        (error.details as { caseId?: string } | undefined)?.caseId === id;
      const earlier = already ? await caseOnFile(ctx, id) : undefined;
      ledger.skipped('legal-case', id);
      if (!earlier) {
        sink.error(
          ref,
          refusalOf(error, (field) => this.fieldOf(field, row)),
        );
        return;
      }
      caseNumber = earlier.caseNumber;
    }
    // The house's rules see an imported case as one filed by hand. Outside the create's refusals:
    // a rule that fails is the platform's failure (the run is retried), not the row's.
    if (created) {
      await runRulesFor(ctx, id, 'case_created');
      // After the rules: what they change is part of the import's write.
      ledger.landed('legal-case', id);
    }
    this.index.add(id, caseNumber, row.input);
    this.tally.created += 1;
    sink.created('legal-case', id);
  }

  /** This row's case, on file already: its own write just after resuming, else a duplicate. */
  private ownCase(own: CaseRecord) {
    if (this.run.wroteBeforeCrash(own)) {
      this.tally.created += 1;
      this.run.sink.created('legal-case', own.id);
    } else {
      this.run.sink.duplicate();
    }
  }

  /** The column a refusal's field came from (the bidder may have been named by email). */
  private fieldOf(field: string, row: CaseRow) {
    if (field === 'bidderId') return row.bidder?.by ?? 'bidderId';
    return field;
  }

  private async overwrite(
    ref: RowRef,
    current: CaseRecord,
    input: CaseInput,
    differing: Compared[],
  ) {
    const { ctx, sink, ledger } = this.run;
    if (differing.includes('currency')) {
      sink.error(ref, {
        field: 'currency',
        message: `differs from the case on file (${current.currency}), whose currency cannot change`,
      });
      return;
    }
    const update = Object.fromEntries(
      differing.map((field) => [field, input[field]]),
    ) as CaseUpdate;
    const { _etag, _ts, ...before } = current;
    await ledger.intend([{ entity: 'legal-case', id: current.id, before }]);
    let saved: CaseRecord;
    try {
      saved = await updateCase(ctx, current.id, caseEtag(current), update);
    } catch (error) {
      ledger.skipped('legal-case', current.id);
      sink.error(ref, refusalOf(error));
      return;
    }
    if (saved.priority !== current.priority) {
      await runRulesFor(ctx, saved.id, 'priority_change');
    }
    ledger.landed('legal-case', current.id);
    this.tally.updated += 1;
    sink.updated('legal-case', current.id);
  }

  private async conflict(
    ref: RowRef,
    current: CaseRecord,
    row: CaseRow,
    by: 'number' | 'parties',
    compared: Compared[],
    differing: Compared[],
  ) {
    const { ctx, sink, upload } = this.run;
    const existing = fieldsOf(current);
    const { assignedTo: _assignedTo, ...imported } = row.input;
    const fields: ConflictField[] = differing.map((field) => ({
      field,
      label: fieldLabels[field],
      existing: shown(field, existing[field], current.currency),
      imported: shown(field, row.input[field], row.input.currency),
    }));
    const view = (values: Record<Compared, unknown>, currency: Currency) =>
      Object.fromEntries(
        Object.entries(values).map(([field, value]) => [
          field,
          shown(field as Compared, value, currency),
        ]),
      );
    const recorded = await recordConflict(ctx, {
      // By the row, whatever the run: a re-run meets the conflict it recorded before.
      key: `upload:${upload.id}:legal:${ref.file}:${ref.row}`,
      subject: { type: 'legal', existingId: current.id, imported },
      conflictType: by === 'number' ? 'mismatch' : 'related',
      source: { kind: 'upload', uploadId: upload.id, uploadName: upload.name },
      uploadName: upload.name,
      // The same case (by number) differs; a related one is as alike as its fields agree.
      matchScore:
        by === 'number'
          ? null
          : Math.round((100 * (compared.length - differing.length)) / compared.length),
      existingRecord: {
        id: current.id,
        caseNumber: current.caseNumber,
        status: current.status,
        ...view(existing, current.currency),
      },
      importedRecord: {
        ...(row.caseNumber !== undefined ? { caseNumber: row.caseNumber } : {}),
        ...view(imported, row.input.currency),
      },
      fields,
      guard: { existing: caseEtag(current), imported: null },
    });
    // A re-run meets the conflicts it recorded before: only new ones wait for a decision.
    if (recorded.created) this.tally.conflicts += 1;
    sink.conflict();
  }

  flush() {
    return Promise.resolve();
  }

  settle() {
    // Every write is awaited where it starts: nothing runs behind the rows.
    return Promise.resolve();
  }

  finish() {
    return Promise.resolve({
      casesCreated: this.tally.created,
      casesUpdated: this.tally.updated,
      conflicts: this.tally.conflicts,
    });
  }
}

const preview = perContext(async (ctx) => ({
  index: await indexOf(ctx),
  bidders: new Bidders(ctx),
}));

export const legalImporter: ImporterDefinition = {
  category: 'legal',
  fields: legalFields,
  jsonKey: 'cases',
  refuses: (format) => refusesFormat(format, 'legal cases'),
  check: (values) => {
    const read = caseOfRow(values);
    return 'problem' in read ? read.problem : null;
  },
  keyOf: caseKeyOf,

  async start(context) {
    return new LegalRows(context, await indexOf(context.ctx), new Bidders(context.ctx));
  },

  async overwrite(ctx, values): Promise<Overwrite | null> {
    const read = caseOfRow(values);
    if ('problem' in read) return null;
    const { index, bidders } = await preview(ctx);
    const found = await withBidder(read.row, bidders);
    if ('problem' in found) return null;
    const match = index.find(found.row);
    const current = match && (await caseOnFile(ctx, match.id));
    if (!current) return null;
    const { differing } = differences(current, found.row.input, values);
    const fields = differing
      .filter((field) => field !== 'currency')
      .map((field) => ({
        field,
        existing: shown(field, fieldsOf(current)[field], current.currency),
        imported: shown(field, found.row.input[field], found.row.input.currency),
      }));
    // On file and unchanged (or differing only in its currency, which stays) is no field to
    // overwrite, not a new case.
    return {
      entity: 'legal-case',
      recordId: current.id,
      title: `${current.caseNumber}: ${current.title}`,
      fields,
    };
  },

  async undo(ctx, entry, since) {
    if (entry.before) return restoreCase(ctx, entry.before as RestorableCase, since);
    const current = await caseOnFile(ctx, entry.id);
    if (!current) return 'gone';
    // Changed since, or with documents filed on it since: it stays.
    if (current.updatedAt > since) return 'kept';
    if ((await caseFiles(ctx, entry.id)).length > 0) return 'kept';
    try {
      await deleteCase(ctx, entry.id, caseEtag(current));
      return 'removed';
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'not_found') return 'gone';
      if (error.code === 'precondition_failed') return 'kept';
      throw error;
    }
  },
};
