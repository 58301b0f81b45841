import type { FunctionTable } from '../platform/functions.js';
import { accountFunctions } from './accounts/accounts.routes.js';
import { authFunctions } from './auth/auth.routes.js';
import { devFunctions } from './dev.routes.js';
import { mfaFunctions } from './mfa/mfa.routes.js';
import { sessionFunctions } from './sessions/sessions.routes.js';
import { teamFunctions } from './team/team.routes.js';

/** Identity's one table, served by the auth app: its five parts and the local outbox. */
export function identityFunctions(): FunctionTable {
  return {
    app: 'auth',
    functions: [
      ...authFunctions,
      ...sessionFunctions,
      ...accountFunctions,
      ...teamFunctions,
      ...mfaFunctions,
      ...devFunctions(),
    ],
  };
}
