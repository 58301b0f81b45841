import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent (server-side request forgery). `public`: anywhere. `private`:
 * loopback, RFC 1918, carrier-grade NAT and IPv6 unique-local addresses, allowed only where the
 * settings allow private addresses (local development and tests). `forbidden`: never, anywhere:
 * unspecified (0.0.0.0/8, ::), link-local (169.254/16 with the cloud metadata service, fe80::/10),
 * multicast, broadcast, documentation and other reserved ranges, and tunnels (6to4, Teredo).
 */
export type AddressKind = 'public' | 'private' | 'forbidden';

const privateRanges = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

export function addressKind(address: string): AddressKind {
  if (!isIP(address)) return 'forbidden';
  let parsed = ipaddr.parse(address);
  if (parsed instanceof ipaddr.IPv6) {
    // The deprecated IPv4-compatible form (::a.b.c.d, which ipaddr calls unicast) and the local
    // NAT64 prefix 64:ff9b:1::/48 (whose IPv4 part is not at the end) are never a public host.
    const compatible = parsed.range() === 'unicast' && parsed.match(ipaddr.IPv6.parse('::'), 96);
    if (compatible || parsed.match(ipaddr.IPv6.parse('64:ff9b:1::'), 48)) return 'forbidden';
    // An IPv4 address written as IPv6 (::ffff:10.0.0.1, or NAT64's 64:ff9b::/96) is that address.
    if (parsed.isIPv4MappedAddress()) parsed = parsed.toIPv4Address();
    else if (['rfc6052', 'rfc6145'].includes(parsed.range())) {
      parsed = ipaddr.fromByteArray(parsed.toByteArray().slice(-4));
    }
  }
  const range = parsed.range();
  if (range === 'unicast') return 'public';
  return privateRanges.has(range) ? 'private' : 'forbidden';
}

export class RefusedUrl extends Error {}

export interface Target {
  url: URL;
  /** The checked address to connect to: the name is not looked up again (DNS rebinding). */
  address: string;
  family: 4 | 6;
}

const allowed = (kind: AddressKind, allowPrivate: boolean) =>
  kind === 'public' || (kind === 'private' && allowPrivate);

/**
 * Checks a webhook URL and resolves it to the address to send to: https (http only where private
 * addresses are allowed), no credentials in it, and every address its host resolves to allowed,
 * so a name with one public and one private address is refused too.
 */
export async function checkedTarget(raw: string, allowPrivate: boolean): Promise<Target> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedUrl('is not a valid URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate)) {
    throw new RefusedUrl(allowPrivate ? 'must be an http or https URL' : 'must be an https URL');
  }
  if (url.username || url.password)
    throw new RefusedUrl('must not contain a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new RefusedUrl(`names a host that does not resolve (${host})`);
    }
  }
  const refused = addresses.find(({ address }) => !allowed(addressKind(address), allowPrivate));
  if (refused || !addresses[0]) {
    throw new RefusedUrl(
      `points to an address webhooks may not reach (${refused?.address ?? host}): use a public address`,
    );
  }
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}
