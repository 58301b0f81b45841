import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Slider,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import { DEFAULT_AUTOMATION, type AutomationRules } from '@contracts/scoring/scoring.schema';
import { useState } from 'react';
import { useCardGridStyles } from '../../../components/card-grid';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { useNotify } from '../../../lib/toast';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';
import { useAction } from '../../../lib/use-action';
import { useLotwiseModel, useSaveScoringSettings, useScoringSettings } from '../api/scoring';
import { AutomationBands } from './AutomationBands';
import { RegistrationRulesCard } from './RegistrationRulesCard';
import { ScoringSettingsDialog } from './ScoringSettingsDialog';

const useStyles = makeStyles({
  line: {
    display: 'flex',
    justifyContent: 'space-between',
    paddingBlock: tokens.spacingVerticalXS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  sliders: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    maxWidth: '640px',
  },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

interface Thresholds {
  autoInvite: number;
  autoDeny: number;
}

const sliders: { key: keyof Thresholds; label: string }[] = [
  { key: 'autoInvite', label: 'Auto-invite at' },
  { key: 'autoDeny', label: 'Auto-deny below' },
];

const thresholdsOf = (rules: AutomationRules): Thresholds => ({
  autoInvite: rules.autoInvite.scoreThreshold,
  autoDeny: rules.autoDeny.scoreThreshold,
});

const withThresholds = (rules: AutomationRules, thresholds: Thresholds): AutomationRules => ({
  autoInvite: { ...rules.autoInvite, scoreThreshold: thresholds.autoInvite },
  autoDeny: { ...rules.autoDeny, scoreThreshold: thresholds.autoDeny },
});

/** Account Settings › Scoring: the scores in use and the auction-invitation thresholds. */
export function ScoringTab() {
  const styles = useStyles();
  const grid = useCardGridStyles();
  const notify = useNotify();
  const saveSettings = useSaveScoringSettings();
  const settings = useScoringSettings();
  const lotwise = useLotwiseModel();
  const [draft, setDraft] = useState<Thresholds | null>(null);
  const [editing, setEditing] = useState(false);
  const canEdit = useCan()('bidders:scoring');
  const savedRules = settings.data?.automation ?? DEFAULT_AUTOMATION;
  const shown = draft ?? thresholdsOf(savedRules);
  const rules = withThresholds(savedRules, shown);
  const ordered =
    !rules.autoInvite.enabled || !rules.autoDeny.enabled || shown.autoInvite > shown.autoDeny;

  const save = useAction(
    async () => {
      await saveSettings({ automation: rules });
      setDraft(null);
      notify.success('Scoring thresholds saved');
    },
    { onError: (message) => notify.error('The thresholds were not saved', message) },
  );

  // Save All Changes on the settings page saves these edits too, and leaving asks first.
  useUnsavedChanges({
    id: 'bidder-scoring',
    label: 'Scoring',
    dirty:
      canEdit &&
      draft !== null &&
      (draft.autoInvite !== thresholdsOf(savedRules).autoInvite ||
        draft.autoDeny !== thresholdsOf(savedRules).autoDeny),
    save: async () => {
      if (!ordered) throw new Error('Auto-invite must be above auto-deny');
      await saveSettings({ automation: rules });
      setDraft(null);
    },
    discard: () => setDraft(null),
  });

  if (settings.error) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{messageOf(settings.error)}</MessageBarBody>
      </MessageBar>
    );
  }
  if (!settings.data) {
    return (
      <Skeleton aria-label="Loading scoring settings">
        <SkeletonItem size={96} />
      </Skeleton>
    );
  }
  const custom = settings.data;
  return (
    <div className={grid.stack}>
      <div className={grid.columns}>
        <Card className={grid.card}>
          <CardHeader
            header={<Subtitle2 as="h2">Custom Score</Subtitle2>}
            description={<Caption1>Configured by your auction house</Caption1>}
            action={
              <Badge appearance="tint" color="success">
                Active
              </Badge>
            }
          />
          <div className={styles.line}>
            <Text>Payment history</Text>
            <Text weight="semibold">{custom.customWeights.paymentHistory}%</Text>
          </div>
          <div className={styles.line}>
            <Text>Bid activity</Text>
            <Text weight="semibold">{custom.customWeights.bidActivity}%</Text>
          </div>
          <div className={styles.line}>
            <Text>Auto-invite at</Text>
            <Text weight="semibold">
              {custom.automation.autoInvite.enabled
                ? custom.automation.autoInvite.scoreThreshold
                : 'Off'}
            </Text>
          </div>
          <div className={styles.actions}>
            <Button onClick={() => setEditing(true)}>
              {canEdit ? 'Edit Custom Score' : 'View Custom Score'}
            </Button>
          </div>
        </Card>
        <Card className={grid.card}>
          <CardHeader
            header={<Subtitle2 as="h2">Lotwise Standard Score</Subtitle2>}
            description={<Caption1>Managed by Lotwise; it cannot be modified</Caption1>}
            action={<Badge appearance="outline">Read-only</Badge>}
          />
          {(['paymentHistory', 'bidActivity', 'disputeHistory'] as const).map((name) => (
            <div key={name} className={styles.line}>
              <Text>
                {
                  {
                    paymentHistory: 'Payment history',
                    bidActivity: 'Bid activity',
                    disputeHistory: 'Dispute history',
                  }[name]
                }
              </Text>
              <Text weight="semibold">{lotwise.data ? `${lotwise.data.weights[name]}%` : '…'}</Text>
            </div>
          ))}
          <Caption1 className={styles.muted}>
            The same for every auction house, so scores compare across houses.
          </Caption1>
        </Card>
      </div>
      <Card className={grid.card}>
        <CardHeader
          header={<Subtitle2 as="h2">Automation rules</Subtitle2>}
          description={
            <Caption1>How bidders are sorted for your auctions, by their custom score</Caption1>
          }
        />
        <div className={styles.sliders}>
          <AutomationBands rules={rules} />
          {sliders.map(({ key, label }) => {
            const enabled = rules[key].enabled;
            return (
              <Field
                key={key}
                label={`${label}: ${shown[key]}`}
                hint={enabled ? undefined : 'This rule is off; switch it on in Edit Custom Score.'}
              >
                <Slider
                  min={0}
                  max={100}
                  step={5}
                  value={shown[key]}
                  disabled={!canEdit || !enabled}
                  onChange={(_, data) => setDraft({ ...shown, [key]: data.value })}
                />
              </Field>
            );
          })}
          {!ordered ? (
            <MessageBar intent="warning">
              <MessageBarBody>
                Auto-invite must be above auto-deny, so Manual Review lies between them.
              </MessageBarBody>
            </MessageBar>
          ) : null}
          {!canEdit ? (
            <Body1 className={styles.muted}>
              Changing these needs the Configure custom scoring permission.
            </Body1>
          ) : null}
          <div className={styles.actions}>
            <Button
              appearance="primary"
              disabled={!canEdit || save.busy || !draft || !ordered}
              onClick={() => void save.run()}
            >
              {save.busy ? 'Saving...' : 'Save Thresholds'}
            </Button>
            <Button
              disabled={!canEdit || save.busy}
              onClick={() => setDraft(thresholdsOf(DEFAULT_AUTOMATION))}
            >
              Reset to Defaults
            </Button>
          </div>
        </div>
      </Card>
      <RegistrationRulesCard rules={custom.registration} canEdit={canEdit} />
      <ScoringSettingsDialog open={editing} canEdit={canEdit} onClose={() => setEditing(false)} />
    </div>
  );
}
