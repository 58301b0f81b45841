import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import { ownerWithAddOns } from '../support/add-ons.js';
import { createAuction } from '../support/auctions.js';
import {
  createBidder,
  domain,
  freshOwner,
  strongStats,
  type BidderWrite,
  type Owner,
} from '../support/bidders.js';
import {
  GOOD_PASSWORD,
  call,
  latestMail,
  linkParam,
  signedIn,
  signup,
  uniqueEmail,
} from '../support/identity.js';

let house: Owner;
let other: Owner;
let plain: Owner;
let alice: BidderWrite;
let bob: BidderWrite;
let auctionId: string;

async function ok<T>(reply: Promise<{ status: number; body: T }>, status = 200) {
  const answer = await reply;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

const buyer = (firstName: string) =>
  createBidder(house.token, {
    firstName,
    lastName: 'Exporter',
    email: `${firstName.toLowerCase()}-${Date.now()}@example.com`,
    stats: strongStats(),
  });

beforeAll(async () => {
  [house, other, plain] = await Promise.all([ownerWithAddOns(), ownerWithAddOns(), freshOwner()]);
  [alice, bob] = await Promise.all([buyer('Alice'), buyer('Bob')]);
  const token = house.token;
  const auction = await createAuction(token, { title: `Export Sale ${Date.now()}` });
  auctionId = auction.id;
  const sales: [BidderWrite, number, string][] = [
    [alice, 123_456, 'Arthur Consignor'],
    [bob, 50_000, 'Arthur Consignor'],
    [alice, 20_000, 'Beth Brown'],
  ];
  const lots: Lot[] = [];
  for (const [index, [, , consignor]] of sales.entries()) {
    lots.push(
      await ok(
        domain<Lot>('POST', `/auctions/${auctionId}/lots`, {
          token,
          body: {
            lotNumber: String(index + 1),
            title: `Lot ${index + 1}`,
            consignor: { name: consignor, contact: '' },
          },
        }),
        201,
      ),
    );
  }
  await ok(domain('POST', `/auctions/${auctionId}/publish`, { token }));
  for (const bidder of [alice, bob]) {
    const registration = await ok(
      domain<Registration>('POST', `/auctions/${auctionId}/register`, {
        token,
        body: { bidderId: bidder.id },
      }),
      201,
    );
    expect(registration.status).toBe('approved');
  }
  await ok(domain('POST', `/auctions/${auctionId}/go-live`, { token }));
  for (const [index, [bidder, hammer]] of sales.entries()) {
    await ok(
      domain('PUT', `/auctions/${auctionId}/lots/${lots[index]?.id}/result`, {
        token,
        body: { outcome: 'sold', hammer, bidderId: bidder.id },
      }),
    );
  }
  await ok(domain('POST', `/auctions/${auctionId}/close`, { token }));
  await ok(domain('POST', `/payments/auctions/${auctionId}/invoices`, { token }));
  // Both buyers pay: Alice in two parts, Bob at once.
  const invoices = await ok(
    domain<{ items: { id: string; bidderId: string; balance: number }[] }>(
      'GET',
      `/payments/invoices?auctionId=${auctionId}`,
      { token },
    ),
  );
  for (const invoice of invoices.items) {
    const parts =
      invoice.bidderId === alice.id ? [1_000, invoice.balance - 1_000] : [invoice.balance];
    for (const amount of parts) {
      await ok(
        domain('POST', `/payments/invoices/${invoice.id}/payments`, {
          token,
          body: { amount, method: 'Check', reference: '=cmd|calc' },
        }),
        201,
      );
    }
  }
  await ok(domain('POST', `/auctions/${auctionId}/settlements`, { token }), 201);
});

interface Download {
  status: number;
  contentType: string | null;
  disposition: string | null;
  bytes: Buffer;
}

async function download(path: string, token = house.token): Promise<Download> {
  const response = await fetch(`${inject('domainUrl')}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    disposition: response.headers.get('content-disposition'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

const csvRows = (file: Download) =>
  parse(file.bytes.toString('utf8'), { bom: true, columns: true }) as Record<string, string>[];

async function sheetRows(file: Download) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file.bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
  const headers = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
  const rows: Record<string, unknown>[] = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const values = (row.values as unknown[]).slice(1);
    rows.push(Object.fromEntries(headers.map((header, i) => [header, values[i] ?? null])));
  });
  return rows;
}

const today = () => new Date().toISOString().slice(0, 10);

describe('Export Report', () => {
  it.each(['transactions', 'invoices', 'settlements', 'bidders', 'auctions'])(
    'exports %s as CSV, Excel and PDF, each named with the date',
    async (dataset) => {
      const csv = await download(`/exports/${dataset}?format=csv`);
      expect(csv.status, csv.bytes.toString()).toBe(200);
      expect(csv.contentType).toBe('text/csv; charset=utf-8');
      expect(csv.disposition).toContain(`filename="${dataset}-${today()}.csv"`);
      const rows = csvRows(csv);
      expect(rows.length).toBeGreaterThan(0);

      const xlsx = await download(`/exports/${dataset}?format=xlsx`);
      expect(xlsx.status).toBe(200);
      expect(xlsx.contentType).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(xlsx.disposition).toContain(`${dataset}-${today()}.xlsx`);
      expect(await sheetRows(xlsx)).toHaveLength(rows.length);

      const pdf = await download(`/exports/${dataset}?format=pdf`);
      expect(pdf.status).toBe(200);
      expect(pdf.contentType).toBe('application/pdf');
      expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    },
  );

  it('writes money in major units with its currency, numeric in the workbook', async () => {
    const csv = csvRows(await download(`/exports/transactions?bidderId=${alice.id}`));
    expect(csv).toHaveLength(2);
    expect(csv.map((row) => row.Amount)).toContain('10.00');
    expect(csv.every((row) => row.Currency === 'USD' && row.Bidder === 'Alice Exporter')).toBe(
      true,
    );
    // A reference that looks like a formula stays text.
    expect(csv[0]?.Reference).toBe("'=cmd|calc");

    const sheet = await sheetRows(
      await download(`/exports/transactions?format=xlsx&bidderId=${alice.id}`),
    );
    expect(sheet.map((row) => row.Amount)).toContain(10);
    expect(sheet.every((row) => typeof row.Amount === 'number')).toBe(true);

    const invoices = csvRows(await download(`/exports/invoices?bidderId=${bob.id}`));
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ Hammer: '500.00', Currency: 'USD', Balance: '0.00' });
  });

  it('applies each list’s filters', async () => {
    expect(csvRows(await download(`/exports/transactions?bidderId=${bob.id}`))).toHaveLength(1);
    expect(csvRows(await download(`/exports/transactions?status=Failed`))).toHaveLength(0);
    expect(csvRows(await download(`/exports/invoices?auctionId=${auctionId}`))).toHaveLength(2);
    const beth = csvRows(await download('/exports/settlements?consignor=beth%20brown'));
    expect(beth).toMatchObject([
      { Consignor: 'Beth Brown', Hammer: '200.00', 'Net payable': '170.00' },
    ]);
    expect(csvRows(await download('/exports/settlements?status=paid'))).toHaveLength(0);
    expect(
      csvRows(await download(`/exports/bidders?search=${encodeURIComponent('alice')}`)).map(
        (row) => row['First name'],
      ),
    ).toEqual(['Alice']);
    expect(csvRows(await download('/exports/auctions?status=Completed'))).toMatchObject([
      { Status: 'Completed', Lots: '3' },
    ]);
    expect(csvRows(await download('/exports/auctions?status=Draft'))).toHaveLength(0);
  });

  it('refuses a bad format or filter, naming the field', async () => {
    const bad = await domain('GET', '/exports/transactions?format=doc', { token: house.token });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('"field":"format"');
    const dates = await domain('GET', '/exports/auctions?startDate=2031-05-02&endDate=2031-05-01', {
      token: house.token,
    });
    expect(dates.status).toBe(400);
    expect(JSON.stringify(dates.body)).toContain('"field":"endDate"');
  });

  it('exports only the account’s own rows, and payments only with the add-on', async () => {
    expect(csvRows(await download('/exports/transactions', other.token))).toHaveLength(0);
    expect(csvRows(await download('/exports/bidders', other.token))).toHaveLength(0);
    expect((await download('/exports/invoices', plain.token)).status).toBe(403);
    // The bidder and auction lists need no add-on.
    expect((await download('/exports/auctions', plain.token)).status).toBe(200);
  });

  it('takes each list’s export permission', async () => {
    const email = uniqueEmail('viewer');
    await ok(
      call('POST', '/auction-house/invite', {
        token: house.token,
        body: { email, role: 'viewer' },
      }),
      201,
    );
    await signup({
      email,
      invitationCode: linkParam(await latestMail(email, 'invitation'), 'invitation'),
    });
    const viewer = (await signedIn(email, GOOD_PASSWORD)).accessToken;
    // A viewer holds payments:reports but neither bidders:export nor auctions:export.
    expect((await download('/exports/settlements', viewer)).status).toBe(200);
    expect((await download('/exports/bidders', viewer)).status).toBe(403);
    expect((await download('/exports/auctions', viewer)).status).toBe(403);
  });
});
