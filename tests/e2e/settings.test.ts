import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInThroughForm } from '../support/app.js';
import {
  accessibilityViolations,
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

describe('Account Settings', () => {
  it.each([
    { email: 'owner@harborview.demo', config: true, plan: true },
    { email: 'admin@harborview.demo', config: true, plan: false },
    { email: 'staff@harborview.demo', config: false, plan: false },
    { email: 'viewer@harborview.demo', config: false, plan: false },
  ])('opens $email on Houses, with Config only for owners and admins', async (person) => {
    const { page, errors } = await openPage(browser);
    await signedIn(page, person.email);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Account Settings' })
      .click();
    await page.getByRole('article', { name: 'Harborview Fine Art' }).waitFor();
    expect(page.url()).toBe(`${webUrl}/settings/auction-houses`);
    const tabs = page.getByRole('tablist', { name: 'Settings sections' }).getByRole('tab');
    await tabs.and(page.getByRole('tab', { name: 'Houses', selected: true })).waitFor();
    // The plan is the owner's alone (the settings permission); Config is for those who run it.
    const names = [
      'Houses',
      'Sync',
      'Scoring',
      'Inventory',
      'Payments',
      ...(person.plan ? ['Plan'] : []),
      'APIs',
      ...(person.config ? ['Config'] : []),
    ];
    expect(await tabs.count()).toBe(names.length);
    for (const [index, name] of names.entries()) {
      await tabs
        .nth(index)
        .and(page.getByRole('tab', { name, exact: true }))
        .waitFor();
    }
    expect(await tabs.and(page.getByRole('tab', { name: 'Config' })).count()).toBe(
      person.config ? 1 : 0,
    );

    // Typed or bookmarked, Config shows to those it is for and leads others to their first tab.
    await page.goto(`${webUrl}/settings/configuration`);
    if (person.config) {
      await page.getByText('All Services Online').waitFor();
      expect(page.url()).toBe(`${webUrl}/settings/configuration`);
    } else {
      await page.getByRole('article', { name: 'Harborview Fine Art' }).waitFor();
      expect(page.url()).toBe(`${webUrl}/settings/auction-houses`);
      expect(await page.getByText('Configuration guide').count()).toBe(0);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it.each([
    ['light', 'desktop'],
    ['dark', 'desktop'],
    ['light', 'mobile'],
  ] as const)('a viewer’s settings look right and pass axe (%s, %s)', async (colorScheme, size) => {
    const { page, errors } = await openPage(browser, { colorScheme, viewport: viewports[size] });
    await signedIn(page, 'viewer@harborview.demo');
    await page.goto(`${webUrl}/settings/bidder-scoring`);
    await page.getByText('Automation rules').waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, `settings-viewer-${colorScheme}-${size}`);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth),
    ).toBe(false);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('saves the registration rules: a bid limit per tier and the house lists, still there after a reload', async () => {
    const { page, errors } = await openPage(browser);
    await signedIn(page, 'owner@harborview.demo');
    await page.goto(`${webUrl}/settings/bidder-scoring`);
    await page.getByText('Auction registration').waitFor();
    const bronze = page.getByRole('spinbutton', { name: 'Bronze' });
    expect(await bronze.inputValue()).toBe('2500');
    await bronze.fill('3000');
    await page.getByRole('textbox', { name: 'Always approve' }).fill('HV-1001, HV-1002');
    await page.getByRole('button', { name: 'Save Registration Rules' }).click();
    await page.getByText('Registration rules saved').first().waitFor();
    await page.reload();
    await page.getByText('Auction registration').waitFor();
    expect(await page.getByRole('spinbutton', { name: 'Bronze' }).inputValue()).toBe('3000');
    expect(await page.getByRole('textbox', { name: 'Always approve' }).inputValue()).toBe(
      'HV-1001, HV-1002',
    );
    await page.getByRole('spinbutton', { name: 'Bronze' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-registration-rules');
    // Put the demo back as it was for the tests after this one.
    await page.getByRole('spinbutton', { name: 'Bronze' }).fill('2500');
    await page.getByRole('textbox', { name: 'Always approve' }).fill('');
    await page.getByRole('button', { name: 'Save Registration Rules' }).click();
    await page.getByText('Registration rules saved').first().waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
