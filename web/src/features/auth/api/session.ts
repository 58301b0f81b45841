import {
  accountAccessSchema,
  accountViewSchema,
} from '@contracts/identity/accounts/accounts.schema';
import {
  loginResponseSchema,
  type LoginRequest,
  type LoginResponse,
  type SignupRequest,
} from '@contracts/identity/auth/auth.schema';
import {
  accessTokenResponseSchema,
  sessionResponseSchema,
  type SessionResponse,
} from '@contracts/identity/sessions/sessions.schema';
import { userViewSchema } from '@contracts/identity/shared/users.schema';
import { z } from 'zod';
import { applyGrant } from '../../../lib/access';
import {
  ApiError,
  apiRequest,
  authApi,
  endSession,
  messageOf,
  refreshAccessToken,
} from '../../../lib/api-client';
import {
  clearSupportFlag,
  deviceTokens,
  flagSupport,
  forgetEverything,
  getAuthState,
  rememberAccounts,
  rememberSession,
  rememberUser,
  setAuthState,
  signedInState,
  stored,
  tokens,
} from '../../../lib/auth-store';

/** Turns a signed-in answer (login, sign-up, Microsoft) into the state the root gate shows. */
export function applySession(response: SessionResponse): void {
  clearSupportFlag();
  rememberSession(response);
  if (response.accountSelection === 'selected' && response.account) {
    setAuthState(
      signedInState(response.user, response.accounts, {
        account: response.account,
        mfaSetupDueBy: response.mfaSetupDueBy ?? null,
        mfaSetupRequired: response.mfaSetupRequired ?? false,
      }),
    );
  } else if (response.accountSelection === 'pending') {
    setAuthState({ status: 'select-account', user: response.user, accounts: response.accounts });
  } else {
    flagSupport({
      errorType: 'no-account-access',
      userId: response.user.id,
      userEmail: response.user.email,
    });
  }
}

const requestMeta = () => ({
  source: 'web',
  timestamp: new Date().toISOString(),
  requestId: crypto.randomUUID(),
});

export async function login(input: Omit<LoginRequest, 'metadata'>): Promise<LoginResponse> {
  try {
    const response = await apiRequest(authApi('/login'), {
      method: 'POST',
      auth: false,
      body: {
        ...input,
        deviceToken: deviceTokens.of(input.email),
        demoMode: false,
        metadata: requestMeta(),
      },
      schema: loginResponseSchema,
    });
    if (response.status === 'signed-in') {
      deviceTokens.remember(input.email, response.deviceToken);
      applySession(response);
    }
    return response;
  } catch (error) {
    // Failed sign-ins leave nothing behind.
    forgetEverything();
    throw error;
  }
}

export async function signup(input: Omit<SignupRequest, 'metadata'>): Promise<void> {
  const response = await apiRequest(authApi('/signup'), {
    method: 'POST',
    auth: false,
    body: { ...input, metadata: requestMeta() },
    schema: sessionResponseSchema,
  });
  applySession(response);
}

/** "Try the demo": a demo sandbox of the visitor's own, on the real backend. */
export async function signInToDemo(): Promise<void> {
  const response = await apiRequest(authApi('/login/demo'), {
    method: 'POST',
    auth: false,
    schema: sessionResponseSchema,
  });
  applySession(response);
}

/** Microsoft sign-in: an ID token from MSAL, or the code of the redirect flow. */
export async function signInWithMicrosoft(body: {
  idToken: string;
  invitationCode?: string | undefined;
}) {
  applySession(
    await apiRequest(authApi('/login/microsoft'), {
      method: 'POST',
      auth: false,
      body,
      schema: sessionResponseSchema,
    }),
  );
}

/** The account picker's choice: an access token for it, then the shell. */
export async function chooseAccount(accountId: string): Promise<void> {
  const sessionToken = tokens.session();
  const user = stored.user();
  if (!sessionToken || !user) {
    endSession('No session token found. Please login first.');
    return;
  }
  try {
    const granted = await apiRequest(authApi('/tokens/access'), {
      method: 'POST',
      auth: false,
      headers: { authorization: `Bearer ${sessionToken}` },
      body: { userId: user.id, accountId },
      schema: accessTokenResponseSchema,
    });
    tokens.setAccess(granted.accessToken);
    setAuthState(signedInState(user, stored.accounts(), granted));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      endSession('Your session has ended. Sign in again.');
      return;
    }
    flagSupport({
      errorType: 'account-access',
      errorDetails: error instanceof Error ? error.message : String(error),
      userId: user.id,
      userEmail: user.email,
      accountId,
    });
  }
}

export async function switchAccount(accountId: string): Promise<void> {
  applyGrant(
    await apiRequest(authApi('/me/switch-account'), {
      method: 'POST',
      body: { accountId },
      schema: accessTokenResponseSchema,
    }),
  );
}

export async function reloadUser(): Promise<void> {
  const me = await apiRequest(authApi('/users/me'), {
    schema: z.object({
      user: userViewSchema,
      account: accountViewSchema,
      accounts: z.array(accountAccessSchema),
    }),
  });
  rememberUser(me.user);
  rememberAccounts(me.accounts);
  const current = getAuthState();
  if (current.status === 'signed-in') {
    setAuthState({ ...current, user: me.user, account: me.account, accounts: me.accounts });
  }
}

export async function logout(): Promise<void> {
  const refreshToken = tokens.refresh();
  await apiRequest(authApi('/logout'), {
    method: 'POST',
    body: refreshToken ? { refreshToken } : {},
    auth: Boolean(tokens.access()),
  }).catch(() => undefined);
  forgetEverything();
  setAuthState({ status: 'signed-out' });
}

let restoring: Promise<void> | undefined;

/** On page load: the support flag, else the stored session (refreshed), else signed out. */
export function restoreSession(): Promise<void> {
  restoring ??= restore();
  return restoring;
}

async function restore(): Promise<void> {
  const support = stored.support();
  if (support) {
    setAuthState({ status: 'support', support });
    return;
  }
  const user = stored.user();
  if (!tokens.refresh() || !user) {
    setAuthState({ status: 'signed-out' });
    return;
  }
  try {
    await refreshAccessToken();
  } catch (error) {
    if (error instanceof ApiError && error.message === 'Choose an account to continue') {
      setAuthState({ status: 'select-account', user, accounts: stored.accounts() });
      return;
    }
    // Only the server's refusal ends the session. A refresh that got no answer (the page was
    // left while it was on the way, the service is down) keeps the stored tokens, which the
    // page loaded next, or a retry, still needs.
    if (error instanceof ApiError && error.status === 401) {
      forgetEverything();
      setAuthState({ status: 'signed-out', notice: 'Your session has ended. Sign in again.' });
      return;
    }
    setAuthState({ status: 'signed-out', notice: messageOf(error) });
    return;
  }
  try {
    const granted = await apiRequest(authApi('/me/token'), {
      method: 'POST',
      schema: accessTokenResponseSchema,
    });
    tokens.setAccess(granted.accessToken);
    setAuthState(signedInState(user, stored.accounts(), granted));
    await reloadUser();
  } catch {
    forgetEverything();
    setAuthState({ status: 'signed-out' });
  }
}
