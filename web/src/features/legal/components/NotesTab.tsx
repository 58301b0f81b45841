import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Field,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Textarea,
  tokens,
} from '@fluentui/react-components';
import { NoteAddRegular } from '@fluentui/react-icons';
import { useState, type FormEvent } from 'react';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useLegalActions, useNotes } from '../api/legal';
import { formatMoment } from './case-style';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  add: { alignSelf: 'flex-start' },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' },
  note: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    paddingBlock: tokens.spacingVerticalM,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
    ':last-child': { borderBottom: 'none' },
  },
  text: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground2 },
});

function AddNote({ caseId }: { caseId: string }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useLegalActions();
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const add = useAction(
    async () => {
      await actions.addNote(caseId, text.trim());
      setText('');
      notify.success('Note added');
    },
    { onError: (message) => notify.error('The note was not added', message) },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setError('Note is required');
      return;
    }
    setError('');
    void add.run();
  };
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Add a note">
      <Field
        label="Note"
        required
        validationMessage={error || undefined}
        validationState={error ? 'error' : 'none'}
      >
        <Textarea
          value={text}
          onChange={(_, data) => {
            setText(data.value);
            if (data.value.trim()) setError('');
          }}
          resize="vertical"
          rows={3}
        />
      </Field>
      <Button
        className={styles.add}
        appearance="primary"
        type="submit"
        icon={<NoteAddRegular />}
        disabled={add.busy}
      >
        {add.busy ? 'Adding...' : 'Add Note'}
      </Button>
    </form>
  );
}

/** What people wrote about the case, newest first. */
export function NotesTab({ caseId }: { caseId: string }) {
  const styles = useStyles();
  const can = useCan();
  const { data, error, mutate } = useNotes(caseId);
  return (
    <div className={styles.stack}>
      {can('legal:edit') ? (
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2 as="h2">Add a note</Subtitle2>} />
          <AddNote caseId={caseId} />
        </Card>
      ) : (
        <Caption1 className={styles.muted}>{needsPermission('legal:edit')} to add notes.</Caption1>
      )}
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2 as="h2">Notes</Subtitle2>} />
        {error && !data ? (
          <MessageBar intent="error">
            <MessageBarBody>The notes could not be loaded: {messageOf(error)}</MessageBarBody>
            <MessageBarActions>
              <Button onClick={() => void mutate()}>Try again</Button>
            </MessageBarActions>
          </MessageBar>
        ) : !data ? (
          <Skeleton aria-label="Loading notes">
            <SkeletonItem size={32} />
          </Skeleton>
        ) : data.notes.length ? (
          <ul className={styles.list} aria-label="Notes, newest first">
            {data.notes.map((note) => (
              <li key={note.id} className={styles.note}>
                <Body1 className={styles.text}>{note.text}</Body1>
                <Caption1 className={styles.muted}>
                  {note.by?.name ?? 'Lotwise'} · {formatMoment(note.at)}
                </Caption1>
              </li>
            ))}
          </ul>
        ) : (
          <Body1 className={styles.muted}>No notes yet.</Body1>
        )}
      </Card>
    </div>
  );
}
