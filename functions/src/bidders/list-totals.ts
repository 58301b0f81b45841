/**
 * Totals for the bidder list, kept for a minute per account and filter. Counting a large account
 * costs as much as the page itself, and the same filter is asked for again and again while someone
 * works; any write to the account's bidders from this instance forgets its totals at once.
 */
const TTL_MS = 60_000;
const totals = new Map<string, Map<string, { value: Promise<number>; at: number }>>();

export function rememberedTotal(
  accountId: string,
  filter: string,
  count: () => Promise<number>,
): Promise<number> {
  let forAccount = totals.get(accountId);
  if (!forAccount) {
    forAccount = new Map();
    totals.set(accountId, forAccount);
  }
  const cached = forAccount.get(filter);
  if (cached && Date.now() - cached.at < TTL_MS) return cached.value;
  const value = count();
  forAccount.set(filter, { value, at: Date.now() });
  value.catch(() => forAccount.delete(filter));
  return value;
}

export function forgetTotals(accountId: string): void {
  totals.delete(accountId);
}
