import { describe, expect, inject, it } from 'vitest';
import { signIdToken } from '../support/fake-entra.js';
import { call, demo, uniqueEmail, type Session } from '../support/identity.js';

const { authorityHost, privateJwk } = inject('entra');

const idToken = (claims: Record<string, unknown>, options = {}) =>
  signIdToken(privateJwk, authorityHost, claims, options);

describe('Microsoft sign-in', () => {
  it('advertises the provider', async () => {
    const reply = await call<{ providers: { id: string; clientId: string }[] }>(
      'GET',
      '/auth/providers',
    );
    expect(reply.body.providers).toEqual([
      expect.objectContaining({ id: 'microsoft', clientId: 'lotwise-test-client' }),
    ]);
  });

  it('creates a person from a verified ID token, and finds them again by their Entra id', async () => {
    const email = uniqueEmail('entra');
    const token = await idToken({
      oid: `oid-${email}`,
      email,
      given_name: 'Enid',
      family_name: 'Tran',
    });
    const first = await call<Session>('POST', '/login/microsoft', { body: { idToken: token } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      accountSelection: 'selected',
      user: { email, emailVerified: true },
    });
    const again = await call<Session>('POST', '/login/microsoft', {
      body: { idToken: await idToken({ oid: `oid-${email}`, email: uniqueEmail('renamed') }) },
    });
    expect(again.body.user.id).toBe(first.body.user.id);
  });

  it('links to the existing person with that email', async () => {
    const reply = await call<Session>('POST', '/login/microsoft', {
      body: { idToken: await idToken({ oid: 'oid-demo-staff', email: demo.staff }) },
    });
    expect(reply.body.account?.name).toBe('Harborview Auctions');
    expect(reply.body.account?.role).toBe('staff');
  });

  it('refuses a token for another audience, issuer, an expired one or a forged one', async () => {
    const claims = { oid: 'oid-x', email: uniqueEmail() };
    for (const token of [
      await idToken(claims, { audience: 'someone-else' }),
      await idToken(claims, { issuer: 'https://login.microsoftonline.com/other/v2.0' }),
      await idToken(claims, { expiresIn: '-1m' }),
      `${(await idToken(claims)).slice(0, -4)}AAAA`,
    ]) {
      const reply = await call('POST', '/login/microsoft', { body: { idToken: token } });
      expect(reply.status).toBe(401);
    }
  });

  it('runs the redirect flow: state with PKCE, code exchange, single-use state', async () => {
    const start = await call<{ authorizeUrl: string; state: string }>('POST', '/login/microsoft', {
      body: {},
    });
    expect(start.status).toBe(200);
    const url = new URL(start.body.authorizeUrl);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe(start.body.state);
    const email = uniqueEmail('redirect');
    const code = Buffer.from(
      JSON.stringify({ oid: `oid-${email}`, email, name: 'Rae Direct' }),
    ).toString('base64url');
    const done = await call<Session>('POST', '/oauth/callback', {
      body: { code, state: start.body.state },
    });
    expect(done.status).toBe(200);
    expect(done.body.user).toMatchObject({ email, firstName: 'Rae', lastName: 'Direct' });
    const replay = await call('POST', '/oauth/callback', {
      body: { code, state: start.body.state },
    });
    expect(replay.status).toBe(400);
  });

  it('answers other providers with a 400 naming the provider', async () => {
    const reply = await call('POST', '/login/google', { body: { idToken: 'x'.repeat(30) } });
    expect(reply.status).toBe(400);
    expect((reply.body as { error: { message: string } }).error.message).toMatch(/^provider: /);
  });
});
