import type { ScoreType, Bidder } from '@contracts/bidders/bidders.schema';
import type { ComponentType } from 'react';

/**
 * The scoring screens shown inside Bidder Management. They belong to the scoring feature, so the
 * app passes them in rather than this feature importing them.
 */
export interface ScoringViews {
  /** Score Settings: the Lotwise model, the custom score and the automation rules. */
  SettingsDialog: ComponentType<{ open: boolean; canEdit: boolean; onClose(): void }>;
  /** The progress of a custom-score recalculation; onCompleted runs when one finishes. */
  RecomputeProgress: ComponentType<{ onCompleted(): void }>;
  /** The auto-merge threshold above the duplicate pairs. */
  AutoMergeThreshold: ComponentType<{ canEdit: boolean }>;
  /** A score's components with the weights of its score type, and which have no evidence yet. */
  ScoreBreakdown: ComponentType<{
    scoreType: ScoreType;
    breakdown: Bidder['lotwiseScore']['breakdown'];
    neutral: Bidder['lotwiseScore']['neutral'];
  }>;
}
