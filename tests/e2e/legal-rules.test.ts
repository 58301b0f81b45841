import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
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

/** A fresh browser signed in to Harborview Auctions. */
async function signedIn(email: string, options: BrowserContextOptions = {}) {
  const opened = await openPage(browser, options);
  await signInThroughForm(opened.page, email);
  await opened.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  return opened;
}

/** A dropdown's option, chosen by its visible name. */
async function choose(page: Page, scope: Locator, name: string, option: string) {
  await scope.getByRole('combobox', { name }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * Console errors other than the refusals these tests provoke on purpose: the browser logs every
 * failed call, here the 400 of an impossible rule and the 412 of a stale edit.
 */
const unexpected = (errors: string[]) =>
  errors.filter((error) => !/status of (400|412) /.test(error));

/**
 * What the window shows now, without growing it to the page: a dialog scrolled to a problem
 * stays scrolled there.
 */
async function windowShot(page: Page, name: string) {
  await animationsSettled(page);
  await page.screenshot({ path: join(artifactsDir, `${name}.png`) });
}

/** The Workflow Rules screen, loaded afresh, once its rules are in. */
async function openRules(page: Page) {
  await page.goto(`${webUrl}/legal/rules`);
  await page.getByRole('list', { name: 'Built-in rules' }).waitFor();
}

/** The Legal department head card of the Workflow Rules screen. */
const headCard = (page: Page) => page.getByRole('region', { name: 'Legal department head' });

/** Who the card says gets Critical case updates today, by name. */
async function headsToday(page: Page) {
  const list = headCard(page).getByRole('list', { name: 'Legal department head today' });
  await list.waitFor();
  // Each shows its initials before the name.
  const shown = await list.getByRole('listitem').allInnerTexts();
  return shown.map((text) => text.trim().split('\n').pop());
}

/** A picture of the card alone, once still. */
async function cardShot(page: Page, name: string) {
  await animationsSettled(page);
  await headCard(page).screenshot({ path: join(artifactsDir, `${name}.png`) });
}

describe('workflow rules in the browser', () => {
  let page: Page;
  let errors: string[];
  const tag = randomUUID().slice(0, 6);
  const ruleName = `Escalate critical ${tag}`;
  const table = () => page.getByRole('table', { name: 'Custom rules' });
  const row = () => table().getByRole('row').filter({ hasText: ruleName });

  beforeAll(async () => {
    ({ page, errors } = await signedIn('owner@harborview.demo'));
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('creates a custom rule through the dialog, with the service’s refusals beside the fields', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Legal' })
      .click();
    await page.getByRole('heading', { name: 'Legal Case Management' }).waitFor();
    await page.getByRole('button', { name: 'Workflow Rules' }).click();
    await page.getByRole('heading', { name: 'Workflow Rules', level: 1 }).waitFor();
    expect(page.url()).toBe(`${webUrl}/legal/rules`);
    await page.getByRole('list', { name: 'Built-in rules' }).waitFor();
    expect(await page.getByRole('switch', { name: '24-hour review' }).isChecked()).toBe(true);
    if (await page.getByText('No custom rules yet').isVisible()) {
      await screenshot(page, 'legal-rules-empty-light');
      expect(await accessibilityViolations(page)).toEqual([]);
    }

    await page.getByRole('button', { name: 'New Rule' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New Rule' });
    await dialog.getByRole('button', { name: 'Create Rule' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByText('Please correct the highlighted field').waitFor();

    await dialog.getByRole('textbox', { name: 'Name' }).fill(ruleName);
    await dialog
      .getByRole('textbox', { name: 'Description' })
      .fill('Tells the legal head whenever a critical case moves.');
    await choose(page, dialog, 'Trigger', 'Status changes');
    await dialog.getByRole('button', { name: 'Add condition' }).click();
    const condition = dialog.getByRole('group', { name: 'Condition 1' });
    await choose(page, condition, 'Field', 'Priority');
    await choose(page, condition, 'Operator', 'is');
    await choose(page, condition, 'Value', 'Critical');
    const notify = dialog.getByRole('group', { name: 'Action 1' });
    expect(await notify.getByRole('combobox', { name: 'Action' }).textContent()).toContain(
      'Notify',
    );
    await choose(page, notify, 'Holders of', 'Escalate legal cases');

    // A move its own condition rules out: the service refuses it, beside the field it names.
    await dialog.getByRole('button', { name: 'Add condition' }).click();
    const closed = dialog.getByRole('group', { name: 'Condition 2' });
    await choose(page, closed, 'Field', 'Status');
    await choose(page, closed, 'Value', 'CLOSED');
    await dialog.getByRole('button', { name: 'Add action' }).click();
    const move = dialog.getByRole('group', { name: 'Action 2' });
    await choose(page, move, 'Action', 'Change status');
    await choose(page, move, 'New status', 'IN REVIEW');
    await dialog.getByRole('button', { name: 'Create Rule' }).click();
    await move.getByText('Status is not a move a CLOSED case can make: it is final').waitFor();
    await dialog.getByText('Please correct the highlighted field').waitFor();
    await move.scrollIntoViewIfNeeded();
    await windowShot(page, 'legal-rules-dialog-errors-light');

    await move.getByRole('button', { name: 'Remove action 2' }).click();
    await closed.getByRole('button', { name: 'Remove condition 2' }).click();
    expect(await dialog.getByText(/is not a move/).count()).toBe(0);
    await screenshot(page, 'legal-rules-dialog-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Create Rule' }).click();
    await page.getByText('Rule created').first().waitFor();
    await dialog.waitFor({ state: 'detached' });

    await row().waitFor();
    await row().getByText('Status changes').waitFor();
    await row().getByText('Priority is Critical').waitFor();
    await row().getByText('Notify the assignee and those who may escalate legal cases').waitFor();
    expect(await row().getByRole('switch', { name: ruleName }).isChecked()).toBe(true);

    await page.reload();
    await row().waitFor();
    await row().getByText('Priority is Critical').waitFor();
    expect(unexpected(errors)).toEqual([]);
  });

  it('looks right in light, dark and on a phone', async () => {
    await openRules(page);
    await row().waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'legal-rules-light');
    expect(await accessibilityViolations(page)).toEqual([]);

    for (const [look, options] of [
      ['dark', { colorScheme: 'dark' }],
      ['phone', { viewport: viewports.mobile }],
    ] as const) {
      const other = await signedIn('owner@harborview.demo', options);
      await openRules(other.page);
      await other.page.getByText(ruleName).first().waitFor();
      await other.page.waitForLoadState('networkidle');
      await screenshot(other.page, `legal-rules-${look}`);
      expect(await accessibilityViolations(other.page), look).toEqual([]);
      await other.page.getByRole('button', { name: 'New Rule' }).click();
      const dialog = other.page.getByRole('dialog', { name: 'New Rule' });
      await dialog.getByRole('button', { name: 'Add condition' }).click();
      await dialog.getByRole('button', { name: 'Create Rule' }).click();
      await dialog.getByText('Name is required').waitFor();
      await dialog.getByText('Value is required').waitFor();
      await screenshot(other.page, `legal-rules-dialog-${look}`);
      expect(await accessibilityViolations(other.page), `${look} dialog`).toEqual([]);
      expect(other.errors).toEqual([]);
      await other.page.context().close();
    }
  });

  it('switches the rule off, refuses an edit made against an older version, and deletes it', async () => {
    await openRules(page);
    const enabled = row().getByRole('switch', { name: ruleName });
    await enabled.click();
    await page.getByText('Rule switched off').first().waitFor();
    await page.reload();
    await row().waitFor();
    expect(await enabled.isChecked()).toBe(false);

    // Opened here, then changed elsewhere: saving the older version is refused.
    await row()
      .getByRole('button', { name: `Actions for ${ruleName}` })
      .click();
    await page.getByRole('menuitem', { name: 'Edit Rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Rule' });
    expect(await dialog.getByRole('textbox', { name: 'Name' }).inputValue()).toBe(ruleName);
    const elsewhere = await signedIn('owner@harborview.demo');
    await openRules(elsewhere.page);
    await elsewhere.page.getByRole('switch', { name: ruleName }).click();
    await elsewhere.page.getByText('Rule switched on').first().waitFor();
    await elsewhere.page.context().close();

    await dialog.getByRole('textbox', { name: 'Description' }).fill('Changed here too.');
    await dialog.getByRole('button', { name: 'Save Rule' }).click();
    await dialog
      .getByText('Someone else changed this rule; reload it to see their changes.')
      .waitFor();
    await screenshot(page, 'legal-rules-stale-light');
    await dialog.getByRole('button', { name: 'Reload' }).click();
    await dialog.getByText('This rule changed').waitFor({ state: 'detached' });
    expect(await dialog.getByRole('switch', { name: /Enabled/ }).isChecked()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Description' }).fill('Changed after a reload.');
    await dialog.getByRole('button', { name: 'Save Rule' }).click();
    await page.getByText('Rule saved').first().waitFor();
    await row().getByText('Changed after a reload.').waitFor();

    await row()
      .getByRole('button', { name: `Actions for ${ruleName}` })
      .click();
    await page.getByRole('menuitem', { name: 'Delete Rule' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete "${ruleName}"?` });
    await confirm.getByRole('button', { name: 'Delete Rule' }).click();
    await page.getByText('Rule deleted').first().waitFor();
    await row().waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('list', { name: 'Built-in rules' }).waitFor();
    expect(await page.getByText(ruleName).count()).toBe(0);
    expect(unexpected(errors)).toEqual([]);
  });

  it('switches a built-in rule off and on again', async () => {
    await openRules(page);
    const review = page.getByRole('switch', { name: '24-hour review' });
    await review.click();
    await page.getByText('Rule switched off').first().waitFor();
    await page.reload();
    await review.waitFor();
    expect(await review.isChecked()).toBe(false);
    await page.getByText(/^Switched off by Olivia Hart/).waitFor();

    await review.click();
    await page.getByText('Rule switched on').first().waitFor();
    await page.reload();
    await review.waitFor();
    expect(await review.isChecked()).toBe(true);
    expect(unexpected(errors)).toEqual([]);
  });

  it('names one member as the legal department head, refuses a stale choice, and goes back to the escalators', async () => {
    await openRules(page);
    const card = headCard(page);
    const escalators = card.getByRole('radio', { name: 'Everyone who may escalate cases' });
    const save = card.getByRole('button', { name: 'Save' });
    // The demo tenant's default: everyone who may escalate, the owner and the admin.
    expect(await escalators.isChecked()).toBe(true);
    expect((await headsToday(page)).sort()).toEqual(['Adam Reyes', 'Olivia Hart']);
    expect(await save.isDisabled()).toBe(true);
    await cardShot(page, 'legal-rules-department-head-light');
    expect(await accessibilityViolations(page)).toEqual([]);

    await card.getByRole('radio', { name: 'One member' }).click();
    expect(await save.isDisabled()).toBe(true);
    await choose(page, card, 'Member', 'Sam Okafor');
    expect(await save.isEnabled()).toBe(true);
    await cardShot(page, 'legal-rules-department-head-member-light');
    await save.click();
    await page.getByText('Department head saved').first().waitFor();
    await page.getByText('Critical case updates now go to Sam Okafor.').first().waitFor();
    expect(await headsToday(page)).toEqual(['Sam Okafor']);
    expect(await save.isDisabled()).toBe(true);

    await page.reload();
    expect(await headsToday(page)).toEqual(['Sam Okafor']);
    expect(await card.getByRole('radio', { name: 'One member' }).isChecked()).toBe(true);
    expect(await card.getByRole('combobox', { name: 'Member' }).textContent()).toContain(
      'Sam Okafor',
    );
    await card.getByText(/^Last changed by Olivia Hart on /).waitFor();

    // Chosen here on what the page read, while someone else names a role: this one is refused.
    const elsewhere = await signedIn('owner@harborview.demo');
    await openRules(elsewhere.page);
    const there = headCard(elsewhere.page);
    await there.getByRole('radio', { name: 'Everyone with a role' }).click();
    await choose(elsewhere.page, there, 'Role', 'Administrator');
    await there.getByRole('button', { name: 'Save' }).click();
    await elsewhere.page.getByText('Department head saved').first().waitFor();
    expect(await headsToday(elsewhere.page)).toEqual(['Adam Reyes']);
    expect(elsewhere.errors).toEqual([]);
    await elsewhere.page.context().close();

    await escalators.click();
    await save.click();
    await card.getByText('Someone else changed the legal settings', { exact: false }).waitFor();
    await cardShot(page, 'legal-rules-department-head-stale-light');
    await card.getByRole('button', { name: 'Reload' }).click();
    await card.getByText('Someone else changed the legal settings').waitFor({ state: 'detached' });
    expect(await card.getByRole('radio', { name: 'Everyone with a role' }).isChecked()).toBe(true);
    expect(await card.getByRole('combobox', { name: 'Role' }).textContent()).toContain(
      'Administrator',
    );
    expect(await headsToday(page)).toEqual(['Adam Reyes']);

    // Back as the demo tenant was found.
    await escalators.click();
    await save.click();
    await page
      .getByText(
        /^Critical case updates now go to (Adam Reyes and Olivia Hart|Olivia Hart and Adam Reyes)\.$/,
      )
      .first()
      .waitFor();
    await page.reload();
    expect((await headsToday(page)).sort()).toEqual(['Adam Reyes', 'Olivia Hart']);
    expect(await escalators.isChecked()).toBe(true);
    expect(unexpected(errors)).toEqual([]);
  });

  it('shows the department head in dark, on a phone, and when the choice fell back', async () => {
    for (const [look, options] of [
      ['dark', { colorScheme: 'dark' }],
      ['phone', { viewport: viewports.mobile }],
    ] as const) {
      const other = await signedIn('owner@harborview.demo', options);
      await openRules(other.page);
      await headsToday(other.page);
      await headCard(other.page).getByRole('radio', { name: 'One member' }).click();
      await cardShot(other.page, `legal-rules-department-head-${look}`);
      expect(await accessibilityViolations(other.page), look).toEqual([]);
      expect(other.errors).toEqual([]);
      await other.page.context().close();
    }

    // A member who has left: the service answers with the escalators and says it fell back. Here
    // it also refuses the next choice, as it would a member who left while the page was open.
    const other = await signedIn('owner@harborview.demo');
    await other.page.route('**/workflows/settings', async (route) => {
      if (route.request().method() === 'PUT') {
        await route.fulfill({
          status: 400,
          json: {
            error: {
              code: 'validation_failed',
              message: 'departmentHead.userId: is not an active member of this account',
              details: {
                fields: [
                  {
                    location: 'body',
                    field: 'departmentHead.userId',
                    message: 'is not an active member of this account',
                  },
                ],
              },
            },
          },
        });
        return;
      }
      const response = await route.fetch();
      const settings = (await response.json()) as Record<string, unknown>;
      await route.fulfill({
        response,
        json: { ...settings, departmentHead: { type: 'member', userId: 'gone' }, fallback: true },
      });
    });
    await openRules(other.page);
    const card = headCard(other.page);
    await card
      .getByText('The chosen member is no longer an active member of this account', {
        exact: false,
      })
      .waitFor();
    const member = card.getByRole('combobox', { name: 'Member' });
    expect(await member.textContent()).toContain('Former member');
    expect((await headsToday(other.page)).sort()).toEqual(['Adam Reyes', 'Olivia Hart']);
    await cardShot(other.page, 'legal-rules-department-head-fallback-light');
    expect(await accessibilityViolations(other.page)).toEqual([]);

    await choose(other.page, card, 'Member', 'Sam Okafor');
    await card.getByRole('button', { name: 'Save' }).click();
    await card
      .getByText('Sam Okafor is not an active member of this account; choose another')
      .waitFor();
    await cardShot(other.page, 'legal-rules-department-head-invalid-light');
    expect(await accessibilityViolations(other.page)).toEqual([]);
    expect(unexpected(other.errors)).toEqual([]);
    await other.page.context().close();
  });

  it('shows the rules read-only to a viewer, with no way in from the cases', async () => {
    const viewer = await signedIn('viewer@harborview.demo');
    await viewer.page.goto(`${webUrl}/legal/cases`);
    await viewer.page.getByRole('heading', { name: 'Legal Case Management' }).waitFor();
    expect(await viewer.page.getByRole('button', { name: 'Workflow Rules' }).count()).toBe(0);
    await openRules(viewer.page);
    await viewer.page.getByText('You can see the rules.', { exact: false }).waitFor();
    expect(await viewer.page.getByRole('button', { name: 'New Rule' }).count()).toBe(0);
    expect(await viewer.page.getByRole('switch', { name: '24-hour review' }).isDisabled()).toBe(
      true,
    );
    const card = headCard(viewer.page);
    await card.getByText('Chosen: Everyone who may escalate cases').waitFor();
    expect((await headsToday(viewer.page)).sort()).toEqual(['Adam Reyes', 'Olivia Hart']);
    expect(await card.getByRole('radio').count()).toBe(0);
    expect(await card.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await cardShot(viewer.page, 'legal-rules-department-head-viewer-light');
    expect(viewer.errors).toEqual([]);
    await viewer.page.context().close();
  });
});
