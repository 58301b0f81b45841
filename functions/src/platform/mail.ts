import { randomUUID } from 'node:crypto';
import { EmailClient } from '@azure/communication-email';
import { SmsClient } from '@azure/communication-sms';
import { DefaultAzureCredential } from '@azure/identity';
import type { ContainerDefinition } from './cosmos.js';
import { container } from './cosmos.js';
import { settings } from './settings.js';

/** One message to one person, by email or text. */
export interface OutgoingMessage {
  channel: 'email' | 'sms';
  /** An email address or an E.164 phone number. */
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What the message is for, e.g. `invitation`, `password-reset`, `mfa-code`. */
  kind: string;
}

export interface OutboxEntry extends OutgoingMessage {
  id: string;
  createdAt: string;
}

export const outboxContainer: ContainerDefinition = {
  id: 'outbox',
  partitionKey: '/to',
  compositeIndexes: [
    [
      { path: '/createdAt', order: 'descending' },
      { path: '/id', order: 'descending' },
    ],
  ],
};

let emailClient: EmailClient | undefined;
let smsClient: SmsClient | undefined;

function acsEmail(): EmailClient {
  const config = settings();
  emailClient ??= config.ACS_CONNECTION_STRING
    ? new EmailClient(config.ACS_CONNECTION_STRING)
    : new EmailClient(config.ACS_ENDPOINT as string, new DefaultAzureCredential());
  return emailClient;
}

function acsSms(): SmsClient {
  const config = settings();
  smsClient ??= config.ACS_CONNECTION_STRING
    ? new SmsClient(config.ACS_CONNECTION_STRING)
    : new SmsClient(config.ACS_ENDPOINT as string, new DefaultAzureCredential());
  return smsClient;
}

/**
 * The one way Lotwise sends mail and texts: Azure Communication Services when configured,
 * otherwise the local outbox a developer reads at GET /dev/outbox.
 */
export async function sendMessage(message: OutgoingMessage): Promise<void> {
  const config = settings();
  if (config.MAIL_TRANSPORT === 'outbox') {
    const entry: OutboxEntry = {
      ...message,
      id: randomUUID(),
      createdAt: new Date().toISOString(),
    };
    await container(outboxContainer.id).items.create(entry);
    return;
  }
  if (message.channel === 'sms') {
    if (!config.SMS_SENDER) throw new Error('SMS_SENDER is not configured');
    const [result] = await acsSms().send({
      from: config.SMS_SENDER,
      to: [message.to],
      message: message.text,
    });
    if (!result?.successful)
      throw new Error(`SMS was not accepted: ${result?.errorMessage ?? 'unknown'}`);
    return;
  }
  const poller = await acsEmail().beginSend({
    senderAddress: config.MAIL_SENDER,
    recipients: { to: [{ address: message.to }] },
    content: {
      subject: message.subject,
      plainText: message.text,
      ...(message.html ? { html: message.html } : {}),
    },
  });
  await poller.pollUntilDone();
}

/** The newest messages in the local outbox, optionally for one recipient. */
export async function readOutbox(to: string | undefined, limit: number): Promise<OutboxEntry[]> {
  const { resources } = await container(outboxContainer.id)
    .items.query<OutboxEntry>(
      {
        query: `SELECT TOP @limit * FROM c ${to ? 'WHERE c.to = @to' : ''} ORDER BY c.createdAt DESC`,
        parameters: [{ name: '@limit', value: limit }, ...(to ? [{ name: '@to', value: to }] : [])],
      },
      to ? { partitionKey: to } : {},
    )
    .fetchAll();
  return resources;
}
