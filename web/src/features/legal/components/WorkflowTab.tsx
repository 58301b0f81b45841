import {
  Badge,
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Radio,
  RadioGroup,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Text,
  tokens,
} from '@fluentui/react-components';
import {
  ArrowRightRegular,
  BotRegular,
  CheckmarkRegular,
  DismissRegular,
  MoneyRegular,
  PauseRegular,
  PlayRegular,
} from '@fluentui/react-icons';
import type { CaseStatus, LegalCase } from '@contracts/legal/legal.schema';
import { useEffect, useState } from 'react';
import { PermittedButton } from '../../../components/PermittedButton';
import { ApiError, messageOf } from '../../../lib/api-client';
import { useCan, useSignedIn } from '../../../lib/auth-store';
import { formatMoney } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useLegalActions, useWorkflowRules } from '../api/legal';
import { CaseStatusBadge, formatDay, formatMoment } from './case-style';
import { PaymentDialog } from './PaymentDialog';
import { ReasonDialog } from './ReasonDialog';
import { approvalThreshold, automationNotices, builtInEnabled } from './workflow';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  columns: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(320px, 1fr))',
    gap: tokens.spacingHorizontalL,
    alignItems: 'start',
    '@media (max-width: 640px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  card: {
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  current: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  muted: { color: tokens.colorNeutralForeground2 },
  choice: { display: 'flex', flexDirection: 'column' },
  choiceHint: { color: tokens.colorNeutralForeground2 },
  footer: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  list: {
    margin: 0,
    paddingInlineStart: tokens.spacingHorizontalXL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
  },
  notices: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  subheading: { margin: `${tokens.spacingVerticalS} 0 0` },
  automationHead: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    flexWrap: 'wrap',
  },
});

/** The time now, moving on every minute so countdowns stay true on a page left open. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A settlement waiting for a director: who asked, for how much, and Approve/Reject for approvers. */
function PendingApproval({ legalCase }: { legalCase: LegalCase }) {
  const can = useCan();
  const { user } = useSignedIn();
  const notify = useNotify();
  const actions = useLegalActions();
  const [deciding, setDeciding] = useState<'approve' | 'reject' | null>(null);
  const pending = legalCase.pendingApproval;
  if (!pending) return null;
  const amount = formatMoney(pending.settlementAmount, legalCase.currency);
  const mine = pending.requestedBy.id === user.id;
  const mayDecide = can('legal:workflow_approve') && !mine;
  return (
    <>
      <MessageBar intent="warning" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>Settlement awaiting approval</MessageBarTitle>
          {mine ? 'You asked' : `${pending.requestedBy.name} asks`} to move this case to{' '}
          {pending.to} with a settlement of {amount} ({formatMoment(pending.requestedAt)}): “
          {pending.reason}”.{' '}
          {mayDecide
            ? 'Settlements of this size need a director’s approval.'
            : mine
              ? 'Someone else who may approve settlements decides it.'
              : 'Someone who may approve settlements decides it.'}
        </MessageBarBody>
        {mayDecide ? (
          <MessageBarActions>
            <Button icon={<CheckmarkRegular />} onClick={() => setDeciding('approve')}>
              Approve
            </Button>
            <Button icon={<DismissRegular />} onClick={() => setDeciding('reject')}>
              Reject
            </Button>
          </MessageBarActions>
        ) : null}
      </MessageBar>
      <ReasonDialog
        open={deciding !== null}
        title={deciding === 'approve' ? 'Approve the settlement?' : 'Reject the settlement?'}
        confirmLabel={deciding === 'approve' ? 'Approve' : 'Reject'}
        failureTitle={
          deciding === 'approve'
            ? 'The settlement was not approved'
            : 'The settlement was not rejected'
        }
        onClose={() => setDeciding(null)}
        onConfirm={async (reason) => {
          if (!deciding) return;
          const saved = await actions.decide(legalCase.id, { decision: deciding, reason });
          if (deciding === 'approve') {
            notify.success('Settlement approved', `${saved.caseNumber} is ${saved.status}.`);
          } else {
            notify.success('Settlement rejected', `${saved.caseNumber} stays ${saved.status}.`);
          }
        }}
      >
        {deciding === 'approve'
          ? `${legalCase.caseNumber} moves to ${pending.to} with a settlement of ${amount}.`
          : `${legalCase.caseNumber} stays ${legalCase.status}; ${pending.requestedBy.name} is told why.`}
      </ReasonDialog>
    </>
  );
}

/** The moves the case may make now, and Change Status with a reason for the one chosen. */
function ChangeStatus({ legalCase }: { legalCase: LegalCase }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useLegalActions();
  const [chosen, setChosen] = useState<CaseStatus | ''>('');
  const [confirming, setConfirming] = useState(false);
  // A move made meanwhile (here or elsewhere) may have taken the choice off the list.
  const transition = legalCase.allowedTransitions.find((candidate) => candidate.to === chosen);
  const threshold = approvalThreshold(legalCase.currency);
  const blocked = legalCase.pendingApproval !== null;
  const { data: rules } = useWorkflowRules();
  const approvals = builtInEnabled(rules?.rules)('director-approval');

  return (
    <Card className={styles.card}>
      <CardHeader
        header={<Subtitle2 as="h2">Change Status</Subtitle2>}
        description={
          <Caption1 className={styles.muted}>
            Only the moves this case may make from {legalCase.status} are offered.
          </Caption1>
        }
      />
      {blocked ? (
        <Body1 className={styles.muted}>
          The settlement waiting for approval is decided first; then the case moves on from{' '}
          {legalCase.status}.
        </Body1>
      ) : legalCase.allowedTransitions.length === 0 ? (
        <Body1 className={styles.muted}>A {legalCase.status} case does not move again.</Body1>
      ) : (
        <RadioGroup
          aria-label="New status"
          value={transition ? transition.to : ''}
          onChange={(_, data) => setChosen(data.value as CaseStatus)}
        >
          {legalCase.allowedTransitions.map((candidate) => (
            <Radio
              key={candidate.to}
              value={candidate.to}
              label={
                <span className={styles.choice}>
                  <Text weight="semibold">{candidate.to}</Text>
                  <Caption1 className={styles.choiceHint}>
                    {candidate.description}
                    {candidate.requiresSettlement
                      ? approvals
                        ? `; needs the settlement amount (above ${threshold}, a director's approval)`
                        : '; needs the settlement amount'
                      : ''}
                  </Caption1>
                </span>
              }
            />
          ))}
        </RadioGroup>
      )}
      {legalCase.allowedTransitions.length ? (
        <div className={styles.footer}>
          <PermittedButton
            permission="legal:workflow"
            appearance="primary"
            icon={<ArrowRightRegular />}
            disabled={!transition}
            onClick={() => setConfirming(true)}
          >
            Change Status
          </PermittedButton>
        </div>
      ) : null}
      <ReasonDialog
        open={confirming && transition !== undefined}
        title={`Change status to ${transition?.to ?? ''}?`}
        confirmLabel="Confirm Change"
        settlementCurrency={transition?.requiresSettlement ? legalCase.currency : undefined}
        settlementHint={
          approvals
            ? `Above ${threshold} a director approves it before the case is ${transition?.to ?? 'SETTLED'}.`
            : undefined
        }
        failureTitle="The status was not changed"
        onClose={() => setConfirming(false)}
        onConfirm={async (reason, settlementAmount) => {
          if (!transition) return;
          try {
            const saved = await actions.changeStatus(legalCase.id, {
              to: transition.to,
              reason,
              ...(settlementAmount === undefined ? {} : { settlementAmount }),
            });
            setChosen('');
            if (saved.pendingApproval) {
              notify.info(
                'Settlement sent for approval',
                `Above ${threshold} a director approves it before ${saved.caseNumber} is ${saved.pendingApproval.to}.`,
              );
            } else {
              notify.success('Status changed', `${saved.caseNumber} is ${saved.status}.`);
            }
          } catch (error) {
            // Refused because the case moved meanwhile: show where it is now.
            if (error instanceof ApiError && error.status === 409) {
              void actions.fetch(legalCase.id).catch(() => undefined);
            }
            throw error;
          }
        }}
      >
        {transition
          ? `${legalCase.caseNumber} moves from ${legalCase.status} to ${transition.to}: ${transition.description}.`
          : ''}
      </ReasonDialog>
    </Card>
  );
}

/** The settlement agreed, and recording its payment, which closes the case. */
function Settlement({ legalCase }: { legalCase: LegalCase }) {
  const styles = useStyles();
  const [recording, setRecording] = useState(false);
  const payment = legalCase.settlementPayment;
  if (legalCase.settlementAmount === null) return null;
  const money = (amount: number) => formatMoney(amount, legalCase.currency);
  return (
    <Card className={styles.card}>
      <CardHeader
        header={<Subtitle2 as="h2">Settlement</Subtitle2>}
        description={
          <Caption1 className={styles.muted}>{money(legalCase.settlementAmount)} agreed</Caption1>
        }
      />
      {payment ? (
        <Body1>
          {money(payment.amount)} received on {formatDay(payment.receivedOn)}
          {payment.reference ? ` (${payment.reference})` : ''}
          {payment.recordedBy ? `, recorded by ${payment.recordedBy.name}` : ''}.
        </Body1>
      ) : legalCase.status === 'SETTLED' ? (
        <>
          <Body1 className={styles.muted}>No payment is recorded yet.</Body1>
          <div className={styles.footer}>
            <PermittedButton
              permission="legal:workflow"
              icon={<MoneyRegular />}
              onClick={() => setRecording(true)}
            >
              Record Payment
            </PermittedButton>
          </div>
          <PaymentDialog
            legalCase={legalCase}
            open={recording}
            onClose={() => setRecording(false)}
          />
        </>
      ) : null}
    </Card>
  );
}

/** The Pause/Enable switch, and while enabled, what the automation will do for this case. */
function Automation({ legalCase }: { legalCase: LegalCase }) {
  const styles = useStyles();
  const notify = useNotify();
  const actions = useLegalActions();
  const now = useNow();
  const paused = legalCase.automationPaused;
  const toggle = useAction(
    async () => {
      await actions.setAutomation(legalCase.id, paused);
      notify.success(paused ? 'Automation enabled' : 'Automation paused');
    },
    {
      onError: (message) =>
        notify.error(paused ? 'Automation was not enabled' : 'Automation was not paused', message),
    },
  );
  const rules = useWorkflowRules();
  const notices = automationNotices(legalCase, now, builtInEnabled(rules.data?.rules));
  return (
    <>
      <Card className={styles.card}>
        <div className={styles.automationHead}>
          <CardHeader
            header={<Subtitle2 as="h2">Automation</Subtitle2>}
            description={
              <Caption1 className={styles.muted}>
                {paused
                  ? 'Paused: this case moves only when someone moves it, and sends no reminders.'
                  : 'On: the case automation rules apply to this case.'}
              </Caption1>
            }
          />
          <PermittedButton
            permission="legal:workflow"
            icon={paused ? <PlayRegular /> : <PauseRegular />}
            disabled={toggle.busy}
            onClick={() => void toggle.run()}
          >
            {paused ? 'Enable Automation' : 'Pause Automation'}
          </PermittedButton>
        </div>
      </Card>
      {paused ? null : (
        <Card className={styles.card}>
          <CardHeader
            image={<BotRegular fontSize={20} aria-hidden="true" />}
            header={<Subtitle2 as="h2">Active Automations</Subtitle2>}
          />
          <div className={styles.notices}>
            {notices.length ? (
              notices.map((notice) => (
                <MessageBar key={notice} intent="info" layout="multiline">
                  <MessageBarBody>{notice}</MessageBarBody>
                </MessageBar>
              ))
            ) : (
              <Body1 className={styles.muted}>No automation applies to this case right now.</Body1>
            )}
          </div>
          <Subtitle2 as="h3" className={styles.subheading}>
            Case automation rules
          </Subtitle2>
          {rules.error && !rules.data ? (
            <Caption1 className={styles.muted}>
              The rules could not be loaded: {messageOf(rules.error)}
            </Caption1>
          ) : !rules.data ? (
            <Skeleton aria-label="Loading rules">
              <SkeletonItem size={16} />
            </Skeleton>
          ) : (
            <ul className={styles.list}>
              {rules.data.rules.map((rule) => (
                <li key={rule.id}>
                  <Text weight="semibold">{rule.name}:</Text> {rule.description}
                  {rule.enabled ? null : (
                    <>
                      {' '}
                      <Badge appearance="outline" color="subtle" size="small">
                        Off
                      </Badge>
                    </>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Card>
      )}
    </>
  );
}

/** Where the case stands, where it may go next, and what happens by itself. */
export function WorkflowTab({ legalCase }: { legalCase: LegalCase }) {
  const styles = useStyles();
  return (
    <div className={styles.stack}>
      <div className={styles.current}>
        <Text>Current status</Text>
        <CaseStatusBadge status={legalCase.status} />
        <Caption1 className={styles.muted}>
          since {formatMoment(legalCase.statusChangedAt)}
        </Caption1>
      </div>
      <PendingApproval legalCase={legalCase} />
      <div className={styles.columns}>
        <div className={styles.stack}>
          <ChangeStatus legalCase={legalCase} />
          <Settlement legalCase={legalCase} />
        </div>
        <div className={styles.stack}>
          <Automation legalCase={legalCase} />
        </div>
      </div>
    </div>
  );
}
