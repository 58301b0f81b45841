import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { tooManyRequests } from '../../platform/errors.js';
import type { ThrottleRecord } from '../shared/identity.model.js';
import { throttleRepo } from './auth.repo.js';

/**
 * Brute-force protection for sign-in (and for the password checks of changing a password or an
 * email), after Keycloak's defaults and OWASP's device cookies.
 *
 * - Per account, for unknown clients: the 5th failed attempt for an email locks it for 60
 *   seconds, each later one for 60 seconds more, up to 15 minutes. The email counts whether or not
 *   it belongs to anyone, so a lock reads the same either way and tells nothing.
 * - Per known device: a client holding a device token for the person (device-tokens.ts) is not
 *   held by the account's lock; its failures count against that device alone, by the same rule.
 *   Someone guessing elsewhere therefore cannot lock a person out of the devices they use.
 * - Per client address: many people share one (an office, a guest Wi-Fi), so its failures only
 *   slow unknown clients down and never refuse a correct password. From the 11th failure each
 *   attempt waits 250 ms more before its password is checked, up to 3 seconds. The waiting is
 *   bounded, per instance, at 5 attempts per address and 200 in all; an attempt beyond that is a
 *   flood, not a person, and answers 429.
 *
 * Counts reset after 12 hours without a failure, and on success: the account's (or the device's)
 * but never the address's, which a guesser could otherwise reset with a sign-in of their own.
 */
export const THROTTLE_RULES = {
  lock: { freeFailures: 4, stepSeconds: 60, maxSeconds: 15 * 60 },
  address: {
    freeFailures: 10,
    stepMs: 250,
    maxDelayMs: 3_000,
    maxWaiting: 5,
    maxWaitingInAll: 200,
  },
  resetAfterHours: 12,
} as const;

export interface SignInAttempt {
  email: string;
  address: string;
  /** The id of the client's device, when it holds a valid device token of this person. */
  deviceId?: string | undefined;
}

type Kind = 'email' | 'device' | 'address';

// Hashed: an email may hold characters Cosmos refuses in an id (`#`, `/`, `\\`, `?`).
const keyOf = (kind: Kind, value: string) =>
  `login:${kind}:${createHash('sha256').update(value.toLowerCase()).digest('hex')}`;

const lockKeyOf = (attempt: SignInAttempt) =>
  attempt.deviceId ? keyOf('device', attempt.deviceId) : keyOf('email', attempt.email);

/** How long the account (or device) stays locked after this many failures in a row. */
export function lockSeconds(failures: number): number {
  const rule = THROTTLE_RULES.lock;
  const over = failures - rule.freeFailures;
  return over > 0 ? Math.min(rule.maxSeconds, over * rule.stepSeconds) : 0;
}

/** How long an unknown client's attempt waits after this many failures from its address. */
export function addressDelayMs(failures: number): number {
  const rule = THROTTLE_RULES.address;
  const over = failures - rule.freeFailures;
  return over > 0 ? Math.min(rule.maxDelayMs, over * rule.stepMs) : 0;
}

const lapsed = (record: ThrottleRecord, now = Date.now()) =>
  now - Date.parse(record.lastFailureAt) > THROTTLE_RULES.resetAfterHours * 3_600_000;

const waiting = { all: 0, byAddress: new Map<string, number>() };

/** Waits out the address's delay, holding one of the bounded places to wait. */
async function slowDown(address: string, delayMs: number): Promise<void> {
  const rule = THROTTLE_RULES.address;
  const mine = waiting.byAddress.get(address) ?? 0;
  if (mine >= rule.maxWaiting || waiting.all >= rule.maxWaitingInAll) {
    throw tooManyRequests(
      'Too many sign-in attempts from your network at once. Try again in a few seconds.',
      Math.ceil(delayMs / 1000),
    );
  }
  waiting.byAddress.set(address, mine + 1);
  waiting.all += 1;
  try {
    await sleep(delayMs);
  } finally {
    waiting.all -= 1;
    const left = (waiting.byAddress.get(address) ?? 1) - 1;
    if (left) waiting.byAddress.set(address, left);
    else waiting.byAddress.delete(address);
  }
}

/**
 * Before a password is checked: 429 (with Retry-After) while the account, or the known device, is
 * locked; otherwise an unknown client waits out its address's delay.
 */
export async function beforeAttempt(attempt: SignInAttempt): Promise<void> {
  const [lock, address] = await Promise.all([
    throttleRepo.find(lockKeyOf(attempt)),
    attempt.deviceId ? undefined : throttleRepo.find(keyOf('address', attempt.address)),
  ]);
  const now = Date.now();
  const until =
    lock && !lapsed(lock, now)
      ? Date.parse(lock.lastFailureAt) + lockSeconds(lock.failures) * 1000
      : 0;
  if (until > now) {
    const seconds = Math.ceil((until - now) / 1000);
    const minutes = Math.ceil(seconds / 60);
    throw tooManyRequests(
      `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      seconds,
    );
  }
  const delayMs = address && !lapsed(address, now) ? addressDelayMs(address.failures) : 0;
  if (delayMs) await slowDown(attempt.address, delayMs);
}

/** A wrong password (or code): against the known device alone, else the email and the address. */
export async function recordFailure(attempt: SignInAttempt): Promise<void> {
  const at = new Date();
  const isLapsed = (record: ThrottleRecord) => lapsed(record, at.getTime());
  await Promise.all(
    attempt.deviceId
      ? [throttleRepo.addFailure(keyOf('device', attempt.deviceId), at, isLapsed)]
      : [
          throttleRepo.addFailure(keyOf('email', attempt.email), at, isLapsed),
          throttleRepo.addFailure(keyOf('address', attempt.address), at, isLapsed),
        ],
  );
}

export async function recordSuccess(attempt: SignInAttempt): Promise<void> {
  await throttleRepo.clear(lockKeyOf(attempt));
}

/** Forgets an email's failures (a new password was set from an emailed link). */
export async function clearFailures(email: string): Promise<void> {
  await throttleRepo.clear(keyOf('email', email));
}
