import type { FunctionTable, TimerFunction } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { contextLogger } from '../platform/invocation-log.js';
import { clientInfo } from '../identity/sessions/sessions.service.js';
import { sandboxSessionSchema } from './sandbox.schema.js';
import { removeExpiredSandboxes, startSandbox } from './sandbox.service.js';

/**
 * "Try the demo" and the hourly removal of expired sandboxes. `accountContainers` are the
 * containers partitioned by account (the registry knows them): a sandbox leaves nothing in any.
 */
export function sandboxFunctions(accountContainers: string[]): FunctionTable {
  const expiry: TimerFunction = {
    kind: 'timer',
    name: 'sandbox-expiry',
    schedule: '0 17 * * * *',
    handler: async (_timer, context) => {
      await removeExpiredSandboxes(
        accountContainers,
        contextLogger(context, { function: 'sandbox-expiry', invocationId: context.invocationId }),
      );
    },
  };
  return {
    app: 'auth',
    functions: [
      httpRoute({
        name: 'login-demo',
        route: 'login/demo',
        methods: ['POST'],
        permission: 'public',
        summary: 'Opens a demo sandbox of its own for the caller and signs them in to it.',
        response: sandboxSessionSchema,
        handler: async ({ request, log }) => ({
          json: await startSandbox(clientInfo(request), accountContainers, log),
        }),
      }),
      expiry,
    ],
  };
}
