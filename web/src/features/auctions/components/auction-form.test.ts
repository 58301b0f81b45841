import type { Auction } from '@contracts/auctions/auctions.schema';
import { describe, expect, it } from 'vitest';
import {
  auctionFieldSentence,
  blankAuctionForm,
  checkCreate,
  checkUpdate,
  formFromAuction,
  rowKey,
  type AuctionFormState,
} from './auction-form';

const filled = (): AuctionFormState => ({
  ...blankAuctionForm(),
  title: 'Spring Fine Art',
  category: 'art',
  startDate: '2026-05-12',
  startTime: '18:30',
  endDate: '2026-05-12',
  endTime: '21:00',
  timeZone: 'America/New_York',
  auctionHouseId: 'house-1',
  buyersPremium: '22.5',
  paymentMethods: ['Wire Transfer', 'Check'],
  requirements: [{ key: rowKey(), text: 'Photo ID' }],
  biddingIncrements: [
    { key: rowKey(), from: '0', increment: '50' },
    { key: rowKey(), from: '1,000', increment: '100.50' },
  ],
  biddingDeposits: [{ key: rowKey(), description: 'Paddle deposit', amount: '$500' }],
  shippingOptions: [{ key: rowKey(), name: 'Pickup', price: '', description: 'At the gallery' }],
});

const auction: Auction = {
  id: 'a-1',
  title: 'Spring Fine Art',
  company: 'Harborview Auctions',
  type: 'Live',
  category: 'art',
  subcategory: '',
  description: '',
  notes: '',
  location: '',
  status: 'Upcoming',
  startsAt: '2026-05-12T22:30:00.000Z',
  endsAt: '2026-05-13T01:00:00.000Z',
  startDate: '2026-05-12',
  startTime: '18:30',
  endDate: '2026-05-12',
  endTime: '21:00',
  timeZone: 'America/New_York',
  buyersPremium: 22.5,
  buyersPremiumDescription: '',
  currency: 'USD',
  currencySymbol: '$',
  auctionHouseId: 'house-1',
  auctionHouseName: 'Harborview Auctions',
  registrationRequired: true,
  requirements: ['Photo ID'],
  paymentMethods: ['Wire Transfer'],
  biddingIncrements: [{ from: 0, increment: 5000 }],
  biddingDeposits: [],
  // Key order differs from the form's: it must not count as a change.
  shippingOptions: [{ description: 'At the gallery', price: null, name: 'Pickup' }],
  terms: '',
  biddersRegistered: 0,
  lotCount: 0,
  importedFrom: null,
  source: null,
  allowedStatuses: ['Active', 'Cancelled'],
  createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
  publishedAt: null,
  closedAt: null,
  cancelledAt: null,
  etag: 'e1',
};

describe('the auction form', () => {
  it('sends amounts as minor units of the chosen currency', () => {
    const checked = checkCreate(filled());
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.body.buyersPremium).toBe(22.5);
    expect(checked.body.biddingIncrements).toEqual([
      { from: 0, increment: 5000 },
      { from: 100_000, increment: 10_050 },
    ]);
    expect(checked.body.biddingDeposits).toEqual([
      { description: 'Paddle deposit', amount: 50_000 },
    ]);
    expect(checked.body.shippingOptions).toEqual([
      { name: 'Pickup', price: null, description: 'At the gallery' },
    ]);
    expect(checked.body.requirements).toEqual(['Photo ID']);
  });

  it('says a blank required field is required, in the form’s words', () => {
    const checked = checkCreate(blankAuctionForm());
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors).toMatchObject({
      title: 'Title is required',
      category: 'Category is required',
      startDate: 'Start date is required',
      endTime: 'End time is required',
    });
    // The account's only house (or the account itself) runs it when none is chosen.
    expect(checked.errors.auctionHouseId).toBeUndefined();
  });

  it('puts an amount’s problem beside its row', () => {
    const form = filled();
    form.currency = 'JPY';
    const checked = checkCreate(form);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors['biddingIncrements.1.increment']).toBe(
      'Increment is a whole number of JPY',
    );
    const decreasing = filled();
    decreasing.biddingIncrements.reverse();
    const refused = checkCreate(decreasing);
    expect(refused.ok ? {} : refused.errors).toEqual({
      biddingIncrements: 'Bidding increments go up: each row starts above the one before',
    });
  });

  it('sends only what changed in an edit, and a status move', () => {
    const form = formFromAuction(auction);
    expect(checkUpdate(auction, form)).toEqual({ ok: true, changes: {} });
    form.title = 'Spring Fine Art & Design';
    form.paymentMethods = ['Wire Transfer', 'Cash'];
    form.status = 'Cancelled';
    expect(checkUpdate(auction, form)).toEqual({
      ok: false,
      errors: { statusReason: 'Say why the auction is cancelled' },
    });
    form.statusReason = 'The consignor withdrew the collection';
    expect(checkUpdate(auction, form)).toEqual({
      ok: true,
      changes: {
        title: 'Spring Fine Art & Design',
        paymentMethods: ['Wire Transfer', 'Cash'],
        status: 'Cancelled',
        statusReason: 'The consignor withdrew the collection',
      },
    });
  });

  it('words server problems with the form’s labels', () => {
    expect(auctionFieldSentence('endDate', 'must be after the start')).toBe(
      'End date must be after the start',
    );
    expect(auctionFieldSentence('shippingOptions.0.name', 'is required')).toBe('Name is required');
    expect(auctionFieldSentence('endDate', 'Ends before it starts')).toBe('Ends before it starts');
  });
});
