import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInThroughForm } from '../support/app.js';
import { domain, freshOwner, idOfBidderId, list, type Owner } from '../support/bidders.js';
import {
  accessibilityViolations,
  launchBrowser,
  openPage,
  screenshot,
  viewports,
} from '../support/browser.js';
import { GOOD_PASSWORD, ifMatch } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

/**
 * The Data Processing Center's Uploads & Processing tab in Chromium against the real stack: the
 * New Upload form's checks, a bidders CSV sent straight to Blob Storage with progress, its column
 * mapping adjusted, processed by the worker, downloaded back, its errors shown, re-run with the
 * overwrite preview, undone, cancelled on the way, and deleted. One fresh account, so its
 * history holds only what this file uploads.
 */

usePlatformEnvironment();
const uploads = await import('../../functions/src/uploads/uploads.repo.js');
const { newRun, withRun } = await import('../../functions/src/uploads/run-record.js');
const { processUpload } = await import('../../functions/src/uploads/upload-worker.js');
const { systemContext } = await import('../../functions/src/platform/context.js');

const webUrl = inject('webUrl');
const tag = randomUUID().slice(0, 6);
const uploadName = `Spring bidders ${tag}`;
const fileName = `spring-bidders-${tag}.csv`;
/**
 * Two good bidders and one whose email is not one: a row error, not the upload's. The last name
 * is under a heading nothing recognises, so its mapping has to be chosen.
 */
const csv =
  'bidderId,firstName,Family,email,phone,city,state,country\n' +
  `B-${tag}1,Ada,Marsh,ada.marsh.${tag}@example.com,+1 617 555 0101,Boston,MA,USA\n` +
  `B-${tag}2,Ben,Okafor,ben.okafor.${tag}@example.com,+1 617 555 0102,Salem,MA,USA\n` +
  `B-${tag}3,Cy,Rowe,not-an-email,+1 617 555 0103,Lynn,MA,USA\n`;
let browser: Browser;
let owner: Owner;
let page: Page;
let errors: string[];

beforeAll(async () => {
  browser = await launchBrowser();
  owner = await freshOwner();
  ({ page, errors } = await openPage(browser));
  await signInThroughForm(page, owner.email, GOOD_PASSWORD);
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
});

afterAll(async () => {
  await browser?.close();
});

const toast = (text: string) => page.locator('.fui-Toast').getByText(text, { exact: true });
const history = () => page.getByRole('list', { name: 'Uploads' });
const card = (name: string) => history().getByRole('listitem').filter({ hasText: name });
const uploadButton = () => page.getByRole('button', { name: 'Upload Data' });
const undoButton = () =>
  card(uploadName).getByRole('button', { name: `Undo import of ${uploadName}` });
const fileInput = () => page.locator('input[type="file"]');
/** Console errors other than refusals provoked on purpose. */
const unexpected = () =>
  errors.filter((error) => !/status of 4\d\d |net::ERR_FAILED|Failed to load resource/.test(error));

async function chooseCategory(label: string) {
  await page.getByRole('combobox', { name: 'Category' }).first().click();
  await page.getByRole('option', { name: label, exact: true }).click();
}

/** Files dropped on the drop zone, made in the page (a 101 MB file costs nothing there). */
async function drop(files: { name: string; size: number }[]) {
  await page.getByTestId('drop-zone').evaluate((zone, list) => {
    const transfer = new DataTransfer();
    for (const file of list) transfer.items.add(new File([new Uint8Array(file.size)], file.name));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true }));
  }, files);
}

async function fillForm(name: string, description: string) {
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await chooseCategory('Bidder Data');
  await page.getByRole('textbox', { name: 'Description', exact: true }).fill(description);
  await fileInput().setInputFiles({
    name: fileName,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
}

/** Holds the first request matching the pattern until released. */
async function hold(pattern: string | ((url: URL) => boolean)) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const arrived = new Promise<void>((resolve) => (reached = resolve));
  let passed!: () => void;
  const continued = new Promise<void>((resolve) => (passed = resolve));
  await page.route(
    pattern,
    async (route) => {
      reached();
      await released;
      await route.continue();
      passed();
    },
    { times: 1 },
  );
  return {
    arrived,
    release: async () => {
      release();
      await continued;
    },
  };
}

const valueText = (bar: Locator) => bar.getAttribute('aria-valuetext');

describe('Data Processing: Uploads & Processing', () => {
  it('opens from the navigation with an empty history', async () => {
    await page.getByRole('link', { name: 'Data Processing' }).first().click();
    await expect.poll(() => page.url()).toBe(`${webUrl}/data-upload`);
    await page.getByRole('heading', { name: 'Data Processing Center', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'Uploads & Processing', selected: true }).waitFor();
    await page.getByText('No uploads yet.', { exact: false }).waitFor();
    expect(await page.getByRole('tab').count()).toBe(2);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it("checks the form with the spec's messages", async () => {
    await expect.poll(() => uploadButton().isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(uploadName);
    await chooseCategory('Bidder Data');
    await expect.poll(() => uploadButton().isDisabled()).toBe(true);
    await drop([{ name: 'small.csv', size: 20 }]);
    await page.getByRole('list', { name: 'Selected files' }).getByText('small.csv').waitFor();
    // Everything but the description: the button is on, the click says what is missing.
    await uploadButton().click();
    await page.getByText('Please fill in all fields and select files', { exact: true }).waitFor();

    await drop([{ name: 'huge.csv', size: 101 * 1024 * 1024 }]);
    await page.getByText('Total file size cannot exceed 100MB', { exact: true }).waitFor();
    await page.getByText('2 files, 101.0 MB of 100MB').waitFor();
    await page.getByRole('button', { name: 'Remove huge.csv' }).click();
    await page.getByRole('button', { name: 'Remove small.csv' }).click();
    await expect.poll(() => page.getByText('Total file size cannot exceed 100MB').count()).toBe(0);
    await expect.poll(() => uploadButton().isDisabled()).toBe(true);
  });

  it('says so when the files cannot be stored, and keeps no entry', async () => {
    const toStorage = (url: URL) => url.searchParams.get('comp') === 'block';
    await page.route(toStorage, (route) => route.abort());
    await fillForm(`Broken ${tag}`, 'Refused by storage');
    await uploadButton().click();
    await toast('Failed to upload data. Please try again.').waitFor();
    await page.unroute(toStorage);
    await page.getByText('No uploads yet.', { exact: false }).waitFor();
    // The form keeps what was entered, to try again.
    expect(await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe(
      `Broken ${tag}`,
    );
    await page.getByRole('button', { name: `Remove ${fileName}` }).click();
  });

  it('uploads a bidders CSV with progress, maps its columns, and the worker imports it', async () => {
    await fillForm(uploadName, 'Registrations from the spring catalogue');
    await screenshot(page, 'data-upload-form-light');
    // Held at the block list: every byte is in Blob Storage, the entry is at the top as uploading.
    const commit = await hold((url) => url.searchParams.get('comp') === 'blocklist');
    await uploadButton().click();
    await commit.arrived;
    const fileBar = page.getByRole('progressbar', { name: `${fileName} upload progress` });
    await expect.poll(() => valueText(fileBar)).toBe('100%');
    await page.getByRole('progressbar', { name: 'Overall upload progress' }).waitFor();
    await card(uploadName).getByText('Uploading', { exact: true }).waitFor();
    await screenshot(page, 'data-upload-sending-light');
    await commit.release();

    // The files are in: the mapping, as detected, with the last name not found.
    const mapping = page.getByRole('region', { name: `Map columns: ${uploadName}` });
    await mapping.getByText('Required field not mapped:', { exact: false }).waitFor();
    expect(await mapping.getByText('Last Name', { exact: true }).count()).toBe(1);
    expect(
      await mapping.getByRole('combobox', { name: 'Map column firstName' }).textContent(),
    ).toContain('First Name');
    const start = mapping.getByRole('button', { name: 'Start processing' });
    expect(await start.isDisabled()).toBe(true);
    // The form is empty again for the next upload.
    expect(await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('');
    await mapping.getByRole('combobox', { name: 'Map column Family' }).click();
    await page.getByRole('option', { name: 'Last Name (required)' }).click();
    await expect.poll(() => start.isDisabled()).toBe(false);
    await mapping.getByRole('button', { name: /Preview the first 3 rows/ }).click();
    await mapping
      .getByRole('region', { name: `First rows of ${fileName}` })
      .getByRole('cell', { name: 'Okafor', exact: true })
      .waitFor();
    await screenshot(page, 'data-upload-mapping-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await start.click();

    await toast('Processing started').waitFor();
    await expect.poll(() => mapping.count()).toBe(0);
    await card(uploadName).getByText('Completed', { exact: true }).waitFor({ timeout: 45_000 });
    const results = card(uploadName).getByRole('definition');
    await expect.poll(() => results.allTextContents()).toEqual(['3', '2', '1']);
    await card(uploadName).getByText('Bidder Data', { exact: false }).waitFor();
    await card(uploadName).getByText(fileName, { exact: false }).first().waitFor();
    // The chosen column filled the last name.
    const found = await list(owner.token, { search: `ben.okafor.${tag}` });
    expect(found.body.bidders.map((bidder) => bidder.lastName)).toEqual(['Okafor']);
  });

  it('shows the first errors and downloads the original and the error report', async () => {
    await card(uploadName).getByRole('button', { name: 'Show 1 error' }).click();
    const table = page.getByRole('table', { name: `Errors in ${uploadName}` });
    await table.getByRole('cell', { name: '3', exact: true }).waitFor();
    await table.getByRole('cell', { name: 'email', exact: true }).waitFor();

    const [original] = await Promise.all([
      page.waitForEvent('download'),
      card(uploadName)
        .getByRole('button', { name: `Download ${fileName}` })
        .click(),
    ]);
    expect(original.suggestedFilename()).toBe(fileName);
    expect(readFileSync(await original.path()).toString('utf8')).toBe(csv);

    const [report] = await Promise.all([
      page.waitForEvent('download'),
      card(uploadName)
        .getByRole('button', { name: `Download error report of ${uploadName}` })
        .click(),
    ]);
    expect(readFileSync(await report.path()).toString('utf8')).toMatch(/not-an-email|email/);

    // A download the service refuses says so in the spec's words, with the service's reason.
    await page.route('**/data-upload/download/**', (route) =>
      route.fulfill({
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'not_found', message: 'File not found' } }),
      }),
    );
    await card(uploadName)
      .getByRole('button', { name: `Download ${fileName}` })
      .click();
    const alert = page.getByText(/^Download failed: 404( Not Found)?$/);
    await alert.waitFor();
    await page.getByText('File not found', { exact: true }).waitFor();
    await page.unroute('**/data-upload/download/**');
  });

  it('keeps the history after a reload, and filters it', async () => {
    await page.reload();
    await card(uploadName).getByText('Completed', { exact: true }).waitFor();
    await page.getByRole('searchbox', { name: 'Search uploads' }).fill('no such upload');
    await page.getByText('No uploads match these filters.').waitFor();
    await page.getByRole('searchbox', { name: 'Search uploads' }).fill(tag);
    await card(uploadName).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Error', exact: true }).click();
    await page.getByText('No uploads match these filters.').waitFor();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Completed', exact: true }).click();
    await card(uploadName).waitFor();
    expect(page.url()).toContain('status=completed');
    await page.goto(`${webUrl}/data-upload`);
    await card(uploadName).waitFor();
  });

  it('looks right in light, dark and on a phone', async () => {
    const looks = [
      ['light', 'light', viewports.desktop],
      ['dark', 'dark', viewports.desktop],
      ['phone', 'light', viewports.mobile],
      ['phone-dark', 'dark', viewports.mobile],
    ] as const;
    for (const [look, colorScheme, viewport] of looks) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      await page.goto(`${webUrl}/data-upload`);
      await card(uploadName).getByText('Completed', { exact: true }).waitFor();
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Autumn consignments');
      await chooseCategory('Inventory');
      await page
        .getByRole('textbox', { name: 'Description', exact: true })
        .fill('Lots from three estates');
      await drop([
        { name: 'consignments.xlsx', size: 48_213 },
        { name: 'photos.zip', size: 3_400_000 },
      ]);
      await card(uploadName)
        .getByRole('button', { name: /Show 1 error/ })
        .click();
      await screenshot(page, `data-upload-${look}`);
      expect(await accessibilityViolations(page), look).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(viewports.desktop);
  });

  it('re-runs with Update all after showing what it would overwrite', async () => {
    // Ada is edited after the import: the update would put the file's first name back.
    const adaId = await idOfBidderId(owner.token, `B-${tag}1`);
    const ada = await domain('GET', `/bidders/${adaId}`, { token: owner.token });
    const edited = await domain('PUT', `/bidders/${adaId}`, {
      token: owner.token,
      headers: ifMatch(ada.headers.get('etag')?.replaceAll('"', '')),
      body: { firstName: 'Adelaide' },
    });
    expect(edited.status).toBe(200);
    await page.goto(`${webUrl}/data-upload`);
    await card(uploadName)
      .getByRole('button', { name: `Re-run ${uploadName}` })
      .click();
    await page.getByRole('menuitem', { name: 'Update all...' }).click();
    const dialog = page.getByRole('dialog', { name: `Update all from “${uploadName}”?` });
    await dialog.getByText('1 record on file would be overwritten').waitFor();
    const changes = dialog.getByRole('table', { name: 'Changes to Adelaide Marsh' });
    await changes.getByRole('cell', { name: 'Adelaide' }).waitFor();
    await changes.getByRole('cell', { name: 'Ada', exact: true }).waitFor();
    await screenshot(page, 'data-upload-overwrites-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Update all' }).click();
    await toast('Re-run started').waitFor();
    await card(uploadName).getByText('Completed', { exact: true }).waitFor({ timeout: 45_000 });
    await card(uploadName).getByRole('button', { name: 'Runs (2)' }).click();
    const runs = card(uploadName).getByRole('list', { name: `Runs of ${uploadName}` });
    await runs.getByText('2. Re-run: update all').waitFor();
    await runs.getByText('1. Import').waitFor();
    const back = await domain<{ firstName: string }>('GET', `/bidders/${adaId}`, {
      token: owner.token,
    });
    expect(back.body.firstName).toBe('Ada');
  });

  it('undoes the import after saying what happens, and shows what the undo did', async () => {
    await undoButton().click();
    const dialog = page.getByRole('alertdialog', { name: 'Undo this import?' });
    await dialog.getByText('Records it created are removed.').waitFor();
    await dialog
      .getByText('Records someone edited since the import are kept as they are.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Undo import' }).click();
    await toast('Undo started').waitFor();
    const undone = card(uploadName).getByText('Import undone');
    await undone.waitFor({ timeout: 45_000 });
    await card(uploadName)
      .getByText(/\d+ records? removed/)
      .first()
      .waitFor();
    await card(uploadName).getByText('Undone', { exact: true }).waitFor();
    // The worker's own note of the figures is not shown a second time under the bar.
    expect(
      await card(uploadName)
        .getByText(/^Undone: /)
        .count(),
    ).toBe(0);
    expect(await undoButton().count()).toBe(0);
    await screenshot(page, 'data-upload-undone-light');
    // Ben came from the import alone and is gone (Ada was edited since, so she may stay).
    const left = await list(owner.token, { search: `ben.okafor.${tag}` });
    expect(left.body.bidders).toEqual([]);
  });

  it('asks before cancelling a processing upload, and the run stops at its checkpoint', async () => {
    // The worker is too quick to catch processing: the upload is put in the state a re-run
    // leaves it in, with no message queued, and the worker is run here once it is cancelled.
    const scope = { accountId: owner.accountId };
    const [listed] = (
      await domain<{ items: { id: string }[] }>(
        'GET',
        `/data-upload/history?search=${encodeURIComponent(uploadName)}`,
        { token: owner.token },
      )
    ).body.items;
    const id = listed?.id as string;
    const before = await uploads.findUpload(scope, id);
    if (!before) throw new Error('the upload is not on file');
    await uploads.replaceUpload(
      scope,
      {
        ...withRun(before, newRun(before, 'import', 'new', null)),
        status: 'processing',
        progress: 0,
        checkpoint: null,
        undone: false,
      },
      before._etag,
    );
    await page.reload();
    const cancel = card(uploadName).getByRole('button', {
      name: `Cancel processing of ${uploadName}`,
    });
    await cancel.click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel processing?' });
    await dialog.getByText('Undo import removes them', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel processing' }).click();
    await toast('Cancelling').waitFor();
    await expect
      .poll(async () => (await uploads.findUpload(scope, id))?.cancelRequested)
      .toBe(true);

    await processUpload(systemContext(owner.accountId), id);
    await card(uploadName).getByText('Cancelled before it imported any records.').waitFor();
    expect(await cancel.count()).toBe(0);
    // The earlier imports were undone and this run imported nothing: there is nothing to undo.
    expect(await undoButton().count()).toBe(0);
    await screenshot(page, 'data-upload-cancelled-light');
    expect((await uploads.findUpload(scope, id))?.runs.at(-1)).toMatchObject({
      kind: 'import',
      cancelled: true,
    });
  });

  it('cancels an upload while its files are on the way, after asking before leaving', async () => {
    await page.goto(`${webUrl}/data-upload`);
    await card(uploadName).waitFor();
    let reached!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // The first block does not arrive until the upload is cancelled.
    await page.route(
      (url) => url.searchParams.get('comp') === 'block',
      async (route) => {
        reached();
        await released;
        await route.abort().catch(() => undefined);
      },
      { times: 1 },
    );
    await fillForm(`Abandoned ${tag}`, 'Cancelled on the way');
    await uploadButton().click();
    await arrived;
    await card(`Abandoned ${tag}`).getByText('Uploading', { exact: true }).waitFor();
    // Leaving inside the app asks first; staying keeps the upload going.
    await page.getByRole('link', { name: 'Bidders' }).first().click();
    const leave = page.getByRole('alertdialog', { name: 'Leave while uploading?' });
    await leave.getByRole('button', { name: 'Stay' }).click();
    expect(page.url()).toBe(`${webUrl}/data-upload`);
    const cancelled = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url().endsWith('/cancel'),
    );
    await page.getByRole('button', { name: 'Cancel upload', exact: true }).click();
    await cancelled;
    release();
    await toast('Upload cancelled').waitFor();
    await expect.poll(() => card(`Abandoned ${tag}`).count()).toBe(0);
    // The form keeps what was entered, to try again.
    await page.getByRole('button', { name: `Remove ${fileName}` }).click();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  it('deletes an upload after a confirmation that imported records stay', async () => {
    await page.goto(`${webUrl}/data-upload`);
    await card(uploadName)
      .getByRole('button', { name: `Delete ${uploadName}` })
      .click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete upload?' });
    await dialog.getByText('Records already imported from it stay', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast('Upload deleted').waitFor();
    await page.getByText('No uploads yet.', { exact: false }).waitFor();
    await page.reload();
    await page.getByText('No uploads yet.', { exact: false }).waitFor();
    expect(unexpected()).toEqual([]);
  });

  it('offers each file of a several-file upload from a Download menu', async () => {
    const notes = 'Estate notes, first visit';
    const list = 'lot,title\n1,Walnut bureau\n';
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Estate papers ${tag}`);
    await chooseCategory('Other');
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Two files');
    await fileInput().setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(notes) },
      { name: 'lots.csv', mimeType: 'text/csv', buffer: Buffer.from(list) },
    ]);
    await uploadButton().click();
    const entry = card(`Estate papers ${tag}`);
    await entry.getByText('Completed', { exact: true }).waitFor({ timeout: 45_000 });
    await entry.getByText('2 files: notes.txt, lots.csv', { exact: false }).waitFor();
    await entry.getByRole('button', { name: `Download files of Estate papers ${tag}` }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: 'lots.csv' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('lots.csv');
    expect(readFileSync(await download.path()).toString('utf8')).toBe(list);
    expect(unexpected()).toEqual([]);
  });
});
