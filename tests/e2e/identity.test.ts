import { randomUUID } from 'node:crypto';
import { generate } from 'otplib';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, mailTo, signInThroughForm, signOut } from '../support/app.js';
import {
  accessibilityViolations,
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

const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

async function fillSignup(page: Page, fields: { first: string; last: string; email?: string }) {
  await page.getByRole('textbox', { name: 'First name' }).fill(fields.first);
  await page.getByRole('textbox', { name: 'Last name' }).fill(fields.last);
  if (fields.email) await page.getByRole('textbox', { name: 'Email' }).fill(fields.email);
  const passwords = page.locator('input[autocomplete="new-password"]');
  await passwords.nth(0).fill(PASSWORD);
  await passwords.nth(1).fill(PASSWORD);
  await page.getByRole('checkbox', { name: 'I accept the Terms of Service' }).check();
  await page.getByRole('checkbox', { name: 'I accept the Privacy Policy' }).check();
}

describe('sign-up and sign-in', () => {
  it('signs up a new person into an account of their own', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${webUrl}/login`);
    await page.getByRole('button', { name: 'Create New Account' }).click();
    await page.getByRole('heading', { name: 'Create New User Account' }).waitFor();
    const email = uniqueEmail('founder');
    await fillSignup(page, { first: 'Ada', last: 'Lovelace', email });
    await page.locator('input[autocomplete="new-password"]').nth(1).fill('Different-Password-1');
    await page.getByText('Passwords do not match').waitFor();
    await page.locator('input[autocomplete="new-password"]').nth(1).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page
      .getByRole('region', { name: 'Current account' })
      .getByText("Ada Lovelace's Auction House")
      .waitFor();
    await page.getByText('Account Owner').waitFor();
    // Still signed in after a reload.
    await page.reload();
    await page
      .getByRole('region', { name: 'Current account' })
      .getByText("Ada Lovelace's Auction House")
      .waitFor();
    // A team of one, counted in words that agree with the count.
    await page.goto(`${webUrl}/security/users`);
    await page.getByText('1 member · 0 pending invitations').waitFor();
    await page.getByRole('button', { name: 'Invite Your First User' }).click();
    const invite = page.getByRole('dialog', { name: 'Invite a team member' });
    await invite.getByRole('textbox', { name: 'Email' }).fill(uniqueEmail('colleague'));
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('1 member · 1 pending invitation', { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a service field problem once, beside its field', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${webUrl}/signup`);
    await page.getByRole('heading', { name: 'Create New User Account' }).waitFor();
    await fillSignup(page, { first: 'Ada', last: 'Byron', email: uniqueEmail('phone') });
    await page.getByRole('textbox', { name: 'Phone' }).fill('12');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Please correct the highlighted field').waitFor();
    const problem = page.getByText(/phone number/i);
    await expect.poll(() => problem.count()).toBe(1);
    expect(await page.getByText(/^phone:/).count()).toBe(0);
    await page.context().close();
  });

  it('asks which account when the person has several, and opens the one chosen', async () => {
    const { page } = await openPage(browser);
    await signInThroughForm(page, 'admin@harborview.demo');
    const dialog = page.getByRole('alertdialog', { name: 'Select Account' });
    await dialog.waitFor();
    await dialog.getByText('Signed in as admin@harborview.demo').waitFor();
    // Roles by the names the rest of Lotwise uses.
    await dialog
      .getByRole('radio', { name: /Harborview Auctions/ })
      .getByText(/Administrator/)
      .waitFor();
    await dialog
      .getByRole('radio', { name: /Lakeside Auction Gallery/ })
      .getByText(/Staff Member/)
      .waitFor();
    expect(await dialog.getByText(/· (owner|admin|staff|viewer)\b/).count()).toBe(0);
    const proceed = dialog.getByRole('button', { name: 'Continue' });
    expect(await proceed.isDisabled()).toBe(true);
    await dialog.getByRole('radio', { name: /Lakeside Auction Gallery/ }).click();
    await proceed.click();
    await page
      .getByRole('region', { name: 'Current account' })
      .getByText('Lakeside Auction Gallery')
      .waitFor();
    await page.getByRole('button', { name: 'Switch account' }).click();
    await page.getByRole('menuitemradio', { name: 'Harborview Auctions' }).click();
    await page
      .getByRole('region', { name: 'Current account' })
      .getByText('Harborview Auctions')
      .waitFor();
    await page.context().close();
  });

  it('shows the spec message when a field is missing, and the server message on failure', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${webUrl}/login`);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Please enter both email and password').waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill('owner@harborview.demo');
    await page.locator('input[autocomplete="current-password"]').fill('Wrong-Password-9');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Invalid email or password').waitFor();
    await page.context().close();
  });

  it('takes an invited person from the email link to the account, with the invited role', async () => {
    const owner = await openPage(browser);
    await signInThroughForm(owner.page, 'owner@harborview.demo');
    await owner.page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await owner.page.goto(`${webUrl}/security/users`);
    await owner.page.getByRole('button', { name: 'Invite User' }).click();
    const invitee = uniqueEmail('invitee');
    const dialog = owner.page.getByRole('dialog', { name: 'Invite a team member' });
    await dialog.getByRole('textbox', { name: 'Email' }).fill(invitee);
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await owner.page.getByRole('option', { name: 'Viewer' }).click();
    await dialog.getByRole('textbox', { name: 'Personal message' }).fill('Welcome to the team');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await owner.page.getByText('Invitation sent').first().waitFor();
    await owner.page
      .getByRole('table', { name: 'Team members' })
      .getByText(invitee)
      .first()
      .waitFor();
    await owner.page.context().close();

    const mail = await mailTo(invitee, 'invitation');
    expect(mail.text).toContain('Welcome to the team');
    const link = /https?:\/\/\S+/.exec(mail.text)?.[0] as string;
    const { page } = await openPage(browser);
    await page.goto(link.replace(/^https?:\/\/[^/]+/, webUrl));
    await page
      .getByText('Olivia Hart invited you to Harborview Auctions as Viewer.', { exact: true })
      .waitFor();
    expect(await page.getByRole('textbox', { name: 'Email' }).inputValue()).toBe(invitee);
    await fillSignup(page, { first: 'Ivy', last: 'Invitee' });
    await page.getByRole('button', { name: 'Create Account' }).click();
    const banner = page.getByRole('region', { name: 'Current account' });
    await banner.getByText('Harborview Auctions').waitFor();
    await banner.getByText('Member').waitFor();
    await banner.getByText('Harborview Fine Art · Viewer').waitFor();
    await page.context().close();
  });

  it('enrols an authenticator, then signs in with a code and with a backup code', async () => {
    const email = uniqueEmail('secure');
    await api('/signup', {
      method: 'POST',
      body: {
        firstName: 'Mia',
        lastName: 'Factor',
        email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        preferences: { termsAccepted: true, privacyPolicyAccepted: true },
      },
    });
    const { page } = await openPage(browser);
    await signInThroughForm(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.goto(`${webUrl}/security/my-security`);
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const wizard = page.getByRole('dialog', { name: 'Add a verification method' });
    await screenshot(page, 'mfa-wizard-intro-light');
    await wizard.getByRole('button', { name: 'Continue' }).click();
    const setup = page.getByRole('dialog', { name: 'Authenticator app' });
    await setup.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await screenshot(page, 'mfa-wizard-setup-light');
    const secret = (await setup.locator('code').textContent()) as string;
    const verify = setup.getByRole('button', { name: 'Verify' });
    await setup.getByRole('textbox', { name: 'Verification code' }).fill('12a45');
    expect(await setup.getByRole('textbox', { name: 'Verification code' }).inputValue()).toBe(
      '1245',
    );
    expect(await verify.isDisabled()).toBe(true);
    await setup
      .getByRole('textbox', { name: 'Verification code' })
      .fill(await generate({ secret }));
    await verify.click();
    const backup = page.getByRole('dialog', { name: 'Save your backup codes' });
    await backup.waitFor();
    await screenshot(page, 'mfa-wizard-backup-light');
    const codes = await backup
      .getByRole('list', { name: 'Backup codes' })
      .getByRole('listitem')
      .allTextContents();
    expect(codes).toHaveLength(10);
    const download = page.waitForEvent('download');
    await backup.getByRole('button', { name: 'Download as text file' }).click();
    expect((await download).suggestedFilename()).toBe('lotwise-backup-codes.txt');
    await backup.getByRole('button', { name: 'I saved my codes' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Enabled', { exact: true }).waitFor();
    await page.getByText('1 method protects your sign-in.').waitFor();
    await page.getByText('10', { exact: true }).waitFor();

    await signOut(page);
    await signInThroughForm(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    await screenshot(page, 'mfa-sign-in-light');
    // The enrolment spent this step's code; the next step's is accepted within the tolerance.
    await page
      .getByRole('textbox', { name: 'Verification code' })
      .fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    await signOut(page);
    await signInThroughForm(page, email, PASSWORD);
    await page.getByRole('button', { name: 'Use a backup code' }).click();
    await page.getByRole('textbox', { name: 'Backup code' }).fill(codes[0] as string);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.goto(`${webUrl}/security/my-security`);
    await page.getByText('9', { exact: true }).waitFor();
    await page.context().close();
  });

  it('shows a viewer no Users tab, and the API refuses them with 403', async () => {
    const { page } = await openPage(browser);
    await signInThroughForm(page, 'viewer@harborview.demo');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.goto(`${webUrl}/security/users`);
    // The page shows once the reload has restored the session; a viewer lands on their own tab.
    await page.getByRole('heading', { name: 'Security & Users' }).waitFor();
    expect(page.url()).toBe(`${webUrl}/security/my-security`);
    expect(await page.getByRole('tab', { name: 'Users' }).count()).toBe(0);
    const refreshToken = await page.evaluate(() => localStorage.getItem('lotwise.refreshToken'));
    const refreshed = await api<{ accessToken: string }>('/me/refresh', {
      method: 'POST',
      body: { refreshToken },
    });
    const forced = await api('/auction-house/users', { token: refreshed.body.accessToken });
    expect(forced.status).toBe(403);
    await page.context().close();
  });

  it('shows a person who belongs to no account the support page', async () => {
    const email = uniqueEmail('orphan');
    const created = await api<{ accessToken: string; account: { id: string } }>('/signup', {
      method: 'POST',
      body: {
        firstName: 'Otto',
        lastName: 'Alone',
        email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        preferences: { termsAccepted: true, privacyPolicyAccepted: true },
      },
    });
    await api(`/accounts/${created.body.account.id}`, {
      method: 'DELETE',
      token: created.body.accessToken,
    });
    const { page } = await openPage(browser);
    await signInThroughForm(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Account Configuration Support' }).waitFor();
    await page.getByText('You are signed in, but not to any account').waitFor();
    await page.getByText(`User email: ${email}`).waitFor();
    // How to reach support comes from the deployment's settings (the sample's, here).
    await page.getByRole('link', { name: 'support@lotwise.local' }).waitFor();
    await page.getByRole('link', { name: '+1 (800) 555-0199' }).waitFor();
    await page.getByText('Monday-Friday 8am-6pm EST').waitFor();
    await screenshot(page, 'support-page-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    // It stays on reload until Retry Connection or Logout.
    await page.reload();
    await page.getByRole('heading', { name: 'Account Configuration Support' }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.context().close();
  });

  it.each(['light', 'dark'] as const)(
    'lists Scoring System and a Logout in line with the rest in the phone drawer (%s)',
    async (colorScheme) => {
      const { page } = await openPage(browser, { colorScheme, viewport: viewports.mobile });
      await signInThroughForm(page, 'owner@harborview.demo');
      await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Open navigation' }).click();
      const drawer = page.getByRole('dialog');
      const scoring = drawer.getByRole('link', { name: 'Scoring System' });
      const logout = drawer.getByRole('button', { name: 'Logout' });
      await logout.waitFor();
      await screenshot(page, `drawer-mobile-${colorScheme}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      // Icons and labels start where every other line's do.
      const starts = async (line: Locator) =>
        line.evaluate((element) => {
          const icon = element.querySelector('svg')?.getBoundingClientRect().left ?? -1;
          const range = document.createRange();
          range.selectNodeContents(element);
          const rects = range.getClientRects();
          const text = rects.item(rects.length - 1)?.left ?? -1;
          return [Math.round(icon), Math.round(text)];
        });
      const help = drawer.getByRole('link', { name: 'Help' });
      expect(await starts(logout)).toEqual(await starts(help));
      expect(await starts(scoring)).toEqual(await starts(help));
      await scoring.click();
      await page.getByText('Automation rules').waitFor();
      expect(page.url()).toBe(`${webUrl}/settings/bidder-scoring`);
      await page.context().close();
    },
  );

  it('navigates with the drawer on a phone', async () => {
    const { page } = await openPage(browser, { viewport: viewports.mobile });
    await signInThroughForm(page, 'owner@harborview.demo');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Security & Users' }).click();
    await page.getByRole('heading', { name: 'Security & Users' }).waitFor();
    await page.goto(`${webUrl}/security/users`);
    await page.getByRole('list', { name: 'Team members' }).waitFor();
    await screenshot(page, 'security-users-mobile-light');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(overflow).toBe(false);
    await page.context().close();
  });
});
