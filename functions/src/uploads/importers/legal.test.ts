import { describe, expect, it } from 'vitest';
import { caseKeyOf, caseOfRow, legalImporter } from './legal.js';

const row = (overrides: Record<string, unknown> = {}) => ({
  caseType: 'Payment Dispute',
  category: 'Post-sale',
  priority: 'High',
  title: 'Unpaid lot 14',
  jurisdiction: 'New York',
  ...overrides,
});

describe('legal case rows', () => {
  it('reads choices by their value or label, and money in minor units', () => {
    expect(caseOfRow(row({ claimAmount: '1,250.00', defendantName: 'Ada Byron' }))).toEqual({
      row: {
        caseNumber: undefined,
        bidder: null,
        input: expect.objectContaining({
          caseType: 'payment_dispute',
          category: 'post_sale',
          priority: 'high',
          claimAmount: 125000,
          currency: 'USD',
          defendant: { name: 'Ada Byron', type: 'individual', email: '' },
          bidderId: null,
          auctionId: null,
        }),
      },
    });
    expect(
      caseOfRow(row({ caseType: 'title_dispute', claimAmount: 5000, currency: 'jpy' })),
    ).toMatchObject({ row: { input: { caseType: 'title_dispute', claimAmount: 5000 } } });
  });

  it('names the field at fault', () => {
    expect(caseOfRow(row({ caseType: '' }))).toEqual({
      problem: { field: 'caseType', message: 'is required' },
    });
    expect(caseOfRow(row({ priority: 'Urgent' }))).toEqual({
      problem: { field: 'priority', message: 'must be one of Critical, High, Medium, Low' },
    });
    expect(caseOfRow(row({ jurisdiction: '' }))).toEqual({
      problem: { field: 'jurisdiction', message: 'is required' },
    });
    expect(caseOfRow(row({ claimAmount: 'lots' }))).toEqual({
      problem: { field: 'claimAmount', message: 'is an amount like 1,250.00' },
    });
    expect(caseOfRow(row({ claimAmount: '10.50', currency: 'JPY' }))).toEqual({
      problem: { field: 'claimAmount', message: 'has whole units' },
    });
    expect(caseOfRow(row({ plaintiffEmail: 'not-mail' }))).toEqual({
      problem: { field: 'plaintiffEmail', message: 'is not an email address' },
    });
    expect(caseOfRow(row({ defendantType: 'alien' }))).toMatchObject({
      problem: { field: 'defendantType' },
    });
    expect(caseOfRow(row({ bidderEmail: 'nobody' }))).toEqual({
      problem: { field: 'bidderEmail', message: 'is not an email address' },
    });
  });

  it('names the bidder by bidder ID first, else by email', () => {
    expect(caseOfRow(row({ bidderId: 'B-1001', bidderEmail: 'a@example.com' }))).toMatchObject({
      row: { bidder: { by: 'bidderId', value: 'B-1001' } },
    });
    expect(caseOfRow(row({ bidderEmail: 'a@example.com' }))).toMatchObject({
      row: { bidder: { by: 'bidderEmail', value: 'a@example.com' } },
    });
  });

  it('keys a case by its number, else by its bidder, auction and type', () => {
    expect(caseKeyOf(row({ caseNumber: 'HV-2024-17' }))).toBe('#hv-2024-17');
    expect(caseKeyOf(row({ bidderId: 'B-1001', auctionId: 'a1' }))).toBe(
      'B-1001|a1|payment_dispute',
    );
    expect(caseKeyOf(row({ bidderEmail: 'A@Example.com' }))).toBe('a@example.com||payment_dispute');
    // Neither bidder nor auction: every case of the type would match, so it has no key.
    expect(caseKeyOf(row())).toBeNull();
  });

  it('checks rows the same way every time, and reads tabular files only', () => {
    expect(legalImporter.check(row())).toBeNull();
    expect(legalImporter.check(row({ title: '' }))).toEqual({
      field: 'title',
      message: 'is required',
    });
    expect(legalImporter.refuses('json')).toBeNull();
    expect(legalImporter.refuses('zip')).toBe(
      'only CSV, Excel (.xlsx) and JSON files hold legal cases',
    );
    expect(legalImporter.fields.filter((field) => field.required).map((f) => f.key)).toEqual([
      'caseType',
      'category',
      'priority',
      'title',
      'jurisdiction',
    ]);
  });
});
