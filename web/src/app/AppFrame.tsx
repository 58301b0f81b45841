import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { NavLink, Outlet } from 'react-router';
import { ThemeMenu } from './ThemeMenu';

/** Views that have a screen, in navigation order. */
const navigation = [{ to: '/settings', label: 'Settings' }];

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
    gap: tokens.spacingHorizontalXL,
    height: '56px',
    paddingInline: tokens.spacingHorizontalXL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    position: 'sticky',
    top: 0,
    zIndex: 10,
  },
  brand: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase500,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
  },
  logo: { width: '28px', height: '28px' },
  nav: { display: 'flex', gap: tokens.spacingHorizontalXS, flexGrow: 1 },
  link: {
    paddingInline: tokens.spacingHorizontalM,
    paddingBlock: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground2,
    textDecoration: 'none',
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover },
  },
  active: {
    color: tokens.colorBrandForeground1,
    fontWeight: tokens.fontWeightSemibold,
    backgroundColor: tokens.colorBrandBackground2,
  },
  main: {
    flexGrow: 1,
    width: '100%',
    maxWidth: '1200px',
    marginInline: 'auto',
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXL}`,
    boxSizing: 'border-box',
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
});

export function AppFrame() {
  const styles = useStyles();
  return (
    <div className={styles.frame}>
      <header className={styles.header}>
        <NavLink to="/" className={styles.brand} aria-label="Lotwise home">
          <img src="/favicon.svg" alt="" className={styles.logo} />
          <Text weight="semibold" size={500}>
            Lotwise
          </Text>
        </NavLink>
        <nav className={styles.nav} aria-label="Main">
          {navigation.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              className={({ isActive }) =>
                isActive ? `${styles.link} ${styles.active}` : styles.link
              }
            >
              {item.label}
            </NavLink>
          ))}
        </nav>
        <ThemeMenu />
      </header>
      <main className={styles.main}>
        <Outlet />
      </main>
    </div>
  );
}
