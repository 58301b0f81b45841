import type { FunctionTable } from '../platform/functions.js';
import { accountFunctions } from './accounts.routes.js';
import { authFunctions } from './auth.routes.js';
import { devFunctions } from './dev.routes.js';
import { securityFunctions } from './security.routes.js';
import { teamFunctions } from './team.routes.js';

export function identityFunctions(): FunctionTable {
  return {
    app: 'auth',
    functions: [
      ...authFunctions,
      ...accountFunctions,
      ...teamFunctions,
      ...securityFunctions,
      ...devFunctions(),
    ],
  };
}
