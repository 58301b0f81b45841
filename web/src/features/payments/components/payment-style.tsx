import { Badge, makeStyles, tokens, type BadgeProps } from '@fluentui/react-components';
import type { InvoiceStatus, PaymentStatus } from '@contracts/payments/payments.schema';
import type { StatementStatus } from '@contracts/payments/settlements/settlements.schema';
import { useLocation, useNavigate } from 'react-router';

const paymentColour = {
  Pending: 'warning',
  Processing: 'informative',
  Completed: 'success',
  Failed: 'danger',
  Refunded: 'subtle',
  Disputed: 'severe',
} as const satisfies Record<PaymentStatus, BadgeProps['color']>;

export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  return (
    <Badge appearance="tint" color={paymentColour[status]}>
      {status}
    </Badge>
  );
}

export const invoiceStatusLabels: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  approved: 'Approved',
  sent: 'Sent',
  viewed: 'Viewed',
  paid: 'Paid',
  void: 'Void',
};
const invoiceColour = {
  draft: 'subtle',
  approved: 'brand',
  sent: 'informative',
  viewed: 'informative',
  paid: 'success',
  void: 'subtle',
} as const satisfies Record<InvoiceStatus, BadgeProps['color']>;

export function InvoiceStatusBadge({
  status,
  overdue,
}: {
  status: InvoiceStatus;
  overdue?: boolean;
}) {
  return (
    <span style={{ display: 'inline-flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' }}>
      <Badge appearance={status === 'void' ? 'outline' : 'tint'} color={invoiceColour[status]}>
        {invoiceStatusLabels[status]}
      </Badge>
      {overdue ? (
        <Badge appearance="tint" color="danger">
          Overdue
        </Badge>
      ) : null}
    </span>
  );
}

export const statementStatusLabels: Record<StatementStatus, string> = {
  draft: 'Draft',
  approved: 'Approved',
  paid: 'Paid',
};
const statementColour = {
  draft: 'subtle',
  approved: 'brand',
  paid: 'success',
} as const satisfies Record<StatementStatus, BadgeProps['color']>;

export function StatementStatusBadge({ status }: { status: StatementStatus }) {
  return (
    <Badge appearance="tint" color={statementColour[status]}>
      {statementStatusLabels[status]}
    </Badge>
  );
}

const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
});
const dayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "May 12, 2026" for an instant, in the reader's zone. */
export const formatDate = (instant: string) => dateFormat.format(new Date(instant));
/** "May 12, 2026" for a calendar day (`2026-05-12`) or an instant's day. */
export const formatDay = (day: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(day)
    ? dayFormat.format(new Date(`${day}T00:00:00Z`))
    : formatDate(day);

/** Today on the reader's calendar (`2026-05-12`), as payment days are written. */
export function todayOnCalendar(now = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

/** Basis points as a percentage: 2600 -> "26%", 825 -> "8.25%". */
export const percentOfBps = (bps: number) => `${bps / 100}%`;

/** A record opened over the page by a query parameter (`?transaction=`), so it has an address. */
export function useOpenRecord(param: 'transaction' | 'invoice' | 'settlement') {
  const location = useLocation();
  const navigate = useNavigate();
  const id = new URLSearchParams(location.search).get(param);
  const withParam = (value: string | null) => {
    const next = new URLSearchParams(location.search);
    for (const other of ['transaction', 'invoice', 'settlement']) next.delete(other);
    if (value) next.set(param, value);
    const search = next.toString();
    return { pathname: location.pathname, search: search ? `?${search}` : '' };
  };
  return {
    id,
    open: (value: string) => navigate(withParam(value)),
    close: () => navigate(withParam(null), { replace: true }),
  };
}

/** The shared look of the payments lists and records. */
export const usePaymentStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  toolbar: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalM,
    alignItems: 'flex-end',
  },
  search: { flexGrow: 1, minWidth: '220px', maxWidth: '420px' },
  filter: { minWidth: '180px' },
  frame: {
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    overflowX: 'auto',
  },
  headerRow: { backgroundColor: tokens.colorNeutralBackground3 },
  row: { cursor: 'pointer' },
  strong: { fontWeight: tokens.fontWeightSemibold, whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground2 },
  clip: { display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  money: {
    fontVariantNumeric: 'tabular-nums',
    whiteSpace: 'nowrap',
    textAlign: 'right',
    // A header cell lays its text out in a flex box, which text-align does not move.
    '& .fui-TableHeaderCell__button': { justifyContent: 'flex-end' },
  },
  cards: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))',
    gap: tokens.spacingHorizontalM,
    padding: 0,
    margin: 0,
    listStyle: 'none',
  },
  card: { cursor: 'pointer', height: '100%', boxSizing: 'border-box' },
  cardHead: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalS,
  },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalM,
    rowGap: '2px',
    margin: 0,
    '& dt': { color: tokens.colorNeutralForeground2 },
    '& dd': { margin: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    textAlign: 'center',
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXL}`,
    color: tokens.colorNeutralForeground2,
  },
  more: { display: 'flex', justifyContent: 'center' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  sectionTitle: { margin: 0 },
  /** Label and amount rows of a breakdown, the total ruled off. */
  breakdown: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) auto',
    rowGap: tokens.spacingVerticalXS,
    // The space between label and amount is the amount's padding, so a total's rule is unbroken.
    columnGap: 0,
    margin: 0,
    '& dt': { color: tokens.colorNeutralForeground2 },
    '& dd': {
      margin: 0,
      paddingLeft: tokens.spacingHorizontalL,
      textAlign: 'right',
      fontVariantNumeric: 'tabular-nums',
    },
  },
  total: {
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    paddingTop: tokens.spacingVerticalXS,
    fontWeight: tokens.fontWeightSemibold,
    '&&': { color: tokens.colorNeutralForeground1 },
  },
  dialog: { maxWidth: '760px', width: '100%' },
  dialogContent: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
});
