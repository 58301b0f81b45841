import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  Subtitle2,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { ArrowClockwiseRegular, SignOutRegular } from '@fluentui/react-icons';
import { useMemo } from 'react';
import { CopyButton } from '../../../components/CopyButton';
import { SupportContacts } from '../../../components/SupportContacts';
import { clearSupportFlag, type SupportInfo, type SupportType } from '../../../lib/auth-store';
import { logout } from '../api/session';
import { ThemeToggle } from '../../../components/ThemeToggle';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground2,
    padding: `${tokens.spacingVerticalXXXL} ${tokens.spacingHorizontalL}`,
    display: 'flex',
    justifyContent: 'center',
  },
  column: {
    width: '100%',
    maxWidth: '880px',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
  },
  top: { display: 'flex', justifyContent: 'space-between', alignItems: 'center' },
  title: { margin: 0 },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
  },
  card: { padding: tokens.spacingHorizontalL },
  list: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
  },
  diagnostics: {
    margin: 0,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
});

const guidance: Record<SupportType, { headline: string; explanation: string; steps: string[] }> = {
  'no-account-access': {
    headline: 'You are signed in, but not to any account',
    explanation: 'Your sign-in works, but it is not a member of any auction house account yet.',
    steps: [
      'Ask your account owner or administrator to send you an invitation, then open the link in it.',
      'Or create a new account of your own: sign out and choose Create New Account.',
      'If you were removed from an account by mistake, contact its owner.',
    ],
  },
  'account-access': {
    headline: 'We could not open your account',
    explanation:
      'The account you chose could not be opened for you. Its configuration may be incomplete.',
    steps: [
      'Retry the connection; the problem may have been temporary.',
      'Ask the account owner to check that your access is active.',
      'If it keeps happening, contact support with the diagnostics below.',
    ],
  },
  'account-not-cached': {
    headline: 'Your account is still being set up',
    explanation: 'Your account exists but the sign-in service has not caught up with it yet.',
    steps: [
      'Retry in a few minutes.',
      'If it still fails after 15 minutes, contact support with the diagnostics below.',
    ],
  },
  general: {
    headline: 'Something is wrong with your account setup',
    explanation: 'Lotwise could not finish signing you in.',
    steps: [
      'Retry the connection.',
      'If it keeps happening, contact support with the diagnostics below.',
    ],
  },
};

/** "Account Configuration Support": what went wrong, what to do, and diagnostics to send us. */
export default function SupportPage({ support }: { support: SupportInfo }) {
  const styles = useStyles();
  const help = guidance[support.errorType] ?? guidance.general;
  const diagnostics = useMemo(
    () =>
      [
        `Error type: ${support.errorType}`,
        `User email: ${support.userEmail ?? 'unknown'}`,
        `User id: ${support.userId ?? 'unknown'}`,
        `Account id: ${support.accountId ?? 'none'}`,
        `Details: ${support.errorDetails ?? 'none'}`,
        `Time: ${new Date().toISOString()}`,
      ].join('\n'),
    [support],
  );

  return (
    <main className={styles.page}>
      <div className={styles.column}>
        <div className={styles.top}>
          <Title2 as="h1" className={styles.title}>
            Account Configuration Support
          </Title2>
          <ThemeToggle />
        </div>
        <Card className={styles.card}>
          <CardHeader
            header={<Subtitle2 as="h2">{help.headline}</Subtitle2>}
            description={<Body1>{help.explanation}</Body1>}
          />
          <ol className={styles.list}>
            {help.steps.map((step) => (
              <li key={step}>
                <Body1>{step}</Body1>
              </li>
            ))}
          </ol>
          <div className={styles.actions}>
            <Button
              appearance="primary"
              icon={<ArrowClockwiseRegular />}
              onClick={() => {
                clearSupportFlag();
                window.location.reload();
              }}
            >
              Retry Connection
            </Button>
            <Button icon={<SignOutRegular />} onClick={() => void logout()}>
              Logout
            </Button>
          </div>
        </Card>
        <div className={styles.grid}>
          <Card className={styles.card}>
            <CardHeader header={<Subtitle2 as="h2">Contact support</Subtitle2>} />
            <SupportContacts />
          </Card>
          <Card className={styles.card}>
            <CardHeader
              header={<Subtitle2 as="h2">Diagnostics</Subtitle2>}
              description={<Caption1>Include these when you contact support.</Caption1>}
              action={<CopyButton text={diagnostics} label="Copy diagnostics" size="small" />}
            />
            <pre className={styles.diagnostics}>{diagnostics}</pre>
          </Card>
        </div>
      </div>
    </main>
  );
}
