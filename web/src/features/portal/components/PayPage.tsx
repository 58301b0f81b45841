import {
  Body1,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  tokens,
} from '@fluentui/react-components';
import { useParams } from 'react-router';
import { BuyerPortalView } from '../../../components/BuyerPortalView';
import { PageLoading } from '../../../components/PageLoading';
import { ThemeToggle } from '../../../components/ThemeToggle';
import { ApiError, messageOf } from '../../../lib/api-client';
import { usePortalView } from '../api/portal';
import { PortalPaymentPanel } from './PortalPayment';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    boxSizing: 'border-box',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalL,
    padding: `${tokens.spacingVerticalXL} ${tokens.spacingHorizontalL}`,
    backgroundColor: tokens.colorNeutralBackground2,
    color: tokens.colorNeutralForeground1,
    '@media (max-width: 480px)': { padding: tokens.spacingHorizontalS },
  },
  column: {
    width: '100%',
    maxWidth: '760px',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
  },
  top: { display: 'flex', justifyContent: 'flex-end' },
  muted: { color: tokens.colorNeutralForeground3, textAlign: 'center' },
});

/** The house's primary colour for the pay buttons, with text that reads on it (WCAG luminance). */
function houseColours(primary: string): { background: string; text: string } {
  const background = /^#[0-9a-fA-F]{6}$/.test(primary) ? primary : '#1f4e79';
  const channel = (offset: number) => {
    const value = parseInt(background.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return { background, text: luminance > 0.179 ? '#000000' : '#ffffff' };
}

/** What a buyer can do about a link that shows no invoice. */
function refusalAdvice(error: unknown): string {
  if (error instanceof ApiError && error.status === 404)
    return 'Check that the whole address was copied, or ask the auction house for a new link.';
  return '';
}

/** Why a link shows no invoice, in the buyer's terms. */
function refusalTitle(error: unknown): string {
  if (error instanceof ApiError && error.status === 410) return 'This payment link has expired';
  if (error instanceof ApiError && error.status === 404)
    return 'This payment link cannot be opened';
  return 'The invoice could not be loaded';
}

/**
 * /pay/{token}: what a buyer sees when they open the payment link a house sent them. Public: it
 * works signed in or not, and shows only what the link grants.
 */
export default function PayPage() {
  const styles = useStyles();
  const { token } = useParams();
  const { data, error, mutate } = usePortalView(token);
  return (
    <main className={styles.page}>
      <div className={styles.column}>
        <div className={styles.top}>
          <ThemeToggle />
        </div>
        {error ? (
          <MessageBar intent="error" layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>{refusalTitle(error)}</MessageBarTitle>
              <Body1>{`${messageOf(error).replace(/\.?$/, '.')} ${refusalAdvice(error)}`}</Body1>
            </MessageBarBody>
          </MessageBar>
        ) : data ? (
          <BuyerPortalView
            branding={data.branding}
            invoice={data.invoice}
            expiresAt={data.expiresAt}
            {...(data.invoice.kind === 'buyer' && data.payment && token
              ? {
                  charges: data.payment.charges,
                  payment: (
                    <PortalPaymentPanel
                      token={token}
                      payment={data.payment}
                      currency={data.invoice.currency}
                      colours={houseColours(data.branding.primaryColor)}
                      onPaid={() => mutate()}
                    />
                  ),
                }
              : {})}
          />
        ) : (
          <PageLoading />
        )}
        <Caption1 className={styles.muted}>Secure payments powered by Lotwise</Caption1>
      </div>
    </main>
  );
}
