import {
  Body1,
  Button,
  Card,
  CardHeader,
  Checkbox,
  Dropdown,
  Field,
  Input,
  Option,
  Spinner,
  Subtitle2,
} from '@fluentui/react-components';
import { languages, timezones } from '@contracts/identity/shared/common.schema';
import { userViewSchema, type UserView } from '@contracts/identity/shared/users.schema';
import { useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { ApiError, apiRequest, authApi, messageOf } from '../../../lib/api-client';
import { getAuthState, rememberUser, setAuthState } from '../../../lib/auth-store';
import { fetchWith } from '../../../lib/swr';
import { useNotify } from '../../../lib/toast';
import { useProfileStyles } from './profile-styles';

const profileKey = authApi('/users/me/profile');

/**
 * The profile as the service has it when the tab opens: the form starts from it and saves against
 * its ETag, so a change made meanwhile (elsewhere, or by a password or MFA change here) is not
 * overwritten unseen.
 */
export function ProfileForm() {
  const styles = useProfileStyles();
  const { data, error } = useSWR(profileKey, fetchWith(userViewSchema), {
    // A newer ETag starts the form again; on focus that would drop what was being typed.
    revalidateOnFocus: false,
  });
  if (data) return <ProfileFields key={data.etag} user={data} />;
  return (
    <Card className={styles.card}>
      {error ? <Body1>{messageOf(error)}</Body1> : <Spinner label="Loading profile..." />}
    </Card>
  );
}

function ProfileFields({ user }: { user: UserView }) {
  const styles = useProfileStyles();
  const notify = useNotify();
  const { mutate } = useSWRConfig();
  const [form, setForm] = useState({
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone ?? '',
    timezone: user.timezone,
    language: user.language,
    marketingOptIn: user.marketingOptIn,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    setErrors({});
    try {
      const updated = await apiRequest(profileKey, {
        method: 'PUT',
        body: { ...form, phone: form.phone.trim() ? form.phone.trim() : null },
        headers: { 'if-match': `"${user.etag}"` },
        schema: userViewSchema,
      });
      rememberUser(updated);
      const current = getAuthState();
      if (current.status === 'signed-in') setAuthState({ ...current, user: updated });
      notify.success('Profile saved');
      // The form starts again from what was saved, with its new ETag.
      await mutate(profileKey, updated, { revalidate: false });
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fieldErrors());
      notify.error('Could not save your profile', messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2 as="h2">Profile</Subtitle2>} />
      <div className={styles.form}>
        <div className={styles.pair}>
          <Field label="First name" required validationMessage={errors.firstName}>
            <Input
              value={form.firstName}
              onChange={(_, data) => setForm({ ...form, firstName: data.value })}
            />
          </Field>
          <Field label="Last name" required validationMessage={errors.lastName}>
            <Input
              value={form.lastName}
              onChange={(_, data) => setForm({ ...form, lastName: data.value })}
            />
          </Field>
        </div>
        <Field
          label="Phone"
          hint="International format, e.g. +15551234567."
          validationMessage={errors.phone}
        >
          <Input
            type="tel"
            value={form.phone}
            onChange={(_, data) => setForm({ ...form, phone: data.value })}
          />
        </Field>
        <div className={styles.pair}>
          <Field label="Timezone">
            <Dropdown
              value={timezones.find((zone) => zone.value === form.timezone)?.label ?? form.timezone}
              selectedOptions={[form.timezone]}
              onOptionSelect={(_, data) =>
                setForm({ ...form, timezone: data.optionValue ?? form.timezone })
              }
            >
              {timezones.map((zone) => (
                <Option key={zone.value} value={zone.value}>
                  {zone.label}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <Field label="Language">
            <Dropdown
              value={
                languages.find((language) => language.value === form.language)?.label ??
                form.language
              }
              selectedOptions={[form.language]}
              onOptionSelect={(_, data) =>
                setForm({ ...form, language: data.optionValue ?? form.language })
              }
            >
              {languages.map((language) => (
                <Option key={language.value} value={language.value}>
                  {language.label}
                </Option>
              ))}
            </Dropdown>
          </Field>
        </div>
        <Checkbox
          checked={form.marketingOptIn}
          label="Send me product news by email"
          onChange={(_, data) => setForm({ ...form, marketingOptIn: Boolean(data.checked) })}
        />
        <div className={styles.actions}>
          <Button appearance="primary" disabled={busy} onClick={() => void save()}>
            {busy ? 'Saving...' : 'Save profile'}
          </Button>
        </div>
      </div>
    </Card>
  );
}
