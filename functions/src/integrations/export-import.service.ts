import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { getAuction, toAuction } from '../auctions/auctions.service.js';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { validationError } from '../platform/validation.js';
import { readAll, type FormPart } from '../uploads/files.js';
import { writeLots, type RecordScope } from './auction-sync.js';
import { applyPlatformBidder, recordSyncConflicts } from './bidder-sync.js';
import { parseExportFile, type ExportFileError } from './connectors/export-files.js';
import type { Platform, SyncChange, SyncRun } from './integrations.schema.js';
import { newRun, RunLog, toRun } from './sync.service.js';

/** The form field the export file comes in. */
export const EXPORT_FILE_FIELD = 'file';

const problem = (field: string, message: string) =>
  validationError([{ location: 'body', field, message }]);

const drain = async (stream: Readable) => {
  stream.resume();
  await finished(stream);
};

interface ExportForm {
  kind: 'bidders' | 'catalogue';
  auctionId: string | null;
  file: { name: string; bytes: Buffer };
}

/**
 * The form: `kind` (bidders or catalogue), `auctionId` for a catalogue, and one file. The whole
 * form is read before anything is written, so an upload over the limit or cut off changes nothing.
 */
async function readExportForm(form: AsyncGenerator<FormPart>): Promise<ExportForm> {
  const fields = new Map<string, string>();
  let file: ExportForm['file'] | undefined;
  try {
    for (;;) {
      const next = await form.next();
      if (next.done) break;
      const part = next.value;
      if (part.kind === 'field') {
        fields.set(part.name, part.value);
        continue;
      }
      if (part.field !== EXPORT_FILE_FIELD || file) {
        await drain(part.stream);
        throw problem(EXPORT_FILE_FIELD, `Send one file, in the field "${EXPORT_FILE_FIELD}"`);
      }
      file = { name: part.name, bytes: await readAll(part.stream) };
    }
  } finally {
    await form.return(undefined);
  }
  const kind = fields.get('kind');
  if (kind !== 'bidders' && kind !== 'catalogue') {
    throw problem('kind', 'is bidders or catalogue');
  }
  if (!file) throw problem(EXPORT_FILE_FIELD, 'Choose a CSV or Excel file');
  const auctionId = fields.get('auctionId')?.trim() || null;
  if (kind === 'catalogue' && !auctionId) {
    throw problem('auctionId', 'is required: the Lotwise auction the lots go into');
  }
  return { kind, auctionId, file };
}

/**
 * A platform's own export (its bidders, or a sale's catalogue, as the house downloads them) read
 * with that platform's columns: bidders go through the same linking and duplicate detection as a
 * platform import, lots into the chosen Lotwise auction by lot number. A row that cannot be read
 * is named (row and column) and the rest go in.
 */
export async function importExportFile(
  ctx: RequestContext,
  platform: Platform,
  form: AsyncGenerator<FormPart>,
): Promise<{ run: SyncRun; errors: ExportFileError[] }> {
  const read = await readExportForm(form);
  const run = new RunLog(newRun(ctx, platform, 'import', 'pull', read.auctionId));
  const scope: RecordScope = {
    ctx,
    connection: { platform, auctionHouseId: null },
    runId: run.record.id,
  };
  let errors: ExportFileError[];
  if (read.kind === 'bidders') {
    const parsed = await parseExportFile(platform, 'bidders', read.file);
    errors = parsed.errors;
    const changes: SyncChange[] = [];
    for (const bidder of parsed.bidders) {
      try {
        const entry = await applyPlatformBidder(scope, bidder);
        changes.push(entry);
        run.add(entry);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        run.add({
          entity: 'bidder',
          externalId: bidder.externalId,
          localId: null,
          title: `${bidder.firstName} ${bidder.lastName}`,
          action: 'failed',
          fields: [],
          message: error.message,
        });
      }
    }
    await recordSyncConflicts(scope, changes);
  } else {
    const auction = toAuction(await getAuction(ctx, read.auctionId as string));
    const parsed = await parseExportFile(platform, 'catalogue', read.file, {
      currency: auction.currency,
    });
    errors = parsed.errors;
    const lots = await writeLots(scope, auction.id, parsed.lots);
    run.record.counts.created = lots.created.length;
    run.record.counts.updated = lots.updated.length;
    run.record.counts.failed = lots.problems.length;
    run.record.changes.push({
      entity: 'lot',
      externalId: read.file.name,
      localId: auction.id,
      title: auction.title,
      action: lots.created.length ? 'created' : 'updated',
      fields: [],
      message: [
        `${lots.created.length} lots added, ${lots.updated.length} updated`,
        ...lots.problems,
      ].join('; '),
    });
  }
  run.record.counts.failed += errors.length;
  run.record.status = run.record.counts.failed ? 'partial' : 'completed';
  run.record.finishedAt = new Date().toISOString();
  await run.save(ctx);
  await writeAudit(ctx, {
    action: 'integration.export-import',
    entity: { type: 'platform', id: platform },
    after: {
      kind: read.kind,
      file: read.file.name,
      counts: run.record.counts,
      auctionId: read.auctionId,
    },
  });
  return { run: toRun(run.record), errors };
}
