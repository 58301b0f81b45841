import { z } from 'zod';
import { allPermissions, type Permission } from '../identity/permissions.js';
import { permissionSchema } from '../identity/shared/common.schema.js';

/**
 * Contracts of the house's API keys. A key's scopes are permissions of the catalogue: the routes
 * it may call are those whose declared permission it holds, checked exactly as for a person.
 */

/**
 * What a key may be given: any permission but managing keys and webhooks, so a leaked key can
 * neither mint keys nor set up a webhook that would keep sending the account's data after the
 * key is revoked.
 */
const peopleOnly = ['system:api_keys', 'system:webhooks'] as const;
export type ApiKeyPermission = Exclude<Permission, (typeof peopleOnly)[number]>;
const keyMay = (permission: string): permission is ApiKeyPermission =>
  !(peopleOnly as readonly string[]).includes(permission);
export const apiKeyPermissions: readonly ApiKeyPermission[] = allPermissions.filter(keyMay);

export const apiKeyCreateSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(80),
  permissions: z
    .array(
      permissionSchema.refine(keyMay, {
        message: 'cannot be given to an API key (keys manage neither keys nor webhooks)',
      }),
    )
    .min(1, 'choose at least one permission')
    .max(allPermissions.length),
});
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  permissions: z.array(z.string()),
  /** How the key begins (`lw_live_` or `lw_test_`) and its last four characters, to recognise it. */
  prefix: z.string(),
  lastFour: z.string(),
  createdAt: z.string(),
  createdBy: z.object({ userId: z.string(), name: z.string() }),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.object({ userId: z.string(), name: z.string() }).nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** The answer to a creation: the only time the key itself is ever shown. */
export const apiKeyCreatedSchema = apiKeySchema.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;
