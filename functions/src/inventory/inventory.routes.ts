import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { payloadTooLarge } from '../platform/errors.js';
import type { FunctionTable } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { readForm } from '../uploads/files.js';
import {
  MAX_PHOTO_BYTES,
  PHOTO_FIELD,
  addGroupToAuctionSchema,
  addToAuctionSchema,
  descriptionDraftInputSchema,
  descriptionDraftSchema,
  groupLotSchema,
  itemInputSchema,
  itemParamsSchema,
  itemSchema,
  itemUpdateSchema,
  listItemsQuerySchema,
  listItemsResponseSchema,
  lotGroupsResponseSchema,
  marketTrendsResponseSchema,
  overviewSchema,
  photoParamsSchema,
  recomputeResponseSchema,
  similarResponseSchema,
  statusMoveSchema,
  suggestionsResponseSchema,
} from './inventory.schema.js';
import {
  addPhoto,
  addToAuction,
  aiSuggestions,
  createItem,
  deleteItem,
  getItem,
  inventoryOverview,
  listItems,
  moveStatus,
  photoFile,
  recomputeScores,
  removeFromAuction,
  removePhoto,
  updateItem,
} from './inventory.service.js';
import { draftDescription } from './descriptions.service.js';
import { addGroupToAuction, lotGroups } from './lot-groups.service.js';
import { marketTrends } from './market-trends.js';
import { similarItems } from './similar.js';

/** Room for the multipart boundaries around the one file. */
const FORM_OVERHEAD = 16 * 1024;

const withEtag = <T extends { etag: string }>(json: T) => ({ json, etag: json.etag });

/**
 * The Inventory add-on (spec 2.5): the house's items, their photos, the overview, the AI
 * suggestions and moving items into auctions. Every route needs the inventory feature on the
 * account's plan; another tenant's item answers 404.
 */
export const inventoryFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'inventory-list',
      route: 'inventory/items',
      methods: ['GET'],
      permission: 'inventory:view',
      feature: 'inventory',
      summary:
        'Items, newest first: search (title, description, consignor, location), status and category filters, continuation paging',
      query: listItemsQuerySchema,
      response: listItemsResponseSchema,
      handler: async ({ ctx, query }) => ({ json: await listItems(ctx, query) }),
    }),
    httpRoute({
      name: 'inventory-create',
      route: 'inventory/items',
      methods: ['POST'],
      permission: 'inventory:create',
      feature: 'inventory',
      summary:
        'Adds an item (status Available unless set; a blank location takes the default storage location)',
      body: itemInputSchema,
      response: itemSchema,
      handler: async ({ ctx, body }) => ({ status: 201, ...withEtag(await createItem(ctx, body)) }),
    }),
    httpRoute({
      name: 'inventory-overview',
      route: 'inventory/overview',
      methods: ['GET'],
      permission: 'inventory:view',
      feature: 'inventory',
      summary: 'The overview tiles, status distribution and the top 3 hot items for auction',
      response: overviewSchema,
      handler: async ({ ctx }) => ({ json: await inventoryOverview(ctx) }),
    }),
    httpRoute({
      name: 'inventory-suggestions',
      route: 'inventory/suggestions',
      methods: ['GET'],
      permission: 'inventory:view',
      feature: 'inventory',
      summary: 'Available or In Storage items scoring 85 or more, best first, with reasons',
      response: suggestionsResponseSchema,
      handler: async ({ ctx }) => ({ json: await aiSuggestions(ctx) }),
    }),
    httpRoute({
      name: 'inventory-suggestions-recompute',
      route: 'inventory/suggestions/recompute',
      methods: ['POST'],
      permission: 'inventory:edit',
      feature: 'inventory',
      summary: "Rescores every item from the house's latest auction results",
      response: recomputeResponseSchema,
      handler: async ({ ctx }) => ({ json: await recomputeScores(ctx) }),
    }),
    httpRoute({
      name: 'inventory-description-draft',
      route: 'inventory/description-draft',
      methods: ['POST'],
      permission: 'inventory:view',
      feature: 'inventory',
      summary:
        "Drafts a catalogue description from the item's fields and the house's comparable sales (nothing is saved); 409 while Auto-generate descriptions is off",
      body: descriptionDraftInputSchema,
      response: descriptionDraftSchema,
      handler: async ({ ctx, body }) => ({ json: await draftDescription(ctx, body) }),
    }),
    httpRoute({
      name: 'inventory-lot-groups',
      route: 'inventory/lot-groups',
      methods: ['GET'],
      permission: 'inventory:view',
      feature: 'inventory',
      summary:
        'Groups of 2-6 low-value Available or In Storage items worth selling as one lot, with reasons; none while Optimal lot grouping is off',
      response: lotGroupsResponseSchema,
      handler: async ({ ctx }) => ({ json: await lotGroups(ctx) }),
    }),
    httpRoute({
      name: 'inventory-lot-groups-add-to-auction',
      route: 'inventory/lot-groups/add-to-auction',
      methods: ['POST'],
      permission: 'inventory:edit',
      feature: 'inventory',
      summary:
        'Adds 2-6 items to a Draft or Upcoming auction as ONE lot (each item passes the photo rule); all become In Auction, or none',
      body: addGroupToAuctionSchema,
      response: groupLotSchema,
      handler: async ({ ctx, body }) => ({ status: 201, json: await addGroupToAuction(ctx, body) }),
    }),
    httpRoute({
      name: 'inventory-market-trends',
      route: 'inventory/market-trends',
      methods: ['GET'],
      permission: 'inventory:view',
      feature: 'inventory',
      summary:
        "Per category, the house's results of the last 12 months (sold, sell-through, median hammer / low estimate), when market trend analysis is on",
      response: marketTrendsResponseSchema,
      handler: async ({ ctx }) => ({ json: await marketTrends(ctx) }),
    }),
    httpRoute({
      name: 'inventory-similar',
      route: 'inventory/items/{id}/similar',
      methods: ['GET'],
      permission: 'inventory:view',
      feature: 'inventory',
      summary:
        'Up to 6 items of the same category and 6 comparable sold lots, each with why, when similar items are suggested',
      params: itemParamsSchema,
      response: similarResponseSchema,
      handler: async ({ ctx, params }) => ({ json: await similarItems(ctx, params.id) }),
    }),
    httpRoute({
      name: 'inventory-get',
      route: 'inventory/items/{id}',
      methods: ['GET'],
      permission: 'inventory:view',
      feature: 'inventory',
      summary: 'One item with its photos, auction link and history',
      params: itemParamsSchema,
      response: itemSchema,
      handler: async ({ ctx, params }) => withEtag(await getItem(ctx, params.id)),
    }),
    httpRoute({
      name: 'inventory-update',
      route: 'inventory/items/{id}',
      methods: ['PATCH'],
      permission: 'inventory:edit',
      feature: 'inventory',
      summary: 'Changes the fields sent, over the version read (If-Match)',
      params: itemParamsSchema,
      body: itemUpdateSchema,
      response: itemSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, params, body, ifMatch }) =>
        withEtag(await updateItem(ctx, params.id, ifMatch, body)),
    }),
    httpRoute({
      name: 'inventory-delete',
      route: 'inventory/items/{id}',
      methods: ['DELETE'],
      permission: 'inventory:delete',
      feature: 'inventory',
      summary: 'Deletes an item (If-Match honoured); refused while it is In Auction',
      params: itemParamsSchema,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, ifMatch }) => {
        await deleteItem(ctx, params.id, ifMatch);
        return { status: 204 };
      },
    }),
    httpRoute({
      name: 'inventory-status',
      route: 'inventory/items/{id}/status',
      methods: ['POST'],
      permission: 'inventory:edit',
      feature: 'inventory',
      summary:
        'Moves the item among Available, In Storage, Withdrawn, On Hold, Reserved and Damaged (If-Match honoured)',
      params: itemParamsSchema,
      body: statusMoveSchema,
      response: itemSchema,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, body, ifMatch }) =>
        withEtag(await moveStatus(ctx, params.id, body, ifMatch)),
    }),
    httpRoute({
      name: 'inventory-add-to-auction',
      route: 'inventory/items/{id}/auction',
      methods: ['POST'],
      permission: 'inventory:edit',
      feature: 'inventory',
      summary:
        'Adds the item to a Draft or Upcoming auction as a lot (the photo rule applies); it becomes In Auction',
      params: itemParamsSchema,
      body: addToAuctionSchema,
      response: itemSchema,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, body, ifMatch }) => ({
        status: 201,
        ...withEtag(await addToAuction(ctx, params.id, body, ifMatch)),
      }),
    }),
    httpRoute({
      name: 'inventory-remove-from-auction',
      route: 'inventory/items/{id}/auction',
      methods: ['DELETE'],
      permission: 'inventory:edit',
      feature: 'inventory',
      summary: 'Takes the item out of its auction before the sale (its lot is deleted)',
      params: itemParamsSchema,
      response: itemSchema,
      concurrency: 'if-match-optional',
      handler: async ({ ctx, params, ifMatch }) =>
        withEtag(await removeFromAuction(ctx, params.id, ifMatch)),
    }),
    httpRoute({
      name: 'inventory-photo-upload',
      route: 'inventory/items/{id}/photos',
      methods: ['POST'],
      permission: 'inventory:edit',
      feature: 'inventory',
      summary:
        'Adds a photo (multipart field "file": JPEG, PNG or WebP by content, 10 MB at most, 20 per item)',
      params: itemParamsSchema,
      response: itemSchema,
      maxBodyBytes: MAX_PHOTO_BYTES + FORM_OVERHEAD,
      handler: async ({ ctx, params, request }) => {
        const declared = Number(request.headers.get('content-length') ?? 0);
        if (declared > MAX_PHOTO_BYTES + FORM_OVERHEAD) {
          throw payloadTooLarge('A photo must be 10 MB or smaller');
        }
        const body = request.body
          ? Readable.fromWeb(request.body as ReadableStream<Uint8Array>)
          : Readable.from([]);
        const form = readForm(body, request.headers.get('content-type') ?? '', {
          maxBytes: MAX_PHOTO_BYTES,
          files: 2,
          fields: 5,
          field: PHOTO_FIELD,
        });
        return { status: 201, ...withEtag(await addPhoto(ctx, params.id, form)) };
      },
    }),
    httpRoute({
      name: 'inventory-photo-get',
      route: 'inventory/items/{id}/photos/{photoId}',
      methods: ['GET'],
      permission: 'inventory:view',
      feature: 'inventory',
      summary: "A photo's bytes, for signed-in people of the account",
      params: photoParamsSchema,
      handler: async ({ ctx, params }) => {
        const photo = await photoFile(ctx, params.id, params.photoId);
        return {
          body: photo.data,
          headers: {
            'content-type': photo.contentType,
            'x-content-type-options': 'nosniff',
            // A photo never changes under its id; only the signed-in may fetch it.
            'cache-control': 'private, max-age=31536000, immutable',
          },
        };
      },
    }),
    httpRoute({
      name: 'inventory-photo-delete',
      route: 'inventory/items/{id}/photos/{photoId}',
      methods: ['DELETE'],
      permission: 'inventory:edit',
      feature: 'inventory',
      summary: 'Removes a photo',
      params: photoParamsSchema,
      response: itemSchema,
      handler: async ({ ctx, params }) =>
        withEtag(await removePhoto(ctx, params.id, params.photoId)),
    }),
  ],
};
