import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  accessibilityViolations,
  launchBrowser,
  openPage,
  screenshot,
  viewports,
} from '../support/browser.js';
import { signInThroughForm } from '../support/app.js';

const webUrl = inject('webUrl');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('Account Settings › Config', () => {
  it.each(['light', 'dark'] as const)(
    'shows every service online (%s theme)',
    async (colorScheme) => {
      const { page, errors } = await openPage(browser, { colorScheme });
      await signInThroughForm(page, 'owner@harborview.demo');
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      await page.getByRole('link', { name: 'Account Settings' }).first().click();
      await page.getByRole('tab', { name: 'Config' }).click();
      await expect.poll(() => page.url()).toBe(`${webUrl}/settings/configuration`);
      await page.getByText('All Services Online').waitFor();
      const rows = page.getByRole('list', { name: 'Services' }).getByRole('listitem');
      expect(await rows.count()).toBe(6);
      for (const label of [
        'Authentication',
        'Bidders',
        'Auctions',
        'Legal',
        'Data Upload',
        'Scoring',
      ]) {
        const row = page.getByRole('listitem', { name: `${label}: Online` });
        await row.waitFor();
        expect(await row.textContent()).toMatch(/\d+ ms/);
      }
      await screenshot(page, `config-health-${colorScheme}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it('re-checks on demand and keeps working on a phone', async () => {
    const { page } = await openPage(browser, { viewport: viewports.mobile });
    await signInThroughForm(page, 'owner@harborview.demo');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.goto(`${webUrl}/settings/configuration`);
    await page.getByText('All Services Online').waitFor();
    const recheck = page.getByRole('button', { name: 'Check All Services' });
    await recheck.click();
    await expect.poll(() => recheck.isEnabled()).toBe(true);
    await page.getByText('All Services Online').waitFor();
    await screenshot(page, 'config-health-mobile');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(overflow).toBe(false);
    await page.context().close();
  });

  it('serves deep links and shows a page for unknown addresses', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${webUrl}/settings/configuration`);
    // Signed out, a deep link goes through sign-in and comes back.
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill('owner@harborview.demo');
    await page.locator('input[autocomplete="current-password"]').fill('Harborview!Demo2026');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('All Services Online').waitFor();
    expect(page.url()).toBe(`${webUrl}/settings/configuration`);
    await page.goto(`${webUrl}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Account Settings' }).first().click();
    await page.getByRole('article', { name: 'Harborview Fine Art' }).waitFor();
    await page.context().close();
  });

  it('remembers the chosen theme across a reload', async () => {
    const { page } = await openPage(browser, { colorScheme: 'light' });
    await signInThroughForm(page, 'viewer@harborview.demo');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.goto(`${webUrl}/help/contact`);
    await page.getByRole('button', { name: 'Submit Ticket' }).waitFor();
    await page.getByRole('link', { name: 'support@lotwise.local' }).waitFor();
    await page.getByText('We reply within 24 hours.').waitFor();
    await page.getByText('Mon-Fri 9AM-6PM EST').waitFor();
    await page.getByRole('button', { name: /Theme:/ }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await page.reload();
    await page.getByRole('button', { name: 'Submit Ticket' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.style.colorScheme)).toBe('dark');
    await page.context().close();
  });
});
