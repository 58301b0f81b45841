import type { Readable } from 'node:stream';
import { moneyText } from './money-text.js';
import type { Statement } from './settlements.schema.js';

/** A4 with 50pt margins: the width the table columns share. */
const MARGIN = 50;
const PAGE_WIDTH = 595.28;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;

interface Column {
  label: string;
  width: number;
  align: 'left' | 'right';
}

const columns: Column[] = [
  { label: 'Lot', width: 45, align: 'left' },
  { label: 'Title', width: 160, align: 'left' },
  { label: 'Hammer', width: 75, align: 'right' },
  { label: 'Commission', width: 70, align: 'right' },
  { label: 'Fees', width: 60, align: 'right' },
  { label: 'Net', width: CONTENT_WIDTH - 410, align: 'right' },
];

const statusText: Record<Statement['status'], string> = {
  draft: 'Draft: not yet approved',
  approved: 'Approved: awaiting payout',
  paid: 'Paid',
};

/**
 * Draws one statement: the house, consignor and auction, a table of the lots settled (lot, title,
 * hammer, commission, fees, net), the adjustments carried in, the lots still awaiting their buyer's
 * payment, the totals and the payout status. Answers the PDF as a stream, written as it is drawn
 * (pdfkit loaded on the first statement, not by every host at start).
 */
export async function renderStatementPdf(statement: Statement, house: string): Promise<Readable> {
  const { default: PDFDocument } = await import('pdfkit');
  const money = (minor: number) => moneyText(minor, statement.currency);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: `Consignor statement ${statement.consignorName} #${statement.sequence}`,
      Author: house,
      Creator: 'Lotwise',
    },
  });

  doc.font('Helvetica-Bold').fontSize(18).text(house);
  doc.moveDown(0.3);
  doc.font('Helvetica').fontSize(12).text(`Consignor statement #${statement.sequence}`);
  doc.moveDown(0.8);
  doc.fontSize(10);
  const facts: [string, string][] = [
    ['Consignor', statement.consignorName],
    ['Auction', statement.auctionTitle],
    ['Statement date', statement.createdAt.slice(0, 10)],
    ['Currency', statement.currency],
    ['Status', statusText[statement.status]],
  ];
  for (const [label, value] of facts) {
    doc.font('Helvetica-Bold').text(`${label}: `, { continued: true });
    doc.font('Helvetica').text(value);
  }
  doc.moveDown();

  const row = (cells: string[], bold = false) => {
    if (doc.y > doc.page.height - MARGIN - 40) doc.addPage();
    const top = doc.y;
    let x = MARGIN;
    let bottom = top;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    cells.forEach((cell, index) => {
      const column = columns[index] as Column;
      doc.text(cell, x, top, { width: column.width - 4, align: column.align });
      bottom = Math.max(bottom, doc.y);
      x += column.width;
    });
    doc.x = MARGIN;
    doc.y = bottom + 3;
  };
  const rule = () => {
    doc
      .moveTo(MARGIN, doc.y)
      .lineTo(PAGE_WIDTH - MARGIN, doc.y)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
    doc.y += 3;
  };

  doc.font('Helvetica-Bold').fontSize(11).text('Lots settled');
  doc.moveDown(0.3);
  row(
    columns.map((column) => column.label),
    true,
  );
  rule();
  if (statement.lines.length === 0) row(['', 'None on this statement', '', '', '', '']);
  for (const line of statement.lines) {
    row([
      line.lotNumber,
      line.boughtBack ? `${line.title} (bought back)` : line.title,
      money(line.hammer),
      money(line.commission),
      money(line.fees),
      money(line.net),
    ]);
  }
  rule();

  if (statement.adjustments.length > 0) {
    doc.moveDown(0.5);
    doc.font('Helvetica-Bold').fontSize(11).text('Adjustments', MARGIN);
    doc.moveDown(0.3);
    for (const adjustment of statement.adjustments) {
      row([
        adjustment.lotNumber,
        `${adjustment.title}: ${adjustment.reason.replace('_', ' ')} after settlement`,
        '',
        '',
        '',
        money(adjustment.amount),
      ]);
    }
    rule();
  }

  if (statement.pending.length > 0) {
    doc.moveDown(0.5);
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .text('Awaiting buyer payment (not in this statement)', MARGIN);
    doc.moveDown(0.3);
    for (const lot of statement.pending) {
      row([lot.lotNumber, lot.title, money(lot.hammer), '', '', '']);
    }
    rule();
  }

  doc.moveDown(0.5);
  const totals: [string, number][] = [
    ['Hammer sold', statement.totals.hammer],
    ['Commission', -statement.totals.commission],
    ['Fees', -statement.totals.fees],
    ['Buy-back fees', -statement.totals.buyBackFees],
    ['Adjustments', statement.totals.adjustments],
  ];
  // A total's label spans the table up to the net column, right-aligned against its amount.
  const labelWidth = CONTENT_WIDTH - (columns.at(-1) as Column).width;
  const totalRow = (label: string, amount: number, bold = false) => {
    if (doc.y > doc.page.height - MARGIN - 40) doc.addPage();
    const top = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 10 : 9);
    doc.text(label, MARGIN, top, { width: labelWidth - 4, align: 'right' });
    doc.text(money(amount), MARGIN + labelWidth, top, {
      width: (columns.at(-1) as Column).width - 4,
      align: 'right',
    });
    doc.x = MARGIN;
    doc.y = Math.max(doc.y, top) + 3;
  };
  for (const [label, amount] of totals) totalRow(label, amount);
  rule();
  totalRow(
    statement.totals.net < 0 ? 'Owed to the house' : 'Net payable',
    statement.totals.net,
    true,
  );

  doc.moveDown();
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(
      statement.status === 'paid'
        ? `Paid on ${statement.paidOn ?? ''}, reference ${statement.payoutReference ?? ''}.`
        : statement.status === 'approved'
          ? `Approved on ${statement.approvedAt?.slice(0, 10) ?? ''}; payout pending.`
          : 'Draft statement: figures may change until it is approved.',
      MARGIN,
    );
  if (statement.agreement.payoutDetails) {
    doc.moveDown(0.5).text(`Payout details: ${statement.agreement.payoutDetails}`);
  }
  doc.end();
  return doc;
}
