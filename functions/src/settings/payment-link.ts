import { hkdfSync } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError, notFound } from '../platform/errors.js';
import { settings as serviceSettings } from '../platform/settings.js';

/**
 * The token of a payment link (`/pay/{token}`): which account's portal and which invoice, until
 * when. Stateless, so a buyer's page is checked without a lookup and the link dies by itself.
 */

const LINK_AUDIENCE = 'lotwise-payment-portal';
const LINK_PURPOSE = 'lotwise:payment-portal-link';
const DAY_SECONDS = 86_400;

/** A key for payment links alone, so no other token the services sign can pass for one. */
function linkKey(): Uint8Array {
  return new Uint8Array(
    hkdfSync('sha256', serviceSettings().AUTH_SIGNING_KEY, 'lotwise', LINK_PURPOSE, 32),
  );
}

export interface LinkClaims {
  /** Which invoice: the account's test invoice, or (later) one buyer invoice by id. */
  inv: { kind: 'test' } | { kind: 'buyer'; id: string };
}

/** Signs a payment link's token for the account, valid for `days` from `now`. */
export async function signPaymentLink(
  accountId: string,
  invoice: LinkClaims['inv'],
  days: number,
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: string }> {
  const issued = Math.floor(now.getTime() / 1000);
  const expires = issued + days * DAY_SECONDS;
  const token = await new SignJWT({ inv: invoice } satisfies LinkClaims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(accountId)
    .setIssuer(serviceSettings().AUTH_ISSUER)
    .setAudience(LINK_AUDIENCE)
    .setIssuedAt(issued)
    .setExpirationTime(expires)
    .sign(linkKey());
  return { token, expiresAt: new Date(expires * 1000).toISOString() };
}

const invalidLink = () => notFound('This payment link is not valid');

/** The account and invoice of a genuine link; 410 once it has expired, 404 for anything else. */
export async function verifyPaymentLink(token: string, now: Date = new Date()) {
  try {
    const { payload } = await jwtVerify(token, linkKey(), {
      issuer: serviceSettings().AUTH_ISSUER,
      audience: LINK_AUDIENCE,
      algorithms: ['HS256'],
      currentDate: now,
    });
    const invoice = (payload as Partial<LinkClaims>).inv;
    const known =
      invoice?.kind === 'test' || (invoice?.kind === 'buyer' && typeof invoice.id === 'string');
    if (!payload.sub || !payload.exp || !invoice || !known) throw invalidLink();
    return { accountId: payload.sub, invoice, expiresAt: new Date(payload.exp * 1000) };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      throw new AppError(
        'gone',
        'This payment link has expired. Ask the auction house to send you a new one.',
      );
    }
    if (error instanceof joseErrors.JOSEError) throw invalidLink();
    throw error;
  }
}
