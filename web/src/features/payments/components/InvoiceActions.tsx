import type { ButtonProps } from '@fluentui/react-components';
import { CheckmarkRegular, MailRegular } from '@fluentui/react-icons';
import type { InvoiceListItem } from '@contracts/payments/payments.schema';
import { PermittedButton } from '../../../components/PermittedButton';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { usePaymentActions } from '../api/payments';
import { formatDate, usePaymentStyles } from './payment-style';

/** Approve a draft; Send Email mails the buyer the link to their portal page. */
export function useInvoiceFlow(invoice: Pick<InvoiceListItem, 'id' | 'number'>) {
  const notify = useNotify();
  const actions = usePaymentActions();
  const approve = useAction(
    async () => {
      await actions.approve(invoice.id);
      notify.success('Invoice approved', `${invoice.number} is ready to send.`);
    },
    { onError: (message) => notify.error('The invoice was not approved', message) },
  );
  const send = useAction(
    async () => {
      const sent = await actions.send(invoice.id);
      notify.success(
        'Invoice sent',
        `${sent.sentTo} was emailed a link to view and pay ${invoice.number}, valid until ${formatDate(sent.expiresAt)}.`,
      );
    },
    { onError: (message) => notify.error('The invoice was not sent', message) },
  );
  return { approve, send };
}

/** The next step for an invoice, as buttons: Approve for a draft, Send Email once approved. */
export function InvoiceActions({
  invoice,
  size,
}: {
  invoice: InvoiceListItem;
  size?: ButtonProps['size'];
}) {
  const styles = usePaymentStyles();
  const { approve, send } = useInvoiceFlow(invoice);
  const sendable = ['approved', 'sent', 'viewed'].includes(invoice.status);
  return (
    <div className={styles.actions}>
      {invoice.status === 'draft' ? (
        <PermittedButton
          permission="payments:process"
          size={size}
          icon={<CheckmarkRegular />}
          disabled={approve.busy}
          onClick={() => void approve.run()}
          aria-label={`Approve ${invoice.number}`}
        >
          {approve.busy ? 'Approving...' : 'Approve'}
        </PermittedButton>
      ) : null}
      {sendable ? (
        <PermittedButton
          permission="payments:process"
          size={size}
          icon={<MailRegular />}
          disabled={send.busy}
          onClick={() => void send.run()}
          aria-label={`Send Email: ${invoice.number}`}
        >
          {send.busy ? 'Sending...' : invoice.status === 'approved' ? 'Send Email' : 'Send Again'}
        </PermittedButton>
      ) : null}
    </div>
  );
}
