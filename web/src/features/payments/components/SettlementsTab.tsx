import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dropdown,
  Field,
  Link,
  MessageBar,
  MessageBarBody,
  Option,
  SearchBox,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
} from '@fluentui/react-components';
import { AddRegular, BuildingBankRegular, CalculatorRegular } from '@fluentui/react-icons';
import {
  statementStatuses,
  type Agreement,
  type StatementSummary,
} from '@contracts/payments/settlements/settlements.schema';
import { useDeferredValue, useState, type MouseEvent } from 'react';
import { useSearchParams } from 'react-router';
import { PermittedButton } from '../../../components/PermittedButton';
import { messageOf } from '../../../lib/api-client';
import { formatMoneyExact } from '../../../lib/money';
import { countOf } from '../../../lib/plural';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useMediaQuery } from '../../../lib/use-media-query';
import {
  useAgreements,
  useDefaultAgreement,
  useSettlementActions,
  useStatements,
} from '../api/settlements';
import { AgreementDialog } from './AgreementDialog';
import { AuctionPicker, type PickedAuction } from './AuctionPicker';
import {
  percentOfBps,
  StatementStatusBadge,
  statementStatusLabels,
  useOpenRecord,
  usePaymentStyles,
} from './payment-style';

const ALL = 'all';
const opens = (event: MouseEvent) => !(event.target as HTMLElement).closest('a, button');

/** A commission scheme in words: "15%, at least $25 a lot". */
function schemeText(terms: Pick<Agreement, 'currency' | 'commission' | 'fees'>): string {
  const { commission, fees } = terms;
  const minimum =
    commission.kind !== 'none' && commission.minimumPerLot
      ? `, at least ${formatMoneyExact(commission.minimumPerLot, terms.currency)} a lot`
      : '';
  const scheme =
    commission.kind === 'none'
      ? 'No commission'
      : commission.kind === 'fixed'
        ? `${percentOfBps(commission.rateBps)} commission`
        : `${commission.kind === 'cumulative' ? 'Cumulative sliding' : 'Sliding'} scale (${commission.scale.map((band) => percentOfBps(band.rateBps)).join(' / ')})`;
  const extra = [
    fees.perLot ? `${formatMoneyExact(fees.perLot, terms.currency)} per lot` : '',
    fees.insuranceBps ? `${percentOfBps(fees.insuranceBps)} insurance` : '',
    fees.buyBackBps ? `${percentOfBps(fees.buyBackBps)} buy-back` : '',
  ].filter(Boolean);
  return `${scheme}${minimum}${extra.length ? `; ${extra.join(', ')}` : ''}`;
}

function StatementLink({ statement }: { statement: StatementSummary }) {
  const styles = usePaymentStyles();
  const record = useOpenRecord('settlement');
  return (
    <Link
      href={`?settlement=${encodeURIComponent(statement.id)}`}
      className={styles.strong}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        record.open(statement.id);
      }}
    >
      {statement.consignorName}
    </Link>
  );
}

function StatementList({ statements }: { statements: StatementSummary[] }) {
  const styles = usePaymentStyles();
  const phone = useMediaQuery('(max-width: 760px)');
  const record = useOpenRecord('settlement');
  const money = (statement: StatementSummary, minor: number) =>
    formatMoneyExact(minor, statement.currency);
  if (phone) {
    return (
      <ul className={styles.cards} aria-label="Consignor statements">
        {statements.map((statement) => (
          <li key={statement.id}>
            <Card
              className={styles.card}
              onClick={(event) => opens(event) && record.open(statement.id)}
            >
              <div className={styles.cardHead}>
                <div>
                  <StatementLink statement={statement} />
                  <Text block>{statement.auctionTitle}</Text>
                </div>
                <StatementStatusBadge status={statement.status} />
              </div>
              <dl className={styles.facts}>
                <dt>Net payable</dt>
                <dd className={styles.strong}>{money(statement, statement.totals.net)}</dd>
                <dt>Lots</dt>
                <dd>
                  {statement.lotCount} settled · {statement.pendingCount} unpaid
                </dd>
                <dt>Commission</dt>
                <dd>{money(statement, statement.totals.commission)}</dd>
              </dl>
            </Card>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className={styles.frame}>
      <Table aria-label="Consignor statements" style={{ minWidth: '900px' }}>
        <TableHeader>
          <TableRow className={styles.headerRow}>
            <TableHeaderCell style={{ width: '20%' }}>Consignor</TableHeaderCell>
            <TableHeaderCell style={{ width: '24%' }}>Auction</TableHeaderCell>
            <TableHeaderCell style={{ width: '120px' }}>Lots</TableHeaderCell>
            <TableHeaderCell className={styles.money} style={{ width: '120px' }}>
              Hammer
            </TableHeaderCell>
            <TableHeaderCell className={styles.money} style={{ width: '120px' }}>
              Commission
            </TableHeaderCell>
            <TableHeaderCell className={styles.money} style={{ width: '130px' }}>
              Net payable
            </TableHeaderCell>
            <TableHeaderCell style={{ width: '100px' }}>Status</TableHeaderCell>
          </TableRow>
        </TableHeader>
        <TableBody>
          {statements.map((statement) => (
            <TableRow
              key={statement.id}
              className={styles.row}
              onClick={(event) => opens(event) && record.open(statement.id)}
            >
              <TableCell>
                <StatementLink statement={statement} />
                {statement.sequence > 1 ? (
                  <Caption1 className={styles.muted}> · no. {statement.sequence}</Caption1>
                ) : null}
              </TableCell>
              <TableCell>
                <span className={styles.clip} title={statement.auctionTitle}>
                  {statement.auctionTitle}
                </span>
              </TableCell>
              <TableCell>
                {statement.lotCount}
                {statement.pendingCount ? (
                  <Caption1 className={styles.muted}> · {statement.pendingCount} unpaid</Caption1>
                ) : null}
              </TableCell>
              <TableCell className={styles.money}>
                {money(statement, statement.totals.hammer)}
              </TableCell>
              <TableCell className={styles.money}>
                {money(statement, statement.totals.commission)}
              </TableCell>
              <TableCell className={styles.money}>
                {money(statement, statement.totals.net)}
              </TableCell>
              <TableCell>
                <StatementStatusBadge status={statement.status} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** The house default and each consignor's own terms, each editable. */
function AgreementsCard() {
  const styles = usePaymentStyles();
  const fallback = useDefaultAgreement();
  const list = useAgreements();
  const [editing, setEditing] = useState<{ agreement: Agreement | null } | null>(null);
  const agreements = list.data?.agreements.filter((agreement) => !agreement.isDefault) ?? [];
  return (
    <Card>
      <CardHeader
        header={<Subtitle2 as="h2">Consignor agreements</Subtitle2>}
        description={
          <Caption1 className={styles.muted}>
            Commission and fees per consignor; the default applies to everyone else.
          </Caption1>
        }
        action={
          <PermittedButton
            permission="payments:process"
            icon={<AddRegular />}
            onClick={() => setEditing({ agreement: null })}
          >
            Add agreement
          </PermittedButton>
        }
      />
      {fallback.error || list.error ? (
        <MessageBar intent="error">
          <MessageBarBody>
            The agreements could not be loaded: {messageOf(fallback.error ?? list.error)}
          </MessageBarBody>
        </MessageBar>
      ) : null}
      <ul className={styles.stack} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {[...(fallback.data ? [fallback.data] : []), ...agreements].map((agreement) => (
          <li key={agreement.id} className={styles.cardHead}>
            <div>
              <Text weight="semibold" block>
                {agreement.isDefault ? 'Default terms' : agreement.consignorName}
              </Text>
              <Caption1 className={styles.muted}>{schemeText(agreement)}</Caption1>
            </div>
            <PermittedButton
              permission="payments:process"
              size="small"
              aria-label={`Edit ${agreement.isDefault ? 'the default terms' : (agreement.consignorName ?? '')}`}
              onClick={() => setEditing({ agreement })}
            >
              Edit
            </PermittedButton>
          </li>
        ))}
      </ul>
      {editing ? (
        <AgreementDialog
          key={editing.agreement?.etag ?? 'new'}
          agreement={editing.agreement}
          open
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Card>
  );
}

/** Settlements: build a sale's statements, list them by status and consignor, agreements. */
export function SettlementsTab() {
  const styles = usePaymentStyles();
  const notify = useNotify();
  const actions = useSettlementActions();
  const [params, setParams] = useSearchParams();
  const consignor = params.get('consignor') ?? '';
  const asked = params.get('statementStatus');
  const status = statementStatuses.find((candidate) => candidate === asked);
  const [auction, setAuction] = useState<PickedAuction | null>(null);
  const deferred = useDeferredValue(consignor);
  const list = useStatements({
    consignor: deferred,
    ...(status ? { status } : {}),
    ...(auction ? { auctionId: auction.id } : {}),
  });
  const set = (name: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  const build = useAction(
    async (picked: PickedAuction) => {
      const result = await actions.build(picked.id);
      notify.success(
        'Statements brought up to date',
        `${picked.title}: ${countOf(result.created, 'new statement')}, ${result.updated} updated, ${result.unchanged} unchanged.`,
      );
    },
    { onError: (message) => notify.error('The statements were not built', message) },
  );
  const statements = list.data?.flatMap((page) => page.statements) ?? [];
  const more = Boolean(list.data?.at(-1)?.continuationToken);
  return (
    <div className={styles.stack}>
      <Card>
        <CardHeader
          header={<Subtitle2 as="h2">Statements of a sale</Subtitle2>}
          description={
            <Caption1 className={styles.muted}>
              Each consignor is paid for the lots whose buyers have paid.
            </Caption1>
          }
        />
        <div className={styles.toolbar}>
          <AuctionPicker value={auction} onChange={setAuction} className={styles.search} />
          <PermittedButton
            permission="payments:process"
            appearance="primary"
            icon={<CalculatorRegular />}
            disabled={!auction || build.busy}
            onClick={() => auction && void build.run(auction)}
          >
            {build.busy ? 'Building...' : 'Build statements'}
          </PermittedButton>
        </div>
      </Card>
      <div className={styles.toolbar}>
        <Field label="Consignor" className={styles.search}>
          <SearchBox
            value={consignor}
            placeholder="Consignor's name"
            onChange={(_, data) => set('consignor', data.value)}
          />
        </Field>
        <Field label="Statement status" className={styles.filter}>
          <Dropdown
            value={status ? statementStatusLabels[status] : 'All statuses'}
            selectedOptions={[status ?? ALL]}
            onOptionSelect={(_, data) =>
              set('statementStatus', data.optionValue === ALL ? '' : (data.optionValue ?? ''))
            }
          >
            <Option value={ALL}>All statuses</Option>
            {statementStatuses.map((candidate) => (
              <Option key={candidate} value={candidate}>
                {statementStatusLabels[candidate]}
              </Option>
            ))}
          </Dropdown>
        </Field>
      </div>
      {list.error ? (
        <MessageBar intent="error">
          <MessageBarBody>
            The statements could not be loaded: {messageOf(list.error)}
          </MessageBarBody>
        </MessageBar>
      ) : list.data ? (
        statements.length ? (
          <StatementList statements={statements} />
        ) : (
          <div className={styles.empty}>
            <BuildingBankRegular fontSize={32} aria-hidden="true" />
            <Body1>
              {consignor || status || auction
                ? 'No statements match.'
                : 'No statements yet. Choose a completed auction above and build its statements.'}
            </Body1>
          </div>
        )
      ) : (
        <Skeleton aria-label="Loading statements">
          <SkeletonItem size={48} />
        </Skeleton>
      )}
      {statements.length ? (
        <div className={styles.more}>
          {more ? (
            <Button disabled={list.isValidating} onClick={() => void list.setSize(list.size + 1)}>
              {list.isValidating ? 'Loading...' : 'Load more'}
            </Button>
          ) : (
            <Caption1 className={styles.muted}>{countOf(statements.length, 'statement')}</Caption1>
          )}
        </div>
      ) : null}
      <AgreementsCard />
      <div className={styles.more}>
        <Button appearance="subtle" onClick={() => void list.mutate()}>
          Refresh
        </Button>
      </div>
    </div>
  );
}
