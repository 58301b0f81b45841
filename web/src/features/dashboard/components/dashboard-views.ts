import type { AuctionStatus } from '@contracts/auctions/auctions.schema';
import type { BidderListItem } from '@contracts/bidders/bidders.schema';
import type { CasePriority, CaseStatus } from '@contracts/legal/legal.schema';
import type { ComponentType } from 'react';

/**
 * How the other features draw what the dashboard lists. They belong to those features, so the app
 * passes them in and every screen shows a status or score the same way.
 */
export interface DashboardViews {
  AuctionStatusBadge: ComponentType<{ status: AuctionStatus }>;
  CaseStatusBadge: ComponentType<{ status: CaseStatus }>;
  PriorityBadge: ComponentType<{ priority: CasePriority }>;
  TierBadge: ComponentType<{ score: BidderListItem['lotwiseScore'] }>;
  /** The Lotwise Score as a small gauge. */
  ScoreGauge: ComponentType<{ score: BidderListItem['lotwiseScore'] }>;
}
