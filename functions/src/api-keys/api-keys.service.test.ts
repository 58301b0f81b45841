import { describe, expect, it } from 'vitest';
import { useSampleSettings } from '../../dev/local-settings.js';

useSampleSettings();
const { parseApiKey, permissionsBeyond } = await import('./api-keys.service.js');
const { apiKeyCreateSchema } = await import('./api-keys.schema.js');

const keyId = '0123456789abcdef';
const secret = 'ab'.repeat(24);

describe('API key format', () => {
  it('reads the account and key id from a key of this environment', () => {
    expect(parseApiKey(`lw_test_acc-1_${keyId}_${secret}`)).toEqual({
      accountId: 'acc-1',
      keyId,
    });
    // The account id is whatever lies between the prefix and the hex parts, underscores too.
    expect(parseApiKey(`lw_test_acc_with_parts_${keyId}_${secret}`)?.accountId).toBe(
      'acc_with_parts',
    );
  });

  it('refuses keys of another environment or of the wrong shape', () => {
    expect(parseApiKey(`lw_live_acc-1_${keyId}_${secret}`)).toBeUndefined();
    expect(parseApiKey(`lw_test_acc-1_${keyId}_${secret.slice(2)}`)).toBeUndefined();
    expect(parseApiKey(`lw_test_acc-1_${keyId.toUpperCase()}_${secret}`)).toBeUndefined();
    expect(parseApiKey(`lw_test__${keyId}_${secret}`)).toBeUndefined();
    expect(parseApiKey('Bearer something')).toBeUndefined();
  });
});

describe('a key’s permissions', () => {
  it('names, as body fields, every permission the creator does not hold', () => {
    const staffLike = { can: (permission: string) => permission.startsWith('bidders:') };
    expect(
      permissionsBeyond(staffLike, ['bidders:view', 'auctions:close', 'bidders:edit']),
    ).toEqual([
      {
        location: 'body',
        field: 'permissions.1',
        message: 'is a permission you do not hold (auctions:close)',
      },
    ]);
    expect(permissionsBeyond({ can: () => true }, ['bidders:view'])).toEqual([]);
  });

  it('are catalogue permissions, at least one, never managing keys or webhooks', () => {
    const parse = (permissions: unknown) =>
      apiKeyCreateSchema.safeParse({ name: 'Sync', permissions });
    expect(parse(['bidders:view']).success).toBe(true);
    expect(parse([]).success).toBe(false);
    expect(parse(['bidders:fly']).success).toBe(false);
    expect(parse(['system:api_keys']).success).toBe(false);
    expect(parse(['system:webhooks']).success).toBe(false);
  });
});
