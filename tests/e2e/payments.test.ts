import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type { Registration } from '../../functions/src/auctions/registrations/registrations.schema.js';
import type { PaymentPortalSettings } from '../../functions/src/settings/settings.schema.js';
import { mailTo, signInThroughForm } from '../support/app.js';
import { createAuction } from '../support/auctions.js';
import { createBidder, domain, signedInToken, strongStats } from '../support/bidders.js';
import {
  accessibilityViolations,
  animationsSettled,
  launchBrowser,
  openPage,
  screenshot,
  viewports,
} from '../support/browser.js';

const webUrl = inject('webUrl');
const OWNER = 'owner@harborview.demo';
let browser: Browser;
let token: string;
let portalBefore: PaymentPortalSettings;
let auction: { id: string; title: string };
let buyerEmail: string;
/** The owner's page, kept across the steps of the sale. */
let owner: Page;

async function ok<T>(reply: Promise<{ status: number; body: T }>, status = 200) {
  const answer = await reply;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

/** A Completed auction of the demo house: two lots of one consignor sold to one buyer. */
async function soldAuction() {
  const buyer = await createBidder(token, {
    firstName: 'Paige',
    lastName: 'Portal',
    email: `paige-${Date.now()}@example.com`,
    stats: strongStats(),
  });
  const made = await createAuction(token, { title: `Harbor Paintings ${Date.now()}` });
  const lots: Lot[] = [];
  for (const [index, title] of ['Harbor at Dusk', 'Gulls over Casco Bay'].entries()) {
    lots.push(
      await ok(
        domain<Lot>('POST', `/auctions/${made.id}/lots`, {
          token,
          body: {
            lotNumber: String(index + 1),
            title,
            consignor: { name: 'Marian Pell', contact: '' },
          },
        }),
        201,
      ),
    );
  }
  await ok(domain('POST', `/auctions/${made.id}/publish`, { token }));
  const registration = await ok(
    domain<Registration>('POST', `/auctions/${made.id}/register`, {
      token,
      body: { bidderId: buyer.id },
    }),
    201,
  );
  expect(registration.status, registration.reasons.join('; ')).toBe('approved');
  await ok(domain('POST', `/auctions/${made.id}/go-live`, { token }));
  for (const [index, hammer] of [120_000, 45_000].entries()) {
    await ok(
      domain('PUT', `/auctions/${made.id}/lots/${lots[index]?.id}/result`, {
        token,
        body: { outcome: 'sold', hammer, bidderId: buyer.id },
      }),
    );
  }
  await ok(domain('POST', `/auctions/${made.id}/close`, { token }));
  return { auction: { id: made.id, title: made.title }, email: buyer.email as string };
}

const portalInput = (settings: PaymentPortalSettings) => {
  const { etag: _e, updatedAt: _u, updatedBy: _b, logoUrl: _l, ...input } = settings;
  return input;
};

beforeAll(async () => {
  browser = await launchBrowser();
  token = await signedInToken(OWNER);
  portalBefore = await ok(
    domain<PaymentPortalSettings>('GET', '/settings/payment-portal', { token }),
  );
  // The buyer pays by card or by wire, on a portal that is on.
  await ok(
    domain('PUT', '/settings/payment-portal', {
      token,
      body: {
        ...portalInput(portalBefore),
        enabled: true,
        companyName: portalBefore.companyName || 'Harborview Auctions',
        enabledPaymentMethods: ['credit_card', 'wire'],
      },
      headers: { 'if-match': `"${portalBefore.etag}"` },
    }),
  );
  const sold = await soldAuction();
  auction = sold.auction;
  buyerEmail = sold.email;
  owner = (await openPage(browser)).page;
  await signInThroughForm(owner, OWNER);
  await owner.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
});

afterAll(async () => {
  const now = await domain<PaymentPortalSettings>('GET', '/settings/payment-portal', { token });
  await domain('PUT', '/settings/payment-portal', {
    token,
    body: portalInput(portalBefore),
    headers: { 'if-match': `"${now.body.etag}"` },
  });
  await browser?.close();
});

const dialog = (page: Page) => page.getByRole('dialog').last();

/** Chooses the sale in a tab's Completed auction picker. */
async function pickAuction(page: Page) {
  const picker = page.getByRole('combobox', { name: 'Completed auction' });
  await picker.fill(auction.title);
  await page.getByRole('option', { name: auction.title }).click();
}

/** Resolves once no part of the page is still loading. */
async function loaded(page: Page) {
  await expect.poll(() => page.locator('[aria-label^="Loading"]').count()).toBe(0);
}

/** Stripe's card element, in its own frame. */
async function typeCard(page: Page, number: string) {
  const frame = page.frameLocator('iframe[title="Secure card payment input frame"]');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiration date MM / YY').fill('12 / 34');
  await frame.getByLabel('CVC').fill('123');
}

describe('payments after a sale', () => {
  it('generates, approves and sends the sale’s invoice', async () => {
    const page = owner;
    await page.goto(`${webUrl}/payments`);
    await page.getByRole('tab', { name: 'Overview', selected: true }).waitFor();
    const figures = page.getByRole('region', { name: 'Payment figures' });
    for (const tile of ['Total Transactions', 'Total Revenue', 'Pending Amount', 'Completed'])
      await figures.getByText(tile, { exact: true }).waitFor();
    // The demo's autumn sale was paid by hand: its payments are the recent ones.
    await page.getByText('Bank Transfer', { exact: true }).first().waitFor();
    await screenshot(page, 'payments-overview-light');

    await page.getByRole('tab', { name: 'Invoices' }).click();
    await page.waitForURL(/\/payments\/invoices/);
    await pickAuction(page);
    await page.getByRole('button', { name: 'Generate invoices' }).click();
    await page
      .getByText(/^(Invoices generated|No new invoices)$/)
      .first()
      .waitFor();

    await page.getByRole('searchbox', { name: 'Search invoices' }).fill(auction.title);
    const row = page.getByRole('table', { name: 'Invoices' }).getByRole('row').nth(1);
    await row.getByText('Draft', { exact: true }).waitFor();
    await row.getByRole('link').click();
    const invoice = dialog(page);
    // $1,200 + $450 hammer; the demo auction's premium and tax on top.
    await invoice.getByText('$1,650').first().waitFor();
    await animationsSettled(page);
    await screenshot(page, 'payments-invoice-dialog-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await invoice.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Invoice approved').first().waitFor();
    await invoice.getByRole('button', { name: 'Send Email' }).click();
    await page.getByText(`${buyerEmail} was emailed a link`, { exact: false }).first().waitFor();
    await invoice.getByText('Sent', { exact: true }).first().waitFor();
    await invoice.getByRole('button', { name: 'Close' }).click();
    await screenshot(page, 'payments-invoices-light');
  });

  it('takes the buyer’s card payment on the portal, then refunds part of it', async () => {
    const mail = await mailTo(buyerEmail, 'buyer-invoice');
    const link = /https?:\/\/\S+\/pay\/\S+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();
    const buyer = await openPage(browser);
    await buyer.page.goto(`${webUrl}${new URL(link as string).pathname}`);
    await buyer.page.getByRole('button', { name: 'Wire Transfer' }).click();
    await buyer.page.getByRole('button', { name: 'Credit Card' }).click();
    await typeCard(buyer.page, '4242 4242 4242 4242');
    const pay = buyer.page.getByRole('button', { name: /^Pay \$/ });
    await expect.poll(() => pay.isEnabled()).toBe(true);
    await screenshot(buyer.page, 'payments-portal-card-light');
    expect(await accessibilityViolations(buyer.page)).toEqual([]);
    await pay.click();
    await buyer.page.getByText('Payment received — thank you').waitFor();
    await screenshot(buyer.page, 'payments-portal-paid-light');
    await buyer.page.context().close();

    const page = owner;
    await page.goto(`${webUrl}/payments/transactions`);
    await page.reload();
    await page.getByRole('searchbox', { name: 'Search transactions' }).fill(auction.title);
    const row = page.getByRole('table', { name: 'Transactions' }).getByRole('row').nth(1);
    await row.getByText('Completed', { exact: true }).waitFor();
    await screenshot(page, 'payments-transactions-light');
    await row.getByRole('link').click();
    const detail = dialog(page);
    await detail.getByText('Payment breakdown').waitFor();
    await animationsSettled(page);
    await screenshot(page, 'payments-transaction-dialog-light');
    expect(await accessibilityViolations(page)).toEqual([]);

    await detail.getByRole('button', { name: 'Refund' }).click();
    const refund = dialog(page);
    await refund.getByRole('radio', { name: 'Partial refund' }).click();
    await refund.getByRole('textbox', { name: /Refund amount/ }).fill('100');
    await refund.getByRole('textbox', { name: /Reason/ }).fill('Frame damaged in shipping');
    await animationsSettled(page);
    await screenshot(page, 'payments-refund-dialog-light');
    await refund.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByText('Refund issued').first().waitFor();
    await dialog(page)
      .getByText(/\$100\.00 on .*Frame damaged in shipping/)
      .waitFor();
  });

  it('builds the consignor’s statement and downloads its PDF', async () => {
    const page = owner;
    await page.goto(`${webUrl}/payments/settlements`);
    await pickAuction(page);
    await page.getByRole('button', { name: 'Build statements' }).click();
    await page.getByText('Statements brought up to date').first().waitFor();
    await page.getByRole('link', { name: 'Marian Pell' }).first().click();
    const statement = dialog(page);
    await statement.getByText('Net payable').waitFor();
    await animationsSettled(page);
    await screenshot(page, 'payments-statement-dialog-light');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      statement.getByRole('button', { name: 'Download Statement' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    await statement.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Statement approved').first().waitFor();
    await statement.getByRole('button', { name: 'Close' }).click();
    await screenshot(page, 'payments-settlements-light');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('looks right in the dark and on a phone', async () => {
    const dark = await openPage(browser, { colorScheme: 'dark' });
    await signInThroughForm(dark.page, OWNER);
    await dark.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await dark.page.goto(`${webUrl}/payments`);
    await dark.page.getByText('Recent Transactions').waitFor();
    await screenshot(dark.page, 'payments-overview-dark');
    await dark.page.goto(`${webUrl}/payments/pending`);
    await dark.page.getByText('Overdue invoices').waitFor();
    await loaded(dark.page);
    await screenshot(dark.page, 'payments-pending-dark');
    expect(await accessibilityViolations(dark.page)).toEqual([]);
    await dark.page.context().close();

    const phone = await openPage(browser, {
      viewport: viewports.mobile,
      isMobile: true,
      hasTouch: true,
    });
    await signInThroughForm(phone.page, OWNER);
    await phone.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await phone.page.goto(`${webUrl}/payments/transactions`);
    await phone.page
      .getByRole('list', { name: 'Transactions' })
      .getByRole('listitem')
      .first()
      .waitFor();
    await screenshot(phone.page, 'payments-transactions-phone');
    await phone.page.goto(`${webUrl}/payments`);
    await phone.page.getByText('Recent Transactions').waitFor();
    await screenshot(phone.page, 'payments-overview-phone');
    await phone.page.context().close();
  });
});
