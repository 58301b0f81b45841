import { readFileSync } from 'node:fs';
import { z } from 'zod';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

const csv = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url()));

const boolFlag = z.enum(['true', 'false']).transform((value) => value === 'true');

/**
 * Every setting the services read, with its local default. `local.settings.sample.json` lists the
 * same names; a test keeps the two in step.
 */
export const settingsSchema = z
  .object({
    FUNCTIONS_SERVICE: z.enum(['auth', 'domain', 'all']).default('all'),
    APP_VERSION: z.string().min(1).default(packageVersion),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
    WEB_ORIGINS: csv.default(['http://localhost:4280']),

    COSMOS_ENDPOINT: z.url(),
    // Without a key the services sign in with DefaultAzureCredential (managed identity in Azure).
    COSMOS_KEY: z.string().min(1).optional(),
    COSMOS_DATABASE: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,255}$/)
      .default('lotwise'),
    // The local emulator has no endpoint discovery, TLS or gateway regions.
    COSMOS_EMULATOR: boolFlag.default(false),

    // Same names the Functions host uses for its own storage connection.
    AzureWebJobsStorage: z.string().min(1).optional(),
    AzureWebJobsStorage__blobServiceUri: z.url().optional(),
    AzureWebJobsStorage__queueServiceUri: z.url().optional(),

    // HMAC key for access tokens (Key Vault reference in Azure); at least 256 bits.
    AUTH_SIGNING_KEY: z.string().min(32, 'must be at least 32 characters'),
    AUTH_ISSUER: z.string().min(1).default('lotwise'),

    // Where links in email point, e.g. https://app.lotwise.example.
    PUBLIC_WEB_URL: z.url().default('http://localhost:4280'),
    // `outbox` keeps messages in Cosmos for a developer to read (GET /dev/outbox); `acs` sends
    // them with Azure Communication Services.
    MAIL_TRANSPORT: z.enum(['outbox', 'acs']).default('outbox'),
    ACS_ENDPOINT: z.url().optional(),
    ACS_CONNECTION_STRING: z.string().min(1).optional(),
    MAIL_SENDER: z.email().default('no-reply@lotwise.local'),
    SMS_SENDER: z.string().min(1).optional(),
    SUPPORT_EMAIL: z.email().default('support@lotwise.local'),
    // How the support page and Help › Contact Support say to reach the team; a phone or chat
    // left empty is not offered.
    SUPPORT_REPLY_TIME: z.string().min(1).default('We reply within 24 hours.'),
    SUPPORT_PHONE: z.string().default(''),
    SUPPORT_PHONE_HOURS: z.string().default(''),
    SUPPORT_CHAT_HOURS: z.string().default(''),

    // Microsoft (Entra ID) sign-in; off unless the client id and tenant are set.
    ENTRA_CLIENT_ID: z.string().min(1).optional(),
    ENTRA_TENANT_ID: z.string().min(1).optional(),
    ENTRA_CLIENT_SECRET: z.string().min(1).optional(),
    ENTRA_AUTHORITY_HOST: z.url().default('https://login.microsoftonline.com'),
    ENTRA_REDIRECT_URI: z.url().optional(),

    // "Try the demo": each visit opens a demo sandbox of its own. Never in production.
    DEMO_ENABLED: boolFlag.default(false),

    ENVIRONMENT: z.enum(['development', 'test', 'production']).default('development'),
    // Feature flags: Azure App Configuration when an endpoint is set, else a local JSON file in the
    // same schema, else the built-in fallbacks.
    APP_CONFIGURATION_ENDPOINT: z.url().optional(),
    FEATURE_FLAGS_FILE: z.string().min(1).optional(),

    // Checks every reply against its route's response schema (on in the tests; it costs a parse).
    CHECK_RESPONSES: boolFlag.default(false),

    DEPENDENCY_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2_000),

    // Outgoing webhooks may go to private and loopback addresses (a receiver on this machine).
    // Only for local development and tests; never in production, where only https to public
    // addresses is allowed.
    WEBHOOKS_ALLOW_PRIVATE: boolFlag.default(false),
    // The first retry of a failed webhook delivery waits this long; later ones 5, 30, 120 and 360
    // times as long (1 min, 5 min, 30 min, 2 h, 6 h). Small only in tests.
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(60_000),
    // Each bidding platform's API root: the local platform sandbox in development and CI, the
    // platform itself in Azure. A platform without one cannot be connected.
    PLATFORM_URL_PROXYBID: z.url().optional(),
    PLATFORM_URL_BIDWRANGLER: z.url().optional(),
    PLATFORM_URL_INVALUABLE: z.url().optional(),
    PLATFORM_URL_AUCTIONZIP: z.url().optional(),
    PLATFORM_URL_LIVEAUCTIONEERS: z.url().optional(),
    PLATFORM_URL_BIDSQUARE: z.url().optional(),
    // How long a platform has to answer one request.
    PLATFORM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    // Billing: Stripe's keys (a test key runs against Stripe's test mode). STRIPE_API_URL points the
    // SDK at the local Stripe stand-in instead of api.stripe.com; STRIPE_JS_URL is where browsers
    // load Stripe.js (the stand-in serves its own). Without a secret key, billing answers 503.
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    STRIPE_API_URL: z.url().optional(),
    STRIPE_JS_URL: z.url().default('https://js.stripe.com/v3/'),
  })
  .superRefine((settings, ctx) => {
    if (settings.ENVIRONMENT === 'production' && settings.DEMO_ENABLED) {
      ctx.addIssue({
        code: 'custom',
        path: ['DEMO_ENABLED'],
        message: 'must be false in production (it lets anyone open an account without signing up)',
      });
    }
    if (settings.ENVIRONMENT === 'production' && settings.WEBHOOKS_ALLOW_PRIVATE) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOKS_ALLOW_PRIVATE'],
        message:
          'must be false in production (it lets webhooks reach addresses inside the network)',
      });
    }
    if (
      settings.MAIL_TRANSPORT === 'acs' &&
      !settings.ACS_ENDPOINT &&
      !settings.ACS_CONNECTION_STRING
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['ACS_ENDPOINT'],
        message: 'is required when MAIL_TRANSPORT is acs (or set ACS_CONNECTION_STRING)',
      });
    }
    const identityBased =
      settings.AzureWebJobsStorage__blobServiceUri && settings.AzureWebJobsStorage__queueServiceUri;
    if (!settings.AzureWebJobsStorage && !identityBased) {
      ctx.addIssue({
        code: 'custom',
        path: ['AzureWebJobsStorage'],
        message:
          'is required (a connection string), or set AzureWebJobsStorage__blobServiceUri and AzureWebJobsStorage__queueServiceUri',
      });
    }
  });

export type Settings = z.infer<typeof settingsSchema>;

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'SettingsError';
  }
}

export function parseSettings(env: Record<string, string | undefined>): Settings {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = settingsSchema.safeParse(present);
  if (!result.success) {
    throw new SettingsError(
      result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  }
  return result.data;
}

let cached: Settings | undefined;

/** Parsed once per process; a missing or malformed setting stops start-up naming the setting. */
export function settings(): Settings {
  cached ??= parseSettings(process.env);
  return cached;
}
