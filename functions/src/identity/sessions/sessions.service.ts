import { randomUUID } from 'node:crypto';
import type { PublicContext, UserContext } from '../../platform/context.js';
import { isStale } from '../../platform/cosmos-errors.js';
import { notFound, unauthorized } from '../../platform/errors.js';
import type { Principal } from '../../platform/principal.js';
import type { Stored } from '../../platform/repo.js';
import { randomToken, safeEqual, sha256 } from '../../platform/secrets.js';
import type { SessionRecord } from '../shared/identity.model.js';
import type { SessionView } from './sessions.schema.js';
import { sessionsRepo } from './sessions.repo.js';

/** Before an account is chosen its settings cannot apply; these are the defaults. */
export const DEFAULT_SESSION_IDLE_MINUTES = 12 * 60;
export const DEFAULT_SESSION_MAX_DAYS = 14;

export interface SessionLifetimes {
  idleMinutes: number;
  maxDays: number;
}

export interface ClientInfo {
  userAgent: string;
  ipAddress: string;
}

const SESSION_PREFIX = 's1';
const REFRESH_PREFIX = 'r1';
const ended = () => unauthorized('This sign-in has ended. Sign in again.');

function compose(prefix: string, userId: string, id: string, secret: string) {
  return [prefix, userId, id, secret].join('.');
}

function parse(prefix: string, token: string) {
  const [kind, userId, id, secret, ...rest] = token.split('.');
  if (kind !== prefix || !userId || !id || !secret || rest.length) return undefined;
  return { userId, id, secret };
}

const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

function isLive(session: SessionRecord, now = Date.now()): boolean {
  return (
    !session.revokedAt &&
    Date.parse(session.idleExpiresAt) > now &&
    Date.parse(session.absoluteExpiresAt) > now
  );
}

async function issueRefreshToken(session: SessionRecord, id = randomUUID()): Promise<string> {
  const secret = randomToken();
  await sessionsRepo.create({
    id,
    userId: session.userId,
    type: 'refresh',
    sessionId: session.id,
    secretHash: sha256(secret),
    createdAt: new Date().toISOString(),
    usedAt: null,
  });
  return compose(REFRESH_PREFIX, session.userId, id, secret);
}

export async function startSession(
  userId: string,
  client: ClientInfo,
  lifetimes: SessionLifetimes = {
    idleMinutes: DEFAULT_SESSION_IDLE_MINUTES,
    maxDays: DEFAULT_SESSION_MAX_DAYS,
  },
) {
  const secret = randomToken();
  const now = new Date().toISOString();
  const session = await sessionsRepo.create<SessionRecord>({
    id: randomUUID(),
    userId,
    type: 'session',
    secretHash: sha256(secret),
    accountId: null,
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: minutesFromNow(lifetimes.idleMinutes),
    absoluteExpiresAt: minutesFromNow(lifetimes.maxDays * 24 * 60),
    revokedAt: null,
    revokedReason: null,
    userAgent: client.userAgent.slice(0, 300),
    ipAddress: client.ipAddress.slice(0, 64),
  });
  return {
    session,
    sessionToken: compose(SESSION_PREFIX, userId, session.id, secret),
    refreshToken: await issueRefreshToken(session),
  };
}

/** The live session a session token stands for, or 401. */
export async function sessionFromToken(token: string): Promise<Stored<SessionRecord>> {
  const parts = parse(SESSION_PREFIX, token);
  if (!parts) throw unauthorized('Session token is not valid');
  const session = await sessionsRepo.findSession(parts.userId, parts.id);
  if (!session || !safeEqual(session.secretHash, sha256(parts.secret)) || !isLive(session)) {
    throw ended();
  }
  return session;
}

async function findLiveSession(userId: string, sessionId: string) {
  const session = await sessionsRepo.findSession(userId, sessionId);
  return session && isLive(session) ? session : undefined;
}

/** The session the signed-in request came with, or 401 when it has ended. */
export async function currentSession(ctx: UserContext): Promise<Stored<SessionRecord>> {
  const session = await findLiveSession(ctx.actor.userId, ctx.actor.sessionId);
  if (!session) throw ended();
  return session;
}

export async function revokeSession(session: Stored<SessionRecord>, reason: string): Promise<void> {
  if (session.revokedAt) return;
  const fresh = (await sessionsRepo.findSession(session.userId, session.id)) ?? session;
  if (fresh.revokedAt) return;
  await sessionsRepo.replace({
    ...fresh,
    revokedAt: new Date().toISOString(),
    revokedReason: reason,
  });
}

/** Marks the session used now and, when an account is chosen, applies that account's lifetimes. */
export async function touchSession(
  session: Stored<SessionRecord>,
  changes: { accountId?: string; lifetimes?: SessionLifetimes } = {},
): Promise<Stored<SessionRecord>> {
  const lifetimes = changes.lifetimes;
  const absoluteCap = lifetimes
    ? new Date(Date.parse(session.createdAt) + lifetimes.maxDays * 86_400_000).toISOString()
    : session.absoluteExpiresAt;
  // Two requests of one session may touch it at once (two tabs); neither should fail.
  return sessionsRepo.patch(session.userId, session.id, {
    accountId: changes.accountId ?? session.accountId,
    lastSeenAt: new Date().toISOString(),
    idleExpiresAt: minutesFromNow(lifetimes?.idleMinutes ?? DEFAULT_SESSION_IDLE_MINUTES),
    absoluteExpiresAt: absoluteCap,
  });
}

/**
 * Trades a refresh token for a new one. Each token works once; presenting a spent one means it
 * was copied, so the whole session (the token family) ends at once.
 */
/**
 * How long a spent refresh token may still be exchanged, once, when its answer was lost (a page
 * reloaded while its refresh was on the way): the client never saw the successor, so it sends the
 * spent token again.
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;
/** How long a reuse waits for the request that spent the token to finish issuing its successor. */
const SPEND_PASSES = 20;
const SPEND_WAIT_MS = 25;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spends a refresh token for a new one. A token spent before is a reuse and ends the session,
 * except within the grace while its successor is still unused: then the successor is spent in
 * its place and a new one issued, so there is only ever one live token in the family and a thief
 * replaying it still ends the session at the owner's next refresh.
 */
export async function rotateRefreshToken(refreshToken: string) {
  const parts = parse(REFRESH_PREFIX, refreshToken);
  if (!parts) throw unauthorized('Refresh token is not valid');
  for (let pass = 0; ; pass += 1) {
    const record = await sessionsRepo.findRefresh(parts.userId, parts.id);
    if (!record || !safeEqual(record.secretHash, sha256(parts.secret))) {
      throw unauthorized('Refresh token is not valid');
    }
    const session = await sessionsRepo.findSession(record.userId, record.sessionId);
    if (!session) throw ended();
    if (!record.usedAt) {
      const successor = randomUUID();
      try {
        await sessionsRepo.replace({
          ...record,
          usedAt: new Date().toISOString(),
          replacedBy: successor,
        });
      } catch (error) {
        // Spent by a request at the same moment: decide again as a reuse.
        if (isStale(error)) continue;
        throw error;
      }
      if (!isLive(session)) throw ended();
      return { session, refreshToken: await issueRefreshToken(session, successor) };
    }
    const withinGrace = Date.now() - Date.parse(record.usedAt) <= REFRESH_REUSE_GRACE_MS;
    if (!withinGrace || !record.replacedBy) {
      await revokeSession(session, 'refresh-token-reuse');
      throw ended();
    }
    const successor = await sessionsRepo.findRefresh(parts.userId, record.replacedBy);
    if (!successor) {
      // The request that spent it has not written its successor yet.
      if (pass < SPEND_PASSES) {
        await pause(SPEND_WAIT_MS);
        continue;
      }
      await revokeSession(session, 'refresh-token-reuse');
      throw ended();
    }
    if (successor.usedAt) {
      await revokeSession(session, 'refresh-token-reuse');
      throw ended();
    }
    const next = randomUUID();
    try {
      // The spent token names its new successor first: of two lost answers retried at once,
      // one takes the turn and the other waits for what it issues.
      await sessionsRepo.replace({ ...record, replacedBy: next });
    } catch (error) {
      if (isStale(error)) continue;
      throw error;
    }
    try {
      await sessionsRepo.replace({
        ...successor,
        usedAt: new Date().toISOString(),
        replacedBy: null,
      });
    } catch (error) {
      // The successor was used meanwhile, so the spent token is being replayed.
      if (isStale(error)) {
        await revokeSession(session, 'refresh-token-reuse');
        throw ended();
      }
      throw error;
    }
    if (!isLive(session)) throw ended();
    return { session, refreshToken: await issueRefreshToken(session, next) };
  }
}

/** The refresh token's session, without spending the token (for sign-out). */
async function sessionOfRefreshToken(refreshToken: string) {
  const parts = parse(REFRESH_PREFIX, refreshToken);
  if (!parts) return undefined;
  const record = await sessionsRepo.findRefresh(parts.userId, parts.id);
  if (!record || !safeEqual(record.secretHash, sha256(parts.secret))) return undefined;
  return sessionsRepo.findSession(record.userId, record.sessionId);
}

async function liveSessionsOf(userId: string) {
  return (await sessionsRepo.sessionsOf(userId)).filter((session) => isLive(session));
}

/**
 * Ends a person's live sessions: all of them, those in one account (`in`), or all but the one
 * they are using (`except`).
 */
export async function endSessions(
  userId: string,
  reason: string,
  which: { in?: string; except?: string } = {},
): Promise<number> {
  const chosen = (await liveSessionsOf(userId)).filter(
    (session) =>
      (which.in === undefined || session.accountId === which.in) && session.id !== which.except,
  );
  await Promise.all(chosen.map((session) => revokeSession(session, reason)));
  return chosen.length;
}

/** Erases every session and refresh token of a person who is being removed. */
export async function eraseSessionsOf(userId: string): Promise<void> {
  await sessionsRepo.eraseAllOf(userId);
}

/** Signs out the session of the refresh token sent, else the one the caller is signed in with. */
export async function logout(ctx: PublicContext, refreshToken: string | undefined) {
  const fromRefresh = refreshToken ? await sessionOfRefreshToken(refreshToken) : undefined;
  const fromAccess = ctx.caller
    ? await findLiveSession(ctx.caller.actor.userId, ctx.caller.actor.sessionId)
    : undefined;
  const session = fromRefresh ?? fromAccess;
  if (!session) throw unauthorized('Nothing to sign out of');
  await revokeSession(session, 'logout');
}

/** The signed-in person's live sessions, the most recently used first. */
export async function mySessions(ctx: UserContext): Promise<SessionView[]> {
  return (await liveSessionsOf(ctx.actor.userId))
    .sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt))
    .map((session) => toSessionView(session, ctx.actor.sessionId));
}

export async function endMySession(ctx: UserContext, sessionId: string): Promise<void> {
  const session = await findLiveSession(ctx.actor.userId, sessionId);
  // 404, not 401: the caller's own sign-in is fine, only the session named is gone (or not theirs).
  if (!session) throw notFound('That session has already ended');
  await revokeSession(session, 'revoked-by-user');
}

function toSessionView(session: SessionRecord, currentId: string): SessionView {
  return {
    id: session.id,
    current: session.id === currentId,
    accountId: session.accountId,
    userAgent: session.userAgent,
    ipAddress: session.ipAddress,
    createdAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
    expiresAt:
      Date.parse(session.idleExpiresAt) < Date.parse(session.absoluteExpiresAt)
        ? session.idleExpiresAt
        : session.absoluteExpiresAt,
  };
}

/** Registered with the platform: an access token is honoured only while its session lives. */
export async function sessionGuard(principal: Principal): Promise<void> {
  const session = await sessionsRepo.findSession(principal.userId, principal.sessionId);
  if (!session || !isLive(session) || session.accountId !== principal.accountId) throw ended();
}

/**
 * The caller's address as the platform's front end saw it: the last X-Forwarded-For entry (the
 * earlier ones are whatever the caller claimed), without its port.
 */
export function callerAddress(forwardedFor: string | null): string {
  const last = forwardedFor?.split(',').at(-1)?.trim() ?? '';
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(last);
  if (bracketed?.[1]) return bracketed[1];
  const ipv4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(last);
  if (ipv4WithPort?.[1]) return ipv4WithPort[1];
  const mappedWithPort = /^(::ffff:\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(last);
  return mappedWithPort?.[1] ?? (last || 'unknown');
}

export function clientInfo(request: { headers: { get(name: string): string | null } }): ClientInfo {
  return {
    userAgent: request.headers.get('user-agent') ?? 'unknown',
    ipAddress: callerAddress(request.headers.get('x-forwarded-for')),
  };
}
