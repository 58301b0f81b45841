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
import { useAction } from '../../../lib/use-action';
import { resetPassword } from '../api/account';
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
  const [done, setDone] = useState<string | null>(null);
  const mismatch = confirm.length > 0 && confirm !== password;
  const save = useAction(async () => {
    const reply = await resetPassword({ token, newPassword: password, confirmPassword: confirm });
    setDone(reply.message);
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password || mismatch) return;
    void save.run();
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
        <form className={styles.form} onSubmit={submit} noValidate>
          <Field
            label="New password"
            required
            hint="At least 8 characters including uppercase, lowercase, a number and a special character."
            validationMessage={save.fieldErrors.newPassword}
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
          {save.error ? (
            <MessageBar intent="error" role="alert">
              <MessageBarBody>{save.error}</MessageBarBody>
            </MessageBar>
          ) : null}
          <Button type="submit" appearance="primary" disabled={save.busy || !password || mismatch}>
            {save.busy ? 'Saving...' : 'Set new password'}
          </Button>
        </form>
      )}
      <AppLink to="/login">Back to sign in</AppLink>
    </AuthLayout>
  );
}
