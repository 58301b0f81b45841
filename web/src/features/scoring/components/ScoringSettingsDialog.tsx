import {
  Body1,
  Button,
  Caption1,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Dropdown,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Option,
  Slider,
  SpinButton,
  Subtitle2,
  Switch,
  Tab,
  TabList,
  Text,
  tokens,
  type SpinButtonOnChangeData,
} from '@fluentui/react-components';
import {
  componentLabels,
  DEFAULT_CUSTOM_TIERS,
  DEFAULT_CUSTOM_WEIGHTS,
  minimumTierOptions,
  scoreComponents,
  type AutomationRules,
  type ScoreComponent,
  type TierThresholds,
  type Weights,
} from '@contracts/scoring/scoring.schema';
import { useState } from 'react';
import { messageOf } from '../../../lib/api-client';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useLotwiseModel, useSaveScoringSettings, useScoringSettings } from '../api/scoring';
import { AutomationBands } from './AutomationBands';

type SettingsTab = 'lotwise' | 'custom' | 'automation';

const useStyles = makeStyles({
  surface: { maxWidth: '720px', width: '100%' },
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    minHeight: '420px',
  },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}`,
    '@media (max-width: 560px)': { gridTemplateColumns: '1fr' },
  },
  tiers: {
    display: 'grid',
    gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalM,
    '@media (max-width: 560px)': { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
  },
  readOnly: {
    display: 'flex',
    justifyContent: 'space-between',
    padding: `${tokens.spacingVerticalXS} 0`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
  },
  rule: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  heading: { margin: 0 },
});

const tierOptionLabels: Record<(typeof minimumTierOptions)[number], string> = {
  Bronze: 'Bronze or higher',
  Silver: 'Silver or higher',
  Gold: 'Gold or higher',
  Premium: 'Premium only',
};

/** Typed text as a whole number within the bounds, where anything not a number counts as 0. */
const numberIn = (text: string, min: number, max: number) => {
  const value = Number.parseInt(text, 10);
  return Math.max(min, Math.min(max, Number.isFinite(value) ? value : 0));
};

/** The spin button's committed value: a step, or the typed text once the field is left. */
const numberFrom = (data: SpinButtonOnChangeData, min: number, max: number) =>
  numberIn(data.value == null ? (data.displayValue ?? '') : String(data.value), min, max);

export function weightsMessage(weights: Weights): { ok: boolean; text: string } {
  const total = scoreComponents.reduce((sum, name) => sum + weights[name], 0);
  if (total === 100) return { ok: true, text: 'All weights properly configured' };
  return {
    ok: false,
    text: `Weights must total 100% (currently ${total > 100 ? 'over' : 'under'} by ${Math.abs(total - 100)}%)`,
  };
}

function Editor({
  initial,
  canEdit,
  onClose,
  startTab,
}: {
  initial: { customWeights: Weights; customTiers: TierThresholds; automation: AutomationRules };
  canEdit: boolean;
  onClose(): void;
  startTab: SettingsTab;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const saveSettings = useSaveScoringSettings();
  const lotwise = useLotwiseModel();
  const [tab, setTab] = useState<SettingsTab>(startTab);
  const [weights, setWeights] = useState(initial.customWeights);
  const [tiers, setTiers] = useState(initial.customTiers);
  const [rules, setRules] = useState(initial.automation);
  const check = weightsMessage(weights);
  const ordered =
    !rules.autoInvite.enabled ||
    !rules.autoDeny.enabled ||
    rules.autoInvite.scoreThreshold > rules.autoDeny.scoreThreshold;

  const setWeight = (name: ScoreComponent, value: number) =>
    setWeights((current) => ({ ...current, [name]: value }));
  const setInvite = (changes: Partial<AutomationRules['autoInvite']>) =>
    setRules((current) => ({ ...current, autoInvite: { ...current.autoInvite, ...changes } }));
  const setDeny = (changes: Partial<AutomationRules['autoDeny']>) =>
    setRules((current) => ({ ...current, autoDeny: { ...current.autoDeny, ...changes } }));

  const save = useAction(async () => {
    await saveSettings({ customWeights: weights, customTiers: tiers, automation: rules });
    notify.success('Scoring settings saved', 'Custom scores are being recalculated.');
    onClose();
  });

  return (
    <>
      <DialogContent className={styles.content}>
        <TabList selectedValue={tab} onTabSelect={(_, data) => setTab(data.value as SettingsTab)}>
          <Tab value="lotwise">Lotwise Score</Tab>
          <Tab value="custom">Custom Score</Tab>
          <Tab value="automation">Automation Rules</Tab>
        </TabList>
        {save.error ? (
          <MessageBar intent="error">
            <MessageBarBody>{save.error}</MessageBarBody>
          </MessageBar>
        ) : null}
        {!canEdit ? (
          <MessageBar intent="info">
            <MessageBarBody>
              You can view these settings; changing them needs the Configure custom scoring
              permission.
            </MessageBarBody>
          </MessageBar>
        ) : null}
        {tab === 'lotwise' ? (
          <>
            <Body1>
              {lotwise.data?.description ??
                'The Lotwise Score is the same for every auction house.'}
            </Body1>
            <Subtitle2 as="h3" className={styles.heading}>
              Weights
            </Subtitle2>
            <div className={styles.grid}>
              {scoreComponents.map((name) => (
                <div key={name} className={styles.readOnly}>
                  <Text>{componentLabels[name]}</Text>
                  <Text weight="semibold">
                    {lotwise.data ? `${lotwise.data.weights[name]}%` : '…'}
                  </Text>
                </div>
              ))}
            </div>
            <Subtitle2 as="h3" className={styles.heading}>
              Tier minimums
            </Subtitle2>
            <div className={styles.tiers}>
              {(['premium', 'gold', 'silver', 'bronze'] as const).map((tier) => (
                <div key={tier} className={styles.readOnly}>
                  <Text style={{ textTransform: 'capitalize' }}>{tier}</Text>
                  <Text weight="semibold">{lotwise.data?.tiers[tier] ?? '…'}</Text>
                </div>
              ))}
            </div>
          </>
        ) : tab === 'custom' ? (
          <>
            <Caption1 className={styles.muted}>
              Each weight is 0 to 50 and together they must total 100. Saving recalculates every
              bidder&apos;s custom score.
            </Caption1>
            <div className={styles.grid}>
              {scoreComponents.map((name) => (
                <Field key={name} label={`${componentLabels[name]} (%)`} orientation="horizontal">
                  <SpinButton
                    value={weights[name]}
                    min={0}
                    max={50}
                    disabled={!canEdit}
                    // The spin button reports typing only when the field is left; the total
                    // follows each keystroke.
                    onInput={(event) => setWeight(name, numberIn(event.currentTarget.value, 0, 50))}
                    onChange={(_, data) => setWeight(name, numberFrom(data, 0, 50))}
                  />
                </Field>
              ))}
            </div>
            <MessageBar intent={check.ok ? 'success' : 'warning'} aria-live="polite">
              <MessageBarBody>{check.text}</MessageBarBody>
            </MessageBar>
            <Subtitle2 as="h3" className={styles.heading}>
              Tier minimums
            </Subtitle2>
            <div className={styles.tiers}>
              {(['premium', 'gold', 'silver', 'bronze'] as const).map((tier) => (
                <Field key={tier} label={tier[0]?.toUpperCase() + tier.slice(1)}>
                  <SpinButton
                    value={tiers[tier]}
                    min={0}
                    max={100}
                    disabled={!canEdit}
                    onChange={(_, data) =>
                      setTiers((current) => ({ ...current, [tier]: numberFrom(data, 0, 100) }))
                    }
                  />
                </Field>
              ))}
            </div>
            <div>
              <Button
                disabled={!canEdit}
                onClick={() => {
                  setWeights(DEFAULT_CUSTOM_WEIGHTS);
                  setTiers(DEFAULT_CUSTOM_TIERS);
                }}
              >
                Reset to Defaults
              </Button>
            </div>
          </>
        ) : (
          <>
            <AutomationBands rules={rules} />
            {!ordered ? (
              <MessageBar intent="warning">
                <MessageBarBody>
                  Auto-invite must be above auto-deny, so Manual Review lies between them.
                </MessageBarBody>
              </MessageBar>
            ) : null}
            <div className={styles.rule}>
              <Switch
                label="Auto-invite bidders"
                checked={rules.autoInvite.enabled}
                disabled={!canEdit}
                onChange={(_, data) => setInvite({ enabled: data.checked })}
              />
              <Field
                label={`Invite at a custom score of ${rules.autoInvite.scoreThreshold} or more`}
              >
                <Slider
                  min={0}
                  max={100}
                  step={5}
                  value={rules.autoInvite.scoreThreshold}
                  disabled={!canEdit || !rules.autoInvite.enabled}
                  onChange={(_, data) => setInvite({ scoreThreshold: data.value })}
                />
              </Field>
              <Checkbox
                label="Require a clean payment history"
                checked={rules.autoInvite.requirePaymentHistory}
                disabled={!canEdit || !rules.autoInvite.enabled}
                onChange={(_, data) => setInvite({ requirePaymentHistory: data.checked === true })}
              />
              <Checkbox
                label="Require a minimum tier"
                checked={rules.autoInvite.requireMinimumTier}
                disabled={!canEdit || !rules.autoInvite.enabled}
                onChange={(_, data) => setInvite({ requireMinimumTier: data.checked === true })}
              />
              <Field label="Minimum tier">
                <Dropdown
                  value={tierOptionLabels[rules.autoInvite.minimumTier]}
                  selectedOptions={[rules.autoInvite.minimumTier]}
                  disabled={
                    !canEdit || !rules.autoInvite.enabled || !rules.autoInvite.requireMinimumTier
                  }
                  onOptionSelect={(_, data) =>
                    setInvite({
                      minimumTier: (data.optionValue ??
                        'Silver') as AutomationRules['autoInvite']['minimumTier'],
                    })
                  }
                >
                  {minimumTierOptions.map((tier) => (
                    <Option key={tier} value={tier}>
                      {tierOptionLabels[tier]}
                    </Option>
                  ))}
                </Dropdown>
              </Field>
            </div>
            <div className={styles.rule}>
              <Switch
                label="Auto-deny bidders"
                checked={rules.autoDeny.enabled}
                disabled={!canEdit}
                onChange={(_, data) => setDeny({ enabled: data.checked })}
              />
              <Field label={`Deny below a custom score of ${rules.autoDeny.scoreThreshold}`}>
                <Slider
                  min={0}
                  max={100}
                  step={5}
                  value={rules.autoDeny.scoreThreshold}
                  disabled={!canEdit || !rules.autoDeny.enabled}
                  onChange={(_, data) => setDeny({ scoreThreshold: data.value })}
                />
              </Field>
              <Checkbox
                label="Deny bidders with disputes"
                checked={rules.autoDeny.checkDisputes}
                disabled={!canEdit || !rules.autoDeny.enabled}
                onChange={(_, data) => setDeny({ checkDisputes: data.checked === true })}
              />
              <Checkbox
                label="Deny bidders with payment defaults"
                checked={rules.autoDeny.checkPaymentDefaults}
                disabled={!canEdit || !rules.autoDeny.enabled}
                onChange={(_, data) => setDeny({ checkPaymentDefaults: data.checked === true })}
              />
            </div>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.busy}>
          Cancel
        </Button>
        <Button
          appearance="primary"
          onClick={() => void save.run()}
          disabled={!canEdit || !check.ok || !ordered || save.busy}
        >
          {save.busy ? 'Saving...' : 'Save Settings'}
        </Button>
      </DialogActions>
    </>
  );
}

/** Bidder Scoring Settings: the Lotwise model read-only, the house's custom score and rules saved. */
export function ScoringSettingsDialog({
  open,
  canEdit,
  onClose,
  startTab = 'custom',
}: {
  open: boolean;
  canEdit: boolean;
  onClose(): void;
  startTab?: SettingsTab;
}) {
  const styles = useStyles();
  const { data, error } = useScoringSettings();
  return (
    <Dialog open={open} onOpenChange={(_, state) => !state.open && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Bidder Scoring Settings</DialogTitle>
          {data ? (
            <Editor
              key={String(open)}
              initial={data}
              canEdit={canEdit}
              onClose={onClose}
              startTab={startTab}
            />
          ) : (
            <DialogContent>
              {error ? (
                <MessageBar intent="error">
                  <MessageBarBody>{messageOf(error)}</MessageBarBody>
                </MessageBar>
              ) : (
                <Caption1>Loading settings...</Caption1>
              )}
            </DialogContent>
          )}
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
