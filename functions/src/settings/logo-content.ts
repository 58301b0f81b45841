/**
 * What an uploaded portal logo really is, from its bytes: a PNG, a JPEG or an SVG. The logo is
 * served to anyone who opens a payment link, so an SVG that could run script or load anything
 * from elsewhere is refused outright (with the reason) rather than rewritten: a sanitiser that
 * misses one trick serves it to every buyer, a refusal costs the owner one re-export.
 */

export type LogoKind = 'png' | 'jpg' | 'svg';

export const logoContentTypes: Record<LogoKind, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  svg: 'image/svg+xml',
};

export type LogoCheck = { ok: true; kind: LogoKind } | { ok: false; reason: string };

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

const startsWith = (data: Buffer, signature: Buffer) =>
  data.length >= signature.length && data.subarray(0, signature.length).equals(signature);

const NOT_AN_IMAGE = 'The logo must be a PNG, JPG or SVG image';

/** Each thing an SVG logo may not hold, and how the refusal names it. */
const svgRefusals: { pattern: RegExp; reason: string }[] = [
  { pattern: /<!(DOCTYPE|ENTITY)/i, reason: 'a DOCTYPE or entity declarations' },
  { pattern: /<script[\s>/]/i, reason: 'a script' },
  { pattern: /<foreignObject[\s>/]/i, reason: 'a foreignObject element' },
  { pattern: /<(iframe|embed|object)[\s>/]/i, reason: 'embedded content' },
  { pattern: /[\s"'/]on[a-z]+\s*=/i, reason: 'event-handler attributes (such as onload)' },
  { pattern: /javascript\s*:/i, reason: 'a javascript: address' },
  // A character reference can spell "javascript:" past the check above.
  { pattern: /&#/, reason: 'character references' },
  {
    pattern: /\bhref\s*=\s*["']\s*(?!#)/i,
    reason: 'external references (links or images from elsewhere)',
  },
  { pattern: /url\(\s*["']?\s*(?!#)/i, reason: 'external references (url() from elsewhere)' },
  { pattern: /@import/i, reason: 'external references (@import)' },
];

/** The text of an SVG document, or undefined when the bytes are not one. */
function svgText(data: Buffer): string | undefined {
  if (data.includes(0)) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return undefined;
  }
  // The root must be <svg>: after an XML declaration, comments and white space, nothing else.
  const body = text
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^>]*\?>/, '')
    .replace(/^(\s*<!--[\s\S]*?-->)*/, '')
    .trimStart();
  if (
    !/^<svg[\s>/]/.test(body) ||
    !/<\/svg\s*>\s*(<!--[\s\S]*?-->\s*)*$|^<svg[^>]*\/>\s*$/.test(body)
  )
    return undefined;
  return text;
}

/** Whether the bytes are a logo the portal may show, and which kind; else why not. */
export function checkLogo(data: Buffer): LogoCheck {
  if (startsWith(data, PNG)) return { ok: true, kind: 'png' };
  if (startsWith(data, JPEG)) return { ok: true, kind: 'jpg' };
  const text = svgText(data);
  if (text === undefined) return { ok: false, reason: NOT_AN_IMAGE };
  const refused = svgRefusals.find((refusal) => refusal.pattern.test(text));
  if (refused) {
    return { ok: false, reason: `An SVG logo may not contain ${refused.reason}` };
  }
  return { ok: true, kind: 'svg' };
}
