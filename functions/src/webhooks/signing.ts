import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: 256 random bits, recognisable by its prefix. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

export const secretHint = (secret: string) => `whsec_…${secret.slice(-4)}`;

/**
 * The `Lotwise-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256>` where the HMAC key is
 * the secret exactly as shown and the message is `<t>.<raw body>`. While a rotated secret is
 * still honoured, one `v1` per secret (newest first); a receiver accepts any that matches.
 */
export function signatureHeader(secrets: string[], body: string, timestamp: number): string {
  const signed = `${timestamp}.${body}`;
  return [
    `t=${timestamp}`,
    ...secrets.map(
      (secret) => `v1=${createHmac('sha256', secret).update(signed, 'utf8').digest('hex')}`,
    ),
  ].join(',');
}
