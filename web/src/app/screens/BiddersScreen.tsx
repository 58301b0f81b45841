import BiddersPage from '../../features/bidders/components/BiddersPage';
import type { ScoringViews } from '../../features/bidders/components/scoring-views';
import { AutoMergeThreshold } from '../../features/scoring/components/AutoMergeThreshold';
import { RecomputeProgress } from '../../features/scoring/components/RecomputeProgress';
import { ScoreBreakdown } from '../../features/scoring/components/ScoreBreakdown';
import { ScoringSettingsDialog } from '../../features/scoring/components/ScoringSettingsDialog';

const scoring: ScoringViews = {
  SettingsDialog: ScoringSettingsDialog,
  RecomputeProgress,
  AutoMergeThreshold,
  ScoreBreakdown,
};

/** Bidder Management, with the scoring feature's settings, progress and breakdown inside it. */
export default function BiddersScreen() {
  return <BiddersPage scoring={scoring} />;
}
