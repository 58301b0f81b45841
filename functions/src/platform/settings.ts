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

    DEPENDENCY_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2_000),
  })
  .superRefine((settings, ctx) => {
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
