import {
  Button,
  Caption1,
  makeStyles,
  ProgressBar,
  Subtitle2,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import { ArrowUploadRegular, DeleteRegular } from '@fluentui/react-icons';
import {
  MAX_PHOTO_BYTES,
  MAX_PHOTOS_PER_ITEM,
  photoContentTypes,
  type InventoryItem,
} from '@contracts/inventory/inventory.schema';
import { useRef, useState } from 'react';
import { useCan } from '../../../lib/auth-store';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useInventoryActions } from '../api/inventory';
import { PhotoThumb } from './item-style';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  header: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(112px, 1fr))',
    gap: tokens.spacingHorizontalS,
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
  tile: { position: 'relative' },
  photo: { width: '100% !important', height: 'auto !important', aspectRatio: '1' },
  remove: {
    position: 'absolute',
    top: tokens.spacingVerticalXS,
    right: tokens.spacingHorizontalXS,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  heading: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  hidden: { display: 'none' },
});

/** The item's photos: thumbnails, Add Photo (JPEG, PNG or WebP up to 10 MB) and Remove. */
export function ItemPhotos({ item }: { item: InventoryItem }) {
  const styles = useStyles();
  const notify = useNotify();
  const can = useCan();
  const actions = useInventoryActions();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const mayEdit = can('inventory:edit');
  const upload = useAction(
    async (file: File) => {
      if (!(photoContentTypes as readonly string[]).includes(file.type)) {
        throw new Error('Choose a JPEG, PNG or WebP image');
      }
      if (file.size > MAX_PHOTO_BYTES) throw new Error('A photo must be 10 MB or smaller');
      setProgress(0);
      try {
        await actions.uploadPhoto(item.id, file, setProgress);
      } finally {
        setProgress(null);
      }
      notify.success('Photo added');
    },
    { onError: (message) => notify.error('The photo was not added', message) },
  );
  const remove = useAction(
    async (photoId: string) => {
      await actions.removePhoto(item.id, photoId);
      notify.success('Photo removed');
    },
    { onError: (message) => notify.error('The photo was not removed', message) },
  );
  const full = item.photos.length >= MAX_PHOTOS_PER_ITEM;
  const busy = upload.busy || remove.busy;
  return (
    <section className={styles.section} aria-labelledby={`photos-${item.id}`}>
      <div className={styles.header}>
        <Subtitle2 as="h3" id={`photos-${item.id}`} className={styles.heading}>
          Photos ({item.photos.length})
        </Subtitle2>
        {mayEdit ? (
          <>
            <input
              ref={input}
              className={styles.hidden}
              type="file"
              accept={photoContentTypes.join(',')}
              aria-label="Choose a photo file"
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) void upload.run(file);
                event.target.value = '';
              }}
            />
            <Button
              size="small"
              icon={<ArrowUploadRegular />}
              disabled={busy || full}
              onClick={() => input.current?.click()}
            >
              Add Photo
            </Button>
          </>
        ) : null}
      </div>
      {progress !== null ? <ProgressBar value={progress} aria-label="Uploading the photo" /> : null}
      {item.photos.length ? (
        <ul className={styles.grid}>
          {item.photos.map((photo, index) => (
            <li key={photo.id} className={styles.tile}>
              <PhotoThumb
                itemId={item.id}
                photoId={photo.id}
                alt={`Photo ${index + 1} of ${item.title}`}
                size={112}
                className={styles.photo}
              />
              {mayEdit ? (
                <Tooltip content={`Remove photo ${index + 1}`} relationship="label">
                  <Button
                    className={styles.remove}
                    size="small"
                    icon={<DeleteRegular />}
                    disabled={busy}
                    onClick={() => void remove.run(photo.id)}
                  />
                </Tooltip>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <Caption1 className={styles.muted}>
          No photos yet.{mayEdit ? ' Add one: JPEG, PNG or WebP up to 10 MB.' : ''}
        </Caption1>
      )}
      {upload.error ? <Caption1 role="alert">{upload.error}</Caption1> : null}
    </section>
  );
}
