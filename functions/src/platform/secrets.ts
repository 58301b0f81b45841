import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { settings } from './settings.js';

/** A URL-safe random token with the given bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Stored in place of a token: a leaked database then yields no usable tokens. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function dataKey(purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', settings().AUTH_SIGNING_KEY, 'lotwise', `lotwise:${purpose}`, 32),
  );
}

/** AES-256-GCM with a key derived for one purpose; for secrets that must be read back (TOTP). */
export function encryptSecret(plain: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', dataKey(purpose), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

export function decryptSecret(sealed: string, purpose: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !body) throw new Error('Unreadable sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', dataKey(purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(body, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

/** A numeric one-time code of the given length, uniformly distributed. */
export function numericCode(digits = 6): string {
  const max = 10 ** digits;
  let value: number;
  do {
    value = randomBytes(4).readUInt32BE(0);
  } while (value >= Math.floor(0x1_0000_0000 / max) * max);
  return String(value % max).padStart(digits, '0');
}

/** A keyed hash for short secrets (backup and one-time codes): useless without the server key. */
export function keyedHash(value: string, purpose: string): string {
  return createHmac('sha256', dataKey(purpose)).update(value, 'utf8').digest('base64url');
}
