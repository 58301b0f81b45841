import { outreachFacts } from '../../bidders/bidders.service.js';
import { writeAudit } from '../../platform/audit.js';
import type { RequestContext } from '../../platform/context.js';
import { isConflict } from '../../platform/cosmos-errors.js';
import { conflict } from '../../platform/errors.js';
import { inFlight } from '../../platform/in-flight.js';
import { sendMessage } from '../../platform/mail.js';
import type { Stored } from '../../platform/repo.js';
import {
  auctionDocuments,
  campaignId,
  campaignsOf,
  lotsOf,
  type AuctionRecord,
  type CampaignRecord,
} from '../auctions.repo.js';
import { getAuction, toAuction } from '../auctions.service.js';
import { profileOf, type AuctionProfile } from '../assessment/assessment-model.js';
import { audienceOf, offeredCategories, triggers, type Prospect } from './campaign-rules.js';
import {
  campaignKinds,
  campaignNames,
  type Campaign,
  type CampaignKind,
  type CampaignLaunch,
  type CampaignsView,
} from './campaigns.schema.js';

export function toCampaign(record: CampaignRecord): Campaign {
  return {
    id: record.id,
    auctionId: record.auctionId,
    kind: record.campaign,
    name: campaignNames[record.campaign],
    launch: record.launch,
    status: record.status,
    launchedAt: record.launchedAt,
    launchedBy: record.launchedByName,
    message: record.message,
    reach: record.reach,
    sent: record.sent,
    skippedOptedOut: record.skippedOptedOut,
    skippedWithoutEmail: record.skippedWithoutEmail,
    finishedAt: record.finishedAt,
  };
}

async function audiences(ctx: RequestContext, auction: AuctionRecord) {
  const [lots, bidders] = await Promise.all([lotsOf(ctx.scope, auction.id), outreachFacts(ctx)]);
  return { profile: profileOf(auction, lots), bidders };
}

/** The two campaigns with the reach their triggers have now, and every launch so far. */
export async function listCampaigns(
  ctx: RequestContext,
  auctionId: string,
): Promise<CampaignsView> {
  const auction = await getAuction(ctx, auctionId);
  const [{ profile, bidders }, launched] = await Promise.all([
    audiences(ctx, auction),
    campaignsOf(ctx.scope, auctionId),
  ]);
  return {
    auctionId,
    campaigns: campaignKinds.map((kind) => {
      const audience = audienceOf(kind, bidders, profile);
      const launches = launched.filter((record) => record.campaign === kind);
      return {
        kind,
        name: campaignNames[kind],
        trigger: triggers[kind],
        reach: audience.reach,
        deliverable: audience.deliverable.length,
        optedOut: audience.optedOut,
        withoutEmail: audience.withoutEmail,
        launches: launches.length,
        lastLaunchedAt: launches[0]?.launchedAt ?? null,
      };
    }),
    launched: launched.map(toCampaign),
  };
}

/** The campaign's mail to one bidder: the house's words, or the campaign's standard text. */
function mailOf(
  kind: CampaignKind,
  auction: AuctionRecord,
  profile: AuctionProfile,
  bidder: Prospect & { firstName: string; lastName: string; email: string },
  message: string | undefined,
) {
  const view = toAuction(auction);
  const house = auction.auctionHouseName;
  const standard =
    kind === 'premium'
      ? `As one of ${house}'s most valued bidders, you are invited to ${auction.title} before it opens to everyone.`
      : `${auction.title} offers lots in ${offeredCategories(bidder, profile).join(', ')}, which you follow at ${house}.`;
  return {
    channel: 'email' as const,
    to: bidder.email,
    kind: `campaign-${kind}`,
    subject: `${house}: ${auction.title}`,
    text: [
      `Dear ${bidder.firstName} ${bidder.lastName},`,
      '',
      message ?? standard,
      '',
      `The sale opens ${view.startDate} at ${view.startTime} (${auction.timeZone}).`,
      '',
      `You receive this as a bidder of ${house}. Reply to this message to receive no more of them.`,
      '',
      `— ${house}`,
    ].join('\n'),
  };
}

const launchedBefore = (kind: CampaignKind, previous: Stored<CampaignRecord>[]) => {
  const last = previous[0];
  return conflict(
    `The ${campaignNames[kind]} was launched for this auction ${
      last ? `on ${last.launchedAt.slice(0, 10)} by ${last.launchedByName}` : 'already'
    }. Launch it again?`,
    { kind, launches: previous.length, lastLaunchedAt: last?.launchedAt ?? null },
  );
};

/** Mails sent at once: the outbox (or ACS) takes them in parallel. */
const MAILS_IN_FLIGHT = 8;

/**
 * Launches a campaign for an auction: mails every bidder its trigger matches who has an address
 * and has not opted out, and records the launch. A campaign launched for this auction before is
 * launched again only when the caller confirms it (409 otherwise), also when two launch at once.
 */
export async function launchCampaign(
  ctx: RequestContext,
  auctionId: string,
  input: CampaignLaunch,
): Promise<CampaignRecord> {
  const auction = await getAuction(ctx, auctionId);
  if (auction.status === 'Completed' || auction.status === 'Cancelled') {
    throw conflict(`A ${auction.status} auction is not marketed`);
  }
  const { profile, bidders } = await audiences(ctx, auction);
  const audience = audienceOf(input.kind, bidders, profile);
  let record: Stored<CampaignRecord> | undefined;
  for (let attempt = 0; !record; attempt += 1) {
    const previous = (await campaignsOf(ctx.scope, auctionId)).filter(
      (entry) => entry.campaign === input.kind,
    );
    if (previous.length && !input.confirmRepeat) throw launchedBefore(input.kind, previous);
    const launch = previous.length + 1;
    try {
      const document: Omit<CampaignRecord, 'accountId'> = {
        id: campaignId(auctionId, input.kind, launch),
        kind: 'campaign',
        auctionId,
        campaign: input.kind,
        launch,
        status: 'sending',
        launchedAt: new Date().toISOString(),
        launchedById: ctx.actor.userId,
        launchedByName: ctx.actor.name,
        message: input.message ?? null,
        reach: audience.reach,
        sent: 0,
        skippedOptedOut: audience.optedOut,
        skippedWithoutEmail: audience.withoutEmail,
        finishedAt: null,
      };
      record = (await auctionDocuments.create(ctx.scope, document)) as Stored<CampaignRecord>;
    } catch (error) {
      // Launched by someone else a moment ago: asked again, or (confirmed) the next launch.
      if (!isConflict(error) || attempt >= 5) throw error;
    }
  }
  let sent = 0;
  let failure: unknown;
  const mails = inFlight(MAILS_IN_FLIGHT);
  try {
    for (const bidder of audience.deliverable) {
      await mails.add(
        sendMessage(mailOf(input.kind, auction, profile, bidder, input.message)).then(() => {
          sent += 1;
        }),
      );
    }
    await mails.finish();
  } catch (error) {
    await mails.settle();
    failure = error;
  }
  const { _etag, _ts, ...stored } = record;
  const finished = (await auctionDocuments.replace(
    ctx.scope,
    {
      ...stored,
      status: failure ? 'failed' : 'sent',
      sent,
      finishedAt: new Date().toISOString(),
    },
    _etag,
  )) as Stored<CampaignRecord>;
  await writeAudit(ctx, {
    action: 'campaign.launch',
    entity: { type: 'auction', id: auctionId },
    after: toCampaign(finished),
  });
  if (failure) throw failure;
  return finished;
}
