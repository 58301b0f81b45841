import { makeStyles, tokens } from '@fluentui/react-components';
import { bandColour, scoreBand } from './score-style';

const useStyles = makeStyles({
  gauge: { position: 'relative', display: 'inline-grid', placeItems: 'center', flexShrink: 0 },
  value: {
    position: 'absolute',
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground1,
  },
});

/**
 * A circular gauge for a 0-100 score, coloured by the score's band; grey for a bidder with no
 * record yet, whose score is the neutral default rather than a judgement.
 */
export function ScoreGauge({
  score,
  size = 44,
  label,
  unknown = false,
}: {
  score: number;
  size?: number;
  label: string;
  unknown?: boolean;
}) {
  const styles = useStyles();
  const stroke = Math.max(4, Math.round(size / 10));
  const radius = (size - stroke) / 2;
  const circumference = 2 * Math.PI * radius;
  const filled = (Math.max(0, Math.min(100, score)) / 100) * circumference;
  return (
    <span
      className={styles.gauge}
      role="img"
      aria-label={`${label} ${score} out of 100${unknown ? ', no record yet' : ''}`}
    >
      <svg width={size} height={size} viewBox={`0 0 ${size} ${size}`} aria-hidden="true">
        <circle
          cx={size / 2}
          cy={size / 2}
          r={radius}
          fill="none"
          stroke={tokens.colorNeutralStroke2}
          strokeWidth={stroke}
        />
        <circle
          cx={size / 2}
          cy={size / 2}
          r={radius}
          fill="none"
          stroke={bandColour[unknown ? 'neutral' : scoreBand(score)]}
          strokeWidth={stroke}
          strokeLinecap="round"
          strokeDasharray={`${filled} ${circumference}`}
          transform={`rotate(-90 ${size / 2} ${size / 2})`}
        />
      </svg>
      <span
        className={styles.value}
        style={{ fontSize: Math.round(size * 0.32) }}
        aria-hidden="true"
      >
        {score}
      </span>
    </span>
  );
}
