import type { PaymentPortalInput } from '@contracts/settings/settings.schema';
import { describe, expect, it } from 'vitest';
import { expirationDaysOf, problemsOf } from './portal-form';

const valid: PaymentPortalInput = {
  enabled: true,
  companyName: 'Harborview',
  primaryColor: '#1f4e79',
  secondaryColor: '#C8963E',
  defaultExpirationDays: 30,
  enabledPaymentMethods: ['credit_card'],
  requireLoginSetup: false,
  allowSavedPayments: true,
  supportEmail: '',
  supportPhone: '',
};

describe('the payment portal form', () => {
  it('falls back to 30 days when what is typed is not a number (spec 5)', () => {
    expect(expirationDaysOf('')).toBe(30);
    expect(expirationDaysOf('soon')).toBe(30);
    expect(expirationDaysOf('14')).toBe(14);
  });

  it('finds nothing wrong with a valid portal, blank contacts included', () => {
    expect(problemsOf(valid)).toEqual({});
  });

  it('names each field the service would refuse', () => {
    expect(
      problemsOf({
        ...valid,
        companyName: ' ',
        primaryColor: 'blue',
        secondaryColor: '#12345',
        defaultExpirationDays: 400,
        enabledPaymentMethods: [],
        supportEmail: 'help at house.com',
        supportPhone: '555-0100',
      }),
    ).toEqual({
      companyName: 'Give the name buyers will see',
      primaryColor: 'Use a colour like #1f4e79',
      secondaryColor: 'Use a colour like #c8963e',
      defaultExpirationDays: 'Use 1 to 365 days',
      enabledPaymentMethods: 'Offer at least one payment method',
      supportEmail: 'Use an email like help@house.com',
      supportPhone: 'Use at least 10 digits, like +1 (555) 010-2000',
    });
  });

  it('asks for a name and a method only while the portal is on', () => {
    expect(
      problemsOf({ ...valid, enabled: false, companyName: '', enabledPaymentMethods: [] }),
    ).toEqual({});
  });
});
