import { inject } from 'vitest';
import { sandboxControl } from '../../functions/dev/platforms/client.js';
import { platformUrls } from '../../functions/dev/platforms/server.js';
import type { Platform } from '../../functions/src/auctions/auctions.schema.js';
import { connectorFor } from '../../functions/src/integrations/connectors/index.js';

export { demoKey, expiredDemoKey } from '../../functions/dev/platforms/store.js';

/**
 * The test stack's platform sandbox: its control API (accounts, faults, platform-side changes,
 * pushes, export files) and its platforms' base URLs, as the services were given them.
 */
export function platformSandbox() {
  const url = inject('platformsUrl');
  return { ...sandboxControl(url), platformUrls: platformUrls(url) };
}

/** An adapter talking to the test stack's sandbox, as the services would. */
export function sandboxConnector(platform: Platform, apiKey: string, timeoutMs = 5_000) {
  return connectorFor(platform, {
    baseUrl: platformUrls(inject('platformsUrl'))[platform],
    credentials: { apiKey },
    timeoutMs,
  });
}
