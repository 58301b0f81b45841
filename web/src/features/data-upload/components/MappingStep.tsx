import {
  Body1,
  Button,
  Card,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  tokens,
  typographyStyles,
  useId,
} from '@fluentui/react-components';
import { DismissRegular, PlayRegular } from '@fluentui/react-icons';
import type { ColumnMapping, Upload, UploadPreview } from '@contracts/uploads/uploads.schema';
import { useEffect, useRef, useState } from 'react';
import { ColumnMappingEditor } from '../../../components/ColumnMappingEditor';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { messageOf } from '../../../lib/api-client';
import {
  initialMappings,
  mappableFiles,
  mappingsReady,
  toFileMappings,
  type Mappings,
} from '../../../lib/column-mapping';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { categoryLabels, isStale, useUploadActions, useUploadPreview } from '../api/uploads';
import { useUploadStyles } from './upload-style';

const useStyles = makeStyles({
  card: { gap: tokens.spacingVerticalM, borderTop: `3px solid ${tokens.colorBrandStroke1}` },
  head: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS },
  title: {
    ...typographyStyles.subtitle1,
    margin: 0,
    overflowWrap: 'anywhere',
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  footer: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
  },
});

export interface MappingStepProps {
  upload: Upload;
  /** Processing was queued with the mapping. */
  onQueued(upload: Upload): void;
  /** The upload was cancelled, or changed elsewhere: the step closes and the history reloads. */
  onClosed(): void;
}

function Ready({
  upload,
  preview,
  onQueued,
  onClosed,
  onCancel,
}: MappingStepProps & { preview: UploadPreview; onCancel(): void }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useUploadActions();
  const [mappings, setMappings] = useState<Mappings>(() => initialMappings(preview));
  const ready = mappingsReady(preview, mappings);

  const start = useAction(async () => {
    try {
      const queued = await actions.complete(upload, {
        mappings: toFileMappings(preview, mappings),
      });
      notify.success('Processing started', `"${upload.name}" is being processed.`);
      onQueued(queued);
    } catch (error) {
      if (!isStale(error)) throw error;
      notifyChanged(notify);
      onClosed();
    }
  });

  return (
    <>
      <ColumnMappingEditor
        preview={preview}
        mappings={mappings}
        disabled={start.busy}
        onChange={(file: number, mapping: ColumnMapping) =>
          setMappings((current) => ({ ...current, [file]: mapping }))
        }
      />
      {mappableFiles(preview).length === 0 ? (
        <MessageBar intent="info" layout="multiline">
          <MessageBarBody>
            No file here holds rows to map. Processing lists what it cannot read as errors.
          </MessageBarBody>
        </MessageBar>
      ) : null}
      {start.error ? (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{start.error}</MessageBarBody>
        </MessageBar>
      ) : null}
      <div className={styles.footer}>
        <Button
          appearance="primary"
          icon={<PlayRegular />}
          disabled={!ready || start.busy}
          onClick={() => void start.run()}
        >
          {start.busy ? 'Starting...' : 'Start processing'}
        </Button>
        <Button icon={<DismissRegular />} disabled={start.busy} onClick={onCancel}>
          Cancel upload
        </Button>
      </div>
    </>
  );
}

/** The upload changed somewhere else (412): the history is read again. */
export function notifyChanged(notify: ReturnType<typeof useNotify>) {
  notify.warning(
    'This upload changed',
    'It was changed somewhere else since this page read it. The history has been reloaded; check it and try again.',
  );
}

/**
 * Map columns (issue 15): after the files of an importing category are in Blob Storage and
 * before `complete`, each tabular file's first rows with the detected mapping, a field per
 * source column, and Start processing with the mapping chosen.
 */
export function MappingStep(props: MappingStepProps) {
  const { upload } = props;
  const styles = useStyles();
  const shared = useUploadStyles();
  const titleId = useId('mapping');
  const title = useRef<HTMLHeadingElement>(null);
  const preview = useUploadPreview(upload.id);
  const notify = useNotify();
  const actions = useUploadActions();
  const [cancelling, setCancelling] = useState(false);

  // The step takes the reader's attention when it opens.
  useEffect(() => {
    title.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    title.current?.focus({ preventScroll: true });
  }, [upload.id]);

  return (
    <Card className={styles.card} role="region" aria-labelledby={titleId}>
      <div className={styles.head}>
        <h2 id={titleId} ref={title} tabIndex={-1} className={styles.title}>
          Map columns: {upload.name}
        </h2>
        <Body1 className={shared.muted}>
          {categoryLabels[upload.category]}. The files are uploaded. Check which field each column
          fills (the first rows show what it holds), then start processing. Columns set to Ignore
          are not imported.
        </Body1>
      </div>
      {preview.data ? (
        <Ready
          key={upload.id}
          {...props}
          preview={preview.data}
          onCancel={() => setCancelling(true)}
        />
      ) : preview.error ? (
        <>
          <MessageBar intent="error" layout="multiline">
            <MessageBarBody>
              The first rows could not be read: {messageOf(preview.error)}
            </MessageBarBody>
            <MessageBarActions>
              <Button onClick={() => void preview.mutate()}>Try again</Button>
            </MessageBarActions>
          </MessageBar>
          <div className={styles.footer}>
            <Button icon={<DismissRegular />} onClick={() => setCancelling(true)}>
              Cancel upload
            </Button>
          </div>
        </>
      ) : (
        <Skeleton aria-label="Reading the first rows">
          {[0, 1, 2, 3].map((row) => (
            <SkeletonItem key={row} size={40} style={{ marginBottom: 8 }} />
          ))}
        </Skeleton>
      )}
      <ConfirmDialog
        open={cancelling}
        title="Cancel this upload?"
        confirmLabel="Cancel upload"
        cancelLabel="Keep it"
        busyLabel="Cancelling..."
        danger
        failureTitle="The upload was not cancelled"
        onClose={() => setCancelling(false)}
        onConfirm={async () => {
          try {
            await actions.cancel(upload);
            notify.info('Upload cancelled', `"${upload.name}" and its files were removed.`);
          } catch (error) {
            if (!isStale(error)) throw error;
            notifyChanged(notify);
          }
          props.onClosed();
        }}
      >
        {`Its files are removed and nothing is imported from "${upload.name}".`}
      </ConfirmDialog>
    </Card>
  );
}
