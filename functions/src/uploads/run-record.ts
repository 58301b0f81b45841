import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../platform/context.js';
import { isNotFound, isStale } from '../platform/cosmos-errors.js';
import type { Stored } from '../platform/repo.js';
import {
  findUpload,
  replaceUploadWith,
  type UploadErrorsRecord,
  type UploadRecord,
} from './uploads.repo.js';
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
  /** Stamped on every checkpoint this run writes: whose the upload is now. */
  private readonly worker = randomUUID();
  private saved = false;

  constructor(
    readonly ctx: RequestContext,
    public record: Stored<UploadRecord>,
  ) {}

  /**
   * Whether another worker has moved the upload on since this run read it. Two workers at the
   * same place write the same counts, so once this run has written, the stamp decides; before,
   * any change of the checkpoint does.
   */
  private takenOver(fresh: UploadRecord) {
    if (this.saved) return fresh.checkpoint?.worker !== this.worker;
    return JSON.stringify(fresh.checkpoint) !== JSON.stringify(this.record.checkpoint);
  }

  /**
   * Replaces the record over its ETag. When it changed meanwhile, it is read again: gone, no
   * longer processing, or moved on by another worker, and this run stops; otherwise (a cancel
   * asked for, say) the write is made again over the new ETag. `errorBatches` are written with
   * the record, all or none.
   */
  async save(
    change: (record: UploadRecord) => UploadRecord,
    errorBatches: readonly Omit<UploadErrorsRecord, 'accountId'>[] = [],
  ) {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const next = change(this.record);
        this.record = await replaceUploadWith(
          this.ctx.scope,
          next.checkpoint
            ? { ...next, checkpoint: { ...next.checkpoint, worker: this.worker } }
            : next,
          this.record._etag,
          errorBatches,
        );
        this.saved = true;
        return;
      } catch (error) {
        if (isNotFound(error)) throw new Stopped(true);
        if (!isStale(error) || attempt >= 4) throw error;
      }
      const fresh = await findUpload(this.ctx.scope, this.record.id);
      if (!fresh) throw new Stopped(true);
      if (fresh.status !== 'processing' || this.takenOver(fresh)) throw new Stopped(false);
      this.record = fresh;
    }
  }
}
