import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import type { TestProject } from 'vitest/node';
import { repoRoot } from '../../functions/dev/local-settings.js';
import { freePort } from '../support/ports.js';
import { startTestStack } from '../support/test-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    webUrl: string;
    authUrl: string;
    domainUrl: string;
    platformsUrl: string;
    stripeUrl: string;
  }
}

/**
 * The real stack plus the production build of the web app, served as Static Web Apps would
 * (every unknown path falls back to index.html).
 */
export default async function setup(project: TestProject) {
  const webPort = await freePort();
  const webUrl = `http://localhost:${webPort}`;
  const testStack = await startTestStack(webUrl);
  const outDir = mkdtempSync(join(tmpdir(), 'lotwise-web-'));
  try {
    process.env.VITE_AUTH_API_URL = testStack.stack.authUrl;
    process.env.VITE_DOMAIN_API_URL = testStack.stack.domainUrl;
    const root = join(repoRoot, 'web');
    // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({
        root,
        mode: 'production',
        logLevel: 'warn',
        build: { outDir, emptyOutDir: true },
      });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
    const server = await preview({
      root,
      logLevel: 'warn',
      build: { outDir },
      preview: { port: webPort, strictPort: true, host: 'localhost' },
    });
    project.provide('webUrl', webUrl);
    project.provide('authUrl', testStack.stack.authUrl);
    project.provide('domainUrl', testStack.stack.domainUrl);
    project.provide('platformsUrl', testStack.stack.platformsUrl as string);
    project.provide('stripeUrl', testStack.stack.stripeUrl as string);
    // ownerWithAddOns() applies a plan in the test's process against this stack's database.
    project.provide('settings', testStack.settings);
    return async () => {
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
      await testStack.stop();
      rmSync(outDir, { recursive: true, force: true });
    };
  } catch (error) {
    await testStack.stop();
    throw error;
  }
}
