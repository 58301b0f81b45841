import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { writeAudit } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/context.js';
import { isConflict, isNotFound, isStale } from '../../platform/cosmos-errors.js';
import { AppError } from '../../platform/errors.js';
import { MAX_BATCH_OPERATIONS, type BatchOperation, type Stored } from '../../platform/repo.js';
import { validationError } from '../../platform/validation.js';
import { csvRows, openUpload, xlsxRows, type FormPart, type Row } from '../../uploads/files.js';
import {
  auctionDocuments,
  lotNumberKey,
  lotsOf,
  type AuctionDocument,
  type AuctionRecord,
  type LotRecord,
} from '../auctions.repo.js';
import { currencyExponent } from '../auctions.schema.js';
import { getAuction } from '../auctions.service.js';
import {
  columnLabels,
  columnOf,
  isBlankRow,
  isCatalogueColumn,
  lotOfRow,
  type CatalogueColumn,
} from './catalogue-rows.js';
import { LOT_IMPORT_MAX_ROWS, type LotImportResult, type LotInput } from './lots.schema.js';
import { catalogueOpen, claimOf } from './lots.service.js';

/** The form field the catalogue comes in. */
export const CATALOGUE_FIELD = 'file';

type ImportError = LotImportResult['errors'][number];

/** A row's lot; `id`, when given, is the new lot's document id (an upload's row, written once). */
export interface LotRow {
  row: number;
  lot: LotInput;
  id?: string;
  /** The columns this row gives, when not the call's: an update changes only these. */
  columns?: Set<CatalogueColumn>;
}

interface ReadCatalogue {
  name: string;
  /** The Lotwise columns the file has: an update changes only these. */
  columns: Set<CatalogueColumn>;
  rows: { row: number; lot: LotInput }[];
  errors: ImportError[];
}

const fileProblem = (message: string) =>
  validationError([{ location: 'body', field: CATALOGUE_FIELD, message }]);

const drain = async (stream: Readable) => {
  stream.resume();
  await finished(stream);
};

/** Where a column a catalogue cannot do without is missing, the whole file is refused. */
const REQUIRED_COLUMNS: CatalogueColumn[] = ['lotNumber', 'title'];

/** The rows of a CSV or Excel file (by content), each read as a lot, and the columns it has. */
async function readFile(name: string, stream: Readable, exponent: number): Promise<ReadCatalogue> {
  const columns = new Set<CatalogueColumn>();
  const seeing = (header: string) => {
    const column = columnOf(header);
    if (isCatalogueColumn(column)) columns.add(column);
    return column;
  };
  const file = await openUpload(name, stream);
  if (file.kind === 'json') {
    throw new AppError(
      'unsupported_media_type',
      `${name}: a catalogue is imported from a .csv or .xlsx file`,
    );
  }
  const rows: AsyncGenerator<Row> =
    file.kind === 'csv'
      ? csvRows(file.stream, seeing, CATALOGUE_FIELD)
      : xlsxRows(file.stream, seeing);
  const read: ReadCatalogue = { name, columns, rows: [], errors: [] };
  let count = 0;
  for await (const { row, values } of rows) {
    if (isBlankRow(values)) continue;
    count += 1;
    if (count > LOT_IMPORT_MAX_ROWS) break;
    const parsed = lotOfRow(values, exponent);
    if ('lot' in parsed) read.rows.push({ row, lot: parsed.lot });
    else read.errors.push(...parsed.problems.map((problem) => ({ row, ...problem })));
  }
  if (count > LOT_IMPORT_MAX_ROWS) {
    // The rest is read and dropped, so a file over the size limit is refused as that.
    file.stream.unpipe();
    await drain(file.stream);
    throw fileProblem(
      `holds more than ${LOT_IMPORT_MAX_ROWS.toLocaleString('en-US')} lots; split it into smaller files`,
    );
  }
  const missing = REQUIRED_COLUMNS.filter((column) => !columns.has(column));
  if (missing.length) {
    throw fileProblem(
      `has no ${missing.map((column) => columnLabels[column]).join(' or ')} column; the first row names the columns`,
    );
  }
  return read;
}

/**
 * The one file of the form, read whole as a catalogue. The rest of the form is read (and dropped)
 * to its end before anything is written: an upload over the limit or cut off is refused as that.
 */
async function readUpload(form: AsyncGenerator<FormPart>, exponent: number) {
  let read: ReadCatalogue | undefined;
  let failure: unknown;
  try {
    for (;;) {
      const next = await form.next();
      if (next.done) break;
      const part = next.value;
      if (part.kind !== 'file') continue;
      if (part.field !== CATALOGUE_FIELD || read) {
        await drain(part.stream);
        throw fileProblem(`Send one file, in the field "${CATALOGUE_FIELD}"`);
      }
      try {
        read = await readFile(part.name, part.stream, exponent);
      } finally {
        if (!part.stream.readableEnded) {
          // A parser that gave up holds the rest back: it is let go and the rest read and dropped.
          part.stream.unpipe();
          await drain(part.stream).catch(() => undefined);
        }
      }
    }
  } catch (error) {
    failure = error;
  }
  // A failure of the upload itself (too large, cut off) wins over what was wrong in the file.
  try {
    for (;;) {
      const next = await form.next();
      if (next.done) break;
      if (next.value.kind === 'file') await drain(next.value.stream);
    }
  } catch (error) {
    if (error instanceof AppError) failure = error;
  } finally {
    await form.return(undefined);
  }
  if (failure) throw failure;
  if (!read) throw fileProblem('Choose a CSV or Excel file');
  return read;
}

/** Rows that share a lot number are all refused: which one was meant is not Lotwise's guess. */
function withoutRepeatedNumbers(read: ReadCatalogue) {
  const rowsByNumber = new Map<string, number[]>();
  for (const { row, lot } of read.rows) {
    const key = lotNumberKey(lot.lotNumber);
    rowsByNumber.set(key, [...(rowsByNumber.get(key) ?? []), row]);
  }
  const errors: ImportError[] = [];
  const rows = read.rows.filter(({ row, lot }) => {
    const shared = rowsByNumber.get(lotNumberKey(lot.lotNumber)) ?? [];
    if (shared.length === 1) return true;
    errors.push({
      row,
      field: 'lotNumber',
      message: `Lot ${lot.lotNumber} is on more than one row (rows ${shared.join(', ')})`,
    });
    return false;
  });
  return { rows, errors };
}

/** What the catalogue knows of the auction's lots: by number, and where the next one goes. */
async function catalogueOf(ctx: RequestContext, auctionId: string) {
  const lots = await lotsOf(ctx.scope, auctionId);
  return {
    byNumber: new Map(lots.map((lot) => [lotNumberKey(lot.lotNumber), lot])),
    nextPosition: lots.reduce((max, lot) => Math.max(max, lot.position), 0) + 1,
  };
}

type Catalogue = Awaited<ReturnType<typeof catalogueOf>>;

/**
 * A row's lot applied to the lot of that number: the columns the file has replace the lot's
 * fields, the rest stay (a consignor's contact the file leaves out is kept).
 */
function updated(current: Stored<LotRecord>, lot: LotInput, columns: Set<CatalogueColumn>) {
  const { _etag, _ts, ...document } = current;
  const next: Omit<LotRecord, 'accountId'> = {
    ...document,
    lotNumber: lot.lotNumber,
    title: lot.title,
    updatedAt: new Date().toISOString(),
  };
  if (columns.has('description')) next.description = lot.description;
  if (columns.has('category')) next.category = lot.category;
  if (columns.has('estimateLow')) next.estimateLow = lot.estimateLow;
  if (columns.has('estimateHigh')) next.estimateHigh = lot.estimateHigh;
  if (columns.has('reserve')) next.reserve = lot.reserve;
  if (columns.has('consignorName') || columns.has('consignorContact')) {
    const name = columns.has('consignorName')
      ? (lot.consignor?.name ?? '')
      : (current.consignor?.name ?? '');
    const contact = columns.has('consignorContact')
      ? (lot.consignor?.contact ?? '')
      : (current.consignor?.contact ?? '');
    next.consignor = name || contact ? { name, contact } : null;
  }
  return next;
}

/** Why a row cannot update its lot, when the lot as changed would be inconsistent. */
function updateProblem(next: Omit<LotRecord, 'accountId'>): Omit<ImportError, 'row'> | null {
  if (next.consignor && !next.consignor.name) {
    return { field: 'consignorName', message: 'is required with a consignor contact' };
  }
  if (
    next.estimateLow != null &&
    next.estimateHigh != null &&
    next.estimateLow > next.estimateHigh
  ) {
    return { field: 'estimateHigh', message: "is below the lot's low estimate" };
  }
  return null;
}

interface Planned {
  operations: BatchOperation<AuctionDocument>[];
  /** The lot numbers added and updated. */
  created: string[];
  updated: string[];
  errors: ImportError[];
}

/** The writes of some rows against the catalogue as it is: new lots with their claims, or updates. */
function plan(
  auctionId: string,
  rows: LotRow[],
  catalogue: Catalogue,
  columns: Set<CatalogueColumn>,
): Planned {
  const planned: Planned = { operations: [], created: [], updated: [], errors: [] };
  let position = catalogue.nextPosition;
  const now = new Date().toISOString();
  for (const { row, lot, id, columns: own } of rows) {
    const current = catalogue.byNumber.get(lotNumberKey(lot.lotNumber));
    if (current) {
      const next = updated(current, lot, own ?? columns);
      const problem = updateProblem(next);
      if (problem) {
        planned.errors.push({ row, ...problem });
        continue;
      }
      planned.operations.push({ op: 'replace', document: next, etag: current._etag });
      planned.updated.push(next.lotNumber);
    } else {
      const document: Omit<LotRecord, 'accountId'> = {
        id: id ?? randomUUID(),
        kind: 'lot',
        auctionId,
        ...lot,
        position,
        result: null,
        createdAt: now,
        updatedAt: now,
      };
      planned.operations.push(
        { op: 'create', document },
        { op: 'create', document: claimOf(auctionId, lot.lotNumber, document.id) },
      );
      position += 1;
      planned.created.push(lot.lotNumber);
    }
  }
  return planned;
}

/** Rows per batch: a new lot is two writes (the lot and its number's claim), plus the auction's turn. */
const ROWS_PER_BATCH = Math.floor((MAX_BATCH_OPERATIONS - 1) / 2);

/**
 * Writes a batch of rows together with the auction's turn (its lot count, under its document
 * ETag), so a lot never lands without its claim and the count never drifts. A turn or a lot
 * changed meanwhile (another writer, a lot number taken) means the rows are planned again
 * against the catalogue as it now is; the catalogue closing meanwhile stops the import.
 */
async function writeRows(
  ctx: RequestContext,
  auction: Stored<AuctionRecord>,
  catalogue: Catalogue,
  rows: LotRow[],
  columns: Set<CatalogueColumn>,
) {
  let current = { auction, catalogue };
  for (let attempt = 0; ; attempt += 1) {
    const planned = plan(auction.id, rows, current.catalogue, columns);
    if (planned.operations.length === 0) return { planned, ...current };
    try {
      const written = await auctionDocuments.batch(ctx.scope, [
        ...planned.operations,
        {
          op: 'patch',
          id: auction.id,
          operations: [{ op: 'incr', path: '/lotCount', value: planned.created.length }],
          etag: current.auction._etag,
        },
      ]);
      for (const document of written) {
        if (document.kind === 'lot') {
          current.catalogue.byNumber.set(lotNumberKey(document.lotNumber), document);
          current.catalogue.nextPosition = Math.max(
            current.catalogue.nextPosition,
            document.position + 1,
          );
        }
      }
      const turned = written.at(-1);
      return {
        planned,
        auction: turned?.kind === 'auction' ? (turned as Stored<AuctionRecord>) : current.auction,
        catalogue: current.catalogue,
      };
    } catch (error) {
      // A lot gone meanwhile (a catalogue kept between calls is read afresh, as when stale).
      if (!(isStale(error) || isConflict(error) || isNotFound(error)) || attempt >= 8) throw error;
      const fresh = await getAuction(ctx, auction.id);
      catalogueOpen(fresh);
      current = { auction: fresh, catalogue: await catalogueOf(ctx, auction.id) };
    }
  }
}

/**
 * The auction and its catalogue as a writer last saw them. A caller writing many batches keeps
 * it between calls instead of reading the whole catalogue again for each: every batch is written
 * under the auction's ETag and each updated lot's, so one changed meanwhile is read afresh.
 */
export interface CatalogueState {
  auction: Stored<AuctionRecord>;
  catalogue: Catalogue;
}

/**
 * Lots written into an open auction in batches under its turn: a lot whose number is already in
 * the auction is updated in `columns`, the rest added after the last lot in the given order.
 */
export async function writeCatalogue(
  ctx: RequestContext,
  auctionId: string,
  rows: LotRow[],
  columns: Set<CatalogueColumn>,
  known?: CatalogueState,
) {
  let state: CatalogueState = known ?? {
    auction: await getAuction(ctx, auctionId),
    catalogue: await catalogueOf(ctx, auctionId),
  };
  catalogueOpen(state.auction);
  const outcome = { created: [] as string[], updated: [] as string[], errors: [] as ImportError[] };
  for (let start = 0; start < rows.length; start += ROWS_PER_BATCH) {
    const { planned, ...next } = await writeRows(
      ctx,
      state.auction,
      state.catalogue,
      rows.slice(start, start + ROWS_PER_BATCH),
      columns,
    );
    state = next;
    outcome.created.push(...planned.created);
    outcome.updated.push(...planned.updated);
    outcome.errors.push(...planned.errors);
  }
  return { ...outcome, state };
}

/**
 * An upload's lots (the Data Processing Center) written into an open auction as `writeCatalogue`
 * does, and audited as a catalogue import from that upload.
 */
export async function importLots(
  ctx: RequestContext,
  auctionId: string,
  rows: LotRow[],
  columns: Set<CatalogueColumn>,
  upload: { id: string; name: string },
  known?: CatalogueState,
) {
  const outcome = await writeCatalogue(ctx, auctionId, rows, columns, known);
  if (outcome.created.length || outcome.updated.length) {
    await writeAudit(ctx, {
      action: 'lot.import',
      entity: { type: 'auction', id: auctionId },
      after: {
        upload,
        imported: outcome.created.length,
        updated: outcome.updated.length,
        created: outcome.created,
        changed: outcome.updated,
      },
    });
  }
  return outcome;
}

/**
 * Imports a catalogue file (CSV or Excel, by content) into an open auction: each row checked on
 * its own and refused with the columns at fault, a row whose lot number is already in the
 * auction updating that lot, the rest added after the last lot in the file's order.
 */
export async function importCatalogue(
  ctx: RequestContext,
  auctionId: string,
  form: AsyncGenerator<FormPart>,
): Promise<LotImportResult> {
  const auction = await getAuction(ctx, auctionId);
  catalogueOpen(auction);
  const read = await readUpload(form, currencyExponent[auction.currency]);
  const { rows, errors: repeated } = withoutRepeatedNumbers(read);
  const { created, updated, errors } = await writeCatalogue(ctx, auctionId, rows, read.columns);
  const result: LotImportResult = {
    imported: created.length,
    updated: updated.length,
    errors: [...read.errors, ...repeated, ...errors].sort((a, b) => a.row - b.row),
  };
  await writeAudit(ctx, {
    action: 'lot.import',
    entity: { type: 'auction', id: auctionId },
    after: {
      file: read.name,
      imported: result.imported,
      updated: result.updated,
      refusedRows: new Set(result.errors.map((error) => error.row)).size,
      created,
      changed: updated,
    },
  });
  return result;
}
