import { Caption1, makeStyles, ProgressBar, Text, tokens } from '@fluentui/react-components';
import type { ScoreType } from '@contracts/bidders/bidders.schema';
import {
  componentLabels,
  scoreComponents,
  type ScoreComponent,
} from '@contracts/scoring/scoring.schema';
import { useLotwiseModel, useScoringSettings } from '../api/scoring';

const useStyles = makeStyles({
  component: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  componentLine: {
    display: 'flex',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
  },
  muted: { color: tokens.colorNeutralForeground3 },
});

/**
 * Each component of a score, 0-100, with the weight the score type gives it; a component the
 * bidder's record holds no evidence for says it is the neutral value, not a measure of them.
 */
export function ScoreBreakdown({
  scoreType,
  breakdown,
  neutral,
}: {
  scoreType: ScoreType;
  breakdown: Record<ScoreComponent, number>;
  neutral: readonly ScoreComponent[];
}) {
  const styles = useStyles();
  const lotwise = useLotwiseModel();
  const settings = useScoringSettings();
  const weights = scoreType === 'custom' ? settings.data?.customWeights : lotwise.data?.weights;
  return scoreComponents.map((name) => (
    <div key={name} className={styles.component}>
      <div className={styles.componentLine}>
        <Text weight="semibold">{componentLabels[name]}</Text>
        <Text>
          {breakdown[name]}
          <span className={styles.muted}> · weight {weights ? `${weights[name]}%` : '…'}</span>
        </Text>
      </div>
      {neutral.includes(name) ? (
        <Caption1 className={styles.muted}>No record yet: neutral {breakdown[name]}</Caption1>
      ) : null}
      <ProgressBar
        value={breakdown[name] / 100}
        thickness="large"
        aria-label={`${componentLabels[name]} ${breakdown[name]} of 100`}
      />
    </div>
  ));
}
