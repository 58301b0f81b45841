import { expect, inject } from 'vitest';
import type { Auction } from '../../functions/src/auctions/auctions.schema.js';
import { domain, type UploadFile } from './bidders.js';
import { call, type Reply } from './identity.js';

/** Helpers for the auctions API tests: an auction of an account's own, and its catalogue upload. */

/** The account's first house, or null when it has none yet. */
export async function houseOf(token: string) {
  const reply = await call<{ houses: { id: string }[] }>(
    'GET',
    '/accounts/current/auction-houses',
    { token },
  );
  return reply.body.houses[0]?.id ?? null;
}

/** A new Draft auction of the caller's account, in its first house. */
export async function createAuction(token: string, overrides: Record<string, unknown> = {}) {
  const reply = await domain<Auction>('POST', '/auctions', {
    token,
    body: {
      title: 'Spring Fine Art',
      category: 'art',
      startDate: '2031-04-10',
      startTime: '18:00',
      endDate: '2031-04-10',
      endTime: '22:00',
      timeZone: 'America/New_York',
      auctionHouseId: await houseOf(token),
      ...overrides,
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

/** POST /auctions/{id}/lots/import as a browser form would send it (the files in `field`). */
export async function uploadCatalogue(
  token: string | undefined,
  auctionId: string,
  files: UploadFile[],
  field = 'file',
): Promise<Reply<Record<string, unknown>>> {
  const form = new FormData();
  for (const file of files) form.append(field, new Blob([file.data as BlobPart]), file.name);
  const response = await fetch(`${inject('domainUrl')}/auctions/${auctionId}/lots/import`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
    headers: response.headers,
  };
}
