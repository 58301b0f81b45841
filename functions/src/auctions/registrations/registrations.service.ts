import { getBidder } from '../../bidders/bidders.service.js';
import { writeAudit } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/context.js';
import { isConflict, isStale } from '../../platform/cosmos-errors.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { sendMessage } from '../../platform/mail.js';
import type { BatchOperation, Stored } from '../../platform/repo.js';
import { validationError } from '../../platform/validation.js';
import { scoringSettings } from '../../scoring/scoring.service.js';
import {
  auctionDocuments,
  registrationId,
  registrationsOf,
  registrationsOfBidder,
  type AuctionDocument,
  type AuctionRecord,
  type RegistrationRecord,
} from '../auctions.repo.js';
import { currencyExponent, currencySymbols } from '../auctions.schema.js';
import { getAuction, toAuction } from '../auctions.service.js';
import { emitEvent } from '../../webhooks/deliveries.service.js';
import { decideRegistration, figuresOf, type RegistrationFacts } from './registration-rules.js';
import type { InviteResult, Registration, RegistrationStatus } from './registrations.schema.js';

export function toRegistration(record: Stored<RegistrationRecord>): Registration {
  const { accountId: _a, kind: _k, _etag, _ts, ...fields } = record;
  return { ...fields, etag: _etag };
}

const open = (auction: AuctionRecord) => {
  if (auction.status === 'Completed' || auction.status === 'Cancelled') {
    throw conflict(`Registrations of a ${auction.status} auction cannot change`);
  }
};

const money = (auction: AuctionRecord, minor: number | null) =>
  minor === null
    ? 'no limit'
    : `${currencySymbols[auction.currency]}${(minor / 10 ** currencyExponent[auction.currency]).toLocaleString('en-US')}`;

async function findRegistration(ctx: RequestContext, auctionId: string, bidderId: string) {
  const found = await auctionDocuments.find(ctx.scope, registrationId(auctionId, bidderId));
  return found?.kind === 'registration' ? (found as Stored<RegistrationRecord>) : undefined;
}

const bidderOrField = async (ctx: RequestContext, bidderId: string, field = 'bidderId') => {
  try {
    return await getBidder(ctx, bidderId);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') {
      throw validationError([
        { location: 'body', field, message: `${bidderId} is not a bidder of this account` },
      ]);
    }
    throw error;
  }
};

/** What the registration rules read of a bidder. */
const factsOf = (
  bidder: Awaited<ReturnType<typeof getBidder>>,
  auctionsApproved: number,
): RegistrationFacts => ({
  bidderNumber: bidder.bidderId,
  status: bidder.status,
  customScore: bidder.customScore.score,
  tier: bidder.customScore.tier,
  autoInviteStatus: bidder.autoInviteStatus,
  stats: bidder.stats,
  auctionsApproved,
  nonPaymentStrikes: (bidder.nonPaymentStrikes ?? []).length,
});

/**
 * Writes a registration together with a turn on the auction (its counters, under the auction's
 * document ETag), so approvals, paddles and the registered count never drift apart; a turn lost
 * to another writer is retried with fresh reads.
 */
async function writeWithTurn(
  ctx: RequestContext,
  auctionId: string,
  build: (
    auction: Stored<AuctionRecord>,
    current: Stored<RegistrationRecord> | undefined,
  ) => Promise<{ next: Omit<RegistrationRecord, 'accountId'> | null; approvedDelta: number }>,
  bidderId: string,
) {
  for (let attempt = 0; ; attempt += 1) {
    const auction = await getAuction(ctx, auctionId);
    const current = await findRegistration(ctx, auctionId, bidderId);
    const { next, approvedDelta } = await build(auction, current);
    const write: BatchOperation<AuctionDocument> = next
      ? current
        ? { op: 'replace', document: next, etag: current._etag }
        : { op: 'create', document: next }
      : {
          op: 'delete',
          id: registrationId(auctionId, bidderId),
          ...(current ? { etag: current._etag } : {}),
        };
    try {
      const written = await auctionDocuments.batch(ctx.scope, [
        write,
        {
          op: 'patch',
          id: auctionId,
          operations: [
            { op: 'incr', path: '/biddersRegistered', value: approvedDelta },
            { op: 'incr', path: '/registrationTurns', value: 1 },
          ],
          etag: auction._etag,
        },
      ]);
      return {
        before: current,
        after: next ? (written[0] as Stored<RegistrationRecord>) : undefined,
      };
    } catch (error) {
      if (!(isStale(error) || isConflict(error)) || attempt >= 8) throw error;
    }
  }
}

/** The next free paddle: 101 up, skipping any taken. */
async function nextPaddle(ctx: RequestContext, auctionId: string) {
  const taken = new Set(
    (await registrationsOf(ctx.scope, auctionId)).flatMap((row) =>
      row.paddle ? [row.paddle] : [],
    ),
  );
  for (let paddle = 101; ; paddle += 1) if (!taken.has(String(paddle))) return String(paddle);
}

async function paddleFree(
  ctx: RequestContext,
  auctionId: string,
  paddle: string,
  bidderId: string,
) {
  const holder = (await registrationsOf(ctx.scope, auctionId)).find(
    (row) => row.paddle === paddle && row.bidderId !== bidderId,
  );
  if (holder) {
    throw validationError([
      { location: 'body', field: 'paddle', message: `Paddle ${paddle} is ${holder.bidderName}'s` },
    ]);
  }
}

/** Registers a bidder for an auction and decides it by the house's rules. */
export async function register(
  ctx: RequestContext,
  auctionId: string,
  input: { bidderId: string; paddle?: string | undefined },
) {
  const bidder = await bidderOrField(ctx, input.bidderId);
  const settings = await scoringSettings(ctx);
  const previous = await registrationsOfBidder(ctx.scope, bidder.id);
  const { after } = await writeWithTurn(
    ctx,
    auctionId,
    async (auction, current) => {
      open(auction);
      if (current?.registeredAt) {
        throw conflict(
          `${bidder.firstName} ${bidder.lastName} is already registered (${current.status})`,
        );
      }
      const facts = factsOf(
        bidder,
        previous.filter((row) => row.auctionId !== auctionId && row.status === 'approved').length,
      );
      const decision = decideRegistration(facts, settings.automation, settings.registration);
      if (input.paddle) await paddleFree(ctx, auctionId, input.paddle, bidder.id);
      const paddle =
        decision.status === 'approved'
          ? (input.paddle ?? (await nextPaddle(ctx, auctionId)))
          : (input.paddle ?? null);
      const now = new Date().toISOString();
      return {
        next: {
          id: registrationId(auctionId, bidder.id),
          kind: 'registration',
          auctionId,
          bidderId: bidder.id,
          bidderNumber: bidder.bidderId,
          bidderName: `${bidder.firstName} ${bidder.lastName}`,
          email: bidder.email,
          lotwiseScore: bidder.lotwiseScore.score,
          customScore: bidder.customScore.score,
          tier: bidder.customScore.tier,
          status: decision.status,
          limited: decision.status === 'approved' && decision.bidLimit !== null,
          bidLimit: decision.bidLimit,
          paddle,
          reasons: decision.reasons,
          decidedBy: decision.status === 'pending' ? null : 'rules',
          decidedByName: decision.status === 'pending' ? null : 'Lotwise rules',
          decidedAt: decision.status === 'pending' ? null : now,
          figures: figuresOf(facts),
          invitedAt: current?.invitedAt ?? null,
          invitedBy: current?.invitedBy ?? null,
          registeredAt: now,
        },
        approvedDelta: decision.status === 'approved' ? 1 : 0,
      };
    },
    bidder.id,
  );
  const saved = after as Stored<RegistrationRecord>;
  await writeAudit(ctx, {
    action: 'registration.create',
    entity: { type: 'registration', id: saved.id },
    after: toRegistration(saved),
  });
  // Decided by the house's rules at once, unless they send it to review.
  if (saved.status !== 'pending') {
    await emitEvent(ctx, 'registration.decided', { registration: toRegistration(saved) });
  }
  return saved;
}

/** A reviewer's decision on a registration, with a reason; a decision may be reversed. */
export async function decide(
  ctx: RequestContext,
  auctionId: string,
  bidderId: string,
  input: { decision: 'approve' | 'deny'; reason: string; bidLimit?: number | null | undefined },
) {
  const { before, after } = await writeWithTurn(
    ctx,
    auctionId,
    async (auction, current) => {
      open(auction);
      if (!current?.registeredAt) throw notFound('This bidder is not registered for this auction');
      const to: RegistrationStatus = input.decision === 'approve' ? 'approved' : 'denied';
      if (current.status === to) throw conflict(`This registration is already ${to}`);
      const settings = await scoringSettings(ctx);
      const bidLimit =
        to === 'approved'
          ? input.bidLimit !== undefined
            ? input.bidLimit
            : settings.registration.bidLimits[current.tier]
          : null;
      const paddle =
        to === 'approved' ? (current.paddle ?? (await nextPaddle(ctx, auctionId))) : current.paddle;
      return {
        next: {
          ...stripStored(current),
          status: to,
          bidLimit,
          limited: to === 'approved' && bidLimit !== null,
          paddle,
          reasons: [
            `${to === 'approved' ? 'Approved' : 'Denied'} by ${ctx.actor.name}: ${input.reason}`,
            ...(to === 'approved' ? [`Bid limit ${money(auction, bidLimit)}`] : []),
            ...current.reasons,
          ],
          decidedBy: 'reviewer',
          decidedByName: ctx.actor.name,
          decidedAt: new Date().toISOString(),
        },
        approvedDelta: (to === 'approved' ? 1 : 0) - (current.status === 'approved' ? 1 : 0),
      };
    },
    bidderId,
  );
  const saved = after as Stored<RegistrationRecord>;
  await writeAudit(ctx, {
    action: `registration.${input.decision}`,
    entity: { type: 'registration', id: saved.id },
    before: before ? toRegistration(before) : undefined,
    after: { ...toRegistration(saved), reason: input.reason },
  });
  await emitEvent(ctx, 'registration.decided', { registration: toRegistration(saved) });
  return saved;
}

const stripStored = (record: Stored<RegistrationRecord>): Omit<RegistrationRecord, 'accountId'> => {
  const { _etag, _ts, accountId: _a, ...rest } = record;
  return rest;
};

/** Raises, lowers or lifts an approved bidder's limit, with the reason kept. */
export async function changeBidLimit(
  ctx: RequestContext,
  auctionId: string,
  bidderId: string,
  input: { bidLimit: number | null; reason: string },
) {
  const { before, after } = await writeWithTurn(
    ctx,
    auctionId,
    async (auction, current) => {
      if (auction.status === 'Completed' || auction.status === 'Cancelled') open(auction);
      if (!current) throw notFound('This bidder is not registered for this auction');
      if (current.status !== 'approved') {
        throw conflict('Only an approved bidder has a bid limit; approve the registration first');
      }
      return {
        next: {
          ...stripStored(current),
          bidLimit: input.bidLimit,
          limited: input.bidLimit !== null,
          reasons: [
            `Bid limit ${money(auction, current.bidLimit)} -> ${money(auction, input.bidLimit)} by ${ctx.actor.name}: ${input.reason}`,
            ...current.reasons,
          ],
        },
        approvedDelta: 0,
      };
    },
    bidderId,
  );
  const saved = after as Stored<RegistrationRecord>;
  await writeAudit(ctx, {
    action: 'registration.bid_limit',
    entity: { type: 'registration', id: saved.id },
    before: before ? toRegistration(before) : undefined,
    after: { ...toRegistration(saved), reason: input.reason },
  });
  return saved;
}

/** Removes a registration (or an invitation) before the sale is over. */
export async function unregister(ctx: RequestContext, auctionId: string, bidderId: string) {
  const { before } = await writeWithTurn(
    ctx,
    auctionId,
    async (auction, current) => {
      open(auction);
      if (!current) throw notFound('This bidder is not registered for this auction');
      return { next: null, approvedDelta: current.status === 'approved' ? -1 : 0 };
    },
    bidderId,
  );
  await writeAudit(ctx, {
    action: 'registration.delete',
    entity: { type: 'registration', id: registrationId(auctionId, bidderId) },
    before: before ? toRegistration(before) : undefined,
  });
}

export async function listRegistrations(
  ctx: RequestContext,
  auctionId: string,
  query: { status?: RegistrationStatus | undefined; limited?: boolean | undefined },
) {
  await getAuction(ctx, auctionId);
  const all = await registrationsOf(ctx.scope, auctionId);
  const count = (status: RegistrationStatus) => all.filter((row) => row.status === status).length;
  const rows = all
    .filter((row) => !query.status || row.status === query.status)
    .filter((row) => query.limited === undefined || row.limited === query.limited)
    .sort((a, b) => a.bidderName.localeCompare(b.bidderName));
  return {
    registrations: rows.map(toRegistration),
    counts: {
      invited: count('invited'),
      pending: count('pending'),
      approved: all.filter((row) => row.status === 'approved' && !row.limited).length,
      limited: all.filter((row) => row.status === 'approved' && row.limited).length,
      denied: count('denied'),
    },
  };
}

/**
 * Invites bidders to an auction by mail and records each invitation; a bidder already invited or
 * registered is not asked again (409 names them, and nobody is invited).
 */
export async function inviteBidders(
  ctx: RequestContext,
  auctionId: string,
  input: { bidderIds: string[]; message?: string | undefined },
  houseName: string,
): Promise<InviteResult> {
  const auction = await getAuction(ctx, auctionId);
  open(auction);
  const ids = [...new Set(input.bidderIds)];
  const bidders = await Promise.all(ids.map((id) => bidderOrField(ctx, id, 'bidderIds')));
  const existing = await registrationsOf(ctx.scope, auctionId);
  const already = bidders.filter((bidder) => existing.some((row) => row.bidderId === bidder.id));
  if (already.length) {
    throw conflict(
      `Already invited or registered: ${already.map((bidder) => `${bidder.firstName} ${bidder.lastName}`).join(', ')}`,
      { bidderIds: already.map((bidder) => bidder.id) },
    );
  }
  const now = new Date().toISOString();
  const withoutEmail: string[] = [];
  let invited = 0;
  for (const bidder of bidders) {
    const invitation: Omit<RegistrationRecord, 'accountId'> = {
      id: registrationId(auctionId, bidder.id),
      kind: 'registration',
      auctionId,
      bidderId: bidder.id,
      bidderNumber: bidder.bidderId,
      bidderName: `${bidder.firstName} ${bidder.lastName}`,
      email: bidder.email,
      lotwiseScore: bidder.lotwiseScore.score,
      customScore: bidder.customScore.score,
      tier: bidder.customScore.tier,
      status: 'invited',
      limited: false,
      bidLimit: null,
      paddle: null,
      reasons: [`Invited by ${ctx.actor.name}`],
      decidedBy: null,
      decidedByName: null,
      decidedAt: null,
      figures: figuresOf(factsOf(bidder, 0)),
      invitedAt: now,
      invitedBy: ctx.actor.name,
      registeredAt: null,
    };
    try {
      await auctionDocuments.create(ctx.scope, invitation);
    } catch (error) {
      // Invited by someone else a moment ago: asked once is enough.
      if (isConflict(error)) continue;
      throw error;
    }
    invited += 1;
    if (!bidder.email) {
      withoutEmail.push(bidder.id);
      continue;
    }
    await sendMessage({
      channel: 'email',
      to: bidder.email,
      kind: 'auction-invitation',
      subject: `${houseName} invites you to ${auction.title}`,
      text: [
        `Dear ${bidder.firstName} ${bidder.lastName},`,
        '',
        input.message ?? `${houseName} would like to invite you to bid in ${auction.title}.`,
        '',
        `The sale opens ${toAuction(auction).startDate} at ${toAuction(auction).startTime} (${auction.timeZone}).`,
        '',
        `— ${ctx.actor.name}, ${houseName}`,
      ].join('\n'),
    });
  }
  await writeAudit(ctx, {
    action: 'auction.invite',
    entity: { type: 'auction', id: auctionId },
    after: { bidderIds: bidders.map((bidder) => bidder.id), message: input.message ?? null },
  });
  return { invited, withoutEmail };
}
