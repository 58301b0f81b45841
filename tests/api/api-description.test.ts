import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';

describe.each([
  ['auth', 'authUrl', '/login'],
  ['domain', 'domainUrl', '/listBidders'],
] as const)('the %s app', (_app, base, expectedPath) => {
  const url = (path: string) => `${inject(base)}${path}`;

  it('serves its OpenAPI description at /openapi.json, to anyone', async () => {
    const response = await fetch(url('/openapi.json'));
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain(expectedPath);
    expect(Object.keys(document.paths)).toContain('/openapi.json');
  });

  it('serves it browsable at /docs, with its script and styles from the package', async () => {
    const page = await fetch(url('/docs'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    // Its policy runs no inline script: the page starts Swagger UI from a file.
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/script-src 'self'(;|$)/);
    expect(policy).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const start = await fetch(url('/docs/start.js'));
    expect(start.status).toBe(200);
    expect(await start.text()).toContain("url: 'openapi.json'");
    const script = await fetch(url('/docs/swagger-ui-bundle.js'));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    expect((await fetch(url('/docs/package.json'))).status).toBe(404);
    expect((await fetch(url('/docs/constructor'))).status).toBe(404);
    expect((await fetch(url('/docs/..%2F..%2Fpackage.json'))).status).toBe(404);
  });

  it('sends its security headers with every answer, a refusal too', async () => {
    const answers = [await fetch(url('/openapi.json')), await fetch(url(expectedPath))];
    expect(answers.map((answer) => answer.status)).toEqual([
      200,
      expectedPath === '/login' ? 405 : 401,
    ]);
    for (const answer of answers) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('strict-transport-security')).toBe(
        'max-age=31536000; includeSubDomains',
      );
    }
  });
});
