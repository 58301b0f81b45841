import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webBoundaries } from './eslint.boundaries.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const rule = 'import-x/no-restricted-paths';

/** The boundary problems ESLint finds in a snippet placed at `filePath` (relative to `cwd`). */
async function boundaryErrors(eslint: ESLint, code: string, filePath: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === rule || message.fatal)
    .map((message) => message.message);
}

describe('the web boundaries in eslint.config.js', () => {
  const eslint = new ESLint({ cwd: repoRoot });
  const check = (code: string, filePath: string) => boundaryErrors(eslint, code, filePath);

  it('stop a feature importing app/', async () => {
    expect(
      await check(
        "export { viewExists } from '../../../app/shell/views';\n",
        'web/src/features/help/components/Probe.tsx',
      ),
    ).toEqual([expect.stringContaining('Features may not import app/')]);
  });

  it('stop a feature importing another feature', async () => {
    expect(
      await check(
        "export { useScoringSettings } from '../../scoring/api/scoring';\n",
        'web/src/features/bidders/components/Probe.tsx',
      ),
    ).toEqual([expect.stringContaining('The bidders feature may not import another feature')]);
  });

  it('stop shared components importing a feature', async () => {
    expect(
      await check(
        "export { logout } from '../features/auth/api/session';\n",
        'web/src/components/Probe.tsx',
      ),
    ).toEqual([expect.stringContaining('may not import a feature or app/')]);
  });

  it('let the web import only the contracts of the functions, by alias or by path', async () => {
    expect(
      await check(
        [
          "export { listBidders } from '@contracts/bidders/bidders.service';",
          "export { biddersRepo } from '../../../../../functions/src/bidders/bidders.repo';",
          "export { container } from '@contracts/platform/cosmos';",
        ].join('\n'),
        'web/src/features/bidders/api/probe.ts',
      ),
    ).toEqual([
      expect.stringContaining('@contracts/bidders/bidders.service'),
      expect.stringContaining('functions/src/bidders/bidders.repo'),
      expect.stringContaining('@contracts/platform/cosmos'),
    ]);
  });

  it('allow what the layers permit', async () => {
    expect(
      await check(
        [
          "export { bidderSchema } from '@contracts/bidders/bidders.schema';",
          "export { roleLabels } from '@contracts/identity/permissions';",
          "export { useBidderList } from './bidders';",
          "export { StatCard } from '../../../components/StatCard';",
          "export { useAction } from '../../../lib/use-action';",
        ].join('\n'),
        'web/src/features/bidders/api/probe.ts',
      ),
    ).toEqual([]);
    expect(
      await check(
        [
          "export { default as BiddersPage } from '../features/bidders/components/BiddersPage';",
          "export { ScoringTab } from '../features/scoring/components/ScoringTab';",
        ].join('\n'),
        'web/src/app/probe.ts',
      ),
    ).toEqual([]);
  });
});

describe('the boundaries of a feature added later', () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'lotwise-boundaries-'));
    write(
      'web/tsconfig.json',
      '{ "compilerOptions": { "paths": { "@contracts/*": ["../functions/src/*"] } } }',
    );
    write('web/src/features/invoices/api/invoices.ts', 'export const invoices = 1;\n');
    write('web/src/features/payments/api/payments.ts', 'export const payments = 1;\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is made from the folders under features/', async () => {
    const eslint = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [
        { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
        ...webBoundaries(root),
      ],
    });
    const filePath = 'web/src/features/payments/components/Probe.ts';
    expect(
      await boundaryErrors(
        eslint,
        "export { invoices } from '../../invoices/api/invoices';\n",
        filePath,
      ),
    ).toEqual([expect.stringContaining('The payments feature may not import another feature')]);
    expect(
      await boundaryErrors(eslint, "export { payments } from '../api/payments';\n", filePath),
    ).toEqual([]);
  });
});

describe('the contracts the web imports', () => {
  const functionsSrc = join(repoRoot, 'functions/src');
  const allowed = (file: string) =>
    file.endsWith('.schema.ts') || file === join(functionsSrc, 'identity/permissions.ts');
  const importsOf = (file: string) =>
    ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((entry) => entry.fileName);
  const sourcesIn = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? sourcesIn(join(folder, entry.name))
        : /\.tsx?$/.test(entry.name)
          ? [join(folder, entry.name)]
          : [],
    );

  it('import nothing but zod and each other, so no server code reaches the bundle', () => {
    const reached = new Set<string>();
    const pending = sourcesIn(join(repoRoot, 'web/src')).flatMap((file) =>
      importsOf(file)
        .filter((name) => name.startsWith('@contracts/'))
        .map((name) => `${join(functionsSrc, name.slice('@contracts/'.length))}.ts`),
    );
    const problems: string[] = [];
    while (pending.length) {
      const file = pending.pop() as string;
      if (reached.has(file)) continue;
      reached.add(file);
      if (!allowed(file)) problems.push(`${relative(repoRoot, file)} is not a contract`);
      for (const name of importsOf(file)) {
        if (name.startsWith('.'))
          pending.push(resolve(dirname(file), name.replace(/\.js$/, '.ts')));
        else if (name !== 'zod') problems.push(`${relative(repoRoot, file)} imports ${name}`);
      }
    }
    expect(problems).toEqual([]);
    expect(reached.size).toBeGreaterThan(5);
  });
});
