/**
 * The page's other ways to get an image besides a file: an image URL fetched by the browser and
 * base64 text (raw or a `data:` URL). In: the URL or the text. Out: a `Source` for the store, or a
 * TracelabError with the API's code for the same failure (1006 unreadable, 1012 too large,
 * 1020–1024 URL problems, reference §4.2), so the status line reads like the service's errors.
 *
 * Everything stays in the browser: the URL is fetched by the page itself (so the site must allow
 * it — CORS), never by a server.
 */

import { checkImageAnswer, parseImageUrl, readImageBody, URL_FETCH_TIMEOUT_MS, urlFetchFailedError, urlInvalidError, urlTimeoutError } from '../api/image-url.js';
import { sniffFormat } from '../decode/sniff.js';
import { checkImageBytes, MAX_IMAGE_BYTES, TracelabError, unreadableImageError } from '../engine/errors.js';
import type { Source } from './store.js';

/** The service's upload limit (reference §5.1); the page applies it to every source. */
export const MAX_SOURCE_BYTES = MAX_IMAGE_BYTES;
/** How long a URL may take (connect and download) before the page gives up: the service's time. */
export const URL_TIMEOUT_MS = URL_FETCH_TIMEOUT_MS;
/** Hosts plain http:// may reach (as the page's CSP connect-src allows). */
const LOCAL_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

const EXTENSION: Readonly<Record<string, string>> = { png: 'png', jpeg: 'jpg', gif: 'gif', webp: 'webp', tiff: 'tif', bmp: 'bmp' };
const MEDIA_TYPE: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  tiff: 'image/tiff',
  bmp: 'image/bmp',
};

// ---------------------------------------------------------------------------------------------
// base64

/**
 * Bytes of base64 text: raw base64 (standard or URL-safe alphabet, whitespace and line breaks
 * ignored, padding optional) or a `data:…;base64,…` URL. Errors are 1006 (the text does not hold
 * an image) and 1012 (more than MAX_SOURCE_BYTES).
 */
export function decodeBase64Image(text: string): Source {
  let body = text.trim();
  if (body === '') throw unreadableImageError('no base64 text was given.');
  let declaredType = '';
  if (/^data:/i.test(body)) {
    const comma = body.indexOf(',');
    const header = comma === -1 ? body : body.slice(0, comma);
    if (comma === -1 || !/;base64$/i.test(header)) {
      throw unreadableImageError('the data: URL is not base64-encoded (it must start with data:<type>;base64,).');
    }
    declaredType = header.slice(5).split(';')[0]!.toLowerCase();
    body = body.slice(comma + 1);
  }
  const compact = body.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  const bad = /[^A-Za-z0-9+/=]/.exec(compact);
  if (bad) {
    throw unreadableImageError(`the text is not valid base64 (unexpected ${JSON.stringify(bad[0])} at character ${bad.index + 1}).`);
  }
  const unpadded = compact.replace(/=+$/, '');
  if (unpadded.includes('=') || unpadded.length % 4 === 1) {
    throw unreadableImageError('the text is not valid base64 (misplaced padding or a truncated last group).');
  }
  // Check the size before decoding: 4 characters hold 3 bytes.
  const size = Math.floor((unpadded.length * 3) / 4);
  checkImageBytes(size, 'the decoded base64 image');
  const binary = atob(unpadded + '='.repeat((4 - (unpadded.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  if (bytes.length === 0) throw unreadableImageError('the base64 text holds no bytes.');
  const format = sniffFormat(bytes);
  return {
    name: `base64 image.${format ? EXTENSION[format] : 'bin'}`,
    bytes,
    size: bytes.length,
    type: format ? MEDIA_TYPE[format]! : declaredType,
  };
}

// ---------------------------------------------------------------------------------------------
// URL

export interface FetchImageOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  /** Default `globalThis.fetch`. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

/** The last path segment of a URL, decoded, as a file name ('image' when there is none). */
export function fileNameOfUrl(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  return name.replace(/[\u0000-\u001f]/g, '') || 'image';
}

/**
 * A typed address without a scheme whose first segment is a host name (`example.com/logo.png`,
 * `www.example.com`) means https://…, not a path on this site (issue 17: it was fetched relative
 * to the page). Paths stay relative: `a.png`, `samples/x.png`, `./x.png`, `/x.png`.
 */
export function withScheme(text: string): string {
  // `host:8443/…` is a host and port, not a scheme.
  if (/^[a-z][a-z0-9+.-]*:(?!\d+(?:[/?#]|$))/i.test(text) || /^[./?#]/.test(text)) return text;
  const first = text.split(/[/?#]/, 1)[0]!;
  const hostLike = /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?$/i.test(first) && (text.length > first.length || /^www\./i.test(first));
  return hostLike ? `https://${text}` : text;
}

/**
 * Fetches an image URL in the page, streaming with a byte cap and a timeout, through the checks
 * the service makes on `image.url` (src/api/image-url.ts: the same code and message for the same
 * condition). Relative URLs are resolved against `base` (the page). Failures: 1024 not an http(s)
 * URL (or plain http to another machine, which the page's CSP forbids), 1022 network failure
 * (CORS, offline, DNS) or timeout, 1020 not HTTP 200, 1021 a web page instead of an image,
 * 1012 over the size limit; a user abort rejects with the signal's reason.
 */
export async function fetchImageUrl(raw: string, base: string, options: FetchImageOptions = {}): Promise<Source> {
  const timeoutMs = options.timeoutMs ?? URL_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_SOURCE_BYTES;
  const doFetch = options.fetch ?? ((u: string, init: RequestInit) => globalThis.fetch(u, init));
  const url = parseImageUrl(withScheme(raw.trim()), base);
  // The page's security policy (scripts/vite-csp.ts, connect-src) lets plain http reach only this
  // machine; say so instead of letting the browser's refusal look like a network failure.
  if (url.protocol === 'http:' && url.origin !== new URL(base).origin && !LOCAL_HOSTS.has(url.hostname)) {
    throw urlInvalidError('The page fetches plain http:// images only from this computer; use the https:// address of the image, or download it and choose the file.');
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`no answer within ${timeoutMs / 1000} s`, 'TimeoutError'));
  }, timeoutMs);
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const href = url.href;
  const failed = (err: unknown): unknown => {
    if (err instanceof TracelabError) return err;
    if (options.signal?.aborted) return options.signal.reason ?? err;
    if (timedOut) return urlTimeoutError(href, timeoutMs);
    // A cross-origin answer without CORS headers looks exactly like a network failure to the page.
    return urlFetchFailedError(
      href,
      'either the site does not let other pages read its images (CORS) or it cannot be reached — download the image and choose the file instead.',
    );
  };
  try {
    let res: Response;
    try {
      res = await doFetch(url.href, { signal: controller.signal, credentials: 'omit', redirect: 'follow' });
    } catch (err) {
      throw failed(err);
    }
    const type = await checkImageAnswer(res, href, { anyTypeButWebPage: true, maxBytes });
    const bytes = await readImageBody(res, href, maxBytes).catch((err: unknown) => {
      throw failed(err);
    });
    // The viewer shows the bytes as what they are, whatever the server called them.
    const format = sniffFormat(bytes);
    return { name: fileNameOfUrl(url), bytes, size: bytes.length, type: format ? MEDIA_TYPE[format]! : type };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
