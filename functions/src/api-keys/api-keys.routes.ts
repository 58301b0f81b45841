import type { FunctionTable } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { pathIdSchema } from '../platform/validation.js';
import { z } from 'zod';
import {
  apiKeyCreateSchema,
  apiKeyCreatedSchema,
  apiKeyListSchema,
  apiKeySchema,
} from './api-keys.schema.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.service.js';

const idParams = z.object({ id: pathIdSchema });

/**
 * The house's API keys, in the domain app beside the routes they open (the auth app serves people
 * and their sessions, and never takes a key). Managed by people only: a key never manages keys.
 */
export const apiKeyFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'api-keys-list',
      route: 'api-keys',
      methods: ['GET'],
      permission: 'system:api_keys',
      callers: 'people',
      summary: "The account's API keys, revoked ones too (never the keys themselves)",
      response: apiKeyListSchema,
      handler: async ({ ctx }) => ({ json: { keys: await listApiKeys(ctx) } }),
    }),
    httpRoute({
      name: 'api-keys-create',
      route: 'api-keys',
      methods: ['POST'],
      permission: 'system:api_keys',
      callers: 'people',
      summary:
        'Creates an API key with some of your permissions; the reply is the only time it shows',
      body: apiKeyCreateSchema,
      response: apiKeyCreatedSchema,
      handler: async ({ ctx, body }) => ({ status: 201, json: await createApiKey(ctx, body) }),
    }),
    httpRoute({
      name: 'api-keys-revoke',
      route: 'api-keys/{id}',
      methods: ['DELETE'],
      permission: 'system:api_keys',
      callers: 'people',
      summary: 'Revokes an API key: its next request answers 401',
      params: idParams,
      response: apiKeySchema,
      handler: async ({ ctx, params }) => ({ json: await revokeApiKey(ctx, params.id) }),
    }),
  ],
};
