import { Button, Card, CardHeader, Field, Subtitle2 } from '@fluentui/react-components';
import { useState } from 'react';
import { PasswordInput } from '../../../components/PasswordInput';
import { ApiError, apiRequest, authApi, messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useProfileStyles } from './profile-styles';

export function ChangePasswordForm() {
  const styles = useProfileStyles();
  const notify = useNotify();
  const [form, setForm] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const mismatch = form.confirmPassword.length > 0 && form.confirmPassword !== form.newPassword;

  const save = async () => {
    setBusy(true);
    setErrors({});
    try {
      const reply = await apiRequest<{ message: string }>(authApi('/users/me/change-password'), {
        method: 'POST',
        body: form,
      });
      notify.success('Password changed', reply.message);
      setForm({ currentPassword: '', newPassword: '', confirmPassword: '' });
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fieldErrors());
      notify.error('Could not change your password', messageOf(error));
    } finally {
      setBusy(false);
    }
  };

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
            disabled={busy || mismatch || !form.currentPassword || !form.newPassword}
            onClick={() => void save()}
          >
            {busy ? 'Changing...' : 'Change password'}
          </Button>
        </div>
      </div>
    </Card>
  );
}
