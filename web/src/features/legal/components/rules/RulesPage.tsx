import {
  Body1,
  Button,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Title2,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, ArrowLeftRegular } from '@fluentui/react-icons';
import { MAX_CUSTOM_RULES, type WorkflowRule } from '@contracts/legal/rules/rules.schema';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { ApiError, messageOf } from '../../../../lib/api-client';
import { useCan } from '../../../../lib/auth-store';
import { needsPermission } from '../../../../lib/permission-text';
import { useNotify } from '../../../../lib/toast';
import { useAssignees } from '../../api/legal';
import { useRuleActions, useRules } from '../../api/rules';
import { BuiltInRulesCard } from './BuiltInRulesCard';
import { CustomRulesCard, type RuleAction } from './CustomRulesCard';
import { DepartmentHeadCard } from './DepartmentHeadCard';
import { RuleEditorDialog } from './RuleEditorDialog';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  back: { alignSelf: 'flex-start', marginInlineStart: `calc(-1 * ${tokens.spacingHorizontalS})` },
  header: {
    display: 'flex',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalL,
    flexWrap: 'wrap',
  },
  heading: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  title: { margin: 0 },
  subtitle: { color: tokens.colorNeutralForeground2, maxWidth: '640px' },
});

/** Someone else saved the rule since this page read it. */
const STALE = 'Someone else changed this rule; reload';

/** What the editor is open on: a new rule, or one of the account's. */
type Editing = { rule?: WorkflowRule } | null;

/**
 * Workflow Rules (`/legal/rules`): the built-in case automation, each switched on or off, and the
 * account's own rules, added, edited, switched and deleted here. Those without the permission to
 * change the workflow see them read-only.
 */
export default function RulesPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const notify = useNotify();
  const can = useCan();
  const mayEdit = can('legal:workflow');
  const rules = useRules();
  const actions = useRuleActions();
  const { data: assignees } = useAssignees();
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<WorkflowRule | null>(null);

  const all = rules.data?.rules ?? [];
  const builtIns = all.filter((rule) => rule.builtIn);
  const custom = all.filter((rule) => !rule.builtIn);
  const full = custom.length >= MAX_CUSTOM_RULES;
  const nameOf = (id: string) =>
    assignees?.assignees.find((person) => person.id === id)?.name ?? 'a former member';

  const reloadAction = { label: 'Reload', run: () => void actions.refresh() };
  const toggle = async (rule: WorkflowRule, enabled: boolean) => {
    setPending((current) => new Set(current).add(rule.id));
    try {
      await actions.setEnabled(rule, enabled);
      notify.success(
        enabled ? 'Rule switched on' : 'Rule switched off',
        `"${rule.name}" ${enabled ? 'runs from now on' : 'no longer runs'}.`,
      );
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        notify.error(STALE, `"${rule.name}" was not switched.`, reloadAction);
      } else {
        notify.error(
          enabled ? 'The rule was not switched on' : 'The rule was not switched off',
          messageOf(error),
        );
      }
    } finally {
      setPending((current) => {
        const next = new Set(current);
        next.delete(rule.id);
        return next;
      });
    }
  };
  const onAction = (action: RuleAction, rule: WorkflowRule) => {
    if (action === 'edit') setEditing({ rule });
    else setDeleting(rule);
  };

  const newRule = mayEdit ? (
    full ? (
      <Tooltip
        content={`An account keeps at most ${MAX_CUSTOM_RULES} custom rules; delete one first`}
        relationship="description"
      >
        <Button appearance="primary" icon={<AddRegular />} disabledFocusable>
          New Rule
        </Button>
      </Tooltip>
    ) : (
      <Button appearance="primary" icon={<AddRegular />} onClick={() => setEditing({})}>
        New Rule
      </Button>
    )
  ) : null;

  return (
    <div className={styles.page}>
      <Button
        className={styles.back}
        appearance="subtle"
        icon={<ArrowLeftRegular />}
        onClick={() => navigate('/legal/cases')}
      >
        Legal Case Management
      </Button>
      <div className={styles.header}>
        <div className={styles.heading}>
          <Title2 as="h1" className={styles.title}>
            Workflow Rules
          </Title2>
          <Body1 className={styles.subtitle}>
            What happens to cases by itself: the built-in automation, and rules of your own that
            move, assign or tell people about a case when something happens to it.
          </Body1>
        </div>
        {rules.data ? newRule : null}
      </div>
      {mayEdit ? null : (
        <MessageBar intent="info">
          <MessageBarBody>
            You can see the rules. {needsPermission('legal:workflow')} to change them.
          </MessageBarBody>
        </MessageBar>
      )}
      {rules.error ? (
        <MessageBar intent="error">
          <MessageBarBody>The rules could not be loaded: {messageOf(rules.error)}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void rules.mutate()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      {!rules.data ? (
        rules.error ? null : (
          <Skeleton aria-label="Loading rules">
            {[0, 1, 2].map((row) => (
              <SkeletonItem key={row} size={48} style={{ marginBottom: 8 }} />
            ))}
          </Skeleton>
        )
      ) : (
        <>
          <BuiltInRulesCard
            rules={builtIns}
            mayEdit={mayEdit}
            pending={pending}
            onToggle={(rule, enabled) => void toggle(rule, enabled)}
          />
          <DepartmentHeadCard />
          <CustomRulesCard
            rules={custom}
            nameOf={nameOf}
            mayEdit={mayEdit}
            pending={pending}
            onToggle={(rule, enabled) => void toggle(rule, enabled)}
            onAction={onAction}
            newRuleButton={newRule}
          />
        </>
      )}
      {editing && mayEdit ? (
        <RuleEditorDialog
          key={editing.rule?.id ?? 'new'}
          rule={editing.rule}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete "${deleting?.name ?? 'rule'}"?`}
        confirmLabel="Delete Rule"
        busyLabel="Deleting..."
        danger
        failureTitle="The rule was not deleted"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            await actions.remove(deleting);
          } catch (error) {
            // Changed meanwhile: show the rule as it is now, so the choice is made on that.
            if (error instanceof ApiError && error.status === 412) void actions.refresh();
            throw error;
          }
          notify.success('Rule deleted', `"${deleting.name}" no longer runs.`);
        }}
      >
        The rule stops running at once. What it already did stays in each case&apos;s history.
      </ConfirmDialog>
    </div>
  );
}
