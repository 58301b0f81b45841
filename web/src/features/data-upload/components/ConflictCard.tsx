import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Button,
  Caption1,
  Card,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Radio,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
  useId,
  type BadgeProps,
} from '@fluentui/react-components';
import { CheckmarkCircleFilled, OpenRegular, SubtractCircleRegular } from '@fluentui/react-icons';
import type {
  Conflict,
  ConflictStatus,
  ResolveConflict,
} from '@contracts/conflicts/conflicts.schema';
import { useState } from 'react';
import { AppLink } from '../../../components/AppLink';
import { ApiError } from '../../../lib/api-client';
import { agree, countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import {
  conflictActions,
  conflictStatusLabels,
  kindLabels,
  resolutionLabels,
  typeLabels,
} from '../api/conflicts';
import {
  conflictTitle,
  defaultChoices,
  displayValue,
  EMPTY_VALUE,
  keptSide,
  matchColour,
  outcomeOf,
  recordLink,
  sourceLink,
} from './conflict-view';
import { formatWhen, useUploadStyles } from './upload-style';

const useStyles = makeStyles({
  card: { gap: tokens.spacingVerticalS },
  head: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalS,
  },
  title: { minWidth: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  name: { margin: 0, overflowWrap: 'anywhere' },
  badges: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
  },
  links: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalXXS,
  },
  link: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS },
  outcome: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    color: tokens.colorNeutralForeground2,
  },
  panel: {
    margin: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    paddingBottom: tokens.spacingVerticalS,
  },
  table: {
    tableLayout: 'fixed',
    width: '100%',
    // On a phone each field is a row of its own: its name above, the two values side by side.
    '@media (max-width: 600px)': {
      '& tr': { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)' },
      // A cell's fixed table height would let a wrapped value run into the next field.
      '& td': { height: 'auto', minHeight: '28px', paddingBlock: tokens.spacingVerticalXXS },
      '& td:first-child': { gridColumn: '1 / -1', paddingTop: tokens.spacingVerticalS },
      '& th:first-child': { display: 'none' },
    },
  },
  fieldColumn: { width: '30%' },
  value: { overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' },
  empty: { color: tokens.colorNeutralForeground3, fontStyle: 'italic' },
  kept: {
    backgroundColor: tokens.colorPaletteGreenBackground1,
    fontWeight: tokens.fontWeightSemibold,
  },
  keptMark: {
    color: tokens.colorPaletteGreenForeground1,
    verticalAlign: 'text-bottom',
    marginRight: tokens.spacingHorizontalXXS,
  },
  hidden: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clipPath: 'inset(50%)',
    whiteSpace: 'nowrap',
  },
  // A radio's label wraps under itself, not under its circle.
  choice: { alignItems: 'flex-start', '& label': { overflowWrap: 'anywhere' } },
  actions: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    justifyContent: 'flex-end',
    '@media (max-width: 600px)': { display: 'grid', gridTemplateColumns: '1fr 1fr' },
  },
});

const statusColour = {
  pending: 'warning',
  resolved: 'success',
  skipped: 'subtle',
} as const satisfies Record<ConflictStatus, BadgeProps['color']>;

type Side = 'existing' | 'imported';

/** A cell's value: "(empty)" in a quieter face, so a missing value does not read as a value. */
function Value({ value }: { value: unknown }) {
  const styles = useStyles();
  const shown = displayValue(value);
  return (
    <span className={mergeClasses(styles.value, shown === EMPTY_VALUE && styles.empty)}>
      {shown}
    </span>
  );
}

/**
 * One conflict (spec 2.7, 3.6): what it is and where it came from, and, expanded, the differing
 * fields side by side with the choices Keep existing, Use imported, Merge (a side per field) and
 * Skip. A resolved or skipped conflict says how, by whom and when, and offers no more choices.
 */
export function ConflictCard({
  conflict: listed,
  onChanged,
}: {
  conflict: Conflict;
  /** It was resolved (or found changed): the list and the counters are read again. */
  onChanged(): Promise<unknown>;
}) {
  const styles = useStyles();
  const shared = useUploadStyles();
  const notify = useNotify();
  const titleId = useId('conflict-title');
  const [open, setOpen] = useState(false);
  const [merging, setMerging] = useState(false);
  const [choices, setChoices] = useState<Record<string, Side>>({});
  /** The conflict read again after a 412, shown until the list itself brings a newer one. */
  const [reloaded, setReloaded] = useState<{ conflict: Conflict; over: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const conflict =
    reloaded && reloaded.over === listed.etag && reloaded.conflict.id === listed.id
      ? reloaded.conflict
      : listed;
  const title = conflictTitle(conflict);
  const record = recordLink(conflict);
  const pending = conflict.status === 'pending';
  const outcome = outcomeOf(conflict);
  const choiceOf = (field: string): Side => choices[field] ?? 'existing';

  const resolve = useAction(async (body: ResolveConflict) => {
    setNotice(null);
    try {
      await conflictActions.resolve(conflict, body);
      if (body.resolution === 'skip')
        notify.success('Conflict skipped', `${title} stays as it is.`);
      else notify.success('Conflict resolved', `${title}: ${resolutionLabels[body.resolution]}.`);
      setMerging(false);
      await onChanged();
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        // The conflict or its record changed since it was shown: the new values, to decide again.
        const fresh = await conflictActions.get(conflict.id);
        setReloaded({ conflict: fresh, over: listed.etag });
        setChoices({});
        setMerging(false);
        setOpen(true);
        setNotice(error.message);
        void onChanged();
        return;
      }
      if (error instanceof ApiError && error.status === 409) void onChanged();
      throw error;
    }
  });

  const fieldCount = countOf(conflict.fields.length, 'field');

  return (
    <li>
      <Card className={styles.card} role="group" aria-labelledby={titleId}>
        <div className={styles.head}>
          <div className={styles.title}>
            <Text as="h3" weight="semibold" id={titleId} className={styles.name}>
              {title}
            </Text>
            <Caption1 className={shared.muted}>
              {typeLabels[conflict.type]} · recorded {formatWhen(conflict.createdAt)}
            </Caption1>
          </div>
          <Badge appearance="tint" color={statusColour[conflict.status]}>
            {conflictStatusLabels[conflict.status]}
          </Badge>
        </div>
        <div className={styles.badges}>
          <Badge appearance="outline" color="informative">
            {kindLabels[conflict.conflictType]}
          </Badge>
          {conflict.matchScore === null ? (
            <Badge appearance="tint" color="informative">
              Same record
            </Badge>
          ) : (
            <Badge appearance="filled" color={matchColour(conflict.matchScore)}>
              {conflict.matchScore}% match
            </Badge>
          )}
          <Caption1 className={shared.muted}>
            {conflict.fields.length
              ? `${fieldCount} ${agree(conflict.fields.length, 'differs', 'differ')}`
              : 'No field differs'}
          </Caption1>
        </div>
        <div className={styles.links}>
          <Caption1>
            Source: <AppLink to={sourceLink(conflict)}>{conflict.uploadName}</AppLink>
          </Caption1>
          {record ? (
            <Caption1>
              <AppLink to={record} className={styles.link}>
                Open the {typeLabels[conflict.type].toLowerCase()} on file
                <OpenRegular aria-hidden="true" />
              </AppLink>
            </Caption1>
          ) : (
            <Caption1 className={shared.muted}>The record on file no longer exists</Caption1>
          )}
        </div>
        {outcome ? (
          <div className={styles.outcome}>
            {conflict.status === 'skipped' ? (
              <SubtractCircleRegular aria-hidden="true" />
            ) : (
              <CheckmarkCircleFilled className={styles.keptMark} aria-hidden="true" />
            )}
            <Caption1>{outcome}</Caption1>
          </div>
        ) : null}
        {notice && pending ? (
          <MessageBar intent="warning">
            <MessageBarBody>{notice}</MessageBarBody>
          </MessageBar>
        ) : null}
        {resolve.error ? (
          <MessageBar intent="error">
            <MessageBarBody>{resolve.error}</MessageBarBody>
          </MessageBar>
        ) : null}
        <Accordion
          collapsible
          openItems={open ? ['compare'] : []}
          onToggle={(_, data) => setOpen(data.openItems.includes('compare'))}
        >
          <AccordionItem value="compare">
            <AccordionHeader size="small">
              {pending ? `Compare and resolve (${fieldCount})` : `Compare values (${fieldCount})`}
            </AccordionHeader>
            <AccordionPanel className={styles.panel}>
              {conflict.fields.length ? (
                <Table size="small" className={styles.table} aria-label={`Values of ${title}`}>
                  <TableHeader>
                    <TableRow>
                      <TableHeaderCell className={styles.fieldColumn}>Field</TableHeaderCell>
                      <TableHeaderCell>On file</TableHeaderCell>
                      <TableHeaderCell>Imported</TableHeaderCell>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {conflict.fields.map((field) => {
                      const kept = keptSide(conflict, field.field);
                      const cell = (side: Side) => {
                        const value = side === 'existing' ? field.existing : field.imported;
                        if (merging) {
                          return (
                            <TableCell>
                              <Radio
                                className={styles.choice}
                                name={`${conflict.id}-${field.field}`}
                                value={side}
                                checked={choiceOf(field.field) === side}
                                onChange={() =>
                                  setChoices((current) => ({ ...current, [field.field]: side }))
                                }
                                label={displayValue(value)}
                              />
                            </TableCell>
                          );
                        }
                        return (
                          <TableCell className={kept === side ? styles.kept : undefined}>
                            {kept === side ? (
                              <>
                                <CheckmarkCircleFilled
                                  className={styles.keptMark}
                                  aria-hidden="true"
                                />
                                <span className={styles.hidden}>Kept: </span>
                              </>
                            ) : null}
                            <Value value={value} />
                          </TableCell>
                        );
                      };
                      return (
                        <TableRow key={field.field}>
                          <TableCell>
                            <Text weight="semibold">{field.label}</Text>
                          </TableCell>
                          {cell('existing')}
                          {cell('imported')}
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              ) : (
                <Caption1 className={shared.muted}>
                  The two records agree on every field the import compares.
                </Caption1>
              )}
              {pending && merging ? (
                <>
                  <Caption1 className={shared.muted}>
                    Choose the value to keep for each field; the record on file takes the imported
                    ones you pick.
                  </Caption1>
                  <div className={styles.actions}>
                    <Button disabled={resolve.busy} onClick={() => setMerging(false)}>
                      Cancel
                    </Button>
                    <Button
                      appearance="primary"
                      disabled={resolve.busy}
                      onClick={() =>
                        void resolve.run({
                          resolution: 'merge',
                          choices: { ...defaultChoices(conflict), ...choices },
                        })
                      }
                    >
                      {resolve.busy ? 'Merging...' : 'Apply merge'}
                    </Button>
                  </div>
                </>
              ) : pending ? (
                <div className={styles.actions}>
                  <Button
                    appearance="subtle"
                    disabled={resolve.busy}
                    onClick={() => void resolve.run({ resolution: 'skip' })}
                  >
                    Skip
                  </Button>
                  <Button
                    disabled={resolve.busy}
                    onClick={() => void resolve.run({ resolution: 'keep_existing' })}
                  >
                    Keep existing
                  </Button>
                  <Button
                    disabled={resolve.busy}
                    onClick={() => void resolve.run({ resolution: 'use_imported' })}
                  >
                    Use imported
                  </Button>
                  {conflict.fields.length ? (
                    <Button
                      appearance="primary"
                      disabled={resolve.busy}
                      onClick={() => {
                        setChoices({});
                        setMerging(true);
                      }}
                    >
                      Merge...
                    </Button>
                  ) : null}
                </div>
              ) : null}
            </AccordionPanel>
          </AccordionItem>
        </Accordion>
      </Card>
    </li>
  );
}
