import { z } from 'zod';

/** An error the web app could not recover from, reported so that it lands in the service logs. */
export const clientErrorSchema = z.object({
  message: z.string().trim().min(1).max(2_000),
  stack: z.string().max(10_000).optional(),
  url: z.url().max(2_000),
  correlationId: z.string().max(100).optional(),
  userAgent: z.string().max(500).optional(),
  occurredAt: z.iso.datetime(),
});
export type ClientError = z.infer<typeof clientErrorSchema>;

export const clientErrorReceiptSchema = z.object({ received: z.literal(true) });
