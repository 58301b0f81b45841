import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { functionBoundaries, functionFeatures } from './eslint.boundaries.js';

const eslint = new ESLint({
  cwd: new URL('..', import.meta.url).pathname,
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
    ...functionBoundaries(),
  ],
});

async function problems(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.message);
}

describe('the functions’ import boundaries', () => {
  it('are generated for every feature folder', () => {
    expect(functionFeatures()).toEqual(expect.arrayContaining(['bidders', 'identity', 'scoring']));
    expect(functionFeatures()).not.toContain('platform');
  });

  it('keep features out of platform/', async () => {
    expect(
      await problems(
        'functions/src/platform/http.ts',
        "import { x } from '../bidders/bidders.service.js';",
      ),
    ).toEqual([expect.stringMatching(/imports none of them/)]);
    expect(
      await problems('functions/src/platform/http.ts', "import { x } from './errors.js';"),
    ).toEqual([]);
  });

  it('keep repos out of route files, even their own feature’s', async () => {
    expect(
      await problems(
        'functions/src/bidders/bidders.routes.ts',
        "import { biddersRepo } from './bidders.repo.js';",
      ),
    ).toEqual([expect.stringMatching(/only a service may use a repo/)]);
    expect(
      await problems(
        'functions/src/bidders/bidders.routes.ts',
        "import { listBidders } from './bidders.service.js';",
      ),
    ).toEqual([]);
  });

  it('let a service use its own repo but never another feature’s', async () => {
    expect(
      await problems(
        'functions/src/bidders/bidders.service.ts',
        "import { biddersRepo } from './bidders.repo.js';",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'functions/src/scoring/scoring.service.ts',
        "import { biddersRepo } from '../bidders/bidders.repo.js';",
      ),
    ).toEqual([expect.stringMatching(/bidders feature's service/)]);
    expect(
      await problems(
        'functions/src/scoring/scoring.service.ts',
        "import { getBidder } from '../bidders/bidders.service.js';",
      ),
    ).toEqual([]);
  });
});
