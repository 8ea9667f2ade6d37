/**
 * The guard of a service a browser can reach against cross-site requests (CSRF) and DNS rebinding.
 * In: the request (its Origin and Host), the origins allowed besides the server's own, whether the
 * server listens on loopback only. Out: nothing, or a 403 TracelabError (code −1: the reference
 * has no code for it).
 *
 * Why: a browser that holds a Basic login for the service sends it with any page's form post to
 * it (multipart forms need no CORS preflight), so another site could spend the user's credits.
 * Browsers name the posting page in `Origin`; a request whose Origin is neither the server's own
 * (the scheme, host and port the browser addressed, i.e. the Host header) nor an allowed one is
 * refused. A page on a DNS name rebound to 127.0.0.1 shares the server's origin as the browser
 * sees it (and can send the default credentials itself), so a server bound to loopback takes its
 * own origin only under a loopback name. Clients that are not browsers send no Origin and are
 * unaffected — also behind a proxy that forwards another Host.
 */

import { ERROR_CODES, TracelabError } from '../engine/errors.js';

/** Host names that name this machine's loopback interface. */
function isLoopbackName(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Whether `host` (a bind address or name) is loopback only. */
export function isLoopbackHost(host: string): boolean {
  return isLoopbackName(host);
}

/**
 * 403 / −1 unless `request` comes from no web page, from one of `allowedOrigins`, or from the
 * server's own origin (on a loopback-only server: under a loopback name).
 */
export function checkRequestOrigin(request: Request, allowedOrigins: ReadonlySet<string>, loopbackOnly: boolean): void {
  const origin = request.headers.get('Origin');
  if (origin === null || allowedOrigins.has(origin)) return;
  const own = new URL(request.url);
  if (origin === own.origin && (!loopbackOnly || isLoopbackName(own.hostname))) return;
  const why =
    origin === own.origin
      ? `this server listens on loopback only and is addressed as ${JSON.stringify(own.hostname.slice(0, 100))} (a DNS name rebound to it?); use localhost or 127.0.0.1`
      : `a page on ${JSON.stringify(origin.slice(0, 100))} may not call this service (allow its origin with TRACELAB_ALLOWED_ORIGINS)`;
  throw new TracelabError(ERROR_CODES.generic, 403, `Cross-site request refused: ${why}.`);
}
