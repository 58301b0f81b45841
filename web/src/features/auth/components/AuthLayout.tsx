import {
  Body1,
  Caption1,
  makeStyles,
  mergeClasses,
  Title2,
  tokens,
} from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { ThemeToggle } from '../../../components/ThemeToggle';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalL,
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground2,
    backgroundImage: `radial-gradient(circle at 20% 0%, ${tokens.colorBrandBackground2} 0, transparent 45%)`,
  },
  theme: { position: 'fixed', top: tokens.spacingVerticalM, right: tokens.spacingHorizontalM },
  card: {
    width: '100%',
    maxWidth: '440px',
    boxSizing: 'border-box',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXXL}`,
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow16,
    '@media (max-width: 480px)': { padding: tokens.spacingHorizontalL },
  },
  wide: { maxWidth: '640px' },
  brand: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  logo: { width: '36px', height: '36px' },
  heading: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  title: { margin: 0 },
  footer: { color: tokens.colorNeutralForeground3 },
});

/** The frame of every signed-out screen: brand, a card, the theme switch. */
export function AuthLayout({
  title,
  subtitle,
  wide,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  const styles = useStyles();
  return (
    <main className={styles.page}>
      <div className={styles.theme}>
        <ThemeToggle />
      </div>
      <section
        className={mergeClasses(styles.card, wide && styles.wide)}
        aria-labelledby="auth-title"
      >
        <div className={styles.brand}>
          <img src="/favicon.svg" alt="" className={styles.logo} />
          <Title2 as="p" className={styles.title}>
            Lotwise
          </Title2>
        </div>
        <div className={styles.heading}>
          <Title2 as="h1" id="auth-title" className={styles.title}>
            {title}
          </Title2>
          {subtitle ? <Body1>{subtitle}</Body1> : null}
        </div>
        {children}
      </section>
      <Caption1 className={styles.footer}>Lotwise · the back office for auction houses</Caption1>
    </main>
  );
}
