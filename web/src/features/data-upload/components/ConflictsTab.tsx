import {
  Body1,
  Button,
  Caption1,
  Dropdown,
  Field,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Option,
  Skeleton,
  SkeletonItem,
  Subtitle1,
  tokens,
  useId,
} from '@fluentui/react-components';
import { ArrowSyncRegular, BranchCompareRegular } from '@fluentui/react-icons';
import {
  conflictStatuses,
  conflictTypes,
  type ConflictStatus,
  type ConflictType,
} from '@contracts/conflicts/conflicts.schema';
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AppLink } from '../../../components/AppLink';
import { StatCard } from '../../../components/StatCard';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { conflictStatusLabels, typePluralLabels, useConflicts } from '../api/conflicts';
import { BulkResolveDialog } from './BulkResolveDialog';
import { ConflictCard } from './ConflictCard';
import { conflictTitle } from './conflict-view';
import { useUploadStyles } from './upload-style';

const ALL = 'all';

const useStyles = makeStyles({
  counters: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))',
    gap: tokens.spacingHorizontalM,
    // Two rows of three on a phone, the figures still large enough to read at a glance.
    '@media (max-width: 600px)': { gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' },
  },
  head: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
  },
  toolbar: { justifyContent: 'space-between' },
  filters: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    alignItems: 'flex-end',
    flex: '1 1 320px',
  },
  list: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
  emptyText: { maxWidth: '640px' },
});

/** The list's filters as the address keeps them (`?type=&state=`; `status` is the history's). */
function useConflictFilters() {
  const [params, setParams] = useSearchParams();
  const type = conflictTypes.find((candidate) => candidate === params.get('type'));
  const status = conflictStatuses.find((candidate) => candidate === params.get('state'));
  const set = (name: 'type' | 'state', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value && value !== ALL) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  return { type, status, set };
}

/**
 * Conflict Resolution (spec 2.7): the six counters, a banner while conflicts wait, the list by
 * type and status, each conflict a card to resolve, and Resolve all shown for the type chosen.
 */
export function ConflictsTab() {
  const styles = useStyles();
  const shared = useUploadStyles();
  const listTitle = useId('conflicts');
  const { type, status, set } = useConflictFilters();
  const list = useConflicts({ ...(type ? { type } : {}), ...(status ? { status } : {}) });
  const { mutate } = list;
  const refresh = useCallback(() => mutate(), [mutate]);
  const [bulk, setBulk] = useState(false);

  const conflicts = list.data?.flatMap((page) => page.items) ?? [];
  const counts = list.data?.[0]?.counts;
  const more = Boolean(list.data?.at(-1)?.continuationToken);
  const filtered = Boolean(type || status);
  const figure = (value: number | undefined) =>
    value === undefined ? '—' : value.toLocaleString();
  const counters = [
    ['Total Conflicts', counts?.total],
    ['Pending', counts?.pending],
    ['Resolved', counts?.resolved],
    ['Bidders', counts?.bidders],
    ['Auctions', counts?.auctions],
    ['Legal', counts?.legal],
  ] as const;
  // Only pending conflicts can be resolved; a list of resolved or skipped ones has none to take.
  const bulkable = Boolean(counts?.pending) && (!status || status === 'pending');
  const titles = new Map(conflicts.map((conflict) => [conflict.id, conflictTitle(conflict)]));

  return (
    <div className={shared.stack}>
      <div className={styles.counters} role="group" aria-label="Conflict counts">
        {counters.map(([label, value]) => (
          <StatCard key={label} label={label} value={figure(value)} />
        ))}
      </div>
      {counts?.pending ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>
              {countOf(counts.pending, 'conflict')} {counts.pending === 1 ? 'needs' : 'need'} your
              review
            </MessageBarTitle>
            Imports and platform syncs left these records for a person to decide: keep what is on
            file, use the imported values, merge them field by field, or skip.
          </MessageBarBody>
          {status !== 'pending' ? (
            <MessageBarActions>
              <Button onClick={() => set('state', 'pending')}>Show pending</Button>
            </MessageBarActions>
          ) : null}
        </MessageBar>
      ) : null}
      <section className={shared.stack} aria-labelledby={listTitle}>
        <div className={styles.head}>
          <Subtitle1 as="h2" id={listTitle} className={shared.sectionTitle}>
            Conflicts
          </Subtitle1>
          <Button
            appearance="subtle"
            icon={<ArrowSyncRegular />}
            disabled={list.isValidating}
            onClick={() => void refresh()}
          >
            Refresh
          </Button>
        </div>
        <div className={`${shared.toolbar} ${styles.toolbar}`}>
          <div className={styles.filters}>
            <Field label="Type" className={shared.filter}>
              <Dropdown
                className={shared.filterControl}
                value={type ? typePluralLabels[type] : 'All types'}
                selectedOptions={[type ?? ALL]}
                onOptionSelect={(_, data) => set('type', data.optionValue ?? '')}
              >
                <Option value={ALL}>All types</Option>
                {conflictTypes.map((candidate: ConflictType) => (
                  <Option key={candidate} value={candidate}>
                    {typePluralLabels[candidate]}
                  </Option>
                ))}
              </Dropdown>
            </Field>
            <Field label="Status" className={shared.filter}>
              <Dropdown
                className={shared.filterControl}
                value={status ? conflictStatusLabels[status] : 'All statuses'}
                selectedOptions={[status ?? ALL]}
                onOptionSelect={(_, data) => set('state', data.optionValue ?? '')}
              >
                <Option value={ALL}>All statuses</Option>
                {conflictStatuses.map((candidate: ConflictStatus) => (
                  <Option key={candidate} value={candidate}>
                    {conflictStatusLabels[candidate]}
                  </Option>
                ))}
              </Dropdown>
            </Field>
          </div>
          <Button appearance="primary" disabled={!bulkable} onClick={() => setBulk(true)}>
            Resolve all shown
          </Button>
        </div>
        {list.error ? (
          <MessageBar intent="error">
            <MessageBarBody>
              The conflicts could not be loaded: {messageOf(list.error)}
            </MessageBarBody>
            <MessageBarActions>
              <Button onClick={() => void refresh()}>Try again</Button>
            </MessageBarActions>
          </MessageBar>
        ) : null}
        {list.data ? (
          conflicts.length ? (
            <ul className={styles.list} aria-label="Conflicts">
              {conflicts.map((conflict) => (
                <ConflictCard key={conflict.id} conflict={conflict} onChanged={refresh} />
              ))}
            </ul>
          ) : filtered ? (
            <div className={shared.empty}>
              <BranchCompareRegular fontSize={32} aria-hidden="true" />
              <Body1>No conflicts match these filters.</Body1>
            </div>
          ) : (
            <div className={shared.empty}>
              <BranchCompareRegular fontSize={32} aria-hidden="true" />
              <Body1 className={styles.emptyText}>
                No conflicts. A conflict is a record an import or a platform sync could not place on
                its own: a bidder who looks like one already on file, an auction changed both here
                and on its platform, a legal case that matches an existing one.
              </Body1>
              <Body1 className={styles.emptyText}>
                They come from files processed on the{' '}
                <AppLink to="/data-upload">Uploads &amp; Processing</AppLink> tab and from{' '}
                <AppLink to="/settings/integrations">platform syncs</AppLink>, and wait here until
                someone decides.
              </Body1>
            </div>
          )
        ) : list.error ? null : (
          <Skeleton aria-label="Loading the conflicts">
            {[0, 1, 2].map((row) => (
              <SkeletonItem key={row} size={72} style={{ marginBottom: 8 }} />
            ))}
          </Skeleton>
        )}
        {conflicts.length ? (
          <div className={shared.more}>
            {more ? (
              <Button disabled={list.isValidating} onClick={() => void list.setSize(list.size + 1)}>
                {list.isValidating ? 'Loading...' : 'Load more'}
              </Button>
            ) : (
              <Caption1 className={shared.muted} aria-live="polite">
                {countOf(conflicts.length, 'conflict')}
              </Caption1>
            )}
          </div>
        ) : null}
      </section>
      <BulkResolveDialog
        open={bulk}
        type={type}
        pendingTotal={counts?.pending ?? 0}
        nameOf={(id) => titles.get(id)}
        onDone={refresh}
        onClose={() => setBulk(false)}
      />
    </div>
  );
}
