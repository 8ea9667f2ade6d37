/**
 * Whether an IP address is one a server-side fetch of a user's URL may connect to (the SSRF guard
 * of safe-fetch.ts). In: an address as text (any form node's resolver or the URL parser gives:
 * dotted IPv4, IPv6 with `::`, a trailing dotted quad or a zone id). Out: true only for a globally
 * reachable unicast address that is not one of this host's own.
 *
 * Algorithm: the text is parsed to its bytes (4 or 16), so every spelling of one address gets the
 * same answer (`::ffff:127.0.0.1` and `::ffff:7f00:1` are the same 16 bytes). An IPv6 address that
 * carries an IPv4 address — IPv4-mapped `::ffff:0:0/96`, SIIT `::ffff:0:0:0/96`, IPv4-compatible
 * `::/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16` — is judged by that IPv4 address. Otherwise IPv6
 * must be global unicast (`2000::/3`) outside the special blocks of the IANA registry; IPv4 must be
 * outside every special-purpose block (RFC 6890 and its updates) that is not globally reachable.
 */

import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** IPv4 blocks (first address, prefix length) that a public URL never needs. */
const BLOCKED_IPV4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
];

/** IPv6 blocks inside global unicast 2000::/3 that are not globally reachable. */
const BLOCKED_IPV6: ReadonlyArray<readonly [string, number]> = [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
];

/** Parses dotted-quad IPv4 text to 4 bytes; undefined when it is not one. */
function ipv4Bytes(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return Uint8Array.from(parts.map(Number));
}

/** Parses IPv6 text (with `::`, a trailing dotted quad, a zone id) to 16 bytes; undefined when it is not one. */
function ipv6Bytes(text: string): Uint8Array | undefined {
  const address = text.replace(/%.*$/, '');
  if (isIP(address) !== 6) return undefined;
  const groups: number[] = [];
  const halves = address.split('::');
  const words = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    for (const part of half.split(':')) {
      if (part.includes('.')) {
        const v4 = ipv4Bytes(part);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else out.push(parseInt(part, 16));
    }
    return out;
  };
  const head = words(halves[0]!);
  const tail = halves.length > 1 ? words(halves[1]!) : [];
  if (!head || !tail) return undefined;
  groups.push(...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail);
  const bytes = new Uint8Array(16);
  groups.forEach((word, i) => {
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  });
  return bytes;
}

/** Whether `bytes` start with the `prefixBits` leading bits of `network`. */
function inBlock(bytes: Uint8Array, network: Uint8Array, prefixBits: number): boolean {
  for (let bit = 0; bit < prefixBits; bit += 8) {
    const mask = prefixBits - bit >= 8 ? 0xff : (0xff << (8 - (prefixBits - bit))) & 0xff;
    if ((bytes[bit >> 3]! & mask) !== (network[bit >> 3]! & mask)) return false;
  }
  return true;
}

const IPV4_BLOCKS = BLOCKED_IPV4.map(([net, bits]) => [ipv4Bytes(net)!, bits] as const);
const IPV6_BLOCKS = BLOCKED_IPV6.map(([net, bits]) => [ipv6Bytes(net)!, bits] as const);
const zeros = (n: number): Uint8Array => new Uint8Array(n);

/** The IPv4 address an IPv6 address carries (mapped, SIIT, compatible, NAT64, 6to4), if any. */
function embeddedIpv4(bytes: Uint8Array): Uint8Array | undefined {
  const first10Zero = inBlock(bytes, zeros(16), 80);
  if (first10Zero && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.subarray(12); // ::ffff:a.b.c.d
  if (inBlock(bytes, zeros(16), 64) && bytes[8] === 0xff && bytes[9] === 0xff && bytes[10] === 0 && bytes[11] === 0) return bytes.subarray(12); // ::ffff:0:a.b.c.d
  if (inBlock(bytes, zeros(16), 96)) return bytes.subarray(12); // ::a.b.c.d (also :: and ::1)
  if (inBlock(bytes, ipv6Bytes('64:ff9b::')!, 96)) return bytes.subarray(12); // NAT64
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.subarray(2, 6); // 6to4
  return undefined;
}

function publicIpv4(bytes: Uint8Array): boolean {
  return !IPV4_BLOCKS.some(([net, bits]) => inBlock(bytes, net, bits));
}

function publicIpv6(bytes: Uint8Array): boolean {
  const v4 = embeddedIpv4(bytes);
  if (v4) return publicIpv4(v4);
  if ((bytes[0]! & 0xe0) !== 0x20) return false; // outside global unicast 2000::/3 (loopback, ULA, link-local, multicast, NAT64 local use, discard…)
  return !IPV6_BLOCKS.some(([net, bits]) => inBlock(bytes, net, bits));
}

/** The address as bytes: 4 for IPv4, 16 for IPv6; undefined when the text is no IP address. */
export function addressBytes(address: string): Uint8Array | undefined {
  return ipv4Bytes(address) ?? ipv6Bytes(address);
}

/** One key per address whatever its spelling (an IPv4-mapped IPv6 address keys as its IPv4). */
function addressKey(bytes: Uint8Array): string {
  const v4 = bytes.length === 16 ? embeddedIpv4(bytes) : bytes;
  return v4 && (bytes.length === 4 || inBlock(bytes, zeros(16), 80)) ? `4:${v4.join('.')}` : `6:${Array.from(bytes).join(',')}`;
}

/** The keys of this host's own interface addresses (read afresh: interfaces come and go). */
export function ownAddressKeys(): Set<string> {
  const keys = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) {
      const key = addressKeyOf(info.address);
      if (key !== undefined) keys.add(key);
    }
  }
  return keys;
}

/**
 * True when a fetch for a user may connect to `address`: a globally reachable unicast address
 * that is not one of `own` (default: this host's interface addresses). Text that is not an IP
 * address is never public.
 */
export function isPublicAddress(address: string, own: ReadonlySet<string> = ownAddressKeys()): boolean {
  const bytes = addressBytes(address);
  if (!bytes) return false;
  if (own.has(addressKey(bytes))) return false;
  return bytes.length === 4 ? publicIpv4(bytes) : publicIpv6(bytes);
}

/** The key of one address (the same for every spelling of it); undefined when the text is no IP address. */
export function addressKeyOf(address: string): string | undefined {
  const bytes = addressBytes(address);
  return bytes ? addressKey(bytes) : undefined;
}

/** The address exactly as written in bytes (`::ffff:7f00:1` and `127.0.0.1` differ), for exemption lists. */
export function exactAddressKey(address: string): string | undefined {
  const bytes = addressBytes(address);
  return bytes ? Array.from(bytes).join('.') : undefined;
}

/** The keys of a list of addresses (an `own` list for isPublicAddress). */
export function addressKeysOf(addresses: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const a of addresses) {
    const key = addressKeyOf(a);
    if (key !== undefined) keys.add(key);
  }
  return keys;
}
