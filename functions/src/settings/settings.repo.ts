import { deleteBlob, getBlob, putBlob } from '../platform/blob.js';
import { isNotFound } from '../platform/cosmos-errors.js';
import type { ContainerDefinition } from '../platform/cosmos.js';
import { TenantRepository, type AccountScope, type Stored } from '../platform/repo.js';
import type { InventorySettingsInput, PaymentPortalInput } from './settings.schema.js';

/**
 * One document per settings section per account, absent until someone saves that section (the
 * service answers the defaults until then). Portal logos live in a blob container of their own,
 * under the account's prefix and named by their content's hash.
 */
export const settingsContainer: ContainerDefinition = {
  id: 'settings',
  partitionKey: '/accountId',
};

interface Person {
  id: string;
  name: string;
}

interface SectionRecord {
  accountId: string;
  /** Versioned apart from the document, so the ETag the client holds survives retried writes. */
  revision: number;
  updatedAt: string;
  updatedBy: Person | null;
}

export const INVENTORY_SETTINGS_ID = 'inventory';
export const PAYMENT_PORTAL_ID = 'payment-portal';

export interface InventorySettingsRecord extends SectionRecord {
  id: typeof INVENTORY_SETTINGS_ID;
  kind: 'inventorySettings';
  settings: InventorySettingsInput;
}

/** The stored logo: where its bytes are and what they are. */
export interface LogoRecord {
  /** `{hash}.{extension}`: the last segment of its address. */
  file: string;
  contentType: string;
  size: number;
}

export interface PaymentPortalRecord extends SectionRecord {
  id: typeof PAYMENT_PORTAL_ID;
  kind: 'paymentPortal';
  settings: PaymentPortalInput;
  logo: LogoRecord | null;
}

type SettingsDocument = InventorySettingsRecord | PaymentPortalRecord;

const sections = new TenantRepository<SettingsDocument>(settingsContainer.id);

export async function findInventorySettings(scope: AccountScope) {
  const found = await sections.find(scope, INVENTORY_SETTINGS_ID);
  return found?.kind === 'inventorySettings'
    ? (found as Stored<InventorySettingsRecord>)
    : undefined;
}

export async function findPaymentPortal(scope: AccountScope) {
  const found = await sections.find(scope, PAYMENT_PORTAL_ID);
  return found?.kind === 'paymentPortal' ? (found as Stored<PaymentPortalRecord>) : undefined;
}

/** Writes a section: the first time only if nobody else did, later only over `etag` (412). */
export async function saveSection<T extends SettingsDocument>(
  scope: AccountScope,
  record: Omit<T, 'accountId'>,
  etag: string | undefined,
): Promise<Stored<T>> {
  return (
    etag === undefined
      ? await sections.create(scope, record)
      : await sections.replace(scope, { ...record, accountId: scope.accountId } as T, etag)
  ) as Stored<T>;
}

const LOGO_BLOBS = 'portal-logos';

const logoBlobName = (accountId: string, file: string) => `${accountId}/${file}`;

export const putLogo = (scope: AccountScope, file: string, data: Buffer, contentType: string) =>
  putBlob(LOGO_BLOBS, logoBlobName(scope.accountId, file), data, contentType);

/** A logo's bytes by its public address; the address names the account, as buyers need no token. */
export const readLogo = (accountId: string, file: string) =>
  getBlob(LOGO_BLOBS, logoBlobName(accountId, file));

/** Removes a logo's bytes; ones already gone count as removed. */
export async function deleteLogo(scope: AccountScope, file: string) {
  try {
    await deleteBlob(LOGO_BLOBS, logoBlobName(scope.accountId, file));
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}
