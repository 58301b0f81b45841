import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import type { HttpRequest } from '@azure/functions';
import { payloadTooLarge } from '../platform/errors.js';
import type { FunctionTable } from '../platform/functions.js';
import { httpRoute } from '../platform/http.js';
import { readForm } from '../uploads/files.js';
import {
  MAX_LOGO_BYTES,
  inventorySettingsInputSchema,
  inventorySettingsSchema,
  logoParamsSchema,
  paymentPortalInputSchema,
  paymentPortalSettingsSchema,
  portalInvoiceSchema,
  portalTokenParamsSchema,
  portalViewSchema,
  testLinkSchema,
} from './settings.schema.js';
import {
  LOGO_FIELD,
  inventorySettings,
  logoFile,
  paymentPortalSettings,
  portalForLink,
  previewInvoice,
  removeLogo,
  testLink,
  updateInventorySettings,
  updatePaymentPortal,
  uploadLogo,
} from './settings.service.js';

/** Room for the multipart boundaries around the one file. */
const FORM_OVERHEAD = 16 * 1024;

/** This service's own address, which the logo's public URL starts with. */
const originOf = (request: HttpRequest) => new URL(request.url).origin;

const withEtag = <T extends { etag: string }>(json: T) => ({ json, etag: json.etag });

/**
 * Account Settings › Inventory and › Payments. Everyone in the account may read them (the tabs
 * show read-only without the permission); changing them takes `system:settings`. The buyer's
 * side (a payment link's page and the logo on it) needs no sign-in.
 */
export const settingsFunctions: FunctionTable = {
  app: 'domain',
  functions: [
    httpRoute({
      name: 'settings-inventory-get',
      route: 'settings/inventory',
      methods: ['GET'],
      permission: 'authenticated',
      summary: "The account's inventory settings (the defaults until someone saves them)",
      response: inventorySettingsSchema,
      handler: async ({ ctx }) => withEtag(await inventorySettings(ctx)),
    }),
    httpRoute({
      name: 'settings-inventory-update',
      route: 'settings/inventory',
      methods: ['PUT'],
      permission: 'system:settings',
      summary: 'Saves the inventory settings, over the version read (If-Match)',
      body: inventorySettingsInputSchema,
      response: inventorySettingsSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, body, ifMatch }) =>
        withEtag(await updateInventorySettings(ctx, body, ifMatch)),
    }),
    httpRoute({
      name: 'settings-payment-portal-get',
      route: 'settings/payment-portal',
      methods: ['GET'],
      permission: 'authenticated',
      summary: "The account's payment portal settings (the defaults until someone saves them)",
      response: paymentPortalSettingsSchema,
      handler: async ({ ctx, request }) =>
        withEtag(await paymentPortalSettings(ctx, originOf(request))),
    }),
    httpRoute({
      name: 'settings-payment-portal-update',
      route: 'settings/payment-portal',
      methods: ['PUT'],
      permission: 'system:settings',
      summary: 'Saves the payment portal settings, over the version read (If-Match)',
      body: paymentPortalInputSchema,
      response: paymentPortalSettingsSchema,
      concurrency: 'if-match',
      handler: async ({ ctx, body, ifMatch, request }) =>
        withEtag(await updatePaymentPortal(ctx, body, ifMatch, originOf(request))),
    }),
    httpRoute({
      name: 'settings-payment-portal-logo-upload',
      route: 'settings/payment-portal/logo',
      methods: ['POST'],
      permission: 'system:settings',
      summary:
        'Sets the portal logo (multipart field "file": PNG, JPG or SVG by content, 1 MB at most; an SVG with scripts, event handlers, foreignObject or external references is refused)',
      response: paymentPortalSettingsSchema,
      maxBodyBytes: MAX_LOGO_BYTES + FORM_OVERHEAD,
      handler: async ({ ctx, request }) => {
        const declared = Number(request.headers.get('content-length') ?? 0);
        if (declared > MAX_LOGO_BYTES + FORM_OVERHEAD) {
          throw payloadTooLarge('The logo must be 1 MB or smaller');
        }
        const body = request.body
          ? Readable.fromWeb(request.body as ReadableStream<Uint8Array>)
          : Readable.from([]);
        const form = readForm(body, request.headers.get('content-type') ?? '', {
          maxBytes: MAX_LOGO_BYTES,
          files: 2,
          fields: 5,
          field: LOGO_FIELD,
        });
        return withEtag(await uploadLogo(ctx, form, originOf(request)));
      },
    }),
    httpRoute({
      name: 'settings-payment-portal-logo-delete',
      route: 'settings/payment-portal/logo',
      methods: ['DELETE'],
      permission: 'system:settings',
      summary: 'Removes the portal logo',
      response: paymentPortalSettingsSchema,
      handler: async ({ ctx, request }) => withEtag(await removeLogo(ctx, originOf(request))),
    }),
    httpRoute({
      name: 'settings-payment-portal-test-invoice',
      route: 'settings/payment-portal/test-invoice',
      methods: ['GET'],
      permission: 'authenticated',
      summary: 'The sample invoice the portal preview and test links show',
      response: portalInvoiceSchema,
      handler: async ({ ctx }) => ({ json: await previewInvoice(ctx) }),
    }),
    httpRoute({
      name: 'settings-payment-portal-test-link',
      route: 'settings/payment-portal/test-link',
      methods: ['POST'],
      permission: 'system:settings',
      summary: 'A signed link to the test invoice, valid for the link expiration days',
      response: testLinkSchema,
      handler: async ({ ctx }) => ({ status: 201, json: await testLink(ctx) }),
    }),
    httpRoute({
      name: 'portal-view',
      route: 'portal/{token}',
      methods: ['GET'],
      // The signed link is the permission: whoever the house sent it to, until it expires.
      permission: 'public',
      summary:
        "A payment link's page: the house's portal and the invoice (404 when invalid or the portal is off, 410 when expired)",
      params: portalTokenParamsSchema,
      response: portalViewSchema,
      handler: async ({ params, request }) => ({
        json: await portalForLink(params.token, originOf(request)),
      }),
    }),
    httpRoute({
      name: 'portal-logo',
      route: 'portal/logos/{accountId}/{logo}',
      methods: ['GET'],
      permission: 'public',
      summary: "A house's portal logo (named by its content's hash, so cached for good)",
      params: logoParamsSchema,
      handler: async ({ params }) => {
        const logo = await logoFile(params.accountId, params.logo);
        return {
          body: logo.data,
          headers: {
            'content-type': logo.contentType,
            'x-content-type-options': 'nosniff',
            // An SVG opened on its own runs nothing and loads nothing.
            'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
            'cache-control': 'public, max-age=31536000, immutable',
            'cross-origin-resource-policy': 'cross-origin',
          },
        };
      },
    }),
  ],
};
