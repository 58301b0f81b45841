import {
  Body1,
  Button,
  Card,
  CardHeader,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Subtitle2,
} from '@fluentui/react-components';
import { userViewSchema } from '@contracts/identity/shared/users.schema';
import { useState } from 'react';
import { z } from 'zod';
import { PasswordInput } from '../../../components/PasswordInput';
import { ApiError, apiRequest, authApi, messageOf } from '../../../lib/api-client';
import { getAuthState, rememberUser, setAuthState, useSignedIn } from '../../../lib/auth-store';
import { useNotify } from '../../../lib/toast';
import { useProfileStyles } from './profile-styles';

export function ChangeEmailForm() {
  const styles = useProfileStyles();
  const notify = useNotify();
  const { user } = useSignedIn();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    setErrors({});
    try {
      const reply = await apiRequest(authApi('/users/me/change-email'), {
        method: 'POST',
        body: { newEmail, password },
        schema: z.object({ user: userViewSchema, message: z.string() }),
      });
      rememberUser(reply.user);
      const current = getAuthState();
      if (current.status === 'signed-in') setAuthState({ ...current, user: reply.user });
      notify.success('Email changed', reply.message);
      setNewEmail('');
      setPassword('');
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fieldErrors());
      notify.error('Could not change your email', messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    try {
      await apiRequest(authApi('/verify-email/resend'), { method: 'POST' });
      notify.success('Confirmation sent', `Check ${user.email} for the link.`);
    } catch (error) {
      notify.error('Could not send the link', messageOf(error));
    }
  };

  return (
    <Card className={styles.card}>
      <CardHeader
        header={<Subtitle2 as="h2">Email address</Subtitle2>}
        description={<Body1>You sign in with {user.email}.</Body1>}
      />
      {!user.emailVerified ? (
        <MessageBar intent="warning">
          <MessageBarBody>This address is not confirmed yet.</MessageBarBody>
          <Button size="small" onClick={() => void resend()}>
            Send the link again
          </Button>
        </MessageBar>
      ) : null}
      <div className={styles.form}>
        <Field label="New email" required validationMessage={errors.newEmail}>
          <Input
            type="email"
            autoComplete="email"
            value={newEmail}
            onChange={(_, data) => setNewEmail(data.value)}
          />
        </Field>
        <Field
          label="Your password"
          required
          hint="To confirm it is you."
          validationMessage={errors.password}
        >
          <PasswordInput
            autoComplete="current-password"
            value={password}
            onChange={(_, data) => setPassword(data.value)}
          />
        </Field>
        <div className={styles.actions}>
          <Button
            appearance="primary"
            disabled={busy || !newEmail || !password}
            onClick={() => void save()}
          >
            {busy ? 'Changing...' : 'Change email'}
          </Button>
        </div>
      </div>
    </Card>
  );
}
