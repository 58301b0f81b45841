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
import { useState } from 'react';
import { PasswordInput } from '../../../components/PasswordInput';
import { useSignedIn } from '../../../lib/auth-store';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { changeEmail, resendEmailConfirmation } from '../api/profile';
import { useProfileStyles } from './profile-styles';

export function ChangeEmailForm() {
  const styles = useProfileStyles();
  const notify = useNotify();
  const { user } = useSignedIn();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const save = useAction(
    async () => {
      const reply = await changeEmail({ newEmail, password });
      notify.success('Email changed', reply.message);
      setNewEmail('');
      setPassword('');
    },
    { onError: (message) => notify.error('Could not change your email', message) },
  );
  const errors = save.fieldErrors;

  const resend = useAction(
    async () => {
      await resendEmailConfirmation();
      notify.success('Confirmation sent', `Check ${user.email} for the link.`);
    },
    { onError: (message) => notify.error('Could not send the link', message) },
  );

  return (
    <Card className={styles.card}>
      <CardHeader
        header={<Subtitle2 as="h2">Email address</Subtitle2>}
        description={<Body1>You sign in with {user.email}.</Body1>}
      />
      {!user.emailVerified ? (
        <MessageBar intent="warning">
          <MessageBarBody>This address is not confirmed yet.</MessageBarBody>
          <Button size="small" onClick={() => void resend.run()}>
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
            disabled={save.busy || !newEmail || !password}
            onClick={() => void save.run()}
          >
            {save.busy ? 'Changing...' : 'Change email'}
          </Button>
        </div>
      </div>
    </Card>
  );
}
