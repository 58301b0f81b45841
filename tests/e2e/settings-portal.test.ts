import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {
  InventorySettings,
  PaymentPortalSettings,
} from '../../functions/src/settings/settings.schema.js';
import { signInThroughForm } from '../support/app.js';
import { domain, signedInToken } from '../support/bidders.js';
import {
  accessibilityViolations,
  animationsSettled,
  artifactsDir,
  launchBrowser,
  openPage,
  screenshot,
  viewports,
} from '../support/browser.js';

const webUrl = inject('webUrl');
const OWNER = 'owner@harborview.demo';
let browser: Browser;
let ownerToken: string;
let before: { inventory: InventorySettings; portal: PaymentPortalSettings };

/** The settings as saved now, through the API. */
async function saved() {
  const [inventory, portal] = await Promise.all([
    domain<InventorySettings>('GET', '/settings/inventory', { token: ownerToken }),
    domain<PaymentPortalSettings>('GET', '/settings/payment-portal', { token: ownerToken }),
  ]);
  return { inventory: inventory.body, portal: portal.body };
}

beforeAll(async () => {
  browser = await launchBrowser();
  ownerToken = await signedInToken(OWNER);
  before = await saved();
});

/** Puts the demo account's settings back as they were, so the next run starts the same. */
afterAll(async () => {
  const now = await saved();
  const { etag: _i, updatedAt: _ia, updatedBy: _ib, ...inventory } = before.inventory;
  const { etag: _p, updatedAt: _pa, updatedBy: _pb, logoUrl, ...portal } = before.portal;
  await domain('PUT', '/settings/inventory', {
    token: ownerToken,
    body: inventory,
    headers: { 'if-match': `"${now.inventory.etag}"` },
  });
  await domain('PUT', '/settings/payment-portal', {
    token: ownerToken,
    body: portal,
    headers: { 'if-match': `"${now.portal.etag}"` },
  });
  if (!logoUrl) {
    await domain('DELETE', '/settings/payment-portal/logo', { token: ownerToken });
  }
  await browser?.close();
});

/** A fresh browser signed in to Harborview Auctions. */
async function signedIn(email: string, options: BrowserContextOptions = {}) {
  const opened = await openPage(browser, options);
  await signInThroughForm(opened.page, email);
  await opened.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  return opened;
}

async function openTab(page: Page, tab: 'inventory-sync' | 'payment-config') {
  await page.goto(`${webUrl}/settings/${tab}`);
  await page
    .getByRole('heading', {
      name: tab === 'inventory-sync' ? 'Inventory management' : 'Customer payment portal',
    })
    .waitFor();
}

/** A toast's title or body, not the live region that reads it out. */
const toast = (page: Page, text: string) =>
  page.locator('.fui-Toast').getByText(text, { exact: true });

/** What the window shows, without growing it to the page (a dialog stays as it is seen). */
async function windowShot(page: Page, name: string) {
  await animationsSettled(page);
  await page.screenshot({ path: join(artifactsDir, `${name}.png`) });
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (data: Buffer) => {
  let c = 0xffffffff;
  for (const byte of data) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 200x80 logo: a gold band on navy, as a real PNG so the browser draws it. */
function logoPng(): Buffer {
  const width = 200;
  const height = 80;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y += 1) {
    const gold = y > 30 && y < 50;
    for (let x = 0; x < width; x += 1) {
      const at = y * (width * 3 + 1) + 1 + x * 3;
      rows.set(gold && x > 20 && x < 180 ? [200, 150, 62] : [10, 61, 98], at);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Console errors other than the refusal provoked on purpose (none reaches the service). */
const unexpected = (errors: string[]) => errors.filter((error) => !/status of 4\d\d /.test(error));

describe('inventory and payment portal settings in the browser', () => {
  const company = `Harborview Payments ${randomUUID().slice(0, 4)}`;
  const storage = `Vault ${randomUUID().slice(0, 4)}`;
  let page: Page;
  let errors: string[];
  let testLink: string;

  beforeAll(async () => {
    ({ page, errors } = await signedIn(OWNER));
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('refuses an invalid colour, keeps edits across tabs and saves them all at once', async () => {
    await openTab(page, 'payment-config');
    const enable = page.getByRole('switch', { name: 'Enable customer payment portal' });
    if (!(await enable.isChecked())) await enable.click();
    await page.getByRole('textbox', { name: 'Company name' }).fill(company);
    await page.getByRole('textbox', { name: 'Support email' }).fill('pay@harborview.example');
    const primary = page.getByRole('textbox', { name: 'Primary colour' });
    await primary.fill('blue');
    await page.getByText('Use a colour like #1f4e79').waitFor();
    await page.getByRole('button', { name: 'Save Payment Settings' }).click();
    await toast(page, 'Primary colour: Use a colour like #1f4e79').waitFor();

    await primary.fill('#0a3d62');
    await page.getByRole('textbox', { name: 'Secondary colour' }).fill('#c8963e');
    const wire = page.getByRole('button', { name: 'Wire Transfer' });
    const wireOn = (await wire.getAttribute('aria-pressed')) === 'true';
    await wire.click();
    expect(await wire.getAttribute('aria-pressed')).toBe(String(!wireOn));
    if (wireOn) await wire.click();
    const days = page.getByRole('spinbutton', { name: 'Link expiration (days)' });
    await days.fill('');
    await days.fill('21');

    // Leaving a tab with edits asks; kept, they wait for Save All Changes.
    await page.getByRole('tab', { name: 'Inventory' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Unsaved changes' });
    await ask.getByText(/unsaved changes in Payments/).waitFor();
    await ask.getByRole('button', { name: 'Keep changes' }).click();
    await page.getByRole('heading', { name: 'Inventory management' }).waitFor();
    await page.getByRole('switch', { name: /Location management/ }).click();
    await page.getByRole('textbox', { name: 'Default storage location' }).fill(storage);
    await page.getByRole('radio', { name: 'Valuable items only' }).check();

    await page.getByRole('button', { name: 'Save All Changes' }).click();
    await toast(page, 'Saved Inventory and Payments.').waitFor();
    expect(await page.getByRole('button', { name: 'Save All Changes' }).isDisabled()).toBe(true);

    await page.reload();
    await page.getByRole('heading', { name: 'Inventory management' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Default storage location' }).inputValue()).toBe(
      storage,
    );
    expect(await page.getByRole('radio', { name: 'Valuable items only' }).isChecked()).toBe(true);
    await openTab(page, 'payment-config');
    expect(await page.getByRole('textbox', { name: 'Company name' }).inputValue()).toBe(company);
    expect(await days.inputValue()).toBe('21');
    expect(
      await page.getByRole('button', { name: 'Wire Transfer' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(unexpected(errors)).toEqual([]);
  });

  it('shows an uploaded logo in the preview, and a test link opens the invoice signed out', async () => {
    await openTab(page, 'payment-config');
    await page.getByLabel('Choose a logo file').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: logoPng(),
    });
    await toast(page, 'Logo uploaded').waitFor();
    await page.getByRole('img', { name: 'Your portal logo' }).waitFor();

    await page.getByRole('button', { name: 'Preview Portal' }).click();
    const preview = page.getByRole('dialog', { name: 'Portal preview' });
    await preview.getByRole('heading', { name: company }).waitFor();
    await preview.getByRole('img', { name: `${company} logo` }).waitFor();
    await preview.getByText('Test invoice — no payment is taken').waitFor();
    await page.waitForLoadState('networkidle');
    await windowShot(page, 'settings-portal-preview-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await preview.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Generate Test Link' }).click();
    const link = page.getByRole('link', { name: 'Test link' });
    testLink = (await link.getAttribute('href')) as string;
    expect(testLink).toMatch(new RegExp(`^${webUrl}/pay/`));
    await page.getByText(/^Expires /).waitFor();

    for (const [look, options] of [
      ['light', {}],
      ['dark', { colorScheme: 'dark' }],
      ['phone', { viewport: viewports.mobile }],
    ] as const) {
      const buyer = await openPage(browser, options);
      await buyer.page.goto(testLink);
      await buyer.page.getByRole('heading', { name: company }).waitFor();
      await buyer.page.getByRole('img', { name: `${company} logo` }).waitFor();
      await buyer.page.getByText('Billed to').waitFor();
      await buyer.page.getByText('Test invoice — no payment is taken').waitFor();
      expect(await buyer.page.getByRole('button', { name: 'Credit Card' }).isDisabled()).toBe(true);
      await buyer.page.waitForLoadState('networkidle');
      await screenshot(buyer.page, `settings-portal-pay-${look}`);
      expect(await accessibilityViolations(buyer.page), look).toEqual([]);
      expect(buyer.errors).toEqual([]);
      await buyer.page.context().close();
    }

    const broken = await openPage(browser);
    await broken.page.goto(`${testLink.slice(0, -3)}abc`);
    await broken.page.getByText('This payment link cannot be opened').waitFor();
    await screenshot(broken.page, 'settings-portal-pay-invalid');
    await broken.page.context().close();
  });

  it('asks before leaving the page with unsaved edits', async () => {
    await openTab(page, 'inventory-sync');
    await page.getByRole('switch', { name: /Market trend analysis/ }).click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard' })
      .click();
    const ask = page.getByRole('alertdialog', { name: 'Unsaved changes' });
    await ask.getByText(/Leave and discard them\?/).waitFor();
    await ask.getByRole('button', { name: 'Stay' }).click();
    expect(page.url()).toBe(`${webUrl}/settings/inventory-sync`);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard' })
      .click();
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });

  it('looks right in light, dark and on a phone', async () => {
    for (const [look, options] of [
      ['light', {}],
      ['dark', { colorScheme: 'dark' }],
      ['phone', { viewport: viewports.mobile }],
    ] as const) {
      const other = look === 'light' ? { page, errors: [] } : await signedIn(OWNER, options);
      for (const tab of ['inventory-sync', 'payment-config'] as const) {
        await openTab(other.page, tab);
        await other.page.waitForLoadState('networkidle');
        await screenshot(other.page, `settings-${tab}-${look}`);
        expect(await accessibilityViolations(other.page), `${tab} ${look}`).toEqual([]);
      }
      if (look !== 'light') {
        await other.page.getByRole('button', { name: 'Preview Portal' }).click();
        await other.page
          .getByRole('dialog', { name: 'Portal preview' })
          .getByText('Total due')
          .waitFor();
        await other.page.waitForLoadState('networkidle');
        await windowShot(other.page, `settings-portal-preview-${look}`);
        expect(unexpected(other.errors)).toEqual([]);
        await other.page.context().close();
      }
    }
  });

  it('shows a viewer the settings read-only', async () => {
    const viewer = await signedIn('viewer@harborview.demo');
    await openTab(viewer.page, 'payment-config');
    expect(
      await viewer.page
        .getByRole('switch', { name: 'Enable customer payment portal' })
        .isDisabled(),
    ).toBe(true);
    expect(await viewer.page.getByRole('textbox', { name: 'Company name' }).isDisabled()).toBe(
      true,
    );
    expect(await viewer.page.getByRole('button', { name: 'Generate Test Link' }).isDisabled()).toBe(
      true,
    );
    await viewer.page.getByText('Needs the Change account settings permission').waitFor();
    await openTab(viewer.page, 'inventory-sync');
    expect(
      await viewer.page.getByRole('switch', { name: /Auto-categorize items/ }).isDisabled(),
    ).toBe(true);
    expect(await viewer.page.getByRole('button', { name: 'Save All Changes' }).isDisabled()).toBe(
      true,
    );
    await viewer.page.context().close();
  });
});
