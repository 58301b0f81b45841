import { Badge } from '@fluentui/react-components';
import { StatusBadge } from '../../features/auctions/components/auction-style';
import { ScoreGauge } from '../../features/bidders/components/ScoreGauge';
import { isUnknown, tierBadge } from '../../features/bidders/components/score-style';
import DashboardPage from '../../features/dashboard/components/DashboardPage';
import type { DashboardViews } from '../../features/dashboard/components/dashboard-views';
import { CaseStatusBadge, PriorityBadge } from '../../features/legal/components/case-style';

const views: DashboardViews = {
  AuctionStatusBadge: StatusBadge,
  CaseStatusBadge,
  PriorityBadge,
  TierBadge: ({ score }) => (
    <Badge appearance="tint" color={tierBadge[score.tier]}>
      {score.tier}
    </Badge>
  ),
  ScoreGauge: ({ score }) => (
    <ScoreGauge score={score.score} unknown={isUnknown(score)} size={40} label="Lotwise Score" />
  ),
};

/** The dashboard, drawing auctions, bidders and cases as their own features do. */
export default function DashboardScreen() {
  return <DashboardPage views={views} />;
}
