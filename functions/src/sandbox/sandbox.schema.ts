import { sessionResponseSchema } from '../identity/sessions/sessions.schema.js';

/**
 * POST /login/demo takes nothing and answers a session like any sign-in, in the visitor's own
 * sandbox; its account view carries `demoExpiresAt`, when the sandbox will be removed.
 */
export const sandboxSessionSchema = sessionResponseSchema;
