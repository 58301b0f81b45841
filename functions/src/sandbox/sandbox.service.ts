import { createHash, randomUUID } from 'node:crypto';
import { deleteAccountBlobs } from '../platform/blob.js';
import { systemContext } from '../platform/context.js';
import { notFound, tooManyRequests } from '../platform/errors.js';
import type { Logger } from '../platform/logging.js';
import { settings } from '../platform/settings.js';
import {
  createOwnedAccount,
  findAccount,
  furnishAccount,
  membershipsOf,
} from '../identity/accounts/accounts.service.js';
import { clearFailures } from '../identity/auth/login-throttle.js';
import { openSession } from '../identity/sessions/access-token.service.js';
import { eraseTokensOf } from '../identity/sessions/one-time-tokens.service.js';
import type { SessionResponse } from '../identity/sessions/sessions.schema.js';
import {
  endSessions,
  eraseSessionsOf,
  type ClientInfo,
} from '../identity/sessions/sessions.service.js';
import { createUser, eraseUser, newUserRecord } from '../identity/shared/users.service.js';
import { seedDemoAuctions } from './demo-auctions.js';
import { seedDemoBidders } from './demo-bidders.js';
import { seedDemoCases } from './demo-cases.js';
import { seedDemoInventory } from './demo-inventory.js';
import { seedDemoPayments } from './demo-payments.js';
import { DEMO_ACCOUNT_NAME, demoAccountPlan } from './demo-tenant.js';
import { sandboxRepo, type SandboxRecord, type StartsRecord } from './sandbox.repo.js';

/**
 * "Try the demo": every visit gets a demo sandbox of its own, a copy of Harborview Auctions owned
 * by a visitor who exists only there, so nobody sees or changes anyone else's demo. The spec's
 * demo period is 720 hours; then a timer removes the sandbox and everything in it.
 */
export const SANDBOX_LIFETIME_HOURS = 720;

/** Starting sandboxes is limited per client address, so the demo cannot fill the database. */
export const SANDBOX_STARTS = { perAddress: 5, windowMinutes: 60 } as const;

const HOUR_MS = 3_600_000;
/**
 * Who asked for the sandbox's settlement that waits for approval: a visitor works alone, and
 * nobody may approve their own request.
 */
const DEMO_COLLEAGUE = {
  userId: 'demo-colleague',
  name: 'Dana Whitfield',
  email: 'dana.whitfield@harborview.demo',
};
const windowMs = () => SANDBOX_STARTS.windowMinutes * 60_000;
const MAX_TRIES = 5;

// Hashed: the database keeps no client addresses.
const startsKey = (address: string) =>
  `starts:${createHash('sha256').update(address).digest('hex')}`;

function tooManyStarts(retryAfterMs: number) {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return tooManyRequests(
    `Too many demos were started from your network in the last hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    Math.ceil(retryAfterMs / 1000),
  );
}

/** Counts one start for the address, or 429 when it has used its starts for this window. */
async function claimStart(address: string): Promise<void> {
  const id = startsKey(address);
  for (let tries = 1; tries <= MAX_TRIES; tries += 1) {
    const existing = await sandboxRepo.starts(id);
    const now = Date.now();
    const recent = (existing?.at ?? []).filter((at) => now - Date.parse(at) < windowMs());
    if (recent.length >= SANDBOX_STARTS.perAddress) {
      throw tooManyStarts(Date.parse(recent[0] as string) + windowMs() - now);
    }
    const at = new Date(now).toISOString();
    const next: StartsRecord = { id, type: 'starts', at: [...recent, at], lastAt: at };
    if (await sandboxRepo.saveStarts(next, existing?._etag)) return;
  }
  // Several starts from one address at the very same moment: a script, not a visitor.
  throw tooManyStarts(windowMs());
}

/** Opens a new demo sandbox and signs the visitor in to it. */
export async function startSandbox(
  client: ClientInfo,
  accountContainers: string[],
  log: Logger,
): Promise<SessionResponse> {
  if (!settings().DEMO_ENABLED) throw notFound('The demo is not available here');
  await claimStart(client.ipAddress);
  const accountId = randomUUID();
  const visitor = newUserRecord({
    // `.invalid` is reserved (RFC 2606): nothing Lotwise sends there can reach anyone.
    email: `visitor-${accountId}@demo.lotwise.invalid`,
    firstName: 'Demo',
    lastName: 'Visitor',
    // A visitor never signs in with a password: this visit's session is their only way in.
    passwordHash: null,
    emailVerified: true,
    termsAccepted: true,
  });
  const now = new Date();
  const sandbox: SandboxRecord = {
    id: accountId,
    type: 'sandbox',
    visitorUserId: visitor.id,
    visitorEmail: visitor.email,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + SANDBOX_LIFETIME_HOURS * HOUR_MS).toISOString(),
  };
  // First, so whatever of the sandbox gets written is found and removed again.
  await sandboxRepo.create(sandbox);
  try {
    const owner = await createUser(visitor);
    await createOwnedAccount(owner, DEMO_ACCOUNT_NAME, 'organization', {
      id: accountId,
      subscription: demoAccountPlan.subscription,
      demoExpiresAt: sandbox.expiresAt,
    });
    const ctx = systemContext(accountId);
    await furnishAccount(ctx, demoAccountPlan);
    await seedDemoBidders(ctx, { userId: owner.id, name: `${owner.firstName} ${owner.lastName}` });
    await seedDemoAuctions(ctx);
    await seedDemoInventory(ctx);
    await seedDemoPayments(ctx);
    await seedDemoCases(
      ctx,
      { userId: owner.id, name: `${owner.firstName} ${owner.lastName}`, email: owner.email },
      DEMO_COLLEAGUE,
    );
    return await openSession(owner, client, accountId);
  } catch (error) {
    await removeSandbox(sandbox, accountContainers).catch((cleanup: unknown) =>
      log.error('a sandbox that failed to start was not removed; the expiry job will', {
        accountId,
        error: cleanup,
      }),
    );
    throw error;
  }
}

/**
 * Removes a sandbox and everything of it: every document of its account in every container
 * partitioned by account, every blob of the account, the visitor with their sessions, tokens and
 * sign-in failures, and the sessions others opened in it. Each step finds what is left, so a run
 * that was interrupted, or two at once, leave nothing behind; the sandbox's own record goes last.
 */
async function removeSandbox(sandbox: SandboxRecord, accountContainers: string[]): Promise<void> {
  const scope = { accountId: sandbox.id };
  const account = await findAccount(scope);
  if (account && !account.demoExpiresAt) {
    throw new Error(`Account ${sandbox.id} is not a demo sandbox; it was not removed`);
  }
  // Anyone invited in keeps their own sign-in, but not their sessions in the sandbox.
  for (const member of await membershipsOf(scope)) {
    if (member.userId !== sandbox.visitorUserId) {
      await endSessions(member.userId, 'demo-removed', { in: sandbox.id });
    }
  }
  // The visitor's sessions first: from here on nothing they hold can write.
  await eraseSessionsOf(sandbox.visitorUserId);
  await eraseTokensOf({ userId: sandbox.visitorUserId, accountId: sandbox.id });
  // Photos, documents and logos: nobody can add one now, and the sandbox record still stands.
  await deleteAccountBlobs(sandbox.id);
  for (const containerId of accountContainers) {
    await sandboxRepo.purgeTenant(containerId, sandbox.id);
  }
  await clearFailures(sandbox.visitorEmail);
  await eraseUser(sandbox.visitorUserId);
  await sandboxRepo.remove(sandbox.id);
}

/** The expiry job: removes every sandbox whose time is up, and forgets old starts. */
export async function removeExpiredSandboxes(
  accountContainers: string[],
  log: Logger,
  now = new Date(),
): Promise<number> {
  const expired = await sandboxRepo.expired(now.toISOString());
  const failures: unknown[] = [];
  for (const sandbox of expired) {
    try {
      await removeSandbox(sandbox, accountContainers);
      log.info('demo sandbox removed', { accountId: sandbox.id, expiresAt: sandbox.expiresAt });
    } catch (error) {
      // One that cannot go now must not keep the others; the next run tries it again.
      log.error('demo sandbox not removed', { accountId: sandbox.id, error });
      failures.push(error);
    }
  }
  await sandboxRepo.forgetStartsBefore(new Date(now.getTime() - windowMs()).toISOString());
  if (failures.length) throw new AggregateError(failures, 'Some demo sandboxes were not removed');
  return expired.length - failures.length;
}
