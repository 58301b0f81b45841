import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInThroughForm } from '../support/app.js';
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
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh browser signed in to Harborview Auctions, on the Houses tab. */
async function onHousesTab(email: string) {
  const opened = await openPage(browser);
  await signInThroughForm(opened.page, email);
  await opened.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  await opened.page.goto(`${webUrl}/settings`);
  await opened.page.getByRole('article', { name: 'Harborview Fine Art' }).waitFor();
  return opened;
}

/**
 * Console errors other than the refusals these tests provoke on purpose: the browser logs every
 * failed call, here the 400 of a short phone number and the 409 of a house still in use.
 */
const unexpected = (errors: string[]) =>
  errors.filter((error) => !/status of (400|409) /.test(error));

/** What the window shows now (a dialog over the page), once still. */
async function windowShot(page: Page, name: string) {
  await animationsSettled(page);
  await page.screenshot({ path: join(artifactsDir, `${name}.png`) });
}

const SPEC_DELETE_HOUSE =
  'This action cannot be undone. This will permanently delete the auction house and all associated data.';
const SPEC_DELETE_GROUP =
  'This will delete the group but not the auction houses within it. Auction houses will remain in your account.';

describe('the Houses tab of Account Settings', () => {
  let page: Page;
  let errors: string[];
  const tag = randomUUID().slice(0, 6);
  const houseName = `Harborview Salem ${tag}`;
  const groupName = `North Shore ${tag}`;
  const card = () => page.getByRole('article', { name: houseName });
  const toast = (title: string) => page.getByText(title, { exact: true }).first().waitFor();

  beforeAll(async () => {
    ({ page, errors } = await onHousesTab('owner@harborview.demo'));
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('opens Account Settings on Houses, the first tab', async () => {
    expect(page.url()).toBe(`${webUrl}/settings/auction-houses`);
    const tabs = page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab');
    await tabs
      .first()
      .and(page.getByRole('tab', { name: 'Houses', selected: true }))
      .waitFor();
    const fineArt = page.getByRole('article', { name: 'Harborview Fine Art' });
    await fineArt.getByText('Harborview Fine Art LLC').waitFor();
    await fineArt.getByText('Active').waitFor();
    await fineArt.getByText('210 Atlantic Avenue, Boston, MA 02110').waitFor();
    await fineArt.getByText('New York time').waitFor();
    await fineArt.getByRole('link', { name: 'harborview.demo/fine-art' }).waitFor();
    await page.getByRole('listitem', { name: 'New England Houses' }).waitFor();
    await screenshot(page, 'settings-houses-light');
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('creates a house once name, business name and city are in, and edits it', async () => {
    await page.getByRole('button', { name: 'Create Auction House' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Auction House' });
    const create = dialog.getByRole('button', { name: 'Create Auction House' });
    expect(await create.isDisabled()).toBe(true);
    expect(await dialog.getByRole('textbox', { name: 'Country' }).inputValue()).toBe('USA');
    await dialog
      .getByRole('combobox', { name: 'Time zone' })
      .getByText('Eastern (America/New_York)')
      .waitFor();
    await dialog.getByRole('combobox', { name: 'Currency' }).getByText('USD').waitFor();
    await dialog.getByRole('textbox', { name: 'Auction house name' }).fill(houseName);
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Business name' }).fill(`${houseName} LLC`);
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'City' }).fill('Salem');
    expect(await create.isDisabled()).toBe(false);
    await dialog.getByRole('textbox', { name: 'State' }).fill('MA');
    await dialog.getByRole('textbox', { name: 'ZIP code' }).fill('01970');
    await dialog.getByRole('textbox', { name: 'Email' }).fill('salem@harborview.demo');
    // The service's own refusal lands beside its field.
    await dialog.getByRole('textbox', { name: 'Phone' }).fill('12');
    await create.click();
    await toast('Failed to create auction house');
    await dialog.getByText(/Enter a phone number with at least 10 digits/).waitFor();
    await dialog.getByRole('textbox', { name: 'Phone' }).fill('+1 978 555 0100');
    await dialog.getByText(/Enter a phone number/).waitFor({ state: 'detached' });
    await dialog.getByRole('combobox', { name: 'Currency' }).click();
    await page.getByRole('option', { name: 'CAD' }).click();
    await windowShot(page, 'settings-houses-create-dialog');
    await create.click();
    await toast('Auction house created successfully');
    await card().getByText('Salem, MA 01970').waitFor();
    await card().getByText('+1 978 555 0100').waitFor();

    await card().getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Auction House' });
    expect(await edit.getByRole('textbox', { name: 'City' }).inputValue()).toBe('Salem');
    await edit.getByRole('textbox', { name: 'City' }).fill('Beverly');
    await edit.getByRole('textbox', { name: 'Website' }).fill('beverly.example.com');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast('Auction house updated successfully');
    await card().getByText('Beverly, MA 01970').waitFor();

    await page.reload();
    await card().getByText('Beverly, MA 01970').waitFor();
    await card().getByRole('link', { name: 'beverly.example.com' }).waitFor();
    // The shell's own list of houses follows too.
    await page.getByText('3 houses').first().waitFor();
  });

  it('groups the new house, edits the group and deletes it, then the house', async () => {
    await page.getByRole('button', { name: 'New Group' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Group' });
    const create = dialog.getByRole('button', { name: 'Create Group' });
    await dialog.getByRole('textbox', { name: 'Group name' }).fill(groupName);
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: houseName }).check();
    expect(await create.isDisabled()).toBe(false);
    await create.click();
    await toast('Group created successfully');
    const group = page.getByRole('listitem', { name: groupName });
    await group.getByText('1 house').waitFor();
    await group.getByText(houseName).waitFor();

    await page.getByRole('button', { name: `Edit group ${groupName}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Group' });
    expect(await edit.getByRole('checkbox', { name: houseName }).isChecked()).toBe(true);
    await edit.getByRole('textbox', { name: 'Description' }).fill('Cape Ann and around');
    await edit.getByRole('checkbox', { name: 'Harborview Estates' }).check();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await toast('Group updated successfully');
    await group.getByText('Cape Ann and around').waitFor();
    await group.getByText('2 houses').waitFor();

    await page.getByRole('button', { name: `Delete group ${groupName}` }).click();
    const confirmGroup = page.getByRole('alertdialog', { name: `Delete "${groupName}"?` });
    await confirmGroup.getByText(SPEC_DELETE_GROUP, { exact: true }).waitFor();
    await confirmGroup.getByRole('button', { name: 'Delete Group' }).click();
    await toast('Group deleted successfully');
    await group.waitFor({ state: 'detached' });
    await card().waitFor();

    await card().getByRole('button', { name: 'Delete' }).click();
    const confirmHouse = page.getByRole('alertdialog', { name: `Delete "${houseName}"?` });
    await confirmHouse.getByText(SPEC_DELETE_HOUSE, { exact: true }).waitFor();
    await confirmHouse.getByRole('button', { name: 'Delete Auction House' }).click();
    await toast('Auction house deleted successfully');
    await card().waitFor({ state: 'detached' });
    await page.getByText('2 houses').first().waitFor();
  });

  it('refuses to delete a house auctions and bidders belong to, saying why', async () => {
    const fineArt = page.getByRole('article', { name: 'Harborview Fine Art' });
    await fineArt.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete "Harborview Fine Art"?' });
    await confirm.getByRole('button', { name: 'Delete Auction House' }).click();
    await toast('Failed to delete auction house');
    await confirm
      .getByText(
        /^\d+ auctions?, \d+ bidders? and \d+ team members? still belong to this auction house\. Move or remove them first\.$/,
      )
      .waitFor();
    await windowShot(page, 'settings-houses-delete-refused');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await fineArt.waitFor();
    expect(unexpected(errors)).toEqual([]);
  });

  it('looks right in the dark and on a phone', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('article', { name: 'Harborview Fine Art' }).waitFor();
    await screenshot(page, 'settings-houses-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(viewports.mobile);
    await page.getByRole('article', { name: 'Harborview Fine Art' }).waitFor();
    await screenshot(page, 'settings-houses-phone');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth),
    ).toBe(false);
    // One card per row: the second sits below the first.
    const [first, second] = await Promise.all(
      ['Harborview Fine Art', 'Harborview Estates'].map((name) =>
        page.getByRole('article', { name }).boundingBox(),
      ),
    );
    expect(second && first && second.y > first.y + first.height - 1).toBe(true);
    await page.getByRole('button', { name: 'Create Auction House' }).click();
    await windowShot(page, 'settings-houses-phone-dialog');
    await page
      .getByRole('dialog', { name: 'Create Auction House' })
      .getByRole('button', { name: 'Cancel' })
      .click();
    expect(unexpected(errors)).toEqual([]);
  });
});

describe('the Houses tab for a viewer', () => {
  it('shows the houses and groups read-only', async () => {
    const { page, errors } = await onHousesTab('viewer@harborview.demo');
    await page.getByRole('listitem', { name: 'New England Houses' }).waitFor();
    await page.getByText('You can see the auction houses.', { exact: false }).waitFor();
    for (const name of [
      'Create Auction House',
      'New Group',
      'Edit',
      'Delete',
      'Edit group New England Houses',
      'Delete group New England Houses',
    ]) {
      expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    }
    await screenshot(page, 'settings-houses-viewer');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
