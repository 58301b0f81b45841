// Runs the browser tests as shards side by side, each a vitest process with its own stack and web
// build (the stacks share nothing, so no test sees another's data). A browser test spends most of
// its time waiting on the page, so two shards keep a 2-core machine busy where one left it idle.
// Files are dealt to the shards longest first, by the durations CI last measured.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPrefixed } from '../support/run-prefixed.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const shards = Math.max(1, Number(process.env.E2E_SHARDS ?? 2));
const seconds = JSON.parse(readFileSync(join(here, 'durations.json'), 'utf8'));
// Files named on the command line narrow the run to them.
const named = process.argv.slice(2).map((file) => relative(root, join(process.cwd(), file)));
const files = named.length
  ? named
  : readdirSync(here)
      .filter((name) => name.endsWith('.test.ts'))
      .map((name) => relative(root, join(here, name)));
const known = Object.values(seconds);
const typical = known.length ? known.sort((a, b) => a - b)[Math.floor(known.length / 2)] : 30;
const weightOf = (file) => seconds[file.split('/').pop()] ?? typical;

const groups = Array.from({ length: shards }, () => ({ files: [], total: 0 }));
for (const file of [...files].sort((a, b) => weightOf(b) - weightOf(a))) {
  const lightest = groups.reduce((best, group) => (group.total < best.total ? group : best));
  lightest.files.push(file);
  lightest.total += weightOf(file);
}

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const codes = await Promise.all(
  groups
    .filter((group) => group.files.length)
    .map((group, index) => {
      const label = `[e2e ${index + 1}/${shards}]`;
      process.stdout.write(
        `${label} ${group.files.length} files, about ${Math.round(group.total)} s\n`,
      );
      return runPrefixed(
        label,
        process.execPath,
        [vitest, 'run', '--project', 'e2e', ...group.files],
        {
          cwd: root,
        },
      );
    }),
);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
