import { inject } from 'vitest';
import { randomUUID } from 'node:crypto';
import { clearThrottle, GOOD_PASSWORD } from '../../support/identity.js';
import { usePlatformEnvironment } from '../../support/platform-env.js';
import { pathOf, type Operation } from './routes.js';

export interface Answer {
  status: number;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
  headers: Headers;
}

export type Body = { json: unknown } | { raw: string };

export interface Call {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Body;
  /** Sent as `Authorization: Bearer {token}`. */
  token?: string;
  /** Sent as the whole Authorization header instead (a malformed one, say). */
  authorization?: string;
  headers?: Record<string, string>;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function request(
  base: string,
  method: string,
  path: string,
  call: Omit<Call, 'params'> = {},
): Promise<Answer> {
  const query = new URLSearchParams(call.query ?? {}).toString();
  const body =
    call.body === undefined
      ? undefined
      : 'raw' in call.body
        ? call.body.raw
        : JSON.stringify(call.body.json);
  const authorization =
    call.authorization ?? (call.token === undefined ? undefined : `Bearer ${call.token}`);
  const response = await fetch(`${base}${path}${query ? `?${query}` : ''}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(authorization === undefined ? {} : { authorization }),
      ...call.headers,
    },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, text, json: parsed(text), headers: response.headers };
}

/** Calls one operation with its path parameters filled in. */
export const invoke = (op: Operation, call: Call = {}) =>
  request(op.base, op.method, pathOf(op.route, call.params ?? {}), call);

export const authUrl = () => inject('authUrl');
export const domainUrl = () => inject('domainUrl');

/** Someone signed in to one account, with what the product says they hold there. */
export interface Caller {
  label: string;
  email: string;
  password: string;
  /** Which account to pick when the person belongs to several. */
  accountName?: string;
  token: string;
  userId: string;
  accountId: string;
  role: string;
  permissions: string[];
}

export interface SignedIn {
  accessToken?: string;
  sessionToken: string;
  user: { id: string };
  accounts: { accountId: string; accountName: string }[];
  account?: { id: string; name: string; role: string; permissions: string[] };
  mfaSetupRequired?: boolean;
}

async function login(email: string, password: string): Promise<Answer> {
  const answer = await request(authUrl(), 'POST', '/login', {
    body: { json: { email, password } },
  });
  if (answer.status !== 429) return answer;
  // Throttled by failed attempts another case made on purpose: forget them, as the API tests do.
  await clearThrottle();
  return request(authUrl(), 'POST', '/login', { body: { json: { email, password } } });
}

/** Finishes a sign-in: picks the named account when the person has several. */
export async function callerFrom(
  label: string,
  email: string,
  password: string,
  reply: SignedIn,
  accountName?: string,
): Promise<Caller> {
  let granted = reply;
  if (!reply.accessToken || (accountName && reply.account?.name !== accountName)) {
    const account = reply.accounts.find((entry) => entry.accountName === accountName);
    if (!account) throw new Error(`${email} has no account named ${accountName}`);
    const answer = await request(authUrl(), 'POST', '/tokens/access', {
      token: reply.sessionToken,
      body: { json: { userId: reply.user.id, accountId: account.accountId } },
    });
    if (answer.status !== 200) throw new Error(`picking ${accountName} failed: ${answer.text}`);
    granted = { ...reply, ...(answer.json as SignedIn) };
  }
  const { accessToken, account } = granted;
  if (!accessToken || !account) throw new Error(`${email} got no access token`);
  if (granted.mfaSetupRequired) throw new Error(`${email} must set up MFA first`);
  return {
    label,
    email,
    password,
    ...(accountName ? { accountName } : {}),
    token: accessToken,
    userId: granted.user.id,
    accountId: account.id,
    role: account.role,
    permissions: account.permissions,
  };
}

export async function signIn(
  label: string,
  email: string,
  password: string,
  accountName?: string,
): Promise<Caller> {
  const answer = await login(email, password);
  if (answer.status !== 200) throw new Error(`sign-in as ${email} failed: ${answer.text}`);
  return callerFrom(label, email, password, answer.json as SignedIn, accountName);
}

/** The owner of a new account of their own, signed up for a run that may change anything in it. */
export async function signUp(label: string): Promise<Caller> {
  const email = `${label.replace(/\W+/g, '-')}-${randomUUID().slice(0, 12)}@example.com`;
  const answer = await request(authUrl(), 'POST', '/signup', {
    body: {
      json: {
        firstName: 'Reliability',
        lastName: 'Owner',
        email,
        password: GOOD_PASSWORD,
        confirmPassword: GOOD_PASSWORD,
        preferences: { termsAccepted: true, privacyPolicyAccepted: true },
      },
    },
  });
  if (answer.status !== 201) throw new Error(`signing up ${email} failed: ${answer.text}`);
  return callerFrom(label, email, GOOD_PASSWORD, answer.json as SignedIn);
}

/**
 * The owner of a new account whose plan has the Inventory and Payments add-ons, for the routes
 * that need them. The plan is applied in this process against the suite's stack, as billing's
 * webhook would after a subscription; the sign-in after it carries the add-ons.
 */
export async function signUpWithAddOns(label: string): Promise<Caller> {
  const owner = await signUp(label);
  usePlatformEnvironment();
  const { applyPlan } =
    await import('../../../functions/src/identity/accounts/accounts.service.js');
  await applyPlan(owner.accountId, {
    tier: 'tier-3',
    addOns: { inventory: true, payments: true },
  });
  return signIn(label, owner.email, owner.password);
}

/** True while the caller's access token is still accepted. */
export async function stillSignedIn(caller: Caller): Promise<boolean> {
  const answer = await request(authUrl(), 'GET', '/users/me', { token: caller.token });
  if (answer.status === 200) return true;
  if (answer.status === 401) return false;
  throw new Error(`checking ${caller.label}'s sign-in answered ${answer.status}: ${answer.text}`);
}

/**
 * Signs the caller in again when a case ended their sign-in (logout, sign out everywhere, a new
 * session token), so the next case starts from a working token. Answers whether it had to.
 */
export async function keepSignedIn(caller: Caller): Promise<boolean> {
  if (await stillSignedIn(caller)) return false;
  const again = await signIn(caller.label, caller.email, caller.password, caller.accountName);
  caller.token = again.token;
  return true;
}
