import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Auction } from '../../functions/src/auctions/auctions.schema.js';
import type { Lot, LotImportResult } from '../../functions/src/auctions/lots/lots.schema.js';
import { createAuction, uploadCatalogue } from '../support/auctions.js';
import {
  codeOf,
  domain,
  fieldsOf,
  freshOwner,
  messageOf,
  signedInToken,
  type Owner,
} from '../support/bidders.js';
import { demo, type Reply } from '../support/identity.js';

let owner: Owner;
let viewer: string;
let lakeside: string;

beforeAll(async () => {
  owner = await freshOwner();
  viewer = await signedInToken(demo.viewer);
  lakeside = await signedInToken(demo.lakesideOwner);
});

const resultOf = (reply: Reply<Record<string, unknown>>) =>
  reply.body as unknown as LotImportResult;

const lotsOf = async (auctionId: string) =>
  (await domain<{ lots: Lot[] }>('GET', `/auctions/${auctionId}/lots`, { token: owner.token })).body
    .lots;

const csv = (...lines: string[]) => ({ name: 'catalogue.csv', data: `${lines.join('\n')}\n` });

describe('importing a catalogue', () => {
  it('adds the lots of a good CSV after those already there, money in minor units', async () => {
    const auction = await createAuction(owner.token);
    await domain('POST', `/auctions/${auction.id}/lots`, {
      token: owner.token,
      body: { lotNumber: '1', title: 'Already here' },
    });
    const reply = await uploadCatalogue(owner.token, auction.id, [
      csv(
        'Lot No,Title,Description,Category,Low Estimate,High Estimate,Reserve,Consignor,Consignor Contact',
        '2,Harbour at dusk,"Oil on canvas, signed",Art,"1,250.00","2,000",900,Estate of A. Smith,smith@example.com',
        '3,Silver teapot,,Antiques,300,450.50,,,',
      ),
    ]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(resultOf(reply)).toEqual({ imported: 2, updated: 0, errors: [] });
    const lots = await lotsOf(auction.id);
    expect(lots.map((lot) => [lot.lotNumber, lot.position])).toEqual([
      ['1', 1],
      ['2', 2],
      ['3', 3],
    ]);
    expect(lots[1]).toMatchObject({
      title: 'Harbour at dusk',
      description: 'Oil on canvas, signed',
      category: 'Art',
      estimateLow: 125_000,
      estimateHigh: 200_000,
      reserve: 90_000,
      consignor: { name: 'Estate of A. Smith', contact: 'smith@example.com' },
    });
    expect(lots[2]).toMatchObject({ estimateHigh: 45_050, reserve: null, consignor: null });
    const read = await domain<Auction>('GET', `/auctions/${auction.id}`, { token: owner.token });
    expect(read.body.lotCount).toBe(3);
  });

  it('names the row and column of each bad row, imports the good ones', async () => {
    const auction = await createAuction(owner.token);
    const reply = await uploadCatalogue(owner.token, auction.id, [
      csv(
        'Lot,Title,Category,Low Estimate,High Estimate',
        '1,Good lot,Art,100,200',
        '2,,Art,100,200',
        '3,Inverted,Art,500,100',
        '4,Odd category,Paintings,about 50,',
        '',
        '5,Also good,,,',
        '6,Twice,Art,,',
        '6,Twice again,Art,,',
      ),
    ]);
    expect(reply.status).toBe(200);
    const result = resultOf(reply);
    expect([result.imported, result.updated]).toEqual([2, 0]);
    expect(result.errors.map((error) => [error.row, error.field])).toEqual([
      [3, 'title'],
      [4, 'estimateHigh'],
      [5, 'category'],
      [5, 'estimateLow'],
      [7, 'lotNumber'],
      [8, 'lotNumber'],
    ]);
    expect(result.errors[0]?.message).toBe('is required');
    expect(result.errors[3]?.message).toBe('is an amount like 1,250.00');
    expect(result.errors[4]?.message).toBe('Lot 6 is on more than one row (rows 7, 8)');
    expect((await lotsOf(auction.id)).map((lot) => lot.lotNumber)).toEqual(['1', '5']);
  });

  it('reads an Excel workbook, recognised by its content', async () => {
    const auction = await createAuction(owner.token, { currency: 'JPY' });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Catalogue');
    sheet.addRow(['Lot Number', 'Title', 'Low Estimate', 'High Estimate']);
    sheet.addRow(['10', 'Netsuke', 150_000, 200_000]);
    sheet.addRow([11, 'Inro', '¥80,000', 120_000.5]);
    const data = Buffer.from(await workbook.xlsx.writeBuffer());
    const reply = await uploadCatalogue(owner.token, auction.id, [{ name: 'lots.xlsx', data }]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(resultOf(reply)).toEqual({
      imported: 1,
      updated: 0,
      errors: [{ row: 3, field: 'estimateHigh', message: 'has whole units' }],
    });
    expect((await lotsOf(auction.id))[0]).toMatchObject({
      lotNumber: '10',
      estimateLow: 150_000,
      estimateHigh: 200_000,
    });
    const misnamed = await uploadCatalogue(owner.token, auction.id, [{ name: 'lots.csv', data }]);
    expect(misnamed.status).toBe(415);
  });

  it('updates the lots whose numbers are already there, only in the columns the file has', async () => {
    const auction = await createAuction(owner.token);
    await domain('POST', `/auctions/${auction.id}/lots`, {
      token: owner.token,
      body: {
        lotNumber: '12A',
        title: 'Old title',
        description: 'Kept as it is',
        estimateLow: 10_000,
        consignor: { name: 'Jones', contact: 'jones@example.com' },
      },
    });
    const reply = await uploadCatalogue(owner.token, auction.id, [
      csv('Lot,Title,High Estimate,Consignor', '12a,New title,250,Jones & Co', '13,New lot,,'),
    ]);
    expect(resultOf(reply)).toEqual({ imported: 1, updated: 1, errors: [] });
    const [changed, added] = await lotsOf(auction.id);
    expect(changed).toMatchObject({
      lotNumber: '12a',
      position: 1,
      title: 'New title',
      description: 'Kept as it is',
      estimateLow: 10_000,
      estimateHigh: 25_000,
      consignor: { name: 'Jones & Co', contact: 'jones@example.com' },
    });
    expect(added).toMatchObject({ lotNumber: '13', position: 2 });
    const read = await domain<Auction>('GET', `/auctions/${auction.id}`, { token: owner.token });
    expect(read.body.lotCount).toBe(2);
    const below = await uploadCatalogue(owner.token, auction.id, [
      csv('Lot,Title,High Estimate', '12A,New title,50'),
    ]);
    expect(resultOf(below).errors).toEqual([
      { row: 2, field: 'estimateHigh', message: "is below the lot's low estimate" },
    ]);
  });

  it('writes a large catalogue in batches with every number claimed once', async () => {
    const auction = await createAuction(owner.token);
    const rows = Array.from({ length: 250 }, (_, index) => `${index + 1},Lot ${index + 1},100,200`);
    const first = await uploadCatalogue(owner.token, auction.id, [
      csv('Lot,Title,Low Estimate,High Estimate', ...rows),
    ]);
    expect(resultOf(first)).toEqual({ imported: 250, updated: 0, errors: [] });
    const again = await uploadCatalogue(owner.token, auction.id, [
      csv('Lot,Title,Low Estimate,High Estimate', ...rows),
    ]);
    expect(resultOf(again)).toEqual({ imported: 0, updated: 250, errors: [] });
    const lots = await lotsOf(auction.id);
    expect(lots.map((lot) => lot.position)).toEqual(lots.map((_, index) => index + 1));
    const read = await domain<Auction>('GET', `/auctions/${auction.id}`, { token: owner.token });
    expect(read.body.lotCount).toBe(250);
    const twice = await domain('POST', `/auctions/${auction.id}/lots`, {
      token: owner.token,
      body: { lotNumber: '250', title: 'Again' },
    });
    expect(fieldsOf(twice)).toEqual(['lotNumber']);
  });
});

describe('an import beside other writers', () => {
  it('keeps numbers unique, positions distinct and the count exact, whoever writes first', async () => {
    const auction = await createAuction(owner.token);
    const rows = Array.from({ length: 120 }, (_, index) => `${index + 1},Imported ${index + 1}`);
    const [imported, ...single] = await Promise.all([
      uploadCatalogue(owner.token, auction.id, [csv('Lot,Title', ...rows)]),
      ...[5, 60, 119, 200, 201].map((number) =>
        domain<Lot>('POST', `/auctions/${auction.id}/lots`, {
          token: owner.token,
          body: { lotNumber: String(number), title: `Single ${number}` },
        }),
      ),
    ]);
    const result = resultOf(imported);
    expect(result.errors).toEqual([]);
    expect(result.imported + result.updated).toBe(120);
    const created = single.filter((reply) => reply.status === 201).length;
    // A single lot that came first is updated by the import; one that came later finds it taken.
    expect(
      single.every((reply) => reply.status === 201 || fieldsOf(reply)[0] === 'lotNumber'),
    ).toBe(true);
    const lots = await lotsOf(auction.id);
    expect(lots.length).toBe(122);
    expect(result.imported + created).toBe(122);
    expect(new Set(lots.map((lot) => lot.lotNumber)).size).toBe(122);
    expect(lots.map((lot) => lot.position)).toEqual(lots.map((_, index) => index + 1));
    const read = await domain<Auction>('GET', `/auctions/${auction.id}`, { token: owner.token });
    expect(read.body.lotCount).toBe(122);
  });
});

describe('what an import refuses', () => {
  let auction: Auction;
  beforeAll(async () => {
    auction = await createAuction(owner.token);
  });
  const good = csv('Lot,Title', '1,A lot');

  it('a caller without auctions:edit (403) and another account (404)', async () => {
    const refused = await uploadCatalogue(viewer, auction.id, [good]);
    expect(refused.status).toBe(403);
    expect(messageOf(refused)).toBe('You need the auctions:edit permission to do this');
    expect((await uploadCatalogue(lakeside, auction.id, [good])).status).toBe(404);
    expect((await uploadCatalogue(undefined, auction.id, [good])).status).toBe(401);
  });

  it('a body that is not a form with a file, naming the field (400)', async () => {
    const json = await domain('POST', `/auctions/${auction.id}/lots/import`, {
      token: owner.token,
      body: { lots: [] },
    });
    expect(json.status).toBe(400);
    expect(fieldsOf(json)).toEqual(['file']);
    const empty = await uploadCatalogue(owner.token, auction.id, []);
    expect([empty.status, fieldsOf(empty), messageOf(empty)]).toEqual([
      400,
      ['file'],
      'file: Choose a CSV or Excel file',
    ]);
    const elsewhere = await uploadCatalogue(owner.token, auction.id, [good], 'files');
    expect(fieldsOf(elsewhere)).toEqual(['file']);
  });

  it('a file without the columns a catalogue needs, or with too many lots', async () => {
    const noTitle = await uploadCatalogue(owner.token, auction.id, [csv('Lot,Estimate', '1,5')]);
    expect(messageOf(noTitle)).toBe('file: has no Title column; the first row names the columns');
    const many = Array.from({ length: 5001 }, (_, index) => `${index + 1},Lot`);
    const tooMany = await uploadCatalogue(owner.token, auction.id, [csv('Lot,Title', ...many)]);
    expect(messageOf(tooMany)).toBe(
      'file: holds more than 5,000 lots; split it into smaller files',
    );
    expect((await lotsOf(auction.id)).length).toBe(0);
  });

  it('a file that is neither CSV nor Excel (415)', async () => {
    const json = await uploadCatalogue(owner.token, auction.id, [
      { name: 'lots.json', data: '[{"lotNumber":"1"}]' },
    ]);
    expect([json.status, codeOf(json)]).toEqual([415, 'unsupported_media_type']);
  });

  it('a closed catalogue (409)', async () => {
    const cancelled = await createAuction(owner.token);
    await domain('POST', `/auctions/${cancelled.id}/cancel`, {
      token: owner.token,
      body: { reason: 'Consignor withdrew' },
    });
    const reply = await uploadCatalogue(owner.token, cancelled.id, [good]);
    expect(reply.status).toBe(409);
    expect(messageOf(reply)).toBe('The catalogue of a Cancelled auction cannot change');
  });
});
