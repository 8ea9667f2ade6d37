/**
 * Request/response plumbing of the in-process API handler (`service.ts`): HTTP Basic auth, the
 * multipart form, the `dataReceived` echo and the JSON error responses (reference §1, §4.1).
 */

import { ERROR_CODES, parameterError, TracelabError } from '../engine/errors.js';
import { withoutCredentials } from './image-url.js';
import { formatCredits } from './pricing.js';

export const AUTH_REALM = 'tracelab';
/** Longest echoed text value in `dataReceived`; longer values are cut and marked. */
export const ECHO_MAX_CHARS = 200;
/** Most field values echoed in `dataReceived`; the rest of a form is not echoed. */
export const ECHO_MAX_ENTRIES = 100;
/**
 * Most parts (fields and files) of one form; more → 400 / 1019 before the form is parsed. The API
 * has a few dozen parameters; without a cap the 40-MiB body holds ~800,000 of them.
 */
export const MAX_FORM_PARTS = 1000;

export type EchoValue = string | { filename: string; bytes: number; type: string };
export type DataReceived = Record<string, EchoValue | EchoValue[]>;

/** A parsed multipart body: text fields in order, file parts, and the echo for error bodies. */
export interface ParsedForm {
  readonly strings: Array<[string, string]>;
  readonly files: Array<[string, File]>;
  readonly dataReceived: DataReceived;
}

function echo(name: string, value: string | File): EchoValue {
  if (typeof value !== 'string') return { filename: value.name, bytes: value.size, type: value.type };
  const text = name === 'image.url' ? withoutCredentials(value) : value;
  return text.length > ECHO_MAX_CHARS ? `${text.slice(0, ECHO_MAX_CHARS)}… (${text.length} characters)` : text;
}

/**
 * How many times `needle` occurs in `bytes`, counting stops past `stopAfter`. Linear in the bytes
 * when `needle` starts with CR LF and has no CR after it (a multipart delimiter): a partial match
 * never overlaps the next candidate, which starts at a later CR.
 */
function countDelimiters(bytes: Uint8Array, needle: Uint8Array, stopAfter: number): number {
  const first = needle[0]!;
  let count = 0;
  // A plain loop: indexOf per candidate costs a call each, seconds on a body full of CRs.
  for (let at = 0; at < bytes.length && count <= stopAfter; at++) {
    if (bytes[at] !== first) continue;
    let matched = 1;
    while (matched < needle.length && bytes[at + matched] === needle[matched]) matched++;
    if (matched === needle.length) count++;
    at += matched - 1;
  }
  return count;
}

/** The multipart boundary of a Content-Type (RFC 2046 §5.1.1 characters, 1–70 of them), or undefined. */
function multipartBoundary(type: string): string | undefined {
  if (!/^\s*multipart\/form-data\s*;/i.test(type)) return undefined;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(type);
  const boundary = m?.[1] ?? m?.[2];
  return boundary !== undefined && /^[0-9A-Za-z'()+_,\-./:=? ]+$/.test(boundary) ? boundary : undefined;
}

/** The number of parts `bytes` holds as a form of Content-Type `type`, counted at most to just past the cap. */
function formPartCount(bytes: Uint8Array, type: string): number {
  const boundary = multipartBoundary(type);
  if (boundary !== undefined) {
    const delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
    // The first delimiter may open the body without the CR LF before it; the last one closes the form.
    const opening = bytes[0] === 0x2d && bytes[1] === 0x2d ? 1 : 0;
    return Math.max(0, opening + countDelimiters(bytes, delimiter, MAX_FORM_PARTS + 1) - 1);
  }
  if (/^\s*application\/x-www-form-urlencoded/i.test(type)) {
    let count = bytes.length > 0 ? 1 : 0;
    for (let at = 0; at < bytes.length && count <= MAX_FORM_PARTS; at++) if (bytes[at] === 0x26) count++;
    return count;
  }
  return 0; // not a form: formData() refuses it below
}

/**
 * Reads the body as `multipart/form-data` (or url-encoded). A request without a body reads as an
 * empty form; a body that cannot be parsed, or has more than MAX_FORM_PARTS parts, is 400/1019.
 * Linear in the body: the parts are counted with one scan before the platform parser runs, and
 * the echo (`dataReceived`) keeps at most ECHO_MAX_ENTRIES values.
 */
export async function readForm(request: Request): Promise<ParsedForm> {
  const strings: Array<[string, string]> = [];
  const files: Array<[string, File]> = [];
  const dataReceived: DataReceived = {};
  const type = request.headers.get('Content-Type') ?? '';
  if (request.body === null && type === '') return { strings, files, dataReceived };
  const unreadable = (): TracelabError =>
    parameterError(
      `The request body could not be read as multipart/form-data (Content-Type ${JSON.stringify(type.slice(0, 100))}); send the parameters as multipart form fields.`,
    );
  let form: FormData;
  try {
    const bytes = new Uint8Array(await request.arrayBuffer());
    const parts = formPartCount(bytes, type);
    if (parts > MAX_FORM_PARTS) {
      throw parameterError(`The form has more than ${MAX_FORM_PARTS} fields; the API takes a few dozen parameters at most.`);
    }
    form = await new Response(bytes, { headers: { 'Content-Type': type } }).formData();
  } catch (e) {
    if (e instanceof TracelabError) throw e;
    throw unreadable();
  }
  let echoed = 0;
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') strings.push([name, value]);
    else files.push([name, value]);
    if (echoed >= ECHO_MAX_ENTRIES) continue;
    echoed++;
    const e = echo(name, value);
    const prev = dataReceived[name];
    if (prev === undefined) dataReceived[name] = e;
    else if (Array.isArray(prev)) prev.push(e);
    else dataReceived[name] = [prev, e];
  }
  return { strings, files, dataReceived };
}

function timingSafeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i % Math.max(1, x.length)] ?? 0) ^ (y[i % Math.max(1, y.length)] ?? 0);
  return diff === 0;
}

function decodeBasic(header: string | null): { id: string; secret: string } | undefined {
  if (header === null) return undefined;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header.trim());
  if (m === null) return undefined;
  let text: string;
  try {
    const binary = atob(m[1]!);
    text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  return { id: text.slice(0, colon), secret: text.slice(colon + 1) };
}

/**
 * Throws 401 unless the request carries HTTP Basic credentials equal to `credentials` (§1, §4.2):
 * missing or malformed header → 1001 ("no API Id"), unknown id → 1001 (the message echoes it),
 * wrong secret → 1004.
 */
export function authenticate(request: Request, credentials: { apiId: string; apiSecret: string }): void {
  const got = decodeBasic(request.headers.get('Authorization'));
  if (got === undefined) {
    throw new TracelabError(
      ERROR_CODES.apiIdNotFound,
      401,
      'Missing or malformed HTTP Basic credentials: send the API Id as the user name and the API Secret as the password.',
    );
  }
  if (!timingSafeEqual(got.id, credentials.apiId)) {
    throw new TracelabError(ERROR_CODES.apiIdNotFound, 401, `API Id not found: ${JSON.stringify(got.id.slice(0, 100))}`);
  }
  if (!timingSafeEqual(got.secret, credentials.apiSecret)) {
    throw new TracelabError(ERROR_CODES.apiSecretIncorrect, 401, 'API Secret incorrect.');
  }
}

/** Seconds a 503 answer asks the client to wait. */
export const RETRY_AFTER_503_SECONDS = 5;

/** The JSON error response (§4.1) of `error`; anything but a TracelabError is a generic 500. */
export function errorResponse(error: unknown, dataReceived: DataReceived | null, extraHeaders: Record<string, string> = {}): Response {
  let status = 500;
  let code: number = ERROR_CODES.generic;
  let message = 'Internal error while processing the request; retry later.';
  if (error instanceof TracelabError) {
    status = error.status;
    code = error.code;
    message = error.message;
  }
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Credits-Charged': formatCredits(0),
    ...extraHeaders,
  };
  if (status === 401) headers['WWW-Authenticate'] = `Basic realm="${AUTH_REALM}"`;
  // 503 (an internal timeout, −10) invites a retry; say when (reference §4.1, [OAS] Retry-After).
  if (status === 503 && headers['Retry-After'] === undefined) headers['Retry-After'] = String(RETRY_AFTER_503_SECONDS);
  return new Response(JSON.stringify({ error: { status, code, message }, dataReceived }), { status, headers });
}

export function jsonResponse(body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'X-Credits-Charged': formatCredits(0), ...headers },
  });
}
