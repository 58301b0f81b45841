import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deviceTokens, forgetEverything, tokens } from './auth-store';
import { memoryStorage } from './memory-storage.test-support';

beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
afterEach(() => vi.unstubAllGlobals());

describe('deviceTokens', () => {
  it('keeps one per person, by email in any case, through signing out', () => {
    deviceTokens.remember('Ada@Example.com', 'device-ada');
    deviceTokens.remember('bo@example.com', 'device-bo');
    tokens.setRefresh('r1.x');
    forgetEverything();
    expect(tokens.refresh()).toBeNull();
    expect(deviceTokens.of(' ada@example.COM ')).toBe('device-ada');
    expect(deviceTokens.of('bo@example.com')).toBe('device-bo');
    expect(deviceTokens.of('cy@example.com')).toBeUndefined();
  });

  it('keeps the ten people who signed in most recently', () => {
    for (let index = 0; index < 12; index += 1) {
      deviceTokens.remember(`p${index}@example.com`, `device-${index}`);
    }
    expect(deviceTokens.of('p1@example.com')).toBeUndefined();
    expect(deviceTokens.of('p2@example.com')).toBe('device-2');
    deviceTokens.remember('p2@example.com', 'device-2-renewed');
    deviceTokens.remember('p12@example.com', 'device-12');
    expect(deviceTokens.of('p3@example.com')).toBeUndefined();
    expect(deviceTokens.of('p2@example.com')).toBe('device-2-renewed');
    expect(deviceTokens.of('p11@example.com')).toBe('device-11');
  });
});
