import ExcelJS from 'exceljs';
import type { Conflict } from '../../functions/src/conflicts/conflicts.schema.js';
import { inject, beforeAll, describe, expect, it } from 'vitest';
import {
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  importFiles,
  list,
  messageOf,
  signedInToken,
  type Bidder,
} from '../support/bidders.js';
import { demo, type Reply } from '../support/identity.js';

interface ImportResult {
  totalProcessed: number;
  successful: number;
  failed: number;
  duplicates: number;
  errors: { row: number; field: string; message: string }[];
}

const resultOf = (reply: Reply<Record<string, unknown>>) => reply.body as unknown as ImportResult;

/** The one bidder with this bidder ID, read in full. */
async function bidderWithId(token: string, bidderId: string): Promise<Bidder> {
  const found = (await list(token, { search: bidderId })).body.bidders.filter(
    (bidder) => bidder.bidderId === bidderId,
  );
  expect(found).toHaveLength(1);
  return (await domain<Bidder>('GET', `/bidders/${found[0]?.id}`, { token })).body;
}

const MB = 1024 * 1024;

let staff: string;
let viewer: string;
beforeAll(async () => {
  staff = await signedInToken(demo.staff);
  viewer = await signedInToken(demo.viewer);
});

describe('who may import', () => {
  const file = { name: 'bidders.csv', data: 'firstName,lastName,email\nAnn,Lee,ann@example.com\n' };

  it('wants a signed-in caller', async () => {
    expect((await importFiles(undefined, [file])).status).toBe(401);
  });

  it('refuses viewers and staff, who lack data:import', async () => {
    const asViewer = await importFiles(viewer, [file]);
    expect(asViewer.status).toBe(403);
    expect(messageOf(asViewer)).toBe('You need the data:import permission to do this');
    expect((await importFiles(staff, [file])).status).toBe(403);
  });
});

describe('importing a CSV file', () => {
  let token: string;
  let result: ImportResult;

  beforeAll(async () => {
    token = (await freshOwner()).token;
    await createBidder(token, { bidderId: 'EXIST-1', email: 'existing@example.com' });
    const csv = [
      'Bidder ID,First Name,Last Name,Email,Phone,Status,Total Lots Bid,Wins,Payments On Time,Last Auction,Categories,Note',
      'IMP-1,Ada,Lovelace,ada@example.com,+1 401 555 0101,Active,20,5,3,2025-05-01,Art;Books,First import',
      'IMP-2,Charles,Babbage,charles@example.com,,Pending,,,,,,',
      'IMP-3,Bad,Email,not-an-email,,Active,,,,,,',
      'IMP-4,NoLast,,nolast@example.com,,,,,,,,',
      'IMP-5,Bad,Count,badcount@example.com,,,,abc,,,,',
      'IMP-6,Again,Ada,ADA@Example.com,,,,,,,,',
      'exist-1,Already,Here,someone-new@example.com,,,,,,,,',
      'IMP-7,Bad,Date,baddate@example.com,,,,,,not a date,,',
      'IMP-8,Bad,Status,badstatus@example.com,,Retired,,,,,,',
      '',
    ].join('\n');
    const reply = await importFiles(token, [{ name: 'bidders.csv', data: csv }]);
    expect(reply.status).toBe(200);
    result = resultOf(reply);
  });

  it('counts what it processed, wrote, refused and skipped', () => {
    expect(result).toMatchObject({
      totalProcessed: 9,
      successful: 2,
      failed: 5,
      duplicates: 2,
    });
  });

  it('names the row and the field of each refusal', () => {
    expect(result.errors.map((error) => [error.row, error.field])).toEqual([
      [4, 'email'],
      [5, 'lastName'],
      [6, 'wins'],
      [9, 'lastAuction'],
      [10, 'status'],
    ]);
    expect(result.errors[0]?.message).toBe('Enter a valid email address');
    expect(result.errors[1]?.message).toBe('is required');
    expect(result.errors[3]?.message).toBe('is not a date');
  });

  it('writes the good rows with their facts, scores and note', async () => {
    const ada = await bidderWithId(token, 'IMP-1');
    expect(ada).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+1 401 555 0101',
      status: 'Active',
      preferredCategories: ['Art', 'Books'],
      address: { country: 'USA' },
    });
    expect(ada.stats).toMatchObject({
      totalLotsBid: 20,
      wins: 5,
      paymentsOnTime: 3,
      lastAuction: '2025-05-01T00:00:00.000Z',
    });
    // Win rate: 5 of 20 lots is 25%, which scores 62.5 of the 40% that scores 100.
    expect(ada.lotwiseScore.breakdown.winRate).toBe(63);
    const notes = await domain<{ notes: { note: string; user: string }[] }>(
      'GET',
      `/bidders/${ada.id}/notes`,
      { token },
    );
    expect(notes.body.notes).toMatchObject([{ note: 'First import', user: 'Test Person' }]);
    const charles = await bidderWithId(token, 'IMP-2');
    expect(charles).toMatchObject({ status: 'Pending', phone: null });
    const all = await list(token);
    expect(all.body.total).toBe(3);
    expect(all.body.bidders.map((bidder) => bidder.bidderId).sort()).toEqual([
      'EXIST-1',
      'IMP-1',
      'IMP-2',
    ]);
  });

  it('skips, as duplicates, the same rows imported again', async () => {
    const reply = await importFiles(token, [
      {
        name: 'again.csv',
        data: 'bidderId,firstName,lastName,email\nIMP-1,Ada,Lovelace,ada@example.com\nIMP-9,Ada,L,second-ada@example.com\n',
      },
    ]);
    expect(resultOf(reply)).toMatchObject({
      totalProcessed: 2,
      successful: 1,
      duplicates: 1,
      failed: 0,
    });
  });
});

describe('column mapping', () => {
  it('maps headers it does not know by csvMapping', async () => {
    const { token } = await freshOwner();
    const csv = 'Paddle,Given Name,Family Name,E-mail\nMAP-1,Grace,Hopper,grace@example.com\n';
    const reply = await importFiles(token, [{ name: 'mapped.csv', data: csv }], {
      importType: 'bidders',
      csvMapping: JSON.stringify({
        Paddle: 'bidderId',
        'Given Name': 'firstName',
        'Family Name': 'lastName',
      }),
    });
    expect(reply.status).toBe(200);
    expect(resultOf(reply)).toMatchObject({ successful: 1, failed: 0, errors: [] });
    const grace = await bidderWithId(token, 'MAP-1');
    expect(grace).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
  });

  it('fails every row of unknown headers without a mapping, naming the field', async () => {
    const { token } = await freshOwner();
    const csv = 'Given Name,Family Name,E-mail\nGrace,Hopper,grace@example.com\n';
    const reply = await importFiles(token, [{ name: 'unmapped.csv', data: csv }]);
    expect(resultOf(reply)).toMatchObject({
      successful: 0,
      failed: 1,
      errors: [{ row: 2, field: 'firstName', message: 'is required' }],
    });
  });

  it.each([
    ['not JSON', '{oops', 'csvMapping: must be JSON: { "column header": "field" }'],
    ['not a map of names', '{"Surname": 5}', 'csvMapping: must map column headers to field names'],
  ])('refuses a csvMapping that is %s with 400 naming it', async (_case, csvMapping, message) => {
    const { token } = await freshOwner();
    const reply = await importFiles(
      token,
      [{ name: 'a.csv', data: 'firstName,lastName,email\nA,B,ab@example.com\n' }],
      { importType: 'bidders', csvMapping },
    );
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['csvMapping']);
    expect(messageOf(reply)).toBe(message);
    expect((await list(token)).body.total).toBe(0);
  });

  it('refuses an unknown importType with 400 naming it', async () => {
    const { token } = await freshOwner();
    const reply = await importFiles(
      token,
      [{ name: 'a.csv', data: 'firstName,lastName,email\nA,B,ab@example.com\n' }],
      { importType: 'auctions' },
    );
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['importType']);
    expect(messageOf(reply)).toBe('importType: must be one of: bidders');
  });
});

describe('importing JSON', () => {
  it('reads an array of bidders with nested address and stats', async () => {
    const { token } = await freshOwner();
    const bidders = [
      {
        bidderId: 'J-1',
        firstName: 'Katherine',
        lastName: 'Johnson',
        email: 'katherine@example.com',
        address: { street: '1 Langley Way', city: 'Hampton', state: 'VA', zip: '23665' },
        stats: { totalLotsBid: 10, wins: 4, referrals: 2 },
        preferredCategories: ['Art', 'Coins & Currency'],
      },
      { bidderId: 'J-2', firstName: '', lastName: 'Nobody', email: 'nobody@example.com' },
      { bidderId: 'J-3', firstName: 'Dorothy', lastName: 'Vaughan', email: 'dorothy@example.com' },
    ];
    const reply = await importFiles(token, [{ name: 'b.json', data: JSON.stringify(bidders) }]);
    expect(reply.status).toBe(200);
    expect(resultOf(reply)).toEqual({
      totalProcessed: 3,
      successful: 2,
      failed: 1,
      duplicates: 0,
      errors: [{ row: 2, field: 'firstName', message: 'is required' }],
    });
    const katherine = await bidderWithId(token, 'J-1');
    expect(katherine.address).toEqual({
      street: '1 Langley Way',
      city: 'Hampton',
      state: 'VA',
      zip: '23665',
      country: 'USA',
    });
    expect(katherine.stats).toMatchObject({ totalLotsBid: 10, wins: 4, referrals: 2 });
    expect(katherine.lotwiseScore.breakdown.referrals).toBe(40);
    expect(katherine.preferredCategories).toEqual(['Art', 'Coins & Currency']);
  });

  it('reads { "bidders": [...] } too', async () => {
    const { token } = await freshOwner();
    const data = JSON.stringify({
      bidders: [{ firstName: 'Mary', lastName: 'Jackson', email: 'mary@example.com' }],
    });
    const reply = await importFiles(token, [{ name: 'wrapped.json', data }]);
    expect(resultOf(reply)).toMatchObject({ successful: 1, failed: 0 });
  });

  it.each([
    ['broken JSON', '{"bidders": [', 'files: is not valid JSON'],
    [
      'JSON without bidders',
      '{"people": []}',
      'files: must hold an array of bidders (or { "bidders": [...] })',
    ],
  ])('refuses %s with 400', async (_case, data, message) => {
    const { token } = await freshOwner();
    const reply = await importFiles(token, [{ name: 'bad.json', data }]);
    expect(reply.status).toBe(400);
    expect(messageOf(reply)).toBe(message);
  });
});

describe('importing an Excel workbook', () => {
  it('reads the first sheet, header row first, numbers and dates as typed', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Bidders');
    sheet.addRow([
      'Bidder ID',
      'First Name',
      'Last Name',
      'Email',
      'Total Lots Bid',
      'Wins',
      'Last Auction',
    ]);
    sheet.addRow([
      'X-1',
      'Alan',
      'Turing',
      'alan@example.com',
      40,
      16,
      new Date('2025-03-15T00:00:00Z'),
    ]);
    sheet.addRow(['X-2', 'Joan', 'Clarke', 'joan@example.com', 0, 0, null]);
    sheet.addRow(['X-3', 'Bad', 'Row', 'bad-email', 1, 1, null]);
    const second = workbook.addWorksheet('Ignored');
    second.addRow(['Bidder ID', 'First Name', 'Last Name', 'Email']);
    second.addRow(['X-9', 'Not', 'Read', 'not-read@example.com']);
    const data = Buffer.from(await workbook.xlsx.writeBuffer());

    const { token } = await freshOwner();
    const reply = await importFiles(token, [{ name: 'bidders.xlsx', data }]);
    expect(reply.status).toBe(200);
    expect(resultOf(reply)).toEqual({
      totalProcessed: 3,
      successful: 2,
      failed: 1,
      duplicates: 0,
      errors: [{ row: 4, field: 'email', message: 'Enter a valid email address' }],
    });
    const alan = await bidderWithId(token, 'X-1');
    expect(alan.stats).toMatchObject({
      totalLotsBid: 40,
      wins: 16,
      lastAuction: '2025-03-15T00:00:00.000Z',
    });
    expect(alan.lotwiseScore.breakdown.winRate).toBe(100);
    expect((await list(token)).body.total).toBe(2);
  });

  it('imports several files at once', async () => {
    const { token } = await freshOwner();
    const reply = await importFiles(token, [
      { name: 'one.csv', data: 'firstName,lastName,email\nA,One,a1@example.com\n' },
      { name: 'two.json', data: '[{"firstName":"B","lastName":"Two","email":"b2@example.com"}]' },
    ]);
    expect(resultOf(reply)).toMatchObject({ totalProcessed: 2, successful: 2 });
    expect((await list(token)).body.total).toBe(2);
  });
});

describe('recording likely duplicates an import brings in', () => {
  it('leaves a near-duplicate of an existing bidder for review', async () => {
    const { token } = await freshOwner();
    await createBidder(token, {
      firstName: 'Marcus',
      lastName: 'Brennan',
      email: 'marcus.brennan@example.com',
      phone: '+1 401 555 0142',
      address: { street: '12 Bellevue Avenue', city: 'Newport', state: 'RI', zip: '02840' },
    });
    const csv = [
      'firstName,lastName,email,phone,street,city,state,zip',
      'Marcus,Brennan,m.brennan@work.example.com,401-555-0142,12 Bellevue Avenue,Newport,RI,02840',
    ].join('\n');
    const reply = await importFiles(token, [{ name: 'dupes.csv', data: csv }]);
    expect(resultOf(reply)).toMatchObject({ successful: 1, duplicates: 0 });
    const pairs = await domain<{
      duplicates: { confidenceScore: number; status: string }[];
      summary: { pending: number };
    }>('GET', '/duplicates', { token });
    expect(pairs.body.summary.pending).toBe(1);
    expect(pairs.body.duplicates[0]).toMatchObject({ status: 'pending', confidenceScore: 70 });
    // And it waits under Conflict Resolution, as an upload's likely duplicate does.
    const conflicts = await domain<{ items: Conflict[] }>('GET', '/data-upload/conflicts', {
      token,
    });
    expect(conflicts.body.items).toHaveLength(1);
    expect(conflicts.body.items[0]).toMatchObject({
      type: 'bidder',
      conflictType: 'duplicate',
      status: 'pending',
      uploadId: null,
      uploadName: 'Bidder import',
      source: { kind: 'import' },
      matchScore: 70,
      importedRecord: { email: 'm.brennan@work.example.com' },
      existingRecord: { email: 'marcus.brennan@example.com' },
    });
  });
});

describe('plus-addressed emails', () => {
  it('imports ada+tag@ beside ada@ as a likely duplicate, but skips a Gmail tag as the same mailbox', async () => {
    const { token } = await freshOwner();
    const ada = await createBidder(token, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });
    await createBidder(token, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@gmail.com' });
    const csv = [
      'firstName,lastName,email',
      'Ada,Lovelace,ada+auctions@example.com',
      'Grace,Hopper,Grace+auctions@gmail.com',
    ].join('\n');
    const reply = await importFiles(token, [{ name: 'tags.csv', data: csv }]);
    expect(resultOf(reply)).toMatchObject({ totalProcessed: 2, successful: 1, duplicates: 1 });
    const pairs = await domain<{
      duplicates: {
        bidder1: { id: string; email: string };
        bidder2: { id: string; email: string };
        confidenceScore: number;
        matchReasons: string[];
      }[];
    }>('GET', '/duplicates?status=pending', { token });
    expect(pairs.body.duplicates).toHaveLength(1);
    const pair = pairs.body.duplicates[0];
    expect([pair?.bidder1.email, pair?.bidder2.email].sort()).toEqual([
      'ada+auctions@example.com',
      'ada@example.com',
    ]);
    expect([pair?.bidder1.id, pair?.bidder2.id]).toContain(ada.id);
    // The tag 35 and the same name 25: for a person to review, not merged on its own.
    expect(pair).toMatchObject({
      confidenceScore: 60,
      matchReasons: ['Same email address apart from a +tag', 'Same name'],
    });
  });
});

describe('refusing files', () => {
  let token: string;
  beforeAll(async () => {
    token = (await freshOwner()).token;
  });

  it('refuses a .csv that holds binary content with 415', async () => {
    const data = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00]);
    const reply = await importFiles(token, [{ name: 'bidders.csv', data }]);
    expect(reply.status).toBe(415);
    expect(messageOf(reply)).toBe('bidders.csv does not contain what a .csv file should');
  });

  it('refuses a workbook named .csv and CSV named .xlsx with 415', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('A').addRow(['firstName']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    expect((await importFiles(token, [{ name: 'renamed.csv', data: xlsx }])).status).toBe(415);
    const csv = 'firstName,lastName,email\nA,B,ab@example.com\n';
    expect((await importFiles(token, [{ name: 'renamed.xlsx', data: csv }])).status).toBe(415);
    expect((await importFiles(token, [{ name: 'renamed.json', data: csv }])).status).toBe(415);
  });

  it('refuses a legacy .xls with 415 and advice', async () => {
    const data = Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(504),
    ]);
    const reply = await importFiles(token, [{ name: 'old.xls', data }]);
    expect(reply.status).toBe(415);
    expect(messageOf(reply)).toBe(
      'old.xls: legacy Excel (.xls) files cannot be read safely. Save it as .xlsx or CSV and import that.',
    );
  });

  it('refuses other kinds of file with 415', async () => {
    const reply = await importFiles(token, [{ name: 'bidders.txt', data: 'a,b\n' }]);
    expect(reply.status).toBe(415);
    expect(messageOf(reply)).toBe(
      'bidders.txt: only .csv, .xlsx, .xls and .json files can be imported',
    );
  });

  it('refuses a file over 10 MB with 413', async () => {
    const big = Buffer.alloc(10 * MB + 1, 0x61);
    const reply = await importFiles(token, [{ name: 'big.csv', data: big }]);
    expect(reply.status).toBe(413);
    expect(messageOf(reply)).toBe('Files must be 10 MB or smaller');
  });

  it('refuses files over 10 MB in all with 413', async () => {
    const half = Buffer.alloc(5 * MB + 1, 0x61);
    const reply = await importFiles(token, [
      { name: 'one.csv', data: half },
      { name: 'two.csv', data: half },
    ]);
    expect(reply.status).toBe(413);
  });

  it('refuses a body well over the limit before reading it', async () => {
    const reply = await importFiles(token, [
      { name: 'huge.csv', data: Buffer.alloc(12 * MB, 0x61) },
    ]);
    expect(reply.status).toBe(413);
  });

  it('takes back the rows it wrote when a later file is refused', async () => {
    const { token: own } = await freshOwner();
    const rows = Array.from(
      { length: 250 },
      (_, index) => `Back${index},Taken,taken-${index}@example.com`,
    );
    const reply = await importFiles(own, [
      { name: 'good.csv', data: ['firstName,lastName,email', ...rows].join('\n') },
      { name: 'old.xls', data: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) },
    ]);
    expect(reply.status).toBe(415);
    expect((await list(own)).body.total).toBe(0);
  });

  it('takes back the rows it wrote when the form is cut off after them', async () => {
    const { token: own } = await freshOwner();
    const rows = Array.from(
      { length: 400 },
      (_, index) => `Cut${index},Off,cut-${index}@example.com`,
    );
    const form = new FormData();
    form.append('importType', 'bidders');
    form.append('files', new Blob([['firstName,lastName,email', ...rows].join('\n')]), 'cut.csv');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const whole = Buffer.from(await request.arrayBuffer());
    const response = await fetch(`${inject('domainUrl')}/data-upload/bidders/import`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${own}`,
        'content-type': request.headers.get('content-type') as string,
      },
      body: whole.subarray(0, whole.length - 100),
    });
    expect(response.status).toBe(400);
    expect((await list(own)).body.total).toBe(0);
  });

  it('refuses a form without files, naming files', async () => {
    const reply = await importFiles(token, []);
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['files']);
    expect(messageOf(reply)).toBe('files: Choose at least one file');
  });

  it('refuses a body that is not a form, naming files', async () => {
    const reply = await domain('POST', '/data-upload/bidders/import', {
      token,
      body: { files: [] },
    });
    expect(reply.status).toBe(400);
    expect(messageOf(reply)).toBe('files: Send the files as multipart/form-data');
  });

  it('refuses a form cut off mid-file with 400, and keeps serving', async () => {
    const form = new FormData();
    form.append('importType', 'bidders');
    form.append('files', new Blob(['firstName,lastName,email\n'.repeat(200)]), 'cut.csv');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const whole = Buffer.from(await request.arrayBuffer());
    const response = await fetch(`${inject('domainUrl')}/data-upload/bidders/import`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': request.headers.get('content-type') as string,
      },
      body: whole.subarray(0, whole.length - 100),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe('files: The upload is malformed');
    expect((await domain('GET', '/scoring/lotwise', { token })).status).toBe(200);
    expect((await list(token)).body.total).toBe(0);
  });
});
