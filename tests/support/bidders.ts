import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import type {
  Bidder,
  BidderListItem,
  BidderWrite,
} from '../../functions/src/bidders/bidders.schema.js';
import type { ScoringSettingsView } from '../../functions/src/scoring/scoring.schema.js';
import { call, signedIn, signup, type Reply, type Session } from './identity.js';

/** Helpers for the bidders, scoring and import API tests, against the domain app. */

export type { Bidder, BidderListItem, BidderWrite };

export interface ErrorReply {
  error: {
    code: string;
    message: string;
    details?: { fields?: { location: string; field: string; message: string }[] };
  };
}

export function domain<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  return call<T>(method, path, { ...options, base: inject('domainUrl') });
}

/** The fields a 400 named. */
export const fieldsOf = (reply: Reply<unknown>) =>
  ((reply.body as ErrorReply).error?.details?.fields ?? []).map((problem) => problem.field);

export const messageOf = (reply: Reply<unknown>) => (reply.body as ErrorReply).error?.message;

export const codeOf = (reply: Reply<unknown>) => (reply.body as ErrorReply).error?.code;

export interface Owner {
  token: string;
  email: string;
  accountId: string;
  accountName: string;
}

/** The owner of a brand-new account with no bidders, signed in. */
export async function freshOwner(): Promise<Owner> {
  const accountName = `Test House ${randomUUID().slice(0, 6)}`;
  const reply = await signup({ accountName });
  if (reply.status !== 201 || !reply.body.accessToken || !reply.body.account) {
    throw new Error(`signup failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return {
    token: reply.body.accessToken,
    email: reply.body.user.email,
    accountId: reply.body.account.id,
    accountName: reply.body.account.name,
  };
}

export async function signedInToken(email: string): Promise<string> {
  return (await signedIn(email)).accessToken;
}

export type Signed = Session & { accessToken: string };

let counter = 0;
/** A valid new bidder with a unique e-mail, phone and address unless told otherwise. */
export function bidderInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  const tag = `${randomUUID().slice(0, 8)}${counter}`;
  return {
    firstName: 'Test',
    lastName: `Bidder${tag}`,
    email: `bidder-${tag}@example.com`,
    status: 'Active',
    ...overrides,
  };
}

export async function createBidder(
  token: string,
  overrides: Record<string, unknown> = {},
): Promise<BidderWrite> {
  const reply = await domain<BidderWrite>('POST', '/bidders', {
    token,
    body: bidderInput(overrides),
  });
  if (reply.status !== 201) {
    throw new Error(`create bidder failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  }
  return reply.body;
}

export async function getBidder(token: string, id: string) {
  return domain<Bidder>('GET', `/bidders/${id}`, { token });
}

export interface ListReply {
  bidders: BidderListItem[];
  total: number;
  continuationToken?: string;
}

export async function list(token: string, query: Record<string, string | number> = {}) {
  const search = new URLSearchParams(
    Object.entries(query).map(([key, value]) => [key, String(value)]),
  );
  return domain<ListReply>('GET', `/listBidders?${search.toString()}`, { token });
}

/** Every bidder a filter matches, following continuation tokens. */
export async function listAll(token: string, query: Record<string, string | number> = {}) {
  const all: BidderListItem[] = [];
  let continuationToken: string | undefined;
  let pages = 0;
  do {
    const reply = await list(token, {
      ...query,
      ...(continuationToken ? { continuationToken } : {}),
    });
    if (reply.status !== 200) throw new Error(`list failed: ${JSON.stringify(reply.body)}`);
    all.push(...reply.body.bidders);
    continuationToken = reply.body.continuationToken;
    pages += 1;
  } while (continuationToken && pages < 50);
  return { bidders: all, pages };
}

/** The internal id of a bidder in an account, found by its bidder ID. */
export async function idOfBidderId(token: string, bidderId: string): Promise<string> {
  const reply = await list(token, { search: bidderId, limit: 200 });
  const found = reply.body.bidders.find((bidder) => bidder.bidderId === bidderId);
  if (!found) throw new Error(`no bidder ${bidderId}`);
  return found.id;
}

export async function settingsOf(token: string) {
  return (await domain<ScoringSettingsView>('GET', '/scoring/settings', { token })).body;
}

/** PUT /scoring/settings against the version the caller last read (or the given ETag). */
export async function saveSettings(token: string, body: unknown, etag?: string) {
  const ifMatch = etag ?? (await settingsOf(token)).etag;
  return domain<ScoringSettingsView>('PUT', '/scoring/settings', {
    token,
    body,
    headers: { 'if-match': `"${ifMatch}"` },
  });
}

/** Waits for a settings save's recalculation to finish, and answers its final status. */
export async function recomputed(token: string, jobId: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const settings = await settingsOf(token);
    const status = settings.recompute;
    if (status?.jobId === jobId && (status.status === 'completed' || status.status === 'failed')) {
      return status;
    }
    if (Date.now() > deadline) {
      throw new Error(`recompute ${jobId} did not finish: ${JSON.stringify(status)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface UploadFile {
  name: string;
  data: Buffer | string | Uint8Array;
}

/** POST /data-upload/bidders/import as a browser form would send it. */
export async function importFiles(
  token: string | undefined,
  files: UploadFile[],
  fields: Record<string, string> = { importType: 'bidders' },
): Promise<Reply<Record<string, unknown>>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('files', new Blob([file.data as BlobPart]), file.name);
  const response = await fetch(`${inject('domainUrl')}/data-upload/bidders/import`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
    headers: response.headers,
  };
}

export const DAY = 86_400_000;
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** A record perfect on every count: every component 100, a Premium Lotwise Score. */
export const strongStats = () => ({
  totalAuctionsBid: 40,
  totalLotsBid: 200,
  wins: 80,
  totalWinAmount: 250_000,
  paymentsOnTime: 80,
  paymentsLate: 0,
  avgDaysToPay: 3,
  responseRate: 1,
  avgResponseHours: 2,
  firstAuction: daysAgo(6 * 365),
  lastAuction: daysAgo(5),
  referrals: 5,
});
