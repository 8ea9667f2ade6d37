/**
 * `image.url` fetching for the Node service (SSRF guard, OWASP SSRF prevention): http(s) only,
 * no `user:password@`, every hostname resolved by our own lookup, and a connection to any address
 * that is not public (public-address.ts: loopback, private, link-local, unique-local, multicast,
 * unspecified, special-purpose, this host's own, and any IPv6 form carrying such an IPv4 address:
 * mapped, compatible, NAT64, 6to4) is refused unless explicitly allowed
 * (TRACELAB_ALLOW_PRIVATE_URLS=1). The check runs inside the socket's `lookup`, so the address
 * checked is the address connected to (no DNS-rebinding gap); a literal IP is checked before the
 * connection. Redirects are followed by hand (at most 5), each hop checked again. In: URL + abort
 * signal. Out: a fetch Response whose body streams the answer (size and time limits are the
 * caller's, src/api/service-image.ts, which also turns every refusal and failure into one message).
 */

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

import type { FetchImage } from '../api/service-image.js';
import { exactAddressKey, isPublicAddress } from './public-address.js';

const MAX_REDIRECTS = 5;

/** A fetch the guard refused: the address is not public, or the URL carries credentials. */
export class RefusedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedAddressError';
  }
}

/**
 * True for addresses a public image URL must never reach (every non-public address, this host's
 * own included; public-address.ts). Kept under its old name for callers and tests.
 */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

/** Whether the guard lets a connection to `address` through. */
type AddressPolicy = (address: string) => boolean;

function addressPolicy(options: SafeFetchOptions): AddressPolicy {
  if (options.allowPrivate === true) return () => true;
  const exempt = new Set((options.allowAddresses ?? []).map(exactAddressKey).filter((k) => k !== undefined));
  return (address) => {
    const key = exactAddressKey(address);
    return (key !== undefined && exempt.has(key)) || isPublicAddress(address);
  };
}

/** A socket lookup that refuses non-public addresses (all of a name's addresses must pass). */
function guardedLookup(allowed: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as LookupAddress[];
      if (list.some((a) => !allowed(a.address))) {
        return callback(new RefusedAddressError(`${hostname} resolves to a non-public address; the service fetches public addresses only`), '', 0);
      }
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, first.address, first.family);
    });
  };
}

export interface SafeFetchOptions {
  /** Allow loopback/private targets (tests, intranets). Default false. */
  readonly allowPrivate?: boolean;
  /**
   * Addresses let through although not public, compared by value (`127.0.0.1` does not let
   * `::ffff:7f00:1` or `127.0.0.2` through). Default none.
   */
  readonly allowAddresses?: readonly string[];
}

/** Refuses a URL the guard never fetches: not http(s), credentials in it, a literal non-public address. */
function checkHop(url: URL, allowed: AddressPolicy): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedAddressError(`redirected to a ${url.protocol} URL`);
  if (url.username !== '' || url.password !== '') throw new RefusedAddressError('the URL carries credentials (user:password@)');
  // A literal IP skips DNS (and so the lookup): check it here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !allowed(host)) throw new RefusedAddressError(`${host} is a non-public address; the service fetches public addresses only`);
}

export function createSafeFetchImage(options: SafeFetchOptions = {}): FetchImage {
  const allowed = addressPolicy(options);
  const lookup = guardedLookup(allowed);
  return async (href, signal) => {
    let url = new URL(href);
    for (let hop = 0; ; hop++) {
      checkHop(url, allowed);
      const res = await get(url, lookup, signal);
      const location = res.headers.location;
      if (res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400 && location) {
        res.resume();
        if (hop >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
        url = new URL(location, url);
        continue;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) headers.set(name, value.join(', '));
      }
      return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status: res.statusCode ?? 500, headers });
    }
  };
}

function get(url: URL, lookup: LookupFunction, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: 'GET', lookup, signal, headers: { Accept: 'image/*', 'User-Agent': 'tracelab' } }, resolve);
    req.on('error', reject);
    req.end();
  });
}
