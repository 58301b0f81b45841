/** Counts in words that agree with them ("1 member", "2 members"): the one helper for English. */

const rules = new Intl.PluralRules('en-US');

/** The form of a word that agrees with a count: `one` for 1, `other` for any other count. */
export function agree(count: number, one: string, other = `${one}s`): string {
  return rules.select(count) === 'one' ? one : other;
}

/** A count and its noun: "1 member", "0 pending invitations", "1,250 bidders". */
export function countOf(count: number, one: string, other?: string): string {
  return `${count.toLocaleString()} ${agree(count, one, other)}`;
}
