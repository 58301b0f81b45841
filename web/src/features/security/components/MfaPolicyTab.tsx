import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Checkbox,
  Field,
  makeStyles,
  SpinButton,
  Spinner,
  Subtitle2,
  Switch,
  tokens,
} from '@fluentui/react-components';
import type { MfaPolicyView } from '@contracts/identity/mfa/mfa.schema';
import { roleLabels } from '@contracts/identity/permissions';
import { useState } from 'react';
import { messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { saveMfaPolicy, useMfaPolicy } from '../api/security';

const useStyles = makeStyles({
  card: {
    padding: tokens.spacingHorizontalXL,
    maxWidth: '720px',
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  roles: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalL },
  actions: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center' },
});

const roles = ['owner', 'admin', 'staff', 'viewer'] as const;

function PolicyForm({ initial }: { initial: MfaPolicyView }) {
  const styles = useStyles();
  const notify = useNotify();
  const { mutate } = useMfaPolicy();
  const [policy, setPolicy] = useState(initial);
  const changed = JSON.stringify(policy) !== JSON.stringify(initial);
  const save = useAction(
    async () => {
      const saved = await saveMfaPolicy(
        {
          required: policy.required,
          requiredForRoles: policy.requiredForRoles,
          gracePeriodDays: policy.gracePeriodDays,
          enforceBackupCodes: policy.enforceBackupCodes,
        },
        initial.etag,
      );
      await mutate(saved, { revalidate: false });
      setPolicy(saved);
      notify.success('MFA policy saved');
    },
    { onError: (message) => notify.error('Could not save the MFA policy', message) },
  );

  return (
    <div className={styles.form}>
      <Switch
        checked={policy.required}
        label="Require two-factor authentication"
        onChange={(_, data) => setPolicy({ ...policy, required: data.checked })}
      />
      <Field label="Required for these roles">
        <div className={styles.roles}>
          {roles.map((role) => (
            <Checkbox
              key={role}
              label={roleLabels[role]}
              disabled={!policy.required}
              checked={policy.requiredForRoles.includes(role)}
              onChange={(_, data) =>
                setPolicy({
                  ...policy,
                  requiredForRoles: data.checked
                    ? [...policy.requiredForRoles, role]
                    : policy.requiredForRoles.filter((candidate) => candidate !== role),
                })
              }
            />
          ))}
        </div>
      </Field>
      <Field
        label="Grace period (days)"
        hint="How long people have to set it up once it applies to them."
      >
        <SpinButton
          value={policy.gracePeriodDays}
          min={0}
          max={365}
          disabled={!policy.required}
          onChange={(_, data) => {
            const next = data.value ?? Number(data.displayValue);
            if (Number.isFinite(next))
              setPolicy({
                ...policy,
                gracePeriodDays: Math.max(0, Math.min(365, Math.round(next))),
              });
          }}
        />
      </Field>
      <Switch
        checked={policy.enforceBackupCodes}
        label="Give everyone backup codes when they set up their first method"
        onChange={(_, data) => setPolicy({ ...policy, enforceBackupCodes: data.checked })}
      />
      <div className={styles.actions}>
        <Button
          appearance="primary"
          disabled={!changed || save.busy}
          onClick={() => void save.run()}
        >
          {save.busy ? 'Saving...' : 'Save policy'}
        </Button>
        {initial.updatedAt ? (
          <Caption1>Last saved {new Date(initial.updatedAt).toLocaleString()}</Caption1>
        ) : null}
      </div>
    </div>
  );
}

/** The account's MFA policy: who must use two-factor authentication, and by when. */
export function MfaPolicyTab() {
  const styles = useStyles();
  const { data, error } = useMfaPolicy();
  return (
    <Card className={styles.card}>
      <CardHeader
        header={<Subtitle2 as="h2">MFA Policy</Subtitle2>}
        description={
          <Body1>
            Applied when people sign in to this account; they are told when it starts to apply.
          </Body1>
        }
      />
      {error ? (
        <Body1>{messageOf(error)}</Body1>
      ) : data ? (
        <PolicyForm key={data.updatedAt ?? 'new'} initial={data} />
      ) : (
        <Spinner label="Loading policy..." />
      )}
    </Card>
  );
}
