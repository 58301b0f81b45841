import { describe, expect, it } from 'vitest';
import {
  azuriteConnectionString,
  azuritePorts,
  isLocalUrl,
  loadSampleSettings,
  platformSandboxPort,
} from './local-settings.js';

describe('local settings', () => {
  it('finds Azurite in the development storage shorthand and in explicit connection strings', () => {
    expect(azuritePorts('UseDevelopmentStorage=true')).toEqual({ blob: 10000, queue: 10001 });
    expect(azuritePorts(azuriteConnectionString({ blob: 20000, queue: 20001 }))).toEqual({
      blob: 20000,
      queue: 20001,
    });
  });

  it('leaves real Azure storage alone', () => {
    expect(
      azuritePorts(
        'DefaultEndpointsProtocol=https;AccountName=prod;AccountKey=abc;EndpointSuffix=core.windows.net',
      ),
    ).toBeUndefined();
    expect(azuritePorts(undefined)).toBeUndefined();
    expect(isLocalUrl('https://lotwise.documents.azure.com:443/')).toBe(false);
    expect(isLocalUrl('http://localhost:8081')).toBe(true);
  });

  it('starts the platform sandbox where the platform settings point locally, on one port', () => {
    expect(platformSandboxPort(loadSampleSettings())).toBe(7073);
    expect(
      platformSandboxPort({
        PLATFORM_URL_PROXYBID: 'https://api.proxybid.example/',
        PLATFORM_URL_BIDSQUARE: 'https://api.bidsquare.example/',
      }),
    ).toBeUndefined();
    expect(() =>
      platformSandboxPort({
        PLATFORM_URL_PROXYBID: 'http://localhost:7073/proxybid',
        PLATFORM_URL_INVALUABLE: 'http://localhost:7074/invaluable',
      }),
    ).toThrow(/one port/);
  });
});
