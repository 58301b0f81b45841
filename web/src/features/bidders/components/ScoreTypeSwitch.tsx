import { makeStyles, ToggleButton, tokens } from '@fluentui/react-components';
import type { ScoreType } from '@contracts/bidders/bidders.schema';

const useStyles = makeStyles({
  group: {
    display: 'inline-flex',
    padding: '2px',
    gap: '2px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
});

/** Lotwise or Custom: which score the screen shows. */
export function ScoreTypeSwitch({
  value,
  onChange,
  label = 'Score type',
}: {
  value: ScoreType;
  onChange(next: ScoreType): void;
  label?: string;
}) {
  const styles = useStyles();
  return (
    <div role="group" aria-label={label} className={styles.group}>
      {(['lotwise', 'custom'] as const).map((type) => (
        <ToggleButton
          key={type}
          size="small"
          appearance={value === type ? 'primary' : 'subtle'}
          checked={value === type}
          onClick={() => onChange(type)}
        >
          {type === 'lotwise' ? 'Lotwise' : 'Custom'}
        </ToggleButton>
      ))}
    </div>
  );
}
