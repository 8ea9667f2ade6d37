/**
 * The checks on an image fetched from an address, made by both the service (`image.url`,
 * service-image.ts) and the playground (an address typed on the page, src/ui/image-sources.ts).
 * One function per condition, so the same condition gives the same code and status in both, and
 * the same message except where a fetch failed: there the service gives one message for every
 * reason (urlNotFetchedError) (reference §4.2: 1020 not 200, 1021 not an image, 1022 not fetched, 1024 not an address;
 * 1012 too many bytes). Where the two rightly differ, it is an argument with its reason: the page
 * resolves relative addresses against itself (`base`) and accepts any media type but a web page
 * (it looks at the bytes), the service takes absolute addresses and wants image/*.
 * In: the address text, the answer. Out: the URL, the checked answer, the body; or a TracelabError.
 */

import { ERROR_CODES, imageTooLargeError, MAX_IMAGE_BYTES, TracelabError } from '../engine/errors.js';
import { concatBytes } from '../decode/bytes.js';

/** Time allowed for fetching an image address (connect and download). */
export const URL_FETCH_TIMEOUT_MS = 30_000;

/** An address as the messages quote it: at most 120 characters. */
export function quotedUrl(href: string): string {
  return href.length > 120 ? `${href.slice(0, 120)}…` : href;
}

/** 400 / 1024: the text is not an http(s) address of an image. */
export function urlInvalidError(message: string): TracelabError {
  return new TracelabError(ERROR_CODES.urlInvalid, 400, message);
}

/**
 * The http(s) URL written in `raw` (trimmed), resolved against `base` when given (the page; the
 * service gives none, so its addresses must be absolute). 400 / 1024 when the text is empty, is
 * words rather than an address, cannot be parsed, or is not http(s).
 */
export function parseImageUrl(raw: string, base?: string): URL {
  const text = raw.trim();
  if (text === '') throw urlInvalidError('The image URL is empty; enter the address of an image (https://…).');
  // Words with spaces and neither a slash nor a dot are not an address (against the page they would
  // resolve to a path on the site and fetch a web page); `my logo.png` still is.
  if (/\s/.test(text) && !/[/.]/.test(text)) {
    throw urlInvalidError(`${JSON.stringify(text.slice(0, 200))} is not an image address; enter one such as https://example.com/logo.png.`);
  }
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw urlInvalidError(`The image URL could not be parsed: ${JSON.stringify(raw.slice(0, 200))}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw urlInvalidError(`The image URL must start with http:// or https://; received ${JSON.stringify(url.protocol)}.`);
  }
  // Never forwarded (the server would hand the user's password to whatever the address names) and
  // never quoted back: the message names neither.
  if (url.username !== '' || url.password !== '') {
    throw urlInvalidError('The image URL carries a user name or password (user:password@…); give the address of a public image without credentials.');
  }
  return url;
}

/** An image URL as echoed back (the form echo, messages): any `user:password@` replaced by `***@`. */
export function withoutCredentials(text: string): string {
  return text.replace(/^(\s*[A-Za-z][A-Za-z0-9+.-]*:\/*)[^/?#]*@/, '$1***@');
}

/** 400 / 1022: fetching `href` took longer than `timeoutMs`. */
export function urlTimeoutError(href: string, timeoutMs: number): TracelabError {
  return new TracelabError(
    ERROR_CODES.urlFetchFailed,
    400,
    `Fetching ${quotedUrl(href)} took longer than ${timeoutMs / 1000} s; try again, or download the image and use the file.`,
  );
}

/**
 * The service's one answer for an image address it did not get an image from, whatever the reason
 * (a refused non-public address, no connection, a reset, the 30-s timeout, or — with `code` 1020 —
 * an answer other than HTTP 200): a fetcher on the server must not tell a caller what answers
 * behind an address, or it becomes a scanner of the server's network. The codes stay the
 * reference's (§4.2: 1020 not 200, 1022 not fetched); the page, which fetches from the user's own
 * browser, says more (urlFetchFailedError, urlTimeoutError, checkImageAnswer).
 */
export function urlNotFetchedError(href: string, code: typeof ERROR_CODES.urlFetchFailed | typeof ERROR_CODES.urlNotOk = ERROR_CODES.urlFetchFailed): TracelabError {
  return new TracelabError(
    code,
    400,
    `No image could be fetched from ${quotedUrl(href)}: the service fetches public addresses only, which must answer HTTP 200 with an image within ${URL_FETCH_TIMEOUT_MS / 1000} s.`,
  );
}

/** 400 / 1022: `href` could not be fetched, for `reason` (the network error; the page explains CORS instead). */
export function urlFetchFailedError(href: string, reason: string): TracelabError {
  return new TracelabError(ERROR_CODES.urlFetchFailed, 400, `Could not fetch ${quotedUrl(href)}: ${reason}`);
}

/** What the answer to an image address must be besides HTTP 200 and at most `maxBytes` long. */
export interface AnswerRules {
  /**
   * true: any media type but a web page (the page sniffs the bytes, whatever the server called
   * them); false: image/* only (the service, reference §4.2 1021).
   */
  readonly anyTypeButWebPage: boolean;
  /** Default MAX_IMAGE_BYTES. */
  readonly maxBytes?: number;
}

/**
 * Checks an answer before its body is read, cancelling the body when it refuses: 400 / 1020 not
 * HTTP 200, 400 / 1021 a web page (or, under the service's rule, not image/*), 413 / 1012 a
 * declared Content-Length over the cap. Returns the media type (lower case, no parameters).
 */
export async function checkImageAnswer(res: Response, href: string, rules: AnswerRules): Promise<string> {
  const refuse = async (error: TracelabError): Promise<never> => {
    await res.body?.cancel().catch(() => undefined);
    throw error;
  };
  if (res.status !== 200) {
    return refuse(
      new TracelabError(ERROR_CODES.urlNotOk, 400, `${quotedUrl(href)} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''} instead of an image.`),
    );
  }
  const type = (res.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    return refuse(
      new TracelabError(
        ERROR_CODES.urlNotAnImage,
        400,
        `${quotedUrl(href)} is a web page, not an image; use the address of the image itself (right-click the image → Copy image address).`,
      ),
    );
  }
  if (!rules.anyTypeButWebPage && !type.startsWith('image/')) {
    return refuse(new TracelabError(ERROR_CODES.urlNotAnImage, 400, `${quotedUrl(href)} answered Content-Type ${JSON.stringify(type)}, not an image (image/*).`));
  }
  const maxBytes = rules.maxBytes ?? MAX_IMAGE_BYTES;
  const declared = Number(res.headers.get('Content-Length') ?? NaN);
  if (declared > maxBytes) return refuse(imageTooLargeError(`the image at ${quotedUrl(href)}`, declared, false, maxBytes));
  return type;
}

/**
 * The answer's body, stopping (and cancelling the download) as soon as it passes `maxBytes`:
 * 413 / 1012. Other read errors (network, abort) are thrown as they are, for the caller to map.
 */
export async function readImageBody(res: Response, href: string, maxBytes: number = MAX_IMAGE_BYTES): Promise<Uint8Array> {
  if (res.body === null) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw imageTooLargeError(`the image at ${quotedUrl(href)}`, maxBytes, true, maxBytes);
      chunks.push(value);
    }
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    throw e;
  }
  return concatBytes(chunks);
}
