import {
  makeStyles,
  MessageBar,
  MessageBarBody,
  ProgressBar,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useRef } from 'react';
import { useScoringSettings } from '../api/scoring';
import { countOf } from '../../../lib/plural';

const useStyles = makeStyles({
  progress: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    flexGrow: 1,
  },
});

/** While custom scores are recalculated after a settings change, how far along it is. */
export function RecomputeProgress({ onCompleted }: { onCompleted(): void }) {
  const styles = useStyles();
  const { data } = useScoringSettings();
  const status = data?.recompute?.status;
  const previous = useRef(status);
  useEffect(() => {
    if (previous.current && previous.current !== 'completed' && status === 'completed')
      onCompleted();
    previous.current = status;
  }, [status, onCompleted]);
  if (!data?.recompute || (status !== 'queued' && status !== 'running')) return null;
  const { processed, total } = data.recompute;
  return (
    <MessageBar intent="info">
      <MessageBarBody className={styles.progress}>
        <span>
          Recalculating custom scores with the new settings:{' '}
          {total ? `${processed.toLocaleString()} of ${countOf(total, 'bidder')}` : 'starting...'}
        </span>
        <ProgressBar
          value={total ? processed / total : undefined}
          aria-label="Custom score recalculation"
        />
      </MessageBarBody>
    </MessageBar>
  );
}
