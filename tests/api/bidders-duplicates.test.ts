import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBidder,
  domain,
  fieldsOf,
  freshOwner,
  getBidder,
  list,
  messageOf,
  signedInToken,
  type Bidder,
  type BidderWrite,
  type BidderListItem,
  saveSettings,
} from '../support/bidders.js';
import { database, demo } from '../support/identity.js';

interface Pair {
  id: string;
  bidder1: BidderListItem;
  bidder2: BidderListItem;
  confidenceScore: number;
  matchReasons: string[];
  conflicts: { field: string; value1: string; value2: string }[];
  status: string;
  resolvedAt: string | null;
}
interface Duplicates {
  duplicates: Pair[];
  summary: { pending: number; autoMerged: number; resolved: number; total: number };
}

const duplicates = (token: string, status?: string) =>
  domain<Duplicates>('GET', `/duplicates${status ? `?status=${status}` : ''}`, { token });

/** One person as a house would first register them. */
const marcus = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Marcus',
  lastName: 'Brennan',
  email: 'marcus.brennan@example.com',
  phone: '+1 401 555 0142',
  address: { street: '12 Bellevue Avenue', city: 'Newport', state: 'RI', zip: '02840' },
  ...overrides,
});

/** The same person's second registration: a work address, the phone written differently. */
const marcusAgain = (overrides: Record<string, unknown> = {}) =>
  marcus({
    email: 'm.brennan@brennan-partners.example.com',
    phone: '401-555-0142',
    ...overrides,
  });

/** The merge a reviewer asks for: which record stays, and both as the review showed them. */
function mergeOf(pair: Pair, primaryId: string, resolved?: Record<string, string>) {
  const [primary, secondary] =
    pair.bidder1.id === primaryId ? [pair.bidder1, pair.bidder2] : [pair.bidder2, pair.bidder1];
  return {
    primaryId: primary.id,
    secondaryId: secondary.id,
    primaryEtag: primary.etag,
    secondaryEtag: secondary.etag,
    ...(resolved ? { resolved } : {}),
  };
}

const pairOf = (reply: { body: Duplicates }, one: string, two: string) =>
  reply.body.duplicates.find(
    (pair) => [pair.bidder1.id, pair.bidder2.id].sort().join() === [one, two].sort().join(),
  );

let lakeside: string;
let viewer: string;
let staff: string;
beforeAll(async () => {
  lakeside = await signedInToken(demo.lakesideOwner);
  viewer = await signedInToken(demo.viewer);
  staff = await signedInToken(demo.staff);
});

describe('the Harborview demo duplicates', () => {
  it('holds pending pairs and the auto-merged HV-2003, for anyone who may view bidders', async () => {
    const reply = await duplicates(viewer);
    expect(reply.status).toBe(200);
    expect(reply.body.summary.pending).toBeGreaterThan(0);
    expect(reply.body.summary.autoMerged).toBeGreaterThanOrEqual(1);
    expect(reply.body.summary.total).toBe(reply.body.duplicates.length);
    const merged = (await duplicates(viewer, 'auto-merged')).body.duplicates;
    expect(merged.map((pair) => [pair.bidder1.bidderId, pair.bidder2.bidderId])).toContainEqual([
      'HV-1015',
      'HV-2003',
    ]);
    const pending = (await duplicates(viewer, 'pending')).body.duplicates;
    expect(pending.length).toBe(reply.body.summary.pending);
    expect(pending.every((pair) => pair.status === 'pending')).toBe(true);
    const confidences = pending.map((pair) => pair.confidenceScore);
    expect(confidences).toEqual([...confidences].sort((x, y) => y - x));
  });

  it("keeps one house's pairs from another", async () => {
    const harborview = (await duplicates(viewer, 'pending')).body.duplicates[0] as Pair;
    const reply = await duplicates(lakeside);
    expect(reply.body.duplicates.map((pair) => pair.id)).not.toContain(harborview.id);
    const merge = await domain('POST', `/duplicates/${harborview.id}/merge`, {
      token: lakeside,
      body: mergeOf(harborview, harborview.bidder1.id),
    });
    expect(merge.status).toBe(404);
    expect(
      (await domain('POST', `/duplicates/${harborview.id}/dismiss`, { token: lakeside })).status,
    ).toBe(404);
    expect((await duplicates(viewer, 'pending')).body.duplicates.map((p) => p.id)).toContain(
      harborview.id,
    );
  });

  it('refuses a bad status filter', async () => {
    const reply = await duplicates(viewer, 'maybe');
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['status']);
  });

  it('lets staff rescan, which finds nothing new', async () => {
    const before = (await duplicates(viewer)).body.summary;
    const scan = await domain<{ scanned: number; pending: number; autoMerged: number }>(
      'POST',
      '/duplicates/scan',
      { token: staff },
    );
    expect(scan.status).toBe(200);
    expect(scan.body.scanned).toBe(62);
    expect(scan.body.autoMerged).toBe(0);
    expect(scan.body.pending).toBe(before.pending);
    expect((await duplicates(viewer)).body.summary).toEqual(before);
  });
});

describe('a near-duplicate, reviewed and merged', () => {
  let token: string;
  let first: Bidder;
  let second: Bidder;

  beforeAll(async () => {
    token = (await freshOwner()).token;
    first = await createBidder(token, {
      ...marcus(),
      bidderId: 'MB-1',
      initialNote: 'Registered at the spring preview.',
      preferredCategories: ['Art'],
      stats: { wins: 2, totalLotsBid: 10, paymentsOnTime: 2, lastAuction: '2025-01-10T00:00:00Z' },
    });
    second = await createBidder(token, {
      ...marcusAgain(),
      bidderId: 'MB-2',
      status: 'Pending',
      initialNote: 'Registered online.',
      preferredCategories: ['Watches'],
      stats: { wins: 3, totalLotsBid: 5, paymentsOnTime: 1, lastAuction: '2025-06-01T00:00:00Z' },
    });
  });

  it('records the pair for review with its evidence and conflicts', async () => {
    const reply = await duplicates(token);
    expect(reply.status).toBe(200);
    expect(reply.body.summary).toEqual({ pending: 1, autoMerged: 0, resolved: 0, total: 1 });
    const pair = pairOf(reply, first.id, second.id) as Pair;
    // Same phone 35, same name 25, same address 25, two different e-mails -15.
    expect(pair).toMatchObject({ status: 'pending', confidenceScore: 70, resolvedAt: null });
    expect(pair.matchReasons).toEqual(['Same phone number', 'Same name', 'Same address']);
    expect(pair.conflicts.map((conflict) => conflict.field)).toEqual(['email', 'phone', 'status']);
    const email = pair.conflicts.find((conflict) => conflict.field === 'email');
    expect([email?.value1, email?.value2].sort()).toEqual([first.email, second.email].sort());
  });

  it('refuses a merge that does not name the pair, or a field that cannot be chosen', async () => {
    const pair = pairOf(await duplicates(token), first.id, second.id) as Pair;
    const path = `/duplicates/${pair.id}/merge`;
    const same = await domain('POST', path, {
      token,
      body: { ...mergeOf(pair, first.id), secondaryId: first.id },
    });
    expect(same.status).toBe(400);
    expect(messageOf(same)).toMatch(/^primaryId: /);
    const other = await domain('POST', path, {
      token,
      body: { ...mergeOf(pair, first.id), secondaryId: 'someone-else' },
    });
    expect(other.status).toBe(400);
    const unknownField = await domain('POST', path, {
      token,
      body: mergeOf(pair, first.id, { bidderId: 'X' }),
    });
    expect(unknownField.status).toBe(400);
    expect(messageOf(unknownField)).toBe('resolved: bidderId cannot be merged');
    const { secondaryId: _secondaryId, ...withoutSecondary } = mergeOf(pair, first.id);
    const missing = await domain('POST', path, { token, body: withoutSecondary });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing)).toEqual(['secondaryId']);
    // The versions the review showed are part of the request.
    const unseen = await domain('POST', path, {
      token,
      body: { primaryId: first.id, secondaryId: second.id },
    });
    expect(unseen.status).toBe(400);
    expect(fieldsOf(unseen)).toEqual(['primaryEtag', 'secondaryEtag']);
    expect(
      (
        await domain('POST', '/duplicates/no-such-pair/merge', {
          token,
          body: mergeOf(pair, first.id),
        })
      ).status,
    ).toBe(404);
    // Nothing changed.
    expect((await getBidder(token, second.id)).status).toBe(200);
  });

  it('merges with the chosen values, keeping the second bidder ID as an alias', async () => {
    await domain('POST', `/bidders/${second.id}/notes`, {
      token,
      body: { note: 'Asked about the watch sale.', category: 'Preference' },
    });
    const pair = pairOf(await duplicates(token), first.id, second.id) as Pair;
    const reply = await domain<Bidder>('POST', `/duplicates/${pair.id}/merge`, {
      token,
      body: mergeOf(pair, first.id, { email: second.email as string, status: 'Active' }),
    });
    expect(reply.status).toBe(200);
    const merged = reply.body;
    expect(merged).toMatchObject({
      id: first.id,
      bidderId: 'MB-1',
      aliases: ['MB-2'],
      email: second.email,
      phone: first.phone,
      status: 'Active',
    });
    expect(merged.preferredCategories.sort()).toEqual(['Art', 'Watches']);
    expect(merged.stats).toMatchObject({
      wins: 5,
      totalLotsBid: 15,
      paymentsOnTime: 3,
      lastAuction: '2025-06-01T00:00:00Z',
    });
    const notes = await domain<{ notes: { note: string }[] }>('GET', `/bidders/${first.id}/notes`, {
      token,
    });
    expect(notes.body.notes.map((note) => note.note).sort()).toEqual([
      'Asked about the watch sale.',
      'Registered at the spring preview.',
      'Registered online.',
    ]);
    expect((await getBidder(token, second.id)).status).toBe(404);
    const all = await list(token);
    expect(all.body.total).toBe(1);
    const byAlias = await list(token, { search: 'mb-2' });
    expect(byAlias.body.bidders.map((bidder) => bidder.id)).toEqual([first.id]);
  });

  it('shows the pair as resolved, and refuses to merge or dismiss it again', async () => {
    const reply = await duplicates(token);
    expect(reply.body.summary).toEqual({ pending: 0, autoMerged: 0, resolved: 1, total: 1 });
    const resolved = (await duplicates(token, 'manually-merged')).body.duplicates;
    expect(resolved).toHaveLength(1);
    const pair = resolved[0] as Pair;
    expect(pair.resolvedAt).toBeTruthy();
    // The pair still reads as it was before the merge.
    expect([pair.bidder1.bidderId, pair.bidder2.bidderId]).toEqual(['MB-1', 'MB-2']);
    const again = await domain('POST', `/duplicates/${pair.id}/merge`, {
      token,
      body: {
        primaryId: first.id,
        secondaryId: second.id,
        primaryEtag: first.etag,
        secondaryEtag: second.etag,
      },
    });
    expect(again.status).toBe(409);
    expect(messageOf(again)).toBe('This pair has already been resolved');
    expect((await domain('POST', `/duplicates/${pair.id}/dismiss`, { token })).status).toBe(409);
  });
});

describe('dismissing a pair', () => {
  it('marks it dismissed for good, even after a rescan', async () => {
    const { token } = await freshOwner();
    const one = await createBidder(token, marcus());
    const two = await createBidder(token, marcusAgain());
    const pair = pairOf(await duplicates(token), one.id, two.id) as Pair;
    expect(pair.status).toBe('pending');
    expect((await domain('POST', `/duplicates/${pair.id}/dismiss`, { token: viewer })).status).toBe(
      403,
    );
    const reply = await domain('POST', `/duplicates/${pair.id}/dismiss`, { token });
    expect(reply.status).toBe(204);
    const dismissed = await duplicates(token, 'dismissed');
    expect(dismissed.body.duplicates.map((p) => p.id)).toEqual([pair.id]);
    expect((await duplicates(token, 'pending')).body.duplicates).toEqual([]);
    expect((await domain('POST', `/duplicates/${pair.id}/dismiss`, { token })).status).toBe(409);
    const merge = await domain('POST', `/duplicates/${pair.id}/merge`, {
      token,
      body: mergeOf(pair, one.id),
    });
    expect(merge.status).toBe(409);
    const scan = await domain<{ scanned: number; pending: number }>('POST', '/duplicates/scan', {
      token,
    });
    expect(scan.body).toMatchObject({ scanned: 2, pending: 0, autoMerged: 0 });
    expect((await duplicates(token)).body.summary).toEqual({
      pending: 0,
      autoMerged: 0,
      resolved: 1,
      total: 1,
    });
    expect((await getBidder(token, two.id)).status).toBe(200);
  });
});

describe('automatic merging', () => {
  it('merges a certain match at once at the default threshold', async () => {
    const { token } = await freshOwner();
    const original = await createBidder(token, { ...marcus(), bidderId: 'AM-1' });
    // Same e-mail (Gmail would not care about case), phone, name and address: 100.
    const reply = await domain<BidderWrite>('POST', '/bidders', {
      token,
      body: { ...marcus(), bidderId: 'AM-2', phone: '(401) 555-0142', status: 'Active' },
    });
    // Nothing new was created: the registration was folded into the older record, which is what
    // comes back, saying why.
    expect(reply.status).toBe(200);
    expect(reply.body.id).toBe(original.id);
    expect(reply.body.aliases).toEqual(['AM-2']);
    expect(reply.body.mergedBecause).toEqual(
      expect.arrayContaining(['Same email address', 'Same phone number', 'Same name']),
    );
    const all = await list(token);
    expect(all.body.bidders.map((bidder) => bidder.bidderId)).toEqual(['AM-1']);
    const merged = await duplicates(token, 'auto-merged');
    expect(merged.body.duplicates).toHaveLength(1);
    expect(merged.body.duplicates[0]).toMatchObject({
      confidenceScore: 100,
      status: 'auto-merged',
    });
    expect(merged.body.summary).toMatchObject({ pending: 0, autoMerged: 1 });
  });

  it('merges a bidder edited into a certain match, answering with the record that stays', async () => {
    const { token } = await freshOwner();
    const original = await createBidder(token, { ...marcus(), bidderId: 'ED-1' });
    const later = await createBidder(token, { bidderId: 'ED-2' });
    expect(later.mergedBecause).toBeNull();
    const reply = await domain<BidderWrite>('PUT', `/bidders/${later.id}`, {
      token,
      body: {
        firstName: original.firstName,
        lastName: original.lastName,
        email: original.email,
        phone: original.phone,
        address: original.address,
      },
      headers: { 'if-match': `"${later.etag}"` },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.id).toBe(original.id);
    expect(reply.body.aliases).toEqual(['ED-2']);
    expect(reply.body.mergedBecause).toContain('Same email address');
    expect((await getBidder(token, later.id)).status).toBe(404);
  });

  it('merges a likelier-than-threshold match when the house lowers the threshold', async () => {
    const { token } = await freshOwner();
    const low = await saveSettings(token, { autoMergeThreshold: 70 });
    expect(low.status).toBe(200);
    expect(low.body.autoMergeThreshold).toBe(70);
    const original = await createBidder(token, { ...marcus(), bidderId: 'TM-1' });
    const again = await domain<BidderWrite>('POST', '/bidders', {
      token,
      body: { ...marcusAgain(), bidderId: 'TM-2', status: 'Active' },
    });
    expect(again.status).toBe(200);
    expect(again.body.mergedBecause?.length).toBeGreaterThan(0);
    expect(again.body.id).toBe(original.id);
    const survivor = await getBidder(token, original.id);
    expect(survivor.body.aliases).toEqual(['TM-2']);
    // The older record's own values are kept where the two disagreed.
    expect(survivor.body.email).toBe(original.email);
    const merged = (await duplicates(token, 'auto-merged')).body.duplicates;
    expect(merged).toHaveLength(1);
    expect(merged[0]?.confidenceScore).toBe(70);
    expect([merged[0]?.bidder1.bidderId, merged[0]?.bidder2.bidderId]).toEqual(['TM-1', 'TM-2']);
    expect((await list(token)).body.total).toBe(1);
  });

  it('refuses a threshold below 70', async () => {
    const { token } = await freshOwner();
    const reply = await domain('PUT', '/scoring/settings', {
      token,
      body: { autoMergeThreshold: 60 },
    });
    expect(reply.status).toBe(400);
    expect(fieldsOf(reply)).toEqual(['autoMergeThreshold']);
  });

  it('records a pair found when an edit makes two bidders alike', async () => {
    const { token } = await freshOwner();
    const one = await createBidder(token, marcus());
    // Same name and address but a different e-mail: 25 + 25 - 15, not worth a review yet.
    const two = await createBidder(token, {
      ...marcus(),
      email: 'mb@elsewhere.example.com',
      phone: undefined,
    });
    expect((await duplicates(token)).body.duplicates).toEqual([]);
    const edited = await domain('PUT', `/bidders/${two.id}`, {
      token,
      body: { phone: '401 555 0142' },
      headers: { 'if-match': `"${two.etag}"` },
    });
    expect(edited.status).toBe(200);
    const pair = pairOf(await duplicates(token), one.id, two.id);
    // Now the same phone too: 35 + 25 + 25 - 15.
    expect(pair).toMatchObject({ status: 'pending', confidenceScore: 70 });
  });
});

describe('merging what the reviewer saw', () => {
  it('refuses with 412 when a bidder changed after the review showed it, merging nothing', async () => {
    const { token } = await freshOwner();
    const one = await createBidder(token, marcus());
    const two = await createBidder(token, marcusAgain());
    const shown = pairOf(await duplicates(token, 'pending'), one.id, two.id) as Pair;
    // Someone else edits the second record while the dialog is open.
    const edited = await domain('PUT', `/bidders/${two.id}`, {
      token,
      body: { status: 'Suspended' },
      headers: {
        'if-match': `"${shown.bidder2.id === two.id ? shown.bidder2.etag : shown.bidder1.etag}"`,
      },
    });
    expect(edited.status).toBe(200);
    const merge = await domain('POST', `/duplicates/${shown.id}/merge`, {
      token,
      body: mergeOf(shown, one.id),
    });
    expect(merge.status).toBe(412);
    expect(messageOf(merge)).toBe(
      'One of the two bidders changed meanwhile. Reload and review the pair again.',
    );
    expect((await getBidder(token, two.id)).status).toBe(200);
    expect((await getBidder(token, one.id)).body.aliases).toEqual([]);
    const reloaded = pairOf(await duplicates(token, 'pending'), one.id, two.id) as Pair;
    expect(reloaded.id).toBe(shown.id);
    // Reviewed again, the pair as it is now merges.
    const again = await domain<Bidder>('POST', `/duplicates/${reloaded.id}/merge`, {
      token,
      body: mergeOf(reloaded, one.id),
    });
    expect(again.status).toBe(200);
    expect(again.body.aliases).toEqual([two.bidderId]);
  });

  it('lets either the merge or a concurrent edit win, never both, and keeps every note', async () => {
    for (let round = 0; round < 8; round += 1) {
      const { token } = await freshOwner();
      const one = await createBidder(token, marcus());
      const two = await createBidder(token, marcusAgain());
      const pair = pairOf(await duplicates(token, 'pending'), one.id, two.id) as Pair;
      const [merge, edit, ...notesAdded] = await Promise.all([
        domain('POST', `/duplicates/${pair.id}/merge`, { token, body: mergeOf(pair, one.id) }),
        domain('PUT', `/bidders/${one.id}`, {
          token,
          body: { status: 'Inactive' },
          headers: { 'if-match': `"${one.etag}"` },
        }),
        ...Array.from({ length: 6 }, (_, index) =>
          domain('POST', `/bidders/${index % 2 ? two.id : one.id}/notes`, {
            token,
            body: { note: `Edit ${index}` },
          }),
        ),
      ]);
      expect([merge.status, edit.status].sort()).toEqual([200, 412]);
      const secondary = await getBidder(token, two.id);
      const stillPending = (await duplicates(token, 'pending')).body.duplicates.some(
        (p) => p.id === pair.id,
      );
      if (merge.status === 200) {
        expect(secondary.status).toBe(404);
        expect(stillPending).toBe(false);
      } else {
        expect(messageOf(merge)).toBe(
          'One of the two bidders changed meanwhile. Reload and review the pair again.',
        );
        expect(secondary.status).toBe(200);
        expect(stillPending).toBe(true);
        expect((await getBidder(token, one.id)).body.aliases).toEqual([]);
      }
      // A note never contends with a merge: every note accepted is kept, on whichever record it
      // now lives. Only one for the secondary that arrives after it was merged away is refused.
      const accepted = notesAdded.flatMap((reply, index) => {
        const onSecondary = index % 2 === 1;
        if (reply.status === 201) return [`Edit ${index}`];
        expect([onSecondary && merge.status === 200, reply.status]).toEqual([true, 404]);
        return [];
      });
      const notesOf = async (id: string) =>
        (
          await domain<{ notes: { note: string }[] }>('GET', `/bidders/${id}/notes`, { token })
        ).body.notes.map((note) => note.note);
      const kept =
        merge.status === 200
          ? await notesOf(one.id)
          : [...(await notesOf(one.id)), ...(await notesOf(two.id))];
      expect(kept.sort()).toEqual(accepted.sort());
    }
  });
});

describe('notes a bidder record held before notes were documents of their own', () => {
  it('are still shown beside newer notes, and move to the survivor of a merge', async () => {
    const owner = await freshOwner();
    const { token } = owner;
    const one = await createBidder(token, marcus());
    const two = await createBidder(token, marcusAgain());
    // As the records were written then: the notes inside the bidder document.
    const earlier = (id: string, note: string, date: string) => ({
      id,
      category: 'General',
      isPrivate: true,
      note,
      user: 'Olivia Hart',
      userId: 'earlier-user',
      date,
    });
    const { db, dispose } = await database();
    try {
      const container = db.container('bidders');
      for (const [bidder, note] of [
        [one, earlier('earlier-1', 'Paid late in 2024.', '2024-03-01T10:00:00.000Z')],
        [two, earlier('earlier-2', 'Prefers phone calls.', '2024-05-01T10:00:00.000Z')],
      ] as const) {
        const item = container.item(bidder.id, owner.accountId);
        const { resource } = await item.read<Record<string, unknown>>();
        await item.replace({ ...resource, notes: [note] });
      }
    } finally {
      dispose();
    }
    const notesOf = async (id: string) =>
      (
        await domain<{ notes: { note: string }[] }>('GET', `/bidders/${id}/notes`, { token })
      ).body.notes.map((note) => note.note);
    expect(await notesOf(one.id)).toEqual(['Paid late in 2024.']);
    const added = await domain('POST', `/bidders/${two.id}/notes`, {
      token,
      body: { note: 'Asked about the May sale.' },
    });
    expect(added.status).toBe(201);
    expect(await notesOf(two.id)).toEqual(['Asked about the May sale.', 'Prefers phone calls.']);

    const pair = pairOf(await duplicates(token, 'pending'), one.id, two.id) as Pair;
    const merged = await domain('POST', `/duplicates/${pair.id}/merge`, {
      token,
      body: mergeOf(pair, one.id),
    });
    expect(merged.status).toBe(200);
    expect(await notesOf(one.id)).toEqual([
      'Asked about the May sale.',
      'Prefers phone calls.',
      'Paid late in 2024.',
    ]);
  });
});
