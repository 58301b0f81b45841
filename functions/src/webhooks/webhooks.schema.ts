import { z } from 'zod';

/**
 * Contracts of the house's outgoing webhooks: endpoints, the events they subscribe to, and the
 * log of deliveries.
 */

/**
 * The events a house can subscribe to, with what the settings screen calls them. A feature that
 * emits a new event adds it here (cases and payments will).
 */
export const webhookEvents = {
  'auction.published': 'An auction is published',
  'auction.closed': 'An auction is closed',
  'registration.decided': 'A registration is approved or denied',
  'bidder.created': 'A bidder is added',
  'bidder.merged': 'Two bidders are merged',
} as const;
export type WebhookEventType = keyof typeof webhookEvents;
export const webhookEventTypes = Object.keys(webhookEvents) as WebhookEventType[];

/** The event `POST /webhooks/{id}/test` sends; nobody subscribes to it. */
export const PING_EVENT = 'ping';

export const webhookEventTypeSchema = z.enum(
  webhookEventTypes as [WebhookEventType, ...WebhookEventType[]],
);

/** An endpoint as created or replaced; the URL is checked on the server (scheme, address). */
export const webhookInputSchema = z.object({
  url: z.string().trim().min(1, 'is required').max(2048),
  description: z.string().trim().max(200).default(''),
  events: z
    .array(webhookEventTypeSchema)
    .min(1, 'choose at least one event')
    .max(webhookEventTypes.length)
    .refine((events) => new Set(events).size === events.length, 'names an event twice'),
  enabled: z.boolean().default(true),
});
export type WebhookInput = z.infer<typeof webhookInputSchema>;

const person = z.object({ userId: z.string(), name: z.string() });

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  /** `whsec_…` and the secret's last four characters, to tell secrets apart. */
  secretHint: z.string(),
  createdAt: z.string(),
  createdBy: person,
  updatedAt: z.string(),
  etag: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });

/** A new endpoint, or one whose secret was rotated: the only time the secret is shown. */
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

export const deliveryAttemptSchema = z.object({
  at: z.string(),
  /** The receiver's status, or null when no answer came (refused, timed out, unreachable). */
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  error: z.string().nullable(),
  /** The start of the receiver's answer. */
  responseSnippet: z.string().nullable(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;

export const deliveryStatuses = ['pending', 'sending', 'retrying', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const webhookEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  createdAt: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

export const deliverySchema = z.object({
  id: z.string(),
  webhookId: z.string(),
  /** The body as sent: the event. */
  event: webhookEventSchema,
  status: z.enum(deliveryStatuses),
  attempts: z.array(deliveryAttemptSchema),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  /** Why it stopped without an attempt (the endpoint was disabled), or the last attempt's error. */
  lastError: z.string().nullable(),
  /** The delivery this one sends again. */
  resendOf: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const deliveryListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  continuationToken: z.string().max(4000).optional(),
});

export const deliveryListSchema = z.object({
  deliveries: z.array(deliverySchema),
  continuationToken: z.string().optional(),
});
export type DeliveryList = z.infer<typeof deliveryListSchema>;

/** What the delivery queue carries: which delivery to attempt. */
export const deliveryMessageSchema = z.object({
  accountId: z.string().min(1),
  deliveryId: z.string().min(1),
});
