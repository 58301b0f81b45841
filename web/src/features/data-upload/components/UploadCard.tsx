import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  makeStyles,
  mergeClasses,
  Menu,
  MenuButton,
  MenuDivider,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  ProgressBar,
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
  ArrowCounterclockwiseRegular,
  ArrowDownloadRegular,
  ArrowRepeatAllRegular,
  DeleteRegular,
  DismissRegular,
  DocumentErrorRegular,
  DocumentRegular,
  PlayRegular,
  TableSimpleRegular,
} from '@fluentui/react-icons';
import { undoRanToItsEnd, type ImportMode, type Upload } from '@contracts/uploads/uploads.schema';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ApiError, messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import {
  categoryLabels,
  importsRows,
  isStale,
  modeLabels,
  useUploadActions,
  useUploadStatus,
} from '../api/uploads';
import { notifyChanged } from './MappingStep';
import { OverwriteDialog } from './OverwriteDialog';
import { sizeOf } from './upload-form';
import { formatWhen, UploadStatusBadge, useUploadStyles } from './upload-style';
import { runFigures, UploadRuns } from './UploadRuns';

const useStyles = makeStyles({
  card: { gap: tokens.spacingVerticalS },
  highlighted: {
    outline: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`,
    outlineOffset: '2px',
  },
  badges: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS, flexShrink: 0 },
  undoText: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    '& p': { margin: 0 },
  },
  undoList: {
    margin: 0,
    paddingInlineStart: tokens.spacingHorizontalXL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
  },
  nameFocus: { ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` } },
  head: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalS,
  },
  title: { minWidth: 0, display: 'flex', flexDirection: 'column', gap: '2px' },
  name: { overflowWrap: 'anywhere' },
  files: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalXS,
    minWidth: 0,
    color: tokens.colorNeutralForeground2,
  },
  clip: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  description: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  counts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(96px, 1fr))',
    gap: tokens.spacingHorizontalS,
    margin: 0,
  },
  figure: {
    display: 'flex',
    flexDirection: 'column',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    // A label wrapped on a narrow screen keeps the three numbers on one line.
    justifyContent: 'space-between',
    '& dd': {
      margin: 0,
      fontSize: tokens.fontSizeBase400,
      fontWeight: tokens.fontWeightSemibold,
      fontVariantNumeric: 'tabular-nums',
    },
    '& dt': { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  },
  errorCount: { '& dd': { color: tokens.colorPaletteRedForeground1 } },
  errors: { overflowX: 'auto' },
  panel: { margin: 0 },
  progress: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
});

/** Results worth counting: the worker has begun, or finished, with the upload. */
const counted = (upload: Upload) =>
  upload.status === 'processing' || upload.status === 'completed' || upload.status === 'error';

type Asking = 'delete' | 'undo' | 'cancel' | 'cancel-upload' | 'update' | null;

/**
 * One upload of the Processing History: what it is, its status (asked every 2 s while it is
 * processing), its counts, first errors and runs, and its actions: Download, Download error
 * report, Re-run (new rows, failed rows, or update all after a look at what it overwrites),
 * Undo import, Cancel, Delete. Every change sends the upload's ETag; a 412 reloads the history.
 */
export function UploadCard({
  upload: listed,
  sending,
  highlighted = false,
  mappingOpen = false,
  onChanged,
  onMap,
}: {
  upload: Upload;
  /** The share of its bytes this browser has sent, while it is sending them. */
  sending?: number;
  /** Opened from a link (`?upload=<id>`): shown in view and marked. */
  highlighted?: boolean;
  /** Its column mapping is the step open above the history. */
  mappingOpen?: boolean;
  /** Its status moved on, or it was changed or deleted: the history is read again. */
  onChanged(): Promise<unknown>;
  /** Opens the column mapping of an upload whose files are in but not yet processed. */
  onMap(upload: Upload): void;
}) {
  const styles = useStyles();
  const shared = useUploadStyles();
  const notify = useNotify();
  const actions = useUploadActions();
  const name = useRef<HTMLSpanElement>(null);
  const [asking, setAsking] = useState<Asking>(null);
  const status = useUploadStatus(listed);
  const live = status.data;
  const upload: Upload =
    live && live.uploadId === listed.id
      ? { ...listed, status: live.status, progress: live.progress, results: live.results }
      : listed;
  const moved = live && live.uploadId === listed.id && live.status !== listed.status;

  useEffect(() => {
    if (moved) void onChanged();
  }, [moved, onChanged]);

  useEffect(() => {
    if (!highlighted) return;
    name.current?.scrollIntoView({ block: 'center' });
    name.current?.focus({ preventScroll: true });
  }, [highlighted]);

  const download = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      // The spec's words, "Download failed: {status} {statusText}", then the service's reason.
      const status =
        error instanceof ApiError && error.status > 0
          ? `: ${error.status} ${error.statusText ?? ''}`.trimEnd()
          : '';
      notify.error(`Download failed${status}`, messageOf(error));
    }
  };

  /** A change guarded by the upload's ETag: a 412 reloads the history and says why. */
  const guarded = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      if (!isStale(error)) throw error;
      await onChanged();
      notifyChanged(notify);
    }
  };

  const rerun = useAction(
    (mode: ImportMode) =>
      guarded(async () => {
        await actions.rerun(upload, { mode });
        await onChanged();
        notify.success('Re-run started', `"${upload.name}": ${modeLabels[mode].toLowerCase()}.`);
      }),
    { onError: (message) => notify.error('The upload was not re-run', message) },
  );
  const process = useAction(
    () =>
      guarded(async () => {
        await actions.complete(upload);
        await onChanged();
        notify.success('Processing started', `"${upload.name}" is being processed.`);
      }),
    { onError: (message) => notify.error('Processing did not start', message) },
  );

  const received = upload.files.filter((file) => file.received);
  const { results } = upload;
  const importing = importsRows(upload.category);
  // Rows that became records, or files kept as they are (the categories without an importer).
  const imports = importing;
  const progress =
    upload.status === 'uploading' && sending !== undefined ? sending * 100 : upload.progress;
  const moving = upload.status === 'uploading' || upload.status === 'processing';
  const finished = upload.status === 'completed' || upload.status === 'error';
  const lastRun = upload.runs.at(-1);
  const undoing = upload.status === 'processing' && lastRun?.kind === 'undo';
  const lastUndo = upload.undone
    ? [...upload.runs].reverse().find((run) => run.kind === 'undo')
    : undefined;
  // What an undo that ran to its end took back is gone: only imports since then can be undone.
  const sinceUndo = upload.runs.slice(upload.runs.findLastIndex(undoRanToItsEnd) + 1);
  const wrote = sinceUndo.some((run) => run.kind === 'import' && run.created + run.updated > 0);
  const canRerun = importing && finished && upload.files.every((file) => file.received);
  const canUndo = importing && finished && !upload.undone && wrote;
  const stranded = upload.status === 'uploading' && sending === undefined;
  // The worker also words an undo's figures as a note; the Import undone bar shows them already.
  const notes = (results.notes ?? []).filter((note) => !(lastUndo && note.kind === 'undo'));
  const busy = rerun.busy || process.busy;

  return (
    <li>
      <Card className={mergeClasses(styles.card, highlighted && styles.highlighted)}>
        <div className={styles.head}>
          <div className={styles.title}>
            <Text
              weight="semibold"
              className={mergeClasses(styles.name, styles.nameFocus)}
              ref={name}
              tabIndex={highlighted ? -1 : undefined}
            >
              {upload.name}
            </Text>
            <Caption1 className={shared.muted}>
              {categoryLabels[upload.category]} · {formatWhen(upload.uploadDate)}
              {upload.uploadedBy ? ` · ${upload.uploadedBy.name}` : ''}
            </Caption1>
          </div>
          <div className={styles.badges}>
            {upload.undone ? (
              <Badge appearance="outline" color="informative">
                Undone
              </Badge>
            ) : null}
            <UploadStatusBadge status={upload.status} />
          </div>
        </div>
        <div className={styles.files}>
          <DocumentRegular aria-hidden="true" />
          <Caption1
            className={styles.clip}
            title={upload.files.map((file) => file.name).join(', ')}
          >
            {upload.files.length === 1
              ? upload.files[0]?.name
              : `${countOf(upload.files.length, 'file')}: ${upload.files.map((file) => file.name).join(', ')}`}{' '}
            ({sizeOf(upload.totalBytes)})
          </Caption1>
        </div>
        {upload.description ? (
          <Body1 className={styles.description}>{upload.description}</Body1>
        ) : null}
        {stranded ? (
          <MessageBar intent="info" layout="multiline">
            <MessageBarBody>
              {!importing
                ? 'Its files are uploaded but it has not been processed yet.'
                : mappingOpen
                  ? 'Waiting for its column mapping, open above.'
                  : 'Waiting for its column mapping: choose Map columns to check it and start processing.'}
            </MessageBarBody>
          </MessageBar>
        ) : moving ? (
          <div className={styles.progress}>
            <Caption1 aria-hidden="true">
              {upload.status === 'uploading'
                ? 'Uploading'
                : upload.cancelRequested
                  ? 'Stopping at the next checkpoint'
                  : undoing
                    ? 'Undoing'
                    : 'Processing'}
              ... {Math.round(progress)}%
            </Caption1>
            <ProgressBar
              value={progress / 100}
              aria-label={`${upload.name} ${upload.status === 'uploading' ? 'upload' : undoing ? 'undo' : 'processing'} progress`}
              aria-valuetext={`${Math.round(progress)}%`}
            />
          </div>
        ) : null}
        {lastUndo ? (
          <MessageBar intent="success" layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>Import undone</MessageBarTitle>
              {runFigures(lastUndo)}.
              {lastUndo.kept ? ' Records edited since the import were kept as they are.' : ''}
            </MessageBarBody>
          </MessageBar>
        ) : null}
        {counted(upload) ? (
          <dl className={styles.counts}>
            <div className={styles.figure}>
              <dt>Records processed</dt>
              <dd>{results.recordsProcessed.toLocaleString()}</dd>
            </div>
            <div className={styles.figure}>
              <dt>{imports ? 'Imported' : 'Stored'}</dt>
              <dd>{results.recordsImported.toLocaleString()}</dd>
            </div>
            {results.duplicates ? (
              <div className={styles.figure}>
                <dt>Already on file</dt>
                <dd>{results.duplicates.toLocaleString()}</dd>
              </div>
            ) : null}
            <div
              className={mergeClasses(styles.figure, results.errorCount > 0 && styles.errorCount)}
            >
              <dt>Errors</dt>
              <dd>{results.errorCount.toLocaleString()}</dd>
            </div>
          </dl>
        ) : null}
        {notes.map((note, index) => (
          <MessageBar key={index} intent="info" layout="multiline">
            <MessageBarBody>
              {note.file ? <strong>{note.file}: </strong> : null}
              {note.message}
            </MessageBarBody>
          </MessageBar>
        ))}
        {results.errors.length ? (
          <Accordion collapsible>
            <AccordionItem value="errors">
              <AccordionHeader size="small">
                {results.errorCount > results.errors.length
                  ? `First ${results.errors.length} of ${countOf(results.errorCount, 'error')}`
                  : `Show ${countOf(results.errors.length, 'error')}`}
              </AccordionHeader>
              <AccordionPanel className={styles.panel}>
                <div className={styles.errors}>
                  <Table size="small" aria-label={`Errors in ${upload.name}`}>
                    <TableHeader>
                      <TableRow>
                        <TableHeaderCell style={{ width: '64px' }}>Row</TableHeaderCell>
                        <TableHeaderCell style={{ width: '28%' }}>Field</TableHeaderCell>
                        <TableHeaderCell>Message</TableHeaderCell>
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {results.errors.map((problem, index) => (
                        <TableRow key={`${problem.file ?? ''}-${problem.row ?? ''}-${index}`}>
                          <TableCell>{problem.row ?? '—'}</TableCell>
                          <TableCell>{problem.field ?? '—'}</TableCell>
                          <TableCell>
                            {upload.files.length > 1 && problem.file
                              ? `${problem.file}: ${problem.message}`
                              : problem.message}
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </div>
              </AccordionPanel>
            </AccordionItem>
          </Accordion>
        ) : null}
        {upload.runs.length ? <UploadRuns runs={upload.runs} uploadName={upload.name} /> : null}
        <div className={shared.actions}>
          {stranded && !mappingOpen ? (
            importing ? (
              <Button
                size="small"
                appearance="primary"
                icon={<TableSimpleRegular />}
                aria-label={`Map columns of ${upload.name}`}
                onClick={() => onMap(upload)}
              >
                Map columns
              </Button>
            ) : (
              <Button
                size="small"
                appearance="primary"
                icon={<PlayRegular />}
                disabled={busy}
                onClick={() => void process.run()}
              >
                {process.busy ? 'Starting...' : 'Start processing'}
              </Button>
            )
          ) : null}
          {received.length === 1 && received[0] ? (
            <Button
              size="small"
              icon={<ArrowDownloadRegular />}
              aria-label={`Download ${received[0].name}`}
              onClick={() => {
                const file = received[0];
                if (file) void download(() => actions.downloadOriginal(upload, file.index));
              }}
            >
              Download
            </Button>
          ) : received.length > 1 ? (
            <Menu>
              <MenuTrigger disableButtonEnhancement>
                <MenuButton
                  size="small"
                  icon={<ArrowDownloadRegular />}
                  aria-label={`Download files of ${upload.name}`}
                >
                  Download
                </MenuButton>
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  {received.map((file) => (
                    <MenuItem
                      key={file.index}
                      onClick={() =>
                        void download(() => actions.downloadOriginal(upload, file.index))
                      }
                    >
                      {file.name}
                    </MenuItem>
                  ))}
                </MenuList>
              </MenuPopover>
            </Menu>
          ) : null}
          {results.errorCount && !moving ? (
            <Button
              size="small"
              icon={<DocumentErrorRegular />}
              aria-label={`Download error report of ${upload.name}`}
              onClick={() => void download(() => actions.downloadErrors(upload))}
            >
              Download error report
            </Button>
          ) : null}
          {canRerun ? (
            <Menu>
              <MenuTrigger disableButtonEnhancement>
                <MenuButton
                  size="small"
                  icon={<ArrowRepeatAllRegular />}
                  aria-label={`Re-run ${upload.name}`}
                  disabled={busy}
                >
                  {rerun.busy ? 'Starting...' : 'Re-run'}
                </MenuButton>
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  <MenuItem onClick={() => void rerun.run('new')}>{modeLabels.new}</MenuItem>
                  <MenuItem disabled={!results.errorCount} onClick={() => void rerun.run('failed')}>
                    {modeLabels.failed}
                  </MenuItem>
                  <MenuDivider />
                  <MenuItem onClick={() => setAsking('update')}>{modeLabels.update}...</MenuItem>
                </MenuList>
              </MenuPopover>
            </Menu>
          ) : null}
          {canUndo ? (
            <Button
              size="small"
              icon={<ArrowCounterclockwiseRegular />}
              aria-label={`Undo import of ${upload.name}`}
              disabled={busy}
              onClick={() => setAsking('undo')}
            >
              Undo import
            </Button>
          ) : null}
          {upload.status === 'processing' && !upload.cancelRequested ? (
            <Button
              size="small"
              icon={<DismissRegular />}
              aria-label={`Cancel processing of ${upload.name}`}
              onClick={() => setAsking('cancel')}
            >
              Cancel
            </Button>
          ) : null}
          {stranded ? (
            <Button
              size="small"
              icon={<DismissRegular />}
              aria-label={`Cancel upload of ${upload.name}`}
              disabled={busy}
              onClick={() => setAsking('cancel-upload')}
            >
              Cancel upload
            </Button>
          ) : (
            <Button
              size="small"
              appearance="subtle"
              icon={<DeleteRegular />}
              aria-label={`Delete ${upload.name}`}
              disabled={sending !== undefined || busy}
              onClick={() => setAsking('delete')}
            >
              Delete
            </Button>
          )}
        </div>
      </Card>
      <ConfirmDialog
        open={asking === 'delete'}
        title="Delete upload?"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        danger
        failureTitle="The upload could not be deleted"
        onClose={() => setAsking(null)}
        onConfirm={async () => {
          await actions.remove(upload);
          await onChanged();
          notify.success('Upload deleted', `"${upload.name}" is no longer in the history.`);
        }}
      >
        {`"${upload.name}" and its stored files leave the Processing History. Records already imported from it stay in your account.`}
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'undo'}
        title="Undo this import?"
        confirmLabel="Undo import"
        cancelLabel="Keep it"
        busyLabel="Starting..."
        danger
        failureTitle="The import was not undone"
        onClose={() => setAsking(null)}
        onConfirm={() =>
          guarded(async () => {
            await actions.undo(upload);
            await onChanged();
            notify.success('Undo started', `What "${upload.name}" imported is being taken back.`);
          })
        }
      >
        <div className={styles.undoText}>
          <Body1 as="p">
            Everything the runs of &ldquo;{upload.name}&rdquo; wrote is taken back:
          </Body1>
          <ul className={styles.undoList}>
            <li>
              <Body1>Records it created are removed.</Body1>
            </li>
            <li>
              <Body1>Records it changed are put back as they were before.</Body1>
            </li>
            <li>
              <Body1>Records someone edited since the import are kept as they are.</Body1>
            </li>
          </ul>
          <Body1 as="p">The upload and its files stay, so it can be run again.</Body1>
        </div>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'cancel'}
        title="Cancel processing?"
        confirmLabel="Cancel processing"
        cancelLabel="Keep processing"
        busyLabel="Cancelling..."
        danger
        failureTitle="Processing was not cancelled"
        onClose={() => setAsking(null)}
        onConfirm={() =>
          guarded(async () => {
            await actions.cancel(upload);
            await onChanged();
            notify.info('Cancelling', `"${upload.name}" stops at its next checkpoint.`);
          })
        }
      >
        {undoing
          ? 'The undo stops at its next checkpoint. Records it has taken back by then stay taken back; Undo import can be run again to finish it.'
          : importing
            ? 'Processing stops at its next checkpoint. Records imported until then stay; Undo import removes them.'
            : 'Processing stops at its next checkpoint.'}
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'cancel-upload'}
        title="Cancel this upload?"
        confirmLabel="Cancel upload"
        cancelLabel="Keep it"
        busyLabel="Cancelling..."
        danger
        failureTitle="The upload was not cancelled"
        onClose={() => setAsking(null)}
        onConfirm={() =>
          guarded(async () => {
            await actions.cancel(upload);
            await onChanged();
            notify.info('Upload cancelled', `"${upload.name}" and its files were removed.`);
          })
        }
      >
        {`Its files are removed and nothing is imported from "${upload.name}".`}
      </ConfirmDialog>
      {canRerun ? (
        <OverwriteDialog
          upload={upload}
          open={asking === 'update'}
          onClose={() => setAsking(null)}
          onConfirm={() =>
            guarded(async () => {
              await actions.rerun(upload, { mode: 'update' });
              await onChanged();
              notify.success('Re-run started', `"${upload.name}": update all.`);
            })
          }
        />
      ) : null}
    </li>
  );
}
