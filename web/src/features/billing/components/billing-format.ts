import type { TierView } from '../api/billing';
import { formatMoney } from '../../../lib/money';

/** Billing is in US dollars; amounts are cents like every amount the services send. */
export const usd = (cents: number) => formatMoney(cents, 'USD');

/** "$0.35 per extra bidder". */
export const perExtraBidder = (tier: Pick<TierView, 'overageFee'>) =>
  `${formatMoney(tier.overageFee, 'USD')} per extra bidder`;

export const shortDate = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' })
    : '—';

export const intervalWord = (interval: 'month' | 'year') =>
  interval === 'year' ? 'year' : 'month';
