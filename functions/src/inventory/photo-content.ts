import type { PhotoContentType } from './inventory.schema.js';

/** What an uploaded photo really is, from its first bytes: JPEG, PNG or WebP; else undefined. */
export function photoTypeOf(data: Buffer): PhotoContentType | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) {
    return 'image/jpeg';
  }
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (data.length >= png.length && data.subarray(0, png.length).equals(png)) return 'image/png';
  // RIFF, a little-endian length, then WEBP.
  if (
    data.length >= 12 &&
    data.toString('latin1', 0, 4) === 'RIFF' &&
    data.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return 'image/webp';
  }
  return undefined;
}
