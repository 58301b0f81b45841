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
import type { UserView } from '@contracts/identity/shared/users.schema';
import { useState } from 'react';
import { useFormGridStyles } from '../../../components/form-grid';
import { messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useProfile, useSaveProfile } from '../api/profile';
import { useProfileStyles } from './profile-styles';

/**
 * The profile as the service has it when the tab opens: the form starts from it and saves against
 * its ETag, so a change made meanwhile is not overwritten unseen.
 */
export function ProfileForm() {
  const styles = useProfileStyles();
  const { data, error } = useProfile();
  if (data) return <ProfileFields key={data.etag} user={data} />;
  return (
    <Card className={styles.card}>
      {error ? <Body1>{messageOf(error)}</Body1> : <Spinner label="Loading profile..." />}
    </Card>
  );
}

function ProfileFields({ user }: { user: UserView }) {
  const styles = useProfileStyles();
  const formGrid = useFormGridStyles();
  const notify = useNotify();
  const saveProfile = useSaveProfile();
  const [form, setForm] = useState({
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone ?? '',
    timezone: user.timezone,
    language: user.language,
    marketingOptIn: user.marketingOptIn,
  });
  const save = useAction(
    async () => {
      await saveProfile(
        { ...form, phone: form.phone.trim() ? form.phone.trim() : null },
        user.etag,
      );
      notify.success('Profile saved');
    },
    { onError: (message) => notify.error('Could not save your profile', message) },
  );
  const errors = save.fieldErrors;

  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2 as="h2">Profile</Subtitle2>} />
      <div className={styles.form}>
        <div className={formGrid.row}>
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
        <div className={formGrid.row}>
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
          <Button appearance="primary" disabled={save.busy} onClick={() => void save.run()}>
            {save.busy ? 'Saving...' : 'Save profile'}
          </Button>
        </div>
      </div>
    </Card>
  );
}
