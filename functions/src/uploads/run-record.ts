import type { RequestContext } from '../platform/context.js';
import { isNotFound, isStale } from '../platform/cosmos-errors.js';
import type { Stored } from '../platform/repo.js';
import { findUpload, replaceUpload, type UploadRecord } from './uploads.repo.js';
import type { UploadRun } from './uploads.schema.js';

/**
 * The upload record as a worker's run keeps it: written only over the ETag it read, so a run
 * that finds the upload deleted, finished, or moved on by another worker stops.
 */

/** The upload was deleted, or another worker has it: this run ends without a word. */
export class Stopped extends Error {
  constructor(readonly gone: boolean) {
    super(gone ? 'upload deleted' : 'upload taken over');
  }
}

/** A cancel was asked for: the run stops at this checkpoint, keeping what it did. */
export class Cancelled extends Error {
  constructor() {
    super('upload cancelled');
  }
}

/** The run under way: the last one, while it has not finished. */
export const openRun = (record: Pick<UploadRecord, 'runs'>): UploadRun | undefined => {
  const last = record.runs.at(-1);
  return last && last.finishedAt === null ? last : undefined;
};

/** A new run, numbered after the others. */
export function newRun(
  record: Pick<UploadRecord, 'runs'>,
  kind: UploadRun['kind'],
  mode: UploadRun['mode'],
  by: UploadRun['by'],
): UploadRun {
  return {
    number: (record.runs.at(-1)?.number ?? 0) + 1,
    kind,
    mode,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    by,
    created: 0,
    updated: 0,
    removed: 0,
    restored: 0,
    kept: 0,
    cancelled: false,
  };
}

/** The record with its run `number` replaced by `run` (appended when it has no such run yet). */
export function withRun(record: UploadRecord, run: UploadRun): UploadRecord {
  const known = record.runs.some((candidate) => candidate.number === run.number);
  return {
    ...record,
    runs: known
      ? record.runs.map((candidate) => (candidate.number === run.number ? run : candidate))
      : [...record.runs, run],
  };
}

export class RunRecord {
  constructor(
    readonly ctx: RequestContext,
    public record: Stored<UploadRecord>,
  ) {}

  /**
   * Replaces the record over its ETag. When it changed meanwhile, it is read again: gone, no
   * longer processing, or moved on by another worker, and this run stops; otherwise (a cancel
   * asked for, say) the write is made again over the new ETag.
   */
  async save(change: (record: UploadRecord) => UploadRecord) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        this.record = await replaceUpload(this.ctx.scope, change(this.record), this.record._etag);
        return;
      } catch (error) {
        if (isNotFound(error)) throw new Stopped(true);
        if (!isStale(error) || attempt >= 4) throw error;
      }
      const fresh = await findUpload(this.ctx.scope, this.record.id);
      if (!fresh) throw new Stopped(true);
      if (
        fresh.status !== 'processing' ||
        JSON.stringify(fresh.checkpoint) !== JSON.stringify(this.record.checkpoint)
      ) {
        throw new Stopped(false);
      }
      this.record = fresh;
    }
  }
}
