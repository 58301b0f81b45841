import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatHouseDate,
  formatHouseMoment,
  formatHouseTime,
  todayIn,
  zoneAbbreviation,
  zoneLabel,
} from './house-time';

describe('house time', () => {
  it('shows a calendar day as that day, whatever the zone of the browser', () => {
    expect(formatHouseDate('2026-05-12')).toBe('Tue, May 12, 2026');
    expect(formatHouseDate('2026-01-01', 'short')).toBe('Jan 1, 2026');
    expect(formatHouseDate('not-a-date')).toBe('not-a-date');
  });

  it('shows the wall clock in twelve-hour time', () => {
    expect(formatHouseTime('18:30')).toBe('6:30 PM');
    expect(formatHouseTime('00:05')).toBe('12:05 AM');
    expect(formatHouseTime('12:00')).toBe('12:00 PM');
    expect(formatHouseTime('09:15')).toBe('9:15 AM');
  });

  it('names the zone as its clocks did at the instant, summer or winter', () => {
    expect(zoneAbbreviation('America/New_York', '2026-07-01T22:30:00Z')).toBe('EDT');
    expect(zoneAbbreviation('America/New_York', '2026-01-10T23:30:00Z')).toBe('EST');
    expect(zoneAbbreviation('Europe/London', '2026-01-10T12:00:00Z')).toBe('GMT');
    expect(
      formatHouseMoment('2026-07-01', '18:30', 'America/New_York', '2026-07-01T22:30:00Z'),
    ).toBe('Wed, Jul 1, 2026 · 6:30 PM EDT');
  });

  it('labels the zones the settings offer, and passes others through', () => {
    expect(zoneLabel('America/Chicago')).toBe('Central (America/Chicago)');
    expect(zoneLabel('Africa/Nairobi')).toBe('Africa/Nairobi');
  });

  it('knows the house’s date when the browser’s differs', () => {
    const lateInLondon = new Date('2026-03-10T23:30:00Z');
    expect(todayIn('Europe/London', lateInLondon)).toBe('2026-03-10');
    expect(todayIn('Asia/Tokyo', lateInLondon)).toBe('2026-03-11');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
