import { describe, expect, it } from 'vitest';
import { auctionOfRow, auctionsImporter, checkAuctionRow, lotKeyOf } from './auctions.js';

const lot = (overrides: Record<string, unknown> = {}) => ({
  lotNumber: '12A',
  title: 'Pair of Regency chairs',
  estimateLow: '1,250.00',
  estimateHigh: '1800',
  ...overrides,
});

describe('auction lot rows', () => {
  it('checks a lot as the catalogue import does, naming the column at fault', () => {
    expect(checkAuctionRow(lot())).toBeNull();
    expect(checkAuctionRow(lot({ lotNumber: '' }))).toEqual({
      field: 'lotNumber',
      message: 'is required',
    });
    expect(checkAuctionRow(lot({ estimateLow: 'twelve' }))).toEqual({
      field: 'estimateLow',
      message: 'is an amount like 1,250.00',
    });
    expect(checkAuctionRow(lot({ estimateLow: '2000' }))).toEqual({
      field: 'estimateHigh',
      message: 'is below the low estimate',
    });
    expect(checkAuctionRow(lot({ category: 'Spaceships' }))).toMatchObject({
      field: 'category',
    });
  });

  it('passes over a spacer row', () => {
    expect(checkAuctionRow({ lotNumber: '', title: ' ' })).toBeNull();
  });

  it('reads the auction a row names, with the defaults of a day sale', () => {
    expect(
      auctionOfRow(
        lot({
          auctionTitle: 'Spring Sale',
          auctionStartDate: '2031-04-10',
          auctionCategory: 'Art',
        }),
      ),
    ).toEqual({
      auction: {
        title: 'Spring Sale',
        startDate: '2031-04-10',
        missing: null,
        input: expect.objectContaining({
          title: 'Spring Sale',
          type: 'Live',
          category: 'art',
          currency: 'USD',
          startDate: '2031-04-10',
          startTime: '10:00',
          endDate: '2031-04-10',
          endTime: '18:00',
        }),
      },
    });
    expect(
      auctionOfRow(
        lot({
          auctionTitle: 'Spring Sale',
          auctionStartDate: new Date('2031-04-10T00:00:00Z'),
          auctionStartTime: '9:30',
          auctionEndDate: '2031-04-12',
          auctionType: 'online',
          auctionCategory: 'Real Estate',
          auctionCurrency: 'gbp',
        }),
      ),
    ).toMatchObject({
      auction: {
        input: {
          type: 'Online',
          category: 'real-estate',
          currency: 'GBP',
          startTime: '09:30',
          endDate: '2031-04-12',
        },
      },
    });
  });

  it('needs a category only to create the auction, and names what is wrong', () => {
    expect(
      auctionOfRow(lot({ auctionTitle: 'Spring Sale', auctionStartDate: '2031-04-10' })),
    ).toMatchObject({
      auction: { input: null, missing: { field: 'auctionCategory' } },
    });
    expect(auctionOfRow(lot({ auctionTitle: 'Spring Sale' }))).toEqual({
      problem: { field: 'auctionStartDate', message: 'is required with an auction title' },
    });
    expect(auctionOfRow(lot({ auctionStartDate: '2031-04-10' }))).toEqual({
      problem: { field: 'auctionTitle', message: 'is required with an auction start date' },
    });
    expect(
      auctionOfRow(
        lot({ auctionTitle: 'S', auctionStartDate: '2031-04-10', auctionStartTime: '25:00' }),
      ),
    ).toEqual({ problem: { field: 'auctionStartTime', message: 'is a time like 18:30' } });
    expect(
      auctionOfRow(
        lot({ auctionTitle: 'S', auctionStartDate: '2031-04-10', auctionType: 'Silent' }),
      ),
    ).toEqual({
      problem: { field: 'auctionType', message: 'must be one of Live, Online, Hybrid' },
    });
    expect(auctionOfRow(lot())).toEqual({ auction: undefined });
  });

  it('keys a lot by its number in its auction', () => {
    expect(lotKeyOf(lot())).toBe('#12a');
    expect(lotKeyOf(lot({ auctionTitle: ' Spring  Sale', auctionStartDate: '2031-04-10' }))).toBe(
      'spring sale|2031-04-10#12a',
    );
    expect(lotKeyOf(lot({ lotNumber: '' }))).toBeNull();
  });

  it('lists the lot fields first, then the auction columns', () => {
    expect(auctionsImporter.fields.map((field) => field.key).slice(0, 2)).toEqual([
      'lotNumber',
      'title',
    ]);
    expect(auctionsImporter.fields.map((field) => field.key)).toContain('auctionTitle');
    expect(auctionsImporter.refuses('docx')).toBe(
      'only CSV, Excel (.xlsx) and JSON files hold auction lots',
    );
    expect(auctionsImporter.jsonKey).toBe('lots');
  });
});
