import { describe, expect, it } from 'vitest';
import { addressKind, checkedTarget } from './address-check.js';

describe('addressKind', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['127.0.0.1', 'private'],
    ['127.255.255.254', 'private'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'private'],
    ['::1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:10.1.2.3', 'private'],
    ['64:ff9b::a00:1', 'private'],
    ['0.0.0.0', 'forbidden'],
    ['0.1.2.3', 'forbidden'],
    ['::', 'forbidden'],
    ['::7f00:1', 'forbidden'],
    ['::a9fe:a9fe', 'forbidden'],
    ['64:ff9b:1::a00:1', 'forbidden'],
    ['169.254.169.254', 'forbidden'],
    ['169.254.0.1', 'forbidden'],
    ['fe80::1', 'forbidden'],
    ['febf::1', 'forbidden'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['ff02::1', 'forbidden'],
    ['192.0.2.10', 'forbidden'],
    ['2001:db8::1', 'forbidden'],
    ['2002:7f00:1::', 'forbidden'],
    ['not-an-address', 'forbidden'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it('keeps the edges of the private ranges', () => {
    expect(addressKind('172.15.255.255')).toBe('public');
    expect(addressKind('172.32.0.0')).toBe('public');
    expect(addressKind('11.0.0.0')).toBe('public');
    expect(addressKind('192.169.0.0')).toBe('public');
    expect(addressKind('fec0::1')).toBe('forbidden');
  });
});

describe('checkedTarget', () => {
  const refusal = (url: string, allowPrivate: boolean) =>
    checkedTarget(url, allowPrivate).then(
      () => 'allowed',
      (error: Error) => error.message,
    );

  it('refuses private, loopback and link-local hosts when private addresses are not allowed', async () => {
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.0.0.8/hook',
      'https://172.16.4.4/hook',
      'https://192.168.1.1/hook',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://0.0.0.0/',
      // Spellings the URL parser turns into loopback.
      'https://2130706433/',
      'https://0x7f.1/',
    ]) {
      expect(await refusal(url, false), url).toMatch(/address webhooks may not reach/);
    }
  });

  it('refuses a host name that resolves to a private address', async () => {
    expect(await refusal('https://localhost/hook', false)).toMatch(
      /address webhooks may not reach \((127\.0\.0\.1|::1)\)/,
    );
  });

  it('allows loopback and private addresses only when told, and never link-local', async () => {
    const target = await checkedTarget('http://localhost:8080/hook', true);
    expect(['127.0.0.1', '::1']).toContain(target.address);
    expect(await refusal('http://10.0.0.8/hook', true)).toBe('allowed');
    expect(await refusal('http://169.254.169.254/', true)).toMatch(/may not reach/);
    expect(await refusal('http://[fe80::1]/', true)).toMatch(/may not reach/);
  });

  it('allows a public address, over https only unless private addresses are allowed', async () => {
    expect(await refusal('https://93.184.216.34/hook', false)).toBe('allowed');
    expect(await refusal('http://93.184.216.34/hook', false)).toBe('must be an https URL');
    expect(await refusal('ftp://93.184.216.34/hook', true)).toBe('must be an http or https URL');
    expect(await refusal('https://user:pw@93.184.216.34/', false)).toMatch(/user name/);
    expect(await refusal('not a url', false)).toBe('is not a valid URL');
  });
});
