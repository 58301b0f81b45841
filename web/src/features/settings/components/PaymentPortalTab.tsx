import {
  Body1,
  Button,
  Caption1,
  Card,
  CardHeader,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Link,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Subtitle2,
  Switch,
  ToggleButton,
  tokens,
} from '@fluentui/react-components';
import {
  BuildingBankRegular,
  CheckmarkCircleRegular,
  CurrencyDollarEuroRegular,
  EyeRegular,
  LinkRegular,
  MoneyRegular,
  PaymentRegular,
  PhoneRegular,
  ArrowSwapRegular,
  WalletRegular,
} from '@fluentui/react-icons';
import {
  COLOR_PATTERN,
  MAX_LINK_EXPIRATION_DAYS,
  paymentMethodLabels,
  paymentMethods,
  type PaymentMethod,
  type PaymentPortalInput,
  type PaymentPortalSettings,
  type TestLink,
} from '@contracts/settings/settings.schema';
import { useState, type ReactElement } from 'react';
import { BuyerPortalView } from '../../../components/BuyerPortalView';
import { useCardGridStyles } from '../../../components/card-grid';
import { CopyButton } from '../../../components/CopyButton';
import { useFormGridStyles } from '../../../components/form-grid';
import { ApiError, messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';
import { useAction } from '../../../lib/use-action';
import { usePaymentPortalSettings, useSettingsActions, useTestInvoice } from '../api/settings';
import { LogoUpload } from './LogoUpload';
import { expirationDaysOf, fieldNames, problemsOf, type PortalField } from './portal-form';

const useStyles = makeStyles({
  body: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  colour: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  colourInput: { flex: 1, minWidth: 0 },
  swatch: {
    width: '32px',
    height: '32px',
    flexShrink: 0,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
  },
  noSwatch: {
    backgroundImage: `linear-gradient(135deg, transparent 45%, ${tokens.colorPaletteRedBorder2} 45%, ${tokens.colorPaletteRedBorder2} 55%, transparent 55%)`,
  },
  tiles: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
    gap: tokens.spacingHorizontalS,
  },
  tile: {
    height: '64px',
    justifyContent: 'flex-start',
    gap: tokens.spacingHorizontalS,
  },
  days: { maxWidth: '320px' },
  features: {
    margin: 0,
    padding: 0,
    listStyle: 'none',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    '& li': { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-start' },
  },
  check: { color: tokens.colorPaletteGreenForeground1, flexShrink: 0, marginTop: '2px' },
  link: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    minWidth: 0,
    '& a': { overflowWrap: 'anywhere' },
  },
  previewSurface: {
    width: 'min(860px, calc(100vw - 32px))',
    maxWidth: 'min(860px, calc(100vw - 32px))',
    '@media (max-width: 480px)': { padding: tokens.spacingHorizontalS },
  },
  previewContent: {
    backgroundColor: tokens.colorNeutralBackground2,
    padding: tokens.spacingHorizontalS,
  },
});

const methodIcons: Record<PaymentMethod, ReactElement> = {
  credit_card: <PaymentRegular />,
  ach: <ArrowSwapRegular />,
  wire: <BuildingBankRegular />,
  crypto: <CurrencyDollarEuroRegular />,
  paypal: <WalletRegular />,
  apple_pay: <PhoneRegular />,
  google_pay: <MoneyRegular />,
};

const portalFeatures = [
  'Invoices branded with your logo, colours and company name',
  'Lots, hammer prices, buyer’s premium and tax itemised for each buyer',
  'Secure links that expire after the days you set',
  'Only the payment methods you choose are offered',
  'Your support email and phone on every invoice',
];

const inputOf = (settings: PaymentPortalSettings): PaymentPortalInput => ({
  enabled: settings.enabled,
  companyName: settings.companyName,
  primaryColor: settings.primaryColor,
  secondaryColor: settings.secondaryColor,
  defaultExpirationDays: settings.defaultExpirationDays,
  enabledPaymentMethods: settings.enabledPaymentMethods,
  requireLoginSetup: settings.requireLoginSetup,
  allowSavedPayments: settings.allowSavedPayments,
  supportEmail: settings.supportEmail,
  supportPhone: settings.supportPhone,
});

function ColourField({
  label,
  value,
  error,
  disabled,
  onChange,
}: {
  label: string;
  value: string;
  error: string | undefined;
  disabled: boolean;
  onChange(value: string): void;
}) {
  const styles = useStyles();
  const valid = COLOR_PATTERN.test(value.trim());
  return (
    <Field label={label} validationMessage={error} hint={error ? undefined : 'Hex, like #1f4e79'}>
      <div className={styles.colour}>
        <span
          className={valid ? styles.swatch : `${styles.swatch} ${styles.noSwatch}`}
          style={valid ? { backgroundColor: value.trim() } : undefined}
          aria-hidden="true"
        />
        <Input
          className={styles.colourInput}
          value={value}
          disabled={disabled}
          maxLength={7}
          onChange={(_, data) => onChange(data.value)}
        />
      </div>
    </Field>
  );
}

export const PAYMENTS_TAB = { id: 'payment-config', label: 'Payments' } as const;

/** Account Settings › Payments: the customer payment portal buyers pay their invoices through. */
export function PaymentPortalTab() {
  const styles = useStyles();
  const grid = useCardGridStyles();
  const form = useFormGridStyles();
  const notify = useNotify();
  const canEdit = useCan()('system:settings');
  const { data, error } = usePaymentPortalSettings();
  const actions = useSettingsActions();
  const [draft, setDraft] = useState<Partial<PaymentPortalInput>>({});
  /** What is typed in the days box, which may be no number at all for a moment. */
  const [daysText, setDaysText] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [link, setLink] = useState<TestLink | null>(null);
  const [checked, setChecked] = useState(false);
  const testInvoice = useTestInvoice(previewing);

  const shown: PaymentPortalInput | undefined = data ? { ...inputOf(data), ...draft } : undefined;
  const dirty =
    data !== undefined &&
    Object.entries(draft).some(
      ([key, value]) =>
        JSON.stringify(data[key as keyof PaymentPortalSettings]) !== JSON.stringify(value),
    );
  const problems = shown ? problemsOf(shown) : {};

  const discard = () => {
    setDraft({});
    setDaysText(null);
    setChecked(false);
  };
  const persist = async () => {
    if (!data || !shown) return;
    const [first] = Object.entries(problems) as [PortalField, string][];
    if (first) {
      setChecked(true);
      throw new Error(`${fieldNames[first[0]]}: ${first[1]}`);
    }
    try {
      await actions.savePortal(data.etag, shown);
      discard();
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 412) void actions.reloadPortal();
      throw failure;
    }
  };
  useUnsavedChanges({ ...PAYMENTS_TAB, dirty: canEdit && dirty, save: persist, discard });
  const save = useAction(
    async () => {
      await persist();
      notify.success('Payment settings saved');
    },
    { onError: (message) => notify.error('The payment settings were not saved', message) },
  );
  const generate = useAction(
    async () => {
      setLink(await actions.testLink());
    },
    { onError: (message) => notify.error('No test link was made', message) },
  );

  if (error) {
    return (
      <MessageBar intent="error">
        <MessageBarBody>{messageOf(error)}</MessageBarBody>
      </MessageBar>
    );
  }
  if (!data || !shown) {
    return (
      <Skeleton aria-label="Loading payment settings">
        <SkeletonItem size={128} />
      </Skeleton>
    );
  }
  const change = (patch: Partial<PaymentPortalInput>) => setDraft({ ...draft, ...patch });
  /** A field's problem: the service's, else ours once the person tried to save or typed there. */
  const problemOf = (field: PortalField) =>
    save.fieldErrors[field] ??
    (checked || (draft[field] !== undefined && field !== 'enabledPaymentMethods')
      ? problems[field]
      : undefined);
  const toggleMethod = (method: PaymentMethod) => {
    const methods = shown.enabledPaymentMethods.includes(method)
      ? shown.enabledPaymentMethods.filter((other) => other !== method)
      : paymentMethods.filter(
          (other) => other === method || shown.enabledPaymentMethods.includes(other),
        );
    change({ enabledPaymentMethods: methods });
  };
  const expiry = (iso: string) =>
    new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <div className={grid.stack}>
      <Card className={grid.card}>
        <CardHeader
          header={<Subtitle2 as="h2">Customer payment portal</Subtitle2>}
          description={
            <Caption1>Buyers pay their invoices on a page branded as your auction house</Caption1>
          }
        />
        <Switch
          label="Enable customer payment portal"
          checked={shown.enabled}
          disabled={!canEdit}
          onChange={(_, value) => change({ enabled: value.checked })}
        />
      </Card>
      {shown.enabled ? (
        <>
          <Card className={grid.card}>
            <CardHeader
              header={<Subtitle2 as="h2">Branding</Subtitle2>}
              description={<Caption1>What buyers see at the top of every invoice</Caption1>}
            />
            <div className={styles.body}>
              <div className={form.row}>
                <Field label="Company name" required validationMessage={problemOf('companyName')}>
                  <Input
                    value={shown.companyName}
                    maxLength={120}
                    disabled={!canEdit}
                    onChange={(_, value) => change({ companyName: value.value })}
                  />
                </Field>
                <Field label="Support email" validationMessage={problemOf('supportEmail')}>
                  <Input
                    type="email"
                    value={shown.supportEmail}
                    placeholder="payments@yourhouse.com"
                    disabled={!canEdit}
                    onChange={(_, value) => change({ supportEmail: value.value })}
                  />
                </Field>
                <Field label="Support phone" validationMessage={problemOf('supportPhone')}>
                  <Input
                    type="tel"
                    value={shown.supportPhone}
                    placeholder="+1 (555) 010-2000"
                    disabled={!canEdit}
                    onChange={(_, value) => change({ supportPhone: value.value })}
                  />
                </Field>
              </div>
              <LogoUpload logoUrl={data.logoUrl} canEdit={canEdit} />
              <div className={form.row}>
                <ColourField
                  label="Primary colour"
                  value={shown.primaryColor}
                  error={problemOf('primaryColor')}
                  disabled={!canEdit}
                  onChange={(primaryColor) => change({ primaryColor })}
                />
                <ColourField
                  label="Secondary colour"
                  value={shown.secondaryColor}
                  error={problemOf('secondaryColor')}
                  disabled={!canEdit}
                  onChange={(secondaryColor) => change({ secondaryColor })}
                />
              </div>
            </div>
          </Card>
          <div className={grid.columns}>
            <Card className={grid.card}>
              <CardHeader
                header={<Subtitle2 as="h2">Payment options</Subtitle2>}
                description={<Caption1>How buyers may pay, and for how long a link works</Caption1>}
              />
              <div className={styles.body}>
                <Field
                  label="Payment methods"
                  validationMessage={problemOf('enabledPaymentMethods')}
                >
                  <div className={styles.tiles} role="group" aria-label="Payment methods">
                    {paymentMethods.map((method) => (
                      <ToggleButton
                        key={method}
                        className={styles.tile}
                        icon={methodIcons[method]}
                        checked={shown.enabledPaymentMethods.includes(method)}
                        appearance={
                          shown.enabledPaymentMethods.includes(method) ? 'primary' : 'secondary'
                        }
                        disabled={!canEdit}
                        onClick={() => toggleMethod(method)}
                      >
                        {paymentMethodLabels[method]}
                      </ToggleButton>
                    ))}
                  </div>
                </Field>
                <Field
                  className={styles.days}
                  label="Link expiration (days)"
                  hint={`Payment links stop working after this many days (1 to ${MAX_LINK_EXPIRATION_DAYS})`}
                  validationMessage={problemOf('defaultExpirationDays')}
                >
                  <Input
                    type="number"
                    min={1}
                    max={MAX_LINK_EXPIRATION_DAYS}
                    value={daysText ?? String(shown.defaultExpirationDays)}
                    disabled={!canEdit}
                    onChange={(_, value) => {
                      setDaysText(value.value);
                      change({ defaultExpirationDays: expirationDaysOf(value.value) });
                    }}
                    onBlur={() => setDaysText(null)}
                  />
                </Field>
                <Switch
                  label="Require login setup"
                  checked={shown.requireLoginSetup}
                  disabled={!canEdit}
                  onChange={(_, value) => change({ requireLoginSetup: value.checked })}
                />
                <Switch
                  label="Allow saved payments"
                  checked={shown.allowSavedPayments}
                  disabled={!canEdit}
                  onChange={(_, value) => change({ allowSavedPayments: value.checked })}
                />
              </div>
            </Card>
            <Card className={grid.card}>
              <CardHeader
                header={<Subtitle2 as="h2">Portal features</Subtitle2>}
                description={<Caption1>What your buyers get</Caption1>}
              />
              <ul className={styles.features}>
                {portalFeatures.map((feature) => (
                  <li key={feature}>
                    <CheckmarkCircleRegular className={styles.check} aria-hidden="true" />
                    <Body1>{feature}</Body1>
                  </li>
                ))}
              </ul>
              <div className={styles.actions}>
                <Button icon={<EyeRegular />} onClick={() => setPreviewing(true)}>
                  Preview Portal
                </Button>
                <Button
                  icon={<LinkRegular />}
                  disabled={!canEdit || !data.enabled || generate.busy}
                  onClick={() => void generate.run()}
                >
                  {generate.busy ? 'Generating...' : 'Generate Test Link'}
                </Button>
              </div>
              {!data.enabled ? (
                <Caption1 className={styles.muted}>
                  Save with the portal on to make a test link.
                </Caption1>
              ) : dirty ? (
                <Caption1 className={styles.muted}>
                  A test link shows the saved settings, not your unsaved changes.
                </Caption1>
              ) : null}
              {link ? (
                <MessageBar intent="success" layout="multiline">
                  <MessageBarBody>
                    <div className={styles.link}>
                      <Link href={link.url} target="_blank" rel="noreferrer" aria-label="Test link">
                        {link.url}
                      </Link>
                      <Caption1>Expires {expiry(link.expiresAt)}</Caption1>
                      <div>
                        <CopyButton text={link.url} size="small" aria-label="Copy test link" />
                      </div>
                    </div>
                  </MessageBarBody>
                </MessageBar>
              ) : null}
            </Card>
          </div>
        </>
      ) : null}
      {!canEdit ? (
        <Body1 className={styles.muted}>{needsPermission('system:settings')}</Body1>
      ) : null}
      <div className={styles.actions}>
        <Button
          appearance="primary"
          disabled={!canEdit || !dirty || save.busy}
          onClick={() => void save.run()}
        >
          {save.busy ? 'Saving...' : 'Save Payment Settings'}
        </Button>
        <Button disabled={!dirty || save.busy} onClick={discard}>
          Discard Changes
        </Button>
      </div>
      <Dialog open={previewing} onOpenChange={(_, value) => setPreviewing(value.open)}>
        <DialogSurface className={styles.previewSurface}>
          <DialogBody>
            <DialogTitle>Portal preview</DialogTitle>
            <DialogContent className={styles.previewContent}>
              {testInvoice.error ? (
                <MessageBar intent="error">
                  <MessageBarBody>{messageOf(testInvoice.error)}</MessageBarBody>
                </MessageBar>
              ) : testInvoice.data ? (
                <BuyerPortalView
                  branding={{
                    companyName: shown.companyName,
                    logoUrl: data.logoUrl,
                    primaryColor: shown.primaryColor,
                    secondaryColor: shown.secondaryColor,
                    supportEmail: shown.supportEmail,
                    supportPhone: shown.supportPhone,
                    enabledPaymentMethods: shown.enabledPaymentMethods,
                    requireLoginSetup: shown.requireLoginSetup,
                    allowSavedPayments: shown.allowSavedPayments,
                  }}
                  invoice={testInvoice.data}
                />
              ) : (
                <Skeleton aria-label="Loading the preview">
                  <SkeletonItem size={128} />
                </Skeleton>
              )}
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={() => setPreviewing(false)}>
                Close
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </div>
  );
}
