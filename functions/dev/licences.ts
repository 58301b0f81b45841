import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The production dependencies (everything `npm install --omit=dev` installs for the Function Apps
 * and the web bundle) with their licences, from package-lock.json and each package's own files:
 * `npm run licences` lists them and fails on one whose licence is unknown or not one of ours.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Licences whose terms let us ship the package in a closed product (permissive, no copyleft). */
export const ACCEPTED = new Set([
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'CC0-1.0',
  'ISC',
  'MIT',
  'MIT/X11',
  'Python-2.0',
  'Unlicense',
  'Zlib',
]);

/** Packages that state no licence in a form read here, each with the licence a person checked. */
export const REVIEWED: Readonly<Record<string, string>> = {
  // Its package.json and README state none; its author's repository (substack/node-buffers) is MIT.
  buffers: 'MIT',
  // Its README ends "License: MIT".
  semaphore: 'MIT',
};

interface LockEntry {
  version?: string;
  license?: string;
  dev?: boolean;
  devOptional?: boolean;
  link?: boolean;
}

export interface Dependency {
  name: string;
  version: string;
  licence: string | null;
}

/** Whether an SPDX expression lets us ship: one accepted choice of an OR, every part of an AND. */
export function accepted(expression: string): boolean {
  const text = expression.trim().replace(/^\((.*)\)$/, '$1');
  if (/\sOR\s/.test(text)) return text.split(/\s+OR\s+/).some(accepted);
  if (/\sAND\s/.test(text)) return text.split(/\s+AND\s+/).every(accepted);
  return ACCEPTED.has(text);
}

/** A package's licence: the lock's, its package.json's (old forms too), or its LICENSE's title. */
function licenceOf(directory: string, name: string, entry: LockEntry): string | null {
  if (entry.license) return entry.license;
  const manifestPath = join(repoRoot, directory, 'package.json');
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      license?: string | { type?: string };
      licenses?: { type?: string }[];
    };
    const stated = typeof manifest.license === 'string' ? manifest.license : manifest.license?.type;
    const listed = manifest.licenses?.map((licence) => licence.type).filter(Boolean);
    if (stated) return stated;
    if (listed?.length) return listed.join(' OR ');
  }
  for (const file of ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'LICENCE']) {
    const path = join(repoRoot, directory, file);
    if (!existsSync(path)) continue;
    const title = readFileSync(path, 'utf8').trimStart().split('\n')[0] ?? '';
    if (/^MIT License/i.test(title)) return 'MIT';
  }
  return REVIEWED[name] ?? null;
}

/** The production dependencies of the workspace, by name and version, sorted. */
export function productionDependencies(
  lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  },
): Dependency[] {
  const found = new Map<string, Dependency>();
  for (const [directory, entry] of Object.entries(lock.packages)) {
    if (!directory.includes('node_modules/') || entry.dev || entry.devOptional || entry.link) {
      continue;
    }
    const name = directory.slice(directory.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const version = entry.version ?? '';
    found.set(`${name}@${version}`, { name, version, licence: licenceOf(directory, name, entry) });
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function main() {
  const dependencies = productionDependencies();
  const refused = dependencies.filter(
    (dependency) => dependency.licence === null || !accepted(dependency.licence),
  );
  for (const { name, version, licence } of dependencies) {
    process.stdout.write(`${name}@${version}\t${licence ?? 'UNKNOWN'}\n`);
  }
  const counts = new Map<string, number>();
  for (const { licence } of dependencies) {
    const key = licence ?? 'UNKNOWN';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  process.stdout.write(
    `\n${dependencies.length} production dependencies: ${[...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([licence, count]) => `${count} ${licence}`)
      .join(', ')}\n`,
  );
  if (refused.length) {
    process.stderr.write(
      `Not accepted: ${refused.map((d) => `${d.name}@${d.version} (${d.licence ?? 'UNKNOWN'})`).join(', ')}\n`,
    );
    process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
