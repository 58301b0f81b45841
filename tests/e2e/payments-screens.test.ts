import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import type { Browser, Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import type {
  CardPayment,
  Invoice,
  InvoiceTerms,
} from '../../functions/src/payments/payments.schema.js';
import type { Agreement } from '../../functions/src/payments/settlements/settlements.schema.js';
import { ownerWithAddOns } from '../support/add-ons.js';
import { signInThroughForm } from '../support/app.js';
import { createAuction } from '../support/auctions.js';
import { createBidder, domain, strongStats, type Owner } from '../support/bidders.js';
import { animationsSettled, launchBrowser, openPage, viewports } from '../support/browser.js';
import { GOOD_PASSWORD } from '../support/identity.js';

/**
 * The Payments screens' own buttons, clicked in Chromium against the real stack: Export Report,
 * Manual Invoice, Process / Retry of a card payment, the invoice terms and the consignor
 * agreement editors. One fresh account with the add-ons, so nothing depends on the demo house.
 */

const webUrl = inject('webUrl');
const tag = randomUUID().slice(0, 6);
const SHOTS = '/tmp/shots/payments-dialogs';
const saleTitle = `Harbor Prints ${tag}`;
const reference = `CHK-${tag}`;
let browser: Browser;
let house: Owner;
let page: Page;
let errors: string[];
/** The sale's invoices by buyer: paid by cheque, to pay by card, with a card payment pending. */
const invoices = {} as Record<'cheque' | 'card' | 'pending', Invoice>;
let pending: CardPayment;

async function ok<T>(reply: Promise<{ status: number; body: T }>, status = 200) {
  const answer = await reply;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

/** A closed sale of three lots, one to each buyer, its invoices generated. */
async function closedSale() {
  const token = house.token;
  const buyers = {
    cheque: await createBidder(token, {
      firstName: 'Nora',
      lastName: 'Quill',
      stats: strongStats(),
    }),
    card: await createBidder(token, {
      firstName: 'Otto',
      lastName: 'Brandt',
      stats: strongStats(),
    }),
    pending: await createBidder(token, {
      firstName: 'Pia',
      lastName: 'Lund',
      stats: strongStats(),
    }),
  };
  const auction = await createAuction(token, { title: saleTitle, buyersPremium: 20 });
  const sales = [
    ['cheque', 120_000],
    ['card', 45_000],
    ['pending', 30_000],
  ] as const;
  const lots: Lot[] = [];
  for (const [index] of sales.entries()) {
    lots.push(
      await ok(
        domain<Lot>('POST', `/auctions/${auction.id}/lots`, {
          token,
          body: {
            lotNumber: String(index + 1),
            title: `Etching ${index + 1}`,
            consignor: { name: 'Marian Pell', contact: '' },
          },
        }),
        201,
      ),
    );
  }
  await ok(domain('POST', `/auctions/${auction.id}/publish`, { token }));
  for (const bidder of Object.values(buyers)) {
    const registration = await ok(
      domain<Registration>('POST', `/auctions/${auction.id}/register`, {
        token,
        body: { bidderId: bidder.id },
      }),
      201,
    );
    expect(registration.status, registration.reasons.join('; ')).toBe('approved');
  }
  await ok(domain('POST', `/auctions/${auction.id}/go-live`, { token }));
  for (const [index, [buyer, hammer]] of sales.entries()) {
    await ok(
      domain('PUT', `/auctions/${auction.id}/lots/${lots[index]?.id}/result`, {
        token,
        body: { outcome: 'sold', hammer, bidderId: buyers[buyer].id },
      }),
    );
  }
  await ok(domain('POST', `/auctions/${auction.id}/close`, { token }));
  await ok(domain('POST', `/payments/auctions/${auction.id}/invoices`, { token }));
  const made = await ok(
    domain<{ items: Invoice[] }>('GET', `/payments/invoices?auctionId=${auction.id}`, { token }),
  );
  for (const key of ['cheque', 'card', 'pending'] as const) {
    const invoice = made.items.find((candidate) => candidate.bidderId === buyers[key].id);
    expect(invoice, key).toBeTruthy();
    invoices[key] = invoice as Invoice;
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
  house = await ownerWithAddOns();
  await closedSale();
  const token = house.token;
  await ok(
    domain('POST', `/payments/invoices/${invoices.cheque.id}/payments`, {
      token,
      body: { amount: invoices.cheque.balance, method: 'Check', reference },
    }),
    201,
  );
  for (const key of ['card', 'pending'] as const) {
    await ok(domain('POST', `/payments/invoices/${invoices[key].id}/approve`, { token }));
  }
  // The buyer chose to pay by card (as the portal starts it) and has not paid yet.
  pending = await ok(
    domain<CardPayment>('POST', `/payments/invoices/${invoices.pending.id}/card-payment`, {
      token,
      body: {},
    }),
    201,
  );
  ({ page, errors } = await openPage(browser));
  await signInThroughForm(page, house.email, GOOD_PASSWORD);
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
});

afterAll(async () => {
  await browser?.close();
});

const toast = (text: string | RegExp) => page.locator('.fui-Toast').getByText(text).first();

/** Chooses the sale in a tab's Completed auction picker. */
async function pickSale() {
  await page.getByRole('combobox', { name: 'Completed auction' }).fill(saleTitle);
  await page.getByRole('option', { name: saleTitle }).click();
}

/** Stripe's card element, in its own frame. */
async function typeCard(number: string) {
  const frame = page.frameLocator('iframe[title="Secure card payment input frame"]');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiration date MM / YY').fill('12 / 34');
  await frame.getByLabel('CVC').fill('123');
}

/** The text a pdfkit file draws: its compressed content streams, hex strings joined per run. */
function pdfText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const runs: string[] = [];
  for (const start of raw.matchAll(/stream\r?\n/g)) {
    const from = start.index + start[0].length;
    let content: string;
    try {
      content = inflateSync(bytes.subarray(from, raw.indexOf('endstream', from))).toString(
        'latin1',
      );
    } catch {
      // Not a compressed stream (an image, a font): no text in it.
      continue;
    }
    for (const run of content.matchAll(/\[([^\]]*)\]\s*TJ|<([0-9a-f]*)>\s*Tj/gi)) {
      const hex = [...(run[1] ?? run[2] ?? '').matchAll(/<([0-9a-f]*)>/gi)]
        .map((part) => part[1])
        .join('');
      runs.push(Buffer.from(run[1] === undefined ? (run[2] ?? '') : hex, 'hex').toString('latin1'));
    }
  }
  return runs.join('\n');
}

async function bytesOf(download: Download) {
  return readFileSync(await download.path());
}

/** Dollars as files and the payments screens write them, always with cents: 144000 -> "$1,440.00". */
const dollars = (minor: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(minor / 100);

/** Each look of the dialogs: its name, colour scheme and window. */
const looks = [
  ['light', 'light', viewports.desktop],
  ['dark', 'dark', viewports.desktop],
  ['phone', 'light', viewports.mobile],
] as const;

describe('payments screens', () => {
  it('exports the transactions as CSV, Excel and PDF, each really that format with the sale’s row', async () => {
    await page.goto(`${webUrl}/payments/transactions`);
    await page.getByRole('table', { name: 'Transactions' }).getByText('Nora Quill').waitFor();
    const files: Partial<Record<'csv' | 'xlsx' | 'pdf', Buffer>> = {};
    for (const [format, label] of [
      ['csv', 'CSV'],
      ['xlsx', 'Excel'],
      ['pdf', 'PDF'],
    ] as const) {
      await page.getByRole('button', { name: 'Export Report' }).click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: label, exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(
        new RegExp(`^transactions-\\d{4}-\\d{2}-\\d{2}\\.${format}$`),
      );
      files[format] = await bytesOf(download);
      await toast(download.suggestedFilename()).waitFor();
    }

    const csv = (files.csv as Buffer).toString('utf8').replace(/^\uFEFF/, '');
    expect(csv.split(/\r?\n/)[0]).toBe(
      'Transaction,Date,Invoice,Bidder,Email,Auction,Lots,Method,Status,Currency,Amount,Refunded,Reference',
    );
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(rows.find((row) => row.Reference === reference)).toMatchObject({
      Invoice: invoices.cheque.number,
      Bidder: 'Nora Quill',
      Auction: saleTitle,
      Method: 'Check',
      Status: 'Completed',
      Currency: 'USD',
      Amount: (invoices.cheque.grandTotal / 100).toFixed(2),
    });

    const xlsx = files.xlsx as Buffer;
    expect(xlsx.subarray(0, 2).toString('latin1')).toBe('PK');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const sheetRows: unknown[][] = [];
    sheet.eachRow((row) => sheetRows.push((row.values as unknown[]).slice(1)));
    expect(sheetRows[0]?.slice(0, 4)).toEqual(['Transaction', 'Date', 'Invoice', 'Bidder']);
    const chequeRow = sheetRows.find((row) => row.includes(reference));
    expect(chequeRow).toEqual(expect.arrayContaining(['Nora Quill', 'Check', 'Completed']));
    expect(chequeRow).toContain(invoices.cheque.grandTotal / 100);

    const pdf = files.pdf as Buffer;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain('Transactions');
    expect(text).toContain('Nora Quill');
    expect(text).toContain(reference);
    expect(text).toContain(dollars(invoices.cheque.grandTotal));
  });

  it('makes a Manual Invoice of two lines and shipping, refusing an empty line first', async () => {
    await page.goto(`${webUrl}/payments/invoices`);
    await page.getByRole('button', { name: 'Manual Invoice' }).click();
    const form = page.getByRole('dialog', { name: 'Manual Invoice' });
    await form.getByRole('combobox', { name: /^Bidder/ }).fill('Nora');
    await page.getByRole('option', { name: /Nora Quill/ }).click();
    await form.getByRole('textbox', { name: /^Line 1 amount/ }).fill('150');
    await form.getByRole('button', { name: 'Add line' }).click();
    await form.getByRole('textbox', { name: /^Line 2 description/ }).fill('Framing');
    await form.getByRole('textbox', { name: /^Line 2 amount/ }).fill('75.50');
    await form.getByRole('textbox', { name: /^Shipping/ }).fill('25');
    await form.getByRole('textbox', { name: /^Tax/ }).fill('10');
    await form.getByRole('button', { name: 'Create Invoice' }).click();
    // The empty description is named beside its field; nothing was sent.
    await form.getByText('Description is required').waitFor();
    expect(await form.getByText('Description is required').count()).toBe(1);

    await form.getByRole('textbox', { name: /^Line 1 description/ }).fill('Private sale: etching');
    await form.getByRole('button', { name: 'Create Invoice' }).click();
    await toast('Invoice created').waitFor();
    await form.waitFor({ state: 'detached' });
    await page.waitForURL(/[?&]invoice=/);
    const id = new URL(page.url()).searchParams.get('invoice') as string;
    expect(id).toBeTruthy();
    const made = await ok(
      domain<Invoice>('GET', `/payments/invoices/${id}`, { token: house.token }),
    );
    // $150 + $75.50 + $25 shipping, 10% tax on each: $275.55.
    expect(made).toMatchObject({
      status: 'draft',
      bidderName: 'Nora Quill',
      hammerTotal: 22_550,
      chargesTotal: 2_500,
      grandTotal: 27_555,
    });
    expect(made.lines.map((line) => [line.title, line.hammer])).toEqual([
      ['Private sale: etching', 15_000],
      ['Framing', 7_550],
    ]);
    const opened = page.getByRole('dialog', { name: new RegExp(made.number) });
    await opened.getByText('$275.55').first().waitFor();
    await opened.getByRole('button', { name: 'Close' }).click();
    await opened.waitFor({ state: 'detached' });

    await page.getByRole('searchbox', { name: 'Search invoices' }).fill(made.number);
    const row = () =>
      page
        .getByRole('table', { name: 'Invoices' })
        .getByRole('row')
        .filter({ hasText: made.number });
    await row().getByText('$275.55').first().waitFor();
    await row().getByText('Manual invoice').waitFor();
    await row().getByText('Draft', { exact: true }).waitFor();
    await page.reload();
    await row().getByText('$275.55').first().waitFor();
    await row().getByText('Nora Quill').waitFor();
  });

  it('charges a card that is declined (Failed), then Retry with a good card completes and pays the invoice', async () => {
    const started = await ok(
      domain<CardPayment>('POST', `/payments/invoices/${invoices.card.id}/card-payment`, {
        token: house.token,
        body: {},
      }),
      201,
    );
    const number = started.transaction.transactionId;
    const amount = dollars(started.amount);
    await page.goto(`${webUrl}/payments/transactions?transaction=${started.transaction.id}`);
    const detail = page.getByRole('dialog', { name: new RegExp(`^${number}`) });
    await detail.getByText('Pending', { exact: true }).waitFor();
    await detail.getByRole('button', { name: 'Process' }).click();

    const process = page.getByRole('dialog', { name: `Process ${number}` });
    await process.getByText(`Charge ${amount} to Otto Brandt`).waitFor();
    await typeCard('4000 0000 0000 0002');
    const charge = process.getByRole('button', { name: `Charge ${amount}` });
    await expect.poll(() => charge.isEnabled()).toBe(true);
    await charge.click();
    await toast('The card was not charged').waitFor();
    await process.getByText('Your card was declined.').waitFor();
    await process.getByRole('button', { name: 'Cancel' }).click();
    await process.waitFor({ state: 'detached' });
    await detail.getByText('Failed', { exact: true }).waitFor();
    await detail.getByText('Your card was declined.').waitFor();

    await detail.getByRole('button', { name: 'Retry' }).click();
    const retry = page.getByRole('dialog', { name: `Retry ${number}` });
    await retry.getByText('Last attempt: Your card was declined.').waitFor();
    await typeCard('4242 4242 4242 4242');
    const again = retry.getByRole('button', { name: `Charge ${amount}` });
    await expect.poll(() => again.isEnabled()).toBe(true);
    await again.click();
    await toast('Payment completed').waitFor();
    await retry.waitFor({ state: 'detached' });
    await detail.getByText('Completed', { exact: true }).waitFor();

    await detail.getByRole('link', { name: invoices.card.number }).click();
    const invoice = page.getByRole('dialog', { name: new RegExp(invoices.card.number) });
    await invoice.getByText('Paid', { exact: true }).first().waitFor();
    const paid = await ok(
      domain<Invoice>('GET', `/payments/invoices/${invoices.card.id}`, { token: house.token }),
    );
    expect(paid).toMatchObject({ status: 'paid', balance: 0, paidTotal: paid.grandTotal });
    await invoice.getByRole('button', { name: 'Close' }).click();
    await invoice.waitFor({ state: 'detached' });
  });

  it('saves a sliding premium and tax rates as invoice terms, refusing bands out of order', async () => {
    await page.goto(`${webUrl}/payments/invoices`);
    await pickSale();
    await page.getByRole('button', { name: 'Invoice Terms' }).click();
    const terms = page.getByRole('dialog', { name: `Invoice terms: ${saleTitle}` });
    const field = (name: string) => terms.getByRole('textbox', { name, exact: true });
    await terms.getByRole('button', { name: 'Add band' }).click();
    await terms.getByRole('button', { name: 'Add band' }).click();
    await field('Premium band 1 up to').fill('1000');
    await field('Premium band 1 rate (%)').fill('25');
    await field('Premium band 2 up to').fill('500');
    await field('Premium band 2 rate (%)').fill('20');
    await field('Premium band 3 rate (%)').fill('15');
    await field('Tax on hammer (%)').fill('0');
    await field('Tax on premium (%)').fill('8.25');
    await field('Tax on charges (%)').fill('10');
    await terms.getByRole('button', { name: 'Save Terms' }).click();
    await terms.getByText('Up to is above the band before').waitFor();

    await field('Premium band 2 up to').fill('5000');
    await terms.getByRole('button', { name: 'Save Terms' }).click();
    await toast('Invoice terms saved').waitFor();
    await terms.waitFor({ state: 'detached' });

    await page.reload();
    await pickSale();
    await page.getByRole('button', { name: 'Invoice Terms' }).click();
    const expected: [string, string][] = [
      ['Premium band 1 up to', '1000'],
      ['Premium band 1 rate (%)', '25'],
      ['Premium band 2 up to', '5000'],
      ['Premium band 2 rate (%)', '20'],
      ['Premium band 3 rate (%)', '15'],
      ['Tax on hammer (%)', '0'],
      ['Tax on premium (%)', '8.25'],
      ['Tax on charges (%)', '10'],
    ];
    await field('Premium band 3 rate (%)').waitFor();
    for (const [name, value] of expected) expect(await field(name).inputValue(), name).toBe(value);
    const saved = await ok(
      domain<InvoiceTerms>('GET', `/payments/auctions/${invoices.cheque.auctionId}/terms`, {
        token: house.token,
      }),
    );
    expect(saved).toMatchObject({
      saved: true,
      premium: [
        { upTo: 100_000, rateBps: 2500 },
        { upTo: 500_000, rateBps: 2000 },
        { upTo: null, rateBps: 1500 },
      ],
      tax: { hammerBps: 0, premiumBps: 825, chargesBps: 1000 },
    });
    await terms.getByRole('button', { name: 'Cancel' }).click();
    await terms.waitFor({ state: 'detached' });
  });

  it('saves a consignor agreement with a sliding commission and a minimum per lot', async () => {
    const consignor = `Marian Pell ${tag}`;
    await page.goto(`${webUrl}/payments/settlements`);
    await page.getByRole('button', { name: 'Add agreement' }).click();
    const form = page.getByRole('dialog', { name: /consignor agreement/i });
    // Labels matched loosely: the amounts' wording may name the account's currency.
    const field = (name: RegExp) => form.getByRole('textbox', { name });
    await field(/^Consignor name/i).fill(consignor);
    await form.getByRole('radio', { name: /^Sliding scale/i }).check();
    await field(/band 1 up to/i).fill('5000');
    await field(/band 1 rate/i).fill('25');
    await field(/band 2 rate/i).fill('18');
    await field(/minimum/i).fill('50');
    await form.getByRole('button', { name: /^Save/ }).click();
    await toast('Agreement saved').waitFor();
    await form.waitFor({ state: 'detached' });
    const listed = page.getByRole('listitem').filter({ hasText: consignor });
    await listed.getByText(/Sliding scale \(25% \/ 18%\), at least \$50(\.00)? a lot/).waitFor();

    await page.reload();
    await listed.getByText(/Sliding scale \(25% \/ 18%\)/).waitFor();
    await listed.getByRole('button', { name: `Edit ${consignor}` }).click();
    const edit = page.getByRole('dialog', { name: new RegExp(consignor) });
    expect(await edit.getByRole('radio', { name: /^Sliding scale/i }).isChecked()).toBe(true);
    expect(await edit.getByRole('textbox', { name: /band 1 up to/i }).inputValue()).toBe('5000');
    expect(await edit.getByRole('textbox', { name: /band 2 rate/i }).inputValue()).toBe('18');
    expect(await edit.getByRole('textbox', { name: /minimum/i }).inputValue()).toBe('50');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.waitFor({ state: 'detached' });
    const { agreements } = await ok(
      domain<{ agreements: Agreement[] }>('GET', '/consignor-agreements', { token: house.token }),
    );
    expect(agreements.find((agreement) => agreement.consignorName === consignor)).toMatchObject({
      commission: {
        kind: 'sliding',
        scale: [
          { upTo: 500_000, rateBps: 2500 },
          { upTo: null, rateBps: 1800 },
        ],
        minimumPerLot: 5_000,
      },
    });
  });

  it.each(looks)('shows each dialog whole: %s', async (look, colorScheme, viewport) => {
    mkdirSync(SHOTS, { recursive: true });
    const problems: string[] = [];
    /** A window shot of the open dialog, then its end, and whether anything spills sideways. */
    const shoot = async (surface: Locator, name: string) => {
      await surface.waitFor();
      await animationsSettled(page);
      await page.screenshot({ path: join(SHOTS, `${name}.png`) });
      const overflow = await surface.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        const left = box.left + parseFloat(style.paddingLeft) - 4;
        const right = box.right - parseFloat(style.paddingRight) + 4;
        // What sticks out past the dialog's padding; a table scrolls sideways in its frame.
        const spilled = Array.from(element.querySelectorAll('*')).filter((child) => {
          const rect = child.getBoundingClientRect();
          const out = rect.right > right || rect.left < left;
          return rect.width > 1 && out && !child.closest('table');
        });
        const scrollers = [element, ...Array.from(element.querySelectorAll('*'))].filter(
          (child) =>
            child.scrollHeight > child.clientHeight + 1 &&
            /(auto|scroll)/.test(getComputedStyle(child).overflowY),
        );
        for (const scroller of scrollers) scroller.scrollTop = scroller.scrollHeight;
        return {
          wide: element.scrollWidth > element.clientWidth + 1 || box.right > window.innerWidth + 1,
          spilled: spilled.slice(0, 3).map((child) => child.outerHTML.slice(0, 120)),
          scrolled: scrollers.length > 0,
        };
      });
      if (overflow.wide || overflow.spilled.length) {
        problems.push(`${name}: ${JSON.stringify(overflow)}`);
      }
      if (overflow.scrolled) await page.screenshot({ path: join(SHOTS, `${name}-end.png`) });
    };
    const surface = () => page.locator('.fui-DialogSurface').last();
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize(viewport);

    await page.goto(`${webUrl}/payments/transactions`);
    await page.getByRole('button', { name: 'Export Report' }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'PDF', exact: true }).waitFor();
    await animationsSettled(page);
    await page.screenshot({ path: join(SHOTS, `export-menu-${look}.png`) });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    await page.goto(`${webUrl}/payments/invoices`);
    await page.getByRole('button', { name: 'Manual Invoice' }).click();
    const manual = page.getByRole('dialog', { name: 'Manual Invoice' });
    await manual.getByRole('button', { name: 'Add line' }).click();
    await manual.getByRole('button', { name: 'Create Invoice' }).click();
    await manual.getByText('Bidder is required').waitFor();
    await shoot(surface(), `manual-invoice-${look}`);
    await manual.getByRole('button', { name: 'Cancel' }).click();
    await manual.waitFor({ state: 'detached' });

    await pickSale();
    await page.getByRole('button', { name: 'Invoice Terms' }).click();
    const terms = page.getByRole('dialog', { name: `Invoice terms: ${saleTitle}` });
    await terms.getByRole('textbox', { name: 'Premium band 1 rate (%)', exact: true }).waitFor();
    await terms.getByRole('switch', { name: /different premium/ }).click();
    await terms.getByRole('group', { name: 'Internet premium bands' }).waitFor();
    await shoot(surface(), `invoice-terms-${look}`);
    await terms.getByRole('button', { name: 'Cancel' }).click();
    await terms.waitFor({ state: 'detached' });

    await page.goto(`${webUrl}/payments/invoices?invoice=${invoices.card.id}`);
    await page
      .getByRole('dialog', { name: new RegExp(invoices.card.number) })
      .getByText('Grand total')
      .waitFor();
    await shoot(surface(), `invoice-${look}`);

    await page.goto(`${webUrl}/payments/transactions?transaction=${pending.transaction.id}`);
    const detail = page.getByRole('dialog', {
      name: new RegExp(`^${pending.transaction.transactionId}`),
    });
    await detail.getByText('Payment breakdown').waitFor();
    await shoot(surface(), `transaction-${look}`);
    await detail.getByRole('button', { name: 'Process' }).click();
    const process = page.getByRole('dialog', {
      name: `Process ${pending.transaction.transactionId}`,
    });
    await page
      .frameLocator('iframe[title="Secure card payment input frame"]')
      .getByLabel('Card number')
      .waitFor();
    await shoot(surface(), `charge-card-${look}`);
    await process.getByRole('button', { name: 'Cancel' }).click();
    await process.waitFor({ state: 'detached' });

    await page.goto(`${webUrl}/payments/settlements`);
    await page.getByRole('button', { name: 'Add agreement' }).click();
    const agreement = page.getByRole('dialog', { name: /consignor agreement/i });
    await agreement.getByRole('radio', { name: /^Sliding scale/i }).check();
    await shoot(surface(), `agreement-${look}`);
    await agreement.getByRole('button', { name: 'Cancel' }).click();
    await agreement.waitFor({ state: 'detached' });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(viewports.desktop);
    expect(problems).toEqual([]);
    expect(errors.filter((error) => !/status of 4\d\d /.test(error))).toEqual([]);
  });
});
