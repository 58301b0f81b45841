import { z } from 'zod';

/**
 * Contracts of the Data Processing Center's uploads (spec 2.7, 3.6, 4.3, 5, 7.5, 9.4): an upload
 * is one or more files of one category, stored in Blob Storage under the account, then processed
 * by a queue-triggered worker. Files reach Blob Storage either through the API (a multipart form,
 * streamed, for small uploads) or straight from the browser with short-lived write-only SAS URLs
 * (large ones; Azure caps a Functions request at 100 MB), after which the API checks what arrived.
 */

const text = (max: number) => z.string().trim().max(max);

/** The spec's nine categories, in its order. */
export const uploadCategories = [
  'bidders',
  'inventory',
  'auctions',
  'financial',
  'legal',
  'marketing',
  'operations',
  'historical',
  'other',
] as const;
export type UploadCategory = (typeof uploadCategories)[number];

/** Categories whose rows become records (the others are stored, counted and searchable). */
export const importingCategories = ['bidders', 'inventory', 'auctions', 'legal'] as const;

export const uploadStatuses = ['pending', 'uploading', 'processing', 'completed', 'error'] as const;
export type UploadStatus = (typeof uploadStatuses)[number];

/** Max total upload size: 100 MB (spec 9.4), enforced on the server while the bytes arrive. */
export const MAX_UPLOAD_TOTAL_BYTES = 100 * 1024 * 1024;
export const MAX_UPLOAD_FILES = 50;
/** How long a browser's write-only SAS URL lasts. */
export const UPLOAD_SAS_MINUTES = 30;
/** Errors kept on an upload's record; the full list is in its error report. */
export const MAX_LISTED_ERRORS = 100;

/** What a file is, recognised from its bytes (its name alone decides nothing). */
export const fileFormats = [
  'csv',
  'xlsx',
  'xls',
  'pdf',
  'json',
  'xml',
  'text',
  'jpeg',
  'png',
  'docx',
  'doc',
  'zip',
  'sql',
  'sqlite',
] as const;
export type FileFormat = (typeof fileFormats)[number];

/** The spec's messages for the upload form (spec 5, 8). */
export const UPLOAD_MESSAGES = {
  missingFields: 'Please fill in all fields and select files',
  tooLarge: 'Total file size cannot exceed 100MB',
  failed: 'Failed to upload data. Please try again.',
} as const;

/**
 * A file written again through the upload's write link (which stays valid for a while) after
 * `complete` checked it: while it is checked, and afterwards, where its error names the file.
 */
export const UPLOAD_FILE_CHANGING =
  'A file of this upload was written to while it was checked; complete it once every file is in';
export const UPLOAD_FILE_CHANGED = 'was written again after it was checked; upload it anew';

export const uploadFileSchema = z.object({
  /** file_0, file_1, ... in the form's order. */
  index: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  /** Null until the bytes arrived and were recognised. */
  format: z.enum(fileFormats).nullable(),
  received: z.boolean(),
});
export type UploadFile = z.infer<typeof uploadFileSchema>;

export const uploadErrorSchema = z.object({
  file: z.string().nullable(),
  /** 1-based data row (the header is row 0), null for a file-level error. */
  row: z.number().int().nullable(),
  field: z.string().nullable(),
  message: z.string(),
});
export type UploadError = z.infer<typeof uploadErrorSchema>;

export const uploadResultsSchema = z.object({
  recordsProcessed: z.number().int(),
  recordsImported: z.number().int(),
  /** The first MAX_LISTED_ERRORS errors; `errorCount` counts them all. */
  errors: z.array(uploadErrorSchema),
  errorCount: z.number().int(),
  /** Where the original file (the first, or the only one) downloads from. */
  downloadUrl: z.string().nullable(),
  /** Where the full error report (CSV) downloads from, when there were errors. */
  errorReportUrl: z.string().nullable(),
  /** Rows skipped as already on file (a bidder with the same bidder ID or email). */
  duplicates: z.number().int().optional(),
  /** What the worker tells about a file that is not an error (its importer comes later, say). */
  notes: z
    .array(
      z.object({
        file: z.string().nullable(),
        message: z.string(),
        /** 'undo': the last undo's own account of what it took back (one at most). */
        kind: z.enum(['undo']).optional(),
      }),
    )
    .optional(),
});
export type UploadResults = z.infer<typeof uploadResultsSchema>;

export const personSchema = z.object({ id: z.string(), name: z.string() });

/**
 * How a run treats rows: `new` imports rows whose key is not on file (what a first run does);
 * `failed` runs again only the rows that failed last time; `update` also overwrites the records
 * on file that share a row's key (see the overwrite preview first).
 */
export const importModes = ['new', 'failed', 'update'] as const;
export type ImportMode = (typeof importModes)[number];

/** A run of an upload: the first, then every re-run and an undo. */
export const uploadRunSchema = z.object({
  number: z.number().int(),
  kind: z.enum(['import', 'undo']),
  mode: z.enum(importModes).nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  by: personSchema.nullable(),
  created: z.number().int(),
  updated: z.number().int(),
  /** For an undo: records removed and put back, and those left because they changed since. */
  removed: z.number().int(),
  restored: z.number().int(),
  kept: z.number().int(),
  cancelled: z.boolean(),
  /**
   * Ended by the platform: every try of the run failed, so it stopped at its last checkpoint
   * (what it did by then stays, and an import's can be undone).
   */
  stopped: z.boolean().optional(),
});
export type UploadRun = z.infer<typeof uploadRunSchema>;

/** An undo that took back all it set out to (one cancelled or stopped part way did not). */
export const undoRanToItsEnd = (run: UploadRun) =>
  run.kind === 'undo' && run.finishedAt !== null && !run.cancelled && !run.stopped;

export const uploadSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  category: z.enum(uploadCategories),
  files: z.array(uploadFileSchema),
  totalBytes: z.number().int(),
  status: z.enum(uploadStatuses),
  /** 0-100: bytes received while uploading, rows processed while processing. */
  progress: z.number().int().min(0).max(100),
  uploadDate: z.string(),
  completedDate: z.string().nullable(),
  results: uploadResultsSchema,
  uploadedBy: personSchema.nullable(),
  /** Every run so far, oldest first (empty until processing starts). */
  runs: z.array(uploadRunSchema),
  /** Whether an undo has removed what the upload's runs wrote. */
  undone: z.boolean(),
  /** A cancel was asked for; the run stops at its next checkpoint. */
  cancelRequested: z.boolean(),
  /** For an auctions upload from an auction's Import dialog: the auction its lots go into. */
  auctionId: z.string().nullable(),
  etag: z.string(),
});
export type Upload = z.infer<typeof uploadSchema>;

/** GET /data-upload/status/{uploadId} (spec 3.6). */
export const uploadStatusSchema = z.object({
  uploadId: z.string(),
  status: z.enum(uploadStatuses),
  progress: z.number().int(),
  results: uploadResultsSchema,
});
export type UploadStatusView = z.infer<typeof uploadStatusSchema>;

/** The form's fields beside its files (spec 5: name, category and description are required). */
export const uploadFieldsSchema = z.object({
  name: text(200).min(1, 'is required'),
  description: text(2000).min(1, 'is required'),
  category: z.enum(uploadCategories, {
    error: (issue) =>
      issue.input === undefined || issue.input === ''
        ? 'is required'
        : `must be one of: ${uploadCategories.join(', ')}`,
  }),
});
export type UploadFields = z.infer<typeof uploadFieldsSchema>;

/** POST /data-upload/sessions: the browser says what it will send, straight to Blob Storage. */
export const uploadSessionInputSchema = uploadFieldsSchema.extend({
  files: z
    .array(
      z.object({
        name: text(255).min(1, 'is required'),
        size: z
          .number()
          .int()
          .min(1, 'is empty')
          .max(MAX_UPLOAD_TOTAL_BYTES, UPLOAD_MESSAGES.tooLarge),
      }),
    )
    .min(1, 'select at least one file')
    .max(MAX_UPLOAD_FILES),
});
export type UploadSessionInput = z.infer<typeof uploadSessionInputSchema>;

export const uploadSessionSchema = z.object({
  upload: uploadSchema,
  /** One write-only SAS URL per file, in the order given; put the blocks, then complete. */
  targets: z.array(z.object({ index: z.number().int(), url: z.string(), expiresAt: z.string() })),
});
export type UploadSession = z.infer<typeof uploadSessionSchema>;

/** POST /data-upload/general's answer (spec 7.5). */
export const uploadAcceptedSchema = z.object({
  uploadId: z.string(),
  status: z.enum(uploadStatuses),
  progress: z.number().int(),
});

export const historyQuerySchema = z.object({
  category: z.enum(uploadCategories).optional(),
  status: z.enum(uploadStatuses).optional(),
  /** Matches the upload's name, description or a file's name. */
  search: text(200).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  continuationToken: z.string().max(4000).optional(),
});
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

export const historyPageSchema = z.object({
  items: z.array(uploadSchema),
  continuationToken: z.string().nullable(),
});

export const uploadIdParams = z.object({ uploadId: z.string().trim().min(1).max(100) });

/** GET /data-upload/download/{id}: a file of the upload (file_0 by default) or its error report. */
export const downloadQuerySchema = z.object({
  file: z.coerce.number().int().min(0).max(MAX_UPLOAD_FILES).default(0),
  report: z.enum(['errors']).optional(),
});

/** DELETE /data-upload/{id}: the upload and its files are gone; what it imported stays. */
export const uploadDeletedSchema = z.object({
  deleted: z.literal(true),
  recordsKept: z.number().int(),
});

/** Where an upload's first file, and its error report, download from (`results` links). */
export const downloadPath = (uploadId: string) =>
  `/data-upload/download/${encodeURIComponent(uploadId)}`;
export const errorReportPath = (uploadId: string) => `${downloadPath(uploadId)}?report=errors`;

/** The queue message that sets the worker on an upload. */
export const processMessageSchema = z.object({
  accountId: z.string(),
  uploadId: z.string(),
  /** `undo`: take back what the upload's runs wrote (the record's last run says the same). */
  action: z.enum(['process', 'undo']).default('process'),
});
export type ProcessMessage = z.infer<typeof processMessageSchema>;
export const PROCESS_QUEUE = 'data-uploads';

/* ---- Column mapping, re-runs, undo and cancel (issue 15, second part) ---- */

/** A field an importer fills: the mapping's targets, in the order the screen lists them. */
export const importFieldSchema = z.object({
  key: z.string(),
  label: z.string(),
  required: z.boolean(),
});
export type ImportField = z.infer<typeof importFieldSchema>;

/** Source column (a CSV/XLSX header or a JSON item's key) to the field it fills; null ignores it. */
export const columnMappingSchema = z.record(z.string().max(200), z.string().max(100).nullable());
export type ColumnMapping = z.infer<typeof columnMappingSchema>;

/** GET /data-upload/{id}/preview: each tabular file's first rows and the detected mapping. */
export const PREVIEW_ROWS = 10;
export const filePreviewSchema = z.object({
  index: z.number().int(),
  name: z.string(),
  format: z.enum(fileFormats).nullable(),
  /** The source columns in the file's order (empty for a file that holds no rows). */
  columns: z.array(z.string()),
  /** The first PREVIEW_ROWS rows, raw, by source column. */
  rows: z.array(z.record(z.string(), z.string())),
  /** The mapping that will be used: the saved one, else the detected one. */
  mapping: columnMappingSchema,
  /** Required fields no column maps to: processing would fail every row. */
  missingRequired: z.array(z.string()),
  /** Why this file has no preview (not tabular, unreadable), or null. */
  problem: z.string().nullable(),
});
export const uploadPreviewSchema = z.object({
  uploadId: z.string(),
  category: z.enum(uploadCategories),
  /** The fields of the category's importer; empty for categories that are only stored. */
  fields: z.array(importFieldSchema),
  files: z.array(filePreviewSchema),
});
export type UploadPreview = z.infer<typeof uploadPreviewSchema>;

/** The mapping chosen for each file, by its index (files left out use the detected mapping). */
export const fileMappingsSchema = z.array(
  z.object({ file: z.number().int().min(0).max(MAX_UPLOAD_FILES), mapping: columnMappingSchema }),
);
export type FileMappings = z.infer<typeof fileMappingsSchema>;

/** POST /data-upload/{id}/complete (browser sessions): the files are in; optional mapping. */
export const completeUploadSchema = z.object({
  mappings: fileMappingsSchema.optional(),
  /** For an auctions upload made from an auction's Import dialog: its lots go into this auction. */
  auctionId: z.string().trim().min(1).max(100).optional(),
});
export type CompleteUpload = z.infer<typeof completeUploadSchema>;

/** POST /data-upload/{id}/rerun (If-Match): a finished upload processed again. */
export const rerunSchema = z.object({
  mode: z.enum(importModes),
  mappings: fileMappingsSchema.optional(),
});
export type Rerun = z.infer<typeof rerunSchema>;

/** GET /data-upload/{id}/overwrites: what `update` would change, from the first rows read. */
export const OVERWRITE_PREVIEW_ROWS = 2000;
export const overwritePreviewSchema = z.object({
  /** Rows read to build this preview (at most OVERWRITE_PREVIEW_ROWS). */
  rowsRead: z.number().int(),
  /** Whether every row of the upload was read. */
  complete: z.boolean(),
  /** Of the rows read: records on file that would change, and rows that would be new. */
  wouldUpdate: z.number().int(),
  wouldCreate: z.number().int(),
  /** The first 50 records that would change, each with the fields that differ. */
  changes: z.array(
    z.object({
      file: z.string(),
      row: z.number().int(),
      entity: z.string(),
      recordId: z.string(),
      title: z.string(),
      fields: z.array(
        z.object({ field: z.string(), existing: z.unknown(), imported: z.unknown() }),
      ),
    }),
  ),
});
export type OverwritePreview = z.infer<typeof overwritePreviewSchema>;

/** POST /data-upload/{id}/undo (If-Match): every record its runs created removed, changed put back. */
export const undoResultSchema = z.object({ uploadId: z.string(), status: z.enum(uploadStatuses) });

/** POST /data-upload/{id}/cancel (If-Match): a run under way stops at its next checkpoint. */
export const cancelResultSchema = z.object({
  uploadId: z.string(),
  status: z.enum(uploadStatuses),
});
