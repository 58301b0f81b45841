import { freshOwner, type Owner } from './bidders.js';
import { GOOD_PASSWORD, signedIn } from './identity.js';
import { usePlatformEnvironment } from './platform-env.js';

/**
 * The owner of a brand-new account whose plan includes the Inventory and Payments add-ons, with a
 * token issued after the plan (tokens carry the plan's features). The plan is applied in this
 * process against the shared test stack, as the billing webhook would after a subscription.
 */
export async function ownerWithAddOns(): Promise<Owner> {
  usePlatformEnvironment();
  const { applyPlan } = await import('../../functions/src/identity/accounts/accounts.service.js');
  const owner = await freshOwner();
  await applyPlan(owner.accountId, {
    tier: 'tier-3',
    addOns: { inventory: true, payments: true },
  });
  return { ...owner, token: (await signedIn(owner.email, GOOD_PASSWORD)).accessToken };
}
