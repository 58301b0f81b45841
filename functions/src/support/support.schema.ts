import { z } from 'zod';

export const supportCategories = [
  'Technical Issue',
  'Account & Billing',
  'Bidder Scoring',
  'Data Import',
  'Feature Request',
  'Other',
] as const;

export const ticketRequestSchema = z.object({
  subject: z.string().trim().min(5, 'must be at least 5 characters').max(150),
  category: z.enum(supportCategories, { message: 'Choose a category' }),
  description: z
    .string()
    .trim()
    .min(20, 'Describe the problem in at least 20 characters')
    .max(5000),
});
export type TicketRequest = z.infer<typeof ticketRequestSchema>;

export const ticketSchema = z.object({
  id: z.string(),
  reference: z.string(),
  subject: z.string(),
  category: z.string(),
  description: z.string(),
  status: z.enum(['open', 'closed']),
  createdAt: z.string(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketListSchema = z.object({ tickets: z.array(ticketSchema) });

/** How to reach the support team (GET /support/contact), as the deployment configures it. */
export const supportContactsSchema = z.object({
  email: z.string(),
  /** How soon a message is answered ("We reply within 24 hours."). */
  replyTime: z.string(),
  /** Null when the team takes no calls. */
  phone: z.object({ number: z.string(), hours: z.string() }).nullable(),
  /** When live chat is staffed; null when it is not offered. */
  chatHours: z.string().nullable(),
});
export type SupportContacts = z.infer<typeof supportContactsSchema>;
