import {
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
} from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import type { Statement } from '@contracts/payments/settlements/settlements.schema';
import { useState, type FormEvent } from 'react';
import { PermittedButton } from '../../../components/PermittedButton';
import { ApiError, messageOf } from '../../../lib/api-client';
import { formatMoneyExact } from '../../../lib/money';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useSettlementActions, useStatement } from '../api/settlements';
import {
  formatDate,
  formatDay,
  StatementStatusBadge,
  todayOnCalendar,
  useOpenRecord,
  usePaymentStyles,
} from './payment-style';

const reversalLabels: Record<Statement['adjustments'][number]['reason'], string> = {
  credited: 'credited to the buyer',
  refunded: 'refunded to the buyer',
  charged_back: 'charged back',
  unpaid: 'payment no longer recorded',
  result_changed: 'result corrected',
};

/** A stale ETag: the statement as it is now replaces the one shown, and the person is told. */
async function orReloaded<T>(work: () => Promise<T>, reload: () => Promise<unknown>) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) {
      await reload();
      throw new Error(
        'Someone else changed this statement. It has been reloaded: check it and try again.',
      );
    }
    throw error;
  }
}

function MarkPaidDialog({
  statement,
  open,
  onClose,
}: {
  statement: Statement;
  open: boolean;
  onClose(): void;
}) {
  const styles = usePaymentStyles();
  const notify = useNotify();
  const actions = useSettlementActions();
  const [reference, setReference] = useState('');
  const [paidOn, setPaidOn] = useState(todayOnCalendar);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useAction(
    async () => {
      await orReloaded(
        () => actions.markPaid(statement, { payoutReference: reference.trim(), paidOn }),
        () => actions.fetchStatement(statement.id),
      );
      notify.success(
        'Statement paid',
        `${formatMoneyExact(statement.totals.net, statement.currency)} to ${statement.consignorName} recorded.`,
      );
      onClose();
    },
    {
      onError: (message, caught) => {
        if (caught instanceof ApiError) setErrors(caught.fieldErrors());
        notify.error('The payout was not recorded', message);
      },
    },
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!reference.trim()) found.payoutReference = 'Payout reference is required';
    if (!paidOn) found.paidOn = 'Paid on is required';
    setErrors(found);
    if (Object.keys(found).length) return;
    void save.run();
  };
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && !save.busy && onClose()}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>Mark Paid</DialogTitle>
            <DialogContent className={styles.dialogContent}>
              <Body1>
                Record the payout of {formatMoneyExact(statement.totals.net, statement.currency)} to{' '}
                {statement.consignorName}.
              </Body1>
              <Field
                label="Payout reference"
                required
                hint="The bank transfer's or cheque's reference."
                validationMessage={errors.payoutReference}
                validationState={errors.payoutReference ? 'error' : 'none'}
              >
                <Input
                  value={reference}
                  maxLength={200}
                  onChange={(_, data) => setReference(data.value)}
                />
              </Field>
              <Field
                label="Paid on"
                required
                validationMessage={errors.paidOn}
                validationState={errors.paidOn ? 'error' : 'none'}
              >
                <Input type="date" value={paidOn} onChange={(_, data) => setPaidOn(data.value)} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onClose} disabled={save.busy}>
                Cancel
              </Button>
              <Button appearance="primary" type="submit" disabled={save.busy}>
                {save.busy ? 'Saving...' : 'Mark Paid'}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

function StatementBody({ statement }: { statement: Statement }) {
  const styles = usePaymentStyles();
  const less = (minor: number) => (minor ? `−${money(minor)}` : money(0));
  const money = (minor: number) => formatMoneyExact(minor, statement.currency);
  const { totals } = statement;
  return (
    <>
      <dl className={styles.facts}>
        <dt>Auction</dt>
        <dd>{statement.auctionTitle}</dd>
        <dt>Statement</dt>
        <dd>
          No. {statement.sequence} · made {formatDate(statement.createdAt)}
        </dd>
        <dt>Terms</dt>
        <dd>{statement.agreement.isDefault ? 'The house default' : "The consignor's agreement"}</dd>
        {statement.approvedAt ? (
          <>
            <dt>Approved</dt>
            <dd>
              {formatDate(statement.approvedAt)}
              {statement.approvedBy ? ` by ${statement.approvedBy.name}` : ''}
            </dd>
          </>
        ) : null}
        {statement.paidOn ? (
          <>
            <dt>Paid</dt>
            <dd>
              {formatDay(statement.paidOn)} · {statement.payoutReference}
            </dd>
          </>
        ) : null}
      </dl>
      <div className={styles.frame}>
        <Table size="small" aria-label="Lots settled" style={{ minWidth: '560px' }}>
          <TableHeader>
            <TableRow className={styles.headerRow}>
              <TableHeaderCell style={{ width: '56px' }}>Lot</TableHeaderCell>
              <TableHeaderCell>Title</TableHeaderCell>
              <TableHeaderCell className={styles.money} style={{ width: '100px' }}>
                Hammer
              </TableHeaderCell>
              <TableHeaderCell className={styles.money} style={{ width: '100px' }}>
                Commission
              </TableHeaderCell>
              <TableHeaderCell className={styles.money} style={{ width: '80px' }}>
                Fees
              </TableHeaderCell>
              <TableHeaderCell className={styles.money} style={{ width: '100px' }}>
                Net
              </TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {statement.lines.length ? (
              statement.lines.map((line) => (
                <TableRow key={line.lotId}>
                  <TableCell>{line.lotNumber}</TableCell>
                  <TableCell>
                    {line.title}
                    {line.boughtBack ? (
                      <Caption1 className={styles.muted}> · bought back</Caption1>
                    ) : null}
                  </TableCell>
                  <TableCell className={styles.money}>{money(line.hammer)}</TableCell>
                  <TableCell className={styles.money}>{less(line.commission)}</TableCell>
                  <TableCell className={styles.money}>{less(line.fees)}</TableCell>
                  <TableCell className={styles.money}>{money(line.net)}</TableCell>
                </TableRow>
              ))
            ) : (
              <TableRow>
                <TableCell colSpan={6}>No lots are paid for yet.</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </div>
      {statement.adjustments.length ? (
        <section className={styles.section} aria-label="Adjustments">
          <Subtitle2 as="h3" className={styles.sectionTitle}>
            Adjustments to earlier statements
          </Subtitle2>
          <ul style={{ margin: 0, paddingLeft: 20 }}>
            {statement.adjustments.map((adjustment) => (
              <li key={`${adjustment.lotId}-${adjustment.reverses}`}>
                <Body1>
                  Lot {adjustment.lotNumber} ({reversalLabels[adjustment.reason]}):{' '}
                  {money(adjustment.amount)}
                </Body1>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {statement.pending.length ? (
        <section className={styles.section} aria-label="Pending lots">
          <Subtitle2 as="h3" className={styles.sectionTitle}>
            Awaiting the buyer&apos;s payment
          </Subtitle2>
          <Caption1 className={styles.muted}>
            Sold but not yet paid for: settled on a later statement once the buyer pays.
          </Caption1>
          <ul style={{ margin: 0, paddingLeft: 20 }}>
            {statement.pending.map((lot) => (
              <li key={lot.lotId}>
                <Body1>
                  Lot {lot.lotNumber}: {lot.title} ({money(lot.hammer)})
                </Body1>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className={styles.section} aria-label="Totals">
        <dl className={styles.breakdown}>
          <dt>Hammer</dt>
          <dd>{money(totals.hammer)}</dd>
          <dt>Commission</dt>
          <dd>{less(totals.commission)}</dd>
          <dt>Fees</dt>
          <dd>{less(totals.fees)}</dd>
          {totals.buyBackFees ? (
            <>
              <dt>Buy-back fees</dt>
              <dd>{less(totals.buyBackFees)}</dd>
            </>
          ) : null}
          {totals.adjustments ? (
            <>
              <dt>Adjustments</dt>
              <dd>{money(totals.adjustments)}</dd>
            </>
          ) : null}
          <dt className={styles.total}>Net payable</dt>
          <dd className={styles.total}>{money(totals.net)}</dd>
          {totals.pendingHammer ? (
            <>
              <dt>Pending (unpaid) hammer</dt>
              <dd>{money(totals.pendingHammer)}</dd>
            </>
          ) : null}
        </dl>
      </section>
    </>
  );
}

/** A consignor statement over the page (`?settlement=`): lots, commission, fees, net payable. */
export function StatementDialog() {
  const styles = usePaymentStyles();
  const notify = useNotify();
  const record = useOpenRecord('settlement');
  const actions = useSettlementActions();
  const { data, error } = useStatement(record.id);
  const [paying, setPaying] = useState(false);
  const approve = useAction(
    async (statement: Statement) => {
      await orReloaded(
        () => actions.approve(statement),
        () => actions.fetchStatement(statement.id),
      );
      notify.success('Statement approved', `${statement.consignorName}'s statement is closed.`);
    },
    { onError: (message) => notify.error('The statement was not approved', message) },
  );
  const download = useAction(
    async (id: string) => {
      const name = await actions.downloadStatement(id);
      notify.success('Statement downloaded', name);
    },
    { onError: (message) => notify.error('The statement could not be downloaded', message) },
  );
  return (
    <Dialog open={Boolean(record.id)} onOpenChange={(_, state) => !state.open && record.close()}>
      <DialogSurface className={styles.dialog}>
        <DialogBody>
          <DialogTitle>
            <span className={styles.cardHead} style={{ justifyContent: 'flex-start' }}>
              {data ? `Statement: ${data.consignorName}` : 'Statement'}
              {data ? <StatementStatusBadge status={data.status} /> : null}
            </span>
          </DialogTitle>
          <DialogContent className={styles.dialogContent}>
            {error ? (
              <MessageBar intent="error">
                <MessageBarBody>
                  The statement could not be loaded: {messageOf(error)}
                </MessageBarBody>
              </MessageBar>
            ) : data ? (
              <StatementBody statement={data} />
            ) : (
              <Spinner label="Loading the statement..." />
            )}
          </DialogContent>
          <DialogActions fluid className={styles.actions}>
            {data ? (
              <>
                <Button
                  icon={<ArrowDownloadRegular />}
                  disabled={download.busy}
                  onClick={() => void download.run(data.id)}
                >
                  {download.busy ? 'Downloading...' : 'Download Statement'}
                </Button>
                {data.status === 'draft' ? (
                  <PermittedButton
                    permission="payments:process"
                    appearance="primary"
                    disabled={approve.busy}
                    onClick={() => void approve.run(data)}
                  >
                    {approve.busy ? 'Approving...' : 'Approve'}
                  </PermittedButton>
                ) : null}
                {data.status === 'approved' ? (
                  <PermittedButton
                    permission="payments:reconcile"
                    appearance="primary"
                    onClick={() => setPaying(true)}
                  >
                    Mark Paid
                  </PermittedButton>
                ) : null}
              </>
            ) : null}
            <Button appearance="secondary" onClick={record.close}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
        {data ? (
          <MarkPaidDialog
            key={data.etag}
            statement={data}
            open={paying}
            onClose={() => setPaying(false)}
          />
        ) : null}
      </DialogSurface>
    </Dialog>
  );
}
