import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sandboxControl } from '../../functions/dev/platforms/client.js';
import type { Auction } from '../../functions/src/auctions/auctions.schema.js';
import type { Lot } from '../../functions/src/auctions/lots/lots.schema.js';
import type {
  BulkResolved,
  Conflict,
  ConflictCounts,
} from '../../functions/src/conflicts/conflicts.schema.js';
import type {
  SyncRun,
  SyncSettings,
} from '../../functions/src/integrations/integrations.schema.js';
import type { LegalCase } from '../../functions/src/legal/legal.schema.js';
import {
  codeOf,
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  getBidder,
  messageOf,
  signedInToken,
  type Bidder,
  type Owner,
} from '../support/bidders.js';
import { database, demo, ifMatch } from '../support/identity.js';
import { usePlatformEnvironment } from '../support/platform-env.js';

// Importers record conflicts in-process, as the upload worker does: this file does the same.
usePlatformEnvironment();
const { recordConflict } = await import('../../functions/src/conflicts/conflicts.service.js');
const { systemContext } = await import('../../functions/src/platform/context.js');

interface ConflictPage {
  items: Conflict[];
  counts: ConflictCounts;
  continuationToken: string | null;
}

const control = () => sandboxControl(inject('platformsUrl'));

const listConflicts = (token: string, query = '') =>
  domain<ConflictPage>('GET', `/data-upload/conflicts${query ? `?${query}` : ''}`, { token });

const readConflict = (token: string, id: string) =>
  domain<Conflict>('GET', `/data-upload/conflicts/${id}`, { token });

const resolve = (token: string, id: string, etag: string | undefined, body: unknown) =>
  domain<Conflict>('POST', `/data-upload/conflicts/${id}/resolve`, {
    token,
    body,
    ...(etag === undefined ? {} : { headers: ifMatch(etag) }),
  });

/** Resolves a conflict as the screen does: read it, then send the choice over its ETag. */
async function resolved(token: string, id: string, body: unknown) {
  const shown = await readConflict(token, id);
  const reply = await resolve(token, id, shown.body.etag, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body;
}

/** A fresh account's only member: its owner, as Legal's assignee list names them. */
const signedInUser = async (token: string) => {
  const reply = await domain<{ assignees: { id: string; name: string }[] }>(
    'GET',
    '/legal/assignees',
    { token },
  );
  const [owner] = reply.body.assignees;
  return { id: owner!.id, name: owner!.name };
};

// Bidders: an imported bidder and one on file, a pending pair of Bidders › Duplicates.

const people = [
  ['Marcus', 'Brennan'],
  ['Adaeze', 'Okafor'],
  ['Signe', 'Lindqvist'],
  ['Paolo', 'Castellano'],
  ['Harriet', 'Whitfield'],
  ['Kenji', 'Nakamura'],
  ['Odile', 'Delacroix'],
  ['Rupert', 'Haverford'],
] as const;
let personCount = 0;

/** Two registrations of one person: the second, as an upload brought it, differs a little. */
async function pendingPair(owner: Owner) {
  const index = personCount % people.length;
  personCount += 1;
  const [firstName, lastName] = people[index]!;
  const tag = randomUUID().slice(0, 6);
  const person = {
    firstName,
    lastName,
    phone: `+1 401 555 ${String(1000 + index * 37 + personCount).slice(-4)}`,
    address: {
      street: `${10 + index} ${lastName} Lane`,
      city: 'Newport',
      state: 'RI',
      zip: '02840',
    },
  };
  const existing = await createBidder(owner.token, {
    ...person,
    bidderId: `ON-${tag}`,
    email: `${firstName.toLowerCase()}.${tag}@example.com`,
  });
  const imported = await createBidder(owner.token, {
    ...person,
    bidderId: `UP-${tag}`,
    email: `${firstName.toLowerCase()}@work-${tag}.example.com`,
    phone: person.phone.replace('+1 ', '').replaceAll(' ', '-'),
    status: 'Pending',
  });
  const pairs = await domain<{ duplicates: { id: string; bidder1: Bidder; bidder2: Bidder }[] }>(
    'GET',
    '/duplicates?status=pending',
    { token: owner.token },
  );
  const pair = pairs.body.duplicates.find(
    (entry) =>
      [entry.bidder1.id, entry.bidder2.id].sort().join() ===
      [existing.id, imported.id].sort().join(),
  );
  if (!pair) throw new Error('no pending pair');
  return { existing, imported, matchId: pair.id };
}

const bidderFields = ['email', 'phone', 'status'] as const;
const bidderLabels = { email: 'Email', phone: 'Phone', status: 'Status' };

/** What the bidder importer records for a pair below the auto-merge threshold. */
async function bidderConflict(owner: Owner, uploadId = 'upload-spring') {
  const { existing, imported, matchId } = await pendingPair(owner);
  const recorded = await recordConflict(systemContext(owner.accountId), {
    key: `upload:${uploadId}:${imported.bidderId}`,
    subject: { type: 'bidder', matchId, existingId: existing.id, importedId: imported.id },
    conflictType: 'duplicate',
    source: { kind: 'upload', uploadId, uploadName: 'Spring registrations.csv' },
    uploadName: 'Spring registrations.csv',
    matchScore: 70,
    existingRecord: { id: existing.id, bidderId: existing.bidderId, email: existing.email },
    importedRecord: { id: imported.id, bidderId: imported.bidderId, email: imported.email },
    guard: { existing: existing.etag, imported: imported.etag },
    fields: bidderFields.map((field) => ({
      field,
      label: bidderLabels[field],
      existing: existing[field],
      imported: imported[field],
    })),
  });
  return { id: recorded.id, existing, imported, matchId };
}

// Legal: an imported case matching one on file.

async function fileCase(token: string, overrides: Record<string, unknown> = {}) {
  const reply = await domain<LegalCase>('POST', '/cases', {
    token,
    body: {
      caseType: 'payment_dispute',
      category: 'post_sale',
      priority: 'medium',
      title: `Unpaid invoice ${randomUUID().slice(0, 6)}`,
      jurisdiction: 'Rhode Island',
      claimAmount: 125_000,
      currency: 'USD',
      ...overrides,
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

async function legalConflict(owner: Owner, uploadId = 'upload-cases') {
  const onFile = await fileCase(owner.token);
  const imported = {
    caseNumber: onFile.caseNumber,
    title: `${onFile.title} (court filing)`,
    priority: 'high',
    jurisdiction: 'Massachusetts',
  };
  const recorded = await recordConflict(systemContext(owner.accountId), {
    key: `upload:${uploadId}:${onFile.caseNumber}`,
    subject: { type: 'legal', existingId: onFile.id, imported },
    conflictType: 'related',
    source: { kind: 'upload', uploadId, uploadName: 'Cases 2025.xlsx' },
    uploadName: 'Cases 2025.xlsx',
    matchScore: 90,
    existingRecord: { id: onFile.id, caseNumber: onFile.caseNumber, title: onFile.title },
    importedRecord: imported,
    guard: { existing: onFile.etag, imported: null },
    fields: [
      { field: 'title', label: 'Title', existing: onFile.title, imported: imported.title },
      { field: 'priority', label: 'Priority', existing: onFile.priority, imported: 'high' },
      {
        field: 'jurisdiction',
        label: 'Jurisdiction',
        existing: onFile.jurisdiction,
        imported: imported.jurisdiction,
      },
    ],
  });
  return { id: recorded.id, onFile, imported };
}

/** The audit entries about one conflict (no route reads the audit log). */
async function auditOf(accountId: string, conflictId: string) {
  const { db, dispose } = await database();
  try {
    const { resources } = await db
      .container('audit')
      .items.query<{ action: string; actor: { userId: string | null }; after: unknown }>({
        query:
          'SELECT * FROM c WHERE c.accountId = @accountId AND c.entity.type = "conflict" AND c.entity.id = @id',
        parameters: [
          { name: '@accountId', value: accountId },
          { name: '@id', value: conflictId },
        ],
      })
      .fetchAll();
    return resources;
  } finally {
    dispose();
  }
}

const readCase = async (token: string, id: string) =>
  (await domain<LegalCase>('GET', `/cases/${id}`, { token })).body;

describe('recording and listing conflicts', () => {
  let owner: Owner;
  let first: Awaited<ReturnType<typeof bidderConflict>>;
  let legal: Awaited<ReturnType<typeof legalConflict>>;
  beforeAll(async () => {
    owner = await freshOwner();
    first = await bidderConflict(owner, 'upload-a');
    await bidderConflict(owner, 'upload-b');
    legal = await legalConflict(owner, 'upload-a');
  });

  it('records a conflict once per key, however often an import runs again', async () => {
    const again = await recordConflict(systemContext(owner.accountId), {
      key: `upload:upload-a:${first.imported.bidderId}`,
      subject: {
        type: 'bidder',
        matchId: first.matchId,
        existingId: first.existing.id,
        importedId: first.imported.id,
      },
      conflictType: 'duplicate',
      source: { kind: 'upload', uploadId: 'upload-a', uploadName: 'Spring registrations.csv' },
      uploadName: 'Spring registrations.csv',
      matchScore: 70,
      existingRecord: null,
      importedRecord: {},
      fields: [],
      guard: { existing: null, imported: null },
    });
    expect(again).toEqual({ id: first.id, created: false });
    expect((await listConflicts(owner.token)).body.counts.total).toBe(3);
  });

  it('lists newest first with the six counters, and the conflict as the model of 3.6', async () => {
    const reply = await listConflicts(owner.token);
    expect(reply.status).toBe(200);
    expect(reply.body.counts).toEqual({
      total: 3,
      pending: 3,
      resolved: 0,
      bidders: 2,
      auctions: 0,
      legal: 1,
    });
    expect(reply.body.items.map((item) => item.type)).toEqual(['legal', 'bidder', 'bidder']);
    const bidder = reply.body.items.find((item) => item.id === first.id);
    expect(bidder).toMatchObject({
      type: 'bidder',
      uploadId: 'upload-a',
      uploadName: 'Spring registrations.csv',
      conflictType: 'duplicate',
      status: 'pending',
      matchScore: 70,
      existingId: first.existing.id,
      resolution: null,
      resolvedBy: null,
      resolvedAt: null,
    });
    expect(bidder?.fields.map((field) => field.field)).toEqual(['email', 'phone', 'status']);
    const one = await readConflict(owner.token, first.id);
    expect(one.status).toBe(200);
    expect(one.headers.get('etag')).toBe(`"${one.body.etag}"`);
  });

  it('filters by type, status and upload; the counters stay the account’s', async () => {
    const bidders = await listConflicts(owner.token, 'type=bidder');
    expect(bidders.body.items.map((item) => item.type)).toEqual(['bidder', 'bidder']);
    expect(bidders.body.counts.total).toBe(3);
    const fromA = await listConflicts(owner.token, 'uploadId=upload-a');
    expect(fromA.body.items.map((item) => item.id).sort()).toEqual([first.id, legal.id].sort());
    const legalFromA = await listConflicts(owner.token, 'uploadId=upload-a&type=legal');
    expect(legalFromA.body.items.map((item) => item.id)).toEqual([legal.id]);
    expect((await listConflicts(owner.token, 'status=resolved')).body.items).toEqual([]);
  });

  it('pages with continuation tokens', async () => {
    const seen: string[] = [];
    let token: string | null = null;
    do {
      const query: string = `pageSize=1${token ? `&continuationToken=${encodeURIComponent(token)}` : ''}`;
      const page = await listConflicts(owner.token, query);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(1);
      seen.push(...page.body.items.map((item) => item.id));
      token = page.body.continuationToken;
    } while (token);
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
  });

  it('refuses bad filters naming the field', async () => {
    for (const [query, field] of [
      ['type=lot', 'type'],
      ['status=open', 'status'],
      ['pageSize=0', 'pageSize'],
      ['continuationToken=not-a-token', 'continuationToken'],
    ] as const) {
      const reply = await listConflicts(owner.token, query);
      expect(reply.status, query).toBe(400);
      expect(fieldsOf(reply)).toEqual([field]);
    }
  });

  it('is for people who import data: demo staff and viewers are refused', async () => {
    for (const who of [demo.staff, demo.viewer]) {
      const token = await signedInToken(who);
      expect((await listConflicts(token)).status).toBe(403);
      expect((await readConflict(token, first.id)).status).toBe(403);
      const reply = await resolve(token, first.id, 'x', { resolution: 'skip' });
      expect(reply.status).toBe(403);
      const bulk = await domain('POST', '/data-upload/conflicts/bulk-resolve', {
        token,
        body: { filter: {}, resolution: 'skip' },
      });
      expect(bulk.status).toBe(403);
    }
  });

  it("keeps another house's conflicts out of reach (404)", async () => {
    const other = await freshOwner();
    expect((await listConflicts(other.token)).body.counts.total).toBe(0);
    expect((await readConflict(other.token, first.id)).status).toBe(404);
    const shown = await readConflict(owner.token, first.id);
    const reply = await resolve(other.token, first.id, shown.body.etag, { resolution: 'skip' });
    expect(reply.status).toBe(404);
    const bulk = await domain<BulkResolved>('POST', '/data-upload/conflicts/bulk-resolve', {
      token: other.token,
      body: { filter: {}, resolution: 'skip' },
    });
    expect(bulk.body).toEqual({ resolved: 0, skipped: 0, failed: [], remaining: 0 });
    expect((await readConflict(owner.token, first.id)).body.status).toBe('pending');
  });
});

describe('resolving a bidder conflict', () => {
  let owner: Owner;
  let me: { id: string; name: string };
  beforeAll(async () => {
    owner = await freshOwner();
    me = await signedInUser(owner.token);
  });

  it('keep existing: the imported bidder goes into the one on file, which keeps its values', async () => {
    const { id, existing, imported } = await bidderConflict(owner);
    const done = await resolved(owner.token, id, { resolution: 'keep_existing' });
    expect(done).toMatchObject({
      status: 'resolved',
      resolution: 'keep_existing',
      choices: null,
      resolvedBy: { id: me.id, name: me.name },
    });
    expect(Date.now() - Date.parse(done.resolvedAt!)).toBeLessThan(60_000);
    expect(done.note).toContain(imported.bidderId);
    expect((await getBidder(owner.token, imported.id)).status).toBe(404);
    const survivor = (await getBidder(owner.token, existing.id)).body;
    expect(survivor).toMatchObject({
      email: existing.email,
      phone: existing.phone,
      status: existing.status,
    });
    expect(survivor.aliases).toContain(imported.bidderId);
    const merged = await domain<{ duplicates: { id: string }[] }>(
      'GET',
      '/duplicates?status=manually-merged',
      { token: owner.token },
    );
    expect(merged.body.duplicates).toHaveLength(1);
    const audit = await auditOf(owner.accountId, id);
    expect(audit.map((entry) => entry.action).sort()).toEqual([
      'conflict.record',
      'conflict.resolve',
    ]);
    expect(audit.find((entry) => entry.action === 'conflict.resolve')).toMatchObject({
      actor: { userId: me.id },
      after: { status: 'resolved', resolution: 'keep_existing' },
    });
  });

  it('use imported: the bidder on file takes the imported values', async () => {
    const { id, existing, imported } = await bidderConflict(owner);
    await resolved(owner.token, id, { resolution: 'use_imported' });
    expect((await getBidder(owner.token, imported.id)).status).toBe(404);
    expect((await getBidder(owner.token, existing.id)).body).toMatchObject({
      email: imported.email,
      phone: imported.phone,
      status: imported.status,
      bidderId: existing.bidderId,
    });
  });

  it('merge: a side per field, every differing field named', async () => {
    const { id, existing, imported } = await bidderConflict(owner);
    const shown = await readConflict(owner.token, id);
    const partial = await resolve(owner.token, id, shown.body.etag, {
      resolution: 'merge',
      choices: { email: 'imported', phone: 'existing' },
    });
    expect(partial.status).toBe(400);
    expect(fieldsOf(partial)).toEqual(['choices.status']);
    const unknown = await resolve(owner.token, id, shown.body.etag, {
      resolution: 'merge',
      choices: { email: 'imported', phone: 'existing', status: 'existing', shoeSize: 'imported' },
    });
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown)).toEqual(['choices.shoeSize']);
    const badSide = await resolve(owner.token, id, shown.body.etag, {
      resolution: 'merge',
      choices: { email: 'both' },
    });
    expect(badSide.status).toBe(400);
    expect(fieldsOf(badSide)).toEqual(['choices.email']);
    const choices = { email: 'imported', phone: 'existing', status: 'existing' };
    const done = await resolve(owner.token, id, shown.body.etag, { resolution: 'merge', choices });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ status: 'resolved', resolution: 'merge', choices });
    expect((await getBidder(owner.token, existing.id)).body).toMatchObject({
      email: imported.email,
      phone: existing.phone,
      status: existing.status,
    });
  });

  it('skip: nothing changes, and the pair waits in Bidders › Duplicates', async () => {
    const { id, existing, imported, matchId } = await bidderConflict(owner);
    const done = await resolved(owner.token, id, { resolution: 'skip' });
    expect(done).toMatchObject({ status: 'skipped', resolution: null, resolvedBy: me });
    expect((await getBidder(owner.token, existing.id)).status).toBe(200);
    expect((await getBidder(owner.token, imported.id)).status).toBe(200);
    const pending = await domain<{ duplicates: { id: string }[] }>(
      'GET',
      '/duplicates?status=pending',
      { token: owner.token },
    );
    expect(pending.body.duplicates.map((pair) => pair.id)).toContain(matchId);
    const again = await resolve(owner.token, id, done.etag, { resolution: 'keep_existing' });
    expect(again.status).toBe(409);
    expect(messageOf(again)).toBe('This conflict has already been skipped');
  });

  it('answers 409 for a conflict already resolved, and changes nothing more', async () => {
    const { id } = await bidderConflict(owner);
    const done = await resolved(owner.token, id, { resolution: 'keep_existing' });
    const again = await resolve(owner.token, id, done.etag, { resolution: 'use_imported' });
    expect(again.status).toBe(409);
    expect(codeOf(again)).toBe('conflict');
    expect(messageOf(again)).toBe('This conflict has already been resolved');
    expect((await readConflict(owner.token, id)).body.resolution).toBe('keep_existing');
  });

  it('reports a pair already reviewed in Bidders › Duplicates, and marks the conflict resolved', async () => {
    const { id, existing, imported, matchId } = await bidderConflict(owner);
    const dismissed = await domain('POST', `/duplicates/${matchId}/dismiss`, {
      token: owner.token,
    });
    expect(dismissed.status).toBe(204);
    const shown = await readConflict(owner.token, id);
    const reply = await resolve(owner.token, id, shown.body.etag, { resolution: 'use_imported' });
    expect(reply.status).toBe(409);
    expect(messageOf(reply)).toMatch(/already reviewed in Bidders › Duplicates/);
    const after = (await readConflict(owner.token, id)).body;
    expect(after).toMatchObject({ status: 'resolved', resolution: null, resolvedBy: me });
    expect(after.note).toBe(messageOf(reply));
    // Nothing was applied: both stay as they were.
    expect((await getBidder(owner.token, existing.id)).body.email).toBe(existing.email);
    expect((await getBidder(owner.token, imported.id)).status).toBe(200);
  });

  it('needs the conflict’s ETag: 428 without, 412 when stale', async () => {
    const { id } = await bidderConflict(owner);
    const missing = await resolve(owner.token, id, undefined, { resolution: 'skip' });
    expect(missing.status).toBe(428);
    const stale = await resolve(owner.token, id, 'not-the-etag', { resolution: 'skip' });
    expect(stale.status).toBe(412);
    expect((await readConflict(owner.token, id)).body.status).toBe('pending');
  });

  it('refuses bad input naming the field', async () => {
    const { id } = await bidderConflict(owner);
    const shown = await readConflict(owner.token, id);
    const reply = await resolve(owner.token, id, shown.body.etag, { resolution: 'maybe' });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['resolution']);
    const noChoices = await resolve(owner.token, id, shown.body.etag, { resolution: 'merge' });
    expect(noChoices.status).toBe(400);
    expect(fieldsOf(noChoices)).toEqual(['choices']);
  });

  it('refuses with 412 when the bidder on file changed since, and shows its new values', async () => {
    const { id, existing, imported } = await bidderConflict(owner);
    const shown = await readConflict(owner.token, id);
    const current = await getBidder(owner.token, existing.id);
    const edited = await domain('PUT', `/bidders/${existing.id}`, {
      token: owner.token,
      body: { email: 'front-desk-correction@example.com' },
      headers: ifMatch(current.body.etag),
    });
    expect(edited.status).toBe(200);
    const reply = await resolve(owner.token, id, shown.body.etag, { resolution: 'use_imported' });
    expect(reply.status).toBe(412);
    expect(messageOf(reply)).toMatch(/record on file changed/);
    const refreshed = (await readConflict(owner.token, id)).body;
    expect(refreshed.status).toBe('pending');
    expect(refreshed.etag).not.toBe(shown.body.etag);
    expect(refreshed.fields.find((field) => field.field === 'email')).toMatchObject({
      existing: 'front-desk-correction@example.com',
      imported: imported.email,
    });
    // Nothing was applied; deciding again over the values now shown works.
    expect((await getBidder(owner.token, imported.id)).status).toBe(200);
    await resolved(owner.token, id, { resolution: 'keep_existing' });
    expect((await getBidder(owner.token, existing.id)).body.email).toBe(
      'front-desk-correction@example.com',
    );
  });

  it('lets one of two people resolving at once win; the other is told', async () => {
    const { id, existing, imported } = await bidderConflict(owner);
    const shown = await readConflict(owner.token, id);
    const replies = await Promise.all([
      resolve(owner.token, id, shown.body.etag, { resolution: 'keep_existing' }),
      resolve(owner.token, id, shown.body.etag, { resolution: 'use_imported' }),
    ]);
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses[0]).toBe(200);
    expect([409, 412]).toContain(statuses[1]);
    const winner = replies.find((reply) => reply.status === 200)!.body;
    expect((await readConflict(owner.token, id)).body.resolution).toBe(winner.resolution);
    expect((await getBidder(owner.token, imported.id)).status).toBe(404);
    expect((await getBidder(owner.token, existing.id)).body.email).toBe(
      winner.resolution === 'keep_existing' ? existing.email : imported.email,
    );
  });
});

describe('resolving a legal conflict', () => {
  let owner: Owner;
  beforeAll(async () => {
    owner = await freshOwner();
  });

  it('use imported updates the case on file through its ETag, with a timeline entry', async () => {
    const { id, onFile, imported } = await legalConflict(owner);
    const done = await resolved(owner.token, id, { resolution: 'use_imported' });
    expect(done.note).toMatch(/updated: Title, Priority, Jurisdiction/);
    const now = await readCase(owner.token, onFile.id);
    expect(now).toMatchObject({
      title: imported.title,
      priority: 'high',
      jurisdiction: 'Massachusetts',
    });
    expect(now.etag).not.toBe(onFile.etag);
  });

  it('merge takes the imported side only where chosen', async () => {
    const { id, onFile, imported } = await legalConflict(owner);
    await resolved(owner.token, id, {
      resolution: 'merge',
      choices: { title: 'imported', priority: 'existing', jurisdiction: 'existing' },
    });
    expect(await readCase(owner.token, onFile.id)).toMatchObject({
      title: imported.title,
      priority: onFile.priority,
      jurisdiction: onFile.jurisdiction,
    });
  });

  it('keep existing and skip change nothing', async () => {
    for (const resolution of ['keep_existing', 'skip'] as const) {
      const { id, onFile } = await legalConflict(owner);
      const done = await resolved(owner.token, id, { resolution });
      expect(done.status).toBe(resolution === 'skip' ? 'skipped' : 'resolved');
      expect((await readCase(owner.token, onFile.id)).etag).toBe(onFile.etag);
    }
  });

  it('refuses with 412 when the case changed since, refreshing what the conflict shows', async () => {
    const { id, onFile } = await legalConflict(owner);
    const shown = await readConflict(owner.token, id);
    const edited = await domain<LegalCase>('PUT', `/cases/${onFile.id}`, {
      token: owner.token,
      body: { title: 'Renamed by the legal team' },
      headers: ifMatch(onFile.etag),
    });
    expect(edited.status).toBe(200);
    const reply = await resolve(owner.token, id, shown.body.etag, { resolution: 'use_imported' });
    expect(reply.status).toBe(412);
    expect(messageOf(reply)).toMatch(/record on file changed/);
    const refreshed = (await readConflict(owner.token, id)).body;
    expect(refreshed.fields.find((field) => field.field === 'title')?.existing).toBe(
      'Renamed by the legal team',
    );
    expect(refreshed.existingRecord).toMatchObject({ title: 'Renamed by the legal team' });
    expect((await readCase(owner.token, onFile.id)).title).toBe('Renamed by the legal team');
  });

  it('applies a choice only for a caller who may edit the record: importing data alone skips', async () => {
    const { id, onFile } = await legalConflict(owner);
    const keyOf = async (permissions: string[]) => {
      const reply = await domain<{ key: string }>('POST', '/api-keys', {
        token: owner.token,
        body: { name: `Conflicts ${permissions.join(' ')}`, permissions },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      return reply.body.key;
    };
    const importer = await keyOf(['data:import']);
    const shown = await readConflict(importer, id);
    expect(shown.status).toBe(200);
    const refused = await resolve(importer, id, shown.body.etag, { resolution: 'use_imported' });
    expect(refused.status).toBe(403);
    expect(messageOf(refused)).toContain('legal:edit');
    expect((await readCase(owner.token, onFile.id)).etag).toBe(onFile.etag);
    // Nothing was claimed: the one who may edit the case applies it at once.
    const editor = await keyOf(['data:import', 'legal:edit']);
    const done = await resolved(editor, id, { resolution: 'use_imported' });
    expect(done.status).toBe('resolved');
    const other = await legalConflict(owner);
    expect((await resolved(importer, other.id, { resolution: 'skip' })).status).toBe('skipped');
  });

  it('guards by the version whose values it shows, though the case changed before it was recorded', async () => {
    const onFile = await fileCase(owner.token);
    // The importer read the case; someone renames it before the conflict is stored.
    const edited = await domain<LegalCase>('PUT', `/cases/${onFile.id}`, {
      token: owner.token,
      body: { title: 'Renamed while importing' },
      headers: ifMatch(onFile.etag),
    });
    expect(edited.status).toBe(200);
    const recorded = await recordConflict(systemContext(owner.accountId), {
      key: `upload:upload-raced:${onFile.caseNumber}`,
      subject: { type: 'legal', existingId: onFile.id, imported: { priority: 'high' } },
      conflictType: 'related',
      source: { kind: 'upload', uploadId: 'upload-raced', uploadName: 'Raced.csv' },
      uploadName: 'Raced.csv',
      matchScore: 90,
      existingRecord: { id: onFile.id, caseNumber: onFile.caseNumber, title: onFile.title },
      importedRecord: { priority: 'high' },
      fields: [
        { field: 'priority', label: 'Priority', existing: onFile.priority, imported: 'high' },
      ],
      guard: { existing: onFile.etag, imported: null },
    });
    const shown = await readConflict(owner.token, recorded.id);
    const reply = await resolve(owner.token, recorded.id, shown.body.etag, {
      resolution: 'use_imported',
    });
    expect(reply.status).toBe(412);
    expect((await readConflict(owner.token, recorded.id)).body.existingRecord).toMatchObject({
      title: 'Renamed while importing',
    });
    expect((await readCase(owner.token, onFile.id)).priority).toBe(onFile.priority);
  });

  it('answers 409 when the case was deleted since: only skip is left', async () => {
    const { id, onFile } = await legalConflict(owner);
    const removed = await domain('DELETE', `/cases/${onFile.id}`, {
      token: owner.token,
      headers: ifMatch(onFile.etag),
    });
    expect(removed.status).toBe(204);
    const shown = await readConflict(owner.token, id);
    const reply = await resolve(owner.token, id, shown.body.etag, { resolution: 'use_imported' });
    expect(reply.status).toBe(409);
    expect(messageOf(reply)).toMatch(/has been deleted since/);
    const now = (await readConflict(owner.token, id)).body;
    expect(now).toMatchObject({ status: 'pending', existingRecord: null });
    expect((await resolved(owner.token, id, { resolution: 'skip' })).status).toBe('skipped');
  });

  it('bulk resolves a filtered set, listing the one whose case changed, and says what remains', async () => {
    const fresh = await freshOwner();
    const made = [];
    for (let index = 0; index < 4; index += 1) made.push(await legalConflict(fresh, 'bulk'));
    await bidderConflict(fresh, 'bulk');
    const changed = made[1]!;
    const edited = await domain('PUT', `/cases/${changed.onFile.id}`, {
      token: fresh.token,
      body: { description: 'Called the bidder' },
      headers: ifMatch(changed.onFile.etag),
    });
    expect(edited.status).toBe(200);
    const bad = await domain('POST', '/data-upload/conflicts/bulk-resolve', {
      token: fresh.token,
      body: { filter: { type: 'case' }, resolution: 'use_imported' },
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toEqual(['filter.type']);
    const merge = await domain('POST', '/data-upload/conflicts/bulk-resolve', {
      token: fresh.token,
      body: { filter: {}, resolution: 'merge' },
    });
    expect(fieldsOf(merge)).toEqual(['resolution']);

    // Newest first: the three latest, of which the second is the changed one.
    const first = await domain<BulkResolved>('POST', '/data-upload/conflicts/bulk-resolve', {
      token: fresh.token,
      body: { filter: { type: 'legal', uploadId: 'bulk' }, resolution: 'use_imported', limit: 3 },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      resolved: 2,
      skipped: 0,
      failed: [{ id: changed.id, message: expect.stringMatching(/record on file changed/) }],
      remaining: 1,
    });
    expect((await readCase(fresh.token, changed.onFile.id)).title).toBe(changed.onFile.title);
    expect((await readConflict(fresh.token, changed.id)).body.status).toBe('pending');
    // The changed one now shows its case as it is: a second pass applies over that.
    const second = await domain<BulkResolved>('POST', '/data-upload/conflicts/bulk-resolve', {
      token: fresh.token,
      body: { filter: { type: 'legal', uploadId: 'bulk' }, resolution: 'use_imported' },
    });
    expect(second.body).toEqual({ resolved: 2, skipped: 0, failed: [], remaining: 0 });
    for (const entry of made) {
      expect((await readCase(fresh.token, entry.onFile.id)).title).toBe(entry.imported.title);
    }
    expect((await readCase(fresh.token, changed.onFile.id)).description).toBe('Called the bidder');
    const counts = (await listConflicts(fresh.token)).body.counts;
    expect(counts).toEqual({
      total: 5,
      pending: 1,
      resolved: 4,
      bidders: 1,
      auctions: 0,
      legal: 4,
    });
  });
});

// Auctions: conflicts a platform sync keeps under manual review.

async function saveSync(owner: Owner, changes: Partial<SyncSettings>) {
  const read = await domain<{ etag: string }>('GET', '/settings/sync', { token: owner.token });
  const saved = await domain('PUT', '/settings/sync', {
    token: owner.token,
    body: changes,
    headers: ifMatch(read.body.etag),
  });
  expect(saved.status).toBe(200);
}

async function connect(owner: Owner, platform: string, key: string) {
  await saveSync(owner, { frequency: 'manual', realTimeSync: false });
  const reply = await domain('PUT', `/platforms/${encodeURIComponent(platform)}/connection`, {
    token: owner.token,
    body: { apiKey: key },
  });
  expect(reply.status).toBe(200);
}

async function sync(owner: Owner, platform: string): Promise<SyncRun> {
  const started = await domain<SyncRun>('POST', `/platforms/sync/${platform}`, {
    token: owner.token,
  });
  expect(started.status).toBe(202);
  for (let polls = 0; polls < 300; polls += 1) {
    const logs = await domain<{ runs: SyncRun[] }>('GET', `/platforms/${platform}/logs`, {
      token: owner.token,
    });
    const run = logs.body.runs.find((entry) => entry.id === started.body.id);
    if (run && run.status !== 'queued' && run.status !== 'running') return run;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error('sync did not finish');
}

const auctionOf = async (owner: Owner, id: string) =>
  (await domain<Auction>('GET', `/auctions/${id}`, { token: owner.token })).body;

const pendingAuctionConflicts = async (owner: Owner) =>
  (await listConflicts(owner.token, 'type=auction&status=pending')).body.items;

describe('resolving an auction both sides changed (sync under manual review)', () => {
  let owner: Owner;
  let key: string;
  let externalId: string;
  let auctionId: string;
  beforeAll(async () => {
    owner = await freshOwner();
    ({ key } = await control().createAccount({
      platform: 'BidSquare',
      auctions: 1,
      lotsPerAuction: 2,
      bidders: 0,
    }));
    externalId = (await control().account(key)).auctions[0]!.externalId;
    await control().changeAuction(key, externalId, { status: 'upcoming' });
    await connect(owner, 'BidSquare', key);
    const imported = await domain<{ change: { localId: string } }>('POST', '/import/BidSquare', {
      token: owner.token,
      body: { externalId },
    });
    auctionId = imported.body.change.localId;
    await saveSync(owner, { conflictPolicy: 'manual_review' });
  });

  async function bothChange(round: string) {
    const read = await auctionOf(owner, auctionId);
    const edited = await domain('PUT', `/auctions/${auctionId}`, {
      token: owner.token,
      body: { title: `Local ${round}` },
      headers: ifMatch(read.etag),
    });
    expect(edited.status).toBe(200);
    await control().changeAuction(key, externalId, { title: `Platform ${round}` });
    const run = await sync(owner, 'BidSquare');
    expect(run.counts.conflicts).toBe(1);
    const [conflict] = await pendingAuctionConflicts(owner);
    expect(
      conflict?.fields.map((field) => field.field),
      JSON.stringify(conflict?.fields),
    ).toContain('title');
    return conflict!;
  }

  it('records the sync’s conflict once, with the differing fields', async () => {
    const conflict = await bothChange('a');
    expect(conflict).toMatchObject({
      type: 'auction',
      conflictType: 'mismatch',
      uploadId: null,
      uploadName: 'BidSquare sync',
      source: { kind: 'sync', platform: 'BidSquare', externalId },
      matchScore: null,
      existingId: auctionId,
    });
    expect(conflict.fields).toEqual([
      { field: 'title', label: 'Title', existing: 'Local a', imported: 'Platform a' },
    ]);
    // A pull of the same platform change meets it again: still one conflict.
    const pulled = await domain<SyncRun>('PUT', `/auctions/${auctionId}/sync/BidSquare`, {
      token: owner.token,
      body: { direction: 'pull' },
    });
    expect(pulled.body.changes[0]).toMatchObject({ action: 'conflict' });
    expect((await listConflicts(owner.token, 'type=auction')).body.counts.auctions).toBe(1);
  });

  it('use imported applies the platform’s values and settles the link: no conflict again', async () => {
    const [conflict] = await pendingAuctionConflicts(owner);
    const done = await resolved(owner.token, conflict!.id, { resolution: 'use_imported' });
    expect(done.note).toMatch(/BidSquare's values applied: Title/);
    expect((await auctionOf(owner, auctionId)).title).toBe('Platform a');
    const pulled = await domain<SyncRun>('PUT', `/auctions/${auctionId}/sync/BidSquare`, {
      token: owner.token,
      body: { direction: 'pull' },
    });
    expect(pulled.body.changes[0]?.action).not.toBe('conflict');
    await control().changeAuction(key, externalId, { description: 'Now with a catalogue note' });
    const run = await sync(owner, 'BidSquare');
    expect(run.counts).toMatchObject({ conflicts: 0, updated: 1 });
    expect(await pendingAuctionConflicts(owner)).toEqual([]);
  });

  it('keep existing keeps the house’s values and marks the platform’s change seen', async () => {
    const conflict = await bothChange('b');
    const done = await resolved(owner.token, conflict.id, { resolution: 'keep_existing' });
    expect(done).toMatchObject({ status: 'resolved', resolution: 'keep_existing' });
    expect((await auctionOf(owner, auctionId)).title).toBe('Local b');
    const run = await sync(owner, 'BidSquare');
    expect(run.counts.conflicts).toBe(0);
    expect(await pendingAuctionConflicts(owner)).toEqual([]);
  });

  it('refuses with 412 when the auction changed since, showing its new values', async () => {
    const conflict = await bothChange('c');
    const read = await auctionOf(owner, auctionId);
    await domain('PUT', `/auctions/${auctionId}`, {
      token: owner.token,
      body: { title: 'Local c, corrected' },
      headers: ifMatch(read.etag),
    });
    // The title from the platform; anything else that differs stays the house's.
    const choices = Object.fromEntries(
      conflict.fields.map((field) => [
        field.field,
        field.field === 'title' ? 'imported' : 'existing',
      ]),
    );
    const reply = await resolve(owner.token, conflict.id, conflict.etag, {
      resolution: 'merge',
      choices,
    });
    expect(reply.status, JSON.stringify({ fields: conflict.fields, reply: reply.body })).toBe(412);
    expect(messageOf(reply)).toMatch(/record on file changed/);
    const refreshed = (await readConflict(owner.token, conflict.id)).body;
    expect(refreshed.fields.find((field) => field.field === 'title')).toMatchObject({
      existing: 'Local c, corrected',
      imported: 'Platform c',
    });
    await resolved(owner.token, conflict.id, { resolution: 'merge', choices });
    expect((await auctionOf(owner, auctionId)).title).toBe('Platform c');
  });
});

describe('resolving a platform sale like one the house typed (sync under manual review)', () => {
  async function houseAndTwin() {
    const owner = await freshOwner();
    const { key } = await control().createAccount({
      platform: 'Invaluable',
      auctions: 1,
      lotsPerAuction: 2,
      bidders: 0,
    });
    const sale = (await control().account(key)).auctions[0]!;
    await control().changeAuction(key, sale.externalId, { status: 'upcoming' });
    await connect(owner, 'Invaluable', key);
    await saveSync(owner, { duplicateHandling: 'manual_review' });
    const zone = sale.timeZone ?? 'America/New_York';
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(
      new Date(sale.startsAt),
    );
    const made = await domain<Auction>('POST', '/auctions', {
      token: owner.token,
      body: {
        title: sale.title,
        category: 'art',
        startDate: day,
        startTime: '09:00',
        endDate: day,
        endTime: '23:00',
        timeZone: zone,
        description: 'Typed in by the front desk',
      },
    });
    expect(made.status).toBe(201);
    const run = await sync(owner, 'Invaluable');
    expect(run.changes[0]).toMatchObject({ action: 'conflict', localId: made.body.id });
    const [conflict] = await pendingAuctionConflicts(owner);
    expect(conflict).toMatchObject({
      conflictType: 'duplicate',
      matchScore: 100,
      existingId: made.body.id,
    });
    return { owner, sale, twin: made.body, conflict: conflict! };
  }

  const linkedTo = async (owner: Owner, externalId: string) =>
    (
      await domain<{ auctions: { externalId: string; auctionId: string | null }[] }>(
        'GET',
        '/platforms/Invaluable/auctions',
        { token: owner.token },
      )
    ).body.auctions.find((auction) => auction.externalId === externalId)?.auctionId;

  it('use imported links the platform sale to the house’s auction, with its values and lots', async () => {
    const { owner, sale, twin, conflict } = await houseAndTwin();
    expect(conflict.fields.map((field) => field.field)).toContain('description');
    await resolved(owner.token, conflict.id, { resolution: 'use_imported' });
    expect(await linkedTo(owner, sale.externalId)).toBe(twin.id);
    const now = await auctionOf(owner, twin.id);
    expect(now.description).toBe(sale.description.slice(0, 5000));
    const lots = await domain<{ lots: Lot[] }>('GET', `/auctions/${twin.id}/lots`, {
      token: owner.token,
    });
    expect(lots.body.lots).toHaveLength(2);
    const all = await domain<{ total: number }>('GET', '/listAuctions?limit=100', {
      token: owner.token,
    });
    expect(all.body.total).toBe(1);
  });

  it('keep existing links it keeping the house’s values; skip leaves it unlinked', async () => {
    const kept = await houseAndTwin();
    await resolved(kept.owner.token, kept.conflict.id, { resolution: 'keep_existing' });
    expect(await linkedTo(kept.owner, kept.sale.externalId)).toBe(kept.twin.id);
    expect((await auctionOf(kept.owner, kept.twin.id)).description).toBe(
      'Typed in by the front desk',
    );

    const skipped = await houseAndTwin();
    await resolved(skipped.owner.token, skipped.conflict.id, { resolution: 'skip' });
    expect(await linkedTo(skipped.owner, skipped.sale.externalId)).toBeNull();
    expect((await auctionOf(skipped.owner, skipped.twin.id)).etag).toBe(skipped.twin.etag);
  });
});
