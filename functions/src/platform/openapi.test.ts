import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { useSampleSettings } from '../../dev/local-settings.js';

useSampleSettings();
const { functionsFor } = await import('../registry.js');
const { describedRoutes, openApiDocument } = await import('./openapi.js');

describe.each(['auth', 'domain'] as const)('the %s app’s API description', (app) => {
  const functions = functionsFor(app);
  const document = openApiDocument(functions, { title: `Lotwise ${app} API`, version: 'test' });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(
      JSON.parse(JSON.stringify(document)) as Record<string, unknown>,
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every HTTP route the app serves, with its permission', () => {
    const http = functions.filter((fn) => fn.kind === 'http' && !fn.route.includes('{*'));
    expect(describedRoutes(functions)).toHaveLength(http.length);
    for (const fn of http) {
      if (fn.kind !== 'http') continue;
      for (const method of fn.methods) {
        const operation = document.paths[`/${fn.route}`]?.[method.toLowerCase()];
        expect(operation, `${method} /${fn.route}`).toBeDefined();
        expect(operation?.['x-permission']).toBe(fn.permission);
        expect(operation?.security).toEqual(
          fn.permission === 'public'
            ? []
            : fn.contract?.apiKeys
              ? [{ bearer: [] }, { apiKey: [] }]
              : [{ bearer: [] }],
        );
      }
    }
  });

  it('names If-Match where a route needs it, and the 428 and 412 it answers', () => {
    for (const fn of describedRoutes(functions)) {
      if (fn.contract.concurrency !== 'if-match') continue;
      for (const method of fn.methods) {
        const operation = document.paths[`/${fn.route}`]?.[method.toLowerCase()];
        expect(operation?.parameters).toContainEqual(
          expect.objectContaining({ name: 'If-Match', in: 'header', required: true }),
        );
        expect(Object.keys(operation?.responses ?? {})).toEqual(
          expect.arrayContaining(['412', '428']),
        );
      }
    }
  });
});
