/** Summary figures of a set of timings in milliseconds. */
export function summarise(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / (sorted.length || 1);
  return { count: sorted.length, mean, p50: at(0.5), p95: at(0.95), min: sorted[0] ?? Number.NaN };
}

export type Summary = ReturnType<typeof summarise>;

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
