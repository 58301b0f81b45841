import {
  Body1,
  Button,
  Caption1,
  Card,
  Dropdown,
  Field,
  Input,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Option,
  ProgressBar,
  Subtitle1,
  Text,
  Textarea,
  tokens,
  useId,
} from '@fluentui/react-components';
import {
  CloudArrowUpRegular,
  DismissRegular,
  DocumentRegular,
  FolderOpenRegular,
} from '@fluentui/react-icons';
import {
  MAX_UPLOAD_TOTAL_BYTES,
  UPLOAD_MESSAGES,
  uploadCategories,
  type Upload,
  type UploadCategory,
} from '@contracts/uploads/uploads.schema';
import { useRef, useState, type FormEvent } from 'react';
import { isUploadAborted, type FileProgress } from '../../../lib/block-upload';
import { LeaveGuard } from '../../../lib/leave-guard';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { categoryLabels, importsRows, useUploadActions } from '../api/uploads';
import {
  canSubmit,
  draftProblem,
  emptyDraft,
  sizeOf,
  totalBytes,
  withFiles,
  type UploadDraft,
} from './upload-form';
import { useUploadStyles } from './upload-style';

const useStyles = makeStyles({
  card: { gap: tokens.spacingVerticalM },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  drop: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    padding: `${tokens.spacingVerticalXL} ${tokens.spacingHorizontalL}`,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThick} dashed ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground2,
    textAlign: 'center',
  },
  dragging: {
    border: `${tokens.strokeWidthThick} dashed ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorBrandBackground2,
  },
  dropIcon: { color: tokens.colorBrandForeground1 },
  files: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
  file: {
    display: 'grid',
    gridTemplateColumns: 'auto minmax(0, 1fr) auto',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalXXS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  fileName: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  fileProgress: { gridColumn: '2 / 4' },
  overall: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  footer: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
  },
});

export interface UploadTracking {
  /** The upload exists on the server: it is shown at the top of the history. */
  onStarted(upload: Upload): void;
  /** The share of the upload's bytes sent so far, 0 to 1. */
  onProgress(uploadId: string, sent: number): void;
  /** The upload failed or was cancelled; its entry was removed and goes from the history. */
  onFailed(uploadId: string | null): void;
  /** The files of an importing category are in: its column mapping is next. */
  onMapping(upload: Upload): void;
  /** The files are in and queued for processing. */
  onSent(upload: Upload): void;
}

/**
 * New Upload (spec 2.7, 5): name, category, description and files (dropped or picked, 100 MB in
 * all). The files go straight to Blob Storage with progress per file and overall, and can be
 * cancelled on the way (leaving the page asks first). Files of a category that imports rows go
 * on to their column mapping; the others are processed straight away.
 */
export function NewUploadForm({ tracking }: { tracking: UploadTracking }) {
  const styles = useStyles();
  const shared = useUploadStyles();
  const notify = useNotify();
  const actions = useUploadActions();
  const titleId = useId('new-upload');
  const hintId = useId('drop-hint');
  const picker = useRef<HTMLInputElement>(null);
  const started = useRef<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  /** The send under way, to wait for its end (a cancel removes the upload first). */
  const settled = useRef<Promise<boolean>>(Promise.resolve(true));
  const [draft, setDraft] = useState<UploadDraft>(emptyDraft);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [sent, setSent] = useState<FileProgress | null>(null);

  const total = totalBytes(draft.files);
  const tooLarge = total > MAX_UPLOAD_TOTAL_BYTES;

  /** The form is done with this upload: empty again for the next. */
  const finish = () => {
    setDraft(emptyDraft);
    setSent(null);
    if (picker.current) picker.current.value = '';
  };
  const send = useAction(
    async (ready: UploadDraft & { category: UploadCategory }) => {
      started.current = null;
      const size = totalBytes(ready.files);
      const controller = new AbortController();
      abort.current = controller;
      setSent(ready.files.map(() => 0));
      const uploaded = await actions
        .send(
          { name: ready.name.trim(), category: ready.category, description: ready.description },
          ready.files,
          {
            signal: controller.signal,
            onStarted: (created) => {
              started.current = created.id;
              tracking.onStarted(created);
            },
            onProgress: (bytes) => {
              setSent(bytes);
              const share = size ? bytes.reduce((sum, value) => sum + value, 0) / size : 1;
              if (started.current) tracking.onProgress(started.current, Math.min(1, share));
            },
          },
        )
        .finally(() => {
          abort.current = null;
        });
      if (importsRows(ready.category)) {
        finish();
        tracking.onMapping(uploaded);
        return;
      }
      let upload: Upload;
      try {
        upload = await actions.complete(uploaded);
      } catch (error) {
        await actions.remove(uploaded).catch(() => undefined);
        throw error;
      }
      finish();
      tracking.onSent(upload);
      notify.success('Upload received', `"${upload.name}" is being processed.`);
    },
    {
      onError: (message, error) => {
        setSent(null);
        tracking.onFailed(started.current);
        if (isUploadAborted(error)) {
          notify.info('Upload cancelled', 'Nothing was kept. The form still holds your files.');
        } else notify.error(UPLOAD_MESSAGES.failed, message);
      },
    },
  );
  const busy = send.busy;

  const edit = (change: Partial<UploadDraft>) => {
    setDraft((current) => ({ ...current, ...change }));
    setProblem(null);
    send.reset();
  };
  const add = (chosen: FileList | null) => {
    if (chosen?.length) edit({ files: withFiles(draft.files, chosen) });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = draftProblem(draft);
    setProblem(found);
    if (found || !draft.category) return;
    settled.current = send.run({ ...draft, category: draft.category });
  };

  const sentBytes = sent?.reduce((sum, value) => sum + value, 0) ?? 0;
  const overall = total ? Math.min(1, sentBytes / total) : 0;
  /** Bytes are on their way (the upload can still be cancelled). */
  const sending = sent !== null && overall < 1;
  const cancel = () => abort.current?.abort();
  /** Cancels and waits until the upload is gone, so leaving the page loses nothing else. */
  const cancelAndWait = async () => {
    const running = send.busy;
    cancel();
    if (running) await settled.current;
  };
  const fieldError = (field: string) => send.fieldErrors[field];

  return (
    <Card className={styles.card} role="region" aria-labelledby={titleId}>
      <Subtitle1 as="h2" id={titleId} className={shared.sectionTitle}>
        New Upload
      </Subtitle1>
      <form className={styles.form} onSubmit={submit} noValidate>
        <Field label="Name" required validationMessage={fieldError('name')}>
          <Input
            value={draft.name}
            maxLength={200}
            disabled={busy}
            placeholder="e.g. Spring catalogue bidders"
            onChange={(_, data) => edit({ name: data.value })}
          />
        </Field>
        <Field label="Category" required validationMessage={fieldError('category')}>
          <Dropdown
            placeholder="Select a category"
            disabled={busy}
            value={draft.category ? categoryLabels[draft.category] : ''}
            selectedOptions={draft.category ? [draft.category] : []}
            onOptionSelect={(_, data) =>
              edit({ category: (data.optionValue as UploadCategory | undefined) ?? '' })
            }
          >
            {uploadCategories.map((category) => (
              <Option key={category} value={category}>
                {categoryLabels[category]}
              </Option>
            ))}
          </Dropdown>
        </Field>
        <Field label="Description" required validationMessage={fieldError('description')}>
          <Textarea
            value={draft.description}
            maxLength={2000}
            disabled={busy}
            resize="vertical"
            placeholder="What the files hold and where they came from"
            onChange={(_, data) => edit({ description: data.value })}
          />
        </Field>
        <div
          className={mergeClasses(styles.drop, dragging && styles.dragging)}
          data-testid="drop-zone"
          onDragOver={(event) => {
            event.preventDefault();
            if (!busy) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            if (!busy) add(event.dataTransfer.files);
          }}
        >
          <CloudArrowUpRegular fontSize={36} className={styles.dropIcon} aria-hidden="true" />
          <Body1>Drag and drop files here, or</Body1>
          <Button
            icon={<FolderOpenRegular />}
            disabled={busy}
            aria-describedby={hintId}
            onClick={() => picker.current?.click()}
          >
            Browse files
          </Button>
          <Caption1 id={hintId} className={shared.muted}>
            CSV, Excel (.xls, .xlsx), PDF, JSON, XML, text, images (JPG, PNG), Word, ZIP or database
            dumps. Up to 100MB in all.
          </Caption1>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-label="Choose files to upload"
            onChange={(event) => {
              add(event.target.files);
              event.target.value = '';
            }}
          />
        </div>
        {draft.files.length ? (
          <>
            <ul className={styles.files} aria-label="Selected files">
              {draft.files.map((file, index) => {
                const done = sent?.[index] ?? 0;
                return (
                  <li key={`${file.name}-${file.size}`} className={styles.file}>
                    <DocumentRegular fontSize={20} aria-hidden="true" />
                    <div className={styles.fileName}>
                      <Text title={file.name}>{file.name}</Text>{' '}
                      <Caption1 className={shared.muted}>{sizeOf(file.size)}</Caption1>
                    </div>
                    <Button
                      appearance="subtle"
                      icon={<DismissRegular />}
                      aria-label={`Remove ${file.name}`}
                      disabled={busy}
                      onClick={() =>
                        edit({ files: draft.files.filter((_, kept) => kept !== index) })
                      }
                    />
                    {sent ? (
                      <ProgressBar
                        className={styles.fileProgress}
                        value={file.size ? Math.min(1, done / file.size) : 1}
                        aria-label={`${file.name} upload progress`}
                        aria-valuetext={`${Math.round(file.size ? (done / file.size) * 100 : 100)}%`}
                      />
                    ) : null}
                  </li>
                );
              })}
            </ul>
            <Caption1 className={shared.muted} aria-live="polite">
              {countOf(draft.files.length, 'file')}, {sizeOf(total)} of 100MB
            </Caption1>
          </>
        ) : null}
        {tooLarge || problem ? (
          <MessageBar intent="error">
            <MessageBarBody>{tooLarge ? UPLOAD_MESSAGES.tooLarge : problem}</MessageBarBody>
          </MessageBar>
        ) : null}
        {sent ? (
          <div className={styles.overall}>
            <Text aria-hidden="true">
              {overall < 1
                ? `Uploading... ${Math.round(overall * 100)}%`
                : draft.category && importsRows(draft.category)
                  ? 'Reading the first rows...'
                  : 'Starting processing...'}
            </Text>
            <ProgressBar
              value={overall}
              thickness="large"
              aria-label="Overall upload progress"
              aria-valuetext={`${Math.round(overall * 100)}%`}
            />
          </div>
        ) : null}
        <div className={styles.footer}>
          <Button
            type="submit"
            appearance="primary"
            icon={<CloudArrowUpRegular />}
            disabled={!canSubmit(draft) || busy}
          >
            {busy ? 'Uploading...' : 'Upload Data'}
          </Button>
          {sending ? (
            <Button icon={<DismissRegular />} onClick={cancel}>
              Cancel upload
            </Button>
          ) : null}
          {draft.files.length && !busy ? (
            <Button appearance="subtle" onClick={() => edit({ files: [] })}>
              Clear files
            </Button>
          ) : null}
        </div>
      </form>
      <LeaveGuard
        active={sending}
        title="Leave while uploading?"
        message="Your files are still being uploaded. If you leave now, the upload is cancelled and nothing is kept."
        leaveLabel="Leave and cancel upload"
        busyLabel="Cancelling..."
        onLeave={cancelAndWait}
      />
    </Card>
  );
}
