import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  mergeClasses,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  CheckmarkRegular,
  DismissRegular,
  MailRegular,
  MoneyRegular,
  MoreHorizontalRegular,
  PeopleRegular,
  PersonAddRegular,
  PersonDeleteRegular,
} from '@fluentui/react-icons';
import type { Auction } from '@contracts/auctions/auctions.schema';
import type { Registration } from '@contracts/auctions/registrations/registrations.schema';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PermittedButton } from '../../../components/PermittedButton';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { formatMoney } from '../../../lib/money';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import { useAuctionActions, useRegistrations } from '../api/auctions';
import {
  BidLimitDialog,
  DecisionDialog,
  InviteBiddersDialog,
  RegisterBidderDialog,
  statusLabels,
} from './RegistrationDialogs';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
  counts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(5, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalS,
    // The queue across the top on a phone, the rest two by two beneath it.
    '@media (max-width: 760px)': {
      gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
      '& > :first-child': { gridColumn: '1 / -1' },
    },
  },
  count: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    padding: tokens.spacingHorizontalM,
  },
  countValue: { fontSize: tokens.fontSizeBase600, fontWeight: tokens.fontWeightSemibold },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  sectionHead: { display: 'flex', alignItems: 'baseline', gap: tokens.spacingHorizontalS },
  heading: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground2 },
  list: {
    display: 'flex',
    flexDirection: 'column',
    margin: 0,
    padding: 0,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  item: {
    listStyle: 'none',
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1.2fr) minmax(0, 2fr) auto',
    gridTemplateAreas: '"who scores detail menu"',
    gap: tokens.spacingHorizontalM,
    alignItems: 'center',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
    ':last-child': { borderBottom: 'none' },
    '@media (max-width: 760px)': {
      gridTemplateColumns: 'minmax(0, 1fr) auto',
      gridTemplateAreas: '"who menu" "scores scores" "detail detail"',
      rowGap: tokens.spacingVerticalXS,
      paddingInline: tokens.spacingHorizontalM,
    },
  },
  whoArea: { gridArea: 'who' },
  scoresArea: { gridArea: 'scores' },
  detailArea: { gridArea: 'detail' },
  menuArea: { gridArea: 'menu' },
  who: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  badges: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  reasons: {
    margin: 0,
    paddingInlineStart: tokens.spacingHorizontalL,
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase200,
  },
  pending: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  pendingHead: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
  figures: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(128px, 1fr))',
    gap: tokens.spacingHorizontalS,
  },
  figure: {
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  figureValue: { fontWeight: tokens.fontWeightSemibold },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalXL}`,
    color: tokens.colorNeutralForeground2,
  },
});

const tierColour = {
  Premium: 'brand',
  Gold: 'warning',
  Silver: 'informative',
  Bronze: 'severe',
  New: 'informative',
} as const;

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateOf = (value: string | null) => (value ? day.format(new Date(value)) : '—');

function Who({ registration }: { registration: Registration }) {
  const styles = useStyles();
  return (
    <span className={styles.who}>
      <Text weight="semibold" className={styles.ellipsis}>
        {registration.bidderName}
      </Text>
      <Caption1 className={`${styles.muted} ${styles.ellipsis}`}>
        {registration.bidderNumber}
        {registration.paddle ? ` · paddle ${registration.paddle}` : ''}
        {registration.email ? ` · ${registration.email}` : ''}
      </Caption1>
    </span>
  );
}

function Scores({ registration }: { registration: Registration }) {
  const styles = useStyles();
  return (
    <span className={styles.badges}>
      <Badge appearance="tint" color={tierColour[registration.tier]}>
        {registration.tier}
      </Badge>
      <Badge appearance="outline" color="informative">
        Lotwise {registration.lotwiseScore}
      </Badge>
      <Badge appearance="outline" color="informative">
        Custom {registration.customScore}
      </Badge>
    </span>
  );
}

function Reasons({ reasons }: { reasons: string[] }) {
  const styles = useStyles();
  if (!reasons.length) return null;
  return (
    <ul className={styles.reasons}>
      {reasons.map((reason) => (
        <li key={reason}>{reason}</li>
      ))}
    </ul>
  );
}

function Section({
  title,
  count,
  children,
}: {
  title: string;
  count: number;
  children: ReactNode;
}) {
  const styles = useStyles();
  return (
    <section className={styles.section} aria-label={title}>
      <div className={styles.sectionHead}>
        <Subtitle2 as="h2" className={styles.heading}>
          {title}
        </Subtitle2>
        <Caption1 className={styles.muted}>{count.toLocaleString()}</Caption1>
      </div>
      {children}
    </section>
  );
}

/**
 * Who may bid: the approval queue with each bidder's scores, figures and the rules' reasons;
 * the approved (those with a bid limit below their tier's apart); the denied with why; and the
 * invited. Register, invite, decide, change a bid limit or remove a registration here.
 */
export function RegistrationsTab({ auction }: { auction: Auction }) {
  const styles = useStyles();
  const notify = useNotify();
  const can = useCan();
  const actions = useAuctionActions();
  const { data, error, mutate } = useRegistrations(auction.id);
  const [registering, setRegistering] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [deciding, setDeciding] = useState<{
    registration: Registration;
    decision: 'approve' | 'deny';
  } | null>(null);
  const [limiting, setLimiting] = useState<Registration | null>(null);
  const [removing, setRemoving] = useState<Registration | null>(null);
  const closed = auction.status === 'Completed' || auction.status === 'Cancelled';
  // Registrations are kept as they were once the sale is over.
  const mayEdit = can('auctions:edit') && !closed;
  const whyNot = closed
    ? `The registrations of a ${auction.status.toLowerCase()} auction are final`
    : needsPermission('auctions:edit');
  const money = (minor: number | null) =>
    minor === null ? '—' : formatMoney(minor, auction.currency);

  if (error) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>The registrations could not be loaded: {messageOf(error)}</MessageBarBody>
        <MessageBarActions>
          <Button onClick={() => void mutate()}>Try again</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
  const registrations = data?.registrations ?? [];
  const of = (status: Registration['status']) =>
    registrations.filter((registration) => registration.status === status);
  const pending = of('pending');
  const approved = of('approved').filter((registration) => !registration.limited);
  const limited = of('approved').filter((registration) => registration.limited);
  const denied = of('denied');
  const invited = of('invited');

  const registerInvited = async (registration: Registration) => {
    try {
      const decided = await actions.register(auction.id, registration.bidderId);
      notify.success(`${decided.bidderName}: ${statusLabels[decided.status].toLowerCase()}`);
    } catch (caught) {
      notify.error(`${registration.bidderName} was not registered`, messageOf(caught));
    }
  };

  const rowMenu = (registration: Registration) => (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          icon={<MoreHorizontalRegular />}
          aria-label={`Actions for ${registration.bidderName}`}
        />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {registration.status === 'approved' ? (
            <>
              <MenuItem
                icon={<MoneyRegular />}
                disabled={!mayEdit}
                subText={mayEdit ? undefined : whyNot}
                onClick={() => setLimiting(registration)}
              >
                Change Bid Limit
              </MenuItem>
              <MenuItem
                icon={<DismissRegular />}
                disabled={!mayEdit}
                subText={mayEdit ? undefined : whyNot}
                onClick={() => setDeciding({ registration, decision: 'deny' })}
              >
                Deny
              </MenuItem>
            </>
          ) : null}
          {registration.status === 'denied' ? (
            <MenuItem
              icon={<CheckmarkRegular />}
              disabled={!mayEdit}
              subText={mayEdit ? undefined : whyNot}
              onClick={() => setDeciding({ registration, decision: 'approve' })}
            >
              Approve
            </MenuItem>
          ) : null}
          {registration.status === 'invited' ? (
            <MenuItem
              icon={<PersonAddRegular />}
              disabled={!mayEdit}
              subText={mayEdit ? undefined : whyNot}
              onClick={() => void registerInvited(registration)}
            >
              Register Now
            </MenuItem>
          ) : null}
          <MenuItem
            icon={<PersonDeleteRegular />}
            disabled={!mayEdit}
            subText={mayEdit ? undefined : whyNot}
            onClick={() => setRemoving(registration)}
          >
            Remove Registration
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );

  const rows = (list: Registration[], detail: (registration: Registration) => ReactNode) =>
    list.length ? (
      <ul className={styles.list}>
        {list.map((registration) => (
          <li key={registration.id} className={styles.item}>
            <span className={styles.whoArea}>
              <Who registration={registration} />
            </span>
            <span className={styles.scoresArea}>
              <Scores registration={registration} />
            </span>
            <span className={mergeClasses(styles.who, styles.detailArea)}>
              {detail(registration)}
            </span>
            <span className={styles.menuArea}>{rowMenu(registration)}</span>
          </li>
        ))}
      </ul>
    ) : null;

  const approvedDetail = (registration: Registration) => (
    <>
      <Text>
        {registration.bidLimit === null
          ? 'No bid limit'
          : `Bid limit ${money(registration.bidLimit)}`}
      </Text>
      <Caption1 className={styles.muted}>
        {registration.decidedBy === 'reviewer'
          ? `Approved by ${registration.decidedByName ?? 'a reviewer'}`
          : 'Approved by your rules'}{' '}
        · {dateOf(registration.decidedAt)}
      </Caption1>
      <Reasons reasons={registration.reasons} />
    </>
  );

  // Counted from the list itself, so the figures and the sections always agree.
  const loaded = data !== undefined;
  return (
    <div className={styles.stack}>
      <div className={styles.counts} role="group" aria-label="Registration counts">
        {(
          [
            ['Pending review', pending.length],
            ['Approved', approved.length],
            ['Approved - Limited', limited.length],
            ['Denied', denied.length],
            ['Invited', invited.length],
          ] as const
        ).map(([label, value]) => (
          <Card key={label} className={styles.count} size="small">
            <Caption1 className={styles.muted}>{label}</Caption1>
            <span className={styles.countValue}>{loaded ? value.toLocaleString() : '…'}</span>
          </Card>
        ))}
      </div>
      <div className={styles.toolbar}>
        <Caption1 className={styles.muted}>
          {closed
            ? 'This auction is over: registrations are kept as they were.'
            : 'Registrations are decided by your scoring rules; those they cannot decide wait here for review.'}
        </Caption1>
        <div className={styles.buttons}>
          <PermittedButton
            permission="bidders:invite"
            icon={<MailRegular />}
            disabled={closed}
            onClick={() => setInviting(true)}
          >
            Invite Bidders
          </PermittedButton>
          <PermittedButton
            permission="auctions:edit"
            appearance="primary"
            icon={<PersonAddRegular />}
            disabled={closed}
            onClick={() => setRegistering(true)}
          >
            Register Bidder
          </PermittedButton>
        </div>
      </div>

      {!data ? (
        <Skeleton aria-label="Loading registrations">
          <SkeletonItem size={64} />
        </Skeleton>
      ) : !registrations.length ? (
        <div className={styles.list}>
          <div className={styles.empty}>
            <PeopleRegular fontSize={32} aria-hidden="true" />
            <Text weight="semibold">No registrations yet</Text>
            <Body1>Register bidders as they sign up, or invite bidders to register.</Body1>
          </div>
        </div>
      ) : (
        <>
          <Section title="Pending review" count={pending.length}>
            {pending.length ? (
              pending.map((registration) => (
                <Card key={registration.id} className={styles.pending}>
                  <div className={styles.pendingHead}>
                    <Who registration={registration} />
                    <Scores registration={registration} />
                  </div>
                  <div className={styles.figures}>
                    {(
                      [
                        [
                          'Payment rate',
                          registration.figures.paymentRate === null
                            ? '—'
                            : `${Math.round(registration.figures.paymentRate * 100)}%`,
                        ],
                        ['Average hammer', money(registration.figures.averageHammer)],
                        ['Total paid', money(registration.figures.totalPaid)],
                        ['Open disputes', String(registration.figures.openDisputes)],
                        ['Prior defaults', String(registration.figures.priorDefaults)],
                        ['Auctions approved', String(registration.figures.auctionsApproved)],
                        ['Items won', String(registration.figures.itemsWon)],
                      ] as const
                    ).map(([label, value]) => (
                      <div key={label} className={styles.figure}>
                        <Caption1 className={styles.muted}>{label}</Caption1>
                        <span className={styles.figureValue}>{value}</span>
                      </div>
                    ))}
                  </div>
                  <Reasons reasons={registration.reasons} />
                  <div className={styles.buttons}>
                    <PermittedButton
                      permission="auctions:edit"
                      appearance="primary"
                      icon={<CheckmarkRegular />}
                      onClick={() => setDeciding({ registration, decision: 'approve' })}
                    >
                      Approve
                    </PermittedButton>
                    <PermittedButton
                      permission="auctions:edit"
                      icon={<DismissRegular />}
                      onClick={() => setDeciding({ registration, decision: 'deny' })}
                    >
                      Deny
                    </PermittedButton>
                    <span style={{ marginInlineStart: 'auto' }}>{rowMenu(registration)}</span>
                  </div>
                </Card>
              ))
            ) : (
              <Caption1 className={styles.muted}>Nobody is waiting for review.</Caption1>
            )}
          </Section>
          <Section title="Approved" count={approved.length}>
            {rows(approved, approvedDetail) ?? (
              <Caption1 className={styles.muted}>No bidders approved without a limit.</Caption1>
            )}
          </Section>
          <Section title="Approved - Limited" count={limited.length}>
            {rows(limited, approvedDetail) ?? (
              <Caption1 className={styles.muted}>No bidders approved with a limit.</Caption1>
            )}
          </Section>
          <Section title="Denied" count={denied.length}>
            {rows(denied, (registration) => (
              <>
                <Caption1 className={styles.muted}>
                  {registration.decidedBy === 'reviewer'
                    ? `Denied by ${registration.decidedByName ?? 'a reviewer'}`
                    : 'Denied by your rules'}{' '}
                  · {dateOf(registration.decidedAt)}
                </Caption1>
                <Reasons reasons={registration.reasons} />
              </>
            )) ?? <Caption1 className={styles.muted}>Nobody has been denied.</Caption1>}
          </Section>
          <Section title="Invited" count={invited.length}>
            {rows(invited, (registration) => (
              <Caption1 className={styles.muted}>
                Invited {dateOf(registration.invitedAt)}
                {registration.invitedBy ? ` by ${registration.invitedBy}` : ''}; not registered yet
              </Caption1>
            )) ?? <Caption1 className={styles.muted}>No open invitations.</Caption1>}
          </Section>
        </>
      )}

      <RegisterBidderDialog
        auction={auction}
        registrations={registrations}
        open={registering}
        onClose={() => setRegistering(false)}
      />
      <InviteBiddersDialog
        auction={auction}
        registrations={registrations}
        open={inviting}
        onClose={() => setInviting(false)}
      />
      <DecisionDialog
        auction={auction}
        registration={deciding?.registration ?? null}
        decision={deciding?.decision ?? 'approve'}
        onClose={() => setDeciding(null)}
      />
      <BidLimitDialog auction={auction} registration={limiting} onClose={() => setLimiting(null)} />
      <ConfirmDialog
        open={removing !== null}
        title={removing ? `Remove ${removing.bidderName}?` : 'Remove registration?'}
        confirmLabel="Remove Registration"
        busyLabel="Removing..."
        danger
        failureTitle="The registration was not removed"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await actions.unregister(auction.id, removing.bidderId);
          notify.success(`${removing.bidderName} removed from this auction`);
        }}
      >
        {removing
          ? `${removing.bidderName} will no longer be registered for ${auction.title}. The removal is kept in the audit log.`
          : ''}
      </ConfirmDialog>
    </div>
  );
}
