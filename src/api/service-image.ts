/**
 * The `/vectorize` image sources (reference §1 "exactly one image source", §2.1.1, §4.2, §5.1):
 * multipart `image`, `image.url`, `image.base64`, `image.token`.
 */

import { checkImageBytes, ERROR_CODES, missingImageError, parameterError, TracelabError } from '../engine/errors.js';
import { checkImageAnswer, parseImageUrl, readImageBody, URL_FETCH_TIMEOUT_MS, urlNotFetchedError } from './image-url.js';
import type { ParsedForm } from './service-http.js';

export { MAX_IMAGE_BYTES } from '../engine/errors.js';
export { URL_FETCH_TIMEOUT_MS } from './image-url.js';
/** §2.1.1: `image.base64` is at most 1 MB (of base64 text). */
export const MAX_BASE64_CHARS = 1_048_576;

export type ImageSource =
  | { readonly kind: 'file'; readonly file: File }
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'base64'; readonly text: string }
  | { readonly kind: 'token'; readonly token: string };

const SOURCE_FIELDS = ['image', 'image.url', 'image.base64', 'image.token'] as const;

/**
 * The one image source of a `/vectorize` form. Throws 400/1005 when there is none, 400/1016 when
 * `image` is a text field (a file name instead of the file), 400/1019 when several are given.
 * File parts under any other name are 400/1019.
 */
export function imageSource(form: ParsedForm): ImageSource {
  for (const [name] of form.files) {
    if (name !== 'image') throw parameterError(`${name} must be a text field, not a file upload (only image is a file).`);
  }
  const given = SOURCE_FIELDS.filter((f) => form.strings.some(([n]) => n === f) || form.files.some(([n]) => n === f));
  const count = form.strings.filter(([n]) => (SOURCE_FIELDS as readonly string[]).includes(n)).length + form.files.length;
  if (count === 0) throw missingImageError('give one of image (file), image.url, image.base64 or image.token.');
  if (count > 1) {
    throw parameterError(
      `Give exactly one image source; received ${count} (${given.join(', ')}). Use one of image, image.url, image.base64, image.token.`,
    );
  }
  const file = form.files[0];
  if (file) return { kind: 'file', file: file[1] };
  const [name, value] = form.strings.find(([n]) => (SOURCE_FIELDS as readonly string[]).includes(n))!;
  switch (name) {
    case 'image':
      throw new TracelabError(
        ERROR_CODES.imageNotAFile,
        400,
        `The image parameter was sent as a text value (${JSON.stringify(value.slice(0, 100))}) instead of a file: upload the file bytes as a multipart file part.`,
      );
    case 'image.url':
      return { kind: 'url', url: value };
    case 'image.base64':
      return { kind: 'base64', text: value };
    default:
      return { kind: 'token', token: value };
  }
}

/** Bytes of an uploaded file part (413/1012 above the size cap, checked before reading). */
export async function fileBytes(file: File): Promise<Uint8Array> {
  checkImageBytes(file.size, 'the uploaded image');
  return new Uint8Array(await file.arrayBuffer());
}

/**
 * Bytes of an `image.base64` value. Whitespace (line breaks of MIME-wrapped text, a trailing
 * newline) and a `data:…;base64,` prefix are tolerated and not counted: more than 1 MB of base64
 * characters → 413/1012; text that is not base64 → 400/1019.
 */
export function base64Bytes(text: string): Uint8Array {
  const body = text.replace(/^\s*data:[^,]*;base64,/i, '').replace(/\s+/g, '');
  if (body.length > MAX_BASE64_CHARS) {
    throw new TracelabError(
      ERROR_CODES.imageTooLargeBytes,
      413,
      `image.base64 is ${body.length} characters (whitespace not counted); the maximum is ${MAX_BASE64_CHARS} characters (1 MB). Upload larger images as a file.`,
    );
  }
  const std = body.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(std) || std.replace(/=+$/, '').length % 4 === 1) {
    throw parameterError('image.base64 is not valid base64 text.');
  }
  const padded = std.replace(/=+$/, '');
  const binary = atob(padded + '='.repeat((4 - (padded.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export type FetchImage = (url: string, signal: AbortSignal) => Promise<Response>;

/**
 * Fetches an `image.url` (absolute http/https only) with a 30 s timeout and a streamed
 * 31,457,280-byte cap, through the checks the playground makes too (image-url.ts): not an http(s)
 * address, or one with credentials → 400/1024; a refused address, network error or timeout →
 * 400/1022; answer other than 200 → 400/1020 — these three with one message whatever the cause
 * (urlNotFetchedError: no port scanning through the messages); not `image/*` → 400/1021; body
 * over the cap → 413/1012.
 */
export async function urlBytes(raw: string, fetchImage: FetchImage, timeoutMs = URL_FETCH_TIMEOUT_MS): Promise<Uint8Array> {
  const url = parseImageUrl(raw);
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`image.url fetch took longer than ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  const href = url.href;
  const fetchFailed = (e: unknown): TracelabError => (e instanceof TracelabError ? e : urlNotFetchedError(href));
  try {
    let res: Response;
    try {
      res = await fetchImage(href, controller.signal);
    } catch (e) {
      throw fetchFailed(e);
    }
    await checkImageAnswer(res, href, { anyTypeButWebPage: false }).catch((e: unknown) => {
      throw e instanceof TracelabError && e.code === ERROR_CODES.urlNotOk ? urlNotFetchedError(href, ERROR_CODES.urlNotOk) : e;
    });
    return await readImageBody(res, href).catch((e: unknown) => {
      throw fetchFailed(e);
    });
  } finally {
    clearTimeout(timer);
  }
}
