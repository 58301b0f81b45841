import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Caption1,
  makeStyles,
  Text,
  tokens,
} from '@fluentui/react-components';
import type { UploadRun } from '@contracts/uploads/uploads.schema';
import { countOf } from '../../../lib/plural';
import { modeLabels } from '../api/uploads';
import { formatWhen } from './upload-style';

const useStyles = makeStyles({
  panel: { margin: 0 },
  list: {
    display: 'flex',
    flexDirection: 'column',
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
  run: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    padding: `${tokens.spacingVerticalXS} 0`,
    ':not(:last-child)': {
      borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    },
  },
  line: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    rowGap: '2px',
  },
  muted: { color: tokens.colorNeutralForeground2 },
});

/** What a run was: the first import, a re-run in its mode, or an undo. */
export function runTitle(run: UploadRun): string {
  if (run.kind === 'undo') return 'Undo';
  if (run.number === 1) return 'Import';
  return `Re-run: ${(run.mode ? modeLabels[run.mode] : 'New rows only').toLowerCase()}`;
}

/** A run's figures in words. */
export function runFigures(run: UploadRun): string {
  if (run.kind === 'undo') {
    return [
      `${countOf(run.removed, 'record')} removed`,
      `${run.restored.toLocaleString()} put back`,
      `${run.kept.toLocaleString()} kept (edited since)`,
    ].join(' · ');
  }
  return `${run.created.toLocaleString()} created · ${run.updated.toLocaleString()} updated`;
}

/**
 * The runs of an upload, newest first: each one's kind and mode, figures, who started it and
 * when, and whether it was cancelled, stopped by failures, or is still going.
 */
export function UploadRuns({ runs, uploadName }: { runs: UploadRun[]; uploadName: string }) {
  const styles = useStyles();
  const newestFirst = [...runs].sort((a, b) => b.number - a.number);
  return (
    <Accordion collapsible>
      <AccordionItem value="runs">
        <AccordionHeader size="small">Runs ({runs.length})</AccordionHeader>
        <AccordionPanel className={styles.panel}>
          <ol className={styles.list} aria-label={`Runs of ${uploadName}`}>
            {newestFirst.map((run) => (
              <li key={run.number} className={styles.run}>
                <div className={styles.line}>
                  <Text weight="semibold">
                    {run.number}. {runTitle(run)}
                  </Text>
                  {run.cancelled ? (
                    <Badge appearance="tint" color="warning">
                      Cancelled
                    </Badge>
                  ) : run.stopped ? (
                    <Badge appearance="tint" color="danger">
                      Stopped
                    </Badge>
                  ) : run.finishedAt === null ? (
                    <Badge appearance="tint" color="brand">
                      Running
                    </Badge>
                  ) : null}
                </div>
                <Caption1>{runFigures(run)}</Caption1>
                <Caption1 className={styles.muted}>
                  {run.by ? `${run.by.name} · ` : ''}
                  {formatWhen(run.startedAt)}
                </Caption1>
              </li>
            ))}
          </ol>
        </AccordionPanel>
      </AccordionItem>
    </Accordion>
  );
}
