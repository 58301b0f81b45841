import { notify } from '../notifications/notifications.service.js';
import { sendMessage } from '../platform/mail.js';
import { systemContext } from '../platform/context.js';
import type { Logger } from '../platform/logging.js';
import { automationCandidates, type CaseRecord, type NonPaymentRecord } from './legal.repo.js';
import {
  AUTO_REVIEW_AFTER_HOURS,
  DISMISSED_CLOSE_AFTER_DAYS,
  NON_PAYMENT_REMINDERS,
  NON_PAYMENT_REMINDER_EVERY_DAYS,
  REMINDER_AFTER_DAYS,
  RESOLVED_CLOSE_AFTER_DAYS,
  type CaseStatus,
} from './legal.schema.js';
import {
  DAY_MS,
  eventOf,
  money,
  moveFields,
  reviseCase,
  statusEvent,
  type Revision,
} from './legal.service.js';
import { builtInSwitches, type BuiltInSwitches } from './rules/rules.repo.js';
import { runRulesFor } from './rules/rules.service.js';

const HOUR_MS = 3_600_000;

const before = (now: Date, ms: number) => new Date(now.getTime() - ms).toISOString();

interface Cutoffs {
  review: string;
  resolved: string;
  dismissed: string;
  quiet: string;
  now: string;
}

const cutoffsAt = (now: Date): Cutoffs => ({
  now: now.toISOString(),
  review: before(now, AUTO_REVIEW_AFTER_HOURS * HOUR_MS),
  resolved: before(now, RESOLVED_CLOSE_AFTER_DAYS * DAY_MS),
  dismissed: before(now, DISMISSED_CLOSE_AFTER_DAYS * DAY_MS),
  quiet: before(now, REMINDER_AFTER_DAYS * DAY_MS),
});

/** The move automation makes of a case as it is now, if any, and why. */
function dueMove(
  record: CaseRecord,
  cutoffs: Cutoffs,
  rules: BuiltInSwitches,
): [CaseStatus, string] | null {
  if (record.automationPaused || record.pendingApproval) return null;
  if (rules['auto-review'] && record.status === 'PENDING' && record.createdAt <= cutoffs.review) {
    return ['IN REVIEW', `Automatic: ${AUTO_REVIEW_AFTER_HOURS} hours after submission`];
  }
  if (record.status === 'RESOLVED' && record.statusChangedAt <= cutoffs.resolved) {
    return ['CLOSED', `Automatic: ${RESOLVED_CLOSE_AFTER_DAYS} days after resolution`];
  }
  if (record.status === 'DISMISSED' && record.statusChangedAt <= cutoffs.dismissed) {
    return ['CLOSED', `Automatic: administrative closure after ${DISMISSED_CLOSE_AFTER_DAYS} days`];
  }
  if (rules['payment-closes-settled'] && record.status === 'SETTLED' && record.settlementPayment) {
    return ['CLOSED', 'Automatic: payment received'];
  }
  return null;
}

const isQuiet = (record: CaseRecord, cutoffs: Cutoffs, rules: BuiltInSwitches) =>
  rules['inactivity-reminder'] &&
  !record.automationPaused &&
  record.active &&
  record.assignedTo !== null &&
  record.updatedAt <= cutoffs.quiet &&
  (record.remindedAt === null || record.remindedAt <= cutoffs.quiet);

/** A non-paying bidder's next reminder is due (spec: three, a week apart, while unpaid). */
const reminderDue = (record: CaseRecord, now: string) =>
  !record.automationPaused &&
  record.active &&
  !!record.nonPayment &&
  record.nonPayment.payment === null &&
  record.nonPayment.nextReminderAt !== null &&
  record.nonPayment.nextReminderAt <= now &&
  record.nonPayment.reminders.length < NON_PAYMENT_REMINDERS;

/**
 * The reminder's record, and the mail to the bidder once the record has landed: a run that loses
 * a race to write it sends nothing, so the bidder gets each reminder once.
 */
function bidderReminder(record: CaseRecord, now: string, at: Date): Revision {
  const nonPayment = record.nonPayment as NonPaymentRecord;
  const number = nonPayment.reminders.length + 1;
  const to = record.defendant.email || null;
  const last = number >= NON_PAYMENT_REMINDERS;
  const amount = money(nonPayment.amountDue, record.currency);
  const auction = record.auction?.title ?? 'our auction';
  const saleDay = nonPayment.saleDate.slice(0, 10);
  return {
    changes: {
      nonPayment: {
        ...nonPayment,
        reminders: [...nonPayment.reminders, { at: now, sentTo: to }],
        nextReminderAt: last
          ? null
          : new Date(at.getTime() + NON_PAYMENT_REMINDER_EVERY_DAYS * DAY_MS).toISOString(),
      },
      // A reminder to the bidder is not an update of the case.
      updatedAt: record.updatedAt,
    },
    events: [
      eventOf(record.id, now, null, {
        action: `Payment reminder ${number} of ${NON_PAYMENT_REMINDERS}`,
        detail: to
          ? `Sent to ${record.defendant.name} at ${to}: ${amount} due`
          : `Not sent: the case has no email address for ${record.defendant.name || 'the bidder'}`,
      }),
    ],
    after: async () => {
      if (!to) return;
      await sendMessage({
        channel: 'email',
        to,
        kind: 'non-payment-reminder',
        subject: `Payment reminder ${number} of ${NON_PAYMENT_REMINDERS}: ${auction}`,
        text: [
          `Dear ${record.defendant.name || 'bidder'},`,
          '',
          `Our records show that your purchase in ${auction} on ${saleDay} is still unpaid: ${amount} is due for ${nonPayment.lots
            .map((lot) => `lot ${lot.lotNumber}`)
            .join(', ')}.`,
          last
            ? 'This is our last reminder. Unpaid purchases are recorded against your bidder account and can stop you from registering for future auctions.'
            : 'Please pay as soon as you can, or reply if you believe this is a mistake.',
          '',
          `Reference: ${record.caseNumber}`,
        ].join('\n'),
      });
    },
  };
}

/**
 * What automation does with one case at `now`: the due move, else the inactivity reminder, as far
 * as the account has those built-in rules on. Each is decided again from the case as it is when
 * written, so a run repeated (or two at once) does it once. A move fires the account's
 * status_change rules.
 */
async function automateCase(accountId: string, id: string, at: Date, rules: BuiltInSwitches) {
  const cutoffs = cutoffsAt(at);
  const ctx = systemContext(accountId);
  let reminded: CaseRecord | undefined;
  let moved = false;
  await reviseCase(
    ctx,
    id,
    undefined,
    'legal_case.automation_run',
    (current, now): Revision | null => {
      const due = dueMove(current, cutoffs, rules);
      moved = due !== null;
      if (due) {
        const [to, reason] = due;
        return {
          changes: moveFields(to, now),
          events: [statusEvent(id, now, null, current.status, to, reason)],
        };
      }
      if (reminderDue(current, now)) return bidderReminder(current, now, at);
      if (!isQuiet(current, cutoffs, rules)) return null;
      reminded = current;
      return {
        // A reminder is not an update: the case stays quiet until someone acts on it.
        changes: { remindedAt: now, updatedAt: current.updatedAt },
        events: [
          eventOf(id, now, null, {
            action: 'Reminder sent',
            detail: `No updates for ${REMINDER_AFTER_DAYS} days; ${current.assignedTo?.name ?? 'the assignee'} was reminded`,
          }),
        ],
      };
    },
    () => at,
  );
  if (moved) await runRulesFor(ctx, id, 'status_change');
  if (reminded?.assignedTo) {
    await notify(ctx, [reminded.assignedTo.id], {
      kind: 'legal.reminder',
      title: `${reminded.caseNumber} has had no updates for ${REMINDER_AFTER_DAYS} days`,
      body: reminded.title,
      link: `/legal/cases/${reminded.id}`,
    });
  }
}

/**
 * One run of the case automation rules (spec 4.2) over every account: PENDING to IN REVIEW after
 * 24 hours, RESOLVED and DISMISSED to CLOSED after their waits, SETTLED to CLOSED once paid, and
 * reminders for quiet cases. A case that fails is logged and left for the next run.
 */
export async function runCaseAutomation(log: Logger, now = new Date()) {
  const candidates = await automationCandidates(cutoffsAt(now));
  // Each account's switches, read once per run.
  const switches = new Map<string, Promise<BuiltInSwitches>>();
  const switchesOf = (accountId: string) => {
    const known = switches.get(accountId) ?? builtInSwitches({ accountId });
    switches.set(accountId, known);
    return known;
  };
  let done = 0;
  for (const candidate of candidates) {
    try {
      await automateCase(
        candidate.accountId,
        candidate.id,
        now,
        await switchesOf(candidate.accountId),
      );
      done += 1;
    } catch (error) {
      log.error('case automation failed for a case; the next run tries again', {
        accountId: candidate.accountId,
        caseId: candidate.id,
        error,
      });
    }
  }
  return { candidates: candidates.length, done };
}
