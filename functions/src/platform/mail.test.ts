import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSampleSettings } from '../../dev/local-settings.js';
import type * as MailModule from './mail.js';

/**
 * The Communication Services transport against the SDKs' contract: what it hands EmailClient and
 * SmsClient, and what it makes of their answers (a refused text, a send that fails).
 */
const sdk = vi.hoisted(() => ({
  emailClients: [] as unknown[][],
  smsClients: [] as unknown[][],
  sent: [] as unknown[],
  texted: [] as unknown[],
  emailOutcome: { status: 'Succeeded' } as { status: string } | Error,
  smsResult: [{ to: '+15551230000', successful: true, httpStatusCode: 202 }] as unknown[],
}));

vi.mock('@azure/communication-email', () => ({
  EmailClient: class {
    constructor(...args: unknown[]) {
      sdk.emailClients.push(args);
    }
    beginSend(message: unknown) {
      sdk.sent.push(message);
      return Promise.resolve({
        pollUntilDone: () =>
          sdk.emailOutcome instanceof Error
            ? Promise.reject(sdk.emailOutcome)
            : Promise.resolve(sdk.emailOutcome),
      });
    }
  },
}));

vi.mock('@azure/communication-sms', () => ({
  SmsClient: class {
    constructor(...args: unknown[]) {
      sdk.smsClients.push(args);
    }
    send(request: unknown) {
      sdk.texted.push(request);
      return Promise.resolve(sdk.smsResult);
    }
  },
}));

let sendMessage: typeof MailModule.sendMessage;

beforeAll(async () => {
  process.env.MAIL_TRANSPORT = 'acs';
  process.env.ACS_CONNECTION_STRING =
    'endpoint=https://lotwise.communication.azure.com/;accesskey=a2V5';
  process.env.MAIL_SENDER = 'no-reply@lotwise.example';
  process.env.SMS_SENDER = '+18005550100';
  useSampleSettings();
  ({ sendMessage } = await import('./mail.js'));
});

beforeEach(() => {
  sdk.sent = [];
  sdk.texted = [];
  sdk.emailOutcome = { status: 'Succeeded' };
  sdk.smsResult = [{ to: '+15551230000', successful: true, httpStatusCode: 202 }];
});

describe('sendMessage through Communication Services', () => {
  it('sends an email from the configured sender, with its text and HTML, and waits for it', async () => {
    await sendMessage({
      channel: 'email',
      to: 'ada@example.com',
      subject: 'You are invited',
      text: 'Join Harborview',
      html: '<p>Join Harborview</p>',
      kind: 'invitation',
    });
    expect(sdk.emailClients).toEqual([[process.env.ACS_CONNECTION_STRING]]);
    expect(sdk.sent).toEqual([
      {
        senderAddress: 'no-reply@lotwise.example',
        recipients: { to: [{ address: 'ada@example.com' }] },
        content: {
          subject: 'You are invited',
          plainText: 'Join Harborview',
          html: '<p>Join Harborview</p>',
        },
      },
    ]);
  });

  it('fails when the service fails the email, so the caller can try again', async () => {
    sdk.emailOutcome = new Error('The sender domain is not verified');
    await expect(
      sendMessage({ channel: 'email', to: 'a@example.com', subject: 's', text: 't', kind: 'k' }),
    ).rejects.toThrow('The sender domain is not verified');
  });

  it('texts from the configured number, and fails on a text the service refuses', async () => {
    await sendMessage({
      channel: 'sms',
      to: '+15551230000',
      subject: 'Your code',
      text: 'Your Lotwise code is 123456',
      kind: 'mfa-code',
    });
    expect(sdk.texted).toEqual([
      { from: '+18005550100', to: ['+15551230000'], message: 'Your Lotwise code is 123456' },
    ]);
    // One client of each kind for the process, made from the connection string.
    expect(sdk.smsClients).toEqual([[process.env.ACS_CONNECTION_STRING]]);

    sdk.smsResult = [
      { to: '+15551230000', successful: false, httpStatusCode: 400, errorMessage: 'Invalid To' },
    ];
    await expect(
      sendMessage({ channel: 'sms', to: '+15551230000', subject: 's', text: 't', kind: 'k' }),
    ).rejects.toThrow('SMS was not accepted: Invalid To');
  });
});
