import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Field,
  Input,
  makeStyles,
  Subtitle2,
  Switch,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import {
  DEFAULT_REGISTRATION_RULES,
  registrationRulesSchema,
  tiers,
  type RegistrationRules,
} from '@contracts/scoring/scoring.schema';
import { useState } from 'react';
import { useCardGridStyles } from '../../../components/card-grid';
import { useFormGridStyles } from '../../../components/form-grid';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useSaveScoringSettings } from '../api/scoring';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  limits: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))',
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalS,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/** Whole dollars as typed, or blank; the rules hold cents. */
type Draft = {
  bidLimits: Record<(typeof tiers)[number], string>;
  previouslyApproved: boolean;
  approvedAuctions: string;
  itemsWon: string;
  amountSpent: string;
  neverWithOpenDispute: boolean;
  autoAccept: string;
  autoDecline: string;
};

const dollars = (cents: number | null) => (cents === null ? '' : String(cents / 100));
const cents = (text: string) => (text.trim() === '' ? null : Math.round(Number(text) * 100));
const count = (text: string) => (text.trim() === '' ? null : Number(text));
const ids = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((id) => id.trim())
    .filter(Boolean);

const draftOf = (rules: RegistrationRules): Draft => ({
  bidLimits: Object.fromEntries(
    tiers.map((tier) => [tier, dollars(rules.bidLimits[tier])]),
  ) as Draft['bidLimits'],
  previouslyApproved: rules.autoApprove.previouslyApproved,
  approvedAuctions: rules.autoApprove.approvedAuctions?.toString() ?? '',
  itemsWon: rules.autoApprove.itemsWon?.toString() ?? '',
  amountSpent: dollars(rules.autoApprove.amountSpent),
  neverWithOpenDispute: rules.neverWithOpenDispute,
  autoAccept: rules.autoAccept.join(', '),
  autoDecline: rules.autoDecline.join(', '),
});

const rulesOf = (draft: Draft) => ({
  bidLimits: Object.fromEntries(tiers.map((tier) => [tier, cents(draft.bidLimits[tier])])),
  autoApprove: {
    previouslyApproved: draft.previouslyApproved,
    approvedAuctions: count(draft.approvedAuctions),
    itemsWon: count(draft.itemsWon),
    amountSpent: cents(draft.amountSpent),
  },
  neverWithOpenDispute: draft.neverWithOpenDispute,
  autoAccept: ids(draft.autoAccept),
  autoDecline: ids(draft.autoDecline),
});

/**
 * Settings › Scoring: how a registration to an auction is decided beyond the automation rules,
 * and the bid limit each tier gets.
 */
export function RegistrationRulesCard({
  rules,
  canEdit,
}: {
  rules: RegistrationRules;
  canEdit: boolean;
}) {
  const styles = useStyles();
  const grid = useCardGridStyles();
  const form = useFormGridStyles();
  const notify = useNotify();
  const saveSettings = useSaveScoringSettings();
  const [draft, setDraft] = useState<Draft | null>(null);
  const shown = draft ?? draftOf(rules);
  const parsed = registrationRulesSchema.safeParse(rulesOf(shown));
  const problem = (path: string) =>
    parsed.success
      ? undefined
      : parsed.error.issues.find((issue) => issue.path.join('.') === path)?.message;
  const save = useAction(
    async () => {
      if (!parsed.success) return;
      await saveSettings({ registration: parsed.data });
      setDraft(null);
      notify.success('Registration rules saved');
    },
    { onError: (message) => notify.error('The registration rules were not saved', message) },
  );
  const change = (patch: Partial<Draft>) => setDraft({ ...shown, ...patch });
  const number = (
    label: string,
    key: 'approvedAuctions' | 'itemsWon' | 'amountSpent',
    hint: string,
  ) => (
    <Field label={label} hint={hint} validationMessage={problem(`autoApprove.${key}`)}>
      <Input
        type="number"
        min={key === 'amountSpent' ? 0 : 1}
        value={shown[key]}
        disabled={!canEdit}
        onChange={(_, data) => change({ [key]: data.value })}
      />
    </Field>
  );
  return (
    <Card className={grid.card}>
      <CardHeader
        header={<Subtitle2 as="h2">Auction registration</Subtitle2>}
        description={
          <Caption1>
            Who is approved to bid without a review, and how much each tier may bid
          </Caption1>
        }
      />
      <div className={styles.body}>
        <Body1>Bid limit per tier (USD; leave blank for no limit)</Body1>
        <div className={styles.limits}>
          {tiers.map((tier) => (
            <Field key={tier} label={tier} validationMessage={problem(`bidLimits.${tier}`)}>
              <Input
                type="number"
                min={0}
                contentBefore="$"
                value={shown.bidLimits[tier]}
                disabled={!canEdit}
                onChange={(_, data) =>
                  change({ bidLimits: { ...shown.bidLimits, [tier]: data.value } })
                }
              />
            </Field>
          ))}
        </div>
        <Body1>Also approve, instead of sending them to review, anyone who</Body1>
        <Switch
          label="was approved for an earlier auction of this house"
          checked={shown.previouslyApproved}
          disabled={!canEdit}
          onChange={(_, data) => change({ previouslyApproved: data.checked })}
        />
        <div className={form.row}>
          {number('Approved for auctions', 'approvedAuctions', 'At least this many; blank is off')}
          {number('Items won', 'itemsWon', 'At least this many; blank is off')}
          {number('Amount spent (USD)', 'amountSpent', 'At least this much; blank is off')}
        </div>
        <Switch
          label="Never approve a bidder with an open dispute without a review"
          checked={shown.neverWithOpenDispute}
          disabled={!canEdit}
          onChange={(_, data) => change({ neverWithOpenDispute: data.checked })}
        />
        <div className={form.row}>
          <Field label="Always approve" hint="Bidder IDs, separated by commas">
            <Textarea
              value={shown.autoAccept}
              disabled={!canEdit}
              onChange={(_, data) => change({ autoAccept: data.value })}
            />
          </Field>
          <Field label="Always decline" hint="Bidder IDs, separated by commas">
            <Textarea
              value={shown.autoDecline}
              disabled={!canEdit}
              onChange={(_, data) => change({ autoDecline: data.value })}
            />
          </Field>
        </div>
        {!canEdit ? (
          <Body1 className={styles.muted}>
            Changing these needs the Configure custom scoring permission.
          </Body1>
        ) : null}
        <div className={styles.actions}>
          <Button
            appearance="primary"
            disabled={!canEdit || save.busy || !draft || !parsed.success}
            onClick={() => void save.run()}
          >
            {save.busy ? 'Saving...' : 'Save Registration Rules'}
          </Button>
          <Button
            disabled={!canEdit || save.busy}
            onClick={() => setDraft(draftOf(DEFAULT_REGISTRATION_RULES))}
          >
            Reset to Defaults
          </Button>
        </div>
      </div>
    </Card>
  );
}
