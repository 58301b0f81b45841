import { z } from 'zod';

/** Contracts of a legal case's documents (the Case Details dialog's Documents tab). */

/** Spec 9.3: the document types of the upload form. */
export const documentTypes = [
  'legal-filing',
  'evidence',
  'correspondence',
  'expert-opinion',
  'reference',
  'contract',
  'other',
] as const;
export type DocumentType = (typeof documentTypes)[number];
export const documentTypeLabels: Record<DocumentType, string> = {
  'legal-filing': 'Legal filing',
  evidence: 'Evidence',
  correspondence: 'Correspondence',
  'expert-opinion': 'Expert opinion',
  reference: 'Reference',
  contract: 'Contract',
  other: 'Other',
};

/** Spec 5: the extensions an upload accepts; each file's content must match its extension. */
export const documentExtensions = ['pdf', 'doc', 'docx', 'jpg', 'png'] as const;
export type DocumentExtension = (typeof documentExtensions)[number];
export const documentContentTypes: Record<DocumentExtension, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  jpg: 'image/jpeg',
  png: 'image/png',
};
/** For a file input's `accept`. */
export const DOCUMENT_ACCEPT = documentExtensions.map((extension) => `.${extension}`).join(',');

/** The most one file may hold. */
export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;
/** The most files one upload may carry. */
export const MAX_DOCUMENTS_PER_UPLOAD = 10;
/** How long a download link works. */
export const DOCUMENT_LINK_SECONDS = 5 * 60;
export const MAX_DOCUMENT_NAME = 200;

/** The multipart parts an upload sends its files in: `file`, or `file_0`, `file_1`, ... */
export const isDocumentFileField = (field: string) => /^file(_\d{1,3})?$/.test(field);

/** One file's name and type, as a form's `name` and `type` fields or a `metadata` JSON part. */
export const documentMetadataSchema = z.object({
  /** The file's own name when left out. */
  name: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(MAX_DOCUMENT_NAME, `is longer than ${MAX_DOCUMENT_NAME} characters`)
    .optional(),
  type: z.enum(documentTypes, {
    error: (issue) =>
      issue.input === undefined ? 'is required' : `must be one of: ${documentTypes.join(', ')}`,
  }),
});
export type DocumentMetadata = z.infer<typeof documentMetadataSchema>;

const metadataEntrySchema = z.object({
  name: z.string().optional(),
  type: z.string().optional(),
});
/** The `metadata` part: one entry for every file, or a list in the order the files are sent. */
export const uploadMetadataSchema = z.union([
  metadataEntrySchema,
  z.array(metadataEntrySchema).min(1).max(MAX_DOCUMENTS_PER_UPLOAD),
]);
export type UploadMetadata = z.infer<typeof uploadMetadataSchema>;

const personSchema = z.object({ id: z.string(), name: z.string() });

export const caseDocumentSchema = z.object({
  id: z.string(),
  caseId: z.string(),
  name: z.string(),
  type: z.enum(documentTypes),
  /** The name of the file as it was uploaded. */
  fileName: z.string(),
  /** Bytes. */
  size: z.number().int(),
  contentType: z.string(),
  uploadedBy: personSchema.nullable(),
  uploadedAt: z.string(),
  /** The file, on the domain API (with the bearer token). */
  downloadUrl: z.string(),
});
export type CaseDocument = z.infer<typeof caseDocumentSchema>;

/** Newest first. */
export const caseDocumentsSchema = z.object({ documents: z.array(caseDocumentSchema) });

export const documentLinkSchema = z.object({
  /** Downloads the file without a token until `expiresAt`. */
  url: z.string(),
  expiresAt: z.string(),
});
export type DocumentLink = z.infer<typeof documentLinkSchema>;

export const documentLinkQuerySchema = z.object({ token: z.string().min(1).max(2000) });

/** The API path of a document's file, relative to the domain API's base. */
export const documentContentPath = (caseId: string, documentId: string) =>
  `/cases/${encodeURIComponent(caseId)}/documents/${encodeURIComponent(documentId)}/content`;
