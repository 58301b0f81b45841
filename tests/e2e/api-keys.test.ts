import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInThroughForm } from '../support/app.js';
import {
  accessibilityViolations,
  animationsSettled,
  launchBrowser,
  openPage,
  screenshot,
} from '../support/browser.js';

const webUrl = inject('webUrl');
const domainUrl = inject('domainUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const listBiddersWith = async (key: string) =>
  (await fetch(`${domainUrl}/listBidders`, { headers: { authorization: `Bearer ${key}` } })).status;

describe('Account Settings › APIs', () => {
  it('creates an API key, shows it once, and revokes it', async () => {
    const { page, errors } = await openPage(browser);
    await signInThroughForm(page, 'owner@harborview.demo');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.goto(`${webUrl}/settings/integrations`);
    await page.getByRole('tab', { name: 'APIs', selected: true }).waitFor();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();

    const name = `E2E sync ${Date.now()}`;
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    // Viewing bidders is chosen to begin with; add nothing more.
    expect(await dialog.getByRole('checkbox', { name: 'View bidders' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const field = shown.getByLabel('API key', { exact: true });
    await field.waitFor();
    expect(await field.getAttribute('type')).toBe('password');
    await shown.getByRole('button', { name: 'Show api key' }).click();
    expect(await field.getAttribute('type')).toBe('text');
    const key = await field.inputValue();
    expect(key).toMatch(/^lw_test_/);
    await shown.getByText('it will not be shown again').waitFor();
    await animationsSettled(page);
    await screenshot(page, 'settings-api-key-created');
    await shown.getByRole('button', { name: 'Done' }).click();

    // The key works, under its one permission.
    expect(await listBiddersWith(key)).toBe(200);
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.getByText(`lw_test_…${key.slice(-4)}`).waitFor();
    await row.getByText('Active').waitFor();
    expect(await page.getByText(key).count()).toBe(0);
    await screenshot(page, 'settings-apis');
    expect(await accessibilityViolations(page)).toEqual([]);

    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Revoke ${name}?` });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('Revoked').waitFor();
    expect(await listBiddersWith(key)).toBe(401);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('adds a webhook, shows its secret once, pings it and shows the delivery', async () => {
    const received: string[] = [];
    const receiver = createServer((request, response) => {
      received.push(String(request.headers['lotwise-event']));
      response.end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/e2e-${Date.now()}`;
    const { page, errors } = await openPage(browser);
    await signInThroughForm(page, 'owner@harborview.demo');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.goto(`${webUrl}/settings/integrations`);

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add webhook' });
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Our CRM');
    await dialog.getByRole('checkbox', { name: /\(bidder\.created\)/ }).check();
    await animationsSettled(page);
    await screenshot(page, 'settings-webhook-add');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    const secret = page.getByRole('dialog', { name: 'Signing secret' });
    await secret.getByRole('button', { name: 'Show signing secret' }).click();
    expect(await secret.getByLabel('Signing secret', { exact: true }).inputValue()).toMatch(
      /^whsec_/,
    );
    await secret.getByRole('button', { name: 'Done' }).click();

    const endpoint = page.getByRole('listitem').filter({ hasText: url });
    await endpoint.getByText('Our CRM').waitFor();
    await endpoint.getByRole('button', { name: `Actions for ${url}` }).click();
    await page.getByRole('menuitem', { name: 'Send test' }).click();
    await page.getByText('Test delivered').first().waitFor();
    expect(received).toEqual(['ping']);

    await endpoint.getByRole('button', { name: `Actions for ${url}` }).click();
    await page.getByRole('menuitem', { name: 'Deliveries' }).click();
    const log = page.getByRole('dialog', { name: 'Deliveries' });
    await log.getByText('delivered').waitFor();
    await log.getByText(/HTTP 200 in \d+ ms/).waitFor();
    await animationsSettled(page);
    await screenshot(page, 'settings-webhook-deliveries');
    expect(await accessibilityViolations(page)).toEqual([]);
    await log.getByRole('button', { name: 'Close' }).click();

    await endpoint.getByRole('button', { name: `Actions for ${url}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page
      .getByRole('alertdialog', { name: 'Delete this webhook?' })
      .getByRole('button', { name: 'Delete webhook' })
      .click();
    await page.getByText('Webhook deleted').first().waitFor();
    expect(await page.getByRole('listitem').filter({ hasText: url }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });
});
