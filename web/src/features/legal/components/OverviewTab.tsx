import {
  Body1,
  Card,
  CardHeader,
  Link,
  makeStyles,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import {
  NON_PAYMENT_REMINDERS,
  caseCategoryLabels,
  caseTypeLabels,
  priorityLabels,
  type LegalCase,
  type NonPayment,
  type Party,
} from '@contracts/legal/legal.schema';
import { useState, type ReactNode } from 'react';
import { AppLink } from '../../../components/AppLink';
import { PermittedButton } from '../../../components/PermittedButton';
import { formatMoney } from '../../../lib/money';
import { CaseStatusBadge, formatDay, formatMoment, partyTypeLabels } from './case-style';
import { PaymentDialog } from './PaymentDialog';

const useStyles = makeStyles({
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
  facts: {
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalL,
    rowGap: tokens.spacingVerticalS,
    margin: 0,
    alignItems: 'baseline',
    '& dt': { color: tokens.colorNeutralForeground2 },
    '& dd': { margin: 0, overflowWrap: 'anywhere' },
    '@media (max-width: 420px)': {
      gridTemplateColumns: 'minmax(96px, max-content) minmax(0, 1fr)',
      columnGap: tokens.spacingHorizontalM,
    },
  },
  prose: { whiteSpace: 'pre-wrap', margin: 0 },
  lots: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
  actions: { display: 'flex', justifyContent: 'flex-end', marginTop: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground2 },
});

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  const styles = useStyles();
  return (
    <dl className={styles.facts}>
      {rows.map(([label, value]) => (
        <div key={label} style={{ display: 'contents' }}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const styles = useStyles();
  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2 as="h2">{title}</Subtitle2>} />
      {children}
    </Card>
  );
}

const none = '—';
const orNone = (value: string | null | undefined) => (value ? value : none);

const partyRows = (party: Party): [string, ReactNode][] => [
  ['Name', orNone(party.name)],
  ['Type', partyTypeLabels[party.type]],
  ['Email', party.email ? <Link href={`mailto:${party.email}`}>{party.email}</Link> : none],
];

/** A non-paying bidder's purchase: what is due, the reminders sent, and whether it holds. */
function UnpaidPurchase({ legalCase }: { legalCase: LegalCase }) {
  const styles = useStyles();
  const [paying, setPaying] = useState(false);
  const nonPayment = legalCase.nonPayment as NonPayment;
  const money = (amount: number) => formatMoney(amount, legalCase.currency);
  const sent = nonPayment.reminders;
  const standing = nonPayment.payment
    ? 'Cleared: the purchase is paid'
    : nonPayment.strike
      ? 'A strike against the bidder (two keep them out of future auctions)'
      : 'Cleared: the case was dismissed';
  return (
    <Section title="Unpaid purchase">
      <Facts
        rows={[
          ['Sale', formatMoment(nonPayment.saleDate)],
          [
            'Lots',
            <ul key="lots" className={styles.lots}>
              {nonPayment.lots.map((lot) => (
                <li key={lot.lotNumber}>
                  Lot {lot.lotNumber}: {lot.title} ({money(lot.hammer)})
                </li>
              ))}
            </ul>,
          ],
          ['Amount due', money(nonPayment.amountDue)],
          [
            'Reminders',
            `${sent.length} of ${NON_PAYMENT_REMINDERS} sent${
              sent.length ? `, last ${formatMoment(sent[sent.length - 1]!.at)}` : ''
            }${nonPayment.nextReminderAt ? `; next ${formatMoment(nonPayment.nextReminderAt)}` : ''}`,
          ],
          [
            'Payment',
            nonPayment.payment
              ? `${money(nonPayment.payment.amount)} received ${formatDay(nonPayment.payment.receivedOn)}${nonPayment.payment.reference ? ` (${nonPayment.payment.reference})` : ''}`
              : 'Not received yet',
          ],
          ['Standing', standing],
        ]}
      />
      {nonPayment.payment ? null : (
        <div className={styles.actions}>
          <PermittedButton
            permission="legal:workflow"
            appearance="primary"
            onClick={() => setPaying(true)}
          >
            Record Payment
          </PermittedButton>
        </div>
      )}
      <PaymentDialog
        legalCase={legalCase}
        kind="purchase"
        open={paying}
        onClose={() => setPaying(false)}
      />
    </Section>
  );
}

/** Every field of the case, grouped as the new-case form groups them. */
export function OverviewTab({ legalCase }: { legalCase: LegalCase }) {
  const styles = useStyles();
  const money = (amount: number) => formatMoney(amount, legalCase.currency);
  return (
    <div className={styles.columns}>
      {legalCase.nonPayment ? <UnpaidPurchase legalCase={legalCase} /> : null}
      <Section title="Case">
        <Facts
          rows={[
            ['Case ID', legalCase.caseNumber],
            ['Title', legalCase.title],
            ['Type', caseTypeLabels[legalCase.caseType]],
            ['Category', caseCategoryLabels[legalCase.category]],
            ['Priority', priorityLabels[legalCase.priority]],
            ['Status', <CaseStatusBadge key="status" status={legalCase.status} />],
            ['Jurisdiction', legalCase.jurisdiction],
            ['Claim amount', money(legalCase.claimAmount)],
            [
              'Settlement',
              legalCase.settlementAmount === null ? none : money(legalCase.settlementAmount),
            ],
            ...(legalCase.settlementAmount === null
              ? []
              : ([
                  [
                    'Settlement payment',
                    legalCase.settlementPayment
                      ? `${money(legalCase.settlementPayment.amount)} received ${formatDay(legalCase.settlementPayment.receivedOn)}${legalCase.settlementPayment.reference ? ` (${legalCase.settlementPayment.reference})` : ''}`
                      : 'Not received yet',
                  ],
                ] satisfies [string, ReactNode][])),
            [
              'Filed',
              `${formatMoment(legalCase.createdAt)}${legalCase.createdBy ? ` by ${legalCase.createdBy.name}` : ''}`,
            ],
            ['Status since', formatMoment(legalCase.statusChangedAt)],
            ['Last updated', formatMoment(legalCase.updatedAt)],
          ]}
        />
      </Section>
      <Section title="Description">
        {legalCase.description ? (
          <Body1 as="p" className={styles.prose}>
            {legalCase.description}
          </Body1>
        ) : (
          <Body1 className={styles.muted}>No description yet.</Body1>
        )}
      </Section>
      <Section title="Plaintiff">
        <Facts rows={partyRows(legalCase.plaintiff)} />
      </Section>
      <Section title="Defendant">
        <Facts rows={partyRows(legalCase.defendant)} />
      </Section>
      <Section title="Related">
        <Facts
          rows={[
            [
              'Auction',
              legalCase.auction ? (
                <AppLink to={`/auctions/${legalCase.auction.id}`}>
                  {legalCase.auction.title}
                </AppLink>
              ) : (
                none
              ),
            ],
            [
              'Bidder',
              legalCase.bidder ? (
                <AppLink to={`/bidders?bidder=${encodeURIComponent(legalCase.bidder.id)}`}>
                  {legalCase.bidder.name}
                </AppLink>
              ) : (
                none
              ),
            ],
            ['Assigned to', legalCase.assignedTo?.name ?? 'Unassigned'],
          ]}
        />
      </Section>
      <Section title="Proceedings">
        <Facts
          rows={[
            ['Legal counsel', orNone(legalCase.legalCounsel)],
            ['Court case number', orNone(legalCase.courtCaseNumber)],
            [
              'Estimated resolution',
              legalCase.estimatedResolutionDate
                ? formatDay(legalCase.estimatedResolutionDate)
                : none,
            ],
            [
              'Filing deadline',
              legalCase.filingDeadline ? formatDay(legalCase.filingDeadline) : none,
            ],
            ['Resolution notes', orNone(legalCase.resolutionNotes)],
          ]}
        />
      </Section>
    </div>
  );
}
