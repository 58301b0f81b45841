import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Field,
  Input,
  makeStyles,
  SpinButton,
  Spinner,
  Subtitle2,
  Switch,
  tokens,
} from '@fluentui/react-components';
import type { SecuritySettingsView } from '@contracts/identity/mfa/mfa.schema';
import { useState } from 'react';
import { useFormGridStyles } from '../../../components/form-grid';
import { messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { saveSecuritySettings, useSecuritySettings } from '../api/security';

const useStyles = makeStyles({
  card: {
    padding: tokens.spacingHorizontalXL,
    maxWidth: '720px',
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  actions: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center' },
});

function SettingsForm({ initial }: { initial: SecuritySettingsView }) {
  const styles = useStyles();
  const formGrid = useFormGridStyles();
  const notify = useNotify();
  const { mutate } = useSecuritySettings();
  const [settings, setSettings] = useState(initial);
  const [domains, setDomains] = useState(initial.allowedEmailDomains.join(', '));
  const save = useAction(
    async () => {
      const saved = await saveSecuritySettings(
        {
          sessionIdleMinutes: settings.sessionIdleMinutes,
          sessionMaxDays: settings.sessionMaxDays,
          requireVerifiedEmail: settings.requireVerifiedEmail,
          loginNotifications: settings.loginNotifications,
          allowedEmailDomains: domains
            .split(/[\s,]+/)
            .map((domain) => domain.trim().toLowerCase())
            .filter(Boolean),
        },
        initial.etag,
      );
      await mutate(saved, { revalidate: false });
      notify.success('Security settings saved');
    },
    { onError: (message) => notify.error('Could not save the security settings', message) },
  );
  const errors = save.fieldErrors;

  const domainError = Object.entries(errors).find(([field]) =>
    field.startsWith('allowedEmailDomains'),
  )?.[1];

  return (
    <div className={styles.form}>
      <div className={formGrid.row}>
        <Field
          label="Sign out after this many idle minutes"
          validationMessage={errors.sessionIdleMinutes}
          hint="15 to 1440"
        >
          <SpinButton
            value={settings.sessionIdleMinutes}
            min={15}
            max={1440}
            step={15}
            onChange={(_, data) => {
              const next = data.value ?? Number(data.displayValue);
              if (Number.isFinite(next))
                setSettings({ ...settings, sessionIdleMinutes: Math.round(next) });
            }}
          />
        </Field>
        <Field
          label="Sign out this many days after sign-in"
          validationMessage={errors.sessionMaxDays}
          hint="1 to 90"
        >
          <SpinButton
            value={settings.sessionMaxDays}
            min={1}
            max={90}
            onChange={(_, data) => {
              const next = data.value ?? Number(data.displayValue);
              if (Number.isFinite(next))
                setSettings({ ...settings, sessionMaxDays: Math.round(next) });
            }}
          />
        </Field>
      </div>
      <Switch
        checked={settings.requireVerifiedEmail}
        label="Members must confirm their email address before opening this account"
        onChange={(_, data) => setSettings({ ...settings, requireVerifiedEmail: data.checked })}
      />
      <Switch
        checked={settings.loginNotifications}
        label="Email members when their sign-in opens this account"
        onChange={(_, data) => setSettings({ ...settings, loginNotifications: data.checked })}
      />
      <Field
        label="Only invite people with these email domains"
        hint="Comma separated, e.g. harborview.demo. Leave empty to allow any address."
        validationMessage={domainError}
      >
        <Input value={domains} onChange={(_, data) => setDomains(data.value)} />
      </Field>
      <div className={styles.actions}>
        <Button appearance="primary" disabled={save.busy} onClick={() => void save.run()}>
          {save.busy ? 'Saving...' : 'Save settings'}
        </Button>
        {initial.updatedAt ? (
          <Caption1>Last saved {new Date(initial.updatedAt).toLocaleString()}</Caption1>
        ) : null}
      </div>
    </div>
  );
}

/** Session lifetimes, email confirmation, sign-in notices and invitation domains. */
export function SecuritySettingsTab() {
  const styles = useStyles();
  const { data, error } = useSecuritySettings();
  return (
    <Card className={styles.card}>
      <CardHeader
        header={<Subtitle2 as="h2">Security Settings</Subtitle2>}
        description={
          <Body1>Applied to everyone in this account the next time their session opens it.</Body1>
        }
      />
      {error ? (
        <Body1>{messageOf(error)}</Body1>
      ) : data ? (
        <SettingsForm initial={data} />
      ) : (
        <Spinner label="Loading settings..." />
      )}
    </Card>
  );
}
