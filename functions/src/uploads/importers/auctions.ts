import {
  auctionCategories,
  auctionCategoryLabels,
  auctionInputSchema,
  auctionTypes,
  currencies,
  currencyExponent,
  listAuctionsQuerySchema,
  type AuctionInput,
  type Currency,
} from '../../auctions/auctions.schema.js';
import {
  auctionEtag,
  createAuction,
  deleteAuction,
  getAuction,
  listAuctions,
} from '../../auctions/auctions.service.js';
import {
  importLots,
  type CatalogueState,
  type LotRow,
} from '../../auctions/lots/catalogue-import.service.js';
import {
  catalogueColumns,
  isBlankRow,
  lotOfRow,
  type CatalogueColumn,
} from '../../auctions/lots/catalogue-rows.js';
import type { LotInput } from '../../auctions/lots/lots.schema.js';
import {
  catalogueOpen,
  deleteLot,
  getLot,
  listLots,
  restoreLot,
  type RestorableLot,
} from '../../auctions/lots/lots.service.js';
import type { RequestContext } from '../../platform/context.js';
import { isConflict } from '../../platform/cosmos-errors.js';
import { AppError, notFound } from '../../platform/errors.js';
import type {
  ImporterContext,
  ImporterDefinition,
  LedgerEntry,
  Overwrite,
  RowImporter,
  RowProblem,
  RowRef,
} from '../importer.js';
import {
  MAX_EXPONENT,
  cellText,
  choiceOf,
  dayOf,
  given,
  perContext,
  refusalOf,
  refusesFormat,
  same,
  stableId,
} from './cells.js';

/**
 * Auction catalogues from an upload: each row is a lot. From an auction's Import dialog the
 * upload names its auction (`auctionId`) and every lot goes into it; otherwise each row names its
 * auction by title and start date, and rows of an auction not on file create it as a Draft (the
 * first such row must give its category). Lots go in as the catalogue import puts them: only
 * into an open catalogue (not Completed or Cancelled), money in major units of the auction's
 * currency, a lot's key its number in its auction. Blank cells never clear what is on file.
 */

const lotFields = [
  {
    key: 'lotNumber',
    label: 'Lot Number',
    required: true,
    aliases: ['lot', 'lotno', 'lotnum', 'lotid', 'number', 'no'],
  },
  {
    key: 'title',
    label: 'Title',
    required: true,
    aliases: ['lottitle', 'name', 'item', 'itemname', 'heading'],
  },
  {
    key: 'description',
    label: 'Description',
    required: false,
    aliases: ['desc', 'details', 'lotdescription', 'itemdescription'],
  },
  { key: 'category', label: 'Category', required: false, aliases: ['lotcategory', 'department'] },
  {
    key: 'estimateLow',
    label: 'Low Estimate',
    required: false,
    aliases: ['lowestimate', 'estlow', 'low', 'estimatemin', 'minestimate'],
  },
  {
    key: 'estimateHigh',
    label: 'High Estimate',
    required: false,
    aliases: ['highestimate', 'esthigh', 'high', 'estimatemax', 'maxestimate'],
  },
  { key: 'reserve', label: 'Reserve', required: false, aliases: ['reserveprice', 'res'] },
  {
    key: 'consignorName',
    label: 'Consignor',
    required: false,
    aliases: ['consignor', 'consignedby', 'seller', 'vendor'],
  },
  {
    key: 'consignorContact',
    label: 'Consignor Contact',
    required: false,
    aliases: ['consignoremail', 'consignorphone', 'consignordetails', 'contact'],
  },
] as const satisfies readonly {
  key: CatalogueColumn;
  label: string;
  required: boolean;
  aliases: readonly string[];
}[];

/** The auction a row's lot goes into, when the upload does not name one. */
const auctionFields = [
  {
    key: 'auctionTitle',
    label: 'Auction Title',
    required: false,
    aliases: ['auction', 'auctionname', 'sale', 'salename', 'saletitle'],
  },
  {
    key: 'auctionStartDate',
    label: 'Auction Start Date',
    required: false,
    aliases: ['auctiondate', 'saledate', 'startdate', 'date'],
  },
  {
    key: 'auctionStartTime',
    label: 'Auction Start Time',
    required: false,
    aliases: ['starttime', 'saletime', 'auctiontime'],
  },
  {
    key: 'auctionEndDate',
    label: 'Auction End Date',
    required: false,
    aliases: ['enddate', 'saleenddate'],
  },
  { key: 'auctionEndTime', label: 'Auction End Time', required: false, aliases: ['endtime'] },
  {
    key: 'auctionType',
    label: 'Auction Type',
    required: false,
    aliases: ['saletype', 'auctionformat'],
  },
  {
    key: 'auctionCategory',
    label: 'Auction Category',
    required: false,
    aliases: ['salecategory'],
  },
  {
    key: 'auctionCurrency',
    label: 'Auction Currency',
    required: false,
    aliases: ['currency', 'salecurrency'],
  },
] as const;

export const auctionImportFields = [...lotFields, ...auctionFields];

/** What a new auction's times are when the file gives none: a day sale. */
export const DEFAULT_START_TIME = '10:00';
export const DEFAULT_END_TIME = '18:00';

/** An auction a row names: its title and start day, and what a new one is made of. */
export interface NamedAuction {
  title: string;
  startDate: string;
  /** The new auction's input; null when the row cannot create one (no category). */
  input: AuctionInput | null;
  /** Why it cannot, named by field. */
  missing: RowProblem | null;
}

const TIME = /^(\d{1,2}):(\d{2})(?::\d{2})?$/;

function timeOf(value: unknown, fallback: string): { time: string } | { problem: string } {
  const text = cellText(value);
  if (text === '') return { time: fallback };
  const match = TIME.exec(text);
  const hours = Number(match?.[1]);
  if (!match || hours > 23 || Number(match[2]) > 59) return { problem: 'is a time like 18:30' };
  return { time: `${String(hours).padStart(2, '0')}:${match[2]}` };
}

const problem = (field: string, message: string) => ({ problem: { field, message } });

/** An auction and a lot as their services answer them (the document, with its ETag). */
type AuctionRecord = Awaited<ReturnType<typeof getAuction>>;
type LotRecord = Awaited<ReturnType<typeof getLot>>;

/** The fields of the auction contract, as the columns that fill them. */
const auctionColumnOf: Record<string, string> = {
  title: 'auctionTitle',
  startDate: 'auctionStartDate',
  startTime: 'auctionStartTime',
  endDate: 'auctionEndDate',
  endTime: 'auctionEndTime',
  type: 'auctionType',
  category: 'auctionCategory',
  currency: 'auctionCurrency',
};

/**
 * The auction a row names (undefined when it names none), or the first problem with its auction
 * columns. A row of an auction on file needs only its title and start date.
 */
export function auctionOfRow(
  values: Record<string, unknown>,
): { auction: NamedAuction | undefined } | { problem: RowProblem } {
  const title = cellText(values.auctionTitle);
  const start = dayOf(values.auctionStartDate);
  if ('problem' in start) return problem('auctionStartDate', start.problem);
  if (!title) {
    return start.day === undefined
      ? { auction: undefined }
      : problem('auctionTitle', 'is required with an auction start date');
  }
  if (start.day === undefined) {
    return problem('auctionStartDate', 'is required with an auction title');
  }
  const startTime = timeOf(values.auctionStartTime, DEFAULT_START_TIME);
  if ('problem' in startTime) return problem('auctionStartTime', startTime.problem);
  const end = dayOf(values.auctionEndDate);
  if ('problem' in end) return problem('auctionEndDate', end.problem);
  const endTime = timeOf(values.auctionEndTime, DEFAULT_END_TIME);
  if ('problem' in endTime) return problem('auctionEndTime', endTime.problem);
  const typeText = given(values, 'auctionType');
  const type = typeText === undefined ? 'Live' : choiceOf(typeText, auctionTypes);
  if (!type) return problem('auctionType', `must be one of ${auctionTypes.join(', ')}`);
  const categoryText = given(values, 'auctionCategory');
  const category =
    categoryText === undefined
      ? undefined
      : choiceOf(categoryText, auctionCategories, auctionCategoryLabels);
  if (categoryText !== undefined && !category) {
    return problem(
      'auctionCategory',
      `must be one of ${auctionCategories.map((key) => auctionCategoryLabels[key]).join(', ')}`,
    );
  }
  const currencyText = given(values, 'auctionCurrency');
  const currency: Currency | undefined =
    currencyText === undefined ? 'USD' : choiceOf(currencyText, currencies);
  if (!currency) return problem('auctionCurrency', `must be one of ${currencies.join(', ')}`);
  if (!category) {
    return {
      auction: {
        title,
        startDate: start.day,
        input: null,
        missing: {
          field: 'auctionCategory',
          message: `is required to create the auction "${title}" (${start.day})`,
        },
      },
    };
  }
  const parsed = auctionInputSchema.safeParse({
    title,
    type,
    category,
    startDate: start.day,
    startTime: startTime.time,
    endDate: end.day ?? start.day,
    endTime: endTime.time,
    currency,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = auctionColumnOf[String(issue?.path[0])] ?? 'auctionTitle';
    return problem(field, issue?.message ?? 'is not valid');
  }
  return { auction: { title, startDate: start.day, input: parsed.data, missing: null } };
}

/** The row's lot in a currency with `exponent` decimals, or its first problem. */
function lotOf(
  values: Record<string, unknown>,
  exponent: number,
): { lot: LotInput } | { problem: RowProblem } {
  const read = lotOfRow(values, exponent);
  if ('lot' in read) return read;
  const [first] = read.problems;
  return { problem: first ?? { field: null, message: 'is not a lot' } };
}

const isBlank = (values: Record<string, unknown>) =>
  isBlankRow(values) && auctionFields.every((field) => cellText(values[field.key]) === '');

export function checkAuctionRow(values: Record<string, unknown>): RowProblem | null {
  if (isBlank(values)) return null;
  const lot = lotOf(values, MAX_EXPONENT);
  if ('problem' in lot) return lot.problem;
  const auction = auctionOfRow(values);
  return 'problem' in auction ? auction.problem : null;
}

const lotNumberKey = (lotNumber: string) => lotNumber.trim().toLowerCase();
const auctionKey = (title: string, startDate: string) =>
  `${title.trim().toLowerCase().replace(/\s+/g, ' ')}|${startDate}`;

/** A lot's key: its number in its auction (the upload's, or the one the row names). */
export function lotKeyOf(values: Record<string, unknown>): string | null {
  const lotNumber = cellText(values.lotNumber);
  if (!lotNumber) return null;
  const title = cellText(values.auctionTitle);
  const day = dayOf(values.auctionStartDate);
  const auction = title && 'day' in day && day.day ? auctionKey(title, day.day) : '';
  return `${auction}#${lotNumberKey(lotNumber)}`;
}

/**
 * The lot a row makes of one on file: the row's cells where it has them, the lot's own values
 * where its cells are blank.
 */
function mergedLot(lot: LotInput, current: LotRecord, values: Record<string, unknown>): LotInput {
  const blank = (column: CatalogueColumn) => given(values, column) === undefined;
  const consignor =
    blank('consignorName') && blank('consignorContact')
      ? current.consignor
      : {
          name: lot.consignor?.name || current.consignor?.name || '',
          contact: blank('consignorContact')
            ? (current.consignor?.contact ?? '')
            : (lot.consignor?.contact ?? ''),
        };
  return {
    ...lot,
    description: blank('description') ? current.description : lot.description,
    category: blank('category') ? (current.category as LotInput['category']) : lot.category,
    estimateLow: blank('estimateLow') ? current.estimateLow : lot.estimateLow,
    estimateHigh: blank('estimateHigh') ? current.estimateHigh : lot.estimateHigh,
    reserve: blank('reserve') ? current.reserve : lot.reserve,
    consignor,
    inventoryItemId: current.inventoryItemId,
  };
}

const compared = [
  'title',
  'description',
  'category',
  'estimateLow',
  'estimateHigh',
  'reserve',
  'consignor',
] as const;

const changedFields = (lot: LotInput, current: LotRecord) =>
  compared.filter((field) => !same(lot[field], current[field]));

/** What the ledger keeps of a lot an upload overwrites: the lot as stored. */
function beforeOf(lot: LotRecord): Record<string, unknown> {
  const { _etag, _ts, ...document } = lot;
  return document;
}

const exponentOf = (auction: Pick<AuctionRecord, 'currency'>) => currencyExponent[auction.currency];

/** Whether an auction takes lots now, as the catalogue import asks. */
function openProblem(auction: AuctionRecord): RowProblem | null {
  try {
    catalogueOpen(auction);
    return null;
  } catch (error) {
    return { field: 'auctionTitle', message: (error as Error).message };
  }
}

/** The auction of this title and start day, if the account has one (an open one first). */
async function auctionNamed(ctx: RequestContext, title: string, startDate: string) {
  const { auctions } = await listAuctions(
    ctx,
    listAuctionsQuerySchema.parse({
      search: title.slice(0, 100),
      startDate,
      endDate: startDate,
      limit: 1000,
    }),
  );
  const key = auctionKey(title, startDate);
  const named = auctions.filter((auction) => auctionKey(auction.title, auction.startDate) === key);
  const open = named.find(
    (auction) => auction.status !== 'Completed' && auction.status !== 'Cancelled',
  );
  const found = open ?? named[0];
  return found ? getAuction(ctx, found.id) : undefined;
}

/** A lot of a catalogue: as read (`record`), written by this run, or waiting to be written. */
interface KnownLot {
  id: string;
  record?: LotRecord;
  pending?: true;
}

/** An auction the run writes lots into: its catalogue as read, and the rows waiting for it. */
interface Catalogue {
  auction: AuctionRecord;
  /** Lots by number: on file, or written by this run. */
  lots: Map<string, KnownLot>;
  pending: {
    ref: RowRef;
    id: string;
    lot: LotInput;
    before: LotRecord | null;
    /** An update's: the columns its row gives (only those change; the rest stay as on file). */
    columns?: Set<CatalogueColumn>;
  }[];
  /** Set when the catalogue cannot take lots: every row of it is refused with this. */
  closed: RowProblem | null;
  /** The catalogue as the last batch left it, kept so the next batch need not read it again. */
  written?: CatalogueState;
}

async function catalogueOf(ctx: RequestContext, auction: AuctionRecord): Promise<Catalogue> {
  const closed = openProblem(auction);
  const lots = closed ? [] : await listLots(ctx, auction.id);
  return {
    auction,
    lots: new Map(lots.map((lot) => [lotNumberKey(lot.lotNumber), { id: lot.id, record: lot }])),
    pending: [],
    closed,
  };
}

/** What writeCatalogue needs to know of a row: every column, as merged rows carry every value. */
const allColumns = new Set<CatalogueColumn>(catalogueColumns);

/** Rows per batch, as the catalogue import writes them (two writes a new lot, and the turn). */
const LOT_BATCH = 49;

/** Which column a service's refusal of a new auction is about. */
const auctionFieldOf = (field: string) => auctionColumnOf[field] ?? 'auctionTitle';

class AuctionRows implements RowImporter {
  /** Catalogues by auction key (title and start day), or the upload's own under ''. */
  private readonly catalogues = new Map<string, Catalogue>();
  private waiting = 0;
  private readonly tally = { auctions: 0, lots: 0, updated: 0 };

  constructor(
    private readonly run: ImporterContext,
    uploadCatalogue: Catalogue | null,
  ) {
    if (uploadCatalogue) this.catalogues.set('', uploadCatalogue);
  }

  async row(ref: RowRef, id: string, values: Record<string, unknown>) {
    const { sink } = this.run;
    if (isBlank(values)) return;
    const catalogue = await this.catalogueFor(ref, values);
    if (!catalogue) return;
    if (catalogue.closed) {
      sink.error(ref, catalogue.closed);
      return;
    }
    const read = lotOf(values, exponentOf(catalogue.auction));
    if ('problem' in read) {
      sink.error(ref, read.problem);
      return;
    }
    await this.lotRow(ref, id, values, catalogue, read.lot);
  }

  /** The catalogue the row's lot goes into (found, or its auction created), or undefined. */
  private async catalogueFor(ref: RowRef, values: Record<string, unknown>) {
    const { ctx, sink, ledger, upload } = this.run;
    const own = this.catalogues.get('');
    if (own) return own;
    const named = auctionOfRow(values);
    if ('problem' in named) {
      sink.error(ref, named.problem);
      return undefined;
    }
    const { auction } = named;
    if (!auction) {
      sink.error(ref, {
        field: 'auctionTitle',
        message:
          "is required: name each lot's auction (title and start date), or import from the auction's page",
      });
      return undefined;
    }
    const key = auctionKey(auction.title, auction.startDate);
    const known = this.catalogues.get(key);
    if (known) return known;
    const onFile = await auctionNamed(ctx, auction.title, auction.startDate);
    if (onFile) {
      const catalogue = await catalogueOf(ctx, onFile);
      this.catalogues.set(key, catalogue);
      return catalogue;
    }
    if (!auction.input) {
      sink.error(ref, auction.missing ?? { field: 'auctionCategory', message: 'is required' });
      return undefined;
    }
    const auctionId = stableId(upload.id, 'auction', key);
    await ledger.intend([{ entity: 'auction', id: auctionId, before: null }]);
    let created: AuctionRecord;
    try {
      created = await createAuction(ctx, auction.input, { id: auctionId });
      ledger.landed('auction', auctionId);
    } catch (error) {
      ledger.skipped('auction', auctionId);
      if (isConflict(error)) {
        // This upload's own auction, created by a run that stopped before its checkpoint.
        created = await getAuction(ctx, auctionId);
      } else {
        const refusal = refusalOf(error, auctionFieldOf);
        sink.error(
          ref,
          refusal.field === 'auctionTitle' && /house/i.test(refusal.message)
            ? {
                field: 'auctionTitle',
                message:
                  'names no auction on file, and this account has several houses: create the auction first, or import from its page',
              }
            : refusal,
        );
        return undefined;
      }
    }
    this.tally.auctions += 1;
    sink.created('auction', auctionId);
    const catalogue = await catalogueOf(ctx, created);
    this.catalogues.set(key, catalogue);
    return catalogue;
  }

  private async lotRow(
    ref: RowRef,
    id: string,
    values: Record<string, unknown>,
    catalogue: Catalogue,
    lot: LotInput,
  ) {
    const { sink, mode } = this.run;
    const number = lotNumberKey(lot.lotNumber);
    let existing = catalogue.lots.get(number);
    if (existing?.pending) {
      if (mode !== 'update') {
        sink.duplicate();
        return;
      }
      await this.write(catalogue);
      existing = catalogue.lots.get(number);
    }
    if (existing && existing.id === id && this.run.replaying()) {
      // Just after resuming, the lot on file may be the one this row wrote before the crash.
      const own = existing.record ?? (await this.lotOnFile(catalogue, id));
      if (own && this.run.wroteBeforeCrash(own)) {
        this.tally.lots += 1;
        sink.created('lot', `${catalogue.auction.id}/${id}`);
        return;
      }
    }
    if (existing && mode !== 'update') {
      sink.duplicate();
      return;
    }
    const current = existing && (existing.record ?? (await this.lotOnFile(catalogue, existing.id)));
    if (!current) {
      this.queue(catalogue, { ref, id, lot, before: null });
    } else {
      const merged = mergedLot(lot, current, values);
      if (changedFields(merged, current).length === 0) {
        sink.duplicate();
        return;
      }
      const columns = new Set(
        catalogueColumns.filter((column) => given(values, column) !== undefined),
      );
      this.queue(catalogue, { ref, id: current.id, lot: merged, before: current, columns });
    }
    if (catalogue.pending.length >= LOT_BATCH) await this.write(catalogue);
  }

  /** A lot this run wrote, read back for a later row that updates it (undefined when gone). */
  private async lotOnFile(catalogue: Catalogue, lotId: string) {
    try {
      return await getLot(this.run.ctx, catalogue.auction.id, lotId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return undefined;
      throw error;
    }
  }

  private queue(catalogue: Catalogue, row: Catalogue['pending'][number]) {
    catalogue.pending.push(row);
    catalogue.lots.set(lotNumberKey(row.lot.lotNumber), { id: row.id, pending: true });
    this.waiting += 1;
  }

  /** Writes a catalogue's waiting rows: their ledger entries first, then the lots together. */
  private async write(catalogue: Catalogue) {
    const batch = catalogue.pending;
    if (batch.length === 0) return;
    catalogue.pending = [];
    this.waiting -= batch.length;
    const { ctx, sink, ledger, upload } = this.run;
    const auctionId = catalogue.auction.id;
    await ledger.intend(
      batch.map(({ id, before }): LedgerEntry => ({
        entity: 'lot',
        id: `${auctionId}/${id}`,
        before: before ? beforeOf(before) : null,
      })),
    );
    // Rows are numbered by their place in the batch: a batch may mix files.
    const rows: LotRow[] = batch.map(({ id, lot, before, columns }, index) => ({
      row: index,
      lot,
      ...(before ? {} : { id }),
      ...(columns ? { columns } : {}),
    }));
    let outcome: Awaited<ReturnType<typeof importLots>>;
    try {
      outcome = await importLots(
        ctx,
        auctionId,
        rows,
        allColumns,
        { id: upload.id, name: upload.name },
        catalogue.written,
      );
      catalogue.written = outcome.state;
    } catch (error) {
      catalogue.written = undefined;
      const refusal = refusalOf(error);
      for (const { ref, id, lot } of batch) {
        ledger.skipped('lot', `${auctionId}/${id}`);
        catalogue.lots.delete(lotNumberKey(lot.lotNumber));
        sink.error(ref, refusal);
      }
      return;
    }
    const refused = new Map(outcome.errors.map((error) => [error.row, error]));
    const created = new Set(outcome.created.map(lotNumberKey));
    const updated = new Set(outcome.updated.map(lotNumberKey));
    let stored: Map<string, LotRecord> | undefined;
    for (const [index, { ref, id, lot, before }] of batch.entries()) {
      const number = lotNumberKey(lot.lotNumber);
      const refusal = refused.get(index);
      if (refusal || !(created.has(number) || updated.has(number))) {
        ledger.skipped('lot', `${auctionId}/${id}`);
        catalogue.lots.delete(number);
        sink.error(ref, refusal ?? { field: 'lotNumber', message: 'was not written' });
        continue;
      }
      let lotId = id;
      if (!before && !created.has(number)) {
        // Someone added this lot number meanwhile and the catalogue import updated theirs.
        stored ??= new Map(
          (await listLots(ctx, auctionId)).map((found) => [lotNumberKey(found.lotNumber), found]),
        );
        lotId = stored.get(number)?.id ?? id;
      }
      // A lot someone added meanwhile was updated in place of the one this entry meant to create.
      if (lotId === id) ledger.landed('lot', `${auctionId}/${id}`);
      else ledger.skipped('lot', `${auctionId}/${id}`);
      catalogue.lots.set(number, { id: lotId });
      if (created.has(number)) {
        this.tally.lots += 1;
        sink.created('lot', `${auctionId}/${lotId}`);
      } else {
        this.tally.updated += 1;
        sink.updated('lot', `${auctionId}/${lotId}`);
      }
    }
  }

  private async drain() {
    for (const catalogue of this.catalogues.values()) await this.write(catalogue);
  }

  async flush() {
    if (this.waiting > 0) await this.drain();
  }

  settle() {
    // Every write is awaited where it starts: nothing runs behind the rows.
    return Promise.resolve();
  }

  async finish() {
    await this.flush();
    return {
      auctionsCreated: this.tally.auctions,
      lotsCreated: this.tally.lots,
      lotsUpdated: this.tally.updated,
    };
  }
}

/** The auction an upload names, checked open; a missing one is refused as not found. */
async function uploadAuction(ctx: RequestContext, auctionId: string) {
  try {
    return await getAuction(ctx, auctionId);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') {
      throw notFound('The auction this upload is for is no longer on file');
    }
    throw error;
  }
}

/** What the overwrite preview reads once: auctions by key and their lots. */
const previewState = perContext(() =>
  Promise.resolve({
    auctions: new Map<string, Promise<AuctionRecord | undefined>>(),
    lots: new Map<string, Promise<Map<string, LotRecord>>>(),
  }),
);

async function previewAuction(
  ctx: RequestContext,
  values: Record<string, unknown>,
  auctionId: string | null,
) {
  const state = await previewState(ctx);
  let key = auctionId ?? '';
  if (!auctionId) {
    const named = auctionOfRow(values);
    if ('problem' in named || !named.auction) return undefined;
    key = auctionKey(named.auction.title, named.auction.startDate);
    if (!state.auctions.has(key)) {
      const { title, startDate } = named.auction;
      state.auctions.set(key, auctionNamed(ctx, title, startDate));
    }
  } else if (!state.auctions.has(key)) {
    state.auctions.set(
      key,
      getAuction(ctx, auctionId).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'not_found') return undefined;
        throw error;
      }),
    );
  }
  const auction = await state.auctions.get(key);
  if (!auction) return undefined;
  if (!state.lots.has(auction.id)) {
    state.lots.set(
      auction.id,
      listLots(ctx, auction.id).then(
        (lots) => new Map(lots.map((lot) => [lotNumberKey(lot.lotNumber), lot])),
      ),
    );
  }
  return { auction, lots: (await state.lots.get(auction.id)) as Map<string, LotRecord> };
}

/** The auction and lot a ledger entry names (`auctionId/lotId`). */
function lotIdsOf(entry: LedgerEntry) {
  const [auctionId = '', lotId = ''] = entry.id.split('/');
  return { auctionId, lotId };
}

async function undoLot(ctx: RequestContext, entry: LedgerEntry, since: string) {
  const { auctionId, lotId } = lotIdsOf(entry);
  if (entry.before) {
    return restoreLot(ctx, auctionId, entry.before as RestorableLot, since);
  }
  let lot: LotRecord;
  try {
    lot = await getLot(ctx, auctionId, lotId);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return 'gone';
    throw error;
  }
  if (lot.updatedAt > since || lot.result) return 'kept';
  try {
    await deleteLot(ctx, auctionId, lotId);
    return 'removed';
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'not_found') return 'gone';
    // Clerked, or its catalogue closed since: it stays.
    if (error.code === 'conflict') return 'kept';
    throw error;
  }
}

async function undoAuction(ctx: RequestContext, entry: LedgerEntry, since: string) {
  let auction: AuctionRecord;
  try {
    auction = await getAuction(ctx, entry.id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return 'gone';
    throw error;
  }
  // Lots kept (changed since, or added by hand) keep their auction.
  if (auction.updatedAt > since || auction.lotCount > 0) return 'kept';
  try {
    await deleteAuction(ctx, entry.id, auctionEtag(auction));
    return 'removed';
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'not_found') return 'gone';
    if (error.code === 'conflict' || error.code === 'precondition_failed') return 'kept';
    throw error;
  }
}

export const auctionsImporter: ImporterDefinition = {
  category: 'auctions',
  fields: auctionImportFields,
  jsonKey: 'lots',
  refuses: (format) => refusesFormat(format, 'auction lots'),
  check: checkAuctionRow,
  keyOf: lotKeyOf,

  /**
   * With the upload's auction: refuses the upload (404, 409 as the catalogue import does) when
   * it is gone or its catalogue is closed.
   */
  async start(context) {
    const { auctionId } = context.upload;
    if (!auctionId) return new AuctionRows(context, null);
    const auction = await uploadAuction(context.ctx, auctionId);
    catalogueOpen(auction);
    return new AuctionRows(context, await catalogueOf(context.ctx, auction));
  },

  async overwrite(ctx, values, auctionId): Promise<Overwrite | null> {
    if (isBlank(values)) return null;
    const found = await previewAuction(ctx, values, auctionId);
    if (!found) return null;
    const read = lotOf(values, exponentOf(found.auction));
    if ('problem' in read) return null;
    const current = found.lots.get(lotNumberKey(read.lot.lotNumber));
    if (!current) return null;
    const merged = mergedLot(read.lot, current, values);
    const fields = changedFields(merged, current).map((field) => ({
      field,
      existing: current[field] ?? null,
      imported: merged[field] ?? null,
    }));
    // On file and unchanged is no field to overwrite, not a new lot.
    return {
      entity: 'lot',
      recordId: `${found.auction.id}/${current.id}`,
      title: `${found.auction.title}, lot ${current.lotNumber}: ${current.title}`,
      fields,
    };
  },

  async undo(ctx, entry, since) {
    if (entry.entity === 'auction') return undoAuction(ctx, entry, since);
    return undoLot(ctx, entry, since);
  },
};
