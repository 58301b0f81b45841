import {
  accessTokenResponseSchema,
  type AccessTokenResponse,
} from '@contracts/identity/sessions/sessions.schema';
import { apiRequest, authApi } from './api-client';
import { getAuthState, setAuthState, signedInState, tokens } from './auth-store';

/** Uses a newly granted access token, and the account view that came with it. */
export function applyGrant(granted: AccessTokenResponse): void {
  tokens.setAccess(granted.accessToken);
  const current = getAuthState();
  if (current.status === 'signed-in')
    setAuthState(signedInState(current.user, current.accounts, granted));
}

/** A fresh access token and account view, e.g. after the person's role or MFA changed. */
export async function renewAccess(): Promise<void> {
  applyGrant(
    await apiRequest(authApi('/me/token'), { method: 'POST', schema: accessTokenResponseSchema }),
  );
}
