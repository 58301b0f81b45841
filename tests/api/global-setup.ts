import type { TestProject } from 'vitest/node';
import type { JWK } from 'jose';
import {
  FAKE_CLIENT_ID,
  FAKE_CLIENT_SECRET,
  FAKE_TENANT,
  startFakeEntra,
} from '../support/fake-entra.js';
import { startTestStack } from '../support/test-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    authUrl: string;
    domainUrl: string;
    /** The local platform sandbox (`/<platform>/...` and its control API `/__sandbox/...`). */
    platformsUrl: string;
    /** The local Stripe (`/v1/...` for the SDK, its control API `/__stripe/...`). */
    stripeUrl: string;
    cosmosUrl: string;
    storageConnection: string;
    settings: Record<string, string>;
    entra: { authorityHost: string; privateJwk: JWK };
  }
}

/** Starts the local stack once for the whole API run. */
export default async function setup(project: TestProject) {
  const entra = await startFakeEntra();
  const testStack = await startTestStack('http://localhost:4280', {
    ENTRA_CLIENT_ID: FAKE_CLIENT_ID,
    ENTRA_TENANT_ID: FAKE_TENANT,
    ENTRA_CLIENT_SECRET: FAKE_CLIENT_SECRET,
    ENTRA_AUTHORITY_HOST: entra.authorityHost,
    // A failed webhook delivery is retried after 1 s rather than a minute (tests/api/webhooks).
    WEBHOOK_RETRY_BASE_MS: '1000',
  });
  project.provide('entra', { authorityHost: entra.authorityHost, privateJwk: entra.privateJwk });
  project.provide('authUrl', testStack.stack.authUrl);
  project.provide('domainUrl', testStack.stack.domainUrl);
  project.provide('platformsUrl', testStack.stack.platformsUrl as string);
  project.provide('stripeUrl', testStack.stack.stripeUrl as string);
  project.provide('cosmosUrl', testStack.settings.COSMOS_ENDPOINT as string);
  project.provide('storageConnection', testStack.settings.AzureWebJobsStorage as string);
  project.provide('settings', testStack.settings);
  return async () => {
    await testStack.stop();
    await entra.close();
  };
}
