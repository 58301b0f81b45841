import {
  Button,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  tokens,
} from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { AppLink } from '../../../components/AppLink';
import { PasswordInput } from '../../../components/PasswordInput';
import { ApiError, apiRequest, authApi, messageOf } from '../../../lib/api-client';
import { AuthLayout } from './AuthLayout';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
});

export default function ResetPasswordPage() {
  const styles = useStyles();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const mismatch = confirm.length > 0 && confirm !== password;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password || mismatch) return;
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      const reply = await apiRequest<{ message: string }>(authApi('/password/reset'), {
        method: 'POST',
        auth: false,
        body: { token, newPassword: password, confirmPassword: confirm },
      });
      setDone(reply.message);
    } catch (caught) {
      if (caught instanceof ApiError) setFieldErrors(caught.fieldErrors());
      setError(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title="Choose a new password">
      {!token ? (
        <MessageBar intent="error">
          <MessageBarBody>This link is incomplete. Ask for a new reset link.</MessageBarBody>
        </MessageBar>
      ) : done ? (
        <MessageBar intent="success" role="status">
          <MessageBarBody>{done}</MessageBarBody>
        </MessageBar>
      ) : (
        <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
          <Field
            label="New password"
            required
            hint="At least 8 characters including uppercase, lowercase, a number and a special character."
            validationMessage={fieldErrors.newPassword}
          >
            <PasswordInput
              autoComplete="new-password"
              value={password}
              onChange={(_, data) => setPassword(data.value)}
            />
          </Field>
          <Field
            label="Confirm new password"
            required
            validationMessage={mismatch ? 'Passwords do not match' : undefined}
          >
            <PasswordInput
              autoComplete="new-password"
              value={confirm}
              onChange={(_, data) => setConfirm(data.value)}
            />
          </Field>
          {error ? (
            <MessageBar intent="error" role="alert">
              <MessageBarBody>{error}</MessageBarBody>
            </MessageBar>
          ) : null}
          <Button type="submit" appearance="primary" disabled={busy || !password || mismatch}>
            {busy ? 'Saving...' : 'Set new password'}
          </Button>
        </form>
      )}
      <AppLink to="/login">Back to sign in</AppLink>
    </AuthLayout>
  );
}
