import { generate } from 'otplib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  clearThrottle,
  GOOD_PASSWORD,
  ifMatch,
  latestMail,
  login,
  signup,
  uniqueEmail,
  type Session,
} from '../support/identity.js';

afterEach(clearThrottle);

async function freshUser() {
  const email = uniqueEmail('mfa');
  const created = await signup({ email });
  return { email, token: created.body.accessToken as string, session: created.body };
}

/** A code for the current 30-second step, or the next one when this one was just used. */
async function totp(secret: string, offsetSeconds = 0) {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });
}

async function enrolAuthenticator(token: string) {
  const setup = await call<{
    methodId: string;
    secret: string;
    qrCode: string;
    otpauthUrl: string;
  }>('POST', '/security/2fa/setup', {
    token,
    body: { type: 'authenticator', name: 'Phone' },
  });
  expect(setup.status).toBe(201);
  expect(setup.body.qrCode).toMatch(/^data:image\/png;base64,/);
  expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Lotwise/);
  const verified = await call<{
    backupCodes: string[];
    method: { enabled: boolean; primary: boolean; etag: string };
  }>('POST', '/mfa/verify', {
    token,
    body: { methodId: setup.body.methodId, code: await totp(setup.body.secret) },
  });
  expect(verified.status).toBe(200);
  return {
    secret: setup.body.secret,
    methodId: setup.body.methodId,
    backupCodes: verified.body.backupCodes,
    method: verified.body.method,
  };
}

describe('MFA', () => {
  it('enrols an authenticator: QR code, first code, ten backup codes shown once', async () => {
    const { token } = await freshUser();
    const { backupCodes, method } = await enrolAuthenticator(token);
    expect(method).toMatchObject({ enabled: true, primary: true });
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    const status = await call<{ generated: boolean; remaining: number }>(
      'GET',
      '/security/2fa/backup-codes',
      { token },
    );
    expect(status.body).toMatchObject({ generated: true, remaining: 10 });
    const methods = await call<{ methods: { type: string }[] }>('GET', '/security/2fa/methods', {
      token,
    });
    expect(JSON.stringify(methods.body)).not.toMatch(/secret|sealed/i);
  });

  it('refuses a wrong first code', async () => {
    const { token } = await freshUser();
    const setup = await call<{ methodId: string }>('POST', '/security/2fa/setup', {
      token,
      body: { type: 'authenticator', name: 'Phone' },
    });
    const reply = await call('POST', '/mfa/verify', {
      token,
      body: { methodId: setup.body.methodId, code: '000000' },
    });
    expect(reply.status).toBe(400);
    expect((reply.body as { error: { message: string } }).error.message).toBe(
      'code: Invalid verification code',
    );
    const short = await call('POST', '/mfa/verify', {
      token,
      body: { methodId: setup.body.methodId, code: '12345' },
    });
    expect((short.body as { error: { message: string } }).error.message).toBe(
      'code: must be 6 digits',
    );
  });

  it('asks for a code at sign-in, accepts a TOTP code once, and refuses its replay', async () => {
    const { email, token } = await freshUser();
    const { secret } = await enrolAuthenticator(token);
    const challenge = await login(email, GOOD_PASSWORD);
    expect(challenge.status).toBe(200);
    expect(challenge.body).toMatchObject({ status: 'mfa-required', backupCodesAvailable: true });
    // The enrolment used this step's code; the next step's code is within the tolerance.
    const code = await totp(secret, 30);
    const signedIn = await login(email, GOOD_PASSWORD, { mfaCode: code });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.accessToken).toBeTruthy();
    const replay = await login(email, GOOD_PASSWORD, { mfaCode: code });
    expect(replay.status).toBe(401);
    expect((replay.body as unknown as { error: { message: string } }).error.message).toBe(
      'Invalid verification code',
    );
  });

  it('accepts each backup code once, and regenerating spends the old ones', async () => {
    const { email, token } = await freshUser();
    const { backupCodes } = await enrolAuthenticator(token);
    const [first, second] = backupCodes;
    expect((await login(email, GOOD_PASSWORD, { mfaCode: first })).status).toBe(200);
    expect((await login(email, GOOD_PASSWORD, { mfaCode: first })).status).toBe(401);
    const status = await call<{ remaining: number }>('GET', '/security/2fa/backup-codes', {
      token,
    });
    expect(status.body.remaining).toBe(9);
    const regenerated = await call<{ codes: string[]; remaining: number }>(
      'POST',
      '/security/2fa/backup-codes',
      { token },
    );
    expect(regenerated.body.remaining).toBe(10);
    expect((await login(email, GOOD_PASSWORD, { mfaCode: second })).status).toBe(401);
    expect((await login(email, GOOD_PASSWORD, { mfaCode: regenerated.body.codes[0] })).status).toBe(
      200,
    );
  });

  it('sends an email code, accepts it at sign-in and refuses it after', async () => {
    const { email, token } = await freshUser();
    const setup = await call<{ methodId: string; codeSentTo: string }>(
      'POST',
      '/security/2fa/setup',
      {
        token,
        body: { type: 'email', name: 'Work email' },
      },
    );
    expect(setup.body.codeSentTo).toMatch(/^m•••@example\.com$/);
    const setupCode = /code is (\d{6})/.exec((await latestMail(email, 'mfa-code')).text)?.[1];
    expect(
      (
        await call('POST', '/mfa/verify', {
          token,
          body: { methodId: setup.body.methodId, code: setupCode },
        })
      ).status,
    ).toBe(200);
    const challenge = await login(email, GOOD_PASSWORD);
    expect(challenge.body).toMatchObject({
      status: 'mfa-required',
      codeSentTo: expect.stringContaining('@example.com'),
    });
    const loginCode = /code is (\d{6})/.exec((await latestMail(email, 'mfa-code')).text)?.[1];
    expect(loginCode).not.toBe(setupCode);
    expect((await login(email, GOOD_PASSWORD, { mfaCode: loginCode })).status).toBe(200);
    expect((await login(email, GOOD_PASSWORD, { mfaCode: loginCode })).status).toBe(401);
  });

  it('sends a code once per 30 seconds, and five wrong guesses spend it', async () => {
    const { email, token } = await freshUser();
    const setup = await call<{ methodId: string }>('POST', '/security/2fa/setup', {
      token,
      body: { type: 'email', name: 'Work email' },
    });
    const setupCode = /code is (\d{6})/.exec((await latestMail(email, 'mfa-code')).text)?.[1];
    await call('POST', '/mfa/verify', {
      token,
      body: { methodId: setup.body.methodId, code: setupCode },
    });
    const codeFor = async () => {
      expect((await login(email, GOOD_PASSWORD)).body.status).toBe('mfa-required');
      return /code is (\d{6})/.exec((await latestMail(email, 'mfa-code')).text)?.[1] as string;
    };
    const guessWrong = async (code: string, times: number) => {
      for (let guess = 0; guess < times; guess += 1) {
        const wrong = code === '000000' ? '111111' : '000000';
        expect((await login(email, GOOD_PASSWORD, { mfaCode: wrong })).status).toBe(401);
      }
      // Wrong codes count as failed sign-ins too; only the code's own limit is tested here.
      await clearThrottle();
    };

    const first = await codeFor();
    const again = await login(email, GOOD_PASSWORD);
    expect(again.status).toBe(429);
    expect((again.body as unknown as { error: { message: string } }).error.message).toBe(
      'A code was just sent. Wait a few seconds before asking for another.',
    );
    await guessWrong(first, 4);
    expect((await login(email, GOOD_PASSWORD, { mfaCode: first })).status).toBe(200);

    // A spent code does not hold back the next one.
    const second = await codeFor();
    await guessWrong(second, 5);
    expect((await login(email, GOOD_PASSWORD, { mfaCode: second })).status).toBe(401);
  });

  it('needs a phone number for text messages', async () => {
    const { token } = await freshUser();
    const reply = await call('POST', '/security/2fa/setup', {
      token,
      body: { type: 'sms', name: 'Mobile' },
    });
    expect(reply.status).toBe(400);
    expect((reply.body as { error: { message: string } }).error.message).toBe(
      'phoneNumber: is required for text message codes',
    );
  });

  it('disables, enables and removes methods; the last one goes with the backup codes', async () => {
    const { email, token } = await freshUser();
    const { methodId, method } = await enrolAuthenticator(token);
    const disabled = await call<{ enabled: boolean; etag: string }>(
      'PUT',
      `/security/2fa/methods/${methodId}`,
      { token, body: { enabled: false }, headers: ifMatch(method.etag) },
    );
    expect(disabled.status).toBe(200);
    expect(disabled.body.enabled).toBe(false);
    expect(disabled.headers.get('etag')).toBe(`"${disabled.body.etag}"`);
    expect((await login(email, GOOD_PASSWORD)).body.status).toBe('signed-in');
    // Signing in changed the person's record, so the methods are read again for their ETag.
    const shown = await call<{ methods: { etag: string }[] }>('GET', '/security/2fa/methods', {
      token,
    });
    expect(
      (
        await call('PUT', `/security/2fa/methods/${methodId}`, {
          token,
          body: { enabled: true },
          headers: ifMatch(shown.body.methods[0]?.etag),
        })
      ).status,
    ).toBe(200);
    expect((await login(email, GOOD_PASSWORD)).body.status).toBe('mfa-required');
    expect((await call('DELETE', `/security/2fa/methods/${methodId}`, { token })).status).toBe(204);
    expect(
      (await call<{ generated: boolean }>('GET', '/security/2fa/backup-codes', { token })).body
        .generated,
    ).toBe(false);
    expect((await login(email, GOOD_PASSWORD)).body.status).toBe('signed-in');
  });

  it('enforces the account MFA policy after its grace period, and only MFA setup works until then', async () => {
    const { token, session } = await freshUser();
    const shown = await call<{ etag: string }>('GET', '/security/mfa-policy', { token });
    const saved = await call<{ required: boolean }>('PUT', '/security/mfa-policy', {
      token,
      headers: ifMatch(shown.body.etag),
      body: {
        required: true,
        requiredForRoles: ['owner'],
        gracePeriodDays: 0,
        enforceBackupCodes: true,
      },
    });
    expect(saved.body.required).toBe(true);
    const refreshed = await call<{ accessToken: string }>('POST', '/me/refresh', {
      body: { refreshToken: session.refreshToken },
    });
    const restricted = refreshed.body.accessToken;
    const blocked = await call('GET', '/auction-house/users', { token: restricted });
    expect(blocked.status).toBe(403);
    expect((blocked.body as { error: { details: { reason: string } } }).error.details.reason).toBe(
      'mfa_setup_required',
    );
    const { methodId } = await enrolAuthenticator(restricted);
    const removal = await call('DELETE', `/security/2fa/methods/${methodId}`, {
      token: restricted,
    });
    expect(removal.status).toBe(409);
    const fresh = await call<{ accessToken: string; mfaSetupRequired: boolean }>(
      'POST',
      '/me/token',
      { token: restricted },
    );
    expect(fresh.body.mfaSetupRequired).toBe(false);
    expect(
      (await call('GET', '/auction-house/users', { token: fresh.body.accessToken })).status,
    ).toBe(200);
    const policy = await call<{ required: boolean; gracePeriodDays: number }>(
      'GET',
      '/security/mfa-policy',
      { token: fresh.body.accessToken },
    );
    expect(policy.body).toMatchObject({ required: true, gracePeriodDays: 0 });
  });

  it('saves the security settings and enforces a verified email at sign-in', async () => {
    const { email, token } = await freshUser();
    const shown = await call<{ etag: string }>('GET', '/security/settings', { token });
    const saved = await call<{ requireVerifiedEmail: boolean; etag: string }>(
      'PUT',
      '/security/settings',
      {
        token,
        headers: ifMatch(shown.body.etag),
        body: {
          sessionIdleMinutes: 60,
          sessionMaxDays: 7,
          requireVerifiedEmail: true,
          loginNotifications: true,
          allowedEmailDomains: [],
        },
      },
    );
    expect(saved.status).toBe(200);
    const again = await login(email, GOOD_PASSWORD);
    expect(again.status).toBe(403);
    expect(
      (again.body as unknown as { error: { details: { reason: string } } }).error.details.reason,
    ).toBe('email_not_verified');
    const bad = await call('PUT', '/security/settings', {
      token,
      headers: ifMatch(saved.body.etag),
      body: {
        sessionIdleMinutes: 5,
        sessionMaxDays: 7,
        requireVerifiedEmail: false,
        loginNotifications: false,
        allowedEmailDomains: [],
      },
    });
    expect((bad.body as { error: { message: string } }).error.message).toMatch(
      /^sessionIdleMinutes: /,
    );
  });

  it('keeps invitations to the allowed email domains', async () => {
    const { token } = await freshUser();
    const shown = await call<{ etag: string }>('GET', '/security/settings', { token });
    await call('PUT', '/security/settings', {
      token,
      headers: ifMatch(shown.body.etag),
      body: {
        sessionIdleMinutes: 720,
        sessionMaxDays: 14,
        requireVerifiedEmail: false,
        loginNotifications: false,
        allowedEmailDomains: ['harborview.demo'],
      },
    });
    const outsider = await call('POST', '/auction-house/invite', {
      token,
      body: { email: uniqueEmail(), role: 'staff' },
    });
    expect(outsider.status).toBe(400);
    const insider = await call('POST', '/auction-house/invite', {
      token,
      body: { email: 'new.hire@harborview.demo', role: 'staff' },
    });
    expect(insider.status).toBe(201);
  });
});

describe('sessions and MFA together', () => {
  it('does not let a session without an account read account data', async () => {
    const reply = await call<Session>('POST', '/login', {
      body: { email: 'admin@harborview.demo', password: 'Harborview!Demo2026' },
    });
    expect(reply.body.accountSelection).toBe('pending');
    expect(
      (await call('GET', '/accounts/current', { token: reply.body.sessionToken })).status,
    ).toBe(401);
  });
});
