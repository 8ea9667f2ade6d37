/**
 * Guards of a service a browser can reach: cross-site requests (CSRF) and DNS rebinding.
 * In: the request (its Origin and Host), the origins allowed besides the server's own.
 * Out: nothing, or a 403 TracelabError (code −1: the reference has no code for it).
 *
 * Why: a browser that holds a Basic login for the service sends it with any page's form post to
 * it (multipart forms need no CORS preflight), so another site could spend the user's credits.
 * Browsers name the posting page in `Origin`; a request whose Origin is neither the server's own
 * (the scheme, host and port the browser addressed) nor an allowed one is refused. Clients that
 * are not browsers send no Origin and are unaffected. A page on a rebound DNS name shares the
 * server's origin as the browser sees it, so a server bound to loopback also refuses any Host
 * that is not a loopback name.
 */

import { ERROR_CODES, TracelabError } from '../engine/errors.js';

/** 403 / −1 unless `request` comes from no web page, the server's own origin, or one of `allowedOrigins`. */
export function checkRequestOrigin(request: Request, allowedOrigins: ReadonlySet<string>): void {
  const origin = request.headers.get('Origin');
  if (origin === null) return;
  const own = new URL(request.url).origin;
  if (origin === own || allowedOrigins.has(origin)) return;
  throw new TracelabError(
    ERROR_CODES.generic,
    403,
    `Cross-site request refused: a page on ${JSON.stringify(origin.slice(0, 100))} may not call this service (allow its origin with TRACELAB_ALLOWED_ORIGINS).`,
  );
}

/** Host names that name this machine's loopback interface. */
function isLoopbackName(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** 403 / −1 when a loopback-bound server is addressed by a name that is not a loopback name (DNS rebinding). */
export function checkLoopbackHost(request: Request): void {
  const hostname = new URL(request.url).hostname;
  if (isLoopbackName(hostname)) return;
  throw new TracelabError(
    ERROR_CODES.generic,
    403,
    `Host ${JSON.stringify(hostname.slice(0, 100))} refused: this server listens on loopback only; address it as localhost or 127.0.0.1.`,
  );
}

/** Whether `host` (a bind address or name) is loopback only. */
export function isLoopbackHost(host: string): boolean {
  return isLoopbackName(host);
}
