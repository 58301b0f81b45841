import type { Platform } from '../../src/auctions/auctions.schema.js';
import { connectPlatform, saveSyncSettings } from '../../src/integrations/integrations.service.js';
import { systemContext } from '../../src/platform/context.js';
import { demoKey } from '../platforms/store.js';

/** The platforms the demo house sells on, each with its account in the local platform sandbox. */
const DEMO_PLATFORMS: Platform[] = ['ProxyBid', 'LiveAuctioneers'];

/**
 * Connects the demo tenant to its sandbox accounts on two platforms. Its Sync settings are
 * "Manual only", so the seeded auctions stay as they are until someone presses Refresh or
 * imports from the Import Auctions dialog (a schedule would change the demo under the tests
 * that read it).
 */
export async function seedDemoPlatforms(accountId: string, ownerName: string): Promise<void> {
  const ctx = systemContext(accountId);
  const asOwner = { ...ctx, actor: { ...ctx.actor, name: ownerName } };
  await saveSyncSettings(asOwner, 'defaults', { frequency: 'manual' });
  for (const platform of DEMO_PLATFORMS) {
    await connectPlatform(asOwner, platform, { apiKey: demoKey(platform), auctionHouseId: null });
  }
}
