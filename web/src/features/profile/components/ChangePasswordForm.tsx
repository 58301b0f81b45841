import { Button, Card, CardHeader, Field, Subtitle2 } from '@fluentui/react-components';
import { useState } from 'react';
import { PasswordInput } from '../../../components/PasswordInput';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { changePassword } from '../api/profile';
import { useProfileStyles } from './profile-styles';

export function ChangePasswordForm() {
  const styles = useProfileStyles();
  const notify = useNotify();
  const [form, setForm] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const mismatch = form.confirmPassword.length > 0 && form.confirmPassword !== form.newPassword;
  const save = useAction(
    async () => {
      const reply = await changePassword(form);
      notify.success('Password changed', reply.message);
      setForm({ currentPassword: '', newPassword: '', confirmPassword: '' });
    },
    { onError: (message) => notify.error('Could not change your password', message) },
  );
  const errors = save.fieldErrors;

  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2 as="h2">Change password</Subtitle2>} />
      <div className={styles.form}>
        <Field label="Current password" required validationMessage={errors.currentPassword}>
          <PasswordInput
            autoComplete="current-password"
            value={form.currentPassword}
            onChange={(_, data) => setForm({ ...form, currentPassword: data.value })}
          />
        </Field>
        <Field
          label="New password"
          required
          hint="At least 8 characters including uppercase, lowercase, a number and a special character."
          validationMessage={errors.newPassword}
        >
          <PasswordInput
            autoComplete="new-password"
            value={form.newPassword}
            onChange={(_, data) => setForm({ ...form, newPassword: data.value })}
          />
        </Field>
        <Field
          label="Confirm new password"
          required
          validationMessage={mismatch ? 'Passwords do not match' : errors.confirmPassword}
        >
          <PasswordInput
            autoComplete="new-password"
            value={form.confirmPassword}
            onChange={(_, data) => setForm({ ...form, confirmPassword: data.value })}
          />
        </Field>
        <div className={styles.actions}>
          <Button
            appearance="primary"
            disabled={save.busy || mismatch || !form.currentPassword || !form.newPassword}
            onClick={() => void save.run()}
          >
            {save.busy ? 'Changing...' : 'Change password'}
          </Button>
        </div>
      </div>
    </Card>
  );
}
