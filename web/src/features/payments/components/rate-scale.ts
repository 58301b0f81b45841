import { parseMoney, toMajorText, type MoneyCurrency } from '../../../lib/money';

/** A band of a sliding scale as its form holds it: the amount and rate as typed. */
export interface BandDraft {
  upTo: string;
  rate: string;
}

/** Basis points as a percentage one types: 2600 -> "26", 825 -> "8.25". */
export const bpsText = (bps: number) => String(bps / 100);

export type ParsedRate = { ok: true; bps: number } | { ok: false; message: string };

/** A percentage typed ("26", "8.25%") as basis points: 0 to 100 with at most two decimals. */
export function parseRate(text: string): ParsedRate {
  const cleaned = text.trim().replace(/%$/, '').trim();
  if (!cleaned) return { ok: false, message: 'is required' };
  const match = /^(\d{1,3})(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (!match) return { ok: false, message: 'is a percentage like 26 or 8.25' };
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0') || '0');
  if (bps > 10_000) return { ok: false, message: 'is at most 100%' };
  return { ok: true, bps };
}

export const bandsOf = (
  scale: { upTo: number | null; rateBps: number }[],
  currency: MoneyCurrency,
): BandDraft[] =>
  scale.map((band) => ({ upTo: toMajorText(band.upTo, currency), rate: bpsText(band.rateBps) }));

/**
 * The bands as the service takes them, or the problems keyed `{prefix}.{index}.upTo|rate`. The
 * last band has no upper bound; each other's is above the one before.
 */
export function scaleOf(
  bands: BandDraft[],
  currency: MoneyCurrency,
  prefix: string,
): { scale: { upTo: number | null; rateBps: number }[]; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  let previous = 0;
  const scale = bands.map((band, index) => {
    const last = index === bands.length - 1;
    const rate = parseRate(band.rate);
    if (!rate.ok) errors[`${prefix}.${index}.rate`] = `Rate ${rate.message}`;
    let upTo: number | null = null;
    if (!last) {
      const parsed = parseMoney(band.upTo, currency);
      if (!parsed.ok) errors[`${prefix}.${index}.upTo`] = `Up to ${parsed.message}`;
      else if (parsed.minor === null) errors[`${prefix}.${index}.upTo`] = 'Up to is required';
      else if (parsed.minor <= previous)
        errors[`${prefix}.${index}.upTo`] = 'Up to is above the band before';
      else {
        upTo = parsed.minor;
        previous = parsed.minor;
      }
    }
    return { upTo, rateBps: rate.ok ? rate.bps : 0 };
  });
  return { scale, errors };
}
