import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  clearThrottle,
  GOOD_PASSWORD,
  ifMatch,
  latestMail,
  linkParam,
  login,
  outbox,
  signup,
  uniqueEmail,
} from '../support/identity.js';

afterEach(clearThrottle);

describe('password policy endpoints', () => {
  it('publishes the policy', async () => {
    const reply = await call('GET', '/passwords/policy');
    expect(reply.body).toMatchObject({
      minLength: 8,
      maxLength: 128,
      requireSpecial: true,
      rejectCommon: true,
    });
  });

  it('validates, rates and generates passwords', async () => {
    const weak = await call<{ valid: boolean; errors: string[] }>('POST', '/passwords/validate', {
      body: { password: 'password' },
    });
    expect(weak.body.valid).toBe(false);
    expect(weak.body.errors).toEqual(
      expect.arrayContaining([
        'Include an uppercase letter',
        'This password is too common or easy to guess',
      ]),
    );
    const personal = await call<{ errors: string[] }>('POST', '/passwords/validate', {
      body: { password: 'Margaret-Quartz-77', email: 'margaret@example.com' },
    });
    expect(personal.body.errors).toContain(
      'Do not use your name or email address in your password',
    );
    const good = await call<{ valid: boolean }>('POST', '/passwords/validate', {
      body: { password: GOOD_PASSWORD },
    });
    expect(good.body.valid).toBe(true);
    const strength = await call<{ score: number; label: string }>('POST', '/passwords/strength', {
      body: { password: GOOD_PASSWORD },
    });
    expect(strength.body.score).toBeGreaterThanOrEqual(3);
    const generated = await call<{ password: string }>('POST', '/passwords/generate', {
      body: { length: 24 },
    });
    expect(generated.body.password).toHaveLength(24);
    const check = await call<{ valid: boolean }>('POST', '/passwords/validate', {
      body: { password: generated.body.password },
    });
    expect(check.body.valid).toBe(true);
  });
});

describe('password reset', () => {
  it('answers the same whether or not the email exists, and mails only real people', async () => {
    const email = uniqueEmail('forgetful');
    await signup({ email });
    const known = await call('POST', '/password/reset-request', { body: { email } });
    const unknownEmail = uniqueEmail('stranger');
    const unknown = await call('POST', '/password/reset-request', {
      body: { email: unknownEmail },
    });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.body).toEqual(unknown.body);
    expect(await outbox(unknownEmail)).toEqual([]);
    expect((await latestMail(email, 'password-reset')).text).toContain('one hour');
  });

  it('resets with a single-use link and signs out every session', async () => {
    const email = uniqueEmail('reset');
    const created = await signup({ email });
    await call('POST', '/password/reset-request', { body: { email } });
    const token = linkParam(await latestMail(email, 'password-reset'), 'token');
    const weak = await call('POST', '/password/reset', {
      body: { token, newPassword: 'short', confirmPassword: 'short' },
    });
    expect(weak.status).toBe(400);
    const next = 'Copper-Harbor-Sunrise-8';
    const done = await call('POST', '/password/reset', {
      body: { token, newPassword: next, confirmPassword: next },
    });
    expect(done.status).toBe(200);
    expect(
      (
        await call('POST', '/password/reset', {
          body: { token, newPassword: next, confirmPassword: next },
        })
      ).status,
    ).toBe(400);
    expect((await call('GET', '/users/me', { token: created.body.accessToken })).status).toBe(401);
    expect((await login(email, GOOD_PASSWORD)).status).toBe(401);
    expect((await login(email, next)).status).toBe(200);
  });

  it('only honours the newest link', async () => {
    const email = uniqueEmail('twice');
    await signup({ email });
    await call('POST', '/password/reset-request', { body: { email } });
    const first = linkParam(await latestMail(email, 'password-reset'), 'token');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await call('POST', '/password/reset-request', { body: { email } });
    const messages = (await outbox(email)).filter((message) => message.kind === 'password-reset');
    const second = linkParam(messages[0] as (typeof messages)[number], 'token');
    expect(second).not.toBe(first);
    const next = 'Copper-Harbor-Sunrise-8';
    expect(
      (
        await call('POST', '/password/reset', {
          body: { token: first, newPassword: next, confirmPassword: next },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call('POST', '/password/reset', {
          body: { token: second, newPassword: next, confirmPassword: next },
        })
      ).status,
    ).toBe(200);
  });
});

describe('changing password and email', () => {
  it('changes the password with the current one, keeping this session and ending the others', async () => {
    const email = uniqueEmail('changer');
    const here = await signup({ email });
    const elsewhere = await login(email, GOOD_PASSWORD);
    const wrong = await call('POST', '/users/me/change-password', {
      token: here.body.accessToken,
      body: {
        currentPassword: 'Nope-Nope-123',
        newPassword: 'Copper-Harbor-Sunrise-8',
        confirmPassword: 'Copper-Harbor-Sunrise-8',
      },
    });
    expect(wrong.status).toBe(400);
    expect((wrong.body as { error: { message: string } }).error.message).toBe(
      'currentPassword: is not your current password',
    );
    const changed = await call('POST', '/users/me/change-password', {
      token: here.body.accessToken,
      body: {
        currentPassword: GOOD_PASSWORD,
        newPassword: 'Copper-Harbor-Sunrise-8',
        confirmPassword: 'Copper-Harbor-Sunrise-8',
      },
    });
    expect(changed.status).toBe(200);
    expect((await call('GET', '/users/me', { token: here.body.accessToken })).status).toBe(200);
    expect((await call('GET', '/users/me', { token: elsewhere.body.accessToken })).status).toBe(
      401,
    );
    expect((await latestMail(email, 'password-changed')).subject).toBe(
      'Your Lotwise password was changed',
    );
  });

  it('changes the email after the password, asks to confirm the new one and tells the old one', async () => {
    const email = uniqueEmail('mover');
    const here = await signup({ email });
    const newEmail = uniqueEmail('moved');
    const taken = await call('POST', '/users/me/change-email', {
      token: here.body.accessToken,
      body: { newEmail: 'owner@harborview.demo', password: GOOD_PASSWORD },
    });
    expect(taken.status).toBe(409);
    const moved = await call<{ user: { email: string; emailVerified: boolean } }>(
      'POST',
      '/users/me/change-email',
      {
        token: here.body.accessToken,
        body: { newEmail, password: GOOD_PASSWORD },
      },
    );
    expect(moved.body.user).toMatchObject({ email: newEmail, emailVerified: false });
    expect((await latestMail(email, 'email-changed')).text).toContain(newEmail);
    expect((await latestMail(newEmail, 'email-verify')).kind).toBe('email-verify');
    expect((await login(email, GOOD_PASSWORD)).status).toBe(401);
    expect((await login(newEmail, GOOD_PASSWORD)).status).toBe(200);
  });

  it('updates the profile', async () => {
    const here = await signup();
    const updated = await call<{ firstName: string; timezone: string; phone: string }>(
      'PUT',
      '/users/me/profile',
      {
        token: here.body.accessToken,
        body: { firstName: 'Grace', timezone: 'Europe/London', phone: '+44 20 7946 0958' },
        headers: ifMatch(here.body.user.etag),
      },
    );
    expect(updated.body).toMatchObject({
      firstName: 'Grace',
      timezone: 'Europe/London',
      phone: '+44 20 7946 0958',
    });
    const bad = await call('PUT', '/users/me/profile', {
      token: here.body.accessToken,
      body: { timezone: 'Mars/Olympus' },
    });
    expect(bad.status).toBe(400);
  });
});
