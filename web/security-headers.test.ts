import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const config = JSON.parse(
  readFileSync(new URL('../staticwebapp.config.json', import.meta.url), 'utf8'),
) as { globalHeaders: Record<string, string> };

/** The policy's directives by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name as string, values]),
  );
}

describe('the headers Static Web Apps sends with the web app', () => {
  const policy = directives(config.globalHeaders['Content-Security-Policy'] ?? '');

  it('runs no inline or evaluated script, and is framed by no one', () => {
    expect(policy.get('script-src')).toEqual(["'self'", 'https://js.stripe.com']);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(config.globalHeaders['X-Frame-Options']).toBe('DENY');
  });

  it('lets the app reach its APIs, its uploads and Stripe, and nothing over plain HTTP', () => {
    const connect = policy.get('connect-src') ?? [];
    expect(connect).toEqual(
      expect.arrayContaining([
        "'self'",
        'https://*.azurewebsites.net',
        'https://*.blob.core.windows.net',
        'https://api.stripe.com',
      ]),
    );
    for (const values of policy.values()) {
      expect(values.filter((value) => value.startsWith('http:'))).toEqual([]);
    }
    expect(config.globalHeaders['Strict-Transport-Security']).toMatch(/^max-age=31536000/);
  });

  it('holds for the page it serves: no inline script in index.html', () => {
    const html = readFileSync(new URL('./index.html', import.meta.url), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  });
});
