import { randomInt, randomUUID } from 'node:crypto';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import QRCode from 'qrcode';
import { writeAudit } from '../../platform/audit.js';
import type { UserContext } from '../../platform/context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import type { Stored } from '../../platform/repo.js';
import { decryptSecret, encryptSecret, keyedHash, safeEqual } from '../../platform/secrets.js';
import { validationError } from '../../platform/validation.js';
import { issueCode, spendCode } from '../sessions/one-time-tokens.service.js';
import { identityMail } from '../shared/identity.mail.js';
import type { MfaMethodRecord, UserRecord } from '../shared/identity.model.js';
import { hasVerifiedMfa, signedInUser } from '../shared/users.service.js';
import {
  BACKUP_CODE_COUNT,
  type MfaMethodUpdate,
  type MfaMethodView,
  type MfaSetupRequest,
} from './mfa.schema.js';
import { mfaRepo } from './mfa.repo.js';
import { myMfaDeadline, policyRequiresMfa } from './security.service.js';

/** A person's own two-factor methods and backup codes, and the second step of signing in. */

const SECRET_PURPOSE = 'totp-secret';
const BACKUP_PURPOSE = 'backup-code';
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

/** A method as its owner sees it, with the ETag of the record that holds it. */
function toMethodView(method: MfaMethodRecord, etag: string): MfaMethodView {
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
    etag,
  };
}

export const activeMethods = (user: UserRecord) =>
  user.mfa.methods.filter((method) => method.enabled && method.verified);

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

/** A fresh set of backup codes: the codes to show this once, and their hashes to keep. */
function backupCodeSet() {
  const codes = newBackupCodes();
  return {
    codes,
    stored: {
      hashes: codes.map((code) => keyedHash(normaliseBackupCode(code), BACKUP_PURPOSE)),
      total: codes.length,
      generatedAt: new Date().toISOString(),
    },
  };
}

function backupCodeStatus(user: UserRecord) {
  return {
    generated: Boolean(user.mfa.backupCodes),
    remaining: user.mfa.backupCodes?.hashes.length ?? 0,
    generatedAt: user.mfa.backupCodes?.generatedAt ?? null,
  };
}

/** Records a change to the caller's own sign-in security in the account they are working in. */
async function auditSecurity(ctx: UserContext, action: string, after?: unknown) {
  await writeAudit(ctx, {
    action,
    entity: { type: 'user', id: ctx.actor.userId },
    ...(after === undefined ? {} : { after }),
  });
}

export async function mfaStatus(ctx: UserContext) {
  const [user, deadline] = await Promise.all([signedInUser(ctx), myMfaDeadline(ctx)]);
  return {
    enabled: hasVerifiedMfa(user),
    methods: activeMethods(user).length,
    backupCodesRemaining: backupCodeStatus(user).remaining,
    requiredByPolicy: Boolean(deadline),
    setupDueBy: deadline && !hasVerifiedMfa(user) ? deadline.toISOString() : null,
  };
}

export async function listMethods(ctx: UserContext): Promise<MfaMethodView[]> {
  const user = await signedInUser(ctx);
  return user.mfa.methods
    .filter((method) => method.verified)
    .map((method) => toMethodView(method, user._etag));
}

export async function getMethod(ctx: UserContext, methodId: string): Promise<MfaMethodView> {
  const user = await signedInUser(ctx);
  const method = user.mfa.methods.find(
    (candidate) => candidate.id === methodId && candidate.verified,
  );
  if (!method) throw notFound('Method not found');
  return toMethodView(method, user._etag);
}

export async function backupCodes(ctx: UserContext) {
  return backupCodeStatus(await signedInUser(ctx));
}

/** Replaces every backup code; the old ones stop working. The codes are shown this once. */
export async function regenerateBackupCodes(ctx: UserContext) {
  const user = await signedInUser(ctx);
  const { codes, stored } = backupCodeSet();
  const updated = await mfaRepo.saveMethods(
    user.id,
    { ...user.mfa, backupCodes: stored },
    user._etag,
  );
  await auditSecurity(ctx, 'mfa.backup-codes-generate');
  return { ...backupCodeStatus(updated), codes };
}

/** Starts enrolling a method: an authenticator gets a secret and QR code; sms and email a code. */
export async function startSetup(ctx: UserContext, input: MfaSetupRequest) {
  const user = await signedInUser(ctx);
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
  if (input.type === 'authenticator') {
    secret = generateSecret();
    method.sealedSecret = encryptSecret(secret, SECRET_PURPOSE);
    otpauthUrl = generateURI({ issuer: 'Lotwise', label: user.email, secret });
    qrCode = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 });
  }
  await mfaRepo.saveMethods(user.id, { ...user.mfa, methods: [...kept, method] }, user._etag);
  if (input.type !== 'authenticator') {
    await sendCode(method, await issueCode('mfa-setup', user.id, method.id));
  }
  return {
    methodId: method.id,
    type: method.type,
    qrCode,
    secret,
    otpauthUrl,
    codeSentTo: maskDestination(method),
    backupCodes: null,
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

/** Finishes enrolling a method with its first code; the first method also gets backup codes. */
export async function verifySetup(ctx: UserContext, methodId: string, code: string) {
  const user = await signedInUser(ctx);
  const method = user.mfa.methods.find((candidate) => candidate.id === methodId);
  if (!method) throw notFound('Method not found');
  if (method.verified) throw badRequest('This method is already set up');
  let timeStep: number | undefined;
  if (method.type === 'authenticator') {
    timeStep = await matchTotp(method, code);
    if (timeStep === undefined) throw invalidCode();
  } else if ((await spendCode('mfa-setup', user.id, methodId, code)) !== 'accepted') {
    throw invalidCode();
  }
  const hadActive = activeMethods(user).length > 0;
  const verified: MfaMethodRecord = {
    ...method,
    verified: true,
    enabled: true,
    primary: !hadActive,
    lastUsedAt: new Date().toISOString(),
    ...(timeStep !== undefined ? { lastTimeStep: timeStep } : {}),
  };
  const fresh = user.mfa.backupCodes?.hashes.length ? undefined : backupCodeSet();
  const updated = await mfaRepo.saveMethods(
    user.id,
    {
      methods: user.mfa.methods.map((candidate) =>
        candidate.id === methodId ? verified : candidate,
      ),
      backupCodes: fresh ? fresh.stored : user.mfa.backupCodes,
    },
    user._etag,
  );
  await auditSecurity(ctx, 'mfa.method-add', { type: method.type, name: method.name });
  return {
    verified: true as const,
    method: toMethodView(verified, updated._etag),
    backupCodes: fresh?.codes ?? null,
  };
}

/** Turns a method on or off, renames it or makes it primary, as the caller saw it at `etag`. */
export async function updateMethod(
  ctx: UserContext,
  methodId: string,
  etag: string,
  changes: MfaMethodUpdate,
): Promise<MfaMethodView> {
  const user = await signedInUser(ctx);
  const method = user.mfa.methods.find(
    (candidate) => candidate.id === methodId && candidate.verified,
  );
  if (!method) throw notFound('Method not found');
  const remaining = activeMethods(user).filter((candidate) => candidate.id !== methodId);
  if (changes.enabled === false && remaining.length === 0 && (await policyRequiresMfa(ctx))) {
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
  const updated = await mfaRepo.saveMethods(user.id, { ...user.mfa, methods }, etag);
  await auditSecurity(ctx, 'mfa.method-update', { id: methodId, ...changes });
  return toMethodView(
    updated.mfa.methods.find((candidate) => candidate.id === methodId) as MfaMethodRecord,
    updated._etag,
  );
}

export async function removeMethod(ctx: UserContext, methodId: string): Promise<void> {
  const user = await signedInUser(ctx);
  const method = user.mfa.methods.find((candidate) => candidate.id === methodId);
  if (!method) throw notFound('Method not found');
  const remaining = activeMethods(user).filter((candidate) => candidate.id !== methodId);
  if (
    method.enabled &&
    method.verified &&
    remaining.length === 0 &&
    (await policyRequiresMfa(ctx))
  ) {
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
  await mfaRepo.saveMethods(user.id, { methods, backupCodes }, user._etag);
  await auditSecurity(ctx, 'mfa.method-remove', { id: methodId });
}

// ---- The second step of signing in ----

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
  await sendCode(method, await issueCode('mfa-login', user.id, method.id));
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
  // Saving with the ETag the user was read at makes each code spendable once, even when two
  // sign-ins race; the loser is told the code is wrong.
  const save = (mfa: UserRecord['mfa']) =>
    mfaRepo.saveMethods(user.id, mfa, user._etag).catch(() => undefined);
  const used = (methodId: string, changes: Partial<MfaMethodRecord> = {}) =>
    save({
      ...user.mfa,
      methods: user.mfa.methods.map((candidate) =>
        candidate.id === methodId ? { ...candidate, ...changes, lastUsedAt: now } : candidate,
      ),
    });
  if (/^\d{6}$/.test(code)) {
    for (const method of activeMethods(user)) {
      if (method.type === 'authenticator') {
        const timeStep = await matchTotp(method, code);
        if (timeStep !== undefined) return used(method.id, { lastTimeStep: timeStep });
      } else if ((await spendCode('mfa-login', user.id, method.id, code)) === 'accepted') {
        return used(method.id);
      }
    }
    return undefined;
  }
  const hash = keyedHash(normaliseBackupCode(code), BACKUP_PURPOSE);
  const backup = user.mfa.backupCodes;
  if (!backup || !backup.hashes.some((candidate) => safeEqual(candidate, hash))) return undefined;
  return save({
    ...user.mfa,
    backupCodes: { ...backup, hashes: backup.hashes.filter((candidate) => candidate !== hash) },
  });
}
