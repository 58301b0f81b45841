import { PassThrough, Readable } from 'node:stream';
import { currencyExponent, type Currency } from '../../auctions/auctions.schema.js';
import { majorUnits, majorUnitsText, moneyText } from '../settlements/money-text.js';

/**
 * Export Report (spec: "exports are offered as CSV, Excel and PDF"): one table of rows written as
 * CSV, an .xlsx workbook or a PDF, each produced as its rows are read, a page at a time, so a large
 * export never holds every row (the workbook is written with exceljs's streaming writer).
 */

export const reportFormats = ['csv', 'xlsx', 'pdf'] as const;
export type ReportFormat = (typeof reportFormats)[number];

export const contentTypes: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

type Cell = string | number | boolean | null;

/**
 * One column. `money` values are integer minor units of the row's currency: CSV writes them in
 * major units ("1234.56"), the workbook as a number in major units formatted for the currency
 * (with the currency in its own column), the PDF with the currency's symbol.
 */
export interface ReportColumn<R> {
  header: string;
  kind: 'text' | 'money' | 'integer' | 'date';
  /** Relative width, in characters. */
  width: number;
  value(row: R): Cell;
}

export interface Report<R> {
  /** The sheet's and the PDF's heading. */
  title: string;
  columns: ReportColumn<R>[];
  /** Every money column of a row is in this currency. */
  currencyOf?(row: R): Currency;
  /** The rows, a page at a time. */
  pages: AsyncIterable<R[]>;
}

const asText = (value: Cell) => (value === null ? '' : String(value));

/** A spreadsheet would run a cell that starts like a formula: such text is quoted as text. */
const inert = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function csvCell<R>(column: ReportColumn<R>, row: R, currency: Currency): string {
  const value = column.value(row);
  if (column.kind === 'money' && typeof value === 'number') {
    return majorUnitsText(value, currency).replace(/,/g, '');
  }
  return csvField(column.kind === 'text' ? inert(asText(value)) : asText(value));
}

async function* csvChunks<R>(report: Report<R>): AsyncGenerator<string> {
  // The byte-order mark makes Excel read the file as UTF-8.
  yield `\uFEFF${report.columns.map((column) => csvField(column.header)).join(',')}\r\n`;
  for await (const page of report.pages) {
    let chunk = '';
    for (const row of page) {
      const currency = report.currencyOf?.(row) ?? 'USD';
      chunk += `${report.columns.map((column) => csvCell(column, row, currency)).join(',')}\r\n`;
    }
    if (chunk) yield chunk;
  }
}

const moneyFormat = (currency: Currency) =>
  currencyExponent[currency] === 0 ? '#,##0' : `#,##0.${'0'.repeat(currencyExponent[currency])}`;

async function xlsxStream<R>(report: Report<R>): Promise<Readable> {
  const { default: ExcelJS } = await import('exceljs');
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(report.title.slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = report.columns.map((column) => ({
    header: column.header,
    width: Math.max(column.width, column.header.length + 2),
  }));
  sheet.getRow(1).font = { bold: true };
  const write = async () => {
    for await (const page of report.pages) {
      for (const row of page) {
        const currency = report.currencyOf?.(row) ?? 'USD';
        const added = sheet.addRow(
          report.columns.map((column) => {
            const value = column.value(row);
            if (column.kind === 'money' && typeof value === 'number') {
              return majorUnits(value, currency);
            }
            return value;
          }),
        );
        report.columns.forEach((column, index) => {
          if (column.kind === 'money') added.getCell(index + 1).numFmt = moneyFormat(currency);
        });
        added.commit();
      }
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => output.destroy(error as Error));
  return output;
}

const PDF_MARGIN = 36;

async function pdfStream<R>(report: Report<R>): Promise<Readable> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: PDF_MARGIN,
    info: { Title: report.title, Creator: 'Lotwise' },
  });
  const usable = doc.page.width - 2 * PDF_MARGIN;
  const totalWidth = report.columns.reduce((sum, column) => sum + column.width, 0);
  const widths = report.columns.map((column) => (column.width / totalWidth) * usable);
  const right = (column: ReportColumn<R>) => column.kind === 'money' || column.kind === 'integer';

  const drawRow = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(7);
    const height =
      Math.max(
        ...cells.map((cell, index) =>
          doc.heightOfString(cell, { width: (widths[index] as number) - 4 }),
        ),
      ) + 3;
    if (doc.y + height > doc.page.height - PDF_MARGIN) {
      doc.addPage();
      if (!bold) drawRow(headers, true);
    }
    const top = doc.y;
    let x = PDF_MARGIN;
    cells.forEach((cell, index) => {
      const column = report.columns[index] as ReportColumn<R>;
      doc.text(cell, x, top, {
        width: (widths[index] as number) - 4,
        align: right(column) ? 'right' : 'left',
        lineBreak: true,
      });
      x += widths[index] as number;
    });
    doc.x = PDF_MARGIN;
    doc.y = top + height;
  };
  const headers = report.columns.map((column) => column.header);

  doc.font('Helvetica-Bold').fontSize(14).text(report.title);
  doc
    .font('Helvetica')
    .fontSize(8)
    .text(`Exported ${new Date().toISOString().slice(0, 16)}Z`);
  doc.moveDown(0.5);
  drawRow(headers, true);
  const write = async () => {
    let rows = 0;
    for await (const page of report.pages) {
      for (const row of page) {
        const currency = report.currencyOf?.(row) ?? 'USD';
        drawRow(
          report.columns.map((column) => {
            const value = column.value(row);
            return column.kind === 'money' && typeof value === 'number'
              ? moneyText(value, currency)
              : asText(value);
          }),
          false,
        );
        rows += 1;
      }
    }
    if (rows === 0) doc.font('Helvetica').fontSize(9).text('No rows match.', PDF_MARGIN);
    doc.end();
  };
  write().catch((error: unknown) => doc.destroy(error as Error));
  return doc as unknown as Readable;
}

/**
 * The report in a format, as a stream written while its rows are read. The Excel and PDF writers
 * are loaded on the first export that needs them, not by every host at start.
 */
export async function renderReport<R>(format: ReportFormat, report: Report<R>): Promise<Readable> {
  switch (format) {
    case 'csv':
      return Readable.from(csvChunks(report));
    case 'xlsx':
      return xlsxStream(report);
    case 'pdf':
      return pdfStream(report);
  }
}

/**
 * Pages from a paged list read, one after another. The first page is read before anything is
 * written, so a refused query (a bad page token, say) is still an error reply, not a broken file.
 */
export async function primedPages<R>(
  read: (continuationToken: string | undefined) => Promise<{
    items: R[];
    continuationToken: string | null | undefined;
  }>,
): Promise<AsyncIterable<R[]>> {
  const first = await read(undefined);
  async function* pages(): AsyncGenerator<R[]> {
    yield first.items;
    let token = first.continuationToken ?? undefined;
    while (token) {
      const page = await read(token);
      yield page.items;
      token = page.continuationToken ?? undefined;
    }
  }
  return pages();
}

/** `{dataset}-{YYYY-MM-DD}.{format}` */
export const reportFileName = (dataset: string, format: ReportFormat, now = new Date()) =>
  `${dataset}-${now.toISOString().slice(0, 10)}.${format}`;

/** An attachment's name, with a plain fallback for clients that do not read `filename*`. */
export const attachment = (fileName: string) =>
  `attachment; filename="${fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
