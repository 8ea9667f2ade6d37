/**
 * `image.url` fetching for the Node service (SSRF guard, OWASP SSRF prevention): http(s) only,
 * every hostname resolved by our own lookup, and a connection to a loopback, private, link-local,
 * unique-local, multicast or unspecified address is refused unless explicitly allowed
 * (TRACELAB_ALLOW_PRIVATE_URLS=1). The check runs inside the socket's `lookup`, so the address
 * checked is the address connected to (no DNS-rebinding gap). Redirects are followed by hand
 * (at most 5), each hop checked again. In: URL + abort signal. Out: a fetch Response whose body
 * streams the answer (size and time limits are the caller's, src/api/service-image.ts).
 */

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

import type { FetchImage } from '../api/service-image.js';

const MAX_REDIRECTS = 5;

/** True for addresses a public image URL must never reach. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return (
      a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224
    );
  }
  if (family === 6) {
    const v = address.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v);
    if (mapped) return isPrivateAddress(mapped[1]!);
    return v === '::' || v === '::1' || v.startsWith('fc') || v.startsWith('fd') || v.startsWith('fe8') || v.startsWith('fe9') || v.startsWith('fea') || v.startsWith('feb') || v.startsWith('ff');
  }
  return true; // not an IP at all: refuse
}

/** A socket lookup that refuses private addresses (all of a name's addresses must be public). */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const bad = list.find((a) => isPrivateAddress(a.address));
      if (!allowPrivate && bad) {
        return callback(new Error(`${hostname} resolves to the non-public address ${bad.address}; the service does not fetch private, loopback or link-local addresses`), '', 0);
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
}

export function createSafeFetchImage(options: SafeFetchOptions = {}): FetchImage {
  const allowPrivate = options.allowPrivate === true;
  const lookup = guardedLookup(allowPrivate);
  return async (href, signal) => {
    let url = new URL(href);
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`redirected to a ${url.protocol} URL`);
      // A literal IP skips DNS (and so the lookup): check it here.
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (!allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
        throw new Error(`${host} is a non-public address; the service does not fetch private, loopback or link-local addresses`);
      }
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
