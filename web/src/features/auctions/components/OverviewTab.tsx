import {
  Body1,
  Caption1,
  Card,
  CardHeader,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { auctionCategoryLabels, type Auction } from '@contracts/auctions/auctions.schema';
import type { ReactNode } from 'react';
import { CopyButton } from '../../../components/CopyButton';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import {
  formatHouseDate,
  formatHouseTime,
  zoneAbbreviation,
  zoneLabel,
} from '../../../lib/house-time';
import { formatMoney } from '../../../lib/money';
import { useFeatureSlots } from '../../../lib/feature-slots';
import { needsPermission } from '../../../lib/permission-text';
import { usePerformance } from '../api/auctions';
import { SourceBadge, StatusBadge } from './auction-style';

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
      gridTemplateColumns: 'minmax(88px, max-content) minmax(0, 1fr)',
      columnGap: tokens.spacingHorizontalM,
    },
  },
  idRow: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  figures: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
    gap: tokens.spacingHorizontalS,
  },
  figure: {
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  figureValue: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  muted: { color: tokens.colorNeutralForeground2 },
  prose: { whiteSpace: 'pre-wrap', margin: 0 },
  list: { margin: 0, paddingInlineStart: tokens.spacingHorizontalL },
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

function Figure({ label, value }: { label: string; value: string }) {
  const styles = useStyles();
  return (
    <div className={styles.figure}>
      <Caption1 className={styles.muted}>{label}</Caption1>
      <span className={styles.figureValue}>{value}</span>
    </div>
  );
}

function Performance({ auction }: { auction: Auction }) {
  const styles = useStyles();
  const can = useCan();
  const allowed = can('auctions:analytics');
  const { data, error } = usePerformance(allowed ? auction.id : null);
  if (!allowed) {
    return (
      <Caption1 className={styles.muted}>
        {needsPermission('auctions:analytics')} to see this auction&apos;s figures.
      </Caption1>
    );
  }
  if (error) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>The figures could not be loaded: {messageOf(error)}</MessageBarBody>
      </MessageBar>
    );
  }
  if (!data) {
    return (
      <Skeleton aria-label="Loading figures">
        <SkeletonItem size={64} />
      </Skeleton>
    );
  }
  const money = (minor: number) => formatMoney(minor, data.currency);
  return (
    <div className={styles.figures}>
      <Figure label="Registrations" value={data.registered.toLocaleString()} />
      <Figure label="Approved" value={data.approved.toLocaleString()} />
      <Figure label="Pending review" value={data.pending.toLocaleString()} />
      <Figure label="Invited" value={data.invited.toLocaleString()} />
      <Figure label="Bids" value={data.bids.toLocaleString()} />
      <Figure label="Lots offered" value={data.lotsOffered.toLocaleString()} />
      <Figure label="Lots sold" value={data.lotsSold.toLocaleString()} />
      <Figure
        label="Sell-through"
        value={data.sellThroughRate === null ? '—' : `${Math.round(data.sellThroughRate * 100)}%`}
      />
      <Figure label="Hammer total" value={money(data.hammerTotal)} />
      <Figure label="Buyer's premium total" value={money(data.buyersPremiumTotal)} />
      <Figure
        label="Average bidder score"
        value={data.averageBidderScore === null ? '—' : String(Math.round(data.averageBidderScore))}
      />
    </div>
  );
}

const orNone = (value: string, none = 'None') => (value.trim() ? value : none);

/** The auction's facts, its terms and, for those who may see them, its figures. */
export function OverviewTab({ auction }: { auction: Auction }) {
  const styles = useStyles();
  const { AuctionSyncHistory } = useFeatureSlots();
  const money = (minor: number | null) =>
    minor === null ? 'Free' : formatMoney(minor, auction.currency);
  const startZone = zoneAbbreviation(auction.timeZone, auction.startsAt);
  const endZone = zoneAbbreviation(auction.timeZone, auction.endsAt);
  return (
    <div className={styles.stack}>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2 as="h2">Performance</Subtitle2>} />
        <Performance auction={auction} />
      </Card>
      <div className={styles.columns}>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2 as="h2">Details</Subtitle2>} />
          <Facts
            rows={[
              ['Auction house', auction.auctionHouseName || auction.company],
              ['Start date', formatHouseDate(auction.startDate)],
              ['Start time', `${formatHouseTime(auction.startTime)} ${startZone}`],
              ['End date', formatHouseDate(auction.endDate)],
              ['End time', `${formatHouseTime(auction.endTime)} ${endZone}`],
              ['Time zone', zoneLabel(auction.timeZone)],
              ['Registered bidders', auction.biddersRegistered.toLocaleString()],
              ['Lots', auction.lotCount.toLocaleString()],
              [
                'Auction ID',
                <span key="id" className={styles.idRow}>
                  <span className={styles.code}>{auction.id}</span>
                  <CopyButton
                    text={auction.id}
                    size="small"
                    appearance="subtle"
                    label=""
                    aria-label="Copy auction ID"
                  />
                </span>,
              ],
              ['Status', <StatusBadge key="status" status={auction.status} />],
              ['Imported from', <SourceBadge key="source" platform={auction.importedFrom} />],
              ['Type', auction.type],
              [
                'Category',
                `${auctionCategoryLabels[auction.category]}${auction.subcategory ? ` › ${auction.subcategory}` : ''}`,
              ],
              ['Location', orNone(auction.location, 'Not given')],
            ]}
          />
        </Card>
        <Card className={styles.card}>
          <CardHeader header={<Subtitle2 as="h2">Terms of sale</Subtitle2>} />
          <Facts
            rows={[
              ['Currency', `${auction.currency} (${auction.currencySymbol})`],
              [
                "Buyer's premium",
                `${auction.buyersPremium}%${auction.buyersPremiumDescription ? ` · ${auction.buyersPremiumDescription}` : ''}`,
              ],
              [
                'Registration',
                auction.registrationRequired
                  ? auction.requirements.length
                    ? `Required: ${auction.requirements.join('; ')}`
                    : 'Required'
                  : 'Not required',
              ],
              [
                'Payment methods',
                auction.paymentMethods.length ? auction.paymentMethods.join(', ') : 'None listed',
              ],
              [
                'Deposits',
                auction.biddingDeposits.length
                  ? auction.biddingDeposits
                      .map((deposit) => `${deposit.description} ${money(deposit.amount)}`)
                      .join('; ')
                  : 'None',
              ],
              [
                'Shipping',
                auction.shippingOptions.length
                  ? auction.shippingOptions
                      .map(
                        (option) =>
                          `${option.name} (${money(option.price)})${option.description ? `: ${option.description}` : ''}`,
                      )
                      .join('; ')
                  : 'None',
              ],
            ]}
          />
          {auction.biddingIncrements.length ? (
            <Table size="small" aria-label="Bidding increments">
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>Bids from</TableHeaderCell>
                  <TableHeaderCell>Rise by</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {auction.biddingIncrements.map((row) => (
                  <TableRow key={row.from}>
                    <TableCell>{money(row.from)}</TableCell>
                    <TableCell>{money(row.increment)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : (
            <Caption1 className={styles.muted}>No bidding increments set.</Caption1>
          )}
        </Card>
      </div>
      {auction.terms || auction.notes ? (
        <div className={styles.columns}>
          {auction.terms ? (
            <Card className={styles.card}>
              <CardHeader header={<Subtitle2 as="h2">Auction terms</Subtitle2>} />
              <Body1 as="p" className={styles.prose}>
                {auction.terms}
              </Body1>
            </Card>
          ) : null}
          {auction.notes ? (
            <Card className={styles.card}>
              <CardHeader header={<Subtitle2 as="h2">Notes</Subtitle2>} />
              <Body1 as="p" className={styles.prose}>
                {auction.notes}
              </Body1>
            </Card>
          ) : null}
        </div>
      ) : null}
      {AuctionSyncHistory ? <AuctionSyncHistory auctionId={auction.id} /> : null}
    </div>
  );
}
