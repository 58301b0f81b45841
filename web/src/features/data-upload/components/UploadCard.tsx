import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Body1,
  Button,
  Caption1,
  Card,
  makeStyles,
  Menu,
  MenuButton,
  MessageBar,
  MessageBarBody,
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
  ArrowDownloadRegular,
  DeleteRegular,
  DocumentErrorRegular,
  DocumentRegular,
} from '@fluentui/react-icons';
import { importingCategories, type Upload } from '@contracts/uploads/uploads.schema';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { categoryLabels, isProcessing, useUploadActions, useUploadStatus } from '../api/uploads';
import { sizeOf } from './upload-form';
import { formatWhen, UploadStatusBadge, useUploadStyles } from './upload-style';

const useStyles = makeStyles({
  card: { gap: tokens.spacingVerticalS },
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

/**
 * One upload of the Processing History: what it is, its status (asked every 2 s while it is
 * processing), its counts and first errors, and Download, Download error report and Delete.
 */
export function UploadCard({
  upload: listed,
  sending,
  onChanged,
}: {
  upload: Upload;
  /** The share of its bytes this browser has sent, while it is sending them. */
  sending?: number;
  /** Its status moved on, or it was deleted: the history is read again. */
  onChanged(): Promise<unknown>;
}) {
  const styles = useStyles();
  const shared = useUploadStyles();
  const notify = useNotify();
  const actions = useUploadActions();
  const [deleting, setDeleting] = useState(false);
  const status = useUploadStatus(listed.id, isProcessing(listed.status));
  const live = status.data;
  const upload: Upload =
    live && live.uploadId === listed.id
      ? { ...listed, status: live.status, progress: live.progress, results: live.results }
      : listed;
  const moved = live && live.uploadId === listed.id && live.status !== listed.status;

  useEffect(() => {
    if (moved) void onChanged();
  }, [moved, onChanged]);

  const download = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      notify.error('Download failed', messageOf(error));
    }
  };

  const received = upload.files.filter((file) => file.received);
  const { results } = upload;
  // Rows that became records, or files kept as they are (the categories without an importer).
  const imports =
    (importingCategories as readonly string[]).includes(upload.category) &&
    !(results.notes ?? []).length;
  const progress =
    upload.status === 'uploading' && sending !== undefined ? sending * 100 : upload.progress;
  const moving = upload.status === 'uploading' || upload.status === 'processing';

  return (
    <li>
      <Card className={styles.card}>
        <div className={styles.head}>
          <div className={styles.title}>
            <Text weight="semibold" className={styles.name}>
              {upload.name}
            </Text>
            <Caption1 className={shared.muted}>
              {categoryLabels[upload.category]} · {formatWhen(upload.uploadDate)}
              {upload.uploadedBy ? ` · ${upload.uploadedBy.name}` : ''}
            </Caption1>
          </div>
          <UploadStatusBadge status={upload.status} />
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
        {moving ? (
          <div className={styles.progress}>
            <Caption1 aria-hidden="true">
              {upload.status === 'uploading' ? 'Uploading' : 'Processing'}... {Math.round(progress)}
              %
            </Caption1>
            <ProgressBar
              value={progress / 100}
              aria-label={`${upload.name} ${upload.status === 'uploading' ? 'upload' : 'processing'} progress`}
              aria-valuetext={`${Math.round(progress)}%`}
            />
          </div>
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
              className={
                results.errorCount ? `${styles.figure} ${styles.errorCount}` : styles.figure
              }
            >
              <dt>Errors</dt>
              <dd>{results.errorCount.toLocaleString()}</dd>
            </div>
          </dl>
        ) : null}
        {(results.notes ?? []).map((note, index) => (
          <MessageBar key={index} intent="info">
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
        <div className={shared.actions}>
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
          <Button
            size="small"
            appearance="subtle"
            icon={<DeleteRegular />}
            aria-label={`Delete ${upload.name}`}
            disabled={sending !== undefined}
            onClick={() => setDeleting(true)}
          >
            Delete
          </Button>
        </div>
      </Card>
      <ConfirmDialog
        open={deleting}
        title="Delete upload?"
        confirmLabel="Delete"
        busyLabel="Deleting..."
        danger
        failureTitle="The upload could not be deleted"
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await actions.remove(upload);
          await onChanged();
          notify.success('Upload deleted', `"${upload.name}" is no longer in the history.`);
        }}
      >
        {`"${upload.name}" and its stored files leave the Processing History. Records already imported from it stay in your account.`}
      </ConfirmDialog>
    </li>
  );
}
