import { Card, Link, makeStyles, Text, tokens } from '@fluentui/react-components';
import { caseTypeLabels, type LegalCase } from '@contracts/legal/legal.schema';
import type { MouseEvent } from 'react';
import { formatMoney } from '../../../lib/money';
import { CaseMenu, type CaseAction } from './CaseMenu';
import { CaseStatusBadge, formatDate, PriorityBadge } from './case-style';

const useStyles = makeStyles({
  card: { cursor: 'pointer', height: '100%', boxSizing: 'border-box' },
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, flexGrow: 1 },
  head: {
    display: 'flex',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
  },
  heading: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  number: { fontWeight: tokens.fontWeightSemibold },
  title: { overflowWrap: 'anywhere' },
  badges: { display: 'flex', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'max-content minmax(0, 1fr)',
    columnGap: tokens.spacingHorizontalM,
    rowGap: '2px',
    margin: 0,
    '& dt': { color: tokens.colorNeutralForeground2 },
    '& dd': { margin: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  },
  amount: { fontWeight: tokens.fontWeightSemibold },
});

/** A case as a card: the Active Cases grid, and the All Cases list on a phone. */
export function CaseCard({
  legalCase,
  onAction,
}: {
  legalCase: LegalCase;
  onAction(action: CaseAction, legalCase: LegalCase): void;
}) {
  const styles = useStyles();
  // A click anywhere opens the case, except on the link or the menu, which act themselves.
  const open = (event: MouseEvent) => {
    if ((event.target as HTMLElement).closest('a, button, [role="menu"]')) return;
    onAction('view', legalCase);
  };
  return (
    <Card className={styles.card} onClick={open}>
      <div className={styles.body}>
        <div className={styles.head}>
          <div className={styles.heading}>
            <Link
              href={`/legal/cases/${legalCase.id}`}
              className={styles.number}
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                onAction('view', legalCase);
              }}
            >
              {legalCase.caseNumber}
            </Link>
            <Text className={styles.title}>{legalCase.title}</Text>
          </div>
          <CaseMenu legalCase={legalCase} onAction={onAction} />
        </div>
        <div className={styles.badges}>
          <PriorityBadge priority={legalCase.priority} />
          <CaseStatusBadge status={legalCase.status} />
        </div>
        <dl className={styles.facts}>
          <dt>Type</dt>
          <dd>{caseTypeLabels[legalCase.caseType]}</dd>
          <dt>Amount</dt>
          <dd className={styles.amount}>
            {formatMoney(legalCase.claimAmount, legalCase.currency)}
          </dd>
          <dt>Bidder</dt>
          <dd>{legalCase.bidder?.name ?? '—'}</dd>
          <dt>Auction</dt>
          <dd>{legalCase.auction?.title ?? '—'}</dd>
          <dt>Filed</dt>
          <dd>{formatDate(legalCase.createdAt)}</dd>
        </dl>
      </div>
    </Card>
  );
}
