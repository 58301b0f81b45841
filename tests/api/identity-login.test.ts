import { afterEach, describe, expect, it } from 'vitest';
import { THROTTLE_RULES } from '../../functions/src/identity/auth/login-throttle.js';
import { REFRESH_REUSE_GRACE_MS } from '../../functions/src/identity/sessions/sessions.service.js';
import {
  call,
  clearThrottle,
  database,
  demo,
  DEMO_PASSWORD,
  GOOD_PASSWORD,
  login,
  type Reply,
  type Session,
  signedIn,
  signup,
  uniqueEmail,
} from '../support/identity.js';

afterEach(clearThrottle);

const refresh = (refreshToken: string) =>
  call<{ accessToken: string; refreshToken: string }>('POST', '/me/refresh', {
    body: { refreshToken },
  });

/** A refresh token's stored record: `r1.{userId}.{tokenId}.{secret}`. */
function tokenParts(refreshToken: string) {
  const [, userId, tokenId] = refreshToken.split('.');
  return { userId: userId as string, tokenId: tokenId as string };
}

/** Moves a spent token's spending back in time, as if the grace had passed. */
async function ageSpentToken(refreshToken: string, ms: number) {
  const { userId, tokenId } = tokenParts(refreshToken);
  const { db, dispose } = await database();
  try {
    const item = db.container('sessions').item(tokenId, userId);
    const { resource } = await item.read<{ usedAt: string }>();
    if (!resource?.usedAt) throw new Error('the token was not spent');
    await item.replace({
      ...resource,
      usedAt: new Date(Date.parse(resource.usedAt) - ms).toISOString(),
    });
  } finally {
    dispose();
  }
}

/** How many unspent refresh tokens the token's session has. */
async function liveTokens(refreshToken: string) {
  const { userId, tokenId } = tokenParts(refreshToken);
  const { db, dispose } = await database();
  try {
    const sessions = db.container('sessions');
    const { resource } = await sessions.item(tokenId, userId).read<{ sessionId: string }>();
    const { resources } = await sessions.items
      .query<{ id: string }>(
        {
          query:
            "SELECT c.id FROM c WHERE c.userId = @userId AND c.type = 'refresh' AND c.sessionId = @sessionId AND IS_NULL(c.usedAt)",
          parameters: [
            { name: '@userId', value: userId },
            { name: '@sessionId', value: resource?.sessionId ?? '' },
          ],
        },
        { partitionKey: userId },
      )
      .fetchAll();
    return resources.length;
  } finally {
    dispose();
  }
}

async function timed<T>(send: () => Promise<T>): Promise<T & { ms: number }> {
  const started = performance.now();
  const reply = await send();
  return Object.assign(reply as T & object, { ms: performance.now() - started }) as T & {
    ms: number;
  };
}

/** `count` calls, at most `atOnce` in flight, in the order they were started. */
async function inBatches<T>(count: number, atOnce: number, send: () => Promise<T>): Promise<T[]> {
  const replies: T[] = [];
  for (let start = 0; start < count; start += atOnce) {
    replies.push(
      ...(await Promise.all(Array.from({ length: Math.min(atOnce, count - start) }, send))),
    );
  }
  return replies;
}

describe('POST /login', () => {
  it('selects the only account at once', async () => {
    const reply = await login(demo.owner, DEMO_PASSWORD);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 'signed-in', accountSelection: 'selected' });
    expect(reply.body.account?.name).toBe('Harborview Auctions');
    expect(reply.body.accessToken).toBeTruthy();
  });

  it('leaves the choice to the person when they have several accounts', async () => {
    const reply = await login(demo.admin, DEMO_PASSWORD);
    expect(reply.body.accountSelection).toBe('pending');
    expect(reply.body.accessToken).toBeUndefined();
    expect(reply.body.accounts.map((account) => [account.accountName, account.roles])).toEqual([
      ['Harborview Auctions', ['admin']],
      ['Lakeside Auction Gallery', ['staff']],
    ]);
    const lakeside = reply.body.accounts.find(
      (account) => account.accountName === 'Lakeside Auction Gallery',
    );
    const chosen = await call<{ accessToken: string; account: { name: string; role: string } }>(
      'POST',
      '/tokens/access',
      {
        token: reply.body.sessionToken,
        body: { userId: reply.body.user.id, accountId: lakeside?.accountId },
      },
    );
    expect(chosen.status).toBe(200);
    expect(chosen.body.account).toMatchObject({ name: 'Lakeside Auction Gallery', role: 'staff' });
  });

  it('says when the person belongs to no account', async () => {
    const email = uniqueEmail('orphan');
    const created = await signup({ email });
    await call(`DELETE`, `/accounts/${created.body.account?.id}`, {
      token: created.body.accessToken,
    });
    const reply = await login(email, GOOD_PASSWORD);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ accountSelection: 'none', accounts: [] });
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const wrong = await login(demo.owner, 'Not-The-Password-1');
    const unknown = await login(uniqueEmail('nobody'), 'Not-The-Password-1');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({
      error: { code: 'unauthorized', message: 'Invalid email or password' },
    });
  });

  it('asks for both fields with the spec message', async () => {
    const reply = await call('POST', '/login', { body: { email: demo.owner, password: '' } });
    expect(reply.status).toBe(400);
    expect((reply.body as { error: { message: string } }).error.message).toBe(
      'password: Please enter both email and password',
    );
  });

  it('locks an email after five failures, for sixty seconds, even with the right password', async () => {
    const email = uniqueEmail('target');
    await signup({ email });
    for (let attempt = 1; attempt <= 4; attempt += 1)
      expect((await login(email, 'Wrong-Password-1')).status).toBe(401);
    expect((await login(email, 'Wrong-Password-1')).status).toBe(401);
    const locked = await login(email, GOOD_PASSWORD);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((locked.body as unknown as { error: { message: string } }).error.message).toBe(
      'Too many failed sign-in attempts. Try again in 1 minute.',
    );
    // An email nobody uses locks the same way: the lock tells nothing.
    const ghost = uniqueEmail('ghost');
    for (let attempt = 1; attempt <= 5; attempt += 1) await login(ghost, 'Wrong-Password-1');
    expect((await login(ghost, 'Wrong-Password-1')).status).toBe(429);
  });

  it('answers a locked account and an email nobody uses alike, after any number of failures', async () => {
    const email = uniqueEmail('target');
    await signup({ email });
    const ghost = uniqueEmail('ghost');
    type Timed = Reply<Session> & { ms: number };
    const replies: { real: Timed; ghost: Timed }[] = [];
    // Interleaved, so whatever else the machine is doing weighs on both alike.
    for (let attempt = 1; attempt <= 30; attempt += 1) {
      const real = await timed(() => login(email, 'Wrong-Password-1'));
      replies.push({ real, ghost: await timed(() => login(ghost, 'Wrong-Password-1')) });
    }
    const statuses = replies.map(({ real }) => real.status);
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(25).fill(429)]);
    expect(replies.map(({ ghost }) => ghost.status)).toEqual(statuses);
    for (const { real, ghost } of replies) {
      expect(ghost.body).toEqual(real.body);
      expect(
        Math.abs(
          Number(ghost.headers.get('retry-after')) - Number(real.headers.get('retry-after')),
        ),
      ).toBeLessThanOrEqual(1);
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1] ?? 0;
    const locked = replies.slice(5);
    expect(
      Math.abs(
        median(locked.map(({ real }) => real.ms)) - median(locked.map(({ ghost }) => ghost.ms)),
      ),
      'a lock takes as long to answer for an account as for an email nobody uses',
    ).toBeLessThan(50);
    expect((await login(email, GOOD_PASSWORD)).status).toBe(429);
  });

  it('slows a client address down after many failures, but lets a correct password in', async () => {
    const email = uniqueEmail('colleague');
    await signup({ email });
    // A colleague's typos and a guesser on the guest Wi-Fi, five at a time: 30 failures.
    const failures = await inBatches(30, THROTTLE_RULES.address.maxWaiting, () =>
      login(uniqueEmail('spray'), 'Wrong-Password-1'),
    );
    expect(failures.map((reply) => reply.status)).toEqual(Array(30).fill(401));

    const slowed = await timed(() => login(email, GOOD_PASSWORD));
    expect(slowed.status).toBe(200);
    expect(slowed.ms, 'the address is slowed down by the full delay').toBeGreaterThanOrEqual(
      THROTTLE_RULES.address.maxDelayMs - 50,
    );
    expect(slowed.ms, 'a correct password still signs in within seconds').toBeLessThan(
      THROTTLE_RULES.address.maxDelayMs + 3_000,
    );

    // Waiting is bounded: more attempts at once than an address may hold are refused at once.
    const flood = await Promise.all(
      Array.from({ length: THROTTLE_RULES.address.maxWaiting + 3 }, () =>
        login(uniqueEmail('flood'), 'Wrong-Password-1'),
      ),
    );
    expect(flood.filter((reply) => reply.status === 401)).toHaveLength(
      THROTTLE_RULES.address.maxWaiting,
    );
    const refused = flood.filter((reply) => reply.status === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]?.headers.get('retry-after')).toBe('3');
    expect((refused[0]?.body as unknown as { error: { message: string } }).error.message).toBe(
      'Too many sign-in attempts from your network at once. Try again in a few seconds.',
    );

    // A device the person signed in on before is not slowed down at all.
    const known = await timed(() =>
      login(email, GOOD_PASSWORD, { deviceToken: slowed.body.deviceToken }),
    );
    expect(known.status).toBe(200);
    expect(known.ms).toBeLessThan(THROTTLE_RULES.address.maxDelayMs);
  });

  it('does not lock a known device out, and locks a known device by its own failures only', async () => {
    const email = uniqueEmail('owner');
    await signup({ email });
    const laptop = (await login(email, GOOD_PASSWORD)).body.deviceToken;
    const phone = (await login(email, GOOD_PASSWORD)).body.deviceToken;
    expect(laptop).toBeTruthy();
    const other = uniqueEmail('other');
    await signup({ email: other });
    const othersDevice = (await login(other, GOOD_PASSWORD)).body.deviceToken;

    // Someone else guesses until the account is locked for unknown clients.
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await login(email, 'Wrong-Password-1')).status).toBe(401);
    }
    expect((await login(email, GOOD_PASSWORD)).status).toBe(429);
    expect((await login(email, GOOD_PASSWORD, { deviceToken: othersDevice })).status).toBe(429);
    expect((await login(email, GOOD_PASSWORD, { deviceToken: `${laptop}x` })).status).toBe(429);

    const fromLaptop = await login(email, GOOD_PASSWORD, { deviceToken: laptop });
    expect(fromLaptop.status).toBe(200);
    const renewed = fromLaptop.body.deviceToken;
    expect(renewed).toBeTruthy();

    // The device's own failures lock that device, not the person's other devices.
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await login(email, 'Wrong-Password-1', { deviceToken: renewed })).status).toBe(401);
    }
    expect((await login(email, GOOD_PASSWORD, { deviceToken: renewed })).status).toBe(429);
    expect((await login(email, GOOD_PASSWORD, { deviceToken: phone })).status).toBe(200);
  });

  it('lets one person sign in from several places at once', async () => {
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => login(demo.viewer, DEMO_PASSWORD)),
    );
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('refuses demo mode', async () => {
    const reply = await call('POST', '/login', {
      body: { email: demo.owner, password: DEMO_PASSWORD, demoMode: true },
    });
    expect(reply.status).toBe(400);
  });
});

describe('tokens and sessions', () => {
  it('rotates the refresh token on every use, and one reused after the grace ends the session', async () => {
    const session = await signedIn(demo.staff);
    const first = await refresh(session.refreshToken);
    expect(first.status).toBe(200);
    expect(first.body.refreshToken).not.toBe(session.refreshToken);
    await ageSpentToken(session.refreshToken, REFRESH_REUSE_GRACE_MS + 1_000);
    expect((await refresh(session.refreshToken)).status).toBe(401);
    expect((await refresh(first.body.refreshToken)).status).toBe(401);
    expect((await call('GET', '/users/me', { token: first.body.accessToken })).status).toBe(401);
  });

  it('answers a token resent within the grace (its answer was lost) with the one live successor', async () => {
    const session = await signedIn(demo.staff);
    const lost = await refresh(session.refreshToken);
    const resent = await refresh(session.refreshToken);
    expect(resent.status).toBe(200);
    expect(await liveTokens(session.refreshToken)).toBe(1);
    // The lost answer's token was given up for the new one: presenting it is a replay.
    expect((await refresh(lost.body.refreshToken)).status).toBe(401);
    expect((await refresh(resent.body.refreshToken)).status).toBe(401);
  });

  it('never leaves two live tokens when one is sent twice at once', async () => {
    const session = await signedIn(demo.staff);
    const both = await Promise.all([refresh(session.refreshToken), refresh(session.refreshToken)]);
    expect(both.map((reply) => reply.status)).toEqual([200, 200]);
    expect(await liveTokens(session.refreshToken)).toBe(1);
  });

  it('ends the session when the successor was already used', async () => {
    const session = await signedIn(demo.staff);
    const first = await refresh(session.refreshToken);
    expect((await refresh(first.body.refreshToken)).status).toBe(200);
    expect((await refresh(session.refreshToken)).status).toBe(401);
    expect((await call('GET', '/users/me', { token: first.body.accessToken })).status).toBe(401);
  });

  it('signs out at once: the access token stops working immediately', async () => {
    const session = await signedIn(demo.viewer);
    expect((await call('GET', '/users/me', { token: session.accessToken })).status).toBe(200);
    expect(
      (await call('POST', '/logout', { body: { refreshToken: session.refreshToken } })).status,
    ).toBe(204);
    expect((await call('GET', '/users/me', { token: session.accessToken })).status).toBe(401);
    expect(
      (await call('POST', '/me/refresh', { body: { refreshToken: session.refreshToken } })).status,
    ).toBe(401);
  });

  it('lists my sessions and revokes one, others, or all', async () => {
    const a = await signedIn(demo.viewer);
    const b = await signedIn(demo.viewer);
    const c = await signedIn(demo.viewer);
    const listed = await call<{ sessions: { id: string; current: boolean }[] }>(
      'GET',
      '/me/sessions',
      { token: a.accessToken },
    );
    expect(listed.body.sessions.filter((session) => session.current)).toHaveLength(1);
    const bId = listed.body.sessions.find((session) => !session.current)?.id;
    expect(listed.body.sessions.length).toBeGreaterThanOrEqual(3);
    expect((await call('DELETE', `/me/sessions/${bId}`, { token: a.accessToken })).status).toBe(
      204,
    );
    const again = await call('DELETE', `/me/sessions/${bId}`, { token: a.accessToken });
    expect(again.status, 'an ended session is not found; the caller stays signed in').toBe(404);
    const others = await call<{ revoked: number }>('POST', '/sessions/revoke-others', {
      token: a.accessToken,
    });
    expect(others.body.revoked).toBeGreaterThanOrEqual(1);
    expect((await call('GET', '/users/me', { token: c.accessToken })).status).toBe(401);
    expect((await call('GET', '/users/me', { token: b.accessToken })).status).toBe(401);
    expect((await call('GET', '/users/me', { token: a.accessToken })).status).toBe(200);
    expect((await call('DELETE', '/me/sessions', { token: a.accessToken })).status).toBe(204);
    expect((await call('GET', '/users/me', { token: a.accessToken })).status).toBe(401);
  });

  it('needs a live session token to issue an access token, for its own user only', async () => {
    const reply = await login(demo.admin, DEMO_PASSWORD);
    const accountId = reply.body.accounts[0]?.accountId;
    expect(
      (await call('POST', '/tokens/access', { body: { userId: reply.body.user.id, accountId } }))
        .status,
    ).toBe(401);
    const other = await signedIn(demo.viewer);
    const wrongUser = await call('POST', '/tokens/access', {
      token: reply.body.sessionToken,
      body: { userId: other.user.id, accountId },
    });
    expect(wrongUser.status).toBe(401);
    const notMember = await call('POST', '/tokens/access', {
      token: other.sessionToken,
      body: { userId: other.user.id, accountId: reply.body.accounts[1]?.accountId },
    });
    expect(notMember.status).toBe(404);
  });

  it('switches account within a session; the old account token stops working', async () => {
    const reply = await login(demo.admin, DEMO_PASSWORD);
    const [harborview, lakeside] = reply.body.accounts;
    const first = await call<{ accessToken: string }>('POST', '/tokens/access', {
      token: reply.body.sessionToken,
      body: { userId: reply.body.user.id, accountId: harborview?.accountId },
    });
    const switched = await call<{ accessToken: string; account: { name: string } }>(
      'POST',
      '/me/switch-account',
      {
        token: first.body.accessToken,
        body: { accountId: lakeside?.accountId },
      },
    );
    expect(switched.body.account.name).toBe('Lakeside Auction Gallery');
    expect((await call('GET', '/accounts/current', { token: first.body.accessToken })).status).toBe(
      401,
    );
    expect(
      (
        await call<{ name: string }>('GET', '/accounts/current', {
          token: switched.body.accessToken,
        })
      ).body.name,
    ).toBe('Lakeside Auction Gallery');
    expect(
      (
        await call('POST', '/accounts/set-default', {
          token: switched.body.accessToken,
          body: { accountId: lakeside?.accountId },
        })
      ).status,
    ).toBe(200);
    const again = await login(demo.admin, DEMO_PASSWORD);
    expect(
      again.body.accounts.find((account) => account.accountName === 'Lakeside Auction Gallery'),
    ).toMatchObject({ isDefault: true });
  });

  it('answers a forged or expired token with 401', async () => {
    const session = await signedIn(demo.viewer);
    const [header, payload] = session.accessToken.split('.');
    const forged = `${header}.${payload}.AAAA`;
    expect((await call('GET', '/users/me', { token: forged })).status).toBe(401);
    expect((await call('GET', '/users/me', { token: 'garbage' })).status).toBe(401);
    expect((await call('GET', '/users/me')).status).toBe(401);
  });
});
