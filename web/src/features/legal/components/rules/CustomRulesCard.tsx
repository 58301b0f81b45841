import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  mergeClasses,
  Subtitle2,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  DeleteRegular,
  EditRegular,
  FlowRegular,
  MoreHorizontalRegular,
} from '@fluentui/react-icons';
import { MAX_CUSTOM_RULES, type WorkflowRule } from '@contracts/legal/rules/rules.schema';
import type { ReactNode } from 'react';
import { useMediaQuery } from '../../../../lib/use-media-query';
import { describeAction, describeCondition, triggerLabels, type NameOf } from './rule-form';

const useStyles = makeStyles({
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  muted: { color: tokens.colorNeutralForeground2 },
  frame: {
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    overflowX: 'auto',
  },
  table: { minWidth: '940px' },
  headerRow: { backgroundColor: tokens.colorNeutralBackground3 },
  cell: { paddingBlock: tokens.spacingVerticalS, verticalAlign: 'top' },
  nameCell: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  name: { fontWeight: tokens.fontWeightSemibold, overflowWrap: 'anywhere' },
  clip: {
    display: '-webkit-box',
    WebkitLineClamp: '2',
    WebkitBoxOrient: 'vertical',
    overflow: 'hidden',
    overflowWrap: 'anywhere',
  },
  lines: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
  },
  number: { fontVariantNumeric: 'tabular-nums' },
  off: { color: tokens.colorNeutralForeground3 },
  cards: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
  },
  ruleCard: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  ruleHead: {
    display: 'flex',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
  },
  ruleTitle: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    minWidth: 0,
  },
  ruleFoot: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
  },
  term: { color: tokens.colorNeutralForeground2, fontWeight: tokens.fontWeightSemibold },
  facts: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, margin: 0 },
  fact: { display: 'flex', flexDirection: 'column', margin: 0 },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalL}`,
    color: tokens.colorNeutralForeground2,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke2}`,
  },
});

export type RuleAction = 'edit' | 'delete';

interface RowProps {
  rule: WorkflowRule;
  nameOf: NameOf;
  mayEdit: boolean;
  pending: boolean;
  onToggle(rule: WorkflowRule, enabled: boolean): void;
  onAction(action: RuleAction, rule: WorkflowRule): void;
}

function RuleMenu({ rule, onAction }: Pick<RowProps, 'rule' | 'onAction'>) {
  return (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          icon={<MoreHorizontalRegular />}
          aria-label={`Actions for ${rule.name}`}
        />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem icon={<EditRegular />} onClick={() => onAction('edit', rule)}>
            Edit Rule
          </MenuItem>
          <MenuItem icon={<DeleteRegular />} onClick={() => onAction('delete', rule)}>
            Delete Rule
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

function Conditions({ rule, nameOf }: Pick<RowProps, 'rule' | 'nameOf'>) {
  const styles = useStyles();
  if (!rule.conditions.length) return <Text className={styles.muted}>Every case</Text>;
  return (
    <ul className={styles.lines}>
      {rule.conditions.map((condition, index) => (
        <li key={index}>{describeCondition(condition, nameOf)}</li>
      ))}
    </ul>
  );
}

function Actions({ rule, nameOf }: Pick<RowProps, 'rule' | 'nameOf'>) {
  const styles = useStyles();
  return (
    <ul className={styles.lines}>
      {rule.actions.map((action, index) => (
        <li key={index}>{describeAction(action, nameOf)}</li>
      ))}
    </ul>
  );
}

function EnabledSwitch({ rule, mayEdit, pending, onToggle }: RowProps) {
  return (
    <Switch
      aria-label={rule.name}
      checked={rule.enabled}
      disabled={!mayEdit || pending}
      onChange={(_, data) => onToggle(rule, data.checked)}
    />
  );
}

function RuleTable({ rules, row }: { rules: WorkflowRule[]; row(rule: WorkflowRule): RowProps }) {
  const styles = useStyles();
  const anyMenu = rules.some((rule) => row(rule).mayEdit);
  return (
    <div className={styles.frame}>
      <Table className={styles.table} aria-label="Custom rules">
        <TableHeader>
          <TableRow className={styles.headerRow}>
            <TableHeaderCell style={{ width: '24%' }}>Name</TableHeaderCell>
            <TableHeaderCell style={{ width: '140px' }}>Trigger</TableHeaderCell>
            <TableHeaderCell>Conditions</TableHeaderCell>
            <TableHeaderCell>Actions</TableHeaderCell>
            <TableHeaderCell style={{ width: '76px' }}>Priority</TableHeaderCell>
            <TableHeaderCell style={{ width: '84px' }}>Enabled</TableHeaderCell>
            {anyMenu ? (
              <TableHeaderCell style={{ width: '56px' }}>
                <span className="visually-hidden">Actions</span>
              </TableHeaderCell>
            ) : null}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rules.map((rule) => {
            const props = row(rule);
            return (
              <TableRow key={rule.id} className={rule.enabled ? undefined : styles.off}>
                <TableCell className={styles.cell}>
                  <div className={styles.nameCell}>
                    <Text className={styles.name}>{rule.name}</Text>
                    {rule.description ? (
                      <Caption1
                        className={mergeClasses(styles.muted, styles.clip)}
                        title={rule.description}
                      >
                        {rule.description}
                      </Caption1>
                    ) : null}
                  </div>
                </TableCell>
                <TableCell className={styles.cell}>{triggerLabels[rule.trigger]}</TableCell>
                <TableCell className={styles.cell}>
                  <Conditions rule={rule} nameOf={props.nameOf} />
                </TableCell>
                <TableCell className={styles.cell}>
                  <Actions rule={rule} nameOf={props.nameOf} />
                </TableCell>
                <TableCell className={mergeClasses(styles.cell, styles.number)}>
                  {rule.priority}
                </TableCell>
                <TableCell className={styles.cell}>
                  <EnabledSwitch {...props} />
                </TableCell>
                {anyMenu ? (
                  <TableCell className={styles.cell}>
                    <RuleMenu rule={rule} onAction={props.onAction} />
                  </TableCell>
                ) : null}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

/** A rule as a card, for a phone: the table's columns one under another. */
function RuleCard(props: RowProps) {
  const styles = useStyles();
  const { rule, nameOf, mayEdit, onAction } = props;
  const fact = (term: string, detail: ReactNode) => (
    <div className={styles.fact}>
      <dt>
        <Caption1 className={styles.term}>{term}</Caption1>
      </dt>
      <dd style={{ margin: 0 }}>{detail}</dd>
    </div>
  );
  return (
    <article className={styles.ruleCard} aria-label={rule.name}>
      <div className={styles.ruleHead}>
        <div className={styles.ruleTitle}>
          <Text className={styles.name}>{rule.name}</Text>
          {rule.description ? (
            <Caption1 className={styles.muted}>{rule.description}</Caption1>
          ) : null}
        </div>
        {mayEdit ? <RuleMenu rule={rule} onAction={onAction} /> : null}
      </div>
      <dl className={styles.facts}>
        {fact('When', triggerLabels[rule.trigger])}
        {fact('If', <Conditions rule={rule} nameOf={nameOf} />)}
        {fact('Then', <Actions rule={rule} nameOf={nameOf} />)}
      </dl>
      <div className={styles.ruleFoot}>
        <Caption1 className={styles.muted}>Priority {rule.priority}</Caption1>
        <EnabledSwitch {...props} />
      </div>
    </article>
  );
}

/**
 * The account's own rules in the order they run: a table (cards on a phone), each with its
 * switch and, for those who may change them, Edit and Delete.
 */
export function CustomRulesCard({
  rules,
  nameOf,
  mayEdit,
  pending,
  onToggle,
  onAction,
  newRuleButton,
}: {
  rules: WorkflowRule[];
  nameOf: NameOf;
  mayEdit: boolean;
  pending: ReadonlySet<string>;
  onToggle(rule: WorkflowRule, enabled: boolean): void;
  onAction(action: RuleAction, rule: WorkflowRule): void;
  /** New Rule, for those who may add one. */
  newRuleButton: ReactNode;
}) {
  const styles = useStyles();
  const phone = useMediaQuery('(max-width: 760px)');
  const row = (rule: WorkflowRule): RowProps => ({
    rule,
    nameOf,
    mayEdit,
    pending: pending.has(rule.id),
    onToggle,
    onAction,
  });
  return (
    <Card className={styles.card}>
      <CardHeader
        image={<FlowRegular fontSize={20} aria-hidden="true" />}
        header={<Subtitle2 as="h2">Custom rules</Subtitle2>}
        description={
          <Caption1 className={styles.muted}>
            {rules.length} of {MAX_CUSTOM_RULES} · They run after the built-in rules, lowest
            priority number first; the first status change in a run wins.
          </Caption1>
        }
      />
      {rules.length === 0 ? (
        <div className={styles.empty}>
          <FlowRegular fontSize={32} aria-hidden="true" />
          <Text weight="semibold">No custom rules yet</Text>
          <Body1>
            Add a rule to move, assign or tell people about cases when they are filed, change status
            or priority, or are paid.
          </Body1>
          {newRuleButton}
        </div>
      ) : phone ? (
        <ul className={styles.cards} aria-label="Custom rules">
          {rules.map((rule) => (
            <li key={rule.id}>
              <RuleCard {...row(rule)} />
            </li>
          ))}
        </ul>
      ) : (
        <RuleTable rules={rules} row={row} />
      )}
    </Card>
  );
}
