import type { AccountAccess, AccountView } from '@contracts/identity/accounts/accounts.schema';
import type {
  AccessTokenResponse,
  SessionResponse,
} from '@contracts/identity/sessions/sessions.schema';
import type { UserView } from '@contracts/identity/shared/users.schema';
import { useSyncExternalStore } from 'react';

/**
 * Who is signed in, as the root gate needs it. Tokens: the access token lives in memory only;
 * the session and refresh tokens are kept in localStorage so a reload (or another tab) stays
 * signed in. The refresh token rotates on every use and a reused one ends the session, so a copy
 * taken from storage is worth one refresh at most before the server notices.
 */

export type SupportType = 'no-account-access' | 'account-access' | 'account-not-cached' | 'general';

export interface SupportInfo {
  errorType: SupportType;
  errorDetails?: string;
  userId?: string;
  userEmail?: string;
  accountId?: string;
}

export type AuthState =
  | { status: 'loading' }
  | { status: 'signed-out'; notice?: string }
  | { status: 'select-account'; user: UserView; accounts: AccountAccess[] }
  | { status: 'support'; support: SupportInfo }
  | {
      status: 'signed-in';
      user: UserView;
      account: AccountView;
      accounts: AccountAccess[];
      mfaSetupDueBy: string | null;
      mfaSetupRequired: boolean;
    };

const keys = {
  session: 'lotwise.sessionToken',
  refresh: 'lotwise.refreshToken',
  user: 'lotwise.user',
  accounts: 'lotwise.accounts',
  support: 'lotwise.support',
} as const;

let state: AuthState = { status: 'loading' };
let accessToken: string | null = null;
const listeners = new Set<() => void>();

export function getAuthState(): AuthState {
  return state;
}

export function setAuthState(next: AuthState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAuth(): AuthState {
  return useSyncExternalStore(subscribe, getAuthState);
}

/** The signed-in state, for screens that only render inside the shell. */
export function useSignedIn() {
  const current = useAuth();
  if (current.status !== 'signed-in') throw new Error('useSignedIn outside the signed-in shell');
  return current;
}

/** Whether the signed-in person holds a permission in this account (the owner holds all). */
export function useCan() {
  const { account } = useSignedIn();
  return (permission: string) =>
    account.role === 'owner' || account.permissions.includes(permission);
}

export const tokens = {
  access: () => accessToken,
  setAccess: (token: string | null) => {
    accessToken = token;
  },
  session: () => localStorage.getItem(keys.session),
  refresh: () => localStorage.getItem(keys.refresh),
  setRefresh: (token: string) => localStorage.setItem(keys.refresh, token),
};

function readJson<T>(key: string): T | undefined {
  try {
    const value = localStorage.getItem(key);
    return value ? (JSON.parse(value) as T) : undefined;
  } catch {
    return undefined;
  }
}

export const stored = {
  user: () => readJson<UserView>(keys.user),
  accounts: () => readJson<AccountAccess[]>(keys.accounts) ?? [],
  support: () => readJson<SupportInfo>(keys.support),
};

export function rememberSession(response: SessionResponse): void {
  localStorage.setItem(keys.session, response.sessionToken);
  localStorage.setItem(keys.refresh, response.refreshToken);
  localStorage.setItem(keys.user, JSON.stringify(response.user));
  localStorage.setItem(keys.accounts, JSON.stringify(response.accounts));
  accessToken = response.accessToken ?? null;
}

export function rememberAccounts(accounts: AccountAccess[]): void {
  localStorage.setItem(keys.accounts, JSON.stringify(accounts));
}

export function rememberUser(user: UserView): void {
  localStorage.setItem(keys.user, JSON.stringify(user));
}

/** Keeps a changed user (a new name, email, …) for this and later page loads. */
export function updateSignedInUser(user: UserView): void {
  rememberUser(user);
  if (state.status === 'signed-in') setAuthState({ ...state, user });
}

export function flagSupport(support: SupportInfo): void {
  localStorage.setItem(keys.support, JSON.stringify(support));
  setAuthState({ status: 'support', support });
}

export function clearSupportFlag(): void {
  localStorage.removeItem(keys.support);
}

const DEVICES_KEY = 'lotwise.devices';
const MAX_DEVICE_TOKENS = 10;
const emailKey = (email: string) => email.trim().toLowerCase();

/**
 * The device token of each person who signed in here with a password, by email. Like OWASP's
 * device cookies they outlive signing out: they make this browser a known device, which failed
 * sign-ins from elsewhere cannot lock out. Each is useless without the person's password.
 */
export const deviceTokens = {
  of: (email: string) => readJson<Record<string, string>>(DEVICES_KEY)?.[emailKey(email)],
  remember(email: string, token: string) {
    const { [emailKey(email)]: _previous, ...others } =
      readJson<Record<string, string>>(DEVICES_KEY) ?? {};
    const newest = [...Object.entries(others), [emailKey(email), token]].slice(-MAX_DEVICE_TOKENS);
    localStorage.setItem(DEVICES_KEY, JSON.stringify(Object.fromEntries(newest)));
  },
};

/** Forgets every token (but the device tokens), the user and the support flag. */
export function forgetEverything(): void {
  for (const key of Object.values(keys)) localStorage.removeItem(key);
  accessToken = null;
}

export function signedInState(
  user: UserView,
  accounts: AccountAccess[],
  granted: Pick<AccessTokenResponse, 'account' | 'mfaSetupDueBy' | 'mfaSetupRequired'>,
): AuthState {
  return {
    status: 'signed-in',
    user,
    account: granted.account,
    accounts,
    mfaSetupDueBy: granted.mfaSetupDueBy,
    mfaSetupRequired: granted.mfaSetupRequired,
  };
}
