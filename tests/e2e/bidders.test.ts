import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, DEMO_PASSWORD, signInThroughForm } from '../support/app.js';
import {
  accessibilityViolations,
  contrastViolations,
  launchBrowser,
  openPage,
  screenshot,
  viewports,
} from '../support/browser.js';

const webUrl = inject('webUrl');
const domainUrl = inject('domainUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

async function ownerToken(): Promise<string> {
  const reply = await api<{ accessToken: string }>('/login', {
    method: 'POST',
    body: { email: 'owner@harborview.demo', password: DEMO_PASSWORD },
  });
  return reply.body.accessToken;
}

async function domain<T>(
  path: string,
  token: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${domainUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as T };
}

async function signedInOnBidders(page: Page, email = 'owner@harborview.demo') {
  await signInThroughForm(page, email);
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  await page.goto(`${webUrl}/bidders`);
  await page.getByRole('heading', { name: 'Bidder Management' }).waitFor();
  await page.getByText(/Showing \d+ of \d+ bidders/).waitFor();
}

/**
 * Searches the list and waits for its answer. The list follows the box 300 ms later and keeps
 * showing the unfiltered rows while it fetches, so a row clicked any sooner may move under the
 * pointer (and another bidder open) when the filtered rows arrive.
 */
async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search bidders' }).fill(text);
  await page.waitForURL((url) => url.searchParams.get('q') === text);
  await page.locator('[role="table"][aria-label="Bidders"][aria-busy="false"]').waitFor();
}

describe('Bidder Management', () => {
  it('adds a bidder, finds it by search, opens the profile and adds a note that survives a reload', async () => {
    const { page, errors } = await openPage(browser);
    await signedInOnBidders(page);
    const surname = `Quill${randomUUID().slice(0, 6)}`;

    await page.getByRole('button', { name: 'Add Bidder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Bidder' });
    await dialog.getByRole('button', { name: 'Add Bidder' }).click();
    await page.getByText('Please fill in all required fields').first().waitFor();
    await dialog.getByText('First name is required').waitFor();
    await dialog.getByRole('textbox', { name: 'First name' }).fill('Ada');
    await dialog.getByRole('textbox', { name: 'Last name' }).fill(surname);
    // A mistyped email says what is wrong with which field.
    await dialog.getByRole('textbox', { name: 'Email' }).fill(`ada.${surname.toLowerCase()}@`);
    await dialog.getByRole('button', { name: 'Add Bidder' }).click();
    await page.getByText('Email: Enter a valid email address').first().waitFor();
    await dialog.getByText('Enter a valid email address').waitFor();
    await dialog
      .getByRole('textbox', { name: 'Email' })
      .fill(`ada.${surname.toLowerCase()}@example.com`);
    await dialog.getByRole('textbox', { name: 'Phone' }).fill('+1 617 555 0199');
    await dialog.getByRole('textbox', { name: 'City' }).fill('Boston');
    await dialog.getByRole('textbox', { name: 'Initial note' }).fill('Met at the autumn preview.');
    await dialog.getByRole('button', { name: 'Add Bidder' }).click();
    await page.getByText('Bidder added successfully!').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });

    await search(page, surname.toUpperCase());
    await page.getByText('Showing 1 of 1 bidder').waitFor();
    await page.getByRole('row', { name: new RegExp(surname) }).click();
    const panel = page.getByRole('dialog', { name: `Ada ${surname}` });
    await panel.getByText('Pending').first().waitFor();
    await panel.getByRole('tab', { name: 'Auction History' }).click();
    await panel.getByText('No auction history available').waitFor();
    await panel.getByRole('tab', { name: 'Notes' }).click();
    await panel.getByText('Met at the autumn preview.').waitFor();
    await panel.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Payment' }).click();
    await panel.getByRole('textbox', { name: 'New note' }).fill('Asked to pay by wire next time.');
    await panel.getByRole('button', { name: 'Add Note' }).click();
    await page.getByText('Note added').first().waitFor();

    // The open profile is in the address, so a reload comes back to it with the note.
    await page.reload();
    const reopened = page.getByRole('dialog', { name: `Ada ${surname}` });
    await reopened.getByRole('tab', { name: 'Notes' }).click();
    await reopened.getByText('Asked to pay by wire next time.').waitFor();
    expect(await reopened.getByText('Payment', { exact: true }).count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('keeps the fields of a row on one line when some of them show a message', async () => {
    const { page } = await openPage(browser);
    await signedInOnBidders(page);
    await page.getByRole('button', { name: 'Add Bidder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Bidder' });
    await dialog.getByRole('button', { name: 'Add Bidder' }).click();
    await dialog.getByText('Email is required').waitFor();
    const top = async (name: string) =>
      Math.round((await dialog.getByRole('textbox', { name }).boundingBox())?.y ?? -1);
    // Email says it is required; Phone, beside it, says nothing.
    expect(await top('Phone')).toBe(await top('Email'));
    expect(await top('Last name')).toBe(await top('First name'));
    await screenshot(page, 'bidder-form-errors-light');
    await page.context().close();
  });

  it('edits details with the ETag, and says so when someone else changed the bidder first', async () => {
    const token = await ownerToken();
    const { page } = await openPage(browser);
    await signedInOnBidders(page);
    await search(page, 'HV-1003');
    await page.getByText('Showing 1 of 1 bidder').waitFor();
    await page.getByRole('button', { name: /^Actions for / }).click();
    await page.getByRole('menuitem', { name: 'Edit Details' }).click();
    const dialog = page.getByRole('dialog', { name: /^Edit / });
    await dialog.getByRole('textbox', { name: 'City' }).fill('Concord');

    const list = await domain<{ bidders: { id: string; etag: string }[] }>(
      '/listBidders?search=HV-1003',
      token,
    );
    const target = list.body.bidders[0] as { id: string; etag: string };
    const meanwhile = await domain(`/bidders/${target.id}`, token, {
      method: 'PUT',
      body: { phone: '+1 603 555 0110' },
      headers: { 'if-match': `"${target.etag}"` },
    });
    expect(meanwhile.status).toBe(200);

    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.getByText('Someone else changed this bidder while you were editing').waitFor();
    await dialog.getByRole('button', { name: 'Load their changes' }).click();
    await expect
      .poll(() => dialog.getByRole('textbox', { name: 'Phone' }).inputValue())
      .toBe('+1 603 555 0110');
    await dialog.getByRole('textbox', { name: 'City' }).fill('Concord');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Bidder details saved').first().waitFor();
    const saved = await domain<{ address: { city: string } }>(`/bidders/${target.id}`, token);
    expect(saved.body.address.city).toBe('Concord');
    await page.context().close();
  });

  it('says so when a bidder added is someone already on file, and opens that bidder', async () => {
    const token = await ownerToken();
    const tag = randomUUID().slice(0, 6);
    const original = await domain<{ id: string; bidderId: string }>('/bidders', token, {
      method: 'POST',
      body: {
        firstName: 'Odile',
        lastName: `Marchetti${tag}`,
        email: `odile.${tag}@example.com`,
        phone: '+1 401 555 0177',
      },
    });
    expect(original.status).toBe(201);
    const { page, errors } = await openPage(browser);
    await signedInOnBidders(page);
    await page.getByRole('button', { name: 'Add Bidder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Bidder' });
    await dialog.getByRole('textbox', { name: 'First name' }).fill('Odile');
    await dialog.getByRole('textbox', { name: 'Last name' }).fill(`Marchetti${tag}`);
    await dialog.getByRole('textbox', { name: 'Email' }).fill(`Odile.${tag}@example.com`);
    await dialog.getByRole('textbox', { name: 'Phone' }).fill('(401) 555-0177');
    await dialog.getByRole('button', { name: 'Add Bidder' }).click();
    await page
      .getByText(
        `Merged into Odile Marchetti${tag} (${original.body.bidderId}): same email address`,
      )
      .first()
      .waitFor();
    expect(await page.getByText('Bidder added successfully!').count()).toBe(0);
    await page.getByRole('button', { name: 'Open bidder' }).click();
    const panel = page.getByRole('dialog', { name: `Odile Marchetti${tag}` });
    await panel.getByText(`ID ${original.body.bidderId}`).waitFor();
    // Nobody has dealt with them yet: the neutral default, shown as unknown rather than bad.
    await panel.getByRole('img', { name: 'Lotwise score 50 out of 100, no record yet' }).waitFor();
    await panel.getByRole('tab', { name: 'Score Breakdown' }).click();
    await panel.getByText(/Nothing is on record yet/).waitFor();
    expect(await panel.getByText('No record yet: neutral 50').count()).toBe(8);
    await screenshot(page, 'bidders-merged-on-add');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('saves Edit Settings after a note was added, and the profile stays usable after the save', async () => {
    const { page, errors } = await openPage(browser);
    await signedInOnBidders(page);
    await search(page, 'HV-1004');
    await page.getByText('Showing 1 of 1 bidder').waitFor();
    const row = page.getByRole('row', { name: /HV-1004/ });
    await row.click();
    const panel = page.getByRole('dialog', { name: /^(?!Edit )/ }).filter({ hasText: 'HV-1004' });
    await panel.getByRole('tab', { name: 'Notes' }).click();
    await panel.getByRole('textbox', { name: 'New note' }).fill('Called about the spring sale.');
    await panel.getByRole('button', { name: 'Add Note' }).click();
    await page.getByText('Note added').first().waitFor();

    await panel.getByRole('button', { name: 'Edit Settings' }).click();
    const dialog = page.getByRole('dialog', { name: /^Edit / });
    const city = `Salem ${randomUUID().slice(0, 4)}`;
    await dialog.getByRole('textbox', { name: 'City' }).fill(city);
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Bidder details saved').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByText('Someone else changed this bidder').count()).toBe(0);

    // The profile is usable again: in the accessibility tree, its footer clear of toasts.
    await panel.getByRole('tab', { name: 'Overview' }).click();
    const footerButton = await panel.getByRole('button', { name: 'Report Bidder' }).boundingBox();
    const toast = await page.getByText('Bidder details saved').first().boundingBox();
    expect(footerButton && toast).toBeTruthy();
    const overlaps =
      toast!.x < footerButton!.x + footerButton!.width &&
      footerButton!.x < toast!.x + toast!.width &&
      toast!.y < footerButton!.y + footerButton!.height &&
      footerButton!.y < toast!.y + toast!.height;
    expect(overlaps).toBe(false);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    await expect
      .poll(() => row.evaluate((element) => element === document.activeElement))
      .toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('changes custom weights and the custom scores change', async () => {
    const token = await ownerToken();
    const list = await domain<{
      bidders: { id: string; customScore: { score: number; breakdown: Record<string, number> } }[];
    }>('/listBidders?search=HV-1019&scoreType=custom', token);
    const bidder = list.body.bidders[0] as (typeof list.body.bidders)[number];
    const { breakdown } = bidder.customScore;
    const expected = Math.round(
      ((breakdown.paymentHistory ?? 0) * 50 + (breakdown.disputeHistory ?? 0) * 50) / 100,
    );

    const { page } = await openPage(browser);
    await signedInOnBidders(page);
    await page
      .getByRole('group', { name: 'Score type' })
      .getByRole('button', { name: 'Custom' })
      .click();
    await search(page, 'HV-1019');
    await page.getByText('Showing 1 of 1 bidder').waitFor();
    await page
      .getByRole('img', { name: `Custom score ${bidder.customScore.score} out of 100` })
      .waitFor();

    await page.getByRole('button', { name: 'Score Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bidder Scoring Settings' });
    await dialog.getByText('All weights properly configured').waitFor();
    const weights: Record<string, string> = {
      'Payment history (%)': '50',
      'Bid activity (%)': '0',
      'Win rate (%)': '0',
      'Average spending (%)': '0',
      'Account age (%)': '0',
      'Responsiveness (%)': '0',
      'Dispute history (%)': '0',
      'Referrals (%)': '0',
    };
    for (const [label, value] of Object.entries(weights)) {
      const box = dialog.getByRole('spinbutton', { name: label });
      await box.fill(value);
      await box.press('Tab');
    }
    await dialog.getByText('Weights must total 100% (currently under by 50%)').waitFor();
    expect(await dialog.getByRole('button', { name: 'Save Settings' }).isDisabled()).toBe(true);
    const disputes = dialog.getByRole('spinbutton', { name: 'Dispute history (%)' });
    await disputes.fill('50');
    await disputes.press('Tab');
    await dialog.getByText('All weights properly configured').waitFor();
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Scoring settings saved').first().waitFor();

    await page
      .getByRole('img', { name: `Custom score ${expected} out of 100` })
      .waitFor({ timeout: 30_000 });
    await page.reload();
    await page.getByRole('img', { name: `Custom score ${expected} out of 100` }).waitFor();

    // Back to the defaults for the other tests.
    await page.getByRole('button', { name: 'Score Settings' }).click();
    await dialog.getByRole('button', { name: 'Reset to Defaults' }).click();
    await dialog.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Scoring settings saved').first().waitFor();
    await page.context().close();
  });

  it('totals the custom weights as they are typed', async () => {
    const { page } = await openPage(browser);
    await signedInOnBidders(page);
    await page.getByRole('button', { name: 'Score Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bidder Scoring Settings' });
    await dialog.getByText('All weights properly configured').waitFor();
    const payment = dialog.getByRole('spinbutton', { name: 'Payment history (%)' });
    const saved = Number(await payment.inputValue());
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(50);
    // Typing, without leaving the field, changes the total.
    await payment.fill('50');
    await dialog.getByText(`Weights must total 100% (currently over by ${50 - saved}%)`).waitFor();
    await payment.fill('0');
    await dialog.getByText(`Weights must total 100% (currently under by ${saved}%)`).waitFor();
    expect(await dialog.getByRole('button', { name: 'Save Settings' }).isDisabled()).toBe(true);
    await payment.fill(String(saved));
    await dialog.getByText('All weights properly configured').waitFor();
    expect(await payment.evaluate((input) => input === document.activeElement)).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.context().close();
  });

  it('reviews and merges a duplicate pair, and the merge is still there after a reload', async () => {
    const { page, errors } = await openPage(browser);
    await signedInOnBidders(page);
    await page.getByRole('tab', { name: 'Duplicates' }).click();
    await page.getByText('Pending Duplicate Matches').waitFor();
    const pending = page.getByText('Pending Review').locator('xpath=..').locator('span').last();
    await expect.poll(async () => Number(await pending.textContent())).toBeGreaterThan(0);
    const before = Number(await pending.textContent());

    const pair = page.getByRole('group', { name: /^Possible duplicate: Olivya Rinaldi/ });
    await pair.getByRole('button', { name: 'Review & Merge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resolve Duplicate Bidders' });
    // The older record stays by default.
    expect(await dialog.getByRole('radio', { name: 'Olivia Rinaldi (HV-1011)' }).isChecked()).toBe(
      true,
    );
    await dialog.getByRole('radio', { name: '+1 401 555 0177' }).check();
    await dialog.getByRole('button', { name: 'Merge Bidders' }).click();
    await page.getByText('Bidders merged').first().waitFor();
    await pair.waitFor({ state: 'detached' });

    await page.reload();
    await page.getByText('Pending Duplicate Matches').waitFor();
    await expect.poll(async () => Number(await pending.textContent())).toBe(before - 1);
    await page.getByRole('tab', { name: 'All Bidders' }).click();
    await search(page, 'hv-2002');
    const row = page.getByRole('row', { name: /Olivia Rinaldi/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('also HV-2002');
    await row.click();
    await page
      .getByRole('dialog', { name: 'Olivia Rinaldi' })
      .getByText('+1 401 555 0177')
      .waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('hands a file to Data Processing, with a summary naming the bad rows and a link to it', async () => {
    const { page } = await openPage(browser);
    await signedInOnBidders(page);
    const tag = randomUUID().slice(0, 6);
    const csv = [
      'First Name,Last Name,Email,Phone,City,Lots',
      `Iris,Import${tag},iris.${tag}@example.com,617-555-0101,Salem,12`,
      `Bad,Row${tag},not-an-email,,Salem,3`,
      `Hugo,Import${tag},hugo.${tag}@example.com,,Lowell,4`,
    ].join('\n');
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Bidders' });
    await dialog.getByRole('tab', { name: 'File Upload' }).click();
    expect(await dialog.getByRole('button', { name: 'Upload and Import' }).isDisabled()).toBe(true);
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: 'bidders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByText('bidders.csv').waitFor();
    await dialog.getByRole('button', { name: 'Upload and Import' }).click();
    await dialog.getByText('Import finished').waitFor({ timeout: 45_000 });
    const problems = dialog.getByRole('table', { name: 'Rows not imported' });
    await problems.getByRole('cell', { name: 'Enter a valid email address' }).waitFor();
    await problems.getByRole('cell', { name: 'email', exact: true }).waitFor();
    const figure = (label: string) =>
      dialog.getByText(label, { exact: true }).locator('xpath=following-sibling::dd');
    expect(await figure('Added').textContent()).toBe('2');
    expect(await figure('Errors').textContent()).toBe('1');
    const link = dialog.getByRole('link', { name: 'Open it in Data Processing' });
    expect(await link.getAttribute('href')).toMatch(/^\/data-upload\?upload=/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await search(page, `import${tag}`);
    await page.getByText('Showing 2 of 2 bidders').waitFor();
    await page.context().close();
  });

  it('refuses a legacy .xls file with a reason', async () => {
    const { page } = await openPage(browser);
    await signedInOnBidders(page);
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Bidders' });
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'old.xls',
      mimeType: 'application/vnd.ms-excel',
      buffer: Buffer.concat([
        Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
        Buffer.alloc(512),
      ]),
    });
    await dialog.getByRole('button', { name: 'Upload and Import' }).click();
    // This one is only an Office header, so it reads as damaged; a whole one as legacy Excel.
    await dialog
      .getByText(/old\.xls: is a (legacy Excel \(\.xls\) file|damaged Office file)/)
      .waitFor();
    // Nothing can be imported from it: cancelling leaves nothing behind.
    await dialog.getByRole('button', { name: 'Cancel import' }).click();
    await dialog.getByRole('button', { name: 'Upload and Import' }).waitFor();
    await page.context().close();
  });

  it('shows a viewer the list without the actions they may not take', async () => {
    const { page } = await openPage(browser);
    await signedInOnBidders(page, 'viewer@harborview.demo');
    expect(await page.getByRole('button', { name: 'Add Bidder' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Import' }).count()).toBe(0);
    await page
      .getByRole('button', { name: /^Actions for / })
      .first()
      .click();
    expect(await page.getByRole('menuitem', { name: /^Edit Details/ }).isDisabled()).toBe(true);
    expect(await page.getByRole('menuitem', { name: /^Delete Bidder/ }).isDisabled()).toBe(true);
    await page.getByText('Needs the Edit bidders permission').waitFor();
    await page.keyboard.press('Escape');

    // The profile: nothing to edit, each control saying why, no note form.
    await page.getByRole('row').nth(1).click();
    const panel = page.getByRole('dialog').filter({ has: page.getByText('Score Breakdown') });
    const edit = panel.getByRole('button', { name: 'Edit Settings' });
    expect(await edit.getAttribute('aria-disabled')).toBe('true');
    await edit.hover();
    await page.getByRole('tooltip', { name: 'Needs the Edit bidders permission' }).waitFor();
    await edit.click({ force: true });
    expect(await page.getByRole('dialog', { name: /^Edit / }).count()).toBe(0);
    await panel.getByRole('tab', { name: 'Notes' }).click();
    await panel
      .getByText('Needs the Add notes to bidder history permission to add notes.')
      .waitFor();
    expect(await panel.getByRole('button', { name: 'Add Note' }).count()).toBe(0);
    await screenshot(page, 'bidders-profile-viewer');
    await page.keyboard.press('Escape');

    await page.goto(`${webUrl}/bidders/duplicates`);
    await page.getByText(/Changing it needs the Configure custom scoring permission/).waitFor();
    expect(await page.getByRole('button', { name: 'Adjust' }).count()).toBe(0);
    const merge = page.getByRole('button', { name: 'Review & Merge' }).first();
    expect(await merge.getAttribute('aria-disabled')).toBe('true');
    await page.context().close();
  });
});

/** The WCAG contrast ratio of two computed CSS colours (`rgb(…)` or `color(srgb …)`). */
function contrastRatio(one: string, two: string): number {
  const channels = (css: string) => {
    const numbers = (css.match(/[\d.]+/g) ?? []).map(Number);
    return css.startsWith('color(') ? numbers.slice(0, 3) : numbers.slice(0, 3).map((n) => n / 255);
  };
  const luminance = (css: string) => {
    const [r = 0, g = 0, b = 0] = channels(css).map((c) =>
      c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
    );
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(one), luminance(two)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe('badges and row tints', () => {
  it.each(['light', 'dark'] as const)(
    'every badge of the list is readable, and a row tint is a hint (%s)',
    async (colorScheme) => {
      const { page } = await openPage(browser, { colorScheme });
      await signedInOnBidders(page);
      for (const status of ['Active', 'Inactive', 'Suspended', 'Pending']) {
        for (const score of ['', '&score=custom']) {
          await page.goto(`${webUrl}/bidders?status=${status}${score}`);
          await page.getByText(/Showing \d+ of \d+ bidders?/).waitFor();
          await page.getByRole('row').nth(1).waitFor();
          expect(await contrastViolations(page), `${status}${score}`).toEqual([]);
        }
        if (status === 'Inactive') await screenshot(page, `bidders-inactive-${colorScheme}`);
      }

      // Each band's tint: unlike the table's own background, yet close to it.
      await page.goto(`${webUrl}/bidders`);
      await page.getByRole('row').nth(1).waitFor();
      const table = await page
        .getByRole('table', { name: 'Bidders' })
        .evaluate((element) => getComputedStyle(element.parentElement as Element).backgroundColor);
      const rows = page.getByRole('rowgroup').getByRole('row');
      const tints = new Set(
        await rows.evaluateAll((elements) =>
          elements.map((element) => getComputedStyle(element).backgroundColor),
        ),
      );
      expect(tints.size).toBeGreaterThan(1);
      for (const tint of tints) {
        const ratio = contrastRatio(tint, table);
        expect(ratio, `${tint} on ${table}`).toBeGreaterThan(1.01);
        expect(ratio, `${tint} on ${table}`).toBeLessThan(1.2);
      }
      await screenshot(page, `bidders-tints-${colorScheme}`);
      await page.context().close();
    },
  );

  it.each(['light', 'dark'] as const)(
    'every badge of a profile, the duplicates, the team and scoring is readable (%s)',
    async (colorScheme) => {
      const { page } = await openPage(browser, { colorScheme });
      await signedInOnBidders(page);
      await page.goto(`${webUrl}/bidders?status=Inactive`);
      await page.getByRole('row').nth(1).click();
      await page.getByRole('dialog').getByRole('tab', { name: 'Overview' }).waitFor();
      expect(await contrastViolations(page), 'profile').toEqual([]);
      await page.goto(`${webUrl}/bidders/duplicates`);
      await page.getByText('Pending Duplicate Matches').waitFor();
      expect(await contrastViolations(page), 'duplicates').toEqual([]);
      for (const path of ['/security/users', '/settings/bidder-scoring']) {
        await page.goto(`${webUrl}${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(await contrastViolations(page), path).toEqual([]);
      }
      await page.getByRole('button', { name: /^Notifications/ }).click();
      await page
        .getByRole('dialog', { name: /Workflow Notifications/ })
        .getByRole('listitem')
        .first()
        .waitFor();
      expect(await contrastViolations(page), 'notifications').toEqual([]);
      await page.context().close();
    },
  );
});

describe('a new account', () => {
  it.each([
    ['light', 'desktop'],
    ['dark', 'desktop'],
    ['light', 'mobile'],
  ] as const)(
    'is welcomed with Add Bidder and Import, not told its filters match nothing (%s, %s)',
    async (colorScheme, size) => {
      const email = `new-house-${randomUUID().slice(0, 8)}@example.com`;
      const password = 'Quartz-Lantern-Orbit-42';
      const created = await api('/signup', {
        method: 'POST',
        body: {
          firstName: 'Nell',
          lastName: 'Newhouse',
          email,
          password,
          confirmPassword: password,
          preferences: { termsAccepted: true, privacyPolicyAccepted: true },
        },
      });
      expect(created.status).toBe(201);
      const { page, errors } = await openPage(browser, { colorScheme, viewport: viewports[size] });
      await signInThroughForm(page, email, password);
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      await page.goto(`${webUrl}/bidders`);
      const welcome = page.getByRole('region', { name: 'Welcome to Lotwise' });
      await welcome.waitFor();
      expect(await page.getByText('No bidders match these filters.').count()).toBe(0);
      await screenshot(page, `bidders-welcome-${colorScheme}-${size}`);
      expect(await accessibilityViolations(page)).toEqual([]);

      await welcome.getByRole('button', { name: 'Import' }).click();
      await page
        .getByRole('dialog', { name: 'Import Bidders' })
        .getByRole('button', { name: 'Cancel' })
        .click();
      await welcome.getByRole('button', { name: 'Add Bidder' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Bidder' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });

      // With a filter set, an empty list is about the filter.
      await page.goto(`${webUrl}/bidders?status=Suspended`);
      await page.getByText('No bidders match these filters.').waitFor();
      expect(await welcome.count()).toBe(0);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );
});

describe('Bidder Management screens', () => {
  it.each([
    ['light', 'desktop'],
    ['dark', 'desktop'],
    ['light', 'mobile'],
    ['dark', 'mobile'],
  ] as const)('look right and pass axe (%s, %s)', async (colorScheme, size) => {
    const { page, errors } = await openPage(browser, { colorScheme, viewport: viewports[size] });
    await signedInOnBidders(page);
    await screenshot(page, `bidders-list-${colorScheme}-${size}`);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page
      .getByRole('row')
      .nth(size === 'mobile' ? 0 : 1)
      .click();
    await page.getByRole('tab', { name: 'Score Breakdown' }).click();
    await page.getByText('Payment history').first().waitFor();
    await screenshot(page, `bidders-profile-${colorScheme}-${size}`);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');

    await page.goto(`${webUrl}/bidders/duplicates`);
    await page.getByText('Pending Duplicate Matches').waitFor();
    await screenshot(page, `bidders-duplicates-${colorScheme}-${size}`);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.goto(`${webUrl}/bidders/analytics`);
    await page.getByText('Score Distribution').waitFor();
    await screenshot(page, `bidders-analytics-${colorScheme}-${size}`);
    expect(await accessibilityViolations(page)).toEqual([]);

    if (size === 'desktop') {
      await page.goto(`${webUrl}/bidders`);
      await page.getByRole('button', { name: 'Score Settings' }).click();
      await page
        .getByRole('dialog', { name: 'Bidder Scoring Settings' })
        .getByText('All weights properly configured')
        .waitFor();
      await screenshot(page, `bidders-scoring-settings-${colorScheme}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.goto(`${webUrl}/settings/bidder-scoring`);
      await page.getByText('Automation rules').waitFor();
      await screenshot(page, `settings-scoring-${colorScheme}`);
      expect(await accessibilityViolations(page)).toEqual([]);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('saves the Scoring tab thresholds, and both scoring screens tell the same story after a reload', async () => {
    const { page } = await openPage(browser);
    await signedInOnBidders(page);
    await page.goto(`${webUrl}/settings/bidder-scoring`);
    const slider = page.getByRole('slider', { name: /^Auto-deny below: / });
    await slider.focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.getByText('Auto-deny below: 30').waitFor();
    await page.getByRole('button', { name: 'Save Thresholds' }).click();
    await page.getByText('Scoring thresholds saved').first().waitFor();
    await page.reload();
    await page.getByText('Auto-deny below: 30').waitFor();
    const story = /A custom score below 30 earned on a real record/;
    await page.getByText(story).waitFor();
    const invite = /Custom score 80 or more, with a clean payment record and tier Silver or higher/;
    await page.getByText(invite).waitFor();

    await page.goto(`${webUrl}/bidders`);
    await page.getByRole('button', { name: 'Score Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bidder Scoring Settings' });
    await dialog.getByRole('tab', { name: 'Automation Rules' }).click();
    await dialog.getByText(story).waitFor();
    await dialog.getByText(invite).waitFor();
    expect(await dialog.getByText('Deny below a custom score of 30').count()).toBe(1);
    await screenshot(page, 'bidders-scoring-rules-light');
    await page.context().close();
  });
});
