import { randomInt, randomUUID } from 'node:crypto';
import { writeAudit } from '../platform/audit.js';
import { sendMessage } from '../platform/mail.js';
import type { RequestContext } from '../platform/context.js';
import { settings, type Settings } from '../platform/settings.js';
import type { SupportContacts, Ticket, TicketRequest } from './support.schema.js';
import { ticketsRepo, type TicketRecord } from './support.repo.js';

const toTicket = (record: TicketRecord): Ticket => ({
  id: record.id,
  reference: record.reference,
  subject: record.subject,
  category: record.category,
  description: record.description,
  status: record.status,
  createdAt: record.createdAt,
});

/** Stores the ticket, sends it to the support mailbox and confirms it to the person. */
/** How to reach the team from these settings: a phone or chat left empty is not offered. */
export function supportContactsOf(
  given: Pick<
    Settings,
    | 'SUPPORT_EMAIL'
    | 'SUPPORT_REPLY_TIME'
    | 'SUPPORT_PHONE'
    | 'SUPPORT_PHONE_HOURS'
    | 'SUPPORT_CHAT_HOURS'
  >,
): SupportContacts {
  const phone = given.SUPPORT_PHONE.trim();
  return {
    email: given.SUPPORT_EMAIL,
    replyTime: given.SUPPORT_REPLY_TIME,
    phone: phone ? { number: phone, hours: given.SUPPORT_PHONE_HOURS.trim() } : null,
    chatHours: given.SUPPORT_CHAT_HOURS.trim() || null,
  };
}

/** GET /support/contact: how to reach the team, from the deployment's settings. */
export const supportContacts = () => supportContactsOf(settings());

export async function openTicket(ctx: RequestContext, input: TicketRequest): Promise<Ticket> {
  const { actor } = ctx;
  const reference = `LW-${randomInt(100_000, 1_000_000)}`;
  const record = await ticketsRepo.create(ctx.scope, {
    id: randomUUID(),
    reference,
    userId: actor.userId,
    email: actor.email,
    name: actor.name,
    subject: input.subject,
    category: input.category,
    description: input.description,
    status: 'open',
    createdAt: new Date().toISOString(),
  });
  await sendMessage({
    channel: 'email',
    to: settings().SUPPORT_EMAIL,
    kind: 'support-ticket',
    subject: `[${reference}] ${input.category}: ${input.subject}`,
    text: [
      `From: ${actor.name} <${actor.email}>`,
      `Account: ${ctx.scope.accountId}`,
      `Category: ${input.category}`,
      `Reference: ${reference}`,
      `Correlation: ${ctx.correlationId}`,
      '',
      input.description,
    ].join('\n'),
  });
  await sendMessage({
    channel: 'email',
    to: actor.email,
    kind: 'support-ticket-received',
    subject: `We received your request ${reference}`,
    text: [
      `Thank you. Your request "${input.subject}" is logged as ${reference}.`,
      'We reply by email within 24 hours.',
      '',
      '— Lotwise Support',
    ].join('\n'),
  });
  await writeAudit(ctx, {
    action: 'support.ticket-open',
    entity: { type: 'ticket', id: record.id },
    after: { reference, category: input.category },
  });
  return toTicket(record);
}

export async function myTickets(ctx: RequestContext): Promise<Ticket[]> {
  const page = await ticketsRepo.page(ctx.scope, {
    where: 'c.userId = @userId',
    parameters: [{ name: '@userId', value: ctx.actor.userId }],
    orderBy: 'c.userId ASC, c.createdAt DESC',
    pageSize: 20,
  });
  return page.items.map(toTicket);
}
