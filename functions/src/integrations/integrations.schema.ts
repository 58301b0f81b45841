import { z } from 'zod';
import { currencies, platforms } from '../auctions/auctions.schema.js';

export { platforms, type Platform } from '../auctions/auctions.schema.js';

/** A platform's connection as the APIs tab shows it. */
export const platformStatuses = ['Connected', 'Syncing', 'Error', 'Disconnected'] as const;
export type PlatformStatus = (typeof platformStatuses)[number];

/** The spec's message for a key the platform no longer accepts. */
export const KEY_EXPIRED_MESSAGE = 'Connection error: API key expired. Please update credentials.';

/** What each platform offers through Lotwise, as its card lists it. */
export const platformFeatures = [
  'Auction import',
  'Catalogue sync',
  'Bidder import',
  'Registrations',
  'Results',
  'Push auctions',
] as const;

export const platformPathSchema = z.object({ platform: z.enum(platforms) });

export const platformConnectionSchema = z.object({
  platform: z.enum(platforms),
  connected: z.boolean(),
  status: z.enum(platformStatuses),
  /** The last sync that finished, successfully or not. */
  lastSync: z.string().nullable(),
  message: z.string().nullable(),
  /** The platform's name for the account the key opens. */
  accountName: z.string().nullable(),
  /** The key is never returned: its last four characters only. */
  keyLast4: z.string().nullable(),
  auctionsImported: z.number().int().min(0),
  biddersImported: z.number().int().min(0),
  features: z.array(z.enum(platformFeatures)),
  connectedAt: z.string().nullable(),
  connectedBy: z.string().nullable(),
  /** The house its auctions are imported into. */
  auctionHouseId: z.string().nullable(),
});
export type PlatformConnection = z.infer<typeof platformConnectionSchema>;

export const platformListSchema = z.object({ platforms: z.array(platformConnectionSchema) });

export const connectBodySchema = z.object({
  apiKey: z.string().trim().min(8, 'must be at least 8 characters').max(500),
  /** The house its auctions are imported into; the only house when left out. */
  auctionHouseId: z.string().min(1).max(100).nullable().default(null),
});

export const syncFrequencies = ['5min', '15min', '30min', '1hour', 'manual'] as const;
export type SyncFrequency = (typeof syncFrequencies)[number];
export const syncFrequencyMinutes: Record<SyncFrequency, number | null> = {
  '5min': 5,
  '15min': 15,
  '30min': 30,
  '1hour': 60,
  manual: null,
};
export const defaultImportStatuses = ['upcoming', 'draft', 'review'] as const;
export const duplicateHandlings = ['merge', 'skip', 'new_version', 'manual_review'] as const;
export type DuplicateHandling = (typeof duplicateHandlings)[number];
export const conflictPolicies = [
  'prefer_platform',
  'prefer_local',
  'use_newest',
  'manual_review',
] as const;
export type ConflictPolicy = (typeof conflictPolicies)[number];

/** Settings › Sync, with the spec's defaults. */
export const syncSettingsSchema = z.object({
  autoImport: z.boolean(),
  realTimeSync: z.boolean(),
  bidderDataSync: z.boolean(),
  autoUpdateStatus: z.boolean(),
  frequency: z.enum(syncFrequencies),
  defaultImportStatus: z.enum(defaultImportStatuses),
  duplicateHandling: z.enum(duplicateHandlings),
  conflictPolicy: z.enum(conflictPolicies),
});
export type SyncSettings = z.infer<typeof syncSettingsSchema>;
export const DEFAULT_SYNC_SETTINGS: SyncSettings = {
  autoImport: true,
  realTimeSync: true,
  bidderDataSync: false,
  autoUpdateStatus: true,
  frequency: '15min',
  defaultImportStatus: 'upcoming',
  duplicateHandling: 'merge',
  conflictPolicy: 'prefer_platform',
};
export const syncSettingsViewSchema = syncSettingsSchema.extend({
  etag: z.string(),
  updatedAt: z.string().nullable(),
});
export const syncSettingsUpdateSchema = syncSettingsSchema.partial().strict();

export const syncDirections = ['push', 'pull', 'two-way'] as const;
export type SyncDirection = (typeof syncDirections)[number];
export const auctionSyncBodySchema = z.object({ direction: z.enum(syncDirections) });

export const syncTriggers = ['schedule', 'manual', 'import', 'auction'] as const;
export const syncRunStatuses = ['queued', 'running', 'completed', 'partial', 'failed'] as const;
export const changeActions = [
  'created',
  'updated',
  'unchanged',
  'skipped',
  'conflict',
  'pushed',
  'failed',
] as const;

/** One thing a sync did, and to which record. */
export const syncChangeSchema = z.object({
  entity: z.enum(['auction', 'lot', 'bidder', 'registration', 'result']),
  externalId: z.string(),
  localId: z.string().nullable(),
  title: z.string(),
  action: z.enum(changeActions),
  /** The fields it changed, or that conflict. */
  fields: z.array(z.string()),
  message: z.string().nullable(),
});
export type SyncChange = z.infer<typeof syncChangeSchema>;

/** A sync run: the platform's log (View Logs) and, for one auction, its Sync History. */
export const syncRunSchema = z.object({
  id: z.string(),
  platform: z.enum(platforms),
  trigger: z.enum(syncTriggers),
  direction: z.enum(syncDirections),
  /** The auction it was about, for an import or an auction's own sync. */
  auctionId: z.string().nullable(),
  status: z.enum(syncRunStatuses),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  by: z.string(),
  counts: z.object({
    created: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
    skipped: z.number().int(),
    conflicts: z.number().int(),
    failed: z.number().int(),
  }),
  /** The first changes of the run (the counts say how many there were in all). */
  changes: z.array(syncChangeSchema),
  error: z.string().nullable(),
});
export type SyncRun = z.infer<typeof syncRunSchema>;
export const syncRunListSchema = z.object({
  runs: z.array(syncRunSchema),
  continuationToken: z.string().nullable(),
});

/** An auction on a platform, for the Import Auctions dialog. */
export const platformAuctionChoiceSchema = z.object({
  externalId: z.string(),
  title: z.string(),
  status: z.enum(['upcoming', 'live', 'closed', 'cancelled']),
  startsAt: z.string(),
  endsAt: z.string(),
  lotCount: z.number().int(),
  /** The Lotwise auction it is already imported as. */
  auctionId: z.string().nullable(),
});
export const platformAuctionListSchema = z.object({
  auctions: z.array(platformAuctionChoiceSchema),
  next: z.string().nullable(),
});

/** A bidder on a platform, for the Import Bidders dialog (the spec's importable fields). */
export const platformBidderChoiceSchema = z.object({
  externalId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  status: z.enum(['Active', 'Inactive']),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  lastActive: z.string().nullable(),
  totalBids: z.number().int(),
  totalWins: z.number().int(),
  totalSpent: z.number().int(),
  currency: z.enum(currencies),
  /** The Lotwise bidder it is already linked to. */
  bidderId: z.string().nullable(),
});
export const platformBidderListSchema = z.object({
  bidders: z.array(platformBidderChoiceSchema),
  next: z.string().nullable(),
});

export const importAuctionBodySchema = z.object({ externalId: z.string().trim().min(1).max(200) });
export const importBiddersBodySchema = z.object({
  externalIds: z.array(z.string().trim().min(1).max(200)).min(1).max(1000),
});
