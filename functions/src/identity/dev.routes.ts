import type { HttpFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { readOutbox } from '../platform/mail.js';
import { settings } from '../platform/settings.js';
import { outboxQuerySchema, outboxResponseSchema } from './dev.schema.js';

/**
 * The local outbox, so a developer (and the tests) can read what Lotwise sent. It exists only
 * when mail is not really sent: with Azure Communication Services configured it is not registered.
 */
export function devFunctions(): HttpFunction[] {
  if (settings().MAIL_TRANSPORT !== 'outbox' || settings().ENVIRONMENT === 'production') return [];
  return [
    httpRoute({
      name: 'dev-outbox',
      route: 'dev/outbox',
      methods: ['GET'],
      permission: 'public',
      query: outboxQuerySchema,
      response: outboxResponseSchema,
      handler: async ({ query }) => ({
        json: { messages: await readOutbox(query.to, query.limit) },
      }),
    }),
  ];
}
