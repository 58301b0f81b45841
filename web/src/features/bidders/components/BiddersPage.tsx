import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowUploadRegular, OptionsRegular, PersonAddRegular } from '@fluentui/react-icons';
import type { BidderListItem, ScoreType } from '@contracts/bidders/bidders.schema';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PageLoading } from '../../../components/PageLoading';
import { RoutedTabsPage } from '../../../components/RoutedTabsPage';
import { useCan } from '../../../lib/auth-store';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useBidderActions } from '../api/bidders';
import { AllBiddersTab } from './AllBiddersTab';
import { BidderFormDialog } from './BidderFormDialog';
import { BidderProfilePanel } from './BidderProfilePanel';
import { DuplicatesTab } from './DuplicatesTab';
import { ImportDialog } from './ImportDialog';
import { InviteDialog } from './InviteDialog';
import { ScoreTypeSwitch } from './ScoreTypeSwitch';
import type { RowAction } from './BidderTable';
import { fullName } from './score-style';
import type { ScoringViews } from './scoring-views';

// The charts library is large; only the Analytics tab needs it.
const AnalyticsTab = lazy(() => import('./AnalyticsTab'));

const useStyles = makeStyles({
  tools: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  desktopOnly: { '@media (max-width: 760px)': { display: 'none' } },
});

export default function BiddersPage({ scoring }: { scoring: ScoringViews }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useBidderActions();
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<BidderListItem | null>(null);
  const [inviting, setInviting] = useState<BidderListItem | null>(null);
  const [deleting, setDeleting] = useState<BidderListItem | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);

  const can = useCan();
  const scoreType: ScoreType = params.get('score') === 'custom' ? 'custom' : 'lotwise';
  const openBidder = params.get('bidder');
  // The import dialog has an address (`?import=1`) so the dashboard can lead straight to it.
  const importing = params.has('import') && can('data:import');
  const setParam = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      // The profile and the import dialog are pushed, so Back closes them.
      { replace: name === 'score' },
    );

  const remove = useAction(
    async (bidder: BidderListItem) => {
      await actions.remove(bidder.id);
      notify.success(`${fullName(bidder)} was deleted`);
      if (openBidder === bidder.id) setParam('bidder', null);
      setDeleting(null);
    },
    { onError: (message) => notify.error('The bidder was not deleted', message) },
  );

  const onAction = (action: RowAction, bidder: BidderListItem) => {
    if (action === 'view') setParam('bidder', bidder.id);
    else if (action === 'edit') setEditing(bidder);
    else if (action === 'invite') setInviting(bidder);
    else if (action === 'settings') setSettingsOpen(true);
    else setDeleting(bidder);
  };

  const { SettingsDialog, RecomputeProgress, AutoMergeThreshold, ScoreBreakdown } = scoring;
  const tabs = [
    {
      id: 'all',
      label: 'All Bidders',
      render: () => (
        <AllBiddersTab
          scoreType={scoreType}
          onOpen={(bidder) => setParam('bidder', bidder.id)}
          onAction={onAction}
          onAdd={can('bidders:create') ? () => setAdding(true) : undefined}
          onImport={can('data:import') ? () => setParam('import', '1') : undefined}
        />
      ),
    },
    {
      id: 'duplicates',
      label: 'Duplicates',
      render: () => (
        <DuplicatesTab threshold={<AutoMergeThreshold canEdit={can('bidders:scoring')} />} />
      ),
    },
    {
      id: 'analytics',
      label: 'Analytics',
      render: () => (
        <Suspense fallback={<PageLoading />}>
          <AnalyticsTab scoreType={scoreType} />
        </Suspense>
      ),
    },
  ];

  return (
    <RoutedTabsPage
      title="Bidder Management"
      base="/bidders"
      label="Bidder sections"
      tabs={tabs}
      indexTab="all"
      actions={
        <div className={styles.tools}>
          <ScoreTypeSwitch
            value={scoreType}
            onChange={(next) => setParam('score', next === 'custom' ? 'custom' : null)}
          />
          <Button
            className={styles.desktopOnly}
            icon={<OptionsRegular />}
            onClick={() => setSettingsOpen(true)}
          >
            Score Settings
          </Button>
          {can('data:import') ? (
            <Button
              className={styles.desktopOnly}
              icon={<ArrowUploadRegular />}
              onClick={() => setParam('import', '1')}
            >
              Import
            </Button>
          ) : null}
          {can('bidders:create') ? (
            <Button
              appearance="primary"
              icon={<PersonAddRegular />}
              onClick={() => setAdding(true)}
            >
              Add Bidder
            </Button>
          ) : null}
        </div>
      }
      notice={<RecomputeProgress onCompleted={() => void actions.refreshLists()} />}
    >
      <BidderProfilePanel
        bidderId={openBidder}
        defaultScoreType={scoreType}
        ScoreBreakdown={ScoreBreakdown}
        onClose={() => setParam('bidder', null)}
      />
      <BidderFormDialog open={adding} onClose={() => setAdding(false)} />
      <BidderFormDialog
        open={editing !== null}
        bidder={editing ?? undefined}
        onClose={() => setEditing(null)}
      />
      <InviteDialog bidder={inviting} onClose={() => setInviting(null)} />
      <SettingsDialog
        open={settingsOpen}
        canEdit={can('bidders:scoring')}
        onClose={() => setSettingsOpen(false)}
      />
      <ImportDialog open={importing} onClose={() => setParam('import', null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Delete ${fullName(deleting)}?` : 'Delete bidder?'}
        confirmLabel="Delete Bidder"
        busyLabel="Deleting..."
        danger
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (deleting) await remove.run(deleting);
        }}
      >
        {deleting
          ? `${fullName(deleting)} (${deleting.bidderId}) and their notes and history will be removed from your account. The deletion is kept in the audit log.`
          : ''}
      </ConfirmDialog>
    </RoutedTabsPage>
  );
}
