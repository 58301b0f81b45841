import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The functions' import boundaries (ARCHITECTURE.md, "Boundaries"), as ESLint rules generated
 * from the folders under functions/src, so a new feature is covered the day its folder exists:
 *   index/registry -> <feature>/ -> platform/     (platform imports no feature)
 *   <f>.routes.ts -> <f>.service.ts -> <f>.repo.ts (routes never import repos)
 *   a feature calls another feature's service, never its repo
 */

const source = fileURLToPath(new URL('./src/', import.meta.url));
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const functionFeatures = () =>
  readdirSync(source, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'platform')
    .map((entry) => entry.name)
    .sort();

/** Any import of a module whose file name ends in `.repo` (with or without an extension). */
const anyRepo = {
  regex: '\\.repo(\\.[jt]s)?$',
  message: 'Routes call services; only a service may use a repo.',
};

const repoOf = (feature) => ({
  regex: `(^|/)${escape(feature)}/(.+/)?[^/]+\\.repo(\\.[jt]s)?$`,
  message: `Call the ${feature} feature's service, never its repo.`,
});

const platformRule = (features) => ({
  files: ['functions/src/platform/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^\\.\\./(${features.map(escape).join('|')}|registry|index|register)(/|\\.js$|$)`,
            message: 'platform/ is shared by every feature and imports none of them.',
          },
        ],
      },
    ],
  },
});

const featureRules = (feature, features) => {
  const others = features.filter((other) => other !== feature).map(repoOf);
  const files = [`functions/src/${feature}/**/*.ts`];
  const routes = `functions/src/${feature}/**/*.routes.ts`;
  return [
    {
      files,
      ignores: [routes],
      rules: { 'no-restricted-imports': ['error', { patterns: others }] },
    },
    {
      files: [routes],
      rules: { 'no-restricted-imports': ['error', { patterns: [anyRepo, ...others] }] },
    },
  ];
};

export function functionBoundaries() {
  const features = functionFeatures();
  return [
    platformRule(features),
    ...features.flatMap((feature) => featureRules(feature, features)),
  ];
}
