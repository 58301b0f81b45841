import { describe, expect, inject, it } from 'vitest';
import type { SupportContacts } from '../../functions/src/support/support.schema.js';

describe('GET /support/contact', () => {
  it('answers anyone, signed in or not, with the contacts the settings give', async () => {
    const response = await fetch(`${inject('domainUrl')}/support/contact`);
    expect(response.status).toBe(200);
    // The stack runs with local.settings.sample.json.
    expect((await response.json()) as SupportContacts).toEqual({
      email: 'support@lotwise.local',
      replyTime: 'We reply within 24 hours.',
      phone: { number: '+1 (800) 555-0199', hours: 'Mon-Fri 9AM-6PM EST' },
      chatHours: 'Monday-Friday 8am-6pm EST',
    });
  });
});
