import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AccountSummary } from '../../functions/dev/platforms/control.js';
import { KEY_EXPIRED_MESSAGE } from '../../functions/src/integrations/integrations.schema.js';
import { api, signInThroughForm } from '../support/app.js';
import {
  accessibilityViolations,
  launchBrowser,
  openPage,
  screenshot,
  viewports,
} from '../support/browser.js';
import { platformSandbox } from '../support/platforms.js';

const webUrl = inject('webUrl');
const domainUrl = inject('domainUrl');
let browser: Browser;
let page: Page;
let errors: string[];
let token: string;
let proxy: AccountSummary;
let upcoming: { externalId: string; title: string };
const person = {
  firstName: 'Ottoline',
  lastName: `Pemberley${randomUUID().slice(0, 5)}`,
  email: `ottoline.${randomUUID().slice(0, 8)}@example.com`,
};

const card = (platform: string) =>
  page.locator('.fui-Card').filter({ has: page.getByRole('heading', { name: platform }) });

beforeAll(async () => {
  browser = await launchBrowser();
  const email = `platform-house-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'Quartz-Lantern-Orbit-42';
  const created = await api<{ accessToken: string }>('/signup', {
    method: 'POST',
    body: {
      firstName: 'Priya',
      lastName: 'Platt',
      email,
      password,
      confirmPassword: password,
      preferences: { termsAccepted: true, privacyPolicyAccepted: true },
    },
  });
  expect(created.status).toBe(201);
  token = created.body.accessToken;
  const sandbox = platformSandbox();
  proxy = await sandbox.createAccount({
    platform: 'ProxyBid',
    auctions: 3,
    lotsPerAuction: 4,
    bidders: 6,
    include: [person],
  });
  const first = (await sandbox.account(proxy.key)).auctions[0]!;
  await sandbox.changeAuction(proxy.key, first.externalId, { status: 'upcoming' });
  upcoming = { externalId: first.externalId, title: first.title };
  ({ page, errors } = await openPage(browser));
  await signInThroughForm(page, email, password);
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
});
afterAll(async () => {
  await page?.context().close();
  await browser?.close();
});

describe('a house connects a bidding platform and works with it', () => {
  it('is told to connect a platform first, and led to where it is done', async () => {
    await page.goto(`${webUrl}/auctions/current`);
    await page.getByRole('button', { name: 'Import Auctions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Auctions' });
    await dialog.getByText('No Platforms Connected').waitFor();
    await dialog
      .getByText(
        'You need to connect at least one bidding platform in your Account Settings before you can import auctions.',
      )
      .waitFor();
    await dialog.getByRole('button', { name: 'Go to Settings' }).click();
    await page.waitForURL(`${webUrl}/settings/integrations`);
    await card('ProxyBid').getByText('Disconnected').waitFor();
  });

  it('syncs by hand, as Settings › Sync is saved, and it stays so after a reload', async () => {
    await page.getByRole('tab', { name: 'Sync' }).click();
    await page.getByRole('combobox', { name: 'Sync frequency' }).click();
    await page.getByRole('option', { name: 'Manual only' }).click();
    await page.getByRole('button', { name: 'Save Sync Settings' }).click();
    await page.getByText('Sync settings saved').first().waitFor();
    await page.reload();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Sync frequency' }).textContent())
      .toBe('Manual only');
  });

  it('connects ProxyBid with a key the platform accepts, after refusing one it does not', async () => {
    await page.getByRole('tab', { name: 'APIs' }).click();
    await card('ProxyBid').getByRole('button', { name: 'Connect' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect ProxyBid' });
    const key = dialog.getByLabel('API key');
    await key.fill('not-the-right-key');
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.getByText(/refused the API key/).waitFor();
    await key.fill(proxy.key);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await page.getByText('ProxyBid connected').first().waitFor();
    await page.reload();
    await card('ProxyBid').getByText('Connected', { exact: true }).waitFor();
    await card('ProxyBid')
      .getByText(`•••• ${proxy.key.slice(-4)}`)
      .waitFor();
    await screenshot(page, 'integrations-apis-light');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('imports an auction with its lots from the platform, and edits and pushes it back', async () => {
    await page.goto(`${webUrl}/auctions/current`);
    await page.getByRole('button', { name: 'Import Auctions' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Auctions' });
    await dialog.getByRole('combobox', { name: 'Platform' }).click();
    await page.getByRole('option', { name: 'ProxyBid', exact: true }).click();
    await dialog.getByRole('radio', { name: new RegExp(escape(upcoming.title)) }).check();
    await screenshot(page, 'integrations-import-auction-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Import Auction' }).click();
    await page.getByRole('heading', { name: upcoming.title, level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: upcoming.title, level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'Lots (4)' }).waitFor();

    await page.getByRole('button', { name: 'Edit Auction' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Auction' });
    await edit.getByText('Imported from ProxyBid').waitFor();
    await edit
      .getByRole('textbox', { name: 'Title' })
      .fill(`${upcoming.title} (catalogue revised)`);
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page
      .getByRole('heading', { name: `${upcoming.title} (catalogue revised)`, level: 1 })
      .waitFor();

    await page.getByRole('button', { name: 'Sync with ProxyBid' }).click();
    await page.getByRole('menuitem', { name: 'Push to ProxyBid' }).click();
    await page
      .getByText(/Push to ProxyBid: completed/)
      .first()
      .waitFor();
    const history = page.getByRole('region', { name: 'Sync History' });
    await history
      .getByText(/Pushed · ProxyBid · completed/)
      .first()
      .waitFor();
    const onPlatform = await platformSandbox().account(proxy.key);
    expect(
      onPlatform.auctions.find((auction) => auction.externalId === upcoming.externalId)?.title,
    ).toBe(`${upcoming.title} (catalogue revised)`);
    await screenshot(page, 'integrations-auction-synced-light');
  });

  it('explains a platform error on its card', async () => {
    const sandbox = platformSandbox();
    const wrangler = await sandbox.createAccount({
      platform: 'BidWrangler',
      auctions: 1,
      bidders: 0,
    });
    const connected = await fetch(`${domainUrl}/platforms/BidWrangler/connection`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: wrangler.key }),
    });
    expect(connected.status).toBe(200);
    await sandbox.setFaults(wrangler.key, { expired_key: true });
    await page.goto(`${webUrl}/settings/integrations`);
    await card('BidWrangler').getByRole('button', { name: 'Refresh' }).click();
    await card('BidWrangler').getByText(KEY_EXPIRED_MESSAGE).waitFor();
    await card('BidWrangler').getByText('Error', { exact: true }).waitFor();
    await card('BidWrangler').getByRole('button', { name: 'View Logs' }).click();
    const logs = page.getByRole('dialog', { name: 'BidWrangler sync log' });
    await logs.getByText(KEY_EXPIRED_MESSAGE).waitFor();
    await logs.getByRole('button', { name: 'Close' }).click();
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'integrations-apis-error-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('imports a platform bidder, who shows where they bid', async () => {
    await page.goto(`${webUrl}/bidders`);
    await page.getByRole('button', { name: 'Import' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Import Bidders' });
    await dialog.getByRole('tab', { name: 'Platform Import' }).click();
    await dialog.getByRole('combobox', { name: 'Platform' }).click();
    await page.getByRole('option', { name: 'ProxyBid', exact: true }).click();
    await dialog.getByRole('checkbox', { name: new RegExp(person.lastName) }).check();
    await dialog.getByRole('button', { name: 'Import 1 Bidder' }).click();
    await page.getByText('1 bidder added, 0 matched to bidders you have').first().waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('searchbox', { name: 'Search bidders' }).fill(person.lastName);
    await page.getByText('Showing 1 of 1 bidder').waitFor();
    await page.getByRole('row', { name: new RegExp(person.lastName) }).click();
    const profile = page.getByRole('dialog', { name: `${person.firstName} ${person.lastName}` });
    const platforms = profile.getByRole('region', { name: 'On bidding platforms (1)' });
    await platforms.getByText('ProxyBid', { exact: true }).waitFor();
    await screenshot(page, 'integrations-bidder-identities-light');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('shows the APIs tab on a phone', async () => {
    await page.setViewportSize(viewports.mobile);
    await page.goto(`${webUrl}/settings/integrations`);
    await card('ProxyBid').getByText('Connected', { exact: true }).waitFor();
    await screenshot(page, 'integrations-apis-phone');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.setViewportSize(viewports.desktop);
    // The refusals provoked on purpose: the wrong key (400) and the expired one (in the log).
    expect(errors.filter((error) => !/status of (400|409) /.test(error))).toEqual([]);
  });
});

/** A title as a literal inside a RegExp. */
function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
