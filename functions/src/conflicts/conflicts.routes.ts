import type { FunctionTable } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import {
  bulkResolveSchema,
  bulkResolvedSchema,
  conflictIdParams,
  conflictListQuerySchema,
  conflictPageSchema,
  conflictSchema,
  resolveConflictSchema,
} from './conflicts.schema.js';
import { bulkResolve, getConflict, listConflicts, resolveConflict } from './conflicts.service.js';

/**
 * Conflict Resolution of the Data Processing Center. The routes start with the literal
 * `data-upload/conflicts`, which wins over the uploads' `data-upload/{uploadId}` patterns.
 */
export const conflictFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'data-upload-conflicts-list',
      route: 'data-upload/conflicts',
      methods: ['GET'],
      permission: 'data:import',
      summary:
        "Conflicts newest first (type, status and upload filters; continuation paging) with the account's six counters",
      query: conflictListQuerySchema,
      response: conflictPageSchema,
      handler: async ({ ctx, query }) => ({ json: await listConflicts(ctx, query) }),
    }),
    httpRoute({
      name: 'data-upload-conflicts-bulk-resolve',
      route: 'data-upload/conflicts/bulk-resolve',
      methods: ['POST'],
      permission: 'data:import',
      summary:
        'Resolves the pending conflicts a filter matches, each as one resolve; those that cannot be applied stay pending and are listed',
      body: bulkResolveSchema,
      response: bulkResolvedSchema,
      handler: async ({ ctx, body }) => ({ json: await bulkResolve(ctx, body) }),
    }),
    httpRoute({
      name: 'data-upload-conflicts-get',
      route: 'data-upload/conflicts/{conflictId}',
      methods: ['GET'],
      permission: 'data:import',
      params: conflictIdParams,
      response: conflictSchema,
      handler: async ({ ctx, params }) => {
        const found = await getConflict(ctx, params.conflictId);
        return { json: found, etag: found.etag };
      },
    }),
    httpRoute({
      name: 'data-upload-conflicts-resolve',
      route: 'data-upload/conflicts/{conflictId}/resolve',
      methods: ['POST'],
      permission: 'data:import',
      summary:
        'Keep existing, use imported, merge (a side per field) or skip, applied to the real record over the version the conflict shows (412 when it changed since, with the conflict refreshed)',
      params: conflictIdParams,
      body: resolveConflictSchema,
      response: conflictSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, params, body, ifMatch }) => {
        const resolved = await resolveConflict(ctx, params.conflictId, ifMatch, body);
        return { json: resolved, etag: resolved.etag };
      },
    }),
  ],
};
