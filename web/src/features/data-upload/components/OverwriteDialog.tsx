import {
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
} from '@fluentui/react-components';
import type { OverwritePreview, Upload } from '@contracts/uploads/uploads.schema';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useAction } from '../../../lib/use-action';
import { useOverwritePreview } from '../api/uploads';

const useStyles = makeStyles({
  surface: { maxWidth: '760px', width: '100%' },
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
  changes: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
  change: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  muted: { color: tokens.colorNeutralForeground2 },
  table: { tableLayout: 'fixed' },
  value: { overflowWrap: 'anywhere' },
  existing: { color: tokens.colorNeutralForeground2, textDecorationLine: 'line-through' },
});

/** A stored or imported value as a person reads it. */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (Array.isArray(value)) return value.map(shownValue).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number | boolean);
}

function Summary({ preview }: { preview: OverwritePreview }) {
  const styles = useStyles();
  const read = preview.complete
    ? `All ${countOf(preview.rowsRead, 'row')} of the upload were read`
    : `The first ${countOf(preview.rowsRead, 'row')} were read`;
  return (
    <>
      <MessageBar intent={preview.wouldUpdate ? 'warning' : 'info'} layout="multiline">
        <MessageBarBody>
          {read}:{' '}
          <strong>{countOf(preview.wouldUpdate, 'record')} on file would be overwritten</strong> and{' '}
          {countOf(preview.wouldCreate, 'new row')} would be added.
          {preview.complete ? '' : ' Rows after those are not in this preview.'}
        </MessageBarBody>
      </MessageBar>
      {preview.changes.length ? (
        <>
          {preview.changes.length < preview.wouldUpdate ? (
            <Caption1 className={styles.muted}>
              The first {preview.changes.length} of {countOf(preview.wouldUpdate, 'record')} that
              would change:
            </Caption1>
          ) : null}
          <ul className={styles.changes} aria-label="Records that would be overwritten">
            {preview.changes.map((change) => (
              <li
                key={`${change.entity}-${change.recordId}-${change.row}`}
                className={styles.change}
              >
                <div>
                  <Text weight="semibold">{change.title}</Text>
                  <Caption1 className={styles.muted}>
                    {' '}
                    · {change.entity} · {change.file}, row {change.row}
                  </Caption1>
                </div>
                <Table
                  size="small"
                  className={styles.table}
                  aria-label={`Changes to ${change.title}`}
                >
                  <TableHeader>
                    <TableRow>
                      <TableHeaderCell style={{ width: '28%' }}>Field</TableHeaderCell>
                      <TableHeaderCell>On file now</TableHeaderCell>
                      <TableHeaderCell>From the upload</TableHeaderCell>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {change.fields.map((field) => (
                      <TableRow key={field.field}>
                        <TableCell className={styles.value}>{field.field}</TableCell>
                        <TableCell className={mergeClasses(styles.value, styles.existing)}>
                          {shownValue(field.existing)}
                        </TableCell>
                        <TableCell className={styles.value}>{shownValue(field.imported)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <Body1>Nothing on file would change: the update would only add the new rows.</Body1>
      )}
    </>
  );
}

/**
 * Update all, after a look at what it would overwrite (issue 15): the records on file whose
 * fields the upload's rows would change, from the first rows read, then confirm.
 */
export function OverwriteDialog({
  upload,
  open,
  onClose,
  onConfirm,
}: {
  upload: Upload;
  open: boolean;
  onClose(): void;
  /** Starts the update run; the dialog closes when it resolves. */
  onConfirm(): Promise<unknown>;
}) {
  const styles = useStyles();
  const preview = useOverwritePreview(open ? upload.id : null);
  const confirm = useAction(async () => {
    await onConfirm();
    onClose();
  });
  const close = () => {
    if (confirm.busy) return;
    confirm.reset();
    onClose();
  };
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Update all from &ldquo;{upload.name}&rdquo;?</DialogTitle>
          <DialogContent className={styles.content}>
            <Body1>
              Update all imports the upload again and overwrites the records on file that share a
              row&apos;s key with what the upload holds. Undo import puts them back.
            </Body1>
            {preview.data ? (
              <Summary preview={preview.data} />
            ) : preview.error ? (
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody>
                  What would change could not be read: {messageOf(preview.error)}
                </MessageBarBody>
                <MessageBarActions>
                  <Button onClick={() => void preview.mutate()}>Try again</Button>
                </MessageBarActions>
              </MessageBar>
            ) : (
              <Spinner size="small" label="Reading what would change..." />
            )}
            {confirm.error ? (
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody>{confirm.error}</MessageBarBody>
              </MessageBar>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={confirm.busy}>
              Cancel
            </Button>
            <Button
              appearance="primary"
              disabled={!preview.data || preview.isValidating || confirm.busy}
              onClick={() => void confirm.run()}
            >
              {confirm.busy ? 'Starting...' : 'Update all'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
