import type { FunctionTable } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { clientErrorReceiptSchema, clientErrorSchema } from './telemetry.schema.js';

export const telemetryFunctions: FunctionTable = {
  app: 'auth',
  functions: [
    httpRoute({
      name: 'client-errors-report',
      route: 'client-errors',
      methods: ['POST'],
      // Errors can happen before sign-in; the body is bounded and only ever logged.
      permission: 'public',
      maxBodyBytes: 16 * 1024,
      body: clientErrorSchema,
      response: clientErrorReceiptSchema,
      handler: async ({ body, log, ctx }) => {
        log.warn('client error', {
          client: body,
          userId: ctx.caller?.actor.userId,
          accountId: ctx.caller?.scope.accountId,
        });
        return { status: 202, json: { received: true } as const };
      },
    }),
  ],
};
