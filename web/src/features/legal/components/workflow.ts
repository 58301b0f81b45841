import { currencyExponent } from '@contracts/auctions/auctions.schema';
import {
  AUTO_REVIEW_AFTER_HOURS,
  DIRECTOR_APPROVAL_ABOVE,
  DISMISSED_CLOSE_AFTER_DAYS,
  RESOLVED_CLOSE_AFTER_DAYS,
  type LegalCase,
} from '@contracts/legal/legal.schema';
import { builtInId, type BuiltInKey, type WorkflowRule } from '@contracts/legal/rules/rules.schema';
import { formatMoney } from '../../../lib/money';
import { countOf } from '../../../lib/plural';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Whole units (rounded up) from now until `wait` after `since`; 0 once it is due. */
const left = (since: string, wait: number, unit: number, now: Date) =>
  Math.max(0, Math.ceil((new Date(since).getTime() + wait - now.getTime()) / unit));

/** Hours until a PENDING case moves to IN REVIEW: the automation counts from its filing. */
export const hoursUntilReview = (createdAt: string, now: Date) =>
  left(createdAt, AUTO_REVIEW_AFTER_HOURS * HOUR_MS, HOUR_MS, now);

/** The director's threshold in the case's currency: "$50,000". */
export const approvalThreshold = (currency: LegalCase['currency']) =>
  formatMoney(DIRECTOR_APPROVAL_ABOVE * 10 ** currencyExponent[currency], currency);

type NoticeCase = Pick<
  LegalCase,
  | 'status'
  | 'priority'
  | 'createdAt'
  | 'statusChangedAt'
  | 'settlementAmount'
  | 'settlementPayment'
  | 'currency'
>;

/**
 * Whether one of the account's built-in rules is on. Until the rules arrive they count as on,
 * as every account's are until someone switches one off.
 */
export const builtInEnabled = (rules: WorkflowRule[] | undefined) => (key: BuiltInKey) =>
  rules?.find((rule) => rule.id === builtInId(key))?.enabled ?? true;

/** What the automation will do for this case, in the order it matters. */
export function automationNotices(
  legalCase: NoticeCase,
  now: Date,
  enabled: (key: BuiltInKey) => boolean = () => true,
): string[] {
  const notices: string[] = [];
  const closesIn = (days: number, after: string) => {
    const remaining = left(legalCase.statusChangedAt, days * DAY_MS, DAY_MS, now);
    return remaining > 0
      ? `This case will close in ${countOf(remaining, 'day')}, ${after}.`
      : `This case is due to close now, ${after}.`;
  };
  if (legalCase.status === 'PENDING' && enabled('auto-review')) {
    const hours = hoursUntilReview(legalCase.createdAt, now);
    notices.push(
      hours > 0
        ? `This case will move to IN REVIEW in ${countOf(hours, 'hour')}.`
        : 'This case is due to move to IN REVIEW now.',
    );
  }
  if (
    legalCase.status === 'SETTLED' &&
    legalCase.settlementAmount !== null &&
    enabled('payment-closes-settled')
  ) {
    notices.push(
      legalCase.settlementPayment
        ? 'The settlement’s payment is recorded: this case closes on the next automation run.'
        : `This case will close when payment of the ${formatMoney(legalCase.settlementAmount, legalCase.currency)} settlement is confirmed.`,
    );
  }
  if (legalCase.status === 'RESOLVED') {
    notices.push(
      closesIn(RESOLVED_CLOSE_AFTER_DAYS, `${RESOLVED_CLOSE_AFTER_DAYS} days after its resolution`),
    );
  }
  if (legalCase.status === 'DISMISSED') {
    notices.push(closesIn(DISMISSED_CLOSE_AFTER_DAYS, 'as an administrative closure'));
  }
  if (legalCase.priority === 'critical' && enabled('critical-escalation')) {
    notices.push('The legal department head is notified of every update to this Critical case.');
  }
  return notices;
}
