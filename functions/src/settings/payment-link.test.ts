import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { useSampleSettings } from '../../dev/local-settings.js';

useSampleSettings();
const { signPaymentLink, verifyPaymentLink } = await import('./payment-link.js');
const { signingKey } = await import('../platform/principal.js');

const DAY = 86_400_000;

describe('a payment link', () => {
  it('names its account and invoice until it expires', async () => {
    const issued = new Date('2026-03-01T12:00:00Z');
    const { token, expiresAt } = await signPaymentLink('acc-1', { kind: 'test' }, 30, issued);
    expect(expiresAt).toBe('2026-03-31T12:00:00.000Z');
    const link = await verifyPaymentLink(token, new Date(issued.getTime() + 29 * DAY));
    expect(link).toMatchObject({ accountId: 'acc-1', invoice: { kind: 'test' } });
    expect(link.expiresAt.toISOString()).toBe(expiresAt);
  });

  it('answers 410 once expired', async () => {
    const issued = new Date(Date.now() - 31 * DAY);
    const { token } = await signPaymentLink('acc-1', { kind: 'test' }, 30, issued);
    await expect(verifyPaymentLink(token)).rejects.toMatchObject({
      status: 410,
      message: 'This payment link has expired. Ask the auction house to send you a new one.',
    });
  });

  it('answers 404 when tampered with, or signed for anything else', async () => {
    const { token } = await signPaymentLink('acc-1', { kind: 'test' }, 30);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as object;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'acc-2' })).toString('base64url');
    const notFound = { status: 404, message: 'This payment link is not valid' };
    await expect(verifyPaymentLink(`${header}.${forged}.${signature}`)).rejects.toMatchObject(
      notFound,
    );
    await expect(verifyPaymentLink('not-a-token')).rejects.toMatchObject(notFound);
    // An access token is signed with the service's own key: it is no payment link.
    const access = await new SignJWT({ inv: { kind: 'test' } })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('acc-1')
      .setIssuer('lotwise')
      .setAudience('lotwise-payment-portal')
      .setExpirationTime('1d')
      .sign(signingKey());
    await expect(verifyPaymentLink(access)).rejects.toMatchObject(notFound);
  });
});
