import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const contracts = fileURLToPath(new URL('./functions/src', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@contracts': contracts } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['functions/**/*.test.ts', 'web/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/api/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // One shared stack: files run one after another against it.
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'reliability',
          include: ['tests/reliability/**/*.test.ts'],
          globalSetup: ['tests/reliability/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One shared stack whose state each file changes: files run one after another.
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // A poll waits for the page to reach a state, as every Playwright wait does: the same
          // budget as their default (tests/support/browser.ts), not vitest's 1 s.
          expect: { poll: { timeout: 15_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
