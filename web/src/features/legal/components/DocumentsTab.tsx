import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dropdown,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Option,
  ProgressBar,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  ArrowDownloadRegular,
  ArrowUploadRegular,
  AttachRegular,
  DeleteRegular,
  DocumentRegular,
} from '@fluentui/react-icons';
import {
  DOCUMENT_ACCEPT,
  documentTypeLabels,
  documentTypes,
  type CaseDocument,
  type DocumentType,
} from '@contracts/legal/documents/documents.schema';
import { useRef, useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ApiError, messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { correctFieldsMessage } from '../../../lib/field-errors';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useDocuments, useLegalActions } from '../api/legal';
import { formatMoment } from './case-style';
import { checkUpload, formatBytes, nameFromFile, type UploadForm } from './document-form';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  form: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1.2fr) minmax(0, 1.2fr) minmax(0, 1fr) auto',
    gap: tokens.spacingHorizontalM,
    alignItems: 'start',
    '@media (max-width: 900px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  picker: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, minWidth: 0 },
  fileName: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  hiddenInput: { display: 'none' },
  wide: { gridColumn: '1 / -1' },
  dropdown: { minWidth: 0, width: '100%' },
  // Level with the inputs beside it, under their labels.
  submit: {
    marginTop: '26px',
    '@media (max-width: 900px)': { marginTop: 0, justifySelf: 'start' },
  },
  list: { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column' },
  item: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    paddingBlock: tokens.spacingVerticalS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
    ':last-child': { borderBottom: 'none' },
  },
  itemText: { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0, flexGrow: 1 },
  itemHead: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  itemActions: { display: 'flex', gap: tokens.spacingHorizontalXS, flexShrink: 0 },
  muted: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
});

const blankUpload = (): UploadForm & { file: File | null } => ({ file: null, name: '', type: '' });

/** Upload needs a file, a name and a type; choosing a file names the document after it. */
function UploadDocument({ caseId }: { caseId: string }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useLegalActions();
  const input = useRef<HTMLInputElement>(null);
  const [form, setForm] = useState(blankUpload);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState(0);
  const state = (key: string) => ({
    validationMessage: errors[key],
    validationState: errors[key] ? ('error' as const) : ('none' as const),
  });

  const upload = useAction(
    async (file: File, name: string, type: DocumentType) => {
      setProgress(0);
      await actions.upload(caseId, { file, name: name.trim(), type }, setProgress);
      notify.success('Document uploaded', `${name.trim()} is kept with the case.`);
      setForm(blankUpload());
      if (input.current) input.current.value = '';
    },
    {
      onError: (message, caught) => {
        const fields = caught instanceof ApiError ? caught.fieldErrors() : {};
        if (Object.keys(fields).length) {
          // A file part the service refused is the file chosen here.
          setErrors(
            Object.fromEntries(
              Object.entries(fields).map(([key, text]) => [/^file/.test(key) ? 'file' : key, text]),
            ),
          );
          notify.error(
            'The document was not uploaded',
            correctFieldsMessage(Object.keys(fields).length),
          );
        } else {
          notify.error('The document was not uploaded', message);
        }
      },
    },
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = checkUpload(form);
    setErrors(found);
    if (Object.keys(found).length || !form.file || !form.type) return;
    void upload.run(form.file, form.name, form.type);
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Upload a document">
      <Field label="File" required hint="PDF, DOC, DOCX, JPG or PNG." {...state('file')}>
        {({ 'aria-required': _required, ...fieldProps }) => (
          <div className={styles.picker}>
            <Button
              {...fieldProps}
              // Named by the field's label and its own text: "File Choose File".
              aria-labelledby={`${fieldProps['aria-labelledby'] ?? ''} ${fieldProps.id ?? ''}`}
              icon={<AttachRegular />}
              onClick={() => input.current?.click()}
              disabled={upload.busy}
            >
              Choose File
            </Button>
            <Caption1 className={styles.fileName}>
              {form.file ? `${form.file.name} (${formatBytes(form.file.size)})` : 'No file chosen'}
            </Caption1>
            <input
              ref={input}
              className={styles.hiddenInput}
              type="file"
              accept={DOCUMENT_ACCEPT}
              aria-label="Document file"
              onChange={(event) => {
                const file = event.target.files?.[0] ?? null;
                setForm((current) => ({
                  ...current,
                  file,
                  name: file ? nameFromFile(file.name) : current.name,
                }));
                setErrors((current) => {
                  const { file: _file, name: _name, ...rest } = current;
                  return rest;
                });
              }}
            />
          </div>
        )}
      </Field>
      <Field label="Name" required {...state('name')}>
        <Input
          value={form.name}
          onChange={(_, data) => setForm((current) => ({ ...current, name: data.value }))}
        />
      </Field>
      <Field label="Type" required {...state('type')}>
        <Dropdown
          className={styles.dropdown}
          placeholder="Choose..."
          value={form.type ? documentTypeLabels[form.type] : ''}
          selectedOptions={form.type ? [form.type] : []}
          onOptionSelect={(_, data) => {
            const chosen = documentTypes.find((type) => type === data.optionValue);
            if (chosen) setForm((current) => ({ ...current, type: chosen }));
          }}
        >
          {documentTypes.map((type) => (
            <Option key={type} value={type}>
              {documentTypeLabels[type]}
            </Option>
          ))}
        </Dropdown>
      </Field>
      <Button
        className={styles.submit}
        appearance="primary"
        type="submit"
        icon={<ArrowUploadRegular />}
        disabled={upload.busy}
      >
        {upload.busy ? 'Uploading...' : 'Upload'}
      </Button>
      {upload.busy ? (
        <Field
          label="Upload progress"
          validationMessage={`${Math.round(progress * 100)}% sent`}
          validationState="none"
          className={styles.wide}
        >
          <ProgressBar value={progress} />
        </Field>
      ) : null}
    </form>
  );
}

function DocumentRow({
  caseId,
  document,
  onDelete,
}: {
  caseId: string;
  document: CaseDocument;
  onDelete?(document: CaseDocument): void;
}) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useLegalActions();
  // The link works without the token, so the browser downloads it as any other file.
  const download = useAction(
    async () => {
      const link = await actions.documentLink(caseId, document.id);
      const anchor = window.document.createElement('a');
      anchor.href = link.url;
      anchor.rel = 'noopener';
      anchor.click();
    },
    { onError: (message) => notify.error('The document could not be downloaded', message) },
  );
  return (
    <li className={styles.item}>
      <DocumentRegular fontSize={24} aria-hidden="true" />
      <div className={styles.itemText}>
        <div className={styles.itemHead}>
          <Text weight="semibold">{document.name}</Text>
          <Badge appearance="tint" color="informative">
            {documentTypeLabels[document.type]}
          </Badge>
        </div>
        <Caption1 className={styles.muted}>
          {document.fileName} · {formatBytes(document.size)} ·{' '}
          {document.uploadedBy ? `${document.uploadedBy.name}, ` : ''}
          {formatMoment(document.uploadedAt)}
        </Caption1>
      </div>
      <div className={styles.itemActions}>
        <Button
          appearance="subtle"
          icon={<ArrowDownloadRegular />}
          aria-label={`Download ${document.name}`}
          disabled={download.busy}
          onClick={() => void download.run()}
        />
        {onDelete ? (
          <Button
            appearance="subtle"
            icon={<DeleteRegular />}
            aria-label={`Delete ${document.name}`}
            onClick={() => onDelete(document)}
          />
        ) : null}
      </div>
    </li>
  );
}

/** The case's files: filings, evidence, correspondence; uploaded, downloaded and removed here. */
export function DocumentsTab({ caseId }: { caseId: string }) {
  const styles = useStyles();
  const can = useCan();
  const notify = useNotify();
  const actions = useLegalActions();
  const mayView = can('legal:documents');
  const mayUpload = can('legal:documents_upload');
  const { data, error, mutate } = useDocuments(mayView ? caseId : null);
  const [deleting, setDeleting] = useState<CaseDocument | null>(null);

  return (
    <div className={styles.stack}>
      {mayUpload ? (
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2 as="h2">Upload a document</Subtitle2>} />
          <UploadDocument caseId={caseId} />
        </Card>
      ) : (
        <Caption1 className={styles.muted}>
          {needsPermission('legal:documents_upload')} to add documents.
        </Caption1>
      )}
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2 as="h2">Documents</Subtitle2>} />
        {!mayView ? (
          <Body1 className={styles.muted}>
            {needsPermission('legal:documents')} to see this case&apos;s documents.
          </Body1>
        ) : error && !data ? (
          <MessageBar intent="error">
            <MessageBarBody>The documents could not be loaded: {messageOf(error)}</MessageBarBody>
            <MessageBarActions>
              <Button onClick={() => void mutate()}>Try again</Button>
            </MessageBarActions>
          </MessageBar>
        ) : !data ? (
          <Skeleton aria-label="Loading documents">
            <SkeletonItem size={32} />
          </Skeleton>
        ) : data.documents.length ? (
          <ul className={styles.list} aria-label="Documents, newest first">
            {data.documents.map((document) => (
              <DocumentRow
                key={document.id}
                caseId={caseId}
                document={document}
                onDelete={mayUpload ? setDeleting : undefined}
              />
            ))}
          </ul>
        ) : (
          <Body1 className={styles.muted}>No documents yet.</Body1>
        )}
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'document'}?`}
        confirmLabel="Delete Document"
        busyLabel="Deleting..."
        danger
        failureTitle="The document was not deleted"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await actions.removeDocument(caseId, deleting.id);
          notify.success('Document deleted', `${deleting.name} is no longer kept with the case.`);
        }}
      >
        The file is removed from the case for everyone. The timeline keeps a record that it was
        deleted.
      </ConfirmDialog>
    </div>
  );
}
