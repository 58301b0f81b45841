import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Auction } from '../../functions/src/auctions/auctions.schema.js';
import type {
  InventoryItem,
  InventoryOverview,
} from '../../functions/src/inventory/inventory.schema.js';
import { signInThroughForm } from '../support/app.js';
import { createAuction } from '../support/auctions.js';
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
const tag = randomUUID().slice(0, 6);
const title = `Georgian silver teapot ${tag}`;
let browser: Browser;
let ownerToken: string;
let auction: Auction;
let before: InventoryOverview;

const overview = async () =>
  (await domain<InventoryOverview>('GET', '/inventory/overview', { token: ownerToken })).body;

beforeAll(async () => {
  browser = await launchBrowser();
  ownerToken = await signedInToken(OWNER);
  auction = await createAuction(ownerToken, { title: `Autumn Silver ${tag}` });
  before = await overview();
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn() {
  const opened = await openPage(browser);
  await signInThroughForm(opened.page, OWNER);
  await opened.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  return opened;
}

const toast = (page: Page, text: string) =>
  page.locator('.fui-Toast').getByText(text, { exact: true });

/** What the window shows, a dialog as it is seen. */
async function windowShot(page: Page, name: string) {
  await animationsSettled(page);
  await page.screenshot({ path: join(artifactsDir, `${name}.png`) });
}

/** A small real PNG (a gold square on navy) for the photo upload. */
function photoPng(): Buffer {
  const size = 48;
  const crc32 = (data: Buffer) => {
    let c = 0xffffffff;
    for (const byte of data) {
      c ^= byte;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const gold = x > 12 && x < 36 && y > 12 && y < 36;
      rows.set(gold ? [200, 150, 62] : [10, 61, 98], y * (size * 3 + 1) + 1 + x * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Console errors other than refusals provoked on purpose. */
const unexpected = (errors: string[]) => errors.filter((error) => !/status of 4\d\d /.test(error));

describe('inventory in the browser', () => {
  let page: Page;
  let errors: string[];
  let itemId: string;

  beforeAll(async () => {
    ({ page, errors } = await signedIn());
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('adds an item with a photo, finds it after a reload, edits it and puts it in an auction', async () => {
    await page.goto(`${webUrl}/inventory/items`);
    await page.getByRole('tab', { name: 'All Items', selected: true }).waitFor();
    await page.getByRole('button', { name: 'Add Item' }).first().click();
    const form = page.getByRole('dialog', { name: 'Add Item' });
    await form.getByRole('textbox', { name: 'Title' }).fill(title);
    await form.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Silver', exact: true }).click();
    await form.getByRole('textbox', { name: 'Low estimate' }).fill('800');
    await form.getByRole('textbox', { name: 'High estimate' }).fill('600');
    await form.getByRole('textbox', { name: 'Consignor name' }).fill('Estate of A. Fairfax');
    await form.getByRole('button', { name: 'Add Item' }).click();
    // The service's refusal shows beside its field.
    await form.getByText('High estimate is below the low estimate').waitFor();
    await form.getByRole('textbox', { name: 'High estimate' }).fill('1200');
    await form.getByRole('button', { name: 'Add Item' }).click();
    await toast(page, 'Item added').waitFor();

    const detail = page.getByRole('dialog', { name: title });
    await detail.getByText('$800–$1,200').waitFor();
    itemId = new URL(page.url()).searchParams.get('item') as string;
    expect(itemId).toBeTruthy();
    await detail.getByLabel('Choose a photo file').setInputFiles({
      name: 'teapot.png',
      mimeType: 'image/png',
      buffer: photoPng(),
    });
    await toast(page, 'Photo added').waitFor();
    await detail.getByRole('img', { name: `Photo 1 of ${title}` }).waitFor();

    // After a reload the item is listed, found by its search.
    await page.reload();
    await page.getByRole('dialog', { name: title }).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
    const row = page.getByRole('row').filter({ hasText: title });
    // Its thumbnail is the photo, read with the token.
    await row.locator('img[src^="blob:"]').waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(2);
    await row.getByRole('button', { name: title }).click();

    await detail.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Item' });
    await edit.getByRole('textbox', { name: 'High estimate' }).fill('1500');
    await edit.getByRole('textbox', { name: 'Location' }).fill(`Vault ${tag}`);
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Item updated').waitFor();
    await detail.getByText('$800–$1,500').waitFor();
    await detail.getByText(`Vault ${tag}`).waitFor();

    await detail.getByRole('button', { name: 'Add to Auction' }).click();
    const picker = page.getByRole('dialog', { name: 'Add to Auction' });
    await picker.getByRole('radio', { name: new RegExp(auction.title) }).check();
    await picker.getByRole('button', { name: 'Add to Auction' }).click();
    await toast(page, 'Added to auction').waitFor();
    await detail.getByText('In Auction', { exact: true }).waitFor();
    await detail.getByRole('link', { name: auction.title }).waitFor();
    await windowShot(page, 'inventory-detail-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await detail.getByRole('button', { name: 'Close' }).click();
    await row.getByText('In Auction', { exact: true }).waitFor();

    await page.getByRole('tab', { name: 'Overview' }).click();
    const after = await overview();
    expect(after.totalItems).toBe(before.totalItems + 1);
    expect(after.inAuction).toBe(before.inAuction + 1);
    const tiles = page.getByRole('region', { name: 'Inventory figures' });
    await tiles.getByText(after.totalItems.toLocaleString('en-US'), { exact: true }).waitFor();
    await tiles.getByText(after.inAuction.toLocaleString('en-US'), { exact: true }).waitFor();
    expect(unexpected(errors)).toEqual([]);
  });

  it("says when someone else saved the item, and shows the server's refusal to delete it in auction", async () => {
    await page.goto(`${webUrl}/inventory/items?item=${itemId}`);
    const detail = page.getByRole('dialog', { name: title });
    await detail.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Item' });
    await edit.getByRole('textbox', { name: 'Subcategory' }).fill('Teapots');
    // Someone else saves the item meanwhile.
    const current = await domain<InventoryItem>('GET', `/inventory/items/${itemId}`, {
      token: ownerToken,
    });
    const other = await domain('PATCH', `/inventory/items/${itemId}`, {
      token: ownerToken,
      body: { description: 'Marked by Paul Storr.' },
      headers: { 'if-match': `"${current.body.etag}"` },
    });
    expect(other.status).toBe(200);
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await edit.getByText('Someone else saved it since you opened it.', { exact: false }).waitFor();
    await edit.getByRole('button', { name: 'Reload' }).click();
    await edit.getByText('This item changed').waitFor({ state: 'detached' });
    expect(await edit.getByRole('textbox', { name: 'Subcategory' }).inputValue()).toBe('');
    await edit.getByRole('textbox', { name: 'Subcategory' }).fill('Teapots');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Item updated').waitFor();
    await detail.getByText('Marked by Paul Storr.').waitFor();

    await detail.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete item' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'The item was not deleted').waitFor();
    await page
      .locator('.fui-Toast')
      .getByText(/remove it from the auction before deleting it/)
      .waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await detail.getByRole('button', { name: 'Remove from Auction' }).click();
    await toast(page, 'Removed from auction').waitFor();
    await detail.getByRole('button', { name: 'Add to Auction' }).waitFor();
    await detail.getByRole('button', { name: 'Close' }).click();

    // Sync Inventory rescores every item on the server.
    await page.getByRole('button', { name: 'Sync Inventory' }).click();
    await page
      .locator('.fui-Toast')
      .getByText(/items? rescored\.$/)
      .waitFor();
  });

  it("shows the demo's AI suggestions with their reasons, and an item's similar items", async () => {
    await page.goto(`${webUrl}/inventory/suggestions`);
    const cards = page.locator('.fui-Card').filter({ hasText: /Silver sold \d+% of lots/ });
    await cards.first().waitFor();
    const card = cards.filter({ hasText: 'Sterling tea and coffee service, Gorham' });
    await card.getByText('In storage 430 days: time to bring it to sale').waitFor();
    await card.getByRole('button', { name: 'Sterling tea and coffee service, Gorham' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sterling tea and coffee service, Gorham' });
    const similar = dialog.getByRole('region', { name: 'Similar items' });
    const held = similar.getByRole('list', { name: 'Similar items in your inventory' });
    await held.getByRole('button', { name: 'Pair of Georgian silver candlesticks' }).waitFor();
    await similar
      .getByRole('list', { name: 'Comparable lots sold' })
      .getByText(/^Sold for /)
      .first()
      .waitFor();
    expect(await accessibilityViolations(page), 'item detail with similar items').toEqual([]);
    // A similar item opens in the dialog in its place.
    await held.getByRole('button', { name: 'Pair of Georgian silver candlesticks' }).click();
    await page
      .getByRole('dialog', { name: 'Pair of Georgian silver candlesticks' })
      .getByRole('region', { name: 'Similar items' })
      .getByRole('button', { name: 'Sterling tea and coffee service, Gorham' })
      .waitFor();
    await page.keyboard.press('Escape');
  });

  it('looks right in light, dark and on a phone', async () => {
    // One signed-in page, its colour scheme and size switched, rather than a sign-in per look.
    const looks = [
      ['light', { colorScheme: 'light' }, viewports.desktop, ['overview', 'items', 'suggestions']],
      ['dark', { colorScheme: 'dark' }, viewports.desktop, ['overview']],
      ['phone', { colorScheme: 'light' }, viewports.mobile, ['items']],
    ] as const;
    for (const [look, media, viewport, checked] of looks) {
      await page.emulateMedia(media);
      await page.setViewportSize(viewport);
      await page.goto(`${webUrl}/inventory`);
      for (const [tab, label, ready] of [
        ['overview', 'Overview', 'Hot Items for Auction'],
        ['items', 'All Items', title],
        ['suggestions', 'AI Suggestions', /or more, best first/],
      ] as const) {
        await page.getByRole('tab', { name: label }).click();
        await page.getByText(ready).first().waitFor();
        await page.waitForLoadState('networkidle');
        await screenshot(page, `inventory-${tab}-${look}`);
        // Axe on every tab once, and on each look's busiest tab.
        if ((checked as readonly string[]).includes(tab)) {
          expect(await accessibilityViolations(page), `${tab} ${look}`).toEqual([]);
        }
      }
    }
    expect(unexpected(errors)).toEqual([]);
  });
});
