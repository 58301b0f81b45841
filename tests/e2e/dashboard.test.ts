import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, DEMO_PASSWORD, signInThroughForm } from '../support/app.js';
import {
  accessibilityViolations,
  launchBrowser,
  openPage,
  screenshot,
  viewports,
} from '../support/browser.js';

const webUrl = inject('webUrl');
const domainUrl = inject('domainUrl');
let browser: Browser;

interface Listed {
  auctions: { id: string; title: string; status: string }[];
  bidders: { id: string; firstName: string; lastName: string; lotwiseScore: { score: number } }[];
  cases: { id: string; caseNumber: string; status: string }[];
}

/** Today on this machine's calendar, as the browser beside it reads it. */
function today(): string {
  const now = new Date();
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

/** What the services answer the owner for the dashboard's three lists, and the owner's name. */
async function expected() {
  const login = await api<{ accessToken: string; user: { firstName: string } }>('/login', {
    method: 'POST',
    body: { email: 'owner@harborview.demo', password: DEMO_PASSWORD },
  });
  const get = async <K extends keyof Listed>(path: string, key: K): Promise<Listed[K]> => {
    const response = await fetch(`${domainUrl}${path}`, {
      headers: { authorization: `Bearer ${login.body.accessToken}` },
    });
    expect(response.status, path).toBe(200);
    return ((await response.json()) as Listed)[key];
  };
  return {
    firstName: login.body.user.firstName,
    auctions: await get(
      `/listAuctions?sortBy=startsAt&sortOrder=desc&endDate=${today()}&limit=3`,
      'auctions',
    ),
    bidders: await get('/listBidders?scoreType=lotwise&sort=desc&limit=3', 'bidders'),
    cases: await get('/listLegalCases?state=active&limit=3', 'cases'),
  };
}

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const rows = (page: Page, name: string) => card(page, name).getByRole('listitem');

/** Signs in and waits for the dashboard's lists to arrive. */
async function openDashboard(page: Page, email = 'owner@harborview.demo') {
  await signInThroughForm(page, email);
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  expect(page.url()).toBe(`${webUrl}/dashboard`);
  for (const name of ['Recent Auctions', 'Top Bidders', 'Active Legal Cases']) {
    await card(page, name).waitFor();
    await expect
      .poll(() =>
        card(page, name)
          .getByLabel(/^Loading /)
          .count(),
      )
      .toBe(0);
  }
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the Dashboard', () => {
  it('is where signing in lands, with each card and the lists the services answer', async () => {
    const { page, errors } = await openPage(browser, { colorScheme: 'light' });
    const want = await expected();
    await openDashboard(page);
    await page.getByRole('heading', { name: `Welcome back, ${want.firstName}` }).waitFor();
    for (const name of ['Getting Started', 'Key Features', 'Quick Actions']) {
      await card(page, name).waitFor();
    }
    const main = page.getByRole('navigation', { name: 'Main' });
    expect(await main.getByRole('link').first().textContent()).toBe('Dashboard');

    expect(want.auctions).toHaveLength(3);
    expect(await rows(page, 'Recent Auctions').getByRole('link').allTextContents()).toEqual(
      want.auctions.map((auction) => auction.title),
    );
    for (const [index, auction] of want.auctions.entries()) {
      await rows(page, 'Recent Auctions').nth(index).getByText(auction.status).waitFor();
    }

    expect(want.bidders).toHaveLength(3);
    expect(await rows(page, 'Top Bidders').getByRole('link').allTextContents()).toEqual(
      want.bidders.map((bidder) => `${bidder.firstName} ${bidder.lastName}`),
    );
    const scores = want.bidders.map((bidder) => bidder.lotwiseScore.score);
    expect(scores).toEqual(scores.toSorted((a, b) => b - a));
    for (const [index, bidder] of want.bidders.entries()) {
      await rows(page, 'Top Bidders')
        .nth(index)
        .getByRole('img', { name: new RegExp(`^Lotwise Score ${bidder.lotwiseScore.score} `) })
        .waitFor();
    }

    if (want.cases.length) {
      expect(await rows(page, 'Active Legal Cases').getByRole('link').allTextContents()).toEqual(
        want.cases.map((legalCase) => legalCase.caseNumber),
      );
    } else {
      await card(page, 'Active Legal Cases').getByText('No active legal cases').waitFor();
      await card(page, 'Active Legal Cases').getByText('All cases are resolved').waitFor();
    }

    await screenshot(page, 'dashboard-light');
    expect(await accessibilityViolations(page)).toEqual([]);

    // A top bidder opens their profile over Bidder Management.
    const [best] = want.bidders;
    if (!best) throw new Error('no top bidder');
    await rows(page, 'Top Bidders').first().getByRole('link').click();
    await page.getByRole('dialog', { name: `${best.firstName} ${best.lastName}` }).waitFor();
    expect(new URL(page.url()).searchParams.get('bidder')).toBe(best.id);

    // Each View All leads to its view.
    await page.goBack();
    await card(page, 'Recent Auctions')
      .getByRole('link', { name: /^View All/ })
      .click();
    await page.getByRole('heading', { name: 'Auction Management', level: 1 }).waitFor();
    expect(page.url()).toBe(`${webUrl}/auctions/current`);
    await page.goBack();
    await card(page, 'Active Legal Cases')
      .getByRole('link', { name: /^View All/ })
      .click();
    await expect.poll(() => page.url()).toBe(`${webUrl}/legal/active`);
    await page.goBack();
    await card(page, 'Top Bidders')
      .getByRole('link', { name: /^View All/ })
      .click();
    await page.getByRole('heading', { name: 'Bidder Management', level: 1 }).waitFor();

    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('opens an auction and a case from their rows, and Process Data opens the Data Processing Center', async () => {
    const { page } = await openPage(browser);
    const want = await expected();
    await openDashboard(page);
    const [auction] = want.auctions;
    if (!auction) throw new Error('no recent auction');
    await rows(page, 'Recent Auctions').first().getByRole('link').click();
    await page.getByRole('heading', { name: auction.title, level: 1 }).waitFor();
    expect(page.url()).toBe(`${webUrl}/auctions/${auction.id}`);
    await page.goBack();
    const [legalCase] = want.cases;
    if (legalCase) {
      await rows(page, 'Active Legal Cases').first().getByRole('link').click();
      await expect.poll(() => page.url()).toBe(`${webUrl}/legal/cases/${legalCase.id}`);
      await page.getByText(legalCase.caseNumber).first().waitFor();
      await page.goBack();
    }
    await card(page, 'Quick Actions').getByRole('link', { name: 'Process Data' }).click();
    await page.getByRole('heading', { name: 'Data Processing Center', level: 1 }).waitFor();
    await page.context().close();
  });

  it('looks right in the dark theme', async () => {
    const { page, errors } = await openPage(browser, { colorScheme: 'dark' });
    await openDashboard(page);
    await screenshot(page, 'dashboard-dark');
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('fits a phone, one card under another', async () => {
    const { page } = await openPage(browser, { viewport: viewports.mobile });
    await openDashboard(page);
    await screenshot(page, 'dashboard-mobile');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(overflow).toBe(false);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('shows a list that fails to load in its own card, and loads it again on Try again', async () => {
    const { page } = await openPage(browser);
    const failing = '**/listLegalCases?*';
    await page.route(failing, (route) =>
      route.fulfill({
        status: 503,
        headers: { 'access-control-allow-origin': webUrl },
        contentType: 'application/json',
        body: JSON.stringify({
          error: { code: 'unavailable', message: 'The legal service is unavailable' },
        }),
      }),
    );
    await signInThroughForm(page, 'owner@harborview.demo');
    const cases = card(page, 'Active Legal Cases');
    await cases
      .getByText('The active legal cases could not be loaded: The legal service is unavailable')
      .waitFor();
    // The other lists are not held up by it.
    await expect.poll(() => rows(page, 'Recent Auctions').count()).toBe(3);
    await expect.poll(() => rows(page, 'Top Bidders').count()).toBe(3);
    await screenshot(page, 'dashboard-error-light');
    await page.unroute(failing);
    const retry = cases.getByRole('button', { name: 'Try again' });
    await retry.click();
    await retry.waitFor({ state: 'detached' });
    const shown =
      (await rows(page, 'Active Legal Cases').count()) +
      (await cases.getByText('No active legal cases').count());
    expect(shown).toBeGreaterThan(0);
    await page.context().close();
  });

  it('offers importing only to those who may import', async () => {
    const { page } = await openPage(browser);
    await openDashboard(page, 'staff@harborview.demo');
    await card(page, 'Quick Actions').getByRole('link', { name: 'View All Bidders' }).waitFor();
    expect(await page.getByRole('link', { name: 'Process Data' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Start Importing Data' }).count()).toBe(0);
    await page.context().close();
  });
});
