import {
  Badge,
  Body1,
  Body1Strong,
  Button,
  Caption1,
  Card,
  DrawerBody,
  DrawerFooter,
  DrawerHeader,
  DrawerHeaderTitle,
  Dropdown,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Option,
  OverlayDrawer,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Tab,
  TabList,
  Text,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import {
  CalendarRegular,
  DismissRegular,
  EditRegular,
  FlagRegular,
  GavelRegular,
  HistoryRegular,
  MailRegular,
  NoteRegular,
  PhoneRegular,
} from '@fluentui/react-icons';
import { noteCategories, type Bidder, type ScoreType } from '@contracts/bidders/bidders.schema';
import { caseTypeLabels, priorityLabels } from '@contracts/legal/legal.schema';
import { Link as RouterLink } from 'react-router';
import { componentLabels } from '@contracts/scoring/scoring.schema';
import { useState, type FormEvent } from 'react';
import { PermittedButton } from '../../../components/PermittedButton';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { formatMoney } from '../../../lib/money';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import {
  useBidder,
  useBidderActions,
  useBidderCases,
  useBidderHistory,
  useBidderNotes,
  useScoreHistory,
} from '../api/bidders';
import { BidderFormDialog } from './BidderFormDialog';
import { ScoreGauge } from './ScoreGauge';
import { ScoreTypeSwitch } from './ScoreTypeSwitch';
import {
  autoInviteBadge,
  fullName,
  isUnknown,
  scoreOf,
  scoreTypeLabel,
  statusBadge,
  tierBadge,
} from './score-style';
import type { ScoringViews } from './scoring-views';
import { countOf } from '../../../lib/plural';

type ProfileTab = 'overview' | 'breakdown' | 'history' | 'cases' | 'notes';

const useStyles = makeStyles({
  drawer: { width: 'min(560px, 100vw)' },
  header: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  badges: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  contact: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    color: tokens.colorNeutralForeground2,
  },
  contactLine: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  scoreRow: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalL,
    padding: tokens.spacingVerticalM,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground3,
    flexWrap: 'wrap',
  },
  scoreText: { display: 'flex', flexDirection: 'column', gap: '2px', flexGrow: 1 },
  reportRow: { display: 'flex', justifyContent: 'flex-end' },
  stack: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    paddingBlock: tokens.spacingVerticalM,
  },
  stats: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
    gap: tokens.spacingVerticalS,
  },
  stat: {
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  statValue: { fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground3 },
  empty: {
    textAlign: 'center',
    padding: tokens.spacingVerticalXXL,
    color: tokens.colorNeutralForeground3,
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
  },
  entryHead: { display: 'flex', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  noteForm: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  noteActions: { display: 'flex', justifyContent: 'flex-end' },
  footer: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  tabs: { flexWrap: 'wrap' },
  identities: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  identity: {
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
  },
  changes: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  change: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
});

const money = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateOf = (value: string | null) => (value ? day.format(new Date(value)) : 'N/A');

function Stat({ label, value }: { label: string; value: string }) {
  const styles = useStyles();
  return (
    <div className={styles.stat}>
      <Caption1 className={styles.muted}>{label}</Caption1>
      <span className={styles.statValue}>{value}</span>
    </div>
  );
}

function Overview({ bidder }: { bidder: Bidder }) {
  const styles = useStyles();
  const { stats } = bidder;
  const payments = stats.paymentsOnTime + stats.paymentsLate;
  return (
    <div className={styles.stack}>
      <div className={styles.stats}>
        <Stat label="Auctions bid" value={String(stats.totalAuctionsBid)} />
        <Stat label="Lots bid" value={String(stats.totalLotsBid)} />
        <Stat label="Lots won" value={String(stats.wins)} />
        <Stat
          label="Win rate"
          value={
            stats.totalLotsBid ? `${Math.round((stats.wins / stats.totalLotsBid) * 100)}%` : '—'
          }
        />
        <Stat label="Total spent" value={money.format(stats.totalWinAmount)} />
        <Stat
          label="Average win"
          value={stats.wins ? money.format(stats.totalWinAmount / stats.wins) : '—'}
        />
        <Stat
          label="Paid on time"
          value={payments ? `${stats.paymentsOnTime} of ${payments}` : '—'}
        />
        <Stat
          label="Days to pay"
          value={stats.avgDaysToPay === null ? '—' : String(stats.avgDaysToPay)}
        />
        <Stat
          label="Prior defaults"
          value={stats.priorDefaults ? `Yes (${stats.priorDefaults})` : 'No'}
        />
        <Stat label="Disputes" value={String(stats.disputes)} />
        <Stat label="Referrals" value={String(stats.referrals)} />
        <Stat label="Last auction" value={dateOf(stats.lastAuction)} />
      </div>
      <div>
        <Subtitle2 as="h3">Preferences</Subtitle2>
        <Body1 block>
          {bidder.preferredCategories.length
            ? bidder.preferredCategories.join(', ')
            : 'No preferred categories'}
        </Body1>
        <Caption1 className={styles.muted}>Pays by {bidder.preferredPaymentMethod}</Caption1>
      </div>
      {bidder.platformIdentities.length ? (
        <section aria-labelledby={`platforms-${bidder.id}`} className={styles.stack}>
          <Subtitle2 as="h3" id={`platforms-${bidder.id}`}>
            On bidding platforms ({bidder.platformIdentities.length})
          </Subtitle2>
          <ul className={styles.identities}>
            {bidder.platformIdentities.map((identity) => (
              <li key={`${identity.platform}:${identity.externalId}`} className={styles.identity}>
                <div className={styles.entryHead}>
                  <Body1Strong>{identity.platform}</Body1Strong>
                  <Caption1 className={styles.muted}>
                    {identity.lastActive
                      ? `Last active ${dateOf(identity.lastActive)}`
                      : 'No activity yet'}
                  </Caption1>
                </div>
                <Body1>
                  {countOf(identity.totalBids, 'bid')} · {countOf(identity.totalWins, 'win')} ·{' '}
                  {formatMoney(identity.totalSpent, identity.currency)} spent
                </Body1>
                <Caption1 className={styles.muted}>
                  {identity.platform} ID {identity.externalId}
                  {identity.email ? ` · ${identity.email}` : ''}
                </Caption1>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {bidder.localScore ? (
        <MessageBar intent="info">
          <MessageBarBody>
            Local score override {bidder.localScore.score}: {bidder.localScore.reason}
          </MessageBarBody>
        </MessageBar>
      ) : null}
      {bidder.invitations.length ? (
        <Caption1 className={styles.muted}>
          Invited {countOf(bidder.invitations.length, 'time')}, last on{' '}
          {dateOf(bidder.invitations[0]?.at ?? null)}
        </Caption1>
      ) : null}
    </div>
  );
}

function Breakdown({
  bidder,
  scoreType,
  ScoreBreakdown,
}: {
  bidder: Bidder;
  scoreType: ScoreType;
  ScoreBreakdown: ScoringViews['ScoreBreakdown'];
}) {
  const styles = useStyles();
  const score = scoreOf(bidder, scoreType);
  return (
    <div className={styles.stack}>
      <Caption1 className={styles.muted}>
        {scoreTypeLabel(scoreType)} score {score.score}, updated {dateOf(score.lastUpdated)}. Each
        component is scored 0-100 from this bidder&apos;s record and weighted as shown.
        {isUnknown(score)
          ? ' Nothing is on record yet, so every component is a neutral 50 and the bidder starts in Bronze, for review.'
          : ''}
      </Caption1>
      <ScoreBreakdown scoreType={scoreType} breakdown={score.breakdown} neutral={score.neutral} />
      <ScoreChanges bidderId={bidder.id} scoreType={scoreType} />
    </div>
  );
}

/** Each change of the shown score, newest first: what moved, by how much, and why. */
function ScoreChanges({ bidderId, scoreType }: { bidderId: string; scoreType: ScoreType }) {
  const styles = useStyles();
  const { data, error } = useScoreHistory(bidderId);
  if (error) return <MessageBar intent="error">{messageOf(error)}</MessageBar>;
  if (!data) {
    return (
      <Skeleton aria-label="Loading score history">
        <SkeletonItem size={32} />
      </Skeleton>
    );
  }
  const changes = data.changes.filter(
    (change) =>
      change[scoreType].before !== change[scoreType].after ||
      change.components.some((moved) => moved.scoreType === scoreType),
  );
  return (
    <section aria-labelledby="score-changes" className={styles.stack}>
      <Subtitle2 id="score-changes">How the score changed</Subtitle2>
      {changes.length === 0 ? (
        <Caption1 className={styles.muted}>
          No changes yet. Whenever an auction, an edit of their record or a change of the scoring
          settings moves this score, it is listed here with what it moved.
        </Caption1>
      ) : (
        <ul className={styles.changes}>
          {changes.map((change) => {
            const move = change[scoreType];
            const delta = move.after - move.before;
            return (
              <li key={change.id} className={styles.change}>
                <div className={styles.entryHead}>
                  <Body1Strong>{change.cause}</Body1Strong>
                  <Caption1 className={styles.muted}>{dateOf(change.at)}</Caption1>
                </div>
                <Body1>
                  {move.before} → {move.after} ({delta > 0 ? '+' : ''}
                  {delta})
                  {move.tierBefore !== move.tierAfter
                    ? `, ${move.tierBefore} → ${move.tierAfter}`
                    : ''}
                </Body1>
                <Caption1 className={styles.muted}>
                  {change.components
                    .filter((moved) => moved.scoreType === scoreType)
                    .map(
                      (moved) =>
                        `${componentLabels[moved.component]} ${moved.before} → ${moved.after}`,
                    )
                    .join(' · ')}
                </Caption1>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function History({ bidder }: { bidder: Bidder }) {
  const styles = useStyles();
  const { data, error } = useBidderHistory(bidder.id, true);
  if (error) return <MessageBar intent="error">{messageOf(error)}</MessageBar>;
  if (!data)
    return (
      <Skeleton aria-label="Loading auction history">
        <SkeletonItem size={48} />
      </Skeleton>
    );
  if (!data.history.length) {
    return (
      <div className={styles.empty}>
        <HistoryRegular fontSize={32} />
        <Body1>No auction history available</Body1>
        <Caption1>Auction participation will appear here</Caption1>
      </div>
    );
  }
  return (
    <div className={styles.stack}>
      {data.history.map((entry) => (
        <Card key={entry.id} size="small">
          <div className={styles.entryHead}>
            <Text weight="semibold">
              {entry.isInternal
                ? entry.auctionTitle
                : (entry.generalCategory ?? 'Anonymous Auction')}
            </Text>
            <Caption1 className={styles.muted}>{dateOf(entry.auctionDate)}</Caption1>
          </div>
          <Caption1 className={styles.muted}>{entry.auctionHouse ?? ''}</Caption1>
          <Body1>
            {entry.totalBids} bids · {entry.wonItems} won · {money.format(entry.totalSpent)}
            {entry.isInternal && entry.highestBid !== null
              ? ` · highest bid ${money.format(entry.highestBid)}`
              : ''}
          </Body1>
          {entry.isInternal && entry.lotNumbers.length ? (
            <Caption1>Lots {entry.lotNumbers.join(', ')}</Caption1>
          ) : null}
          <div className={styles.footer}>
            <Badge
              appearance="tint"
              color={
                entry.paymentStatus === 'Paid'
                  ? 'success'
                  : entry.paymentStatus === 'Overdue'
                    ? 'danger'
                    : 'informative'
              }
            >
              Payment: {entry.paymentStatus}
            </Badge>
            <Badge appearance="tint" color="subtle">
              Pickup: {entry.pickupStatus}
            </Badge>
          </div>
        </Card>
      ))}
    </div>
  );
}

/** The legal cases that name the bidder: an open payment dispute counts against their score. */
function Cases({ bidder }: { bidder: Bidder }) {
  const styles = useStyles();
  const { data, error } = useBidderCases(bidder.id, true);
  const can = useCan();
  // A purchase this bidder has not paid for becomes a case the legal screens file.
  const report = can('legal:create') ? (
    <RouterLink to={`/legal/cases/non-payment?bidder=${encodeURIComponent(bidder.id)}`}>
      Report non-payment
    </RouterLink>
  ) : null;
  if (error) return <MessageBar intent="error">{messageOf(error)}</MessageBar>;
  if (!data)
    return (
      <Skeleton aria-label="Loading legal cases">
        <SkeletonItem size={48} />
      </Skeleton>
    );
  if (!data.cases.length) {
    return (
      <div className={styles.empty}>
        <GavelRegular fontSize={32} />
        <Body1>No legal cases name this bidder</Body1>
        <Caption1>Disputes filed against them will appear here</Caption1>
        {report}
      </div>
    );
  }
  return (
    <div className={styles.stack}>
      {report ? <div className={styles.reportRow}>{report}</div> : null}
      {data.cases.map((entry) => (
        <Card key={entry.id} size="small">
          <div className={styles.entryHead}>
            <RouterLink to={`/legal/cases/${entry.id}`}>
              <Text weight="semibold">
                {entry.caseNumber}: {entry.title}
              </Text>
            </RouterLink>
            <Caption1 className={styles.muted}>{dateOf(entry.createdAt)}</Caption1>
          </div>
          <Body1>
            {caseTypeLabels[entry.caseType]} · {formatMoney(entry.claimAmount, entry.currency)}
          </Body1>
          <div className={styles.footer}>
            <Badge
              appearance="tint"
              color={entry.priority === 'critical' ? 'danger' : 'informative'}
            >
              {priorityLabels[entry.priority]}
            </Badge>
            <Badge appearance="outline" color="subtle">
              {entry.status}
            </Badge>
          </div>
        </Card>
      ))}
    </div>
  );
}

function Notes({ bidder, initialCategory }: { bidder: Bidder; initialCategory: string }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useBidderActions();
  const { data, error } = useBidderNotes(bidder.id);
  const canWrite = useCan()('bidders:history_edit');
  const [category, setCategory] = useState(initialCategory);
  const [note, setNote] = useState('');
  const save = useAction(
    async () => {
      await actions.addNote(bidder.id, { category, note });
      setNote('');
      notify.success('Note added');
    },
    { onError: (message) => notify.error('The note was not saved', message) },
  );
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!note.trim()) return;
    void save.run();
  };
  const notes = [...(data?.notes ?? [])].sort((a, b) => b.date.localeCompare(a.date));
  return (
    <div className={styles.stack}>
      {canWrite ? (
        <form className={styles.noteForm} onSubmit={add}>
          <Field label="Category">
            <Dropdown
              value={category}
              selectedOptions={[category]}
              onOptionSelect={(_, option) => setCategory(option.optionValue ?? 'General')}
            >
              {noteCategories.map((value) => (
                <Option key={value}>{value}</Option>
              ))}
            </Dropdown>
          </Field>
          <Field label="New note" hint="Notes are private to your auction house.">
            <Textarea
              value={note}
              onChange={(_, value) => setNote(value.value)}
              resize="vertical"
            />
          </Field>
          <div className={styles.noteActions}>
            <Button type="submit" appearance="primary" disabled={save.busy || !note.trim()}>
              {save.busy ? 'Adding...' : 'Add Note'}
            </Button>
          </div>
        </form>
      ) : (
        <Caption1 className={styles.muted}>
          {needsPermission('bidders:history_edit')} to add notes.
        </Caption1>
      )}
      {error ? <MessageBar intent="error">{messageOf(error)}</MessageBar> : null}
      {data && !notes.length ? (
        <div className={styles.empty}>
          <NoteRegular fontSize={32} />
          <Body1>No internal notes for this bidder</Body1>
        </div>
      ) : null}
      {notes.map((entry) => (
        <Card key={entry.id} size="small">
          <div className={styles.entryHead}>
            <Badge
              appearance="tint"
              color={entry.category === 'Warning' ? 'danger' : 'informative'}
            >
              {entry.category}
            </Badge>
            <Caption1 className={styles.muted}>
              {entry.user} · {dateOf(entry.date)}
            </Caption1>
          </div>
          <Body1>{entry.note}</Body1>
        </Card>
      ))}
    </div>
  );
}

/** The bidder profile, opened over the list from the right. */
export function BidderProfilePanel({
  bidderId,
  defaultScoreType,
  ScoreBreakdown,
  onClose,
}: {
  bidderId: string | null;
  defaultScoreType: ScoreType;
  ScoreBreakdown: ScoringViews['ScoreBreakdown'];
  onClose(): void;
}) {
  const styles = useStyles();
  const { data: bidder, error } = useBidder(bidderId);
  const can = useCan();
  const [scoreType, setScoreType] = useState<ScoreType>(defaultScoreType);
  const [tab, setTab] = useState<ProfileTab>('overview');
  const [noteCategory, setNoteCategory] = useState('General');
  const [editing, setEditing] = useState(false);
  const [shown, setShown] = useState(bidderId);
  if (bidderId !== shown) {
    setShown(bidderId);
    setTab('overview');
    setScoreType(defaultScoreType);
    setEditing(false);
  }
  const score = bidder ? scoreOf(bidder, scoreType) : null;
  return (
    <OverlayDrawer
      position="end"
      size="medium"
      className={styles.drawer}
      open={bidderId !== null}
      onOpenChange={(_, data) => !data.open && onClose()}
    >
      <DrawerHeader>
        <DrawerHeaderTitle
          action={
            <Button
              appearance="subtle"
              aria-label="Close"
              icon={<DismissRegular />}
              onClick={onClose}
            />
          }
        >
          {bidder ? fullName(bidder) : 'Bidder'}
        </DrawerHeaderTitle>
        {bidder && score ? (
          <div className={styles.header}>
            <div className={styles.badges}>
              <Badge appearance="outline" color={statusBadge[bidder.status]}>
                {bidder.status}
              </Badge>
              <Badge appearance="tint" color={autoInviteBadge[bidder.autoInviteStatus]}>
                {bidder.autoInviteStatus}
              </Badge>
            </div>
            <div className={styles.contact}>
              <span className={styles.contactLine}>
                <MailRegular aria-hidden="true" /> {bidder.email ?? 'No email'}
              </span>
              <span className={styles.contactLine}>
                <PhoneRegular aria-hidden="true" /> {bidder.phone ?? 'No phone'}
              </span>
              <span className={styles.contactLine}>
                <CalendarRegular aria-hidden="true" /> ID {bidder.bidderId}
                {bidder.aliases.length ? ` (also ${bidder.aliases.join(', ')})` : ''} · Member since{' '}
                {dateOf(bidder.stats.firstAuction)}
              </span>
            </div>
            <div className={styles.scoreRow}>
              <ScoreGauge
                score={score.score}
                unknown={isUnknown(score)}
                size={64}
                label={`${scoreTypeLabel(scoreType)} score`}
              />
              <div className={styles.scoreText}>
                <Text weight="semibold">{scoreTypeLabel(scoreType)} Score</Text>
                <span>
                  <Badge appearance="tint" color={tierBadge[score.tier]}>
                    {score.tier}
                  </Badge>
                </span>
              </div>
              <ScoreTypeSwitch
                value={scoreType}
                onChange={setScoreType}
                label="Profile score type"
              />
            </div>
            <TabList
              className={styles.tabs}
              selectedValue={tab}
              onTabSelect={(_, data) => setTab(data.value as ProfileTab)}
              size="small"
            >
              <Tab value="overview">Overview</Tab>
              <Tab value="breakdown">Score Breakdown</Tab>
              <Tab value="history">Auction History</Tab>
              {can('legal:view') ? <Tab value="cases">Legal Cases</Tab> : null}
              <Tab value="notes">Notes</Tab>
            </TabList>
          </div>
        ) : null}
      </DrawerHeader>
      {/* Focusable, so keyboard users can scroll a long tab on a small screen. */}
      <DrawerBody tabIndex={0} role="region" aria-label="Bidder details">
        {error ? (
          <MessageBar intent="error">
            <MessageBarBody>{messageOf(error)}</MessageBarBody>
          </MessageBar>
        ) : !bidder ? (
          <Skeleton aria-label="Loading bidder">
            <SkeletonItem size={64} />
          </Skeleton>
        ) : tab === 'overview' ? (
          <Overview bidder={bidder} />
        ) : tab === 'breakdown' ? (
          <Breakdown bidder={bidder} scoreType={scoreType} ScoreBreakdown={ScoreBreakdown} />
        ) : tab === 'history' ? (
          <History bidder={bidder} />
        ) : tab === 'cases' ? (
          <Cases bidder={bidder} />
        ) : (
          <Notes key={noteCategory} bidder={bidder} initialCategory={noteCategory} />
        )}
      </DrawerBody>
      {bidder ? (
        <DrawerFooter className={styles.footer}>
          <Button
            as="a"
            icon={<MailRegular />}
            href={bidder.email ? `mailto:${bidder.email}` : undefined}
            disabled={!bidder.email}
          >
            Send Email
          </Button>
          <PermittedButton
            permission="bidders:edit"
            icon={<EditRegular />}
            onClick={() => setEditing(true)}
          >
            Edit Settings
          </PermittedButton>
          <PermittedButton
            permission="bidders:history_edit"
            icon={<FlagRegular />}
            onClick={() => {
              setNoteCategory('Warning');
              setTab('notes');
            }}
          >
            Report Bidder
          </PermittedButton>
        </DrawerFooter>
      ) : null}
      {/* Inside the drawer, so it nests: closing it gives the drawer back its focus and Escape. */}
      {bidder ? (
        <BidderFormDialog open={editing} bidder={bidder} onClose={() => setEditing(false)} />
      ) : null}
    </OverlayDrawer>
  );
}
