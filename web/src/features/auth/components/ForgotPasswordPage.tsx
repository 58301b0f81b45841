import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  tokens,
} from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { AppLink } from '../../../components/AppLink';
import { apiRequest, authApi, messageOf } from '../../../lib/api-client';
import { AuthLayout } from './AuthLayout';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export default function ForgotPasswordPage() {
  const styles = useStyles();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setError('Enter the email address you sign in with');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const reply = await apiRequest<{ message: string }>(authApi('/password/reset-request'), {
        method: 'POST',
        auth: false,
        body: { email },
      });
      setSent(reply.message);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout
      title="Reset your password"
      subtitle="We will email you a link to set a new one. It works once, for one hour."
    >
      {sent ? (
        <MessageBar intent="success" role="status">
          <MessageBarBody>{sent}</MessageBarBody>
        </MessageBar>
      ) : (
        <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
          <Field label="Email" required>
            <Input
              type="email"
              autoComplete="username"
              value={email}
              onChange={(_, data) => setEmail(data.value)}
            />
          </Field>
          {error ? (
            <MessageBar intent="error" role="alert">
              <MessageBarBody>{error}</MessageBarBody>
            </MessageBar>
          ) : null}
          <Button type="submit" appearance="primary" disabled={busy}>
            {busy ? 'Sending...' : 'Send reset link'}
          </Button>
        </form>
      )}
      <AppLink to="/login">Back to sign in</AppLink>
    </AuthLayout>
  );
}
