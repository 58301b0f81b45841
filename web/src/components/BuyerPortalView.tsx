import {
  Body1,
  Button,
  Caption1,
  Link,
  makeStyles,
  MessageBar,
  MessageBarBody,
  Subtitle1,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Title3,
  tokens,
} from '@fluentui/react-components';
import {
  paymentMethodLabels,
  type PortalBranding,
  type PortalInvoice,
} from '@contracts/settings/settings.schema';
import { Fragment, type ReactNode } from 'react';
import { formatMoney } from '../lib/money';

const useStyles = makeStyles({
  portal: {
    display: 'flex',
    flexDirection: 'column',
    backgroundColor: tokens.colorNeutralBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusXLarge,
    overflow: 'hidden',
    boxShadow: tokens.shadow4,
  },
  masthead: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalL,
    padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalXL}`,
    borderBottomWidth: tokens.strokeWidthThickest,
    borderBottomStyle: 'solid',
    '@media (max-width: 560px)': { padding: tokens.spacingHorizontalL },
  },
  brand: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    minWidth: 0,
  },
  logo: {
    maxWidth: '200px',
    maxHeight: '80px',
    objectFit: 'contain',
    '@media (max-width: 560px)': { maxWidth: '120px', maxHeight: '48px' },
  },
  company: { overflowWrap: 'anywhere' },
  invoiceNumber: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-end',
    '@media (max-width: 560px)': { alignItems: 'flex-start' },
  },
  body: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalXL,
    '@media (max-width: 560px)': { padding: tokens.spacingHorizontalL },
  },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(160px, 1fr))',
    gap: tokens.spacingVerticalS,
    margin: 0,
    '& dt': { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
    '& dd': { margin: 0, fontWeight: tokens.fontWeightSemibold },
  },
  money: { textAlign: 'right', whiteSpace: 'nowrap' },
  lotColumn: { width: '64px', '@media (max-width: 560px)': { width: '44px' } },
  amountColumn: {
    width: '120px',
    '@media (max-width: 560px)': { width: '88px' },
    textAlign: 'right',
    '& .fui-TableHeaderCell__button': { justifyContent: 'flex-end' },
  },
  totals: {
    display: 'grid',
    gridTemplateColumns: '1fr auto',
    rowGap: tokens.spacingVerticalXS,
    columnGap: tokens.spacingHorizontalL,
    marginLeft: 'auto',
    width: 'min(100%, 320px)',
  },
  due: {
    gridColumn: '1 / -1',
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'baseline',
    marginTop: tokens.spacingVerticalS,
    paddingTop: tokens.spacingVerticalS,
    borderTopWidth: tokens.strokeWidthThick,
    borderTopStyle: 'solid',
  },
  pay: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  payHeading: { margin: 0 },
  methods: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
    gap: tokens.spacingHorizontalS,
  },
  hint: { color: tokens.colorNeutralForeground3 },
  notes: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalXL,
    color: tokens.colorNeutralForeground2,
  },
  footer: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalL}`,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalXL}`,
    backgroundColor: tokens.colorNeutralBackground2,
    color: tokens.colorNeutralForeground2,
    '@media (max-width: 560px)': { padding: tokens.spacingHorizontalL },
  },
});

/** Whether dark text reads better than light on a colour (WCAG relative luminance). */
function prefersDarkText(hex: string): boolean {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.179;
}

const validColor = (value: string, fallback: string) =>
  /^#[0-9a-fA-F]{6}$/.test(value) ? value : fallback;

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

const issued = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });

/**
 * The page a buyer sees when they open a payment link: the house's branding, the invoice, how
 * they may pay and whom to ask. The public /pay page and the settings preview both show this, so
 * the preview is exactly what buyers get. Colours are the house's own, not the theme's.
 */
export function BuyerPortalView({
  branding,
  invoice,
  expiresAt,
  charges = [],
  payment,
}: {
  branding: PortalBranding;
  invoice: PortalInvoice;
  /** When the link stops working; absent in the preview, which has no link. */
  expiresAt?: string;
  /** A buyer invoice's charges (shipping, handling), listed before the tax. */
  charges?: { label: string; amount: number }[];
  /** A buyer invoice's way to pay, in place of the preview's method buttons. */
  payment?: ReactNode;
}) {
  const styles = useStyles();
  const primary = validColor(branding.primaryColor, '#1f4e79');
  const secondary = validColor(branding.secondaryColor, '#c8963e');
  const onPrimary = prefersDarkText(primary)
    ? tokens.colorNeutralForeground1Static
    : tokens.colorNeutralForegroundStaticInverted;
  const money = (minor: number) => formatMoney(minor, invoice.currency);
  const test = invoice.kind === 'test';
  const company = branding.companyName || invoice.houseName;
  return (
    <article className={styles.portal} aria-label={`${company} payment portal`}>
      <header
        className={styles.masthead}
        style={{ backgroundColor: primary, color: onPrimary, borderBottomColor: secondary }}
      >
        <div className={styles.brand}>
          {branding.logoUrl ? (
            <img className={styles.logo} src={branding.logoUrl} alt={`${company} logo`} />
          ) : null}
          <Title3 as="h1" className={styles.company}>
            {company}
          </Title3>
        </div>
        <div className={styles.invoiceNumber}>
          <Caption1>Invoice</Caption1>
          <Subtitle2>{invoice.number}</Subtitle2>
        </div>
      </header>
      <div className={styles.body}>
        {test ? (
          <MessageBar intent="warning">
            <MessageBarBody>
              This is a test invoice: it shows how your buyers will see theirs.
            </MessageBarBody>
          </MessageBar>
        ) : null}
        <dl className={styles.facts}>
          <div>
            <dt>Billed to</dt>
            <dd>{invoice.buyerName}</dd>
          </div>
          <div>
            <dt>From</dt>
            <dd>{invoice.houseName}</dd>
          </div>
          <div>
            <dt>Issued</dt>
            <dd>{issued(invoice.issuedAt)}</dd>
          </div>
          {expiresAt ? (
            <div>
              <dt>Link valid until</dt>
              <dd>{issued(expiresAt)}</dd>
            </div>
          ) : null}
        </dl>
        <Table size="small" aria-label="Lots on this invoice">
          <TableHeader>
            <TableRow>
              <TableHeaderCell className={styles.lotColumn}>Lot</TableHeaderCell>
              <TableHeaderCell>Description</TableHeaderCell>
              <TableHeaderCell className={styles.amountColumn}>Hammer</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {invoice.lines.map((line) => (
              <TableRow key={line.lotNumber}>
                <TableCell>{line.lotNumber}</TableCell>
                <TableCell>{line.title}</TableCell>
                <TableCell className={styles.money}>{money(line.hammer)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <div className={styles.totals}>
          <Body1>Hammer total</Body1>
          <Body1 className={styles.money}>{money(invoice.hammerTotal)}</Body1>
          <Body1>Buyer&apos;s premium ({percent(invoice.buyersPremiumRate)})</Body1>
          <Body1 className={styles.money}>{money(invoice.buyersPremium)}</Body1>
          {charges.map((charge, index) => (
            <Fragment key={`${charge.label}-${index}`}>
              <Body1>{charge.label}</Body1>
              <Body1 className={styles.money}>{money(charge.amount)}</Body1>
            </Fragment>
          ))}
          <Body1>Tax ({percent(invoice.taxRate)})</Body1>
          <Body1 className={styles.money}>{money(invoice.tax)}</Body1>
          <div className={styles.due} style={{ borderTopColor: secondary }}>
            <Subtitle2>Total due</Subtitle2>
            <Subtitle1>{money(invoice.total)}</Subtitle1>
          </div>
        </div>
        {payment ?? (
          <section className={styles.pay} aria-label="Pay this invoice">
            <Subtitle2 as="h2" className={styles.payHeading}>
              Pay with
            </Subtitle2>
            <div className={styles.methods}>
              {branding.enabledPaymentMethods.map((method) => (
                <Button
                  key={method}
                  disabled={test}
                  style={test ? undefined : { backgroundColor: primary, color: onPrimary }}
                >
                  {paymentMethodLabels[method]}
                </Button>
              ))}
            </div>
            {test ? (
              <Caption1 className={styles.hint}>Test invoice — no payment is taken</Caption1>
            ) : null}
            {branding.requireLoginSetup || branding.allowSavedPayments ? (
              <ul className={styles.notes}>
                {branding.requireLoginSetup ? (
                  <li>
                    <Caption1>You will set up a login before paying.</Caption1>
                  </li>
                ) : null}
                {branding.allowSavedPayments ? (
                  <li>
                    <Caption1>You may save a payment method for next time.</Caption1>
                  </li>
                ) : null}
              </ul>
            ) : null}
          </section>
        )}
      </div>
      {branding.supportEmail || branding.supportPhone ? (
        <footer className={styles.footer}>
          <Text>Questions about this invoice?</Text>
          {branding.supportEmail ? (
            <Link href={`mailto:${branding.supportEmail}`}>{branding.supportEmail}</Link>
          ) : null}
          {branding.supportPhone ? (
            <Link href={`tel:${branding.supportPhone.replace(/[^\d+]/g, '')}`}>
              {branding.supportPhone}
            </Link>
          ) : null}
        </footer>
      ) : null}
    </article>
  );
}
