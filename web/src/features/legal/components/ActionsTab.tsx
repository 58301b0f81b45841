import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Checkbox,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons';
import type { ActionItem } from '@contracts/legal/legal.schema';
import { useState, type FormEvent } from 'react';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useActionItems, useLegalActions } from '../api/legal';
import { formatDay, formatMoment, todayOnCalendar } from './case-style';
import { AssigneePicker } from './CasePickers';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  form: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr) auto',
    gap: tokens.spacingHorizontalM,
    alignItems: 'start',
    '@media (max-width: 760px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  // Level with the inputs beside it, under their labels.
  add: { marginTop: '26px', '@media (max-width: 760px)': { marginTop: 0, justifySelf: 'start' } },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' },
  item: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    paddingBlock: tokens.spacingVerticalS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
    ':last-child': { borderBottom: 'none' },
  },
  facts: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    paddingInlineStart: '36px',
    color: tokens.colorNeutralForeground2,
  },
  done: { textDecoration: 'line-through', color: tokens.colorNeutralForeground2 },
  muted: { color: tokens.colorNeutralForeground2 },
});

function ActionRow({ caseId, item }: { caseId: string; item: ActionItem }) {
  const styles = useStyles();
  const can = useCan();
  const notify = useNotify();
  const actions = useLegalActions();
  const mayEdit = can('legal:edit');
  const toggle = useAction((done: boolean) => actions.updateActionItem(caseId, item.id, { done }), {
    onError: (message) => notify.error('The action item was not updated', message),
  });
  const overdue = !item.done && item.dueDate !== null && item.dueDate < todayOnCalendar();
  return (
    <li className={styles.item}>
      <Checkbox
        checked={item.done}
        disabled={!mayEdit || toggle.busy}
        label={<span className={item.done ? styles.done : undefined}>{item.text}</span>}
        onChange={(_, data) => void toggle.run(data.checked === true)}
      />
      <div className={styles.facts}>
        <Caption1>{item.assignee ? `Assigned to ${item.assignee.name}` : 'Unassigned'}</Caption1>
        {item.dueDate ? <Caption1>· Due {formatDay(item.dueDate)}</Caption1> : null}
        {overdue ? (
          <Badge appearance="tint" color="danger" size="small">
            Overdue
          </Badge>
        ) : null}
        {item.done && item.doneAt ? (
          <Caption1>
            · Completed {formatMoment(item.doneAt)}
            {item.doneBy ? ` by ${item.doneBy.name}` : ''}
          </Caption1>
        ) : null}
      </div>
    </li>
  );
}

function AddActionItem({ caseId }: { caseId: string }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useLegalActions();
  const [text, setText] = useState('');
  const [assigneeId, setAssigneeId] = useState('');
  const [dueDate, setDueDate] = useState('');
  const [error, setError] = useState('');
  const add = useAction(
    async () => {
      await actions.addActionItem(caseId, {
        text: text.trim(),
        assigneeId: assigneeId || null,
        dueDate: dueDate || null,
      });
      setText('');
      setAssigneeId('');
      setDueDate('');
      notify.success('Action item added');
    },
    { onError: (message) => notify.error('The action item was not added', message) },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setError('Action item is required');
      return;
    }
    setError('');
    void add.run();
  };
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Add an action item">
      <Field
        label="Action item"
        required
        validationMessage={error || undefined}
        validationState={error ? 'error' : 'none'}
      >
        <Input
          value={text}
          onChange={(_, data) => {
            setText(data.value);
            if (data.value.trim()) setError('');
          }}
        />
      </Field>
      <AssigneePicker label="Assignee" value={assigneeId} onChange={setAssigneeId} />
      <Field label="Due date" hint="Optional.">
        <Input type="date" value={dueDate} onChange={(_, data) => setDueDate(data.value)} />
      </Field>
      <Button
        className={styles.add}
        appearance="primary"
        type="submit"
        icon={<AddRegular />}
        disabled={add.busy}
      >
        {add.busy ? 'Adding...' : 'Add Action Item'}
      </Button>
    </form>
  );
}

/** The case's to-do list: who does what by when, and ticking it off. */
export function ActionsTab({ caseId }: { caseId: string }) {
  const styles = useStyles();
  const can = useCan();
  const { data, error, mutate } = useActionItems(caseId);
  const open = data?.actions.filter((item) => !item.done).length ?? 0;
  return (
    <div className={styles.stack}>
      {can('legal:edit') ? (
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2 as="h2">Add an action item</Subtitle2>} />
          <AddActionItem caseId={caseId} />
        </Card>
      ) : (
        <Caption1 className={styles.muted}>
          {needsPermission('legal:edit')} to add or complete action items.
        </Caption1>
      )}
      <Card className={styles.card}>
        <CardHeader
          header={<Subtitle2 as="h2">Action items</Subtitle2>}
          description={
            data ? (
              <Caption1 className={styles.muted}>
                {open} open of {data.actions.length}
              </Caption1>
            ) : undefined
          }
        />
        {error && !data ? (
          <MessageBar intent="error">
            <MessageBarBody>
              The action items could not be loaded: {messageOf(error)}
            </MessageBarBody>
            <MessageBarActions>
              <Button onClick={() => void mutate()}>Try again</Button>
            </MessageBarActions>
          </MessageBar>
        ) : !data ? (
          <Skeleton aria-label="Loading action items">
            <SkeletonItem size={32} />
          </Skeleton>
        ) : data.actions.length ? (
          <ul className={styles.list} aria-label="Action items">
            {data.actions.map((item) => (
              <ActionRow key={item.id} caseId={caseId} item={item} />
            ))}
          </ul>
        ) : (
          <Body1 className={styles.muted}>No action items yet.</Body1>
        )}
      </Card>
    </div>
  );
}
