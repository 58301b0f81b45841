import type { TestProject } from 'vitest/node';
import { startTestStack } from '../support/test-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    authUrl: string;
    domainUrl: string;
    cosmosUrl: string;
    storageConnection: string;
    settings: Record<string, string>;
  }
}

/** Starts the local stack once for the whole API run. */
export default async function setup(project: TestProject) {
  const testStack = await startTestStack('http://localhost:4280');
  project.provide('authUrl', testStack.stack.authUrl);
  project.provide('domainUrl', testStack.stack.domainUrl);
  project.provide('cosmosUrl', testStack.settings.COSMOS_ENDPOINT as string);
  project.provide('storageConnection', testStack.settings.AzureWebJobsStorage as string);
  project.provide('settings', testStack.settings);
  return () => testStack.stop();
}
