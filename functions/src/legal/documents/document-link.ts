import { z } from 'zod';
import { forbidden } from '../../platform/errors.js';
import { keyedHash, safeEqual } from '../../platform/secrets.js';

/**
 * The token of a document's download link: which account's document, of which case, until when,
 * signed with a key derived from the service's signing key. Stateless, so the link is checked
 * without a lookup and dies by itself.
 */

const PURPOSE = 'legal-document-link';
const VERSION = 'v1';

export interface LinkClaims {
  accountId: string;
  caseId: string;
  documentId: string;
  /** Unix seconds. */
  expires: number;
}

const claimsSchema = z.object({
  a: z.string().min(1),
  c: z.string().min(1),
  d: z.string().min(1),
  e: z.number().int(),
});

const signatureOf = (payload: string) => keyedHash(`${VERSION}.${payload}`, PURPOSE);

export function signDocumentLink(claims: LinkClaims): string {
  const payload = Buffer.from(
    JSON.stringify({
      a: claims.accountId,
      c: claims.caseId,
      d: claims.documentId,
      e: claims.expires,
    }),
    'utf8',
  ).toString('base64url');
  return `${VERSION}.${payload}.${signatureOf(payload)}`;
}

const invalid = () => forbidden('This download link is not valid');

/** The claims of a genuine, unexpired token; 403 for anything else. */
export function verifyDocumentLink(token: string, now: Date = new Date()): LinkClaims {
  const [version, payload, signature, ...rest] = token.split('.');
  if (version !== VERSION || !payload || !signature || rest.length > 0) throw invalid();
  if (!safeEqual(signature, signatureOf(payload))) throw invalid();
  let parsed: z.infer<typeof claimsSchema>;
  try {
    parsed = claimsSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    throw invalid();
  }
  if (parsed.e * 1000 <= now.getTime()) {
    throw forbidden('This download link has expired; open the document again for a new link');
  }
  return { accountId: parsed.a, caseId: parsed.c, documentId: parsed.d, expires: parsed.e };
}
