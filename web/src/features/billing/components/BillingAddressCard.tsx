import {
  Button,
  Card,
  Field,
  Input,
  makeStyles,
  Subtitle2,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import { useCardGridStyles } from '../../../components/card-grid';
import { useNotify } from '../../../lib/toast';
import { useAction } from '../../../lib/use-action';
import { useBillingActions, type BillingAccountView } from '../api/billing';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  heading: { margin: 0 },
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
});

const fields = [
  { key: 'line1', label: 'Address line 1', required: true },
  { key: 'line2', label: 'Address line 2', required: false },
  { key: 'city', label: 'City', required: true },
  { key: 'state', label: 'State or region', required: false },
  { key: 'postalCode', label: 'Postal code', required: true },
  { key: 'country', label: 'Country (two letters, e.g. US)', required: true },
] as const;
type AddressKey = (typeof fields)[number]['key'];

/** The address and tax id Stripe prints on the account's invoices. */
export function BillingAddressCard({ account }: { account: BillingAccountView }) {
  const grid = useCardGridStyles();
  const styles = useStyles();
  const notify = useNotify();
  const actions = useBillingActions();
  const saved = account.billingAddress;
  const [address, setAddress] = useState<Record<AddressKey, string>>({
    line1: saved?.line1 ?? '',
    line2: saved?.line2 ?? '',
    city: saved?.city ?? '',
    state: saved?.state ?? '',
    postalCode: saved?.postalCode ?? '',
    country: saved?.country ?? 'US',
  });
  const [taxId, setTaxId] = useState(account.taxId ?? '');
  const save = useAction(
    async () => {
      await actions.saveBillingAddress({
        billingAddress: {
          line1: address.line1,
          city: address.city,
          postalCode: address.postalCode,
          country: address.country,
          ...(address.line2 ? { line2: address.line2 } : {}),
          ...(address.state ? { state: address.state } : {}),
        },
        taxId: taxId.trim() || null,
      });
      notify.success('Billing address saved');
    },
    { onError: (message) => notify.error('Failed to save the billing address', message) },
  );
  return (
    <Card className={grid.card}>
      <form
        className={styles.body}
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <Subtitle2 as="h3" className={styles.heading}>
          Billing address
        </Subtitle2>
        <div className={styles.grid}>
          {fields.map((field) => (
            <Field
              key={field.key}
              label={field.label}
              required={field.required}
              validationMessage={save.fieldErrors[`billingAddress.${field.key}`]}
            >
              <Input
                value={address[field.key]}
                onChange={(_, data) =>
                  setAddress((current) => ({ ...current, [field.key]: data.value }))
                }
              />
            </Field>
          ))}
          <Field label="Tax id" validationMessage={save.fieldErrors.taxId}>
            <Input value={taxId} onChange={(_, data) => setTaxId(data.value)} />
          </Field>
        </div>
        <div>
          <Button type="submit" appearance="primary" disabled={save.busy}>
            {save.busy ? 'Saving...' : 'Save billing address'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
