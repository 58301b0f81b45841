import { describe, expect, it } from 'vitest';
import { callerAddress } from './sessions.service.js';

describe('callerAddress', () => {
  it('takes the address the front end appended, not what the caller claimed', () => {
    expect(callerAddress('203.0.113.9:51234')).toBe('203.0.113.9');
    expect(callerAddress('10.0.0.1, 198.51.100.7:443')).toBe('198.51.100.7');
    expect(callerAddress('[2001:db8::1]:8080')).toBe('2001:db8::1');
    expect(callerAddress('::ffff:127.0.0.1:5000')).toBe('::ffff:127.0.0.1');
    expect(callerAddress(null)).toBe('unknown');
  });
});
