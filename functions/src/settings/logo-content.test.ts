import { describe, expect, it } from 'vitest';
import { checkLogo } from './logo-content.js';

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const jpg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const svg = (body: string) =>
  Buffer.from(
    `<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="80">${body}</svg>\n`,
  );

describe('what a portal logo is', () => {
  it('knows PNG and JPEG by their bytes, whatever the name', () => {
    expect(checkLogo(png)).toEqual({ ok: true, kind: 'png' });
    expect(checkLogo(jpg)).toEqual({ ok: true, kind: 'jpg' });
  });

  it('accepts a plain SVG, including references inside itself', () => {
    expect(checkLogo(svg('<rect width="200" height="80" fill="#1f4e79"/>'))).toEqual({
      ok: true,
      kind: 'svg',
    });
    expect(
      checkLogo(
        svg(
          '<defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="9" height="9"/><use xlink:href="#g"/>',
        ),
      ),
    ).toEqual({ ok: true, kind: 'svg' });
  });

  it('refuses anything else: an executable, HTML, a truncated SVG, binary text', () => {
    const notImage = { ok: false, reason: 'The logo must be a PNG, JPG or SVG image' };
    expect(checkLogo(Buffer.from('MZ\x90\x00\x03\x00\x00\x00'))).toEqual(notImage);
    expect(checkLogo(Buffer.from('<html><svg></svg></html>'))).toEqual(notImage);
    expect(checkLogo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect/>'))).toEqual(
      notImage,
    );
    expect(checkLogo(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0xff, 0xfe]))).toEqual(notImage);
  });

  it.each([
    ['<script>alert(1)</script>', 'a script'],
    ['<rect onload="alert(1)"/>', 'event-handler attributes (such as onload)'],
    ['<foreignObject><div/></foreignObject>', 'a foreignObject element'],
    ['<a href="javascript:alert(1)"><rect/></a>', 'a javascript: address'],
    ['<a href="&#106;avascript:alert(1)"><rect/></a>', 'character references'],
    [
      '<image href="https://tracker.example/p.png"/>',
      'external references (links or images from elsewhere)',
    ],
    ['<use xlink:href="other.svg#a"/>', 'external references (links or images from elsewhere)'],
    ['<rect style="fill:url(https://x.example/a)"/>', 'external references (url() from elsewhere)'],
    ['<style>@import "https://x.example/a.css";</style>', 'external references (@import)'],
    ['<iframe src="https://x.example"/>', 'embedded content'],
  ])('refuses an SVG with %s', (body, reason) => {
    expect(checkLogo(svg(body))).toEqual({
      ok: false,
      reason: `An SVG logo may not contain ${reason}`,
    });
  });

  it('refuses entity declarations, which could read files or expand without end', () => {
    const withEntity = Buffer.from(
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>',
    );
    expect(checkLogo(withEntity).ok).toBe(false);
  });
});
