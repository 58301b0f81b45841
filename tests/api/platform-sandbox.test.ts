import { describe, expect, inject, it } from 'vitest';
import { platforms } from '../../functions/src/auctions/auctions.schema.js';
import {
  PlatformError,
  configuredConnector,
  platformBaseUrl,
} from '../../functions/src/integrations/connectors/index.js';
import { parseExportFile } from '../../functions/src/integrations/connectors/export-files.js';
import { usePlatformEnvironment } from '../support/platform-env.js';
import { demoKey, expiredDemoKey, platformSandbox } from '../support/platforms.js';

/**
 * The stack starts the local platform sandbox and gives the services its URLs as settings: each
 * platform's connector, configured from those settings as the services configure it, reaches the
 * demo tenant's account there.
 */

usePlatformEnvironment();
const sandbox = platformSandbox();

describe('the platform sandbox of the stack', () => {
  it("is where every platform's setting points", () => {
    for (const platform of platforms) {
      expect(platformBaseUrl(platform)).toBe(sandbox.platformUrls[platform]);
      expect(platformBaseUrl(platform)?.startsWith(inject('platformsUrl'))).toBe(true);
    }
  });

  it.each(platforms)("opens the demo tenant's %s account with its demo key", async (platform) => {
    const connector = configuredConnector(platform, demoKey(platform));
    expect(await connector?.testCredentials()).toEqual({ accountName: 'Harborview Auctions' });
    const page = await connector?.listAuctions(null, null);
    expect(page?.items.length).toBeGreaterThanOrEqual(6);
  });

  it.each(platforms)("answers %s's expired demo key as expired", async (platform) => {
    const failure = await configuredConnector(platform, expiredDemoKey(platform))
      ?.testCredentials()
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PlatformError);
    expect((failure as PlatformError).failure).toBe('key_expired');
  });

  it('makes accounts, switches faults and serves export files through its control API', async () => {
    const account = await sandbox.createAccount({
      platform: 'Invaluable',
      auctions: 2,
      bidders: 12,
      include: [{ firstName: 'Planted', lastName: 'Person', email: 'planted@example.com' }],
    });
    const connector = configuredConnector('Invaluable', account.key);
    const { items } = (await connector?.listBidders(null, null)) ?? { items: [] };
    expect(items.map((bidder) => bidder.email)).toContain('planted@example.com');

    await sandbox.setFaults(account.key, { unavailable: true });
    const failure = await connector?.listBidders(null, null).catch((error: unknown) => error);
    expect((failure as PlatformError).failure).toBe('unavailable');
    await sandbox.clearFaults(account.key);

    const file = await sandbox.exportFile('Invaluable', 'bidders', 'xlsx', account.key);
    const { bidders, errors } = await parseExportFile('Invaluable', 'bidders', file);
    expect(errors).toEqual([]);
    expect(bidders).toHaveLength(12);
  });
});
