import { randomUUID } from 'node:crypto';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, signInThroughForm } from '../support/app.js';
import {
  accessibilityViolations,
  animationsSettled,
  launchBrowser,
  openPage,
  screenshot,
  viewports,
} from '../support/browser.js';

const webUrl = inject('webUrl');
const PASSWORD = 'Quartz-Lantern-Orbit-42';
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The owner of a brand-new account (on the free plan), signed in through the form. */
async function newOwner(options: Parameters<typeof openPage>[1] = {}) {
  const email = `plan-${randomUUID().slice(0, 8)}@example.com`;
  const signup = await api('/signup', {
    method: 'POST',
    body: {
      firstName: 'Petra',
      lastName: 'Plan',
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      accountName: `Plan House ${randomUUID().slice(0, 4)}`,
      preferences: { termsAccepted: true, privacyPolicyAccepted: true },
    },
  });
  expect(signup.status).toBe(201);
  const opened = await openPage(browser, options);
  await signInThroughForm(opened.page, email, PASSWORD);
  await opened.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  return opened;
}

/** Stripe's card element: its own frame, as Stripe.js draws it. */
const cardFrame = (page: Page): FrameLocator =>
  page.frameLocator('iframe[title="Secure card payment input frame"]');

async function typeCard(page: Page, number: string) {
  const frame = cardFrame(page);
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiration date MM / YY').fill('12 / 34');
  await frame.getByLabel('CVC').fill('123');
}

const dialog = (page: Page) => page.getByRole('dialog');

describe('the Plan tab', () => {
  it('subscribes, upgrades with Inventory, shows invoices and cancels at the period end', async () => {
    const { page, errors } = await newOwner();
    await page.goto(`${webUrl}/settings/subscription-mgmt`);
    await page.getByText(/You have used 0 of 50 free scored bidders/).waitFor();
    await screenshot(page, 'plan-free-light');

    // Essential, monthly, with a card Stripe declines: Stripe's own words, nothing subscribed.
    await page.getByRole('button', { name: 'Upgrade Now' }).first().click();
    const upgrade = dialog(page);
    await upgrade.getByRole('heading', { name: 'Upgrade your plan' }).waitFor();
    const submit = upgrade.getByRole('button', { name: 'Upgrade Subscription' });
    expect(await submit.isDisabled()).toBe(true);
    await upgrade.getByRole('radio', { name: /Essential/ }).click();
    await typeCard(page, '4000 0000 0000 0002');
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await submit.click();
    await upgrade.getByText('Your card was declined.').waitFor();
    await page.getByText('Failed to upgrade subscription').first().waitFor();

    await typeCard(page, '4242 4242 4242 4242');
    await submit.click();
    await page.getByText('Subscription upgraded successfully!').first().waitFor();
    await upgrade.waitFor({ state: 'detached' });
    await page.getByText('Essential', { exact: true }).waitFor();

    // From the Inventory offer, the Upgrade dialog opens with Inventory chosen.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Inventory' })
      .click();
    await page.getByRole('heading', { name: 'Add Inventory to your plan' }).waitFor();
    await page.getByRole('button', { name: 'Upgrade', exact: true }).click();
    await page.waitForURL(/\/settings\/subscription-mgmt/);
    const change = dialog(page);
    await change.getByRole('heading', { name: 'Change Plan' }).waitFor();
    expect(await change.getByRole('checkbox', { name: /Inventory/ }).isChecked()).toBe(true);
    await change.getByRole('button', { name: 'Yearly' }).click();
    await change.getByRole('radio', { name: /Business/ }).click();
    await change.getByText('$27,500 /year').waitFor();
    await change.getByText('Charged to VISA ending in 4242').waitFor();
    await animationsSettled(page);
    await screenshot(page, 'plan-upgrade-dialog-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await change.getByRole('button', { name: 'Upgrade Subscription' }).click();
    await page.getByText('Subscription upgraded successfully!').first().waitFor();
    await change.waitFor({ state: 'detached' });
    await page.getByText('Business', { exact: true }).waitFor();
    await page.getByText('$27,500 per year, billed yearly').waitFor();

    // Inventory is on for the account now: the navigation opens its screen, while Payments
    // still leads to the offer.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Inventory' }).click();
    await page.getByRole('tab', { name: 'All Items' }).waitFor();
    await nav.getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('heading', { name: 'Add Payments to your plan' }).waitFor();

    await page.goto(`${webUrl}/settings/subscription-mgmt`);
    await page.getByRole('tab', { name: 'Invoices' }).click();
    const rows = page.getByRole('table', { name: 'Invoices' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(
      await page
        .getByRole('table', { name: 'Invoices' })
        .getByText('paid', { exact: true })
        .count(),
    ).toBe(2);
    await screenshot(page, 'plan-invoices-light');

    await page.getByRole('tab', { name: 'Payment Methods' }).click();
    await page.getByText('VISA ending in 4242').waitFor();
    await page.getByText('Default', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: /Address line 1/ }).fill('48 Fore Street');
    await page.getByRole('textbox', { name: /City/ }).fill('Portland');
    await page.getByRole('textbox', { name: /Postal code/ }).fill('04101');
    await page.getByRole('textbox', { name: /Tax id/ }).fill('12-3456789');
    await page.getByRole('button', { name: 'Save billing address' }).click();
    await page.getByText('Billing address saved').first().waitFor();
    await page.reload();
    await expect
      .poll(() => page.getByRole('textbox', { name: /Address line 1/ }).inputValue())
      .toBe('48 Fore Street');
    await screenshot(page, 'plan-payment-methods-light');

    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'Cancel Subscription' }).click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: 'Cancel Subscription' })
      .click();
    await page
      .getByText('Subscription will be canceled at the end of the current period')
      .first()
      .waitFor();
    await page.getByText(/Your subscription will be canceled on/).waitFor();
    await expect
      .poll(() => page.getByRole('button', { name: 'Cancel Subscription' }).count())
      .toBe(0);

    // Still there after a reload.
    await page.reload();
    await page.getByText(/Your subscription will be canceled on/).waitFor();
    await screenshot(page, 'plan-overview-light');
    expect(errors.filter((error) => !/401|Failed to load resource/.test(error))).toEqual([]);
    await page.context().close();
  });

  it('looks right in the dark and on a phone', async () => {
    const dark = await newOwner({ colorScheme: 'dark' });
    await dark.page.goto(`${webUrl}/settings/subscription-mgmt`);
    await dark.page.getByText(/free scored bidders/).waitFor();
    await dark.page.getByRole('button', { name: 'Upgrade Now' }).first().click();
    await dialog(dark.page)
      .getByRole('radio', { name: /Starter/ })
      .click();
    await cardFrame(dark.page).getByLabel('Card number').waitFor();
    await animationsSettled(dark.page);
    await screenshot(dark.page, 'plan-upgrade-dialog-dark');
    await dark.page.context().close();

    const phone = await newOwner({ viewport: viewports.mobile, isMobile: true, hasTouch: true });
    await phone.page.goto(`${webUrl}/settings/subscription-mgmt`);
    await phone.page.getByText(/free scored bidders/).waitFor();
    await screenshot(phone.page, 'plan-free-phone');
    await phone.page.getByRole('button', { name: 'Upgrade Now' }).first().click();
    await dialog(phone.page)
      .getByRole('radio', { name: /Business/ })
      .click();
    await animationsSettled(phone.page);
    await screenshot(phone.page, 'plan-upgrade-dialog-phone');
    await phone.page.context().close();
  });

  it('is not offered to those who cannot manage the plan', async () => {
    const { page } = await openPage(browser);
    await signInThroughForm(page, 'viewer@harborview.demo');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.goto(`${webUrl}/settings`);
    await page.getByRole('tab', { name: 'Sync' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Plan' }).count()).toBe(0);
    await page.context().close();
  });
});
