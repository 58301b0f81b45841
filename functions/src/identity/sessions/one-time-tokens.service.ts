import { tooManyRequests } from '../../platform/errors.js';
import type { Stored } from '../../platform/repo.js';
import { keyedHash, numericCode, randomToken, safeEqual, sha256 } from '../../platform/secrets.js';
import type { CodePurpose, LinkPurpose, OneTimeTokenRecord } from '../shared/identity.model.js';
import { oneTimeTokensRepo } from './sessions.repo.js';

/**
 * Every single-use secret identity hands out is issued and spent here, and only here: the links
 * in emails (invitations, password resets, email confirmations), the OAuth state of a Microsoft
 * redirect, and the six-digit codes sent by text or email for two-factor sign-in. Each is stored
 * hashed, lives for its purpose's time, and works once even when two requests race to use it.
 */

const LIFETIME_MINUTES: Record<LinkPurpose | CodePurpose, number> = {
  invitation: 7 * 24 * 60,
  'password-reset': 60,
  'email-verify': 48 * 60,
  'oauth-state': 10,
  'mfa-login': 10,
  'mfa-setup': 10,
};
const CODE_RESEND_SECONDS = 30;
const MAX_CODE_ATTEMPTS = 5;
const CODE_HASH_PURPOSE = 'mfa-code';

const expiry = (purpose: LinkPurpose | CodePurpose, from: number) =>
  new Date(from + LIFETIME_MINUTES[purpose] * 60_000).toISOString();
const isExpired = (record: OneTimeTokenRecord) => Date.parse(record.expiresAt) < Date.now();

export interface LinkSubject {
  userId?: string;
  accountId?: string;
  invitationId?: string;
  email?: string;
  /** Kept with the token, e.g. the PKCE verifier of a redirect sign-in. */
  data?: Record<string, string>;
}

export type Link = Stored<OneTimeTokenRecord>;

/**
 * A new link token for a purpose. With `replacesEarlier`, the person's unspent links of the same
 * purpose stop working (only the newest reset or confirmation link works).
 */
export async function issueLink(
  purpose: LinkPurpose,
  subject: LinkSubject,
  options: { replacesEarlier?: boolean } = {},
): Promise<{ token: string; expiresAt: string }> {
  if (options.replacesEarlier && subject.userId) {
    const earlier = await oneTimeTokensRepo.unspentOf(subject.userId, purpose);
    await Promise.all(earlier.map((record) => spendLink(record)));
  }
  const token = randomToken();
  const now = Date.now();
  const expiresAt = expiry(purpose, now);
  await oneTimeTokensRepo.create({
    id: sha256(token),
    purpose,
    userId: subject.userId ?? null,
    accountId: subject.accountId ?? null,
    invitationId: subject.invitationId ?? null,
    email: subject.email ?? null,
    data: subject.data ?? {},
    createdAt: new Date(now).toISOString(),
    expiresAt,
    usedAt: null,
  });
  return { token, expiresAt };
}

/**
 * What a link token stands for and whether it still works, so the caller can say why not;
 * undefined when it is no token of this purpose.
 */
export async function inspectLink(
  token: string,
  purpose: LinkPurpose,
): Promise<{ link: Link; state: 'usable' | 'spent' | 'expired' } | undefined> {
  const link = await oneTimeTokensRepo.find(sha256(token));
  if (!link || link.purpose !== purpose) return undefined;
  return { link, state: link.usedAt ? 'spent' : isExpired(link) ? 'expired' : 'usable' };
}

/** The link when it is of this purpose, unspent and unexpired. */
export async function usableLink(token: string, purpose: LinkPurpose): Promise<Link | undefined> {
  const inspected = await inspectLink(token, purpose);
  return inspected?.state === 'usable' ? inspected.link : undefined;
}

/** Spends a link as it was read; false when someone else spent it first. */
export function spendLink(link: Link): Promise<boolean> {
  return oneTimeTokensRepo.replaceIfUnchanged({ ...link, usedAt: new Date().toISOString() });
}

/** Makes a spent link usable again, when what it was spent on could not be finished. */
export async function restoreLink(token: string): Promise<void> {
  const spent = await oneTimeTokensRepo.find(sha256(token));
  if (spent?.usedAt) await oneTimeTokensRepo.replaceIfUnchanged({ ...spent, usedAt: null });
}

const codeId = (purpose: CodePurpose, userId: string, methodId: string) =>
  `${purpose}:${userId}:${methodId}`;

/**
 * A fresh six-digit code for one of a person's methods, replacing the one before. Asking again
 * within 30 seconds of an unspent code is refused with 429.
 */
export async function issueCode(
  purpose: CodePurpose,
  userId: string,
  methodId: string,
): Promise<string> {
  const id = codeId(purpose, userId, methodId);
  const previous = await oneTimeTokensRepo.find(id);
  const now = Date.now();
  if (
    previous &&
    !previous.usedAt &&
    Date.parse(previous.createdAt) + CODE_RESEND_SECONDS * 1000 > now
  ) {
    throw tooManyRequests(
      'A code was just sent. Wait a few seconds before asking for another.',
      CODE_RESEND_SECONDS,
    );
  }
  const code = numericCode(6);
  await oneTimeTokensRepo.put({
    id,
    purpose,
    userId,
    accountId: null,
    invitationId: null,
    email: null,
    data: {},
    codeHash: keyedHash(code, CODE_HASH_PURPOSE),
    attempts: 0,
    createdAt: new Date(now).toISOString(),
    expiresAt: expiry(purpose, now),
    usedAt: null,
  });
  return code;
}

/**
 * Spends the method's code when `code` matches it. A wrong guess is counted, and the fifth spends
 * the code. `none` when there is no live code to check against.
 */
export async function spendCode(
  purpose: CodePurpose,
  userId: string,
  methodId: string,
  code: string,
): Promise<'accepted' | 'wrong' | 'none'> {
  // A lost race re-reads: the other request may have spent the code or counted a guess.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const record = await oneTimeTokensRepo.find(codeId(purpose, userId, methodId));
    if (!record?.codeHash || record.usedAt || isExpired(record)) return 'none';
    const now = new Date().toISOString();
    if (safeEqual(record.codeHash, keyedHash(code, CODE_HASH_PURPOSE))) {
      if (await oneTimeTokensRepo.replaceIfUnchanged({ ...record, usedAt: now })) {
        return 'accepted';
      }
      continue;
    }
    const attempts = (record.attempts ?? 0) + 1;
    const counted = await oneTimeTokensRepo.replaceIfUnchanged({
      ...record,
      attempts,
      usedAt: attempts >= MAX_CODE_ATTEMPTS ? now : null,
    });
    if (counted) return 'wrong';
  }
  return 'none';
}

/** Erases every token issued to a person or for an account, both of which are being removed. */
export async function eraseTokensOf(owner: { userId: string; accountId: string }): Promise<void> {
  await oneTimeTokensRepo.eraseOf(owner);
}
