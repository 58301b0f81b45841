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
import { useAction } from '../../../lib/use-action';
import { requestPasswordReset } from '../api/account';
import { AuthLayout } from './AuthLayout';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export default function ForgotPasswordPage() {
  const styles = useStyles();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const send = useAction(async () => setSent((await requestPasswordReset(email)).message));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      send.fail('Enter the email address you sign in with');
      return;
    }
    void send.run();
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
        <form className={styles.form} onSubmit={submit} noValidate>
          <Field label="Email" required>
            <Input
              type="email"
              autoComplete="username"
              value={email}
              onChange={(_, data) => setEmail(data.value)}
            />
          </Field>
          {send.error ? (
            <MessageBar intent="error" role="alert">
              <MessageBarBody>{send.error}</MessageBarBody>
            </MessageBar>
          ) : null}
          <Button type="submit" appearance="primary" disabled={send.busy}>
            {send.busy ? 'Sending...' : 'Send reset link'}
          </Button>
        </form>
      )}
      <AppLink to="/login">Back to sign in</AppLink>
    </AuthLayout>
  );
}
