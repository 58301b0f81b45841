import { tierIds, type AddOnId, type BillingInterval, type TierId } from './billing.schema.js';

export type { AddOnId, BillingInterval, TierId };

/**
 * The plans Lotwise sells (spec: legal-settings-inventory-payments-data 9.1), exactly: monthly fees
 * in cents, the bidders a period includes, the fee per extra bidder (in cents here, the spec's
 * dollars times 100) and the fee on auction revenue in basis points (hundredths of a percent).
 */

export interface Tier {
  id: TierId;
  name: string;
  monthlyFee: number;
  includedBidders: number;
  overageFee: number;
  auctionTransactionFeeBps: number;
  description: string;
  features: string[];
  dataSharing: 'required' | 'encouraged' | 'optional';
}

export interface AddOn {
  id: AddOnId;
  name: string;
  description: string;
  monthlyFee: number;
  targetTiers: TierId[];
  valueProposition: string;
  features: string[];
  setupFee?: number;
  setupFeeWaivedTiers?: TierId[];
  transactionFees?: {
    card: { percentageBps: number; fixedFee: number };
    ach: { percentageBps: number; fixedFee: number };
  };
}

export const tiers: readonly Tier[] = [
  {
    id: 'tier-1',
    name: 'Enterprise',
    monthlyFee: 750000,
    includedBidders: 20000,
    overageFee: 10,
    auctionTransactionFeeBps: 25,
    description: 'For national houses running sales every week.',
    features: ['Unlimited auctions', 'Data sharing required', 'Dedicated success manager'],
    dataSharing: 'required',
  },
  {
    id: 'tier-2',
    name: 'Professional',
    monthlyFee: 435000,
    includedBidders: 10000,
    overageFee: 15,
    auctionTransactionFeeBps: 15,
    description: 'For established houses with several salerooms.',
    features: ['Up to 100 auctions a month', 'Priority support'],
    dataSharing: 'encouraged',
  },
  {
    id: 'tier-3',
    name: 'Business',
    monthlyFee: 225000,
    includedBidders: 2500,
    overageFee: 20,
    auctionTransactionFeeBps: 20,
    description: 'For growing houses with a regular calendar.',
    features: ['Up to 50 auctions a month', 'Custom scoring'],
    dataSharing: 'encouraged',
  },
  {
    id: 'tier-4',
    name: 'Starter',
    monthlyFee: 105000,
    includedBidders: 500,
    overageFee: 25,
    auctionTransactionFeeBps: 25,
    description: 'For houses moving their sales online.',
    features: ['Up to 25 auctions a month'],
    dataSharing: 'optional',
  },
  {
    id: 'tier-5',
    name: 'Essential',
    monthlyFee: 40000,
    includedBidders: 50,
    overageFee: 35,
    auctionTransactionFeeBps: 100,
    description: 'For small houses starting out.',
    features: ['Up to 10 auctions a month'],
    dataSharing: 'optional',
  },
];

export const addOns: readonly AddOn[] = [
  {
    id: 'inventory',
    name: 'Inventory',
    description: 'Catalogue, value and track every item from intake to sale.',
    monthlyFee: 50000,
    targetTiers: [...tierIds],
    valueProposition: 'Know what you hold, what it is worth and which sale it belongs in.',
    features: ['Item catalogue with photos', 'Value estimates', 'Auction suggestions'],
  },
  {
    id: 'payments',
    name: 'Payments',
    description: 'Invoice buyers and take payment through your own branded portal.',
    monthlyFee: 0,
    targetTiers: [...tierIds],
    valueProposition: 'Get paid faster, with every payment matched to its invoice.',
    features: ['Buyer invoices', 'Branded payment portal', 'Refunds and disputes'],
    setupFee: 75000,
    setupFeeWaivedTiers: ['tier-1', 'tier-2', 'tier-3'],
    transactionFees: {
      card: { percentageBps: 310, fixedFee: 30 },
      ach: { percentageBps: 150, fixedFee: 0 },
    },
  },
];

/** Scored bidders an account may have before it needs a plan. */
export const FREEMIUM_BIDDER_LIMIT = 50;
/** A year costs ten months (the spec's "Save 17%"). */
export const YEARLY_MONTHS = 10;
export const BILLING_CURRENCY = 'usd';

export const tierById = (id: string) => tiers.find((tier) => tier.id === id);
export const addOnById = (id: string) => addOns.find((addOn) => addOn.id === id);

/** What a plan costs per interval, in cents. */
export const periodFee = (monthlyFee: number, interval: BillingInterval) =>
  interval === 'year' ? monthlyFee * YEARLY_MONTHS : monthlyFee;

/** The one-off fee the payments add-on costs on this tier (waived for the larger tiers). */
export function setupFeeFor(addOn: AddOn, tierId: TierId): number {
  if (!addOn.setupFee || addOn.setupFeeWaivedTiers?.includes(tierId)) return 0;
  return addOn.setupFee;
}

/** Extra bidders beyond the plan's allowance, and what they cost in cents. */
export function overageOf(tier: Tier, scoredBidders: number) {
  const bidders = Math.max(0, scoredBidders - tier.includedBidders);
  return { bidders, charges: bidders * tier.overageFee };
}

/**
 * The plan's fee on auction revenue, in cents, rounded half up to the cent: revenue is in cents
 * and the fee in basis points, so the exact figure is revenue * bps / 10000.
 */
export const transactionFeeOn = (tier: Tier, revenue: number) =>
  Math.floor((revenue * tier.auctionTransactionFeeBps + 5000) / 10000);

/** Stripe lookup keys of the prices Lotwise sells; the catalogue is created from them. */
export const priceKeys = {
  plan: (tier: TierId, interval: BillingInterval) => `lotwise_${tier}_${interval}`,
  addOn: (addOn: AddOnId, interval: BillingInterval) => `lotwise_${addOn}_${interval}`,
  overage: (tier: TierId, interval: BillingInterval) => `lotwise_${tier}_overage_${interval}`,
  setup: (addOn: AddOnId) => `lotwise_${addOn}_setup`,
};

export const OVERAGE_METER_EVENT = 'lotwise_overage_bidders';
