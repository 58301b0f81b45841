import {
  indexOfAccount,
  recordImportMatches,
  writeNewBidders,
  type NewBidder,
} from '../../bidders/bidder-import.service.js';
import { rowProblem, toInput } from '../../bidders/bidder-rows.js';
import type { BidderInput, BidderUpdate } from '../../bidders/bidders.schema.js';
import {
  biddersWithBidderIds,
  biddersWithEmails,
  bidderWithBidderId,
  bidderWithEmail,
  buildBidder,
  deleteBidder,
  firstNoteOf,
  getBidder,
  updateBidder,
  type MergeTraces,
} from '../../bidders/bidders.service.js';
import { pendingPairsOf, type MergeWatcher } from '../../bidders/duplicates.service.js';
import type { ImportIndex } from '../../bidders/import-index.js';
import { importedSide, recordBidderPair } from '../../conflicts/conflicts.service.js';
import type { RequestContext } from '../../platform/context.js';
import { isNotFound, isStale } from '../../platform/cosmos-errors.js';
import { AppError } from '../../platform/errors.js';
import { inFlight } from '../../platform/in-flight.js';
import { scoringSettings } from '../../scoring/scoring.service.js';
import type {
  ImporterContext,
  ImporterDefinition,
  LedgerEntry,
  Overwrite,
  RowImporter,
  RowRef,
} from '../importer.js';
import type { MappableField } from '../mapping.js';

/**
 * Bidders from an upload's rows, through the bidder import: each row checked field by field,
 * rows whose bidder ID or email is on file (or earlier in the upload) left as they are, or, in
 * `update` mode, written over the bidder on file; new ones scored and written in batches. After
 * the run the likely duplicates of the bidders it wrote are found, and each pair below the
 * auto-merge threshold becomes a conflict for a person to decide.
 */

const BIDDER_BATCH = 50;
const WRITES_IN_FLIGHT = 2;
/** Tries at a fresh bidder ID for a row that brought none, when the one drawn was taken. */
const BIDDER_ID_DRAWS = 3;
/** Tries at an update (or an undo) of a bidder someone else changes at the same moment. */
const WRITE_ATTEMPTS = 3;

const address = ['street', 'city', 'state', 'zip', 'country'] as const;
const stats = [
  'totalAuctionsBid',
  'totalLotsBid',
  'wins',
  'totalWinAmount',
  'paymentsOnTime',
  'paymentsLate',
  'paymentsOverdue',
  'avgDaysToPay',
  'priorDefaults',
  'disputes',
  'referrals',
  'responseRate',
  'avgResponseHours',
  'firstAuction',
  'lastAuction',
] as const;
const topLevel = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'status',
  'preferredCategories',
  'preferredPaymentMethod',
] as const;

const field = (
  key: string,
  label: string,
  aliases: readonly string[] = [],
  required = false,
): MappableField => ({ key, label, required, aliases });

/** The fields of a bidder row, as the mapping screen lists them. */
export const bidderFields: readonly MappableField[] = [
  field('bidderId', 'Bidder ID', ['id', 'bidder', 'bidder number', 'paddle', 'paddle number']),
  field('firstName', 'First Name', ['first', 'given name', 'forename'], true),
  field('lastName', 'Last Name', ['last', 'surname', 'family name'], true),
  field('email', 'Email', ['email address', 'e-mail', 'mail'], true),
  field('phone', 'Phone', ['phone number', 'telephone', 'mobile', 'tel']),
  field('street', 'Street', ['address', 'street address', 'address line 1']),
  field('city', 'City', ['town']),
  field('state', 'State', ['province', 'region', 'county']),
  field('zip', 'ZIP', ['zip code', 'postcode', 'postal code']),
  field('country', 'Country'),
  field('status', 'Status'),
  field('preferredCategories', 'Preferred Categories', ['categories', 'interests']),
  field('preferredPaymentMethod', 'Preferred Payment Method', ['payment method', 'payment']),
  field('note', 'Note', ['notes', 'comment', 'comments']),
  field('totalAuctionsBid', 'Auctions Bid', ['auctions', 'total auctions bid']),
  field('totalLotsBid', 'Lots Bid', ['lots', 'total lots bid']),
  field('wins', 'Wins', ['lots won']),
  field('totalWinAmount', 'Total Spent', ['total win amount', 'spent']),
  field('paymentsOnTime', 'Payments On Time'),
  field('paymentsLate', 'Payments Late'),
  field('paymentsOverdue', 'Payments Overdue'),
  field('avgDaysToPay', 'Average Days To Pay', ['days to pay']),
  field('priorDefaults', 'Prior Defaults', ['defaults']),
  field('disputes', 'Disputes'),
  field('referrals', 'Referrals'),
  field('responseRate', 'Response Rate'),
  field('avgResponseHours', 'Average Response Hours', ['response hours']),
  field('firstAuction', 'First Auction'),
  field('lastAuction', 'Last Auction'),
];

type OnFile = Awaited<ReturnType<typeof getBidder>>;

/** What a ledger entry keeps of a bidder an update overwrote: what `update` can change. */
type Facts = Pick<
  OnFile,
  | 'bidderId'
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phone'
  | 'address'
  | 'status'
  | 'preferredCategories'
  | 'preferredPaymentMethod'
  | 'marketingOptOut'
  | 'stats'
  | 'updatedAt'
> &
  // Absent from entries stored before undo put back what an automatic merge adds.
  Partial<MergeTraces>;

const factsOf = (record: OnFile): Facts => ({
  bidderId: record.bidderId,
  firstName: record.firstName,
  lastName: record.lastName,
  email: record.email,
  phone: record.phone,
  address: record.address,
  status: record.status,
  preferredCategories: record.preferredCategories,
  preferredPaymentMethod: record.preferredPaymentMethod,
  marketingOptOut: record.marketingOptOut ?? false,
  stats: record.stats,
  updatedAt: record.updatedAt,
  aliases: record.aliases,
  mergedIds: record.mergedIds ?? [],
});

/** JSON with object keys in order, so two records read at different times compare alike. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, inner]) => `${JSON.stringify(key)}:${stable(inner)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Whether a bidder holds the facts an undo puts back (a run of the undo cut short did it). */
function holds(record: OnFile, before: Facts) {
  const now = factsOf(record);
  return (Object.keys(before) as (keyof Facts)[])
    .filter((key) => key !== 'updatedAt')
    .every((key) => stable(now[key]) === stable(before[key]));
}

/** The merge traces an entry puts back (none from an entry stored before they were kept). */
const tracesOf = (before: Facts): MergeTraces | undefined =>
  before.aliases ? { aliases: before.aliases, mergedIds: before.mergedIds ?? [] } : undefined;

/** The edit that puts a bidder's facts back as they were. */
const restoring = (before: Facts): BidderUpdate => ({
  firstName: before.firstName,
  lastName: before.lastName,
  ...(before.email ? { email: before.email } : {}),
  phone: before.phone,
  address: before.address,
  status: before.status,
  preferredCategories: before.preferredCategories as BidderUpdate['preferredCategories'],
  preferredPaymentMethod: before.preferredPaymentMethod,
  marketingOptOut: before.marketingOptOut,
  stats: before.stats,
});

/** A cell that says something: an empty one never blanks a field on file. */
const given = (value: unknown) =>
  value !== undefined &&
  value !== null &&
  !(typeof value === 'string' && value.trim() === '') &&
  !(Array.isArray(value) && value.length === 0);

interface Change {
  update: BidderUpdate;
  fields: Overwrite['fields'];
}

/** What a row would change on the bidder on file: the fields its cells give that differ. */
function changesOf(record: OnFile, values: Record<string, unknown>, input: BidderInput): Change {
  const fields: Overwrite['fields'] = [];
  const update: BidderUpdate = {};
  const differs = (existing: unknown, imported: unknown) => stable(existing) !== stable(imported);
  for (const key of topLevel) {
    if (!given(values[key])) continue;
    const imported = key === 'phone' ? (input.phone ?? null) : input[key];
    if (!differs(record[key], imported)) continue;
    fields.push({ field: key, existing: record[key], imported });
    Object.assign(update, { [key]: imported });
  }
  const place = { ...record.address };
  for (const key of address) {
    if (!given(values[key]) || !differs(record.address[key], input.address[key])) continue;
    fields.push({ field: key, existing: record.address[key], imported: input.address[key] });
    place[key] = input.address[key];
  }
  if (JSON.stringify(place) !== JSON.stringify(record.address)) update.address = place;
  const facts: NonNullable<BidderUpdate['stats']> = {};
  for (const key of stats) {
    const imported = input.stats?.[key];
    if (!given(values[key]) || imported === undefined) continue;
    if (!differs(record.stats[key], imported)) continue;
    fields.push({ field: key, existing: record.stats[key], imported });
    Object.assign(facts, { [key]: imported });
  }
  if (Object.keys(facts).length) update.stats = facts;
  return { update, fields };
}

/** The bidder on file with the row's bidder ID, else its email. */
async function onFile(ctx: RequestContext, input: BidderInput): Promise<OnFile | undefined> {
  if (input.bidderId) {
    const byId = await bidderWithBidderId(ctx, input.bidderId);
    if (byId) return byId;
  }
  return input.email ? bidderWithEmail(ctx, input.email) : undefined;
}

/** A bidder by document id, or undefined when there is none. */
async function found(ctx: RequestContext, id: string): Promise<OnFile | undefined> {
  try {
    return await getBidder(ctx, id);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return undefined;
    throw error;
  }
}

/** A write refused because of the row (not the platform): the row's error, not the run's. */
const rowRefusal = (error: unknown) =>
  error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 412;

const isStaleWrite = (error: unknown) =>
  isStale(error) || (error instanceof AppError && error.status === 412);

interface PendingUpdate {
  ref: RowRef;
  input: BidderInput;
  values: Record<string, unknown>;
}

interface PlannedUpdate extends PendingUpdate {
  existing: OnFile;
  change: Change;
}

class BidderRows implements RowImporter {
  private pending: NewBidder[] = [];
  /** The input of each pending row that brought no bidder ID, by its document id. */
  private drawn = new Map<string, BidderInput>();
  private readonly writes = inFlight(WRITES_IN_FLIGHT);
  /** Bidders on file this run overwrote, for the conflicts of their duplicates. */
  private readonly updatedIds = new Set<string>();
  /** Rows of `update` mode whose key is on file, waiting to be written. */
  private updates: PendingUpdate[] = [];

  constructor(
    private readonly run: ImporterContext,
    private readonly settings: Awaited<ReturnType<typeof scoringSettings>>,
    private readonly index: ImportIndex,
  ) {}

  async row(ref: RowRef, id: string, values: Record<string, unknown>) {
    const { ctx, sink } = this.run;
    const parsed = toInput(values);
    if (!parsed.success) {
      sink.error(ref, rowProblem(parsed.error));
      return;
    }
    const input = parsed.data;
    if (this.index.has(input.bidderId, input.email)) {
      // Just after resuming, the bidder on file may be the one this row wrote before the crash.
      const earlier = this.run.replaying() ? await found(ctx, id) : undefined;
      if (earlier && this.run.wroteBeforeCrash(earlier)) {
        sink.created('bidder', id);
        this.index.wrote([{ record: earlier, notes: [] }]);
      } else if (this.run.mode === 'update') {
        this.updates.push({ ref, input, values });
        if (this.updates.length >= BIDDER_BATCH) await this.writeUpdates();
      } else {
        sink.duplicate();
      }
      return;
    }
    const record = buildBidder(ctx, input, this.settings, new Date(), id);
    this.index.claim(record.bidderId, [], record.email);
    if (input.bidderId === undefined) this.drawn.set(id, input);
    const note = firstNoteOf(ctx, input, record);
    this.pending.push({ record, notes: note ? [note] : [] });
    if (this.pending.length >= BIDDER_BATCH) await this.write();
  }

  /**
   * Rows of `update` mode whose key is on file, written a batch at a time: each bidder's
   * version as it was goes into the ledger (one entry each, one document for the batch) before
   * any of them is overwritten. A row of the same key earlier in this upload, not yet written,
   * leaves it as a duplicate.
   */
  private async writeUpdates() {
    const { sink, ledger } = this.run;
    const batch = this.updates;
    this.updates = [];
    const planned: PlannedUpdate[] = [];
    const known = await this.onFileAll(batch.map(({ input }) => input));
    for (const [index, item] of batch.entries()) {
      const existing = known[index];
      const change = existing && changesOf(existing, item.values, item.input);
      if (!existing || !change?.fields.length) sink.duplicate();
      else planned.push({ ...item, existing, change });
    }
    if (!planned.length) return;
    await ledger.intend(
      planned.map(({ existing }) => ({
        entity: 'bidder',
        id: existing.id,
        before: factsOf(existing),
      })),
    );
    for (const plan of planned) await this.update(plan);
  }

  /**
   * The bidder on file of each row, as `onFile` finds it, in two queries for the batch: by bidder
   * ID, then by email. Only an ID the account has as an alias (after a merge) is looked up alone.
   */
  private async onFileAll(inputs: BidderInput[]): Promise<(OnFile | undefined)[]> {
    const { ctx } = this.run;
    const [byId, byEmail] = await Promise.all([
      biddersWithBidderIds(
        ctx,
        inputs.flatMap(({ bidderId }) => (bidderId ? [bidderId] : [])),
      ),
      biddersWithEmails(
        ctx,
        inputs.flatMap(({ email }) => (email ? [email] : [])),
      ),
    ]);
    const found: (OnFile | undefined)[] = [];
    for (const input of inputs) {
      const id = input.bidderId?.trim();
      const byOwnId = id ? byId.get(id) : undefined;
      const byAlias =
        id && !byOwnId && this.index.has(id, undefined)
          ? await bidderWithBidderId(ctx, id)
          : undefined;
      found.push(
        byOwnId ??
          byAlias ??
          (input.email ? byEmail.get(input.email.trim().toLowerCase()) : undefined),
      );
    }
    return found;
  }

  /** One update over the version read; someone changing it meanwhile is read again and retried. */
  private async update(plan: PlannedUpdate) {
    const { ctx, sink, ledger } = this.run;
    let { existing, change } = plan;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await updateBidder(ctx, existing.id, existing._etag, change.update);
        ledger.landed('bidder', existing.id);
        this.updatedIds.add(existing.id);
        sink.updated('bidder', existing.id);
        return;
      } catch (error) {
        if (rowRefusal(error)) {
          ledger.skipped('bidder', existing.id);
          sink.error(plan.ref, { field: null, message: (error as AppError).message });
          return;
        }
        if (!isStaleWrite(error)) throw error;
      }
      // Refused over the version read: that intent wrote nothing.
      ledger.skipped('bidder', existing.id);
      if (attempt >= WRITE_ATTEMPTS) {
        sink.error(plan.ref, {
          field: null,
          message: 'the bidder on file kept changing while it was updated; run the update again',
        });
        return;
      }
      const fresh = await onFile(ctx, plan.input);
      const again = fresh && changesOf(fresh, plan.values, plan.input);
      if (!fresh || !again?.fields.length) {
        sink.duplicate();
        return;
      }
      await ledger.intend([{ entity: 'bidder', id: fresh.id, before: factsOf(fresh) }]);
      existing = fresh;
      change = again;
    }
  }

  private write() {
    const batch = this.pending;
    const drawn = this.drawn;
    this.pending = [];
    this.drawn = new Map();
    const { ctx, sink, ledger } = this.run;
    const entries: LedgerEntry[] = batch.map(({ record }) => ({
      entity: 'bidder',
      id: record.id,
      before: null,
    }));
    return this.writes.add(
      ledger
        .intend(entries)
        .then(() => writeNewBidders(ctx, batch))
        .then(async ({ written }) => {
          for (const { record } of written) {
            ledger.landed('bidder', record.id);
            sink.created('bidder', record.id);
          }
          this.index.wrote(written);
          const landed = new Set(written.map(({ record }) => record.id));
          // A clash is this row's own bidder from an earlier run, or a bidder ID taken meanwhile.
          for (const bidder of batch) {
            const { id } = bidder.record;
            if (landed.has(id)) continue;
            const earlier = await found(ctx, id);
            if (earlier) {
              // Written before a crash (its entry there is unmarked), or by an earlier run.
              ledger.skipped('bidder', id);
              sink.created('bidder', earlier.id);
              this.index.wrote([{ record: earlier, notes: [] }]);
            } else if (await this.redrawn(bidder, drawn.get(id))) {
              ledger.landed('bidder', id);
              sink.created('bidder', id);
            } else {
              ledger.skipped('bidder', id);
              sink.duplicate();
            }
          }
        }),
    );
  }

  /** A row that brought no bidder ID, whose drawn one was taken, written with a fresh one. */
  private async redrawn(bidder: NewBidder, input: BidderInput | undefined) {
    if (!input) return false;
    const { ctx } = this.run;
    for (let draw = 0; draw < BIDDER_ID_DRAWS; draw += 1) {
      const record = buildBidder(ctx, input, this.settings, new Date(), bidder.record.id);
      const { written } = await writeNewBidders(ctx, [{ record, notes: bidder.notes }]);
      if (written.length) {
        this.index.claim(record.bidderId, [], record.email);
        this.index.wrote(written);
        return true;
      }
    }
    return false;
  }

  async flush() {
    if (this.updates.length) await this.writeUpdates();
    if (this.pending.length) await this.write();
    await this.writes.finish();
  }

  settle() {
    return this.writes.settle();
  }

  /** A bidder this run updated before it was stopped and resumed. */
  updatedEarlier(id: string) {
    this.updatedIds.add(id);
  }

  private wrote(id: string) {
    return this.index.wroteBidder(id) || this.updatedIds.has(id);
  }

  /**
   * Each pending duplicate pair with a bidder this run wrote, as a conflict: the bidder it wrote
   * is the imported one, the other the one on file (of two it wrote, the older is on file).
   */
  private async recordConflicts() {
    const { ctx, sink, upload } = this.run;
    const pairs = await pendingPairsOf(ctx, [
      ...new Set([...this.index.writtenIds(), ...this.updatedIds]),
    ]);
    let recorded = 0;
    for (const pair of pairs) {
      const created = await recordBidderPair(
        ctx,
        pair,
        importedSide(pair, (id) => this.wrote(id)),
        {
          key: `upload:${upload.id}:${pair.id}`,
          source: { kind: 'upload', uploadId: upload.id, uploadName: upload.name },
          uploadName: upload.name,
        },
      );
      if (created) {
        sink.conflict();
        recorded += 1;
      }
    }
    return recorded;
  }

  async finish() {
    await this.flush();
    const { ctx, ledger } = this.run;
    // An automatic merge changes the bidder that stays: the ledger keeps it as it was, for undo.
    const watcher: MergeWatcher = {
      before: async (survivorId) => {
        const survivor = await found(ctx, survivorId);
        if (survivor) {
          await ledger.intend([{ entity: 'bidder', id: survivorId, before: factsOf(survivor) }]);
        }
      },
      after: (survivorId, merged) => {
        if (merged) ledger.landed('bidder', survivorId);
        else ledger.skipped('bidder', survivorId);
      },
    };
    const matches = await recordImportMatches(
      ctx,
      this.index,
      this.settings.autoMergeThreshold,
      watcher,
    );
    const conflicts =
      matches.pending > 0 || this.updatedIds.size > 0 ? await this.recordConflicts() : 0;
    return { possibleDuplicates: matches, conflicts };
  }
}

const keyText = (value: unknown) =>
  typeof value === 'string' || typeof value === 'number' ? String(value).trim().toLowerCase() : '';

export const biddersImporter: ImporterDefinition = {
  category: 'bidders',
  fields: bidderFields,
  jsonKey: 'bidders',

  refuses(format) {
    if (format === 'xls') {
      return 'is a legacy Excel (.xls) file, which cannot be read safely. Save it as .xlsx or CSV and upload that.';
    }
    if (format !== 'csv' && format !== 'xlsx' && format !== 'json') {
      return 'only CSV, Excel (.xlsx) and JSON files hold bidders';
    }
    return null;
  },

  check(values) {
    const parsed = toInput(values);
    return parsed.success ? null : rowProblem(parsed.error);
  },

  keyOf(values) {
    const bidderId = keyText(values.bidderId);
    if (bidderId) return `bidderId:${bidderId}`;
    const email = keyText(values.email);
    return email ? `email:${email}` : null;
  },

  async start(context) {
    const [settings, index] = await Promise.all([
      scoringSettings(context.ctx),
      indexOfAccount(context.ctx),
    ]);
    const rows = new BidderRows(context, settings, index);
    // Resumed: what the run wrote before it stopped is its own, to pair and to record conflicts for.
    for await (const entry of context.earlierIntents()) {
      if (entry.entity !== 'bidder') continue;
      if (entry.before === null) index.wroteEarlier(entry.id);
      else rows.updatedEarlier(entry.id);
    }
    return rows;
  },

  async overwrite(ctx, values) {
    const parsed = toInput(values);
    if (!parsed.success) return null;
    const existing = await onFile(ctx, parsed.data);
    if (!existing) return null;
    return {
      entity: 'bidder',
      recordId: existing.id,
      title: `${existing.firstName} ${existing.lastName}`.trim(),
      fields: changesOf(existing, values, parsed.data).fields,
    };
  },

  async undo(ctx, entry, since) {
    for (let attempt = 0; ; attempt += 1) {
      const current = await found(ctx, entry.id);
      if (!current) return 'gone';
      const before = entry.before as Facts | null;
      if (before && holds(current, before)) return 'restored';
      if (current.updatedAt > since) return 'kept';
      try {
        if (before) {
          await updateBidder(ctx, entry.id, current._etag, restoring(before), tracesOf(before));
          return 'restored';
        }
        await deleteBidder(ctx, entry.id, current._etag);
        return 'removed';
      } catch (error) {
        // Removed meanwhile (the service reads it first, and says so as a 404 of its own).
        if (isNotFound(error) || (error instanceof AppError && error.status === 404)) return 'gone';
        if (!isStaleWrite(error) || attempt >= WRITE_ATTEMPTS) throw error;
      }
    }
  },
};
