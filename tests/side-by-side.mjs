// Runs npm scripts at the same time (`node tests/side-by-side.mjs lint typecheck`) and fails if
// any fails. For checks that share nothing and each keep one core busy.
import { runPrefixed } from './support/run-prefixed.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const codes = await Promise.all(
  process.argv
    .slice(2)
    .map((script) => runPrefixed(`[${script}]`, npm, ['run', '--silent', script])),
);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
