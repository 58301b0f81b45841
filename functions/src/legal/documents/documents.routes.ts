import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { z } from 'zod';
import { payloadTooLarge } from '../../platform/errors.js';
import type { HttpFunction } from '../../platform/functions.js';
import { httpRoute } from '../../platform/http.js';
import { pathIdSchema } from '../../platform/validation.js';
import { readForm } from '../../uploads/files.js';
import { attachmentDisposition } from './document-content.js';
import {
  MAX_DOCUMENTS_PER_UPLOAD,
  caseDocumentsSchema,
  documentLinkQuerySchema,
  documentLinkSchema,
} from './documents.schema.js';
import {
  deleteDocument,
  documentFile,
  exportDocuments,
  documentLinkToken,
  linkedDocumentFile,
  listDocuments,
  uploadDocuments,
  type DocumentFile,
} from './documents.service.js';

const caseParams = z.object({ id: pathIdSchema });
const documentParams = caseParams.extend({ documentId: pathIdSchema });

/**
 * The most one upload request may carry: the Functions host refuses larger bodies before any
 * function sees them. Each file is held to MAX_DOCUMENT_BYTES on its own as it arrives.
 */
const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

const DOWNLOAD_ROUTE = 'legal/documents/download';

/** A document's bytes as a download, never rendered in place (nor sniffed into something else). */
const fileReply = (file: DocumentFile) => ({
  body: file.data,
  headers: {
    'content-type': file.contentType,
    'content-disposition': attachmentDisposition(file.fileName),
    'x-content-type-options': 'nosniff',
  },
});

/** A case's documents (spec 2.2 Documents tab): upload, list, download, share for minutes, delete. */
export const documentFunctions: HttpFunction[] = [
  httpRoute({
    name: 'legal-documents-list',
    route: 'cases/{id}/documents',
    methods: ['GET'],
    permission: 'legal:documents',
    params: caseParams,
    response: caseDocumentsSchema,
    handler: async ({ ctx, params }) => ({
      json: { documents: await listDocuments(ctx, params.id) },
    }),
  }),
  httpRoute({
    name: 'legal-documents-upload',
    route: 'cases/{id}/documents',
    methods: ['POST'],
    permission: 'legal:documents_upload',
    summary:
      'Uploads documents (multipart: files in "file" or "file_0", "file_1", ...; "name" and "type", or a "metadata" JSON part of {name, type} or a list of them in file order)',
    params: caseParams,
    response: caseDocumentsSchema,
    maxBodyBytes: MAX_UPLOAD_BYTES,
    handler: async ({ ctx, params, request }) => {
      const declared = Number(request.headers.get('content-length') ?? 0);
      if (declared > MAX_UPLOAD_BYTES) {
        throw payloadTooLarge(
          `An upload must be ${MAX_UPLOAD_BYTES / (1024 * 1024)} MB or smaller`,
        );
      }
      // Read as it arrives: no file is held before its size and content are checked.
      const body = request.body
        ? Readable.fromWeb(request.body as ReadableStream<Uint8Array>)
        : Readable.from([]);
      const form = readForm(body, request.headers.get('content-type') ?? '', {
        maxBytes: MAX_UPLOAD_BYTES,
        // Room for a metadata part, and one more so that a file too many is seen and refused.
        files: MAX_DOCUMENTS_PER_UPLOAD + 2,
        fields: 20,
        field: 'file',
      });
      return { status: 201, json: { documents: await uploadDocuments(ctx, params.id, form) } };
    },
  }),
  httpRoute({
    name: 'legal-documents-export',
    route: 'cases/{id}/documents/export',
    methods: ['GET'],
    permission: 'legal:documents',
    summary:
      "All the case's documents in one zip (application/zip), saved as {case number}-documents.zip; 409 when the case has none",
    params: caseParams,
    handler: async ({ ctx, params, log }) => {
      const archive = await exportDocuments(ctx, params.id);
      // The reply has started by then: all that is left to do with a failure is to say so.
      archive.data.once('error', (error) =>
        log.error('document export failed part way', { caseId: params.id, error }),
      );
      return {
        body: archive.data,
        headers: {
          'content-type': 'application/zip',
          'content-disposition': attachmentDisposition(archive.fileName),
          'x-content-type-options': 'nosniff',
        },
      };
    },
  }),
  httpRoute({
    name: 'legal-documents-content',
    route: 'cases/{id}/documents/{documentId}/content',
    methods: ['GET'],
    permission: 'legal:documents',
    summary: "The document's file, as a download",
    params: documentParams,
    handler: async ({ ctx, params }) =>
      fileReply(await documentFile(ctx, params.id, params.documentId)),
  }),
  httpRoute({
    name: 'legal-documents-link',
    route: 'cases/{id}/documents/{documentId}/link',
    methods: ['GET'],
    permission: 'legal:documents',
    summary: 'A link that downloads the document without signing in, for five minutes',
    params: documentParams,
    response: documentLinkSchema,
    handler: async ({ ctx, params, request }) => {
      const { token, expiresAt } = await documentLinkToken(ctx, params.id, params.documentId);
      const url = new URL(`/${DOWNLOAD_ROUTE}`, new URL(request.url).origin);
      url.searchParams.set('token', token);
      return { json: { url: url.toString(), expiresAt } };
    },
  }),
  httpRoute({
    name: 'legal-documents-download',
    route: DOWNLOAD_ROUTE,
    methods: ['GET'],
    // The signed token is the permission: whoever was given the link, until it expires.
    permission: 'public',
    summary: 'Downloads a document with the token of its link (403 when tampered with or expired)',
    query: documentLinkQuerySchema,
    handler: async ({ query }) => fileReply(await linkedDocumentFile(query.token)),
  }),
  httpRoute({
    name: 'legal-documents-delete',
    route: 'cases/{id}/documents/{documentId}',
    methods: ['DELETE'],
    permission: 'legal:documents_upload',
    params: documentParams,
    handler: async ({ ctx, params }) => {
      await deleteDocument(ctx, params.id, params.documentId);
      return { status: 204 };
    },
  }),
];
