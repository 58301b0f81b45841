import { Badge } from '@fluentui/react-components';
import { CheckmarkCircleRegular } from '@fluentui/react-icons';
import type { AuctionStatus, Platform } from '@contracts/auctions/auctions.schema';
import type { AuctionView } from '../api/auctions';

/** The spec's colours: Active green, Upcoming blue, Completed grey, Cancelled red; Draft outlined. */
const statusColour = {
  Draft: 'informative',
  Upcoming: 'brand',
  Active: 'success',
  Completed: 'informative',
  Cancelled: 'danger',
} as const satisfies Record<AuctionStatus, string>;

export function StatusBadge({ status }: { status: AuctionStatus }) {
  return (
    <Badge appearance={status === 'Draft' ? 'outline' : 'tint'} color={statusColour[status]}>
      {status}
    </Badge>
  );
}

/** Where an auction came from: the platform with a check mark, or "Manual". */
export function SourceBadge({ platform }: { platform: Platform | null }) {
  if (!platform) return <span>Manual</span>;
  return (
    <Badge appearance="tint" color="brand" icon={<CheckmarkCircleRegular />}>
      {platform}
    </Badge>
  );
}

/** The tab each status is listed under. */
export const viewOfStatus: Record<AuctionStatus, AuctionView> = {
  Draft: 'upcoming',
  Upcoming: 'upcoming',
  Active: 'current',
  Completed: 'past',
  Cancelled: 'past',
};

export const viewLabels: Record<AuctionView, string> = {
  current: 'Current Auctions',
  upcoming: 'Upcoming Auctions',
  past: 'Past Auctions',
};

/** The AI assessment is for auctions still to be bid on. */
export const canAssess = (status: AuctionStatus) => status === 'Upcoming' || status === 'Active';
