import {
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Radio,
  RadioGroup,
  Spinner,
  tokens,
} from '@fluentui/react-components';
import type {
  BulkResolve,
  BulkResolved,
  ConflictType,
} from '@contracts/conflicts/conflicts.schema';
import { useState } from 'react';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useAction } from '../../../lib/use-action';
import { BULK_COUNT_PAGE, conflictActions, typeLabels, usePendingCount } from '../api/conflicts';

type Choice = BulkResolve['resolution'];

const choiceLabels: Record<Choice, string> = {
  keep_existing: 'Keep existing: the records on file stay as they are',
  use_imported: 'Use imported: the records on file take the imported values',
  skip: 'Skip: set them aside, changing nothing',
};

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  failures: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXL,
    maxHeight: '200px',
    overflowY: 'auto',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
  },
  muted: { color: tokens.colorNeutralForeground2 },
});

/** What a bulk resolve did, over all the requests it took. */
export type BulkOutcome = Omit<BulkResolved, 'remaining'>;

/** "12 pending bidder conflicts", "more than 100 pending conflicts". */
function pendingText(type: ConflictType | undefined, count: { shown: number; more: boolean }) {
  const kind = type ? `${typeLabels[type].toLowerCase()} ` : '';
  return count.more
    ? `more than ${count.shown.toLocaleString()} pending ${kind}conflicts`
    : countOf(count.shown, `pending ${kind}conflict`);
}

/**
 * Resolve all shown: one choice for every pending conflict of the current type filter, after a
 * confirmation saying how many. The service takes up to 1,000 a request and says how many remain,
 * so the dialog asks again until none does (or only those that failed are left), then sums up.
 */
export function BulkResolveDialog({
  open,
  type,
  pendingTotal,
  nameOf,
  onDone,
  onClose,
}: {
  open: boolean;
  type: ConflictType | undefined;
  /** The account's pending conflicts: the count itself when no type is chosen. */
  pendingTotal: number;
  /** The title of a conflict the list has loaded, to name a failure. */
  nameOf(id: string): string | undefined;
  /** Conflicts were resolved: the list and counters are read again. */
  onDone(): Promise<unknown>;
  onClose(): void;
}) {
  const styles = useStyles();
  const [choice, setChoice] = useState<Choice>('keep_existing');
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const probe = usePendingCount(type ? { type } : {}, open && Boolean(type) && !outcome);
  const count = type ? probe.count : { shown: pendingTotal, more: false };

  const run = useAction(async () => {
    const failed = new Map<string, string>();
    const total = { resolved: 0, skipped: 0 };
    for (;;) {
      const step = await conflictActions.bulkResolve({
        filter: type ? { type } : {},
        resolution: choice,
      });
      total.resolved += step.resolved;
      total.skipped += step.skipped;
      for (const failure of step.failed) failed.set(failure.id, failure.message);
      // Those that failed stay pending: another request would only fail them again.
      if (step.remaining === 0 || step.resolved + step.skipped === 0) break;
    }
    // The summary shows once the list behind it is fresh, so Close returns to the new counts.
    await onDone();
    setOutcome({ ...total, failed: [...failed].map(([id, message]) => ({ id, message })) });
  });

  const close = () => {
    if (run.busy) return;
    setOutcome(null);
    setChoice('keep_existing');
    run.reset();
    onClose();
  };
  const none = count !== undefined && count.shown === 0;

  return (
    <Dialog open={open} modalType="alert" onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>
            {outcome ? 'Conflicts resolved' : 'Resolve all shown conflicts?'}
          </DialogTitle>
          <DialogContent className={styles.content}>
            {outcome ? (
              <>
                <Body1>
                  {countOf(outcome.resolved, 'conflict')} resolved,{' '}
                  {outcome.skipped.toLocaleString()} skipped
                  {outcome.failed.length
                    ? `, ${outcome.failed.length.toLocaleString()} failed`
                    : ''}
                  .
                </Body1>
                {outcome.failed.length ? (
                  <MessageBar intent="warning" layout="multiline">
                    <MessageBarBody>
                      These stay pending, to review one by one:
                      <ul className={styles.failures} aria-label="Conflicts not resolved">
                        {outcome.failed.map((failure) => (
                          <li key={failure.id}>
                            {nameOf(failure.id) ? <strong>{nameOf(failure.id)}: </strong> : null}
                            {failure.message}
                          </li>
                        ))}
                      </ul>
                    </MessageBarBody>
                  </MessageBar>
                ) : null}
              </>
            ) : (
              <>
                {probe.error ? (
                  <MessageBar intent="error">
                    <MessageBarBody>{messageOf(probe.error)}</MessageBarBody>
                  </MessageBar>
                ) : null}
                {count ? (
                  <Body1>
                    {none
                      ? `There are no pending ${type ? `${typeLabels[type].toLowerCase()} ` : ''}conflicts to resolve.`
                      : `This resolves ${pendingText(type, count)} at once, each with the same choice. It cannot be undone from here.`}
                  </Body1>
                ) : (
                  <Spinner
                    size="tiny"
                    label={`Counting the pending conflicts (up to ${BULK_COUNT_PAGE})...`}
                  />
                )}
                <Field label="Resolution for all of them">
                  <RadioGroup
                    value={choice}
                    onChange={(_, data) =>
                      setChoice(
                        data.value === 'use_imported' || data.value === 'skip'
                          ? data.value
                          : 'keep_existing',
                      )
                    }
                  >
                    {(Object.keys(choiceLabels) as Choice[]).map((value) => (
                      <Radio key={value} value={value} label={choiceLabels[value]} />
                    ))}
                  </RadioGroup>
                </Field>
                {run.error ? (
                  <MessageBar intent="error">
                    <MessageBarBody>{run.error}</MessageBarBody>
                  </MessageBar>
                ) : null}
                <Caption1 className={styles.muted}>
                  A conflict whose record changed since it was recorded is left pending and listed
                  afterwards.
                </Caption1>
              </>
            )}
          </DialogContent>
          <DialogActions>
            {outcome ? (
              <Button appearance="primary" onClick={close}>
                Close
              </Button>
            ) : (
              <>
                <Button onClick={close} disabled={run.busy}>
                  Cancel
                </Button>
                <Button
                  appearance="primary"
                  disabled={run.busy || !count || none}
                  onClick={() => void run.run()}
                >
                  {run.busy
                    ? 'Resolving...'
                    : count && !none && !count.more
                      ? `Resolve ${count.shown.toLocaleString()}`
                      : 'Resolve all'}
                </Button>
              </>
            )}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
