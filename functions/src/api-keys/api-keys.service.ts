import { randomBytes } from 'node:crypto';
import { accountIsOpen } from '../identity/accounts/accounts.service.js';
import { currentPermissions } from '../identity/permissions.js';
import { writeAudit } from '../platform/audit.js';
import type { RequestContext, UserContext } from '../platform/context.js';
import { unauthorized } from '../platform/errors.js';
import type { ApiKeyPrincipal, ApiKeyVerifier } from '../platform/principal.js';
import type { Stored } from '../platform/repo.js';
import { safeEqual, sha256 } from '../platform/secrets.js';
import { settings } from '../platform/settings.js';
import { validationError } from '../platform/validation.js';
import type { ApiKey, ApiKeyCreate, ApiKeyCreated } from './api-keys.schema.js';
import { apiKeysRepo, type ApiKeyRecord } from './api-keys.repo.js';

/**
 * A key reads `lw_{live|test}_{accountId}_{keyId}_{secret}`: recognisable by its prefix (and by
 * secret scanners), and carrying the account and id it is looked up by, so verifying it is one
 * point read. The key id and secret are hex, so the account id is whatever lies between.
 */
const KEY_ID_BYTES = 8;
const SECRET_BYTES = 24;
const hex = (bytes: number) => `[0-9a-f]{${bytes * 2}}`;
const keyShape = new RegExp(`^lw_(live|test)_(.+)_(${hex(KEY_ID_BYTES)})_(${hex(SECRET_BYTES)})$`);

/** Production keys say `live`; keys of development and test stacks say `test`. */
export const keyPrefix = () => (settings().ENVIRONMENT === 'production' ? 'lw_live_' : 'lw_test_');

export function parseApiKey(key: string): { accountId: string; keyId: string } | undefined {
  const match = keyShape.exec(key);
  if (!match || `lw_${match[1]}_` !== keyPrefix()) return undefined;
  return { accountId: match[2] as string, keyId: match[3] as string };
}

/** The requested permissions the creator does not hold, each named as a field of the body. */
export function permissionsBeyond(ctx: Pick<RequestContext, 'can'>, requested: string[]) {
  return requested.flatMap((permission, index) =>
    ctx.can(permission)
      ? []
      : [
          {
            location: 'body' as const,
            field: `permissions.${index}`,
            message: `is a permission you do not hold (${permission})`,
          },
        ],
  );
}

const toView = (record: ApiKeyRecord): ApiKey => ({
  id: record.id,
  name: record.name,
  permissions: record.permissions,
  prefix: record.prefix,
  lastFour: record.lastFour,
  createdAt: record.createdAt,
  createdBy: record.createdBy,
  lastUsedAt: record.lastUsedAt,
  revokedAt: record.revokedAt,
  revokedBy: record.revokedBy,
});

/** What the audit keeps of a key: never its hash. */
const audited = ({ hash: _hash, ...rest }: ApiKeyRecord) => rest;

export async function listApiKeys(ctx: RequestContext): Promise<ApiKey[]> {
  const records = await apiKeysRepo.all(ctx.scope, { orderBy: 'c.createdAt DESC' });
  return records.map(toView);
}

/**
 * Creates a key with some of the creator's own permissions (never more) and answers it once; only
 * its hash is kept. Keys are managed by people: a key's request never gets this far (it cannot
 * hold `system:api_keys`).
 */
export async function createApiKey(ctx: UserContext, input: ApiKeyCreate): Promise<ApiKeyCreated> {
  const beyond = permissionsBeyond(ctx, input.permissions);
  if (beyond.length) throw validationError(beyond);
  const keyId = randomBytes(KEY_ID_BYTES).toString('hex');
  const secret = randomBytes(SECRET_BYTES).toString('hex');
  const key = `${keyPrefix()}${ctx.scope.accountId}_${keyId}_${secret}`;
  const person = { userId: ctx.actor.userId, name: ctx.actor.name };
  const record: Omit<ApiKeyRecord, 'accountId'> = {
    id: keyId,
    name: input.name,
    permissions: [...new Set(input.permissions)],
    hash: sha256(key),
    prefix: keyPrefix(),
    lastFour: secret.slice(-4),
    createdAt: new Date().toISOString(),
    createdBy: person,
    lastUsedAt: null,
    revokedAt: null,
    revokedBy: null,
  };
  const created = await apiKeysRepo.create(ctx.scope, record);
  await writeAudit(ctx, {
    action: 'apiKey.create',
    entity: { type: 'apiKey', id: keyId },
    after: audited(created),
  });
  return { ...toView(created), key };
}

/** Revokes a key at once: its next request is a 401. Revoking a revoked key changes nothing. */
export async function revokeApiKey(ctx: UserContext, id: string): Promise<ApiKey> {
  const current = await apiKeysRepo.get(ctx.scope, id, 'API key');
  if (current.revokedAt) return toView(current);
  const revoked = await apiKeysRepo.patch(ctx.scope, id, [
    { op: 'set', path: '/revokedAt', value: new Date().toISOString() },
    { op: 'set', path: '/revokedBy', value: { userId: ctx.actor.userId, name: ctx.actor.name } },
  ]);
  await writeAudit(ctx, {
    action: 'apiKey.revoke',
    entity: { type: 'apiKey', id },
    before: audited(current),
    after: audited(revoked),
  });
  return toView(revoked);
}

/** How often a key's `lastUsedAt` is written at most: not on every request. */
const LAST_USED_EVERY_MS = 60_000;
// In-process too, so a burst of requests arriving together does not write once each.
const lastTouched = new Map<string, number>();

async function noteUse(record: Stored<ApiKeyRecord>): Promise<void> {
  const now = Date.now();
  const stored = record.lastUsedAt ? Date.parse(record.lastUsedAt) : 0;
  const touched = Math.max(stored, lastTouched.get(record.id) ?? 0);
  if (now - touched < LAST_USED_EVERY_MS) return;
  lastTouched.set(record.id, now);
  // Bookkeeping only: a lost write leaves an older date and must not fail the caller's request.
  await apiKeysRepo
    .patch({ accountId: record.accountId }, record.id, [
      { op: 'set', path: '/lastUsedAt', value: new Date(now).toISOString() },
    ])
    .catch(() => lastTouched.delete(record.id));
}

const notValid = () => unauthorized('The API key is not valid');

/** Verifies a key: it must exist, match its hash, be unrevoked and its account open. */
export async function verifyApiKey(key: string): Promise<ApiKeyPrincipal> {
  const parsed = parseApiKey(key);
  if (!parsed) throw notValid();
  const scope = { accountId: parsed.accountId };
  const [record, open] = await Promise.all([
    apiKeysRepo.find(scope, parsed.keyId),
    accountIsOpen(parsed.accountId),
  ]);
  if (!record || !safeEqual(record.hash, sha256(key))) throw notValid();
  if (record.revokedAt) throw unauthorized('The API key has been revoked');
  if (!open) throw notValid();
  await noteUse(record);
  return {
    kind: 'api_key',
    keyId: record.id,
    name: record.name,
    accountId: record.accountId,
    // Renamed catalogue keys follow their new names, as a member's stored permissions do.
    permissions: new Set(currentPermissions(record.permissions)),
  };
}

/** What the platform's HTTP wrapper uses to tell keys from tokens and check them. */
export const apiKeyVerifier: ApiKeyVerifier = {
  recognises: (token) => /^lw_(live|test)_/.test(token),
  verify: verifyApiKey,
};
