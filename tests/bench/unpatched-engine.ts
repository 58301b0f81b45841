import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot } from '../../functions/dev/local-settings.js';

const packageDir = join(repoRoot, 'node_modules', '@zeit', 'cosmosdb-query');
const unpatchedDir = join(
  repoRoot,
  'node_modules',
  '.cache',
  'lotwise-bench',
  'cosmosdb-query-unpatched',
);
const patchFile = join(repoRoot, 'patches', '@zeit+cosmosdb-query+0.7.2.patch');

/**
 * A copy of the query engine with our patch taken back out, for before/after figures. It lives
 * inside node_modules so its own dependencies still resolve.
 */
export function unpatchedEngineDir(): string {
  if (!existsSync(join(unpatchedDir, 'lib', 'index.js'))) {
    rmSync(unpatchedDir, { recursive: true, force: true });
    cpSync(packageDir, unpatchedDir, { recursive: true });
    // The patch names files as a/node_modules/@zeit/cosmosdb-query/...; strip four parts.
    execFileSync('patch', ['-R', '-p4', '-s', '-i', patchFile], { cwd: unpatchedDir });
  }
  return unpatchedDir;
}

/** Makes every later require of the engine (including the emulator's) load the unpatched copy. */
export function useUnpatchedEngine(): void {
  const dir = unpatchedEngineDir();
  const Module = createRequire(import.meta.url)('node:module') as {
    _resolveFilename: (request: string, ...rest: unknown[]) => string;
  };
  const original = Module._resolveFilename;
  Module._resolveFilename = (request, ...rest) =>
    request === '@zeit/cosmosdb-query' ? join(dir, 'lib', 'index.js') : original(request, ...rest);
}
