import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSettings } from '../platform/settings.js';
import { supportContactsOf } from './support.service.js';

const sample = JSON.parse(
  readFileSync(new URL('../../../local.settings.sample.json', import.meta.url), 'utf8'),
) as { Values: Record<string, string> };

/** The committed local settings, without their support contacts, and then these. */
const settingsWith = (env: Record<string, string>) => {
  const values = Object.fromEntries(
    Object.entries(sample.Values).filter(([name]) => !name.startsWith('SUPPORT_')),
  );
  return parseSettings({ ...values, ...env });
};

describe('supportContactsOf', () => {
  it('offers the phone and chat the settings give, with their hours', () => {
    const contacts = supportContactsOf(
      settingsWith({
        SUPPORT_EMAIL: 'help@harborview.example',
        SUPPORT_PHONE: ' +44 20 7946 0018 ',
        SUPPORT_PHONE_HOURS: 'Weekdays 9-5 GMT',
        SUPPORT_CHAT_HOURS: 'Weekdays 8-6 GMT',
      }),
    );
    expect(contacts).toEqual({
      email: 'help@harborview.example',
      replyTime: 'We reply within 24 hours.',
      phone: { number: '+44 20 7946 0018', hours: 'Weekdays 9-5 GMT' },
      chatHours: 'Weekdays 8-6 GMT',
    });
  });

  it('offers no phone or chat the settings leave empty', () => {
    expect(supportContactsOf(settingsWith({ SUPPORT_CHAT_HOURS: '  ' }))).toEqual({
      email: 'support@lotwise.local',
      replyTime: 'We reply within 24 hours.',
      phone: null,
      chatHours: null,
    });
  });
});
