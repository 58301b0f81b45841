import {
  Button,
  Divider,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  tokens,
} from '@fluentui/react-components';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { AppLink } from '../../../components/AppLink';
import type { MfaChallenge } from '@contracts/identity/auth/auth.schema';
import { PasswordInput } from '../../../components/PasswordInput';
import { useAuth } from '../../../lib/auth-store';
import { useAction } from '../../../lib/use-action';
import { useProviders } from '../api/providers';
import { login, signInToDemo } from '../api/session';
import { AuthLayout } from './AuthLayout';

// MSAL is loaded only where Microsoft sign-in is configured; the second step and the account
// picker only when needed: the sign-in screen stays light.
const MicrosoftSignIn = lazy(() => import('./MicrosoftSignIn'));
const MfaStep = lazy(() => import('./MfaStep'));
const AccountPickerDialog = lazy(() => import('./AccountPickerDialog'));

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', justifyContent: 'flex-end' },
  actions: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
});

export default function LoginPage() {
  const styles = useStyles();
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const invitationCode = params.get('invitation') ?? undefined;
  const providers = useProviders();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const notice = auth.status === 'signed-out' ? auth.notice : undefined;
  const signIn = useAction(
    async () => {
      const result = await login({ email, password, invitationCode });
      if (result.status === 'mfa-required') setChallenge(result);
    },
    { fallback: 'Login failed' },
  );
  const demo = useAction(signInToDemo, { fallback: 'Login failed' });
  const busy = signIn.busy || demo.busy;
  const error = signIn.error ?? demo.error;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    demo.reset();
    if (!email.trim() || !password) {
      signIn.fail('Please enter both email and password');
      return;
    }
    void signIn.run();
  };

  const tryDemo = () => {
    signIn.reset();
    void demo.run();
  };

  if (challenge) {
    return (
      <AuthLayout title="Two-step verification" subtitle="One more step to keep your account safe.">
        <Suspense fallback={null}>
          <MfaStep
            challenge={challenge}
            onBack={() => setChallenge(null)}
            onVerify={(mfaCode) => login({ email, password, mfaCode, invitationCode })}
            onSendCode={async (mfaMethodId) => {
              const result = await login({ email, password, mfaMethodId, invitationCode });
              if (result.status === 'mfa-required') setChallenge(result);
            }}
          />
        </Suspense>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Welcome back" subtitle="Sign in to manage your auction house operations">
      {notice ? (
        <MessageBar intent="warning">
          <MessageBarBody>{notice}</MessageBarBody>
        </MessageBar>
      ) : null}
      {invitationCode ? (
        <MessageBar intent="info">
          <MessageBarBody>Sign in to accept your invitation.</MessageBarBody>
        </MessageBar>
      ) : null}
      <form className={styles.form} onSubmit={submit} noValidate>
        <Field label="Email" required>
          <Input
            type="email"
            autoComplete="username"
            value={email}
            onChange={(_, data) => setEmail(data.value)}
          />
        </Field>
        <Field label="Password" required>
          <PasswordInput
            autoComplete="current-password"
            value={password}
            onChange={(_, data) => setPassword(data.value)}
          />
        </Field>
        <div className={styles.row}>
          <AppLink to="/forgot-password">Forgot password?</AppLink>
        </div>
        {error ? (
          <MessageBar intent="error" role="alert">
            <MessageBarBody>{error}</MessageBarBody>
          </MessageBar>
        ) : null}
        <Button type="submit" appearance="primary" size="large" disabled={busy}>
          {signIn.busy ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
      <Divider>Or</Divider>
      <div className={styles.actions}>
        {providers.data?.providers.some((provider) => provider.id === 'microsoft') ? (
          <Suspense fallback={<Button disabled>Sign in with Microsoft</Button>}>
            <MicrosoftSignIn
              provider={providers.data.providers[0]!}
              invitationCode={invitationCode}
              onError={(message) => {
                demo.reset();
                signIn.fail(message);
              }}
            />
          </Suspense>
        ) : null}
        <Button
          appearance="secondary"
          onClick={() =>
            navigate(
              invitationCode
                ? `/signup?invitation=${encodeURIComponent(invitationCode)}`
                : '/signup',
            )
          }
        >
          Create New Account
        </Button>
        {providers.data?.demo ? (
          <Button appearance="subtle" onClick={tryDemo} disabled={busy}>
            {demo.busy ? 'Opening the demo...' : 'Try the demo'}
          </Button>
        ) : null}
      </div>
      {auth.status === 'select-account' ? (
        <AccountPickerDialog user={auth.user} accounts={auth.accounts} />
      ) : null}
    </AuthLayout>
  );
}
