import {
  inventorySettingsSchema,
  paymentPortalSettingsSchema,
  portalInvoiceSchema,
  testLinkSchema,
  type InventorySettings,
  type InventorySettingsInput,
  type PaymentPortalInput,
  type PaymentPortalSettings,
} from '@contracts/settings/settings.schema';
import useSWR, { useSWRConfig } from 'swr';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';
import { uploadForm } from '../../../lib/upload';

/** Account Settings › Inventory and › Payments: read, save over the version read, the logo. */

const inventoryKey = domainApi('/settings/inventory');
const portalKey = domainApi('/settings/payment-portal');
const testInvoiceKey = domainApi('/settings/payment-portal/test-invoice');

export const useInventorySettings = () => useSWR(inventoryKey, fetchWith(inventorySettingsSchema));
export const usePaymentPortalSettings = () =>
  useSWR(portalKey, fetchWith(paymentPortalSettingsSchema));
/** The sample invoice the preview shows; read only once the preview opens. */
export const useTestInvoice = (open: boolean) =>
  useSWR(open ? testInvoiceKey : null, fetchWith(portalInvoiceSchema));

const ifMatch = (etag: string) => ({ 'if-match': `"${etag}"` });

export function useSettingsActions() {
  const { mutate } = useSWRConfig();
  return {
    saveInventory: async (etag: string, input: InventorySettingsInput) => {
      const saved: InventorySettings = await apiRequest(inventoryKey, {
        method: 'PUT',
        body: input,
        headers: ifMatch(etag),
        schema: inventorySettingsSchema,
      });
      await mutate(inventoryKey, saved, { revalidate: false });
      return saved;
    },
    savePortal: async (etag: string, input: PaymentPortalInput) => {
      const saved: PaymentPortalSettings = await apiRequest(portalKey, {
        method: 'PUT',
        body: input,
        headers: ifMatch(etag),
        schema: paymentPortalSettingsSchema,
      });
      await mutate(portalKey, saved, { revalidate: false });
      return saved;
    },
    uploadLogo: async (file: File, onProgress: (sent: number) => void) => {
      const form = new FormData();
      form.append('file', file);
      const saved = paymentPortalSettingsSchema.parse(
        await uploadForm<unknown>(domainApi('/settings/payment-portal/logo'), form, onProgress),
      );
      await mutate(portalKey, saved, { revalidate: false });
      return saved;
    },
    removeLogo: async () => {
      const saved = await apiRequest(domainApi('/settings/payment-portal/logo'), {
        method: 'DELETE',
        schema: paymentPortalSettingsSchema,
      });
      await mutate(portalKey, saved, { revalidate: false });
      return saved;
    },
    testLink: () =>
      apiRequest(domainApi('/settings/payment-portal/test-link'), {
        method: 'POST',
        schema: testLinkSchema,
      }),
    /** After a 412: the settings as someone else saved them. */
    reloadInventory: () => mutate(inventoryKey),
    reloadPortal: () => mutate(portalKey),
  };
}
