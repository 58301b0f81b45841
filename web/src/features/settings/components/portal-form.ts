import {
  COLOR_PATTERN,
  DEFAULT_LINK_EXPIRATION_DAYS,
  EMAIL_PATTERN,
  MAX_LINK_EXPIRATION_DAYS,
  PHONE_PATTERN,
  type PaymentPortalInput,
} from '@contracts/settings/settings.schema';

/** The payment portal form's own checks, the service's rules said before anything is sent. */

export type PortalField = keyof PaymentPortalInput;

/** Spec 5: the days fall back to 30 when what is typed is not a number. */
export const expirationDaysOf = (text: string) => {
  const days = Number.parseInt(text, 10);
  return Number.isNaN(days) ? DEFAULT_LINK_EXPIRATION_DAYS : days;
};

/** The problems the service would refuse, found before sending, by field and in words. */
export function problemsOf(input: PaymentPortalInput): Partial<Record<PortalField, string>> {
  const problems: Partial<Record<PortalField, string>> = {};
  if (!COLOR_PATTERN.test(input.primaryColor.trim()))
    problems.primaryColor = 'Use a colour like #1f4e79';
  if (!COLOR_PATTERN.test(input.secondaryColor.trim()))
    problems.secondaryColor = 'Use a colour like #c8963e';
  const email = input.supportEmail.trim();
  if (email && !EMAIL_PATTERN.test(email))
    problems.supportEmail = 'Use an email like help@house.com';
  const phone = input.supportPhone.trim();
  if (phone && !PHONE_PATTERN.test(phone))
    problems.supportPhone = 'Use at least 10 digits, like +1 (555) 010-2000';
  const days = input.defaultExpirationDays;
  if (days < 1 || days > MAX_LINK_EXPIRATION_DAYS)
    problems.defaultExpirationDays = `Use 1 to ${MAX_LINK_EXPIRATION_DAYS} days`;
  if (input.enabled && !input.companyName.trim())
    problems.companyName = 'Give the name buyers will see';
  if (input.enabled && input.enabledPaymentMethods.length === 0)
    problems.enabledPaymentMethods = 'Offer at least one payment method';
  return problems;
}

export const fieldNames: Record<PortalField, string> = {
  enabled: 'Customer payment portal',
  companyName: 'Company name',
  primaryColor: 'Primary colour',
  secondaryColor: 'Secondary colour',
  defaultExpirationDays: 'Link expiration',
  enabledPaymentMethods: 'Payment methods',
  requireLoginSetup: 'Require login setup',
  allowSavedPayments: 'Allow saved payments',
  supportEmail: 'Support email',
  supportPhone: 'Support phone',
};
