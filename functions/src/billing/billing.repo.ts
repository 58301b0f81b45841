import type { ContainerDefinition } from '../platform/cosmos.js';
import { container } from '../platform/cosmos.js';
import { TenantRepository, type AccountScope, type Stored } from '../platform/repo.js';
import type { AddOnId, BillingInterval, TierId } from './billing.catalog.js';
import type { BillingAddress } from './billing.schema.js';

/** The subscription as Lotwise last saw it at Stripe (Stripe stays the source of truth). */
export interface SubscriptionState {
  id: string;
  tierId: TierId;
  interval: BillingInterval;
  status: string;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  /** The add-ons on the subscription, by their Stripe subscription item. */
  addOns: { itemId: string; addOnId: AddOnId; addedDate: string }[];
  /** Add-ons taken off that stay on until the end of the period already paid for. */
  endingAddOns: { addOnId: AddOnId; addedDate: string; endsAt: string }[];
  /** What the plan and add-ons cost each period, in cents. */
  amount: number;
  /** When Lotwise last read the state from Stripe (unix seconds); each read is a fresh retrieve. */
  syncedAt: number;
}

export interface BillingRecord {
  id: 'billing';
  kind: 'billing';
  accountId: string;
  customerId: string;
  companyName: string;
  email: string;
  phone: string | null;
  billingAddress: BillingAddress | null;
  taxId: string | null;
  subscription: SubscriptionState | null;
  /** Overage bidders already reported to Stripe for the period starting then. */
  reportedOverage: { periodStart: string; bidders: number } | null;
  createdAt: string;
  updatedAt: string;
}

/** A Stripe event already applied: written in the same batch as its effect, so once only. */
export interface AppliedEventRecord {
  id: string;
  kind: 'stripe-event';
  accountId: string;
  type: string;
  appliedAt: string;
}

export type BillingDocument = BillingRecord | AppliedEventRecord;

export const billingContainer: ContainerDefinition = {
  id: 'billing',
  partitionKey: '/accountId',
};

const repo = new TenantRepository<BillingDocument>(billingContainer.id);
export const BILLING_ID = 'billing';
export const appliedEventId = (eventId: string) => `stripe-event:${eventId}`;

export const billingRepo = {
  async find(scope: AccountScope): Promise<Stored<BillingRecord> | undefined> {
    return (await repo.find(scope, BILLING_ID)) as Stored<BillingRecord> | undefined;
  },
  async create(scope: AccountScope, record: Omit<BillingRecord, 'accountId'>) {
    return (await repo.create(scope, record)) as Stored<BillingRecord>;
  },
  async replace(scope: AccountScope, record: BillingRecord, etag: string) {
    return (await repo.replace(scope, record, etag)) as Stored<BillingRecord>;
  },
  async eventApplied(scope: AccountScope, eventId: string) {
    return (await repo.find(scope, appliedEventId(eventId))) !== undefined;
  },
  /**
   * Saves the record and marks the event applied in one transactional batch: a replayed event
   * finds its marker, and two deliveries at once cannot both apply (one batch fails).
   */
  async replaceApplying(
    scope: AccountScope,
    record: BillingRecord,
    etag: string,
    event: { id: string; type: string },
  ) {
    const marker: Omit<AppliedEventRecord, 'accountId'> = {
      id: appliedEventId(event.id),
      kind: 'stripe-event',
      type: event.type,
      appliedAt: new Date().toISOString(),
    };
    await repo.writeBatch(scope, [
      { op: 'replace', document: record, etag },
      { op: 'create', document: marker },
    ]);
  },
  async markApplied(scope: AccountScope, event: { id: string; type: string }) {
    const marker: Omit<AppliedEventRecord, 'accountId'> = {
      id: appliedEventId(event.id),
      kind: 'stripe-event',
      type: event.type,
      appliedAt: new Date().toISOString(),
    };
    await repo.create(scope, marker);
  },
  /**
   * Accounts whose add-on removals are due, or with a live subscription whose usage may need
   * reporting: crosses partitions on purpose, reads ids only.
   */
  async subscribedAccounts(): Promise<string[]> {
    const { resources } = await container(billingContainer.id)
      .items.query<{ accountId: string }>({
        query: `SELECT c.accountId FROM c WHERE c.kind = 'billing' AND NOT IS_NULL(c.subscription)`,
      })
      .fetchAll();
    return resources.map((row) => row.accountId);
  },
};
