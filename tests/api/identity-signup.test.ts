import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  call,
  database,
  demo,
  GOOD_PASSWORD,
  latestMail,
  linkParam,
  login,
  signedIn,
  signup,
  uniqueEmail,
} from '../support/identity.js';

describe('POST /signup', () => {
  it('creates the person and an account of their own on the free plan, signed in', async () => {
    const email = uniqueEmail('founder');
    const reply = await signup({
      email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      accountName: 'Lovelace Auctions',
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      status: 'signed-in',
      accountSelection: 'selected',
      user: { email, emailVerified: false },
    });
    expect(reply.body.account).toMatchObject({
      name: 'Lovelace Auctions',
      role: 'owner',
      subscription: { tier: 'free' },
    });
    expect(reply.body.accessToken).toBeTruthy();
    expect(reply.body.refreshToken).toMatch(/^r1\./);
    const verification = await latestMail(email, 'email-verify');
    const token = linkParam(verification, 'token');
    expect((await call('POST', '/verify-email', { body: { token } })).status).toBe(200);
    expect((await call('POST', '/verify-email', { body: { token } })).status).toBe(400);
    const me = await call<{ user: { emailVerified: boolean } }>('GET', '/users/me', {
      token: reply.body.accessToken,
    });
    expect(me.body.user.emailVerified).toBe(true);
  });

  it('refuses a taken email with 409 whatever its case', async () => {
    const reply = await signup({ email: demo.owner.toUpperCase() });
    expect(reply.status).toBe(409);
  });

  it.each([
    ['too short', 'Ab1!x', 'Use at least 8 characters'],
    ['no uppercase', 'lantern-orbit-42!', 'Include an uppercase letter'],
    ['no number', 'Lantern-Orbit-Quartz!', 'Include a number'],
    ['no special character', 'LanternOrbitQuartz42', 'Include a special character'],
    ['common', 'Password1!', 'This password is too common or easy to guess'],
  ])('refuses a password that is %s, naming the field', async (_case, password, message) => {
    const reply = await signup({ password, confirmPassword: password });
    expect(reply.status).toBe(400);
    const body = reply.body as unknown as {
      error: { message: string; details: { fields: { field: string; message: string }[] } };
    };
    expect(body.error.details.fields).toContainEqual({
      location: 'body',
      field: 'password',
      message,
    });
  });

  it('accepts 64 characters and more, up to 128', async () => {
    const long = `Aa1!${'quartz-lantern-'.repeat(8)}`.slice(0, 100);
    expect((await signup({ password: long, confirmPassword: long })).status).toBe(201);
    const tooLong = `Aa1!${'x'.repeat(130)}`;
    expect((await signup({ password: tooLong, confirmPassword: tooLong })).status).toBe(400);
  });

  it('names each missing or wrong field', async () => {
    const mismatch = await signup({ confirmPassword: 'Something-Else-99' });
    expect((mismatch.body as unknown as { error: { message: string } }).error.message).toBe(
      'confirmPassword: Passwords do not match',
    );
    const terms = await signup({
      preferences: { termsAccepted: false, privacyPolicyAccepted: true },
    });
    expect((terms.body as unknown as { error: { message: string } }).error.message).toBe(
      'preferences.termsAccepted: must be accepted',
    );
    const email = await signup({ email: 'not-an-email' });
    expect((email.body as unknown as { error: { message: string } }).error.message).toBe(
      'email: Enter a valid email address',
    );
    const missing = await call('POST', '/signup', { body: { email: uniqueEmail() } });
    expect(missing.status).toBe(400);
  });
});

describe('invitations', () => {
  async function invite(role: string, email = uniqueEmail('invitee')) {
    const owner = await signedIn(demo.owner);
    const reply = await call('POST', '/auction-house/invite', {
      token: owner.accessToken,
      body: { email, role, personalMessage: 'Welcome aboard' },
    });
    expect(reply.status).toBe(201);
    const mail = await latestMail(email, 'invitation');
    expect(mail.text).toContain('Welcome aboard');
    return { email, code: linkParam(mail, 'invitation'), owner };
  }

  it('joins a new person to the inviting account with the invited role and houses', async () => {
    const { email, code, owner } = await invite('viewer');
    const validated = await call('GET', `/invitation/validate/${code}`);
    expect(validated.body).toMatchObject({
      valid: true,
      email,
      accountName: 'Harborview Auctions',
      role: 'viewer',
      existingUser: false,
    });
    const joined = await signup({ email, invitationCode: code });
    expect(joined.status).toBe(201);
    expect(joined.body.account).toMatchObject({ id: owner.account?.id, role: 'viewer' });
    expect(joined.body.account?.houses.map((house) => house.name).sort()).toEqual([
      'Harborview Estates',
      'Harborview Fine Art',
    ]);
    expect(joined.body.user.emailVerified).toBe(true);
  });

  it('is single use', async () => {
    const { email, code } = await invite('staff');
    expect((await signup({ email, invitationCode: code })).status).toBe(201);
    const again = await call('GET', `/invitation/validate/${code}`);
    expect(again.status).toBe(400);
    expect((again.body as { error: { message: string } }).error.message).toBe(
      'token: This invitation has already been used',
    );
    const reuse = await signup({ email: uniqueEmail(), invitationCode: code });
    expect(reuse.status).toBe(400);
  });

  it('expires after seven days', async () => {
    const { email, code } = await invite('staff');
    const { db, dispose } = await database();
    const id = createHash('sha256').update(code).digest('base64url');
    const { resource } = await db.container('tokens').item(id, id).read();
    expect(Date.parse(resource.expiresAt) - Date.parse(resource.createdAt)).toBe(7 * 86_400_000);
    await db
      .container('tokens')
      .item(id, id)
      .replace({ ...resource, expiresAt: new Date(Date.now() - 1000).toISOString() });
    dispose();
    const reply = await signup({ email, invitationCode: code });
    expect(reply.status).toBe(400);
    expect((reply.body as unknown as { error: { message: string } }).error.message).toBe(
      'invitationCode: This invitation has expired. Ask for a new one.',
    );
  });

  it('lets an existing person join by signing in with the code', async () => {
    const existing = uniqueEmail('existing');
    expect((await signup({ email: existing })).status).toBe(201);
    const { code } = await invite('staff', existing);
    expect(
      (await call<{ existingUser: boolean }>('GET', `/invitation/validate/${code}`)).body
        .existingUser,
    ).toBe(true);
    const reply = await login(existing, GOOD_PASSWORD, { invitationCode: code });
    expect(reply.status).toBe(200);
    expect(reply.body.account).toMatchObject({ name: 'Harborview Auctions', role: 'staff' });
    expect(reply.body.accounts).toHaveLength(2);
  });

  it('refuses a code sent to someone else', async () => {
    const { code } = await invite('staff');
    const reply = await signup({ email: uniqueEmail('intruder'), invitationCode: code });
    expect(reply.status).toBe(400);
  });

  it('answers an unknown code without a 500', async () => {
    const reply = await call('GET', '/invitation/validate/not-a-real-invitation-code');
    expect(reply.status).toBe(400);
  });
});
