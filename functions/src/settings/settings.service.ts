import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { accountIsOpen, accountNameOf, housesOf } from '../identity/accounts/accounts.service.js';
import { buyerInvoiceView } from '../payments/portal.service.js';
import { writeAudit } from '../platform/audit.js';
import type { AccountScope, RequestContext } from '../platform/context.js';
import { isConflict, isStale } from '../platform/cosmos-errors.js';
import { AppError, notFound, preconditionFailed } from '../platform/errors.js';
import { settings as serviceSettings } from '../platform/settings.js';
import { validationError } from '../platform/validation.js';
import { readAll, type FormPart } from '../uploads/files.js';
import { checkLogo, logoContentTypes } from './logo-content.js';
import { signPaymentLink, verifyPaymentLink } from './payment-link.js';
import {
  INVENTORY_SETTINGS_ID,
  PAYMENT_PORTAL_ID,
  deleteLogo,
  findInventorySettings,
  findPaymentPortal,
  putLogo,
  readLogo,
  saveSection,
  type InventorySettingsRecord,
  type LogoRecord,
  type PaymentPortalRecord,
} from './settings.repo.js';
import {
  DEFAULT_INVENTORY_SETTINGS,
  DEFAULT_LINK_EXPIRATION_DAYS,
  type InventorySettings,
  type InventorySettingsInput,
  type PaymentPortalInput,
  type PaymentPortalSettings,
  type PortalBranding,
  type PortalInvoice,
  type PortalView,
  type TestLink,
} from './settings.schema.js';

type Person = { id: string; name: string };

const personOf = (ctx: RequestContext): Person | null =>
  ctx.actor.kind === 'system' ? null : { id: ctx.actor.userId, name: ctx.actor.name };

const etagOf = (id: string, record: { revision: number } | undefined) =>
  `${id}-r${record?.revision ?? 0}`;

const stale = (section: string) =>
  preconditionFailed(
    `Someone else changed the ${section} settings; reload them to see their changes`,
  );

/**
 * Saves a section over the version the caller read (`ifMatch`), or refuses with 412; writes the
 * audit entry with the settings before and after.
 */
async function saveOver<T extends InventorySettingsRecord | PaymentPortalRecord>(
  ctx: RequestContext,
  current: (T & { _etag: string }) | undefined,
  next: Omit<T, 'accountId' | 'revision' | 'updatedAt' | 'updatedBy'>,
  ifMatch: string | undefined,
  section: string,
) {
  if (ifMatch !== undefined && ifMatch !== etagOf(next.id, current)) throw stale(section);
  const record = {
    ...next,
    revision: (current?.revision ?? 0) + 1,
    updatedAt: new Date().toISOString(),
    updatedBy: personOf(ctx),
  } as unknown as Omit<T, 'accountId'>;
  try {
    const saved = await saveSection<T>(ctx.scope, record, current?._etag);
    await writeAudit(ctx, {
      action: `${next.kind}.update`,
      entity: { type: 'settings', id: next.id },
      ...(current ? { before: current.settings } : {}),
      after: next.settings,
    });
    return saved;
  } catch (error) {
    // Someone saved between our read and write: their change stands, ours is refused.
    if (isStale(error) || isConflict(error)) throw stale(section);
    throw error;
  }
}

// ---- Inventory ----

/** The account's inventory settings, the spec's defaults until someone saves them. */
export async function inventorySettingsOf(scope: AccountScope): Promise<InventorySettingsInput> {
  return (await findInventorySettings(scope))?.settings ?? DEFAULT_INVENTORY_SETTINGS;
}

function inventoryView(record: InventorySettingsRecord | undefined): InventorySettings {
  return {
    ...DEFAULT_INVENTORY_SETTINGS,
    ...record?.settings,
    updatedAt: record?.updatedAt ?? null,
    updatedBy: record?.updatedBy ?? null,
    etag: etagOf(INVENTORY_SETTINGS_ID, record),
  };
}

export async function inventorySettings(ctx: RequestContext): Promise<InventorySettings> {
  return inventoryView(await findInventorySettings(ctx.scope));
}

export async function updateInventorySettings(
  ctx: RequestContext,
  input: InventorySettingsInput,
  ifMatch: string,
): Promise<InventorySettings> {
  const current = await findInventorySettings(ctx.scope);
  const saved = await saveOver<InventorySettingsRecord>(
    ctx,
    current,
    { id: INVENTORY_SETTINGS_ID, kind: 'inventorySettings', settings: input },
    ifMatch,
    'inventory',
  );
  return inventoryView(saved);
}

// ---- Payment portal ----

const DEFAULT_PORTAL: Omit<PaymentPortalInput, 'companyName'> = {
  enabled: false,
  primaryColor: '#1f4e79',
  secondaryColor: '#c8963e',
  defaultExpirationDays: DEFAULT_LINK_EXPIRATION_DAYS,
  enabledPaymentMethods: ['credit_card', 'ach'],
  requireLoginSetup: false,
  allowSavedPayments: true,
  supportEmail: '',
  supportPhone: '',
};

/** The portal settings in effect: the saved ones, or the defaults with the account's name. */
async function portalSettingsOf(scope: AccountScope, record: PaymentPortalRecord | undefined) {
  return (
    record?.settings ?? { ...DEFAULT_PORTAL, companyName: await accountNameOf(scope.accountId) }
  );
}

/** Where buyers' browsers fetch a logo: public, and new whenever the logo's bytes change. */
const logoUrlOf = (origin: string, accountId: string, logo: LogoRecord | null) =>
  logo ? `${origin}/portal/logos/${encodeURIComponent(accountId)}/${logo.file}` : null;

async function portalView(
  scope: AccountScope,
  record: PaymentPortalRecord | undefined,
  origin: string,
): Promise<PaymentPortalSettings> {
  return {
    ...(await portalSettingsOf(scope, record)),
    logoUrl: logoUrlOf(origin, scope.accountId, record?.logo ?? null),
    updatedAt: record?.updatedAt ?? null,
    updatedBy: record?.updatedBy ?? null,
    etag: etagOf(PAYMENT_PORTAL_ID, record),
  };
}

export async function paymentPortalSettings(
  ctx: RequestContext,
  origin: string,
): Promise<PaymentPortalSettings> {
  return portalView(ctx.scope, await findPaymentPortal(ctx.scope), origin);
}

/** The portal settings other features (payments) work with, defaults included. */
export async function paymentPortalOf(scope: AccountScope): Promise<PaymentPortalInput> {
  return portalSettingsOf(scope, await findPaymentPortal(scope));
}

export async function updatePaymentPortal(
  ctx: RequestContext,
  input: PaymentPortalInput,
  ifMatch: string,
  origin: string,
): Promise<PaymentPortalSettings> {
  const current = await findPaymentPortal(ctx.scope);
  const saved = await saveOver<PaymentPortalRecord>(
    ctx,
    current,
    {
      id: PAYMENT_PORTAL_ID,
      kind: 'paymentPortal',
      settings: input,
      logo: current?.logo ?? null,
    },
    ifMatch,
    'payment portal',
  );
  return portalView(ctx.scope, saved, origin);
}

/** The form field the logo comes in. */
export const LOGO_FIELD = 'file';

const logoProblem = (message: string) =>
  validationError([{ location: 'body', field: LOGO_FIELD, message }]);

/** The one file of a logo upload, whole: it is at most MAX_LOGO_BYTES (readForm holds it to that). */
async function logoBytes(form: AsyncIterable<FormPart>): Promise<Buffer> {
  let data: Buffer | undefined;
  for await (const part of form) {
    if (part.kind !== 'file') continue;
    if (part.field !== LOGO_FIELD || data !== undefined) {
      part.stream.resume();
      throw logoProblem('Send one logo file in the "file" field');
    }
    data = await readAll(part.stream as Readable);
  }
  if (!data || data.length === 0) throw logoProblem('is required: choose a logo to upload');
  return data;
}

/**
 * Keeps an uploaded logo (PNG, JPG or a script-free SVG, by its bytes) as the portal's logo.
 * The previous file is removed once the new one is in place.
 */
export async function uploadLogo(
  ctx: RequestContext,
  form: AsyncIterable<FormPart>,
  origin: string,
): Promise<PaymentPortalSettings> {
  const data = await logoBytes(form);
  const checked = checkLogo(data);
  if (!checked.ok) throw logoProblem(checked.reason);
  const contentType = logoContentTypes[checked.kind];
  const hash = createHash('sha256').update(data).digest('base64url').slice(0, 32);
  const logo: LogoRecord = { file: `${hash}.${checked.kind}`, contentType, size: data.length };
  await putLogo(ctx.scope, logo.file, data, contentType);
  let replaced: LogoRecord | null | undefined;
  let saved: Awaited<ReturnType<typeof saveOver<PaymentPortalRecord>>>;
  try {
    saved = await overConcurrentSaves(ctx, async (current) => {
      replaced = current?.logo;
      return saveOver<PaymentPortalRecord>(
        ctx,
        current,
        {
          id: PAYMENT_PORTAL_ID,
          kind: 'paymentPortal',
          settings: await portalSettingsOf(ctx.scope, current),
          logo,
        },
        undefined,
        'payment portal',
      );
    });
  } catch (error) {
    // Not kept: the file it would have named goes too (unless it is the logo already).
    if (replaced?.file !== logo.file) await deleteLogo(ctx.scope, logo.file);
    throw error;
  }
  if (replaced && replaced.file !== logo.file) await deleteLogo(ctx.scope, replaced.file);
  return portalView(ctx.scope, saved, origin);
}

export async function removeLogo(
  ctx: RequestContext,
  origin: string,
): Promise<PaymentPortalSettings> {
  let removed: LogoRecord | null | undefined;
  const saved = await overConcurrentSaves(ctx, async (current) => {
    removed = current?.logo;
    if (!current?.logo) return current;
    return saveOver<PaymentPortalRecord>(
      ctx,
      current,
      { id: PAYMENT_PORTAL_ID, kind: 'paymentPortal', settings: current.settings, logo: null },
      undefined,
      'payment portal',
    );
  });
  if (removed) await deleteLogo(ctx.scope, removed.file);
  return portalView(ctx.scope, saved, origin);
}

/**
 * A logo change does not depend on the version of the settings the person saw, so one that meets
 * a save made at the same moment is made again over it instead of answering 412.
 */
async function overConcurrentSaves<T>(
  ctx: RequestContext,
  change: (current: Awaited<ReturnType<typeof findPaymentPortal>>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const current = await findPaymentPortal(ctx.scope);
    try {
      return await change(current);
    } catch (error) {
      const raced = error instanceof AppError && error.code === 'precondition_failed';
      if (!raced || attempt >= 5) throw error;
    }
  }
}

/** A logo's bytes for its public address; 404 for any other name. */
export async function logoFile(accountId: string, file: string) {
  const found = await readLogo(accountId, file);
  if (!found) throw notFound('No such logo');
  return found;
}

/** Lots of the kind a house sells, so the test invoice looks like a real one. */
const SAMPLE_LOTS = [
  { lotNumber: '101', title: 'Victorian mahogany writing desk', hammer: 125_000 },
  { lotNumber: '102', title: 'Pair of sterling silver candlesticks', hammer: 48_000 },
  { lotNumber: '103', title: 'Signed lithograph, framed', hammer: 36_000 },
];
const SAMPLE_PREMIUM_RATE = 0.2;
const SAMPLE_TAX_RATE = 0.08;

/** The sample invoice a test link and the preview show, in the name of the account's first house. */
export async function testInvoice(
  scope: AccountScope,
  now: Date = new Date(),
): Promise<PortalInvoice> {
  const houses = [...(await housesOf(scope))].sort((a, b) =>
    a.createdAt.localeCompare(b.createdAt),
  );
  const houseName = houses[0]?.name ?? (await accountNameOf(scope.accountId));
  const hammerTotal = SAMPLE_LOTS.reduce((sum, lot) => sum + lot.hammer, 0);
  const buyersPremium = Math.round(hammerTotal * SAMPLE_PREMIUM_RATE);
  const tax = Math.round((hammerTotal + buyersPremium) * SAMPLE_TAX_RATE);
  return {
    kind: 'test',
    number: 'TEST-0001',
    houseName,
    buyerName: 'Test Buyer',
    issuedAt: now.toISOString(),
    currency: 'USD',
    lines: SAMPLE_LOTS,
    hammerTotal,
    buyersPremiumRate: SAMPLE_PREMIUM_RATE,
    buyersPremium,
    taxRate: SAMPLE_TAX_RATE,
    tax,
    total: hammerTotal + buyersPremium + tax,
  };
}

export const previewInvoice = (ctx: RequestContext) => testInvoice(ctx.scope);

/** A link to the test invoice, as a buyer would get one, for the owner to try the portal. */
export async function testLink(ctx: RequestContext): Promise<TestLink> {
  const portal = await paymentPortalOf(ctx.scope);
  const { token, expiresAt } = await signPaymentLink(
    ctx.scope.accountId,
    { kind: 'test' },
    portal.defaultExpirationDays,
  );
  await writeAudit(ctx, {
    action: 'paymentPortal.test_link',
    entity: { type: 'settings', id: PAYMENT_PORTAL_ID },
    after: { expiresAt },
  });
  return { url: `${serviceSettings().PUBLIC_WEB_URL}/pay/${token}`, expiresAt };
}

const brandingOf = (settings: PaymentPortalInput, logoUrl: string | null): PortalBranding => ({
  companyName: settings.companyName,
  logoUrl,
  primaryColor: settings.primaryColor,
  secondaryColor: settings.secondaryColor,
  supportEmail: settings.supportEmail,
  supportPhone: settings.supportPhone,
  enabledPaymentMethods: settings.enabledPaymentMethods,
  requireLoginSetup: settings.requireLoginSetup,
  allowSavedPayments: settings.allowSavedPayments,
});

/** What a buyer who opens a payment link sees: the house's portal and the invoice. */
export async function portalForLink(token: string, origin: string): Promise<PortalView> {
  const link = await verifyPaymentLink(token);
  const scope = { accountId: link.accountId };
  const record = await findPaymentPortal(scope);
  if (!record?.settings.enabled || !(await accountIsOpen(link.accountId))) {
    throw notFound('This payment portal is not enabled');
  }
  const branding = brandingOf(record.settings, logoUrlOf(origin, scope.accountId, record.logo));
  if (link.invoice.kind === 'buyer') {
    const buyer = await buyerInvoiceView(scope, link.invoice.id, record.settings);
    return { branding, ...buyer, expiresAt: link.expiresAt.toISOString() };
  }
  return {
    branding,
    invoice: await testInvoice(scope),
    payment: null,
    expiresAt: link.expiresAt.toISOString(),
  };
}
