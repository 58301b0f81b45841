import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dropdown,
  Field,
  makeStyles,
  MessageBar,
  Option,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Switch,
  tokens,
} from '@fluentui/react-components';
import {
  conflictPolicies,
  defaultImportStatuses,
  duplicateHandlings,
  syncFrequencies,
  type SyncSettings,
} from '@contracts/integrations/integrations.schema';
import { useState } from 'react';
import { useCardGridStyles } from '../../../components/card-grid';
import { useFormGridStyles } from '../../../components/form-grid';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';
import { useAction } from '../../../lib/use-action';
import { usePlatformActions, useSyncSettings } from '../api/platforms';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/** The spec's words for each choice. */
const frequencyLabels: Record<SyncSettings['frequency'], string> = {
  '5min': 'Every 5 minutes',
  '15min': 'Every 15 minutes',
  '30min': 'Every 30 minutes',
  '1hour': 'Every hour',
  manual: 'Manual only',
};
const importStatusLabels: Record<SyncSettings['defaultImportStatus'], string> = {
  upcoming: 'Upcoming',
  draft: 'Draft',
  review: 'Review',
};
const duplicateLabels: Record<SyncSettings['duplicateHandling'], string> = {
  merge: 'Merge',
  skip: 'Skip',
  new_version: 'Create new version',
  manual_review: 'Manual review',
};
const conflictLabels: Record<SyncSettings['conflictPolicy'], string> = {
  prefer_platform: 'Prefer platform',
  prefer_local: 'Prefer local',
  use_newest: 'Use newest',
  manual_review: 'Manual review',
};

const toggles: {
  key: 'autoImport' | 'realTimeSync' | 'bidderDataSync' | 'autoUpdateStatus';
  label: string;
  hint: string;
}[] = [
  {
    key: 'autoImport',
    label: 'Auto import of auctions',
    hint: 'Each sync brings in auctions new on a connected platform',
  },
  {
    key: 'realTimeSync',
    label: 'Real-time sync',
    hint: 'Send your edits of a linked auction to its platform as you save them',
  },
  {
    key: 'bidderDataSync',
    label: 'Bidder data sync',
    hint: "Keep bidders' platform figures (bids, wins, spent) up to date",
  },
  {
    key: 'autoUpdateStatus',
    label: 'Auto-update status',
    hint: 'Let a platform move an imported auction live, completed or cancelled',
  },
];

function Choice<K extends string>({
  label,
  hint,
  value,
  options,
  labels,
  disabled,
  onChange,
}: {
  label: string;
  hint: string;
  value: K;
  options: readonly K[];
  labels: Record<K, string>;
  disabled: boolean;
  onChange: (value: K) => void;
}) {
  return (
    <Field label={label} hint={hint}>
      <Dropdown
        value={labels[value]}
        selectedOptions={[value]}
        disabled={disabled}
        onOptionSelect={(_, data) => data.optionValue && onChange(data.optionValue as K)}
      >
        {options.map((option) => (
          <Option key={option} value={option}>
            {labels[option]}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
}

/** Settings › Sync: how Lotwise keeps auctions in step with the connected bidding platforms. */
export function SyncSettingsTab() {
  const styles = useStyles();
  const grid = useCardGridStyles();
  const form = useFormGridStyles();
  const notify = useNotify();
  const can = useCan();
  const canEdit = can('system:integrations');
  const { data, error, mutate } = useSyncSettings();
  const { saveSyncSettings } = usePlatformActions();
  const [draft, setDraft] = useState<Partial<SyncSettings>>({});
  const save = useAction(
    async () => {
      if (!data) return;
      await saveSyncSettings(data.etag, draft);
      setDraft({});
      notify.success('Sync settings saved');
    },
    {
      onError: (message) => {
        notify.error('The sync settings were not saved', message);
        void mutate();
      },
    },
  );
  // Save All Changes on the settings page saves these edits too, and leaving asks first.
  useUnsavedChanges({
    id: 'auction-sync',
    label: 'Sync',
    dirty:
      canEdit &&
      data !== undefined &&
      Object.entries(draft).some(([key, value]) => data[key as keyof SyncSettings] !== value),
    save: async () => {
      if (!data) return;
      await saveSyncSettings(data.etag, draft);
      setDraft({});
    },
    discard: () => setDraft({}),
  });
  if (error) return <MessageBar intent="error">{messageOf(error)}</MessageBar>;
  if (!data) {
    return (
      <Skeleton aria-label="Loading sync settings">
        <SkeletonItem size={128} />
      </Skeleton>
    );
  }
  const shown: SyncSettings = { ...data, ...draft };
  const change = (patch: Partial<SyncSettings>) => setDraft({ ...draft, ...patch });
  const dirty = Object.entries(draft).some(
    ([key, value]) => data[key as keyof SyncSettings] !== value,
  );
  return (
    <div className={grid.stack}>
      <Card className={grid.card}>
        <CardHeader
          header={<Subtitle2 as="h2">Platform sync</Subtitle2>}
          description={
            <Caption1>How auctions and bidders move between Lotwise and your platforms</Caption1>
          }
        />
        <div className={styles.body}>
          {toggles.map(({ key, label, hint }) => (
            <Switch
              key={key}
              label={
                <>
                  {label}
                  <br />
                  <Caption1 className={styles.muted}>{hint}</Caption1>
                </>
              }
              checked={shown[key]}
              disabled={!canEdit}
              onChange={(_, toggle) => change({ [key]: toggle.checked })}
            />
          ))}
          <div className={form.row}>
            <Choice
              label="Sync frequency"
              hint="How often each connected platform is synced"
              value={shown.frequency}
              options={syncFrequencies}
              labels={frequencyLabels}
              disabled={!canEdit}
              onChange={(frequency) => change({ frequency })}
            />
            <Choice
              label="Default import status"
              hint="What an upcoming platform auction becomes in Lotwise"
              value={shown.defaultImportStatus}
              options={defaultImportStatuses}
              labels={importStatusLabels}
              disabled={!canEdit}
              onChange={(defaultImportStatus) => change({ defaultImportStatus })}
            />
          </div>
          <div className={form.row}>
            <Choice
              label="Duplicate auction handling"
              hint="A platform auction with the title and day of one you made"
              value={shown.duplicateHandling}
              options={duplicateHandlings}
              labels={duplicateLabels}
              disabled={!canEdit}
              onChange={(duplicateHandling) => change({ duplicateHandling })}
            />
            <Choice
              label="Data conflicts"
              hint="When you and the platform both changed an auction"
              value={shown.conflictPolicy}
              options={conflictPolicies}
              labels={conflictLabels}
              disabled={!canEdit}
              onChange={(conflictPolicy) => change({ conflictPolicy })}
            />
          </div>
          {!canEdit ? (
            <Body1 className={styles.muted}>{needsPermission('system:integrations')}</Body1>
          ) : null}
          <div className={styles.actions}>
            <Button
              appearance="primary"
              disabled={!canEdit || !dirty || save.busy}
              onClick={() => void save.run()}
            >
              {save.busy ? 'Saving...' : 'Save Sync Settings'}
            </Button>
            <Button disabled={!dirty || save.busy} onClick={() => setDraft({})}>
              Discard Changes
            </Button>
          </div>
        </div>
      </Card>
    </div>
  );
}
