import {
  Badge,
  Button,
  CounterBadge,
  Divider,
  DrawerBody,
  DrawerHeader,
  DrawerHeaderTitle,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  mergeClasses,
  OverlayDrawer,
  Text,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import {
  AlertRegular,
  DismissRegular,
  GaugeRegular,
  NavigationRegular,
  QuestionCircleRegular,
  SettingsRegular,
  ShieldPersonRegular,
  SignOutRegular,
} from '@fluentui/react-icons';
import { Suspense, useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { useSignedIn } from '../../lib/auth-store';
import { logout } from '../../features/auth/api/session';
import { NotificationsDialog } from '../../features/notifications/components/NotificationsDialog';
import { useUnreadCount } from '../../features/notifications/api/notifications';
import { PageLoading } from '../../components/PageLoading';
import { ThemeMenu } from '../ThemeMenu';
import { AccountBanner } from './AccountBanner';
import { navigationFor } from './navigation';
import { UserMenu } from './UserMenu';
import { countOf } from '../../lib/plural';

const wide = '@media (min-width: 1100px)';
const narrow = '@media (max-width: 1099px)';

const useStyles = makeStyles({
  frame: {
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: tokens.colorNeutralBackground2,
    color: tokens.colorNeutralForeground1,
  },
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    height: '56px',
    paddingInline: tokens.spacingHorizontalXL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    position: 'sticky',
    top: 0,
    zIndex: 10,
    '@media (max-width: 640px)': {
      paddingInline: tokens.spacingHorizontalS,
      gap: tokens.spacingHorizontalXS,
    },
  },
  menuButton: { [wide]: { display: 'none' } },
  brand: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
    flexShrink: 0,
  },
  logo: { width: '28px', height: '28px' },
  nav: {
    display: 'flex',
    gap: tokens.spacingHorizontalXXS,
    flexGrow: 1,
    minWidth: 0,
    [narrow]: { display: 'none' },
  },
  grow: { flexGrow: 1, [wide]: { display: 'none' } },
  link: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    paddingInline: tokens.spacingHorizontalM,
    paddingBlock: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground2,
    textDecoration: 'none',
    whiteSpace: 'nowrap',
    ':hover': {
      backgroundColor: tokens.colorSubtleBackgroundHover,
      color: tokens.colorNeutralForeground1,
    },
  },
  active: {
    color: tokens.colorBrandForeground1,
    fontWeight: tokens.fontWeightSemibold,
    backgroundColor: tokens.colorBrandBackground2,
  },
  tools: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS },
  wideOnly: { '@media (max-width: 640px)': { display: 'none' } },
  bell: { position: 'relative' },
  count: { position: 'absolute', top: '0px', right: '0px', pointerEvents: 'none' },
  drawerNav: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  drawerLink: { fontSize: tokens.fontSizeBase400, paddingBlock: tokens.spacingVerticalM },
  // Logout is a button, laid out as the links are: not a centred Fluent button.
  drawerButton: {
    border: 'none',
    backgroundColor: 'transparent',
    fontFamily: 'inherit',
    lineHeight: 'inherit',
    textAlign: 'start',
    cursor: 'pointer',
  },
  drawerDivider: { marginBlock: tokens.spacingVerticalS },
  main: {
    flexGrow: 1,
    width: '100%',
    maxWidth: '1280px',
    marginInline: 'auto',
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXL}`,
    boxSizing: 'border-box',
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  notice: { margin: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalXL} 0` },
});

function MfaNotice() {
  const styles = useStyles();
  const navigate = useNavigate();
  const { mfaSetupDueBy, mfaSetupRequired } = useSignedIn();
  if (!mfaSetupDueBy) return null;
  return (
    <MessageBar intent={mfaSetupRequired ? 'error' : 'warning'} className={styles.notice}>
      <MessageBarBody>
        {mfaSetupRequired
          ? 'Your account requires two-factor authentication. Set it up to continue using Lotwise.'
          : `Your account requires two-factor authentication. Set it up by ${new Date(mfaSetupDueBy).toLocaleDateString()}.`}
      </MessageBarBody>
      <MessageBarActions>
        <Button size="small" onClick={() => navigate('/security/my-security')}>
          Set up now
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}

/** The header, navigation (top on large screens, a drawer on small ones), banner and view. */
export default function AppShell() {
  const styles = useStyles();
  const navigate = useNavigate();
  const { account } = useSignedIn();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [notificationsOpen, setNotificationsOpen] = useState(false);
  const unread = useUnreadCount().data?.unreadCount ?? 0;
  const items = navigationFor(account);
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    mergeClasses(styles.link, isActive && styles.active);

  return (
    <div className={styles.frame}>
      <header className={styles.header}>
        <Button
          className={styles.menuButton}
          appearance="subtle"
          icon={<NavigationRegular />}
          aria-label="Open navigation"
          onClick={() => setDrawerOpen(true)}
        />
        <NavLink to="/" className={styles.brand} aria-label="Lotwise home">
          <img src="/favicon.svg" alt="" className={styles.logo} />
          <Text weight="semibold" size={500}>
            Lotwise
          </Text>
        </NavLink>
        {account.houses.length > 1 ? (
          <Tooltip
            content={`${countOf(account.houses.length, 'auction house')} in this account`}
            relationship="description"
          >
            <Badge appearance="tint" color="informative" className={styles.wideOnly}>
              {countOf(account.houses.length, 'house')}
            </Badge>
          </Tooltip>
        ) : null}
        <nav className={styles.nav} aria-label="Main">
          {items.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              state={{ fromNavigation: true }}
              className={linkClass}
            >
              {item.label}
            </NavLink>
          ))}
        </nav>
        <span className={styles.grow} />
        <div className={styles.tools}>
          <span className={styles.bell}>
            <Button
              appearance="subtle"
              icon={<AlertRegular />}
              aria-label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
              onClick={() => setNotificationsOpen(true)}
            />
            {unread ? (
              <CounterBadge
                className={styles.count}
                count={unread}
                size="small"
                color="danger"
                aria-hidden
              />
            ) : null}
          </span>
          <span className={styles.wideOnly}>
            <Tooltip content="Help" relationship="label">
              <Button
                appearance="subtle"
                icon={<QuestionCircleRegular />}
                onClick={() => navigate('/help')}
              />
            </Tooltip>
          </span>
          <span className={styles.wideOnly}>
            <Tooltip content="Security & Users" relationship="label">
              <Button
                appearance="subtle"
                icon={<ShieldPersonRegular />}
                onClick={() => navigate('/security')}
              />
            </Tooltip>
          </span>
          <span className={styles.wideOnly}>
            <Tooltip content="Account Settings" relationship="label">
              <Button
                appearance="subtle"
                icon={<SettingsRegular />}
                onClick={() => navigate('/settings')}
              />
            </Tooltip>
          </span>
          <ThemeMenu />
          <span className={styles.wideOnly}>
            <Tooltip content="Sign out" relationship="label">
              <Button appearance="subtle" icon={<SignOutRegular />} onClick={() => void logout()} />
            </Tooltip>
          </span>
          <UserMenu />
        </div>
      </header>
      <OverlayDrawer
        open={drawerOpen}
        onOpenChange={(_, state) => setDrawerOpen(state.open)}
        position="start"
      >
        <DrawerHeader>
          <DrawerHeaderTitle
            action={
              <Button
                appearance="subtle"
                aria-label="Close navigation"
                icon={<DismissRegular />}
                onClick={() => setDrawerOpen(false)}
              />
            }
          >
            Lotwise
          </DrawerHeaderTitle>
        </DrawerHeader>
        <DrawerBody>
          <nav className={styles.drawerNav} aria-label="Main">
            {items.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                state={{ fromNavigation: true }}
                className={({ isActive }) =>
                  mergeClasses(styles.link, styles.drawerLink, isActive && styles.active)
                }
                onClick={() => setDrawerOpen(false)}
              >
                <item.icon aria-hidden />
                {item.label}
              </NavLink>
            ))}
            <Divider className={styles.drawerDivider} />
            <NavLink
              to="/settings/bidder-scoring"
              className={({ isActive }) =>
                mergeClasses(styles.link, styles.drawerLink, isActive && styles.active)
              }
              onClick={() => setDrawerOpen(false)}
            >
              <GaugeRegular aria-hidden />
              Scoring System
            </NavLink>
            <button
              type="button"
              className={mergeClasses(styles.link, styles.drawerLink, styles.drawerButton)}
              onClick={() => {
                setDrawerOpen(false);
                void logout();
              }}
            >
              <SignOutRegular aria-hidden />
              Logout
            </button>
          </nav>
        </DrawerBody>
      </OverlayDrawer>
      <AccountBanner />
      <MfaNotice />
      <main className={styles.main}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <NotificationsDialog open={notificationsOpen} onOpenChange={setNotificationsOpen} />
    </div>
  );
}
