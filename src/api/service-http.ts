/**
 * Request/response plumbing of the in-process API handler (`service.ts`): HTTP Basic auth, the
 * multipart form, the `dataReceived` echo and the JSON error responses (reference §1, §4.1).
 */

import { ERROR_CODES, parameterError, TracelabError } from '../engine/errors.js';
import { formatCredits } from './pricing.js';

export const AUTH_REALM = 'tracelab';
/** Longest echoed text value in `dataReceived`; longer values are cut and marked. */
export const ECHO_MAX_CHARS = 200;

export type EchoValue = string | { filename: string; bytes: number; type: string };
export type DataReceived = Record<string, EchoValue | EchoValue[]>;

/** A parsed multipart body: text fields in order, file parts, and the echo for error bodies. */
export interface ParsedForm {
  readonly strings: Array<[string, string]>;
  readonly files: Array<[string, File]>;
  readonly dataReceived: DataReceived;
}

function echo(value: string | File): EchoValue {
  if (typeof value !== 'string') return { filename: value.name, bytes: value.size, type: value.type };
  return value.length > ECHO_MAX_CHARS ? `${value.slice(0, ECHO_MAX_CHARS)}… (${value.length} characters)` : value;
}

/**
 * Reads the body as `multipart/form-data` (or url-encoded). A request without a body reads as an
 * empty form; a body that cannot be parsed is 400/1019.
 */
export async function readForm(request: Request): Promise<ParsedForm> {
  const strings: Array<[string, string]> = [];
  const files: Array<[string, File]> = [];
  const dataReceived: DataReceived = {};
  const type = request.headers.get('Content-Type') ?? '';
  if (request.body === null && type === '') return { strings, files, dataReceived };
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw parameterError(
      `The request body could not be read as multipart/form-data (Content-Type ${JSON.stringify(type.slice(0, 100))}); send the parameters as multipart form fields.`,
    );
  }
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') strings.push([name, value]);
    else files.push([name, value]);
    const e = echo(value);
    const prev = dataReceived[name];
    dataReceived[name] = prev === undefined ? e : Array.isArray(prev) ? [...prev, e] : [prev, e];
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
