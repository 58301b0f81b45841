import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxControl, type AccountSnapshot } from '../../../dev/platforms/client.js';
import { startPlatformSandbox, type PlatformSandbox } from '../../../dev/platforms/server.js';
import { platforms } from '../../auctions/auctions.schema.js';
import { AppError } from '../../platform/errors.js';
import { exportLayouts, parseExportFile } from './export-files.js';

/**
 * Each platform's bidder and catalogue exports, downloaded from the sandbox as a house would,
 * must read back as what the platform holds; a broken one names the row and column of each
 * problem and keeps the rest.
 */

let sandbox: PlatformSandbox;
let control: ReturnType<typeof sandboxControl>;

beforeAll(async () => {
  sandbox = await startPlatformSandbox({ port: 0 });
  control = sandboxControl(sandbox.url);
});
afterAll(async () => {
  await sandbox.close();
});

/** The CSV with some cells replaced: `[row as a spreadsheet numbers it, header, new text]`. */
function broken(bytes: Buffer, changes: [row: number, header: string, text: string][]): Buffer {
  const rows = parse(bytes) as string[][];
  const headers = rows[0] as string[];
  for (const [row, header, text] of changes) {
    (rows[row - 1] as string[])[headers.indexOf(header)] = text;
  }
  return Buffer.from(stringify(rows));
}

const headerOf = (layout: Record<string, string>, column: string) =>
  Object.entries(layout).find(([, value]) => value === column)?.[0] as string;

describe.each(platforms)('%s exports', (platform) => {
  let key: string;
  let snapshot: AccountSnapshot;
  const layout = exportLayouts[platform];

  beforeAll(async () => {
    ({ key } = await control.createAccount({
      platform,
      auctions: 3,
      lotsPerAuction: 6,
      bidders: 30,
      seed: 11,
      include: [
        {
          firstName: 'Zoë',
          lastName: "O'Neill-Smith",
          email: 'zoe@example.com',
          phone: '+44 20 7946 0958',
        },
      ],
    }));
    snapshot = await control.account(key);
  });

  it.each(['csv', 'xlsx'] as const)(
    'reads the bidder export (%s) as the platform holds them',
    async (format) => {
      const file = await control.exportFile(platform, 'bidders', format, key);
      const { bidders, errors } = await parseExportFile(platform, 'bidders', file);
      expect(errors).toEqual([]);
      expect(bidders).toEqual(snapshot.bidders);
      expect(bidders[0]).toMatchObject({
        firstName: 'Zoë',
        lastName: "O'Neill-Smith",
        phone: '+44 20 7946 0958',
      });
    },
  );

  it.each(['csv', 'xlsx'] as const)(
    'reads the catalogue export (%s) as the platform holds it',
    async (format) => {
      const file = await control.exportFile(platform, 'catalogue', format, key);
      const { lots, errors } = await parseExportFile(platform, 'catalogue', file);
      expect(errors).toEqual([]);
      expect(lots).toEqual(
        snapshot.auctions.flatMap((auction) =>
          auction.lots.map((lot) => ({ auctionExternalId: auction.externalId, ...lot })),
        ),
      );
    },
  );

  it("exports one auction's catalogue when asked", async () => {
    const [, auction] = snapshot.auctions;
    const file = await control.exportFile(platform, 'catalogue', 'csv', key, auction?.externalId);
    const { lots } = await parseExportFile(platform, 'catalogue', file);
    expect(lots.map((lot) => lot.externalId)).toEqual(auction?.lots.map((lot) => lot.externalId));
  });

  it('names the row and column of each cell it cannot read, and reads the other rows', async () => {
    const file = await control.exportFile(platform, 'bidders', 'csv', key);
    const bids = headerOf(layout.bidders, 'totalBids');
    const updated = headerOf(layout.bidders, 'updatedAt');
    const status = headerOf(layout.bidders, 'status');
    const { bidders, errors } = await parseExportFile(platform, 'bidders', {
      name: file.name,
      bytes: broken(file.bytes, [
        [3, bids, 'many'],
        [3, status, 'Perhaps'],
        [6, updated, 'yesterday'],
      ]),
    });
    expect(errors.map(({ row, field }) => [row, field])).toEqual([
      [3, status],
      [3, bids],
      [6, updated],
    ]);
    expect(errors[1]?.message).toBe('is not a whole number');
    expect(bidders).toHaveLength(snapshot.bidders.length - 2);

    const catalogue = await control.exportFile(platform, 'catalogue', 'csv', key);
    const low =
      headerOf(layout.catalogue, 'estimateLow') ?? headerOf(layout.catalogue, 'estimateRange');
    const number = headerOf(layout.catalogue, 'lotNumber');
    const read = await parseExportFile(platform, 'catalogue', {
      name: catalogue.name,
      bytes: broken(catalogue.bytes, [
        [2, low, '12.5.0'],
        [4, number, ''],
      ]),
    });
    expect(read.errors.map(({ row, field }) => [row, field])).toEqual([
      [2, low],
      [4, number],
    ]);
    expect(read.errors[1]?.message).toBe('is required');
  });

  it('refuses a file that is not an export of this kind', async () => {
    const bidders = await control.exportFile(platform, 'bidders', 'csv', key);
    await expect(parseExportFile(platform, 'catalogue', bidders)).rejects.toThrow(AppError);
    await expect(
      parseExportFile(platform, 'bidders', { name: 'bidders.json', bytes: Buffer.from('[]') }),
    ).rejects.toThrow(/\.csv or \.xlsx/);
  });
});
