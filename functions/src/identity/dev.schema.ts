import { z } from 'zod';

/** The local outbox's contract (only where mail is not really sent). */

export const outboxQuerySchema = z.object({
  to: z.string().trim().toLowerCase().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const outboxResponseSchema = z.object({
  messages: z.array(
    z.object({
      id: z.string(),
      channel: z.enum(['email', 'sms']),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      html: z.string().optional(),
      kind: z.string(),
      createdAt: z.string(),
    }),
  ),
});
