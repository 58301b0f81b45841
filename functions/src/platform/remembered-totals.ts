/**
 * Totals of a list, kept for a minute per account and filter. Counting a large account costs as
 * much as the page itself, and the same filter is asked for again and again while someone works;
 * any write to what is counted, from this instance, forgets the account's totals at once (another
 * instance's write shows within the minute).
 */
const TTL_MS = 60_000;

export function rememberedTotals() {
  const totals = new Map<string, Map<string, { value: Promise<number>; at: number }>>();
  return {
    remembered(accountId: string, filter: string, count: () => Promise<number>): Promise<number> {
      let forAccount = totals.get(accountId);
      if (!forAccount) {
        forAccount = new Map();
        totals.set(accountId, forAccount);
      }
      const cached = forAccount.get(filter);
      if (cached && Date.now() - cached.at < TTL_MS) return cached.value;
      const value = count();
      const entry = { value, at: Date.now() };
      forAccount.set(filter, entry);
      const kept = forAccount;
      value.catch(() => {
        if (kept.get(filter) === entry) kept.delete(filter);
      });
      return value;
    },
    forget(accountId: string): void {
      totals.delete(accountId);
    },
  };
}
