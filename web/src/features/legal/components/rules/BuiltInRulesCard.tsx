import {
  Badge,
  Body1,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  Subtitle2,
  Switch,
  Text,
  tokens,
} from '@fluentui/react-components';
import { BotRegular } from '@fluentui/react-icons';
import { builtInId, type WorkflowRule } from '@contracts/legal/rules/rules.schema';
import { useCan } from '../../../../lib/auth-store';
import { needsPermission } from '../../../../lib/permission-text';
import { formatDate } from '../case-style';
import { triggerLabels } from './rule-form';

const useStyles = makeStyles({
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  muted: { color: tokens.colorNeutralForeground2 },
  list: { listStyle: 'none', margin: 0, padding: `${tokens.spacingVerticalXS} 0 0` },
  item: {
    display: 'flex',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalL,
    paddingBlock: tokens.spacingVerticalM,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    ':first-child': { borderTop: 'none', paddingTop: 0 },
    ':last-child': { paddingBottom: 0 },
  },
  text: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, minWidth: 0 },
  title: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  switch: { flexShrink: 0, marginTop: `calc(-1 * ${tokens.spacingVerticalXS})` },
});

/** Director approval asks for the approvers' permission to switch as well. */
const APPROVAL = builtInId('director-approval');

/**
 * The spec's case automation rules: what each does, and a switch that turns it off or on for
 * every case of the account at once.
 */
export function BuiltInRulesCard({
  rules,
  mayEdit,
  pending,
  onToggle,
}: {
  rules: WorkflowRule[];
  mayEdit: boolean;
  /** Rules whose switch is being saved. */
  pending: ReadonlySet<string>;
  onToggle(rule: WorkflowRule, enabled: boolean): void;
}) {
  const styles = useStyles();
  const can = useCan();
  return (
    <Card className={styles.card}>
      <CardHeader
        image={<BotRegular fontSize={20} aria-hidden="true" />}
        header={<Subtitle2 as="h2">Built-in rules</Subtitle2>}
        description={
          <Caption1 className={styles.muted}>
            The case automation every account starts with. Switching one off stops it for every
            case.
          </Caption1>
        }
      />
      <ul className={styles.list} aria-label="Built-in rules">
        {rules.map((rule) => {
          const mayApprove = rule.id !== APPROVAL || can('legal:workflow_approve');
          const locked = !mayEdit || !mayApprove;
          return (
            <li key={rule.id} className={styles.item}>
              <div className={styles.text}>
                <div className={styles.title}>
                  <Text weight="semibold">{rule.name}</Text>
                  <Badge appearance="outline" color="informative" size="small">
                    {triggerLabels[rule.trigger]}
                  </Badge>
                  {rule.enabled ? null : (
                    <Badge appearance="tint" color="subtle" size="small">
                      Off
                    </Badge>
                  )}
                </div>
                <Body1 className={styles.muted}>{rule.description}</Body1>
                {!rule.enabled && rule.updatedBy ? (
                  <Caption1 className={styles.muted}>
                    Switched off by {rule.updatedBy.name} on {formatDate(rule.updatedAt)}
                  </Caption1>
                ) : null}
                {mayEdit && !mayApprove ? (
                  <Caption1 className={styles.muted}>
                    {needsPermission('legal:workflow_approve')} to switch.
                  </Caption1>
                ) : null}
              </div>
              <Switch
                className={styles.switch}
                aria-label={rule.name}
                checked={rule.enabled}
                disabled={locked || pending.has(rule.id)}
                onChange={(_, data) => onToggle(rule, data.checked)}
              />
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
