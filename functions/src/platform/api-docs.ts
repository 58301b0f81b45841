import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { notFound } from './errors.js';
import type { FunctionDefinition, HttpFunction } from './functions.js';
import { httpRoute } from './http.js';
import { openApiDocument } from './openapi.js';
import { settings } from './settings.js';

const require = createRequire(import.meta.url);

/**
 * The Swagger UI files the docs page loads, served from the package rather than a CDN. A Map, so
 * a name like `constructor` finds nothing rather than Object.prototype's own.
 */
const assets = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
]);

/** Starts Swagger UI: a file of its own, as the page's policy runs no inline script. */
const START_FILE = 'start.js';
const startScript = `window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#api', deepLinking: true });\n`;

/** The docs page loads its own files only; Swagger UI styles its elements inline. */
const DOCS_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const assetDirectory = () => dirname(require.resolve('swagger-ui-dist/package.json'));

function docsPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="api"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/${START_FILE}"></script>
</body>
</html>
`;
}

/**
 * `GET /openapi.json` (the description of every route this app serves) and `GET /docs` (the same,
 * browsable). The description is built once, from the app's own route tables.
 */
export function apiDescriptionFunctions(
  functions: FunctionDefinition[],
  app: string,
): HttpFunction[] {
  const title = `Lotwise ${app} API`;
  let document: ReturnType<typeof openApiDocument> | undefined;
  const own: HttpFunction[] = [
    httpRoute({
      name: 'openapi',
      route: 'openapi.json',
      methods: ['GET'],
      permission: 'public',
      summary: 'This description of the API',
      handler: async () => {
        document ??= openApiDocument([...functions, ...own], {
          title,
          version: settings().APP_VERSION,
        });
        return { json: document };
      },
    }),
    httpRoute({
      name: 'docs',
      route: 'docs',
      methods: ['GET'],
      permission: 'public',
      summary: 'The API description, browsable',
      handler: async () => ({
        body: docsPage(title),
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-cache',
          'content-security-policy': DOCS_POLICY,
        },
      }),
    }),
    httpRoute({
      name: 'docs-asset',
      route: 'docs/{file}',
      methods: ['GET'],
      permission: 'public',
      summary: 'A file of the browsable API description',
      params: z.object({ file: z.string().max(100) }),
      handler: async ({ params }) => {
        if (params.file === START_FILE) {
          return {
            body: startScript,
            headers: {
              'content-type': 'text/javascript; charset=utf-8',
              'cache-control': 'no-cache',
            },
          };
        }
        const type = assets.get(params.file);
        if (!type) throw notFound('No such file');
        return {
          body: await readFile(join(assetDirectory(), params.file)),
          headers: { 'content-type': type, 'cache-control': 'public, max-age=86400' },
        };
      },
    }),
  ];
  return own;
}
