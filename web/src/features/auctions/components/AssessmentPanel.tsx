import {
  Body1,
  Button,
  Caption1,
  Card,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  Dropdown,
  Field,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Option,
  OverlayDrawer,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Tab,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  DismissRegular,
  MailRegular,
  MegaphoneRegular,
  PeopleRegular,
  SendRegular,
} from '@fluentui/react-icons';
import {
  recommendations,
  type Recommendation,
} from '@contracts/auctions/assessment/assessment.schema';
import type { Auction } from '@contracts/auctions/auctions.schema';
import type { CampaignKind, CampaignOffer } from '@contracts/auctions/campaigns/campaigns.schema';
import { useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PermittedButton } from '../../../components/PermittedButton';
import { ApiError, messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { needsPermission } from '../../../lib/permission-text';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useAuction } from '../api/auctions';
import {
  useAssessment,
  useAssessmentActions,
  useCampaigns,
  type AssessmentInvite,
} from '../api/assessment';
import { AssessmentCard } from './AssessmentCard';
import AuctionDetailPage from './AuctionDetailPage';
import { canAssess } from './auction-style';

const useStyles = makeStyles({
  drawer: { width: 'min(760px, 100vw)' },
  subtitle: { color: tokens.colorNeutralForeground2 },
  tabs: { overflowX: 'auto', flexShrink: 0 },
  body: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    paddingBlock: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
  counts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalS,
    '@media (max-width: 560px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
  },
  count: { display: 'flex', flexDirection: 'column', gap: '2px' },
  countValue: { fontSize: tokens.fontSizeBase600, fontWeight: tokens.fontWeightSemibold },
  toolbar: {
    display: 'flex',
    alignItems: 'flex-end',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  filter: { minWidth: '200px' },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground2 },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL}`,
    color: tokens.colorNeutralForeground2,
  },
  campaign: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  heading: { margin: 0 },
  figures: {
    display: 'grid',
    gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalS,
    '@media (max-width: 560px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
  },
  figure: {
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  figureValue: { fontWeight: tokens.fontWeightSemibold },
  launchRow: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
  launches: {
    margin: 0,
    padding: 0,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  launch: {
    listStyle: 'none',
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
    ':last-child': { borderBottom: 'none' },
  },
});

const panelTabs = ['assessment', 'invites', 'campaigns'] as const;
type PanelTab = (typeof panelTabs)[number];
const tabLabels: Record<PanelTab, { wide: string; phone: string }> = {
  assessment: { wide: 'AI Assessment', phone: 'Assessment' },
  invites: { wide: 'Send Invites', phone: 'Invites' },
  campaigns: { wide: 'Marketing Campaigns', phone: 'Campaigns' },
};

const moment = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function Loading({ label }: { label: string }) {
  return (
    <Skeleton aria-label={label}>
      <SkeletonItem size={64} />
      <SkeletonItem size={64} style={{ marginTop: 8 }} />
    </Skeleton>
  );
}

function Failed({ what, error, retry }: { what: string; error: unknown; retry(): void }) {
  return (
    <MessageBar intent="error" layout="multiline">
      <MessageBarBody>
        {what} could not be loaded: {messageOf(error)}
      </MessageBarBody>
      <MessageBarActions>
        <Button onClick={retry}>Try again</Button>
      </MessageBarActions>
    </MessageBar>
  );
}

function RecommendationFilter({
  value,
  onChange,
}: {
  value: Recommendation | '';
  onChange(value: Recommendation | ''): void;
}) {
  const styles = useStyles();
  return (
    <Field label="Recommendation" className={styles.filter}>
      <Dropdown
        value={value || 'All recommendations'}
        selectedOptions={[value]}
        onOptionSelect={(_, data) => onChange((data.optionValue ?? '') as Recommendation | '')}
      >
        <Option value="">All recommendations</Option>
        {recommendations.map((recommendation) => (
          <Option key={recommendation} value={recommendation}>
            {recommendation}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
}

/** The ranked bidders, as cards; with `selecting`, each can be picked to invite. */
function Ranking({
  auctionId,
  filter,
  onFilter,
  selecting,
}: {
  auctionId: string;
  filter: Recommendation | '';
  onFilter(value: Recommendation | ''): void;
  selecting: boolean;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const can = useCan();
  const actions = useAssessmentActions();
  const { data, error, mutate } = useAssessment(auctionId, filter);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirmingAll, setConfirmingAll] = useState(false);
  const [sending, setSending] = useState(false);
  const mayInvite = can('bidders:invite');

  const send = async (body: AssessmentInvite) => {
    const result = await actions.invite(auctionId, body);
    setSelected(new Set());
    const notes = [
      ...result.skipped.map((skip) => `${skip.name}: ${skip.reason}`),
      ...(result.withoutEmail.length
        ? [`Invited without email, so not mailed: ${result.withoutEmail.join(', ')}`]
        : []),
    ];
    const title = `${countOf(result.invited, 'bidder')} invited`;
    if (result.skipped.length) notify.warning(title, notes.join('. '));
    else notify.success(title, notes.join('. ') || undefined);
  };
  const sendSelected = async () => {
    setSending(true);
    try {
      await send({ bidderIds: [...selected] });
    } catch (caught) {
      notify.error('The invitations were not sent', messageOf(caught));
    } finally {
      setSending(false);
    }
  };

  if (error && !data) {
    return <Failed what="The assessment" error={error} retry={() => void mutate()} />;
  }
  const counts = data?.counts;
  const figure = (value: number | undefined) =>
    value === undefined ? '…' : value.toLocaleString();
  const pending = counts?.autoInviteNotInvited ?? 0;
  return (
    <>
      {selecting ? null : (
        <div className={styles.counts} role="group" aria-label="Assessment counts">
          {(
            [
              ['Auto-Invite', counts?.autoInvite],
              ['Consider', counts?.consider],
              ['Review', counts?.review],
              ['Total Analyzed', counts?.totalAnalysed],
            ] as const
          ).map(([label, value]) => (
            <Card key={label} className={styles.count} size="small">
              <Caption1 className={styles.muted}>{label}</Caption1>
              <span className={styles.countValue}>{figure(value)}</span>
            </Card>
          ))}
        </div>
      )}
      <div className={styles.toolbar}>
        <RecommendationFilter value={filter} onChange={onFilter} />
        {selecting ? (
          <div className={styles.buttons}>
            <PermittedButton
              permission="bidders:invite"
              icon={<SendRegular />}
              disabled={!selected.size || sending}
              onClick={() => void sendSelected()}
            >
              {sending ? 'Sending...' : `Send Selected (${selected.size})`}
            </PermittedButton>
            <PermittedButton
              permission="bidders:invite"
              appearance="primary"
              icon={<MailRegular />}
              disabled={!pending}
              onClick={() => setConfirmingAll(true)}
            >
              Auto-Invite All ({pending})
            </PermittedButton>
          </div>
        ) : null}
      </div>
      {selecting && !mayInvite ? (
        <Caption1 className={styles.muted}>{needsPermission('bidders:invite')}</Caption1>
      ) : null}
      {!data ? (
        <Loading label="Loading the assessment" />
      ) : !data.items.length ? (
        <div className={styles.empty}>
          <PeopleRegular fontSize={32} aria-hidden="true" />
          <Text weight="semibold">
            {filter ? `No bidders recommended ${filter}` : 'No bidders to assess yet'}
          </Text>
          <Body1>
            {filter
              ? 'Choose another recommendation to see the others.'
              : 'Add or import bidders; each is assessed for this auction.'}
          </Body1>
        </div>
      ) : (
        <div className={styles.list} role="list" aria-label="Assessed bidders">
          {data.items.map((item) => (
            <AssessmentCard
              key={item.bidder.id}
              item={item}
              selection={
                selecting
                  ? {
                      selected: selected.has(item.bidder.id),
                      disabled: item.invited || !mayInvite,
                      onChange: (checked) =>
                        setSelected((current) => {
                          const next = new Set(current);
                          if (checked) next.add(item.bidder.id);
                          else next.delete(item.bidder.id);
                          return next;
                        }),
                    }
                  : undefined
              }
            />
          ))}
        </div>
      )}
      {data && data.counts.totalAnalysed > data.items.length && !filter ? (
        <Caption1 className={styles.muted}>
          The best {data.items.length.toLocaleString()} of{' '}
          {countOf(data.counts.totalAnalysed, 'bidder')} are shown.
        </Caption1>
      ) : null}
      <ConfirmDialog
        open={confirmingAll}
        title="Auto-Invite All"
        confirmLabel="Send Invites"
        busyLabel="Sending..."
        failureTitle="The invitations were not sent"
        onConfirm={() => send({ all: 'Auto-Invite' })}
        onClose={() => setConfirmingAll(false)}
      >
        {`This will send invitations to all ${pending} bidders marked as Auto-Invite by the AI assessment.`}
      </ConfirmDialog>
    </>
  );
}

function CampaignCard({
  offer,
  onLaunch,
  busy,
}: {
  offer: CampaignOffer;
  onLaunch(): void;
  busy: boolean;
}) {
  const styles = useStyles();
  return (
    <Card className={styles.campaign} role="region" aria-label={offer.name}>
      <Subtitle2 as="h3" className={styles.heading}>
        {offer.name}
      </Subtitle2>
      <Caption1 className={styles.muted}>{offer.trigger}</Caption1>
      <div className={styles.figures}>
        {(
          [
            ['Reach', offer.reach],
            ['Deliverable', offer.deliverable],
            ['Opted out', offer.optedOut],
            ['Without email', offer.withoutEmail],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className={styles.figure}>
            <Caption1 className={styles.muted}>{label}</Caption1>
            <span className={styles.figureValue}>{value.toLocaleString()}</span>
          </div>
        ))}
      </div>
      <div className={styles.launchRow}>
        <Caption1 className={styles.muted}>
          {offer.launches
            ? `Launched ${countOf(offer.launches, 'time')}, last ${
                offer.lastLaunchedAt ? moment.format(new Date(offer.lastLaunchedAt)) : ''
              }`
            : 'Not launched for this auction yet'}
        </Caption1>
        <PermittedButton
          permission="communications:email"
          appearance="primary"
          icon={<MegaphoneRegular />}
          disabled={busy || !offer.deliverable}
          onClick={onLaunch}
        >
          {busy ? 'Launching...' : 'Launch Campaign'}
        </PermittedButton>
      </div>
    </Card>
  );
}

/** The two campaigns with their reach, launching them (asking before a repeat), and the launches. */
function Campaigns({ auctionId }: { auctionId: string }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useAssessmentActions();
  const { data, error, mutate } = useCampaigns(auctionId);
  const [launching, setLaunching] = useState<CampaignKind | null>(null);
  const [repeat, setRepeat] = useState<{ kind: CampaignKind; question: string } | null>(null);

  const launched = (name: string, sent: number) =>
    notify.success(`${name} launched`, `${countOf(sent, 'bidder')} mailed`);
  const launch = async (kind: CampaignKind) => {
    setLaunching(kind);
    try {
      const campaign = await actions.launch(auctionId, kind);
      launched(campaign.name, campaign.sent);
    } catch (caught) {
      // The server asks before a campaign goes out to the same auction again.
      const repeated =
        caught instanceof ApiError &&
        caught.status === 409 &&
        typeof (caught.details as { launches?: unknown } | undefined)?.launches === 'number';
      if (repeated) setRepeat({ kind, question: caught.message });
      else notify.error('The campaign was not launched', messageOf(caught));
    } finally {
      setLaunching(null);
    }
  };

  if (error && !data) {
    return <Failed what="The campaigns" error={error} retry={() => void mutate()} />;
  }
  if (!data) return <Loading label="Loading the campaigns" />;
  return (
    <>
      {data.campaigns.map((offer) => (
        <CampaignCard
          key={offer.kind}
          offer={offer}
          busy={launching === offer.kind}
          onLaunch={() => void launch(offer.kind)}
        />
      ))}
      <section aria-label="Launched campaigns" className={styles.list}>
        <Subtitle2 as="h3" className={styles.heading}>
          Launched
        </Subtitle2>
        {data.launched.length ? (
          <ul className={styles.launches}>
            {data.launched.map((campaign) => (
              <li key={campaign.id} className={styles.launch}>
                <Text weight="semibold">
                  {campaign.name}
                  {campaign.launch > 1 ? ` (launch ${campaign.launch})` : ''}
                </Text>
                <Caption1 className={styles.muted}>
                  {campaign.launchedBy} · {moment.format(new Date(campaign.launchedAt))} · reach{' '}
                  {campaign.reach.toLocaleString()} · sent {campaign.sent.toLocaleString()}
                  {campaign.status === 'sent' ? '' : ` · ${campaign.status}`}
                </Caption1>
              </li>
            ))}
          </ul>
        ) : (
          <Caption1 className={styles.muted}>
            No campaign has been launched for this auction.
          </Caption1>
        )}
      </section>
      <ConfirmDialog
        open={repeat !== null}
        title="Launch again?"
        confirmLabel="Launch Again"
        busyLabel="Launching..."
        failureTitle="The campaign was not launched"
        onConfirm={async () => {
          if (!repeat) return;
          const campaign = await actions.launch(auctionId, repeat.kind, true);
          launched(campaign.name, campaign.sent);
        }}
        onClose={() => setRepeat(null)}
      >
        {repeat?.question ?? ''}
      </ConfirmDialog>
    </>
  );
}

function PanelContent({ auction, tab }: { auction: Auction; tab: PanelTab }) {
  const can = useCan();
  const [filter, setFilter] = useState<Recommendation | ''>('');
  if (!canAssess(auction.status)) {
    return (
      <MessageBar intent="info" layout="multiline">
        <MessageBarBody>
          The AI assessment is for auctions still to be bid on; this one is {auction.status}.
        </MessageBarBody>
      </MessageBar>
    );
  }
  if (tab === 'campaigns') return <Campaigns auctionId={auction.id} />;
  if (!can('bidders:assessment')) {
    return (
      <MessageBar intent="warning">
        <MessageBarBody>{needsPermission('bidders:assessment')}.</MessageBarBody>
      </MessageBar>
    );
  }
  return (
    <Ranking
      auctionId={auction.id}
      filter={filter}
      onFilter={setFilter}
      selecting={tab === 'invites'}
    />
  );
}

/**
 * The AI Bidder Assessment, a panel over the auction at `/auctions/{id}/assessment` (the tab in
 * `?tab=`): the ranked bidders, sending them invitations, and the marketing campaigns.
 */
export default function AuctionAssessmentPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const location = useLocation();
  const phone = useMediaQuery('(max-width: 640px)');
  const { auctionId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const { data: auction, error, mutate } = useAuction(auctionId);
  const asked = params.get('tab');
  const tab: PanelTab = panelTabs.find((candidate) => candidate === asked) ?? 'assessment';
  const close = () => {
    // Opened from the auction's page: Back would return to it, so close the same way.
    if ((location.state as { openedFromPage?: boolean } | null)?.openedFromPage) navigate(-1);
    else navigate(`/auctions/${auctionId}`, { replace: true, state: location.state as unknown });
  };

  return (
    <>
      <AuctionDetailPage section="overview" />
      <OverlayDrawer
        position="end"
        size="large"
        className={styles.drawer}
        open
        onOpenChange={(_, data) => !data.open && close()}
      >
        <DrawerHeader>
          <DrawerHeaderTitle
            action={
              <Button
                appearance="subtle"
                aria-label="Close"
                icon={<DismissRegular />}
                onClick={close}
              />
            }
          >
            AI Bidder Assessment
          </DrawerHeaderTitle>
          {auction ? <Caption1 className={styles.subtitle}>{auction.title}</Caption1> : null}
          <TabList
            className={styles.tabs}
            selectedValue={tab}
            aria-label="Assessment sections"
            onTabSelect={(_, data) =>
              setParams(data.value === 'assessment' ? {} : { tab: String(data.value) }, {
                replace: true,
                state: location.state as unknown,
              })
            }
          >
            {panelTabs.map((value) => (
              <Tab key={value} value={value}>
                {phone ? tabLabels[value].phone : tabLabels[value].wide}
              </Tab>
            ))}
          </TabList>
        </DrawerHeader>
        <DrawerBody className={styles.body}>
          {auction ? (
            <PanelContent auction={auction} tab={tab} />
          ) : error ? (
            <Failed what="The auction" error={error} retry={() => void mutate()} />
          ) : (
            <Loading label="Loading the auction" />
          )}
        </DrawerBody>
      </OverlayDrawer>
    </>
  );
}
