import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSettings, SettingsError, settingsSchema } from './settings.js';

const sample = JSON.parse(
  readFileSync(new URL('../../../local.settings.sample.json', import.meta.url), 'utf8'),
) as { Values: Record<string, string> };

describe('settings', () => {
  it('accepts the committed local defaults', () => {
    const parsed = parseSettings(sample.Values);
    expect(parsed.COSMOS_EMULATOR).toBe(true);
    expect(parsed.WEB_ORIGINS).toEqual(['http://localhost:4280']);
    expect(parsed.FUNCTIONS_SERVICE).toBe('all');
  });

  it('lists every setting the services read in local.settings.sample.json', () => {
    const read = Object.keys(settingsSchema.shape);
    const listed = Object.keys(sample.Values);
    expect(read.filter((name) => !listed.includes(name))).toEqual([]);
  });

  it('stops with a message naming a missing setting', () => {
    const { COSMOS_ENDPOINT: _missing, ...rest } = sample.Values;
    expect(() => parseSettings(rest)).toThrow(SettingsError);
    expect(() => parseSettings(rest)).toThrow(/COSMOS_ENDPOINT/);
  });

  it('stops with a message naming a malformed setting', () => {
    expect(() => parseSettings({ ...sample.Values, FUNCTIONS_SERVICE: 'everything' })).toThrow(
      /FUNCTIONS_SERVICE/,
    );
    expect(() => parseSettings({ ...sample.Values, AUTH_SIGNING_KEY: 'short' })).toThrow(
      /AUTH_SIGNING_KEY: must be at least 32 characters/,
    );
    expect(() => parseSettings({ ...sample.Values, WEB_ORIGINS: 'not-a-url' })).toThrow(
      /WEB_ORIGINS/,
    );
  });

  it('needs storage either as a connection string or as identity-based service URIs', () => {
    const { AzureWebJobsStorage: _storage, ...rest } = sample.Values;
    expect(() => parseSettings(rest)).toThrow(/AzureWebJobsStorage/);
    expect(
      parseSettings({
        ...rest,
        AzureWebJobsStorage__blobServiceUri: 'https://acct.blob.core.windows.net',
        AzureWebJobsStorage__queueServiceUri: 'https://acct.queue.core.windows.net',
      }).AzureWebJobsStorage,
    ).toBeUndefined();
  });

  it('keeps the demo off in production', () => {
    expect(parseSettings(sample.Values).DEMO_ENABLED).toBe(true);
    expect(() =>
      parseSettings({ ...sample.Values, ENVIRONMENT: 'production', DEMO_ENABLED: 'true' }),
    ).toThrow(/DEMO_ENABLED: must be false in production/);
    expect(
      parseSettings({
        ...sample.Values,
        ENVIRONMENT: 'production',
        DEMO_ENABLED: 'false',
        WEBHOOKS_ALLOW_PRIVATE: 'false',
      }).DEMO_ENABLED,
    ).toBe(false);
  });

  it('lets webhooks reach private addresses locally, never in production', () => {
    expect(parseSettings(sample.Values).WEBHOOKS_ALLOW_PRIVATE).toBe(true);
    expect(
      parseSettings({ ...sample.Values, WEBHOOKS_ALLOW_PRIVATE: '' }).WEBHOOKS_ALLOW_PRIVATE,
    ).toBe(false);
    expect(() =>
      parseSettings({
        ...sample.Values,
        ENVIRONMENT: 'production',
        DEMO_ENABLED: 'false',
        WEBHOOKS_ALLOW_PRIVATE: 'true',
      }),
    ).toThrow(/WEBHOOKS_ALLOW_PRIVATE: must be false in production/);
  });

  it('lets Cosmos go keyless for managed identity', () => {
    const { COSMOS_KEY: _key, ...rest } = sample.Values;
    expect(parseSettings(rest).COSMOS_KEY).toBeUndefined();
  });
});
