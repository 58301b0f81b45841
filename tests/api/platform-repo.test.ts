import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { usePlatformEnvironment } from '../support/platform-env.js';

usePlatformEnvironment();
const { bootstrapCosmos, container } = await import('../../functions/src/platform/cosmos.js');
const { TenantRepository } = await import('../../functions/src/platform/repo.js');
const { toAppError } = await import('../../functions/src/platform/error-mapping.js');
const { writeAudit, auditContainer } = await import('../../functions/src/platform/audit.js');
const { isConflict, isNotFound, isStale } =
  await import('../../functions/src/platform/cosmos-errors.js');

interface Thing {
  id: string;
  accountId: string;
  name: string;
  rank: number;
}

const things = new TenantRepository<Thing>('platform-test-things');
const accountA = { accountId: `acct-a-${randomUUID()}` };
const accountB = { accountId: `acct-b-${randomUUID()}` };

beforeAll(async () => {
  await bootstrapCosmos([
    {
      id: 'platform-test-things',
      partitionKey: '/accountId',
      compositeIndexes: [
        [
          { path: '/rank', order: 'descending' },
          { path: '/id', order: 'ascending' },
        ],
      ],
    },
    auditContainer,
  ]);
  for (let rank = 0; rank < 25; rank += 1) {
    await things.create(accountA, {
      id: `thing-${String(rank).padStart(2, '0')}`,
      name: `A${rank}`,
      rank,
    });
  }
  await things.create(accountB, { id: 'thing-00', name: 'B0', rank: 99 });
});

describe('TenantRepository', () => {
  it('sets the tenant from the scope, never from the document', async () => {
    const created = await things.create(accountB, {
      id: 'sneaky',
      name: 'x',
      rank: 1,
      accountId: accountA.accountId,
    } as unknown as Thing);
    expect(created.accountId).toBe(accountB.accountId);
    expect(await things.find(accountA, 'sneaky')).toBeUndefined();
  });

  it('never returns another tenant’s document with the same id', async () => {
    expect((await things.get(accountA, 'thing-00')).name).toBe('A0');
    expect((await things.get(accountB, 'thing-00')).name).toBe('B0');
    const missing = await things.get(accountB, 'thing-01').catch((error: unknown) => error);
    expect(toAppError(missing)?.status).toBe(404);
  });

  it('finds nothing for an id no document can have, where Cosmos would throw', async () => {
    for (const id of ['a/b', 'a\\b', '#x', 'a?b', ' ', '\r\n']) {
      expect(await things.find(accountA, id)).toBeUndefined();
      const outcomes = await Promise.all(
        [
          things.get(accountA, id),
          things.delete(accountA, id),
          things.replace(
            accountA,
            { id, accountId: accountA.accountId, name: 'x', rank: 0 },
            '"e"',
          ),
          things.patch(accountA, id, [{ op: 'set', path: '/name', value: 'x' }]),
        ].map((attempt) => attempt.catch((error: unknown) => error)),
      );
      expect(outcomes.map((error) => toAppError(error)?.status)).toEqual([404, 404, 404, 404]);
    }
  });

  it('pages in order by continuation token, within the tenant only', async () => {
    const seen: Thing[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await things.page(accountA, {
        orderBy: 'c.rank DESC, c.id ASC',
        pageSize: 10,
        ...(token ? { continuationToken: token } : {}),
      });
      seen.push(...page.items);
      token = page.continuationToken;
      pages += 1;
    } while (token);
    expect(pages).toBe(3);
    expect(seen.map((thing) => thing.rank)).toEqual([...Array(25).keys()].reverse());
    expect(await things.count(accountA)).toBe(25);
    expect(
      await things.count(accountA, {
        where: 'c.rank >= @min',
        parameters: [{ name: '@min', value: 20 }],
      }),
    ).toBe(5);
  });

  it('refuses a garbled page token with a 400 naming it', async () => {
    const error = await things
      .page(accountA, { pageSize: 5, continuationToken: 'not-a-token!' })
      .catch((caught: unknown) => caught);
    expect(toAppError(error)).toMatchObject({
      status: 400,
      message: 'continuationToken: is not a valid page token',
    });
  });

  it('replaces with If-Match and answers a stale ETag with 412, keeping the newer write', async () => {
    const original = await things.get(accountA, 'thing-05');
    const first = await things.replace(
      accountA,
      { ...original, name: 'first edit' },
      original._etag,
    );
    const stale = await things
      .replace(accountA, { ...original, name: 'lost edit' }, original._etag)
      .catch((error: unknown) => error);
    expect(toAppError(stale)?.status).toBe(412);
    const current = await things.get(accountA, 'thing-05');
    expect(current.name).toBe('first edit');
    expect(current._etag).toBe(first._etag);
  });

  it('refuses callers that try to set the tenant parameter themselves', async () => {
    await expect(
      things.page(accountA, {
        pageSize: 1,
        where: 'true',
        parameters: [{ name: '@accountId', value: accountB.accountId }],
      }),
    ).rejects.toThrow(/@accountId/);
  });
});

describe('TenantRepository.batch and patch', () => {
  it('writes a batch all or nothing, in the caller’s partition only', async () => {
    const written = await things.batch(accountB, [
      { op: 'create', document: { id: 'batch-1', name: 'one', rank: 1 } },
      { op: 'upsert', document: { id: 'batch-2', name: 'two', rank: 2 } },
    ]);
    expect(written.map((thing) => thing.accountId)).toEqual([
      accountB.accountId,
      accountB.accountId,
    ]);
    const error = await things
      .batch(accountB, [
        { op: 'create', document: { id: 'batch-3', name: 'three', rank: 3 } },
        { op: 'create', document: { id: 'batch-1', name: 'again', rank: 1 } },
      ])
      .catch((caught: unknown) => caught);
    expect(isConflict(error)).toBe(true);
    expect(await things.find(accountB, 'batch-3')).toBeUndefined();
    expect(await things.find(accountA, 'batch-1')).toBeUndefined();
  });

  it('refuses a batch replace or delete against a stale ETag, changing nothing', async () => {
    const current = await things.get(accountB, 'batch-1');
    await things.replace(accountB, { ...current, name: 'changed' }, current._etag);
    const error = await things
      .batch(accountB, [
        { op: 'replace', document: { ...current, name: 'stale' }, etag: current._etag },
      ])
      .catch((caught: unknown) => caught);
    expect(isStale(error)).toBe(true);
    expect((await things.get(accountB, 'batch-1')).name).toBe('changed');
  });

  it('patches paths in place, guarded by an ETag or a condition', async () => {
    const before = await things.get(accountB, 'batch-2');
    const patched = await things.patch(accountB, 'batch-2', [
      { op: 'set', path: '/name', value: 'patched' },
    ]);
    expect(patched.name).toBe('patched');
    expect(patched.rank).toBe(2);
    const stale = await things
      .patch(accountB, 'batch-2', [{ op: 'set', path: '/name', value: 'x' }], {
        etag: before._etag,
      })
      .catch((caught: unknown) => caught);
    expect(isStale(stale)).toBe(true);
    const unmet = await things
      .patch(accountB, 'batch-2', [{ op: 'set', path: '/name', value: 'x' }], {
        condition: 'FROM c WHERE c.rank = 3',
      })
      .catch((caught: unknown) => caught);
    expect(isStale(unmet)).toBe(true);
    expect((await things.get(accountB, 'batch-2')).name).toBe('patched');
  });

  it('patches in a batch, each guarded by its ETag, all or none', async () => {
    const [one, two] = await things.batch(accountB, [
      { op: 'create', document: { id: 'patch-1', name: 'one', rank: 1 } },
      { op: 'create', document: { id: 'patch-2', name: 'two', rank: 2 } },
    ]);
    const patched = await things.batch(accountB, [
      {
        op: 'patch',
        id: 'patch-1',
        operations: [{ op: 'set', path: '/rank', value: 10 }],
        etag: one?._etag as string,
      },
      {
        op: 'patch',
        id: 'patch-2',
        operations: [{ op: 'set', path: '/rank', value: 20 }],
        etag: two?._etag as string,
      },
    ]);
    expect(patched.map((thing) => [thing.name, thing.rank])).toEqual([
      ['one', 10],
      ['two', 20],
    ]);
    // The second's ETag is the one read before: the batch is refused and the first not patched.
    const stale = await things
      .batch(accountB, [
        {
          op: 'patch',
          id: 'patch-1',
          operations: [{ op: 'set', path: '/rank', value: 11 }],
          etag: patched[0]?._etag as string,
        },
        {
          op: 'patch',
          id: 'patch-2',
          operations: [{ op: 'set', path: '/rank', value: 21 }],
          etag: two?._etag as string,
        },
      ])
      .catch((caught: unknown) => caught);
    expect(isStale(stale)).toBe(true);
    expect((await things.get(accountB, 'patch-1')).rank).toBe(10);
    expect((await things.get(accountB, 'patch-2')).rank).toBe(20);
    await expect(
      things.batch(accountB, [
        {
          op: 'patch',
          id: 'patch-1',
          operations: [{ op: 'set', path: '/accountId', value: accountA.accountId }],
        },
      ]),
    ).rejects.toThrow(/tenant/);
  });

  it('cannot patch another tenant’s document or move a document to another tenant', async () => {
    const missing = await things
      .patch(accountA, 'batch-2', [{ op: 'set', path: '/name', value: 'x' }])
      .catch((caught: unknown) => caught);
    expect(isNotFound(missing)).toBe(true);
    await expect(
      things.patch(accountB, 'batch-2', [
        { op: 'set', path: '/accountId', value: accountA.accountId },
      ]),
    ).rejects.toThrow(/tenant/);
  });
});

describe('writeAudit', () => {
  it('records who changed what, when, before and after', async () => {
    const entry = await writeAudit(
      {
        scope: accountA,
        actor: { kind: 'user', userId: 'user-a', name: 'Ada' },
        correlationId: 'corr-1',
      },
      {
        action: 'thing.update',
        entity: { type: 'thing', id: 'thing-05' },
        before: { name: 'A5' },
        after: { name: 'first edit' },
      },
    );
    const { resource } = await container('audit').item(entry.id, accountA.accountId).read();
    expect(resource).toMatchObject({
      accountId: accountA.accountId,
      correlationId: 'corr-1',
      actor: { userId: 'user-a', kind: 'user', name: 'Ada' },
      action: 'thing.update',
      entity: { type: 'thing', id: 'thing-05' },
      before: { name: 'A5' },
      after: { name: 'first edit' },
    });
    expect(Date.parse(resource.at)).toBeGreaterThan(Date.now() - 60_000);
  });
});
