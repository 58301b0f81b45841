import {
  Body1,
  Button,
  Caption1,
  Field,
  makeStyles,
  mergeClasses,
  ProgressBar,
  tokens,
} from '@fluentui/react-components';
import { ArrowUploadRegular, DeleteRegular, ImageRegular } from '@fluentui/react-icons';
import { MAX_LOGO_BYTES, logoTypes } from '@contracts/settings/settings.schema';
import { useRef, useState } from 'react';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useSettingsActions } from '../api/settings';

const useStyles = makeStyles({
  drop: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalL,
    flexWrap: 'wrap',
    padding: tokens.spacingHorizontalL,
    border: `${tokens.strokeWidthThick} dashed ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  dragging: {
    border: `${tokens.strokeWidthThick} dashed ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorBrandBackground2,
  },
  preview: {
    width: '200px',
    height: '80px',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    flexShrink: 0,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground3,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    '@media (max-width: 480px)': { width: '100%' },
  },
  image: { maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' },
  side: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    flex: '1 1 200px',
    minWidth: 0,
  },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  hidden: { display: 'none' },
});

/**
 * The portal logo: dropped or chosen, checked for type and size here for a quick answer (the
 * service checks the bytes again), uploaded at once and shown as buyers will see it.
 */
export function LogoUpload({ logoUrl, canEdit }: { logoUrl: string | null; canEdit: boolean }) {
  const styles = useStyles();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const { uploadLogo, removeLogo } = useSettingsActions();
  const upload = useAction(
    async (file: File) => {
      if (!(logoTypes as readonly string[]).includes(file.type)) {
        throw new Error('Choose a PNG, JPG or SVG image');
      }
      if (file.size > MAX_LOGO_BYTES) throw new Error('The logo must be 1 MB or smaller');
      setProgress(0);
      try {
        await uploadLogo(file, setProgress);
      } finally {
        setProgress(null);
      }
      notify.success('Logo uploaded');
    },
    { onError: (message) => notify.error('The logo was not uploaded', message) },
  );
  const remove = useAction(
    async () => {
      await removeLogo();
      notify.success('Logo removed');
    },
    { onError: (message) => notify.error('The logo was not removed', message) },
  );
  const choose = (files: FileList | null) => {
    const file = files?.[0];
    if (file) void upload.run(file);
    if (input.current) input.current.value = '';
  };
  const busy = upload.busy || remove.busy;
  return (
    <Field
      label="Logo"
      hint="PNG, JPG or SVG up to 1 MB; recommended 200x80px"
      validationMessage={upload.error ?? undefined}
    >
      <div
        className={mergeClasses(styles.drop, dragging && canEdit && styles.dragging)}
        onDragOver={(event) => {
          if (!canEdit) return;
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (canEdit && !busy) choose(event.dataTransfer.files);
        }}
      >
        <div className={styles.preview}>
          {logoUrl ? (
            <img className={styles.image} src={logoUrl} alt="Your portal logo" />
          ) : (
            <ImageRegular fontSize={32} aria-label="No logo yet" />
          )}
        </div>
        <div className={styles.side}>
          {canEdit ? <Body1>Drag a logo here, or choose one.</Body1> : null}
          {progress !== null ? (
            <ProgressBar value={progress} aria-label="Uploading the logo" />
          ) : null}
          <div className={styles.buttons}>
            <input
              ref={input}
              className={styles.hidden}
              type="file"
              accept={logoTypes.join(',')}
              aria-label="Choose a logo file"
              onChange={(event) => choose(event.target.files)}
            />
            <Button
              icon={<ArrowUploadRegular />}
              disabled={!canEdit || busy}
              onClick={() => input.current?.click()}
            >
              {logoUrl ? 'Replace Logo' : 'Choose Logo'}
            </Button>
            {logoUrl ? (
              <Button
                icon={<DeleteRegular />}
                appearance="subtle"
                disabled={!canEdit || busy}
                onClick={() => void remove.run()}
              >
                Remove
              </Button>
            ) : null}
          </div>
          {!logoUrl && !canEdit ? <Caption1 className={styles.muted}>No logo yet</Caption1> : null}
        </div>
      </div>
    </Field>
  );
}
