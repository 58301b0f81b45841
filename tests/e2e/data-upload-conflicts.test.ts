import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { LegalCase } from '../../functions/src/legal/legal.schema.js';
import { signInThroughForm } from '../support/app.js';
import { createAuction } from '../support/auctions.js';
import { createBidder, domain, freshOwner, type Owner } from '../support/bidders.js';
import {
  accessibilityViolations,
  launchBrowser,
  openPage,
  screenshot,
  viewports,
} from '../support/browser.js';
import { GOOD_PASSWORD, ifMatch } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

usePlatformEnvironment();
const { recordConflict } = await import('../../functions/src/conflicts/conflicts.service.js');
const { systemContext } = await import('../../functions/src/platform/context.js');
type NewConflict = Parameters<typeof recordConflict>[1];

/**
 * The Data Processing Center's Conflict Resolution tab in Chromium against the real stack. Real
 * records (a near-duplicate bidder pair, two legal cases, an auction) get conflicts recorded
 * in-process as an import and a sync record them; the screen merges one field by field, skips
 * one, meets one whose case changed meanwhile, and resolves the rest in bulk by type.
 */

const webUrl = inject('webUrl');
const tag = randomUUID().slice(0, 6);
const uploadName = `Spring registrations ${tag}`;
let browser: Browser;
let owner: Owner;
let page: Page;
let errors: string[];
let kept: { id: string; email: string };
let imported: { id: string; email: string };
let changingCase: LegalCase;

const fileCase = async (title: string) => {
  const reply = await domain<LegalCase>('POST', '/cases', {
    token: owner.token,
    body: {
      caseType: 'payment_dispute',
      category: 'post_sale',
      priority: 'medium',
      title,
      jurisdiction: 'Massachusetts',
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
};

const fromUpload = {
  source: { kind: 'upload', uploadId: `upload-${tag}`, uploadName },
  uploadName,
} as const;

/** A legal case imported again with another priority and jurisdiction. */
const legalConflict = (found: LegalCase, key: string): NewConflict => ({
  key: `${tag}-${key}`,
  subject: {
    type: 'legal',
    existingId: found.id,
    imported: { priority: 'high', jurisdiction: 'Rhode Island' },
  },
  conflictType: 'related',
  ...fromUpload,
  matchScore: 88,
  existingRecord: { id: found.id, title: found.title, caseNumber: found.caseNumber },
  importedRecord: { title: found.title, priority: 'high', jurisdiction: 'Rhode Island' },
  guard: { existing: found.etag, imported: null },
  fields: [
    { field: 'priority', label: 'Priority', existing: 'medium', imported: 'high' },
    {
      field: 'jurisdiction',
      label: 'Jurisdiction',
      existing: 'Massachusetts',
      imported: 'Rhode Island',
    },
  ],
});

async function recordConflicts() {
  const ctx = systemContext(owner.accountId);
  // The same person twice: a pending pair of Bidders › Duplicates, as the bidder import leaves it.
  const address = { street: '12 Bellevue Avenue', city: 'Newport', state: 'RI', zip: '02840' };
  const twice = async () => {
    const first = await createBidder(owner.token, {
      firstName: 'Marcus',
      lastName: 'Brennan',
      email: `marcus.${tag}@example.com`,
      phone: '+1 401 555 0142',
      address,
    });
    const second = await createBidder(owner.token, {
      firstName: 'Marcus',
      lastName: 'Brennan',
      email: `m.brennan.${tag}@brennan-partners.example.com`,
      phone: '401-555-0142',
      address,
    });
    return [first, second] as const;
  };
  const [auction, skipped, changing, [onFile, again]] = await Promise.all([
    createAuction(owner.token, { title: `Harbor Estate Sale ${tag}` }),
    fileCase(`Unpaid lot 14 ${tag}`),
    fileCase(`Condition claim ${tag}`),
    twice(),
  ]);
  changingCase = changing;
  kept = { id: onFile.id, email: onFile.email ?? '' };
  imported = { id: again.id, email: again.email ?? '' };
  const pairs = await domain<{ duplicates: { id: string }[] }>('GET', '/duplicates', {
    token: owner.token,
  });
  const pair = pairs.body.duplicates[0];
  expect(pair).toBeDefined();

  // Oldest first: the list shows them newest first.
  await recordConflict(ctx, {
    key: `${tag}-auction`,
    subject: {
      type: 'auction',
      platform: 'LiveAuctioneers',
      externalId: `LA-${tag}`,
      localId: auction.id,
      imported: { title: `Harbor Estate Sale (LA) ${tag}` },
    },
    conflictType: 'mismatch',
    source: {
      kind: 'sync',
      platform: 'LiveAuctioneers',
      runId: `run-${tag}`,
      externalId: `LA-${tag}`,
    },
    uploadName: 'LiveAuctioneers sync',
    matchScore: null,
    existingRecord: { id: auction.id, title: auction.title },
    importedRecord: { title: `Harbor Estate Sale (LA) ${tag}` },
    guard: { existing: auction.etag, imported: null },
    fields: [
      {
        field: 'title',
        label: 'Title',
        existing: auction.title,
        imported: `Harbor Estate Sale (LA) ${tag}`,
      },
    ],
  });
  await recordConflict(ctx, legalConflict(changingCase, 'legal-changing'));
  await recordConflict(ctx, legalConflict(skipped, 'legal-skipped'));
  await recordConflict(ctx, {
    key: `${tag}-bidder`,
    subject: {
      type: 'bidder',
      matchId: pair?.id ?? '',
      existingId: onFile.id,
      importedId: again.id,
    },
    conflictType: 'duplicate',
    ...fromUpload,
    matchScore: 70,
    existingRecord: {
      id: onFile.id,
      firstName: 'Marcus',
      lastName: 'Brennan',
      email: onFile.email,
    },
    importedRecord: { firstName: 'Marcus', lastName: 'Brennan', email: again.email },
    guard: { existing: onFile.etag, imported: again.etag },
    fields: [
      { field: 'email', label: 'Email', existing: onFile.email, imported: again.email },
      { field: 'phone', label: 'Phone', existing: '+1 401 555 0142', imported: '401-555-0142' },
    ],
  });
}

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
const list = () => page.getByRole('list', { name: 'Conflicts' });
const card = (title: string) => list().getByRole('listitem').filter({ hasText: title });
/** The six counters as "label value". */
const counters = () =>
  page
    .getByRole('group', { name: 'Conflict counts' })
    .locator('.fui-Card')
    .evaluateAll((cards) =>
      cards.map((c) => Array.from(c.children, (child) => child.textContent).join(' ')),
    );
const figures = (total: number, pending: number, resolved: number) => [
  `Total Conflicts ${total}`,
  `Pending ${pending}`,
  `Resolved ${resolved}`,
  'Bidders 1',
  'Auctions 1',
  'Legal 2',
];
async function choose(label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
/** Console errors other than the refusals provoked on purpose (the 412). */
const unexpected = () =>
  errors.filter((error) => !/status of 4\d\d |Failed to load resource/.test(error));

describe('Data Processing: Conflict Resolution', () => {
  it('says what conflicts are while there are none', async () => {
    await page.goto(`${webUrl}/data-upload`);
    await page.getByRole('tab', { name: 'Conflict Resolution' }).click();
    await expect.poll(() => page.url()).toBe(`${webUrl}/data-upload/conflicts`);
    await page.getByText('No conflicts. A conflict is a record', { exact: false }).waitFor();
    await expect
      .poll(counters)
      .toEqual([
        'Total Conflicts 0',
        'Pending 0',
        'Resolved 0',
        'Bidders 0',
        'Auctions 0',
        'Legal 0',
      ]);
    expect(await page.getByRole('button', { name: 'Resolve all shown' }).isDisabled()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
  });

  it('lists recorded conflicts with the counters and the banner, in every look', async () => {
    await recordConflicts();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(counters).toEqual(figures(4, 4, 0));
    await page.getByText('4 conflicts need your review').waitFor();
    const bidder = card('Marcus Brennan');
    await bidder.getByText('70% match').waitFor();
    await bidder.getByRole('link', { name: uploadName }).waitFor();
    expect(
      await bidder.getByRole('link', { name: 'Open the bidder on file' }).getAttribute('href'),
    ).toBe(`/bidders?bidder=${kept.id}`);
    const auction = card(`Harbor Estate Sale ${tag}`);
    await auction.getByText('Same record').waitFor();
    await auction.getByRole('link', { name: 'LiveAuctioneers sync' }).waitFor();
    await bidder.getByRole('button', { name: 'Compare and resolve (2 fields)' }).click();
    await bidder
      .getByRole('table', { name: 'Values of Marcus Brennan' })
      .getByText(imported.email)
      .waitFor();

    const looks = [
      ['light', 'light', viewports.desktop],
      ['dark', 'dark', viewports.desktop],
      ['phone', 'light', viewports.mobile],
    ] as const;
    for (const [look, colorScheme, viewport] of looks) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      // The theme follows the system's scheme once the app has re-rendered.
      await page.waitForFunction(
        (scheme) => document.documentElement.style.colorScheme === scheme,
        colorScheme,
      );
      await screenshot(page, `data-upload-conflicts-${look}`);
      expect(await accessibilityViolations(page), look).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(viewports.desktop);
  });

  it('merges a bidder field by field into the record on file', async () => {
    const bidder = card('Marcus Brennan');
    await bidder.getByRole('button', { name: 'Merge...' }).click();
    // Every field starts on the value on file, as in the bidders' merge.
    expect(await bidder.getByRole('radio', { name: kept.email }).isChecked()).toBe(true);
    await bidder.getByRole('radio', { name: imported.email }).check();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'data-upload-conflicts-merge-light');
    expect(await accessibilityViolations(page)).toEqual([]);
    await bidder.getByRole('button', { name: 'Apply merge' }).click();
    await toast('Conflict resolved').waitFor();
    await bidder.getByText(/^Merged by .+ on /).waitFor();
    await expect.poll(counters).toEqual(figures(4, 3, 1));
    expect(await bidder.getByRole('button', { name: /Merge|Keep existing|Skip/ }).count()).toBe(0);
    const merged = await domain<{ email: string; phone: string }>('GET', `/bidders/${kept.id}`, {
      token: owner.token,
    });
    expect(merged.body.email).toBe(imported.email);
    expect(merged.body.phone).toBe('+1 401 555 0142');
  });

  it('skips a conflict, changing nothing', async () => {
    const legal = card(`Unpaid lot 14 ${tag}`);
    await legal.getByRole('button', { name: 'Compare and resolve (2 fields)' }).click();
    await legal.getByRole('button', { name: 'Skip' }).click();
    await toast('Conflict skipped').waitFor();
    await legal.getByText(/^Skipped by .+ on /).waitFor();
    await expect.poll(counters).toEqual(figures(4, 2, 1));
  });

  it('shows the new values when the case changed since the conflict was recorded', async () => {
    const edit = await domain('PUT', `/cases/${changingCase.id}`, {
      token: owner.token,
      body: { priority: 'critical' },
      headers: ifMatch(changingCase.etag),
    });
    expect(edit.status).toBe(200);
    const legal = card(`Condition claim ${tag}`);
    await legal.getByRole('button', { name: 'Compare and resolve (2 fields)' }).click();
    await legal.getByRole('button', { name: 'Use imported' }).click();
    await legal
      .getByText('The record on file changed after this conflict was recorded', { exact: false })
      .waitFor();
    await legal.getByRole('cell', { name: 'critical', exact: true }).waitFor();
    await expect.poll(counters).toEqual(figures(4, 2, 1));
  });

  it('resolves the rest in bulk, a type at a time', async () => {
    await choose('Type', 'Legal');
    expect(page.url()).toContain('type=legal');
    await card(`Harbor Estate Sale ${tag}`).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Resolve all shown' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Resolve all shown conflicts?' });
    await dialog
      .getByText('This resolves 1 pending legal case conflict at once', { exact: false })
      .waitFor();
    await screenshot(page, 'data-upload-conflicts-bulk-light');
    await dialog.getByRole('button', { name: 'Resolve 1' }).click();
    const done = page.getByRole('alertdialog', { name: 'Conflicts resolved' });
    await done.getByText('1 conflict resolved, 0 skipped.').waitFor();
    await done.getByRole('button', { name: 'Close' }).click();
    await expect.poll(counters).toEqual(figures(4, 1, 2));
    await page.getByText('1 conflict needs your review').waitFor();

    await choose('Type', 'All types');
    await page.getByRole('button', { name: 'Resolve all shown' }).click();
    await dialog.getByText('This resolves 1 pending conflict at once', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Resolve 1' }).click();
    await done.getByText('1 conflict resolved, 0 skipped.').waitFor();
    await done.getByRole('button', { name: 'Close' }).click();
    await expect.poll(counters).toEqual(figures(4, 0, 3));
    expect(await page.getByText('need your review').count()).toBe(0);
  });

  it('keeps every decision after a reload', async () => {
    await page.goto(`${webUrl}/data-upload/conflicts?state=resolved`);
    await expect.poll(counters).toEqual(figures(4, 0, 3));
    await expect.poll(() => list().getByRole('listitem').count()).toBe(3);
    const bidder = card('Marcus Brennan');
    await bidder.getByText(/^Merged by /).waitFor();
    await bidder.getByRole('button', { name: 'Compare values (2 fields)' }).click();
    const keptCells = bidder.getByRole('cell', { name: /^Kept/ });
    await expect
      .poll(() => keptCells.allTextContents())
      .toEqual([`Kept: ${imported.email}`, 'Kept: +1 401 555 0142']);
    await card(`Condition claim ${tag}`)
      .getByText(/^Kept existing by /)
      .waitFor();
    await card(`Harbor Estate Sale ${tag}`)
      .getByText(/^Kept existing by /)
      .waitFor();
    await screenshot(page, 'data-upload-conflicts-done-light');
    await choose('Status', 'Skipped');
    await card(`Unpaid lot 14 ${tag}`)
      .getByText(/^Skipped by /)
      .waitFor();
    expect(unexpected()).toEqual([]);
  });
});
