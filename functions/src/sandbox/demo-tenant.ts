import type { HouseInput } from '../identity/accounts/accounts.schema.js';
import type { AccountPlan } from '../identity/accounts/accounts.service.js';

/**
 * Harborview Auctions as every demo shows it: the plan with both add-ons, two houses and a group
 * of both. The local seed builds its Harborview from this, and each "Try the demo" sandbox too.
 */
export const DEMO_ACCOUNT_NAME = 'Harborview Auctions';

const fineArt: HouseInput = {
  name: 'Harborview Fine Art',
  businessName: 'Harborview Fine Art LLC',
  status: 'active',
  address: '210 Atlantic Avenue',
  city: 'Boston',
  state: 'MA',
  zip: '02110',
  country: 'USA',
  phone: '+1 617 555 0142',
  email: 'fineart@harborview.demo',
  website: 'https://harborview.demo/fine-art',
  timezone: 'America/New_York',
  currency: 'USD',
};

const estates: HouseInput = {
  name: 'Harborview Estates',
  businessName: 'Harborview Estates LLC',
  status: 'active',
  address: '48 Fore Street',
  city: 'Portland',
  state: 'ME',
  zip: '04101',
  country: 'USA',
  phone: '+1 207 555 0190',
  email: 'estates@harborview.demo',
  website: null,
  timezone: 'America/New_York',
  currency: 'USD',
};

export const demoAccountPlan: AccountPlan = {
  subscription: { tier: 'tier-3', addOns: { inventory: true, payments: true } },
  houses: [fineArt, estates],
  groups: [
    {
      name: 'New England Houses',
      description: 'Both Harborview sale rooms, reported together.',
      houseNames: [fineArt.name, estates.name],
    },
  ],
};
