import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newSigningSecret, secretHint, signatureHeader } from './signing.js';

describe('webhook signatures', () => {
  it('signs "<t>.<body>" with HMAC-SHA256 of the secret as shown', () => {
    const body = '{"id":"evt_1","type":"ping"}';
    const header = signatureHeader(['whsec_abc'], body, 1_700_000_000);
    const expected = createHmac('sha256', 'whsec_abc').update(`1700000000.${body}`).digest('hex');
    expect(header).toBe(`t=1700000000,v1=${expected}`);
  });

  it('carries one signature per honoured secret, newest first', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], '{}', 5);
    const parts = header.split(',');
    expect(parts).toHaveLength(3);
    expect(parts[1]).toBe(`v1=${createHmac('sha256', 'whsec_new').update('5.{}').digest('hex')}`);
    expect(parts[2]).toBe(`v1=${createHmac('sha256', 'whsec_old').update('5.{}').digest('hex')}`);
  });

  it('makes distinct secrets of 256 bits and hints at them by their last four', () => {
    const one = newSigningSecret();
    expect(one).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newSigningSecret()).not.toBe(one);
    expect(secretHint(one)).toBe(`whsec_…${one.slice(-4)}`);
  });
});
