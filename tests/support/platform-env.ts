import { inject } from 'vitest';

/**
 * Points this test file's process at the shared test stack, so platform modules imported after
 * this call talk to its Cosmos emulator and Azurite.
 */
export function usePlatformEnvironment(overrides: Record<string, string> = {}): void {
  Object.assign(process.env, inject('settings'), overrides);
}
