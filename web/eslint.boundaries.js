import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The web's layers, enforced on resolved paths (relative imports and the `@contracts` alias
 * alike): app/ -> features/<f>/ -> components/, lib/. A feature imports neither app/ nor another
 * feature; whatever needs two features is composed in app/. Of the functions, the web imports
 * only the zod contracts (`*.schema.ts`) and identity/permissions, which import nothing but zod
 * and each other, so no server code reaches the bundle.
 *
 * The zones are made per feature from the folders under web/src/features when ESLint loads its
 * configuration, so a new feature is covered without editing this file.
 *
 * @param {string} root the repository's root folder
 * @returns {import('eslint').Linter.Config[]}
 */
export function webBoundaries(root = repoRoot) {
  const web = join(root, 'web');
  const src = join(web, 'src');
  const features = join(src, 'features');
  const functions = join(root, 'functions');
  const featureNames = readdirSync(features, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

  const zones = [
    ...featureNames.map((name) => ({
      target: join(features, name),
      from: features,
      except: [`./${name}`],
      message: `The ${name} feature may not import another feature; compose them in app/.`,
    })),
    {
      target: features,
      from: join(src, 'app'),
      message: 'Features may not import app/; app/ passes them what they need.',
    },
    {
      target: [join(src, 'components'), join(src, 'lib')],
      from: [features, join(src, 'app')],
      message: 'Shared components and lib/ may not import a feature or app/.',
    },
    {
      target: src,
      from: [`${functions}/**`],
      except: [`${functions}/src/{**/*.schema.ts,identity/permissions.ts}`],
      message: 'The web imports only the contracts (*.schema.ts) and identity/permissions.',
    },
  ];

  return [
    // This module and its test run in Node.
    { files: ['web/*.{js,ts}'], languageOptions: { globals: globals.node } },
    {
      files: ['web/src/**/*.{ts,tsx}'],
      plugins: { 'import-x': importX },
      settings: {
        'import-x/resolver-next': [
          createNodeResolver({
            extensions: ['.ts', '.tsx', '.js', '.jsx', '.json'],
            conditionNames: ['browser', 'import', 'default'],
            tsconfig: { configFile: join(web, 'tsconfig.json') },
          }),
        ],
      },
      rules: {
        'import-x/no-restricted-paths': ['error', { basePath: resolve(root), zones }],
      },
    },
  ];
}
