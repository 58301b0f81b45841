import { randomInt, randomUUID } from 'node:crypto';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import QRCode from 'qrcode';
import { writeAudit } from '../platform/audit.js';
import type { UserContext } from '../platform/context.js';
import { badRequest, conflict, notFound, tooManyRequests } from '../platform/errors.js';
import type { Stored } from '../platform/repo.js';
import {
  decryptSecret,
  encryptSecret,
  keyedHash,
  numericCode,
  safeEqual,
} from '../platform/secrets.js';
import { validationError } from '../platform/validation.js';
import { BACKUP_CODE_COUNT, type MfaMethodView } from './identity.schema.js';
import { identityMail } from './identity.mail.js';
import type { MfaMethodRecord, PendingCode, UserRecord } from './identity.model.js';
import { usersRepo } from './users.repo.js';

const SECRET_PURPOSE = 'totp-secret';
const CODE_PURPOSE = 'mfa-code';
const BACKUP_PURPOSE = 'backup-code';
const CODE_TTL_MINUTES = 10;
const CODE_RESEND_SECONDS = 30;
const MAX_CODE_ATTEMPTS = 5;
const MAX_METHODS = 10;
/** One period either side, for phones whose clocks drift. */
const TOTP_TOLERANCE_SECONDS = 30;

const invalidCode = () =>
  validationError([{ location: 'body', field: 'code', message: 'Invalid verification code' }]);

export function maskDestination(
  method: Pick<MfaMethodRecord, 'type' | 'phoneNumber' | 'email'>,
): string | null {
  if (method.type === 'sms' && method.phoneNumber) {
    return `••• ${method.phoneNumber.replace(/\D/g, '').slice(-4)}`;
  }
  if (method.type === 'email' && method.email) {
    const [name = '', domain = ''] = method.email.split('@');
    return `${name.slice(0, 1)}•••@${domain}`;
  }
  return null;
}

export function toMethodView(method: MfaMethodRecord): MfaMethodView {
  return {
    id: method.id,
    type: method.type,
    name: method.name,
    enabled: method.enabled,
    primary: method.primary,
    details: {
      ...(method.phoneNumber ? { phoneNumber: method.phoneNumber } : {}),
      ...(method.email ? { email: method.email } : {}),
    },
    createdAt: method.createdAt,
    lastUsedAt: method.lastUsedAt,
  };
}

export const activeMethods = (user: UserRecord) =>
  user.mfa.methods.filter((method) => method.enabled && method.verified);

function withCode(
  user: UserRecord,
  methodId: string,
  purpose: PendingCode['purpose'],
  code: string,
): PendingCode[] {
  const now = Date.now();
  return [
    ...user.mfa.pendingCodes.filter(
      (pending) =>
        Date.parse(pending.expiresAt) > now &&
        !(pending.methodId === methodId && pending.purpose === purpose),
    ),
    {
      methodId,
      purpose,
      codeHash: keyedHash(code, CODE_PURPOSE),
      expiresAt: new Date(now + CODE_TTL_MINUTES * 60_000).toISOString(),
      attempts: 0,
    },
  ];
}

async function sendCode(method: MfaMethodRecord, code: string): Promise<void> {
  if (method.type === 'sms' && method.phoneNumber)
    await identityMail.mfaCode('sms', method.phoneNumber, code);
  else if (method.type === 'email' && method.email)
    await identityMail.mfaCode('email', method.email, code);
}

/** Ten codes like `k7m2-x9qp`, from an alphabet without look-alike characters. */
function newBackupCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const part = () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return Array.from({ length: BACKUP_CODE_COUNT }, () => `${part()}-${part()}`);
}

const normaliseBackupCode = (code: string) =>
  code
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** Replaces every backup code; the old ones stop working. The codes are shown this once. */
export async function regenerateBackupCodes(user: Stored<UserRecord>) {
  const codes = newBackupCodes();
  const generatedAt = new Date().toISOString();
  const updated = await usersRepo.replace({
    ...user,
    mfa: {
      ...user.mfa,
      backupCodes: {
        hashes: codes.map((code) => keyedHash(normaliseBackupCode(code), BACKUP_PURPOSE)),
        total: codes.length,
        generatedAt,
      },
    },
  });
  return { user: updated, codes, status: backupCodeStatus(updated) };
}

export function backupCodeStatus(user: UserRecord) {
  return {
    generated: Boolean(user.mfa.backupCodes),
    remaining: user.mfa.backupCodes?.hashes.length ?? 0,
    generatedAt: user.mfa.backupCodes?.generatedAt ?? null,
  };
}

/** Starts enrolling a method: an authenticator gets a secret and QR code; sms and email a code. */
export async function startSetup(
  user: Stored<UserRecord>,
  input: { type: MfaMethodRecord['type']; name: string; phoneNumber?: string | undefined },
) {
  const now = Date.now();
  // Unfinished enrolments older than an hour are dropped.
  const kept = user.mfa.methods.filter(
    (method) => method.verified || now - Date.parse(method.createdAt) < 3_600_000,
  );
  if (kept.length >= MAX_METHODS) throw conflict(`You can have at most ${MAX_METHODS} methods`);
  const method: MfaMethodRecord = {
    id: randomUUID(),
    type: input.type,
    name: input.name,
    enabled: false,
    primary: false,
    verified: false,
    ...(input.type === 'sms' ? { phoneNumber: input.phoneNumber } : {}),
    ...(input.type === 'email' ? { email: user.email } : {}),
    createdAt: new Date(now).toISOString(),
    lastUsedAt: null,
  };
  let secret: string | null = null;
  let otpauthUrl: string | null = null;
  let qrCode: string | null = null;
  let code: string | null = null;
  if (input.type === 'authenticator') {
    secret = generateSecret();
    method.sealedSecret = encryptSecret(secret, SECRET_PURPOSE);
    otpauthUrl = generateURI({ issuer: 'Lotwise', label: user.email, secret });
    qrCode = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 });
  } else {
    code = numericCode(6);
  }
  const updated = await usersRepo.replace({
    ...user,
    mfa: {
      ...user.mfa,
      methods: [...kept, method],
      pendingCodes: code ? withCode(user, method.id, 'setup', code) : user.mfa.pendingCodes,
    },
  });
  if (code) await sendCode(method, code);
  return {
    user: updated,
    response: {
      methodId: method.id,
      type: method.type,
      qrCode,
      secret,
      otpauthUrl,
      codeSentTo: maskDestination(method),
      backupCodes: null,
    },
  };
}

/** Checks a TOTP code once: the time step it matched is remembered so it cannot be replayed. */
async function matchTotp(method: MfaMethodRecord, code: string): Promise<number | undefined> {
  if (!method.sealedSecret) return undefined;
  const result = await verifyTotp({
    secret: decryptSecret(method.sealedSecret, SECRET_PURPOSE),
    token: code,
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(method.lastTimeStep !== undefined ? { afterTimeStep: method.lastTimeStep } : {}),
  });
  return result.valid && 'timeStep' in result ? (result.timeStep as number) : undefined;
}

function matchPending(
  user: UserRecord,
  methodId: string,
  purpose: PendingCode['purpose'],
  code: string,
) {
  const pending = user.mfa.pendingCodes.find(
    (candidate) =>
      candidate.methodId === methodId &&
      candidate.purpose === purpose &&
      Date.parse(candidate.expiresAt) > Date.now(),
  );
  if (!pending) return { matched: false, pending: undefined };
  return { matched: safeEqual(pending.codeHash, keyedHash(code, CODE_PURPOSE)), pending };
}

/** Finishes enrolling a method with its first code; the first method also gets backup codes. */
export async function verifySetup(user: Stored<UserRecord>, methodId: string, code: string) {
  const method = user.mfa.methods.find((candidate) => candidate.id === methodId);
  if (!method) throw notFound('Method not found');
  if (method.verified) throw badRequest('This method is already set up');
  let timeStep: number | undefined;
  if (method.type === 'authenticator') {
    timeStep = await matchTotp(method, code);
    if (timeStep === undefined) throw invalidCode();
  } else {
    const { matched, pending } = matchPending(user, methodId, 'setup', code);
    if (!matched) {
      if (pending) await countAttempt(user, pending);
      throw invalidCode();
    }
  }
  const hadActive = activeMethods(user).length > 0;
  const now = new Date().toISOString();
  const methods = user.mfa.methods.map((candidate) =>
    candidate.id === methodId
      ? {
          ...candidate,
          verified: true,
          enabled: true,
          primary: !hadActive,
          lastUsedAt: now,
          ...(timeStep !== undefined ? { lastTimeStep: timeStep } : {}),
        }
      : candidate,
  );
  let updated = await usersRepo.replace({
    ...user,
    mfa: {
      ...user.mfa,
      methods,
      pendingCodes: user.mfa.pendingCodes.filter((pending) => pending.methodId !== methodId),
    },
  });
  let backupCodes: string[] | null = null;
  if (!updated.mfa.backupCodes?.hashes.length) {
    const generated = await regenerateBackupCodes(updated);
    updated = generated.user;
    backupCodes = generated.codes;
  }
  const verified = updated.mfa.methods.find(
    (candidate) => candidate.id === methodId,
  ) as MfaMethodRecord;
  return { user: updated, method: verified, backupCodes };
}

async function countAttempt(user: Stored<UserRecord>, pending: PendingCode): Promise<void> {
  const attempts = pending.attempts + 1;
  await usersRepo
    .replace({
      ...user,
      mfa: {
        ...user.mfa,
        pendingCodes:
          attempts >= MAX_CODE_ATTEMPTS
            ? user.mfa.pendingCodes.filter((candidate) => candidate !== pending)
            : user.mfa.pendingCodes.map((candidate) =>
                candidate === pending ? { ...candidate, attempts } : candidate,
              ),
      },
    })
    .catch(() => undefined);
}

/**
 * Sends a sign-in code to an sms or email method: the one asked for, else the primary one when it
 * is not an authenticator. Returns where it went, or null when no code was needed.
 */
export async function sendLoginCode(
  user: Stored<UserRecord>,
  methodId?: string,
): Promise<string | null> {
  const active = activeMethods(user);
  const method = methodId
    ? active.find((candidate) => candidate.id === methodId)
    : active.find((candidate) => candidate.primary && candidate.type !== 'authenticator');
  if (!method) {
    if (methodId)
      throw validationError([
        { location: 'body', field: 'mfaMethodId', message: 'is not one of your methods' },
      ]);
    return null;
  }
  if (method.type === 'authenticator') return null;
  const recent = user.mfa.pendingCodes.find(
    (pending) => pending.methodId === method.id && pending.purpose === 'login',
  );
  if (
    recent &&
    Date.parse(recent.expiresAt) - CODE_TTL_MINUTES * 60_000 + CODE_RESEND_SECONDS * 1000 >
      Date.now()
  ) {
    throw tooManyRequests(
      'A code was just sent. Wait a few seconds before asking for another.',
      CODE_RESEND_SECONDS,
    );
  }
  const code = numericCode(6);
  await usersRepo.replace({
    ...user,
    mfa: { ...user.mfa, pendingCodes: withCode(user, method.id, 'login', code) },
  });
  await sendCode(method, code);
  return maskDestination(method);
}

/**
 * Accepts a sign-in code: an authenticator code (once), a code sent by text or email, or a backup
 * code (each once). Returns the updated user, or undefined when the code is wrong.
 */
export async function verifyLoginCode(
  user: Stored<UserRecord>,
  rawCode: string,
): Promise<Stored<UserRecord> | undefined> {
  const code = rawCode.trim();
  const now = new Date().toISOString();
  if (/^\d{6}$/.test(code)) {
    for (const method of activeMethods(user)) {
      if (method.type === 'authenticator') {
        const timeStep = await matchTotp(method, code);
        if (timeStep === undefined) continue;
        return usersRepo
          .replace({
            ...user,
            mfa: {
              ...user.mfa,
              methods: user.mfa.methods.map((candidate) =>
                candidate.id === method.id
                  ? { ...candidate, lastTimeStep: timeStep, lastUsedAt: now }
                  : candidate,
              ),
            },
          })
          .catch(() => undefined);
      }
      const { matched, pending } = matchPending(user, method.id, 'login', code);
      if (matched) {
        return usersRepo
          .replace({
            ...user,
            mfa: {
              ...user.mfa,
              methods: user.mfa.methods.map((candidate) =>
                candidate.id === method.id ? { ...candidate, lastUsedAt: now } : candidate,
              ),
              pendingCodes: user.mfa.pendingCodes.filter((candidate) => candidate !== pending),
            },
          })
          .catch(() => undefined);
      }
      if (pending) await countAttempt(user, pending);
    }
    return undefined;
  }
  const hash = keyedHash(normaliseBackupCode(code), BACKUP_PURPOSE);
  const backup = user.mfa.backupCodes;
  if (!backup || !backup.hashes.some((candidate) => safeEqual(candidate, hash))) return undefined;
  // Replacing with the user's ETag makes a code spendable once even under concurrent sign-ins.
  return usersRepo
    .replace({
      ...user,
      mfa: {
        ...user.mfa,
        backupCodes: { ...backup, hashes: backup.hashes.filter((candidate) => candidate !== hash) },
      },
    })
    .catch(() => undefined);
}

export async function updateMethod(
  user: Stored<UserRecord>,
  methodId: string,
  changes: { enabled?: boolean | undefined; name?: string | undefined; primary?: true | undefined },
  policyRequiresMfa: boolean,
) {
  const method = user.mfa.methods.find(
    (candidate) => candidate.id === methodId && candidate.verified,
  );
  if (!method) throw notFound('Method not found');
  const remaining = activeMethods(user).filter((candidate) => candidate.id !== methodId);
  if (changes.enabled === false && policyRequiresMfa && remaining.length === 0) {
    throw conflict(
      'Your account requires two-factor authentication. Add another method before turning this one off.',
    );
  }
  const enabled = changes.enabled ?? method.enabled;
  const primary = changes.primary ?? (enabled ? method.primary : false);
  let methods = user.mfa.methods.map((candidate) =>
    candidate.id === methodId
      ? { ...candidate, enabled, primary, name: changes.name ?? candidate.name }
      : primary
        ? { ...candidate, primary: false }
        : candidate,
  );
  if (!methods.some((candidate) => candidate.primary && candidate.enabled && candidate.verified)) {
    const next = methods.find((candidate) => candidate.enabled && candidate.verified);
    if (next)
      methods = methods.map((candidate) =>
        candidate.id === next.id ? { ...candidate, primary: true } : candidate,
      );
  }
  const updated = await usersRepo.replace({ ...user, mfa: { ...user.mfa, methods } });
  return {
    user: updated,
    method: updated.mfa.methods.find((candidate) => candidate.id === methodId) as MfaMethodRecord,
  };
}

export async function removeMethod(
  user: Stored<UserRecord>,
  methodId: string,
  policyRequiresMfa: boolean,
) {
  const method = user.mfa.methods.find((candidate) => candidate.id === methodId);
  if (!method) throw notFound('Method not found');
  const remaining = activeMethods(user).filter((candidate) => candidate.id !== methodId);
  if (method.enabled && method.verified && policyRequiresMfa && remaining.length === 0) {
    throw conflict(
      'Your account requires two-factor authentication. Add another method before removing this one.',
    );
  }
  let methods = user.mfa.methods.filter((candidate) => candidate.id !== methodId);
  if (method.primary && remaining[0]) {
    methods = methods.map((candidate) =>
      candidate.id === remaining[0]?.id ? { ...candidate, primary: true } : candidate,
    );
  }
  // With no method left, backup codes would be a way in on their own; they go too.
  const backupCodes = remaining.length ? user.mfa.backupCodes : null;
  return usersRepo.replace({
    ...user,
    mfa: {
      ...user.mfa,
      methods,
      backupCodes,
      pendingCodes: user.mfa.pendingCodes.filter((pending) => pending.methodId !== methodId),
    },
  });
}

/** Records a change to the caller's own sign-in security in the account they are working in. */
export async function auditSecurity(ctx: UserContext, action: string, after?: unknown) {
  await writeAudit(ctx, {
    action,
    entity: { type: 'user', id: ctx.actor.userId },
    ...(after === undefined ? {} : { after }),
  });
}
