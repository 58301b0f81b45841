import { buffer } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { Currency } from '../../auctions/auctions.schema.js';
import { primedPages, renderReport, reportFileName, type Report } from './report-writer.js';

interface Row {
  name: string;
  amount: number;
  currency: Currency;
  lots: number;
}

const rows: Row[] = [
  { name: 'Alice, "the buyer"', amount: 123_456, currency: 'USD', lots: 2 },
  { name: '=HYPERLINK("x")', amount: -8_500, currency: 'EUR', lots: 1 },
  { name: 'Kenji\nTanaka', amount: 1_234_567, currency: 'JPY', lots: 3 },
];

function report(pages: Row[][] = [rows.slice(0, 2), rows.slice(2)]): Report<Row> {
  async function* read() {
    yield* pages;
  }
  return {
    title: 'Test rows',
    columns: [
      { header: 'Name', kind: 'text', width: 20, value: (row) => row.name },
      { header: 'Currency', kind: 'text', width: 8, value: (row) => row.currency },
      { header: 'Amount', kind: 'money', width: 12, value: (row) => row.amount },
      { header: 'Lots', kind: 'integer', width: 5, value: (row) => row.lots },
    ],
    currencyOf: (row) => row.currency,
    pages: read(),
  };
}

describe('Export Report', () => {
  it('writes CSV that parses back, money in major units, formulas made inert', async () => {
    const text = (await buffer(await renderReport('csv', report()))).toString('utf8');
    const parsed = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(parsed).toEqual([
      { Name: 'Alice, "the buyer"', Currency: 'USD', Amount: '1234.56', Lots: '2' },
      { Name: `'=HYPERLINK("x")`, Currency: 'EUR', Amount: '-85.00', Lots: '1' },
      { Name: 'Kenji\nTanaka', Currency: 'JPY', Amount: '1234567', Lots: '3' },
    ]);
  });

  it('writes a workbook with numeric money formatted for its currency', async () => {
    const bytes = await buffer(await renderReport('xlsx', report()));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Test rows');
    expect(sheet?.getRow(1).values).toEqual([undefined, 'Name', 'Currency', 'Amount', 'Lots']);
    expect(sheet?.getRow(2).getCell(3).value).toBe(1234.56);
    expect(sheet?.getRow(2).getCell(3).numFmt).toBe('#,##0.00');
    expect(sheet?.getRow(3).getCell(3).value).toBe(-85);
    expect(sheet?.getRow(4).getCell(3).value).toBe(1234567);
    expect(sheet?.getRow(4).getCell(3).numFmt).toBe('#,##0');
    expect(sheet?.rowCount).toBe(4);
  });

  it('writes a PDF, also of nothing', async () => {
    for (const pages of [undefined, []]) {
      const bytes = await buffer(await renderReport('pdf', report(pages)));
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  });

  it('reads the first page before writing, then the rest in order', async () => {
    const asked: (string | undefined)[] = [];
    const pages = await primedPages(async (token) => {
      asked.push(token);
      return token === undefined
        ? { items: [1, 2], continuationToken: 'b' }
        : { items: [3], continuationToken: null };
    });
    expect(asked).toEqual([undefined]);
    const all: number[] = [];
    for await (const page of pages) all.push(...page);
    expect(all).toEqual([1, 2, 3]);
    expect(asked).toEqual([undefined, 'b']);
    await expect(primedPages(() => Promise.reject(new Error('bad token')))).rejects.toThrow();
    expect(reportFileName('invoices', 'xlsx', new Date('2031-05-01T10:00:00Z'))).toBe(
      'invoices-2031-05-01.xlsx',
    );
  });
});
