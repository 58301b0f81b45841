import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInThroughForm } from '../support/app.js';
import {
  accessibilityViolations,
  launchBrowser,
  openPage,
  screenshot,
} from '../support/browser.js';

const webUrl = inject('webUrl');
const PDF = '%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n';
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Signs in to Harborview Auctions (the admin also works at Lakeside, so picks the account). */
async function signedIn(page: Page, email: string) {
  await signInThroughForm(page, email);
  if (email.startsWith('admin@')) {
    const picker = page.getByRole('alertdialog', { name: 'Select Account' });
    await picker.getByRole('radio', { name: /Harborview Auctions/ }).click();
    await picker.getByRole('button', { name: 'Continue' }).click();
  }
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
}

/** A dropdown's option, chosen by its visible name. */
async function choose(page: Page, scope: Locator, name: string, option: string) {
  await scope.getByRole('combobox', { name }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Moves the open case along its workflow with a reason, as the Workflow tab offers it. */
async function moveTo(page: Page, status: string, reason: string, settlement?: string) {
  await page.getByRole('radio', { name: new RegExp(`^${status}`) }).check();
  await page.getByRole('button', { name: 'Change Status' }).click();
  const dialog = page.getByRole('dialog', { name: `Change status to ${status}?` });
  const confirm = dialog.getByRole('button', { name: 'Confirm Change' });
  // A reason (and when settling, the amount) comes first.
  expect(await confirm.isDisabled()).toBe(true);
  if (settlement) await dialog.getByRole('textbox', { name: 'Settlement amount' }).fill(settlement);
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  await confirm.click();
  await dialog.waitFor({ state: 'detached' });
}

describe('legal cases in the browser', () => {
  let page: Page;
  let errors: string[];
  const tag = randomUUID().slice(0, 6);
  const title = `Unpaid hammer price ${tag}`;
  let caseUrl = '';

  beforeAll(async () => {
    ({ page, errors } = await openPage(browser));
    await signedIn(page, 'owner@harborview.demo');
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('files a case through the dialog and finds it in the list after a reload', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Legal' })
      .click();
    await page.getByRole('heading', { name: 'Legal Case Management' }).waitFor();
    expect(page.url()).toBe(`${webUrl}/legal/cases`);
    await page.getByRole('table', { name: 'Legal cases' }).waitFor();

    await page.getByRole('button', { name: 'File New Case' }).click();
    const dialog = page.getByRole('dialog', { name: 'File New Legal Case' });
    expect(page.url()).toBe(`${webUrl}/legal/cases/new`);
    await dialog.getByRole('button', { name: 'File Case' }).click();
    await page.getByText('Please fill in all required fields').first().waitFor();
    await dialog.getByText('Case title is required').waitFor();

    await choose(page, dialog, 'Case type', 'Payment Dispute');
    await choose(page, dialog, 'Category', 'Post-sale');
    await choose(page, dialog, 'Priority', 'High');
    await dialog.getByRole('textbox', { name: 'Jurisdiction' }).fill('New York');
    await dialog.getByRole('textbox', { name: 'Case title' }).fill(title);
    await dialog.getByRole('textbox', { name: 'Claim amount' }).fill('72,500');
    await dialog.getByRole('textbox', { name: 'Plaintiff name' }).fill('Harborview Auctions');
    await dialog.getByRole('textbox', { name: 'Defendant name' }).fill('Jordan Doe');
    await dialog.getByRole('textbox', { name: 'Defendant email' }).fill('not-an-email');
    await dialog.getByRole('button', { name: 'File Case' }).click();
    await dialog.getByText('Defendant email is not an email address').waitFor();
    await dialog.getByRole('textbox', { name: 'Defendant email' }).fill('jordan@example.com');
    await screenshot(page, 'legal-e2e-new-case');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'File Case' }).click();
    await page.getByText('Legal case filed successfully').first().waitFor();
    await page
      .getByText(`Case "${title}" has been created and assigned a case number.`)
      .first()
      .waitFor();
    await page.getByRole('heading', { name: /^Case Details: LC-\d{4}-\d{4}$/ }).waitFor();
    caseUrl = new URL(page.url()).pathname;
    expect(caseUrl).toMatch(/^\/legal\/cases\/[^/]+$/);

    // Each load settles before the next: a reload cutting off the sign-in's token refresh would
    // present a spent refresh token, which ends the session.
    const table = page.getByRole('table', { name: 'Legal cases' });
    const row = table.getByRole('row').filter({ hasText: title });
    await page.goto(`${webUrl}/legal/cases?q=${tag}`);
    await row.waitFor();
    await page.reload();
    await row.waitFor();
    expect(await table.getByRole('row').count()).toBe(2);
    await row.getByText('$72,500').waitFor();
    await row.getByText('SUBMITTED').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await row.getByRole('link').click();
    await page.getByRole('heading', { name: /^Case Details/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe(caseUrl);
    expect(errors).toEqual([]);
  });

  it('walks the workflow to a settlement that waits for approval, and keeps notes and actions', async () => {
    await page.goto(`${webUrl}${caseUrl}/workflow`);
    await page.getByRole('heading', { name: 'Change Status' }).waitFor();
    expect(await page.getByRole('button', { name: 'Change Status' }).isDisabled()).toBe(true);
    // Only the moves SUBMITTED may make are offered.
    expect(await page.getByRole('radio').count()).toBe(2);

    await moveTo(page, 'PENDING', 'Assigned for first review');
    await page.getByText('This case will move to IN REVIEW in 24 hours.').waitFor();
    await moveTo(page, 'IN REVIEW', 'Invoice and bidding record pulled');
    await moveTo(page, 'MEDIATION', 'Both sides agreed to mediate');
    await moveTo(page, 'SETTLED', 'Buyer pays most of the price', '60,000');
    await page.getByText('Settlement sent for approval').first().waitFor();
    const banner = page.getByText('Settlement awaiting approval');
    await banner.waitFor();
    // The one who asked does not decide it.
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await page
      .getByText(
        'The settlement waiting for approval is decided first; then the case moves on from MEDIATION.',
      )
      .waitFor();
    await screenshot(page, 'legal-e2e-workflow');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('tab', { name: 'Timeline' }).click();
    const timeline = page.getByRole('list', { name: 'Timeline, newest first' });
    await timeline.getByText('Settlement sent for approval', { exact: true }).waitFor();
    await timeline.getByText('Both sides agreed to mediate').waitFor();

    await page.getByRole('tab', { name: 'Documents' }).click();
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('File is required').waitFor();
    await page.locator('input[type="file"]').setInputFiles({
      name: 'Invoice 14.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(PDF, 'latin1'),
    });
    // Choosing the file names the document after it.
    expect(await page.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Invoice 14');
    await choose(page, page.locator('form[aria-label="Upload a document"]'), 'Type', 'Evidence');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('Document uploaded').first().waitFor();
    await page
      .getByRole('list', { name: 'Documents, newest first' })
      .getByText('Invoice 14', { exact: true })
      .waitFor();
    // Downloaded through its short-lived link, it is the file uploaded.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download Invoice 14' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Invoice 14.pdf');
    expect(await readFile(await download.path(), 'latin1')).toBe(PDF);

    await page.getByRole('tab', { name: 'Notes' }).click();
    await page.getByRole('button', { name: 'Add Note' }).click();
    await page.getByText('Note is required').waitFor();
    await page.getByRole('textbox', { name: 'Note' }).fill(`Called the buyer ${tag}`);
    await page.getByRole('button', { name: 'Add Note' }).click();
    await page.getByText('Note added').first().waitFor();

    await page.getByRole('tab', { name: 'Actions' }).click();
    expect(new URL(page.url()).pathname).toBe(`${caseUrl}/actions`);
    await page.getByRole('textbox', { name: 'Action item' }).fill(`Send the settlement ${tag}`);
    await page.getByLabel('Due date').fill('2031-06-30');
    await page.getByRole('button', { name: 'Add Action Item' }).click();
    await page.getByText('Action item added').first().waitFor();

    await page.reload();
    const item = page.getByRole('checkbox', { name: `Send the settlement ${tag}` });
    await item.waitFor();
    await page.getByText('Due Jun 30, 2031', { exact: false }).waitFor();
    await item.check();
    await page.getByText(/Completed .* by /).waitFor();
    await page.getByRole('tab', { name: 'Notes' }).click();
    await page.getByText(`Called the buyer ${tag}`).waitFor();
    await page.reload();
    await page.getByText(`Called the buyer ${tag}`).waitFor();
    await page.getByRole('tab', { name: 'Documents' }).click();
    await page.getByText('Invoice 14.pdf', { exact: false }).waitFor();
    expect(errors).toEqual([]);
  });

  it('lets an administrator approve the settlement, and its payment closes the case', async () => {
    const admin = await openPage(browser);
    await signedIn(admin.page, 'admin@harborview.demo');
    // The approval is asked for in the bell, and decided there.
    await admin.page.getByRole('button', { name: /^Notifications/ }).click();
    const bell = admin.page.getByRole('dialog', { name: /Workflow Notifications/ });
    const ask = bell.getByRole('listitem').filter({ hasText: 'Buyer pays most of the price' });
    await ask.getByRole('button', { name: 'Approve' }).click();
    await ask
      .getByRole('textbox', { name: 'Reason for approving' })
      .fill('Within the mediation mandate');
    await ask.getByRole('button', { name: 'Confirm Approval' }).click();
    await admin.page.getByText('Settlement approved').first().waitFor();
    await bell.getByRole('button', { name: 'Close' }).click();
    await admin.page.goto(`${webUrl}${caseUrl}/workflow`);
    await admin.page
      .getByText('This case will close when payment of the $60,000 settlement is confirmed.')
      .waitFor();
    expect(await admin.page.getByText('Settlement awaiting approval').count()).toBe(0);

    expect(admin.errors).toEqual([]);
    await admin.page.context().close();

    // The owner sees it too, from the server, and records the payment that closes it.
    await page.goto(`${webUrl}${caseUrl}/workflow`);
    await page.getByText('SETTLED', { exact: true }).first().waitFor();
    expect(await page.getByText('Settlement awaiting approval').count()).toBe(0);
    await page.getByRole('button', { name: 'Record Payment' }).click();
    const payment = page.getByRole('dialog', { name: 'Record settlement payment' });
    expect(await payment.getByRole('textbox', { name: 'Amount received' }).inputValue()).toBe(
      '60000',
    );
    await payment.getByRole('textbox', { name: 'Reference' }).fill('WIRE-0042');
    await payment.getByRole('button', { name: 'Record Payment' }).click();
    await page.getByText('Payment recorded').first().waitFor();
    await page.getByText('A CLOSED case does not move again.').waitFor();
    await page.reload();
    await page.getByText(/\$60,000 received on .* \(WIRE-0042\)/).waitFor();
    expect(errors).toEqual([]);
  });
});
