import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { Statement } from './settlements.schema.js';
import { renderStatementPdf } from './statement-pdf.js';

const statement: Statement = {
  id: 'statement-1',
  auctionId: 'auction-1',
  auctionTitle: 'Spring Fine Art',
  consignorKey: 'ölgemälde gmbh',
  consignorName: 'Ölgemälde GmbH',
  sequence: 2,
  status: 'paid',
  currency: 'EUR',
  totals: {
    hammer: 100_000,
    commission: 15_000,
    fees: 1_000,
    buyBackFees: 2_000,
    adjustments: -8_500,
    net: 73_500,
    pendingHammer: 5_000,
  },
  createdAt: '2031-05-01T10:00:00.000Z',
  updatedAt: '2031-05-02T10:00:00.000Z',
  approvedAt: '2031-05-02T10:00:00.000Z',
  approvedBy: { id: 'u1', name: 'Olive Owner' },
  paidAt: '2031-05-03T10:00:00.000Z',
  paidOn: '2031-05-03',
  payoutReference: 'SEPA-77',
  etag: 'statement-1-r3',
  agreement: {
    id: 'agreement-x',
    isDefault: false,
    commission: { kind: 'fixed', rateBps: 1500, minimumPerLot: 0 },
    fees: { perLot: 1_000, insuranceBps: 0, buyBackBps: 500 },
    payoutDetails: 'IBAN DE00 0000',
  },
  lines: [
    {
      lotId: 'l1',
      lotNumber: '1',
      title: 'A long title '.repeat(8),
      hammer: 100_000,
      commission: 15_000,
      fees: 1_000,
      net: 84_000,
      boughtBack: false,
    },
    {
      lotId: 'l2',
      lotNumber: '2',
      title: 'Vase',
      hammer: 40_000,
      commission: 0,
      fees: 2_000,
      net: -2_000,
      boughtBack: true,
    },
  ],
  adjustments: [
    {
      lotId: 'l9',
      lotNumber: '9',
      title: 'Clock',
      reason: 'charged_back',
      amount: -8_500,
      reverses: 'statement-0',
    },
  ],
  pending: [{ lotId: 'l3', lotNumber: '3', title: 'Chair', hammer: 5_000 }],
};

describe('the statement PDF', () => {
  it('is a whole PDF, over several pages when the lots need them', async () => {
    const bytes = await buffer(await renderStatementPdf(statement, 'Harborview Auctions'));
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.subarray(-6).toString('latin1')).toContain('%%EOF');

    const many = Array.from({ length: 300 }, (_, i) => ({
      ...statement.lines[0]!,
      lotId: `l${i}`,
      lotNumber: String(i + 1),
    }));
    const long = await buffer(
      await renderStatementPdf({ ...statement, lines: many }, 'Harborview'),
    );
    expect(long.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0).toBeGreaterThan(5);
  });
});
