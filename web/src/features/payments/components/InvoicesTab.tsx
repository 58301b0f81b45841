import {
  Button,
  Caption1,
  Card,
  CardHeader,
  Dropdown,
  Field,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Option,
  SearchBox,
  Skeleton,
  SkeletonItem,
  Subtitle2,
} from '@fluentui/react-components';
import { DocumentAddRegular, SettingsRegular } from '@fluentui/react-icons';
import { invoiceStatuses, type InvoiceStatus } from '@contracts/payments/payments.schema';
import { useDeferredValue, useState } from 'react';
import { useSearchParams } from 'react-router';
import { PermittedButton } from '../../../components/PermittedButton';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useInvoices, usePaymentActions } from '../api/payments';
import { AuctionPicker, type PickedAuction } from './AuctionPicker';
import { InvoiceList } from './InvoiceList';
import { invoiceStatusLabels, usePaymentStyles } from './payment-style';
import { TermsDialog } from './TermsDialog';

const ALL = 'all';

/** The search and status filter of Invoices as the address keeps them (`?q=&invoiceStatus=`). */
export function useInvoiceFilters() {
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const asked = params.get('invoiceStatus');
  const status = invoiceStatuses.find((candidate) => candidate === asked);
  const set = (name: 'q' | 'invoiceStatus', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  return { search, status, set };
}

/** An auction's terms and its invoices: set how they are priced, then make them. */
function AuctionTools() {
  const styles = usePaymentStyles();
  const notify = useNotify();
  const actions = usePaymentActions();
  const [auction, setAuction] = useState<PickedAuction | null>(null);
  const [terms, setTerms] = useState(false);
  const generate = useAction(
    async (picked: PickedAuction) => {
      const result = await actions.generate(picked.id);
      notify.success(
        result.created ? 'Invoices generated' : 'No new invoices',
        result.created
          ? `${countOf(result.created, 'invoice')} made for ${picked.title} (${countOf(result.total, 'buyer')} in all).`
          : `Every winning bidder of ${picked.title} has an invoice already.`,
      );
    },
    { onError: (message) => notify.error('The invoices were not generated', message) },
  );
  return (
    <Card>
      <CardHeader
        header={<Subtitle2 as="h2">Invoices of a sale</Subtitle2>}
        description={
          <Caption1 className={styles.muted}>
            One invoice per winning bidder, priced by the auction&apos;s terms.
          </Caption1>
        }
      />
      <div className={styles.toolbar}>
        <AuctionPicker value={auction} onChange={setAuction} className={styles.search} />
        <PermittedButton
          permission="payments:process"
          icon={<SettingsRegular />}
          disabled={!auction}
          onClick={() => setTerms(true)}
        >
          Invoice Terms
        </PermittedButton>
        <PermittedButton
          permission="payments:process"
          appearance="primary"
          icon={<DocumentAddRegular />}
          disabled={!auction || generate.busy}
          onClick={() => auction && void generate.run(auction)}
        >
          {generate.busy ? 'Generating...' : 'Generate invoices'}
        </PermittedButton>
      </div>
      {auction ? (
        <TermsDialog auction={auction} open={terms} onClose={() => setTerms(false)} />
      ) : null}
    </Card>
  );
}

/** Invoices: a sale's invoicing, then every invoice by status and search, newest first. */
export function InvoicesTab() {
  const styles = usePaymentStyles();
  const { search, status, set } = useInvoiceFilters();
  const deferred = useDeferredValue(search);
  const list = useInvoices({ search: deferred, ...(status ? { status } : {}) });
  const invoices = list.data?.flatMap((page) => page.items) ?? [];
  const more = Boolean(list.data?.at(-1)?.continuationToken);
  return (
    <div className={styles.stack}>
      <AuctionTools />
      <div className={styles.toolbar}>
        <Field label="Search invoices" className={styles.search}>
          <SearchBox
            value={search}
            placeholder="Invoice, bidder or auction"
            onChange={(_, data) => set('q', data.value)}
          />
        </Field>
        <Field label="Invoice status" className={styles.filter}>
          <Dropdown
            value={status ? invoiceStatusLabels[status] : 'All statuses'}
            selectedOptions={[status ?? ALL]}
            onOptionSelect={(_, data) =>
              set('invoiceStatus', data.optionValue === ALL ? '' : (data.optionValue ?? ''))
            }
          >
            <Option value={ALL}>All statuses</Option>
            {invoiceStatuses.map((candidate: InvoiceStatus) => (
              <Option key={candidate} value={candidate}>
                {invoiceStatusLabels[candidate]}
              </Option>
            ))}
          </Dropdown>
        </Field>
      </div>
      {list.error ? (
        <MessageBar intent="error">
          <MessageBarBody>The invoices could not be loaded: {messageOf(list.error)}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={() => void list.mutate()}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      {list.data ? (
        <InvoiceList
          invoices={invoices}
          label="Invoices"
          empty={
            search || status
              ? 'No invoices match this search.'
              : 'No invoices yet. Generate them for a completed auction above, or make a Manual Invoice.'
          }
          withActions
        />
      ) : list.error ? null : (
        <Skeleton aria-label="Loading invoices">
          {[0, 1, 2].map((row) => (
            <SkeletonItem key={row} size={48} style={{ marginBottom: 8 }} />
          ))}
        </Skeleton>
      )}
      {invoices.length ? (
        <div className={styles.more}>
          {more ? (
            <Button disabled={list.isValidating} onClick={() => void list.setSize(list.size + 1)}>
              {list.isValidating ? 'Loading...' : 'Load more'}
            </Button>
          ) : (
            <Caption1 className={styles.muted}>{countOf(invoices.length, 'invoice')}</Caption1>
          )}
        </div>
      ) : null}
    </div>
  );
}
