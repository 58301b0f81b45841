import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { signingKey } from '../../platform/principal.js';
import { settings } from '../../platform/settings.js';

/**
 * OWASP's device cookies ("Slow Down Online Guessing Attacks with Device Cookies"): a successful
 * password sign-in hands the client a signed token naming the person and a device id. A later
 * attempt for the same person that carries it comes from a known device, which the account lock
 * does not apply to (login-throttle.ts), so someone guessing elsewhere cannot lock the person out.
 *
 * It travels in the JSON body, not as a cookie: in Azure the web app (Static Web Apps) and the
 * auth app (a Function App) are different sites, so a cookie would be a third-party cookie, which
 * Safari and Firefox's strict mode refuse; the client keeps it in localStorage beside the session
 * tokens. On its own it grants nothing: the password is still checked.
 */
const DEVICE_TOKEN_AUDIENCE = 'lotwise-device';
export const DEVICE_TOKEN_TTL_DAYS = 90;

export async function issueDeviceToken(userId: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setJti(randomUUID())
    .setIssuer(settings().AUTH_ISSUER)
    .setAudience(DEVICE_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${DEVICE_TOKEN_TTL_DAYS}d`)
    .sign(signingKey());
}

/** The device id of a valid device token issued to this user; anything else is an unknown client. */
export async function knownDevice(
  token: string | undefined,
  userId: string | undefined,
): Promise<string | undefined> {
  if (!token || !userId) return undefined;
  try {
    const { payload } = await jwtVerify(token, signingKey(), {
      issuer: settings().AUTH_ISSUER,
      audience: DEVICE_TOKEN_AUDIENCE,
      subject: userId,
      algorithms: ['HS256'],
    });
    return payload.jti;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return undefined;
    throw error;
  }
}
