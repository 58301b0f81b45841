import {
  Button,
  makeStyles,
  MessageBar,
  MessageBarBody,
  ProgressBar,
  Tab,
  TabList,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { ArrowUploadRegular, OptionsRegular, PersonAddRegular } from '@fluentui/react-icons';
import type { BidderListItem, ScoreType } from '@contracts/bidders/bidders.schema';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PageLoading } from '../../../app/PageLoading';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { useNotify } from '../../../lib/toast';
import { useBidderActions, useScoringSettings } from '../api/bidders';
import { AllBiddersTab } from './AllBiddersTab';
import { BidderFormDialog } from './BidderFormDialog';
import { BidderProfilePanel } from './BidderProfilePanel';
import { DuplicatesTab } from './DuplicatesTab';
import { ImportDialog } from './ImportDialog';
import { InviteDialog } from './InviteDialog';
import { ScoreTypeSwitch } from './ScoreTypeSwitch';
import { ScoringSettingsDialog } from './ScoringSettingsDialog';
import type { RowAction } from './BidderTable';
import { fullName } from './score-style';

// The charts library is large; only the Analytics tab needs it.
const AnalyticsTab = lazy(() => import('./AnalyticsTab'));

const tabs = [
  { id: 'all', label: 'All Bidders' },
  { id: 'duplicates', label: 'Duplicates' },
  { id: 'analytics', label: 'Analytics' },
] as const;

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  header: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
  title: { margin: 0 },
  tools: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  desktopOnly: { '@media (max-width: 760px)': { display: 'none' } },
  progress: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    flexGrow: 1,
  },
});

/** While custom scores are recalculated after a settings change, how far along it is. */
function RecomputeProgress() {
  const styles = useStyles();
  const { data } = useScoringSettings();
  const { refreshLists } = useBidderActions();
  const status = data?.recompute?.status;
  const previous = useRef(status);
  useEffect(() => {
    if (previous.current && previous.current !== 'completed' && status === 'completed')
      void refreshLists();
    previous.current = status;
  }, [status, refreshLists]);
  if (!data?.recompute || (status !== 'queued' && status !== 'running')) return null;
  const { processed, total } = data.recompute;
  return (
    <MessageBar intent="info">
      <MessageBarBody className={styles.progress}>
        <span>
          Recalculating custom scores with the new settings:{' '}
          {total
            ? `${processed.toLocaleString()} of ${total.toLocaleString()} bidders`
            : 'starting...'}
        </span>
        <ProgressBar
          value={total ? processed / total : undefined}
          aria-label="Custom score recalculation"
        />
      </MessageBarBody>
    </MessageBar>
  );
}

export default function BiddersPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const notify = useNotify();
  const actions = useBidderActions();
  const { tab = 'all' } = useParams();
  const [params, setParams] = useSearchParams();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<BidderListItem | null>(null);
  const [inviting, setInviting] = useState<BidderListItem | null>(null);
  const [deleting, setDeleting] = useState<BidderListItem | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [importing, setImporting] = useState(false);

  const can = useCan();
  const scoreType: ScoreType = params.get('score') === 'custom' ? 'custom' : 'lotwise';
  const openBidder = params.get('bidder');
  const setParam = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: name !== 'bidder' },
    );

  if (!tabs.some((candidate) => candidate.id === tab)) return <Navigate to="/bidders" replace />;

  const onAction = (action: RowAction, bidder: BidderListItem) => {
    if (action === 'view') setParam('bidder', bidder.id);
    else if (action === 'edit') setEditing(bidder);
    else if (action === 'invite') setInviting(bidder);
    else if (action === 'settings') setSettingsOpen(true);
    else setDeleting(bidder);
  };

  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <Title2 as="h1" className={styles.title}>
          Bidder Management
        </Title2>
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
              onClick={() => setImporting(true)}
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
      </div>
      <TabList
        selectedValue={tab}
        onTabSelect={(_, data) =>
          navigate({
            pathname: data.value === 'all' ? '/bidders' : `/bidders/${String(data.value)}`,
            search: params.toString(),
          })
        }
        aria-label="Bidder sections"
      >
        {tabs.map((candidate) => (
          <Tab key={candidate.id} value={candidate.id}>
            {candidate.label}
          </Tab>
        ))}
      </TabList>
      <RecomputeProgress />
      {tab === 'all' ? (
        <AllBiddersTab
          scoreType={scoreType}
          onOpen={(bidder) => setParam('bidder', bidder.id)}
          onAction={onAction}
        />
      ) : tab === 'duplicates' ? (
        <DuplicatesTab />
      ) : (
        <Suspense fallback={<PageLoading />}>
          <AnalyticsTab scoreType={scoreType} />
        </Suspense>
      )}

      <BidderProfilePanel
        bidderId={openBidder}
        defaultScoreType={scoreType}
        onClose={() => setParam('bidder', null)}
        onEdit={(bidder) => setEditing(bidder)}
      />
      <BidderFormDialog open={adding} onClose={() => setAdding(false)} />
      <BidderFormDialog
        open={editing !== null}
        bidder={editing ?? undefined}
        onClose={() => setEditing(null)}
      />
      <InviteDialog bidder={inviting} onClose={() => setInviting(null)} />
      <ScoringSettingsDialog
        open={settingsOpen}
        canEdit={can('bidders:scoring')}
        onClose={() => setSettingsOpen(false)}
      />
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? `Delete ${fullName(deleting)}?` : 'Delete bidder?'}
        confirmLabel="Delete Bidder"
        busyLabel="Deleting..."
        danger
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await actions.remove(deleting.id);
            notify.success(`${fullName(deleting)} was deleted`);
            if (openBidder === deleting.id) setParam('bidder', null);
            setDeleting(null);
          } catch (caught) {
            notify.error('The bidder was not deleted', messageOf(caught));
          }
        }}
      >
        {deleting
          ? `${fullName(deleting)} (${deleting.bidderId}) and their notes and history will be removed from your account. The deletion is kept in the audit log.`
          : ''}
      </ConfirmDialog>
    </div>
  );
}
