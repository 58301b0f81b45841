import { rememberedTotals } from '../platform/remembered-totals.js';

/** Totals of the bidder list (see remembered-totals.ts): any write to bidders forgets them. */
const totals = rememberedTotals();

export const rememberedTotal = totals.remembered;
export const forgetTotals = totals.forget;
