import { z } from 'zod';

/**
 * Contracts of Conflict Resolution (spec 2.7, 3.6, 4.3): a record an import or a sync could not
 * place on its own, kept until a person decides. Every import (the Data Processing Center's
 * uploads) and every platform sync records its conflicts here; resolving one applies the choice
 * to the real record, guarded by the ETag that record had when the conflict was shown.
 */

export const conflictTypes = ['bidder', 'auction', 'legal'] as const;
export type ConflictType = (typeof conflictTypes)[number];

/**
 * duplicate: the imported record looks like one already on file (a bidder below the auto-merge
 * threshold, an auction a sync found typed in by hand); mismatch: the same record changed on both
 * sides (a sync under manual review); related: an imported legal case matching an existing one.
 */
export const conflictKinds = ['duplicate', 'mismatch', 'related'] as const;
export type ConflictKind = (typeof conflictKinds)[number];

export const conflictStatuses = ['pending', 'resolved', 'skipped'] as const;
export type ConflictStatus = (typeof conflictStatuses)[number];

export const conflictResolutions = ['keep_existing', 'use_imported', 'merge'] as const;
export type ConflictResolution = (typeof conflictResolutions)[number];

/** A field that differs: its value on file and the imported one (display values, not money objects). */
export const conflictFieldSchema = z.object({
  field: z.string(),
  /** What the screen calls it ("Email", "Phone"). */
  label: z.string(),
  existing: z.unknown(),
  imported: z.unknown(),
});
export type ConflictField = z.infer<typeof conflictFieldSchema>;

/** Where the conflict came from: an upload of the Data Processing Center, or a platform sync. */
export const conflictSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('upload'), uploadId: z.string(), uploadName: z.string() }),
  /** POST /data-upload/bidders/import: files imported in the request, kept by no upload. */
  z.object({ kind: z.literal('import'), importId: z.string() }),
  z.object({
    kind: z.literal('sync'),
    platform: z.string(),
    runId: z.string(),
    externalId: z.string(),
  }),
]);
export type ConflictSource = z.infer<typeof conflictSourceSchema>;

export const conflictSchema = z.object({
  id: z.string(),
  type: z.enum(conflictTypes),
  /** The upload it came from; null for a sync (then `source` names the platform) or an import. */
  uploadId: z.string().nullable(),
  /** The upload's name, "<Platform> sync" for a sync, "Bidder import" for the import route. */
  uploadName: z.string(),
  source: conflictSourceSchema,
  conflictType: z.enum(conflictKinds),
  status: z.enum(conflictStatuses),
  /** 0-100: how alike the two records are; null when it is the same record (a mismatch). */
  matchScore: z.number().int().min(0).max(100).nullable(),
  /** The record on file (its id and a title to show), null when it is gone. */
  existingRecord: z.record(z.string(), z.unknown()).nullable(),
  importedRecord: z.record(z.string(), z.unknown()),
  /** The on-file record's id, for a link to it. */
  existingId: z.string().nullable(),
  fields: z.array(conflictFieldSchema),
  resolution: z.enum(conflictResolutions).nullable(),
  /** For a merge: the side chosen for each field. */
  choices: z.record(z.string(), z.enum(['existing', 'imported'])).nullable(),
  resolvedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  resolvedAt: z.string().nullable(),
  /**
   * What resolving it did, in a sentence ("Merged B-1042 into B-0007, keeping the values on
   * file"), or why it was settled elsewhere (a pair already reviewed in Bidders › Duplicates).
   */
  note: z.string().nullable().optional(),
  createdAt: z.string(),
  etag: z.string(),
});
export type Conflict = z.infer<typeof conflictSchema>;

/** The six counters of the tab (spec 2.7): of the account's conflicts whatever the filters. */
export const conflictCountsSchema = z.object({
  total: z.number().int(),
  pending: z.number().int(),
  resolved: z.number().int(),
  bidders: z.number().int(),
  auctions: z.number().int(),
  legal: z.number().int(),
});
export type ConflictCounts = z.infer<typeof conflictCountsSchema>;

export const conflictListQuerySchema = z.object({
  type: z.enum(conflictTypes).optional(),
  status: z.enum(conflictStatuses).optional(),
  uploadId: z.string().trim().min(1).max(100).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  continuationToken: z.string().max(4000).optional(),
});
export type ConflictListQuery = z.infer<typeof conflictListQuerySchema>;

/** GET /data-upload/conflicts */
export const conflictPageSchema = z.object({
  items: z.array(conflictSchema),
  counts: conflictCountsSchema,
  continuationToken: z.string().nullable(),
});

export const conflictIdParams = z.object({ conflictId: z.string().trim().min(1).max(200) });

/**
 * POST /data-upload/conflicts/{conflictId}/resolve (If-Match: the conflict's ETag). A merge names
 * the side of every field that differs; skip sets the conflict aside and changes no record.
 */
export const resolveConflictSchema = z.discriminatedUnion('resolution', [
  z.object({ resolution: z.literal('keep_existing') }),
  z.object({ resolution: z.literal('use_imported') }),
  z.object({
    resolution: z.literal('merge'),
    choices: z.record(z.string().max(100), z.enum(['existing', 'imported'])),
  }),
  z.object({ resolution: z.literal('skip') }),
]);
export type ResolveConflict = z.infer<typeof resolveConflictSchema>;

/** POST /data-upload/conflicts/bulk-resolve: every pending conflict the filter matches. */
export const bulkResolveSchema = z.object({
  filter: z.object({
    type: z.enum(conflictTypes).optional(),
    uploadId: z.string().trim().min(1).max(100).optional(),
  }),
  resolution: z.enum(['keep_existing', 'use_imported', 'skip']),
  /** At most this many in one request; the answer says how many remain. */
  limit: z.number().int().min(1).max(1000).default(1000),
});
export type BulkResolve = z.infer<typeof bulkResolveSchema>;

export const bulkResolvedSchema = z.object({
  resolved: z.number().int(),
  skipped: z.number().int(),
  /** Conflicts whose record changed since (or is gone): left pending, to review one by one. */
  failed: z.array(z.object({ id: z.string(), message: z.string() })),
  remaining: z.number().int(),
});
export type BulkResolved = z.infer<typeof bulkResolvedSchema>;
