import { Badge, type BadgeProps } from '@fluentui/react-components';
import {
  priorityLabels,
  type CasePriority,
  type CaseStatus,
  type PartyType,
} from '@contracts/legal/legal.schema';

/** Where a case stands at a glance: the early steps cool, disputes warm, the ends green or grey. */
const statusColour = {
  SUBMITTED: 'informative',
  PENDING: 'warning',
  'IN REVIEW': 'brand',
  MEDIATION: 'severe',
  LITIGATION: 'danger',
  RESOLVED: 'success',
  SETTLED: 'success',
  DISMISSED: 'subtle',
  CLOSED: 'informative',
} as const satisfies Record<CaseStatus, BadgeProps['color']>;

export function CaseStatusBadge({ status }: { status: CaseStatus }) {
  return (
    <Badge appearance={status === 'CLOSED' ? 'outline' : 'tint'} color={statusColour[status]}>
      {status}
    </Badge>
  );
}

const priorityColour = {
  critical: 'danger',
  high: 'severe',
  medium: 'warning',
  low: 'informative',
} as const satisfies Record<CasePriority, BadgeProps['color']>;

export function PriorityBadge({ priority }: { priority: CasePriority }) {
  return (
    <Badge
      appearance={priority === 'critical' ? 'filled' : 'tint'}
      color={priorityColour[priority]}
    >
      {priorityLabels[priority]}
    </Badge>
  );
}

export const partyTypeLabels: Record<PartyType, string> = {
  individual: 'Individual',
  business: 'Business',
  government: 'Government',
  organization: 'Organization',
};

const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});
const momentFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "May 12, 2026" for an instant, in the reader's zone. */
export const formatDate = (instant: string) => dateFormat.format(new Date(instant));
/** "May 12, 2026, 6:30 PM" for an instant, in the reader's zone. */
export const formatMoment = (instant: string) => momentFormat.format(new Date(instant));
/** "May 12, 2026" for a calendar day (`2026-05-12`), which no zone moves. */
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

/** Today on the reader's calendar (`2026-05-12`), as due dates and payment days are written. */
export function todayOnCalendar(now = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}
