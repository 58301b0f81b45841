import { Badge, makeStyles, tokens, type BadgeProps } from '@fluentui/react-components';
import type { UploadStatus } from '@contracts/uploads/uploads.schema';
import { statusLabels } from '../api/uploads';

const statusColour = {
  pending: 'subtle',
  uploading: 'informative',
  processing: 'brand',
  completed: 'success',
  error: 'danger',
} as const satisfies Record<UploadStatus, BadgeProps['color']>;

export function UploadStatusBadge({ status }: { status: UploadStatus }) {
  return (
    <Badge appearance="tint" color={statusColour[status]}>
      {statusLabels[status]}
    </Badge>
  );
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** "Nov 25, 2026, 8:12 AM", in the reader's zone. */
export const formatWhen = (instant: string) => dateFormat.format(new Date(instant));

/** The shared look of the Uploads & Processing tab. */
export const useUploadStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  sectionTitle: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground2 },
  toolbar: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    alignItems: 'flex-end',
  },
  search: { flexGrow: 1, minWidth: '220px', maxWidth: '420px' },
  // Side by side on a phone, below the search; never wider than their options need.
  filter: {
    flex: '1 1 150px',
    maxWidth: '240px',
    '@media (max-width: 600px)': { maxWidth: 'none' },
  },
  /** A dropdown as wide as its field (Fluent's own minimum would put each on its own line). */
  filterControl: { minWidth: 0, width: '100%' },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXL}`,
    color: tokens.colorNeutralForeground2,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke2}`,
  },
  more: { display: 'flex', justifyContent: 'center' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
});
