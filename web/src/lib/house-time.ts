import { timezones } from '@contracts/identity/shared/common.schema';

/**
 * An auction's dates and times are the house's wall clock (`2026-05-12`, `18:30`) in the house's
 * time zone, with the instant beside them. These show them as the house reads them, whatever the
 * zone of the browser.
 */

const dayFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const shortDayFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** "Tue, May 12, 2026" for `2026-05-12` (a calendar day: no zone can move it). */
export function formatHouseDate(date: string, style: 'long' | 'short' = 'long'): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return (style === 'long' ? dayFormat : shortDayFormat).format(parsed);
}

/** "6:30 PM" for `18:30`. */
export function formatHouseTime(time: string): string {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) return time;
  const hours = Number(match[1]);
  const suffix = hours < 12 ? 'AM' : 'PM';
  return `${hours % 12 === 0 ? 12 : hours % 12}:${match[2]} ${suffix}`;
}

/** The zone's short name at an instant, as clocks there showed it: "EDT" or "EST", "GMT+9". */
export function zoneAbbreviation(timeZone: string, instant: string): string {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return timeZone;
  try {
    const parts = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName');
    return parts?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}

/** "Eastern (America/New_York)": the names the settings screens use. */
export function zoneLabel(timeZone: string): string {
  const known = timezones.find((zone) => zone.value === timeZone);
  return known ? `${known.label} (${timeZone})` : timeZone;
}

/** "Tue, May 12, 2026 · 6:30 PM EDT". */
export function formatHouseMoment(
  date: string,
  time: string,
  timeZone: string,
  instant: string,
): string {
  return `${formatHouseDate(date)} · ${formatHouseTime(time)} ${zoneAbbreviation(timeZone, instant)}`;
}

/** Today's date on the house's calendar, `YYYY-MM-DD`. */
export function todayIn(timeZone: string, now = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** A calendar day moved by whole days: `addDays('2026-02-28', 1)` is `2026-03-01`. */
export function addDays(date: string, days: number): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  parsed.setUTCDate(parsed.getUTCDate() + days);
  return parsed.toISOString().slice(0, 10);
}
