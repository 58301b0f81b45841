import { StripeError } from './http.js';

/**
 * Stripe's test cards and what they do, without randomness: the number decides the outcome at
 * attach time (a SetupIntent or attach checks the card) and at charge time.
 */
export type CardOutcome =
  | 'succeed'
  | 'generic_decline'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  /** 4000000000000341: attaches fine, then every charge declines. */
  | 'decline_after_attach'
  /** 4000000000000259: the charge succeeds, then the cardholder disputes it. */
  | 'dispute';

const outcomesByNumber: Record<string, CardOutcome> = {
  '4000000000000002': 'generic_decline',
  '4000000000009995': 'insufficient_funds',
  '4000000000000069': 'expired_card',
  '4000000000000127': 'incorrect_cvc',
  '4000000000000341': 'decline_after_attach',
  '4000000000000259': 'dispute',
};

/** Stripe's `pm_card_*` test payment methods and the card each stands for. */
export const magicPaymentMethods: Record<string, string> = {
  pm_card_visa: '4242424242424242',
  pm_card_mastercard: '5555555555554444',
  pm_card_amex: '378282246310005',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_chargeCustomerFail: '4000000000000341',
  pm_card_createDispute: '4000000000000259',
};

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc?: string;
}

export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let index = 0; index < number.length; index += 1) {
    let digit = Number(number[number.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function brandOf(number: string): string {
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^4/.test(number)) return 'visa';
  if (/^6(011|5)/.test(number)) return 'discover';
  return 'unknown';
}

/** The error a declined card answers with, in Stripe's words. */
export function declineError(outcome: CardOutcome): StripeError | null {
  switch (outcome) {
    case 'succeed':
    case 'dispute':
      return null;
    case 'generic_decline':
    case 'decline_after_attach':
      return StripeError.card('card_declined', 'Your card was declined.', 'generic_decline');
    case 'insufficient_funds':
      return StripeError.card(
        'card_declined',
        'Your card has insufficient funds.',
        'insufficient_funds',
      );
    case 'expired_card':
      return StripeError.card('expired_card', 'Your card has expired.', 'expired_card');
    case 'incorrect_cvc':
      return StripeError.card(
        'incorrect_cvc',
        "Your card's security code is incorrect.",
        'incorrect_cvc',
      );
  }
}

/**
 * Checks the card as Stripe does when it is first given (number, expiry: those fail whatever the
 * card) and says how it will behave when checked or charged.
 */
export function readCard(card: CardInput, now = new Date()): CardOutcome {
  const number = card.number.replace(/\s+/g, '');
  if (!luhnValid(number)) {
    throw StripeError.card(
      'incorrect_number',
      'Your card number is incorrect.',
      undefined,
      'number',
    );
  }
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  const expired =
    year < now.getUTCFullYear() ||
    (year === now.getUTCFullYear() && card.exp_month < now.getUTCMonth() + 1);
  if (!Number.isInteger(card.exp_month) || card.exp_month < 1 || card.exp_month > 12) {
    throw StripeError.card(
      'invalid_expiry_month',
      "Your card's expiration month is invalid.",
      undefined,
      'exp_month',
    );
  }
  if (expired)
    throw StripeError.card('expired_card', 'Your card has expired.', 'expired_card', 'exp_month');
  return outcomesByNumber[number] ?? 'succeed';
}

/** Saving a card for later checks it with the bank: every decline card fails but 0341. */
export const setupError = (outcome: CardOutcome) =>
  outcome === 'decline_after_attach' ? null : declineError(outcome);
