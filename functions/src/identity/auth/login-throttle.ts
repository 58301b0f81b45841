import { createHash } from 'node:crypto';
import { tooManyRequests } from '../../platform/errors.js';
import { throttleRepo } from './auth.repo.js';

/**
 * Brute-force protection for sign-in, after Keycloak's defaults. Per email address (whether or not
 * it belongs to anyone, so the answer never tells) the 5th failed attempt locks sign-in for 60
 * seconds, each later one for 60 seconds more, up to 15 minutes. Per client address the same
 * starts at the 20th failure. Counts reset on success, or after 12 hours without a failure.
 */
export const THROTTLE_RULES = {
  email: { freeFailures: 4, stepSeconds: 60, maxSeconds: 15 * 60 },
  address: { freeFailures: 19, stepSeconds: 60, maxSeconds: 15 * 60 },
  resetAfterHours: 12,
} as const;

type Kind = 'email' | 'address';

// Hashed: an email may hold characters Cosmos refuses in an id (`#`, `/`, `\\`, `?`).
const keyOf = (kind: Kind, value: string) =>
  `login:${kind}:${createHash('sha256').update(value.toLowerCase()).digest('hex')}`;

function lockSeconds(kind: Kind, failures: number): number {
  const rule = THROTTLE_RULES[kind];
  const over = failures - rule.freeFailures;
  return over > 0 ? Math.min(rule.maxSeconds, over * rule.stepSeconds) : 0;
}

/** Refuses with 429 (and Retry-After) while either the email or the address is locked. */
export async function assertNotLocked(email: string, address: string): Promise<void> {
  const records = await Promise.all([
    throttleRepo.find(keyOf('email', email)),
    throttleRepo.find(keyOf('address', address)),
  ]);
  const now = Date.now();
  const until = Math.max(
    ...records.map((record) => (record?.lockedUntil ? Date.parse(record.lockedUntil) : 0)),
  );
  if (until > now) {
    const seconds = Math.ceil((until - now) / 1000);
    const minutes = Math.ceil(seconds / 60);
    throw tooManyRequests(
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      seconds,
    );
  }
}

async function recordOne(kind: Kind, value: string): Promise<void> {
  const id = keyOf(kind, value);
  const existing = await throttleRepo.find(id);
  const now = new Date();
  const stale =
    existing &&
    now.getTime() - Date.parse(existing.lastFailureAt) > THROTTLE_RULES.resetAfterHours * 3_600_000;
  const failures = existing && !stale ? existing.failures + 1 : 1;
  const seconds = lockSeconds(kind, failures);
  await throttleRepo.save({
    id,
    failures,
    firstFailureAt: existing && !stale ? existing.firstFailureAt : now.toISOString(),
    lastFailureAt: now.toISOString(),
    lockedUntil: seconds ? new Date(now.getTime() + seconds * 1000).toISOString() : null,
  });
}

export async function recordFailure(email: string, address: string): Promise<void> {
  await Promise.all([recordOne('email', email), recordOne('address', address)]);
}

export async function clearFailures(email: string): Promise<void> {
  await throttleRepo.clear(keyOf('email', email));
}
