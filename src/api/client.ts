/**
 * HTTP client for the Vectorizer.AI API (reference §1, §2, §4, §5.3) — the same code talks to the
 * real service, to a local Tracelab server, or to an in-process handler:
 *
 * ```ts
 * const real = createClient({ apiId, apiSecret });
 * const local = createClient({ baseUrl: 'http://localhost:8080/api/v1', apiId, apiSecret });
 * const inProcess = createClient({
 *   baseUrl: 'http://tracelab.invalid/api/v1', apiId, apiSecret,
 *   fetch: (input, init) => handler(new Request(input, init)),
 * });
 * ```
 *
 * Tracelab extension options (`tracelab.*`, src/api/extensions.ts) are left out of every request
 * to the real service and sent to any Tracelab server. The client knows which it talks to from
 * `realService`: by default true exactly when `baseUrl`'s host is `vectorizer.ai` or one of its
 * subdomains (the default base URL is), false for anything else (`tracelab serve`, a fleet, an
 * in-process handler). A proxy in front of the real service has another host: pass
 * `realService: true` for it (the playground's remote panel always does). What was left out is in
 * `FileResult.droppedOptions`, and `client.realService` tells callers ahead of a call.
 *
 * Requests are `multipart/form-data` built with `FormData` (dotted names are literal field names),
 * authenticated with HTTP Basic (API Id / API Secret) and carry the same `Accept` headers as the
 * official CLI (§2.4). Everything here runs in browsers and in Node 20 (no Node-only APIs).
 *
 * Retries (§5.3): 429 and 503 are retried with a linear back-off per client instance ("per
 * thread") — 5 s, 10 s, 15 s, … or the `Retry-After` seconds when larger; the counter resets after
 * any successful response. A network failure (fetch rejects, body read fails, idle timeout) is
 * NEVER retried for a `production`/`preview` `/vectorize` or any `/download` (the call may have
 * been charged); test modes, `/account` and `/delete` are retried once. The exception is a
 * connection cut while the request was still being written (EPIPE, seen in Node): the service never
 * had the whole request, so it charged nothing, and the call backs off and is retried like a 503.
 * That is what a load balancer does when it answers 503 itself (no server in its pool) and closes
 * the connection before an upload larger than its buffer is through. A call that may have been
 * charged and lost its connection otherwise (reset, replica killed, body cut) is thrown as an
 * ApiClientError with code −20 (`chargeUnknown`, status 0, the network error as its `cause`)
 * whose message says the call may or may not have been charged and how to check.
 */

import { forRealService, isRealServiceUrl } from './extensions.js';
import { checkCombination, describeAllowed, OPTION_BY_NAME, parseOptions, type Endpoint } from './options.js';
import { arrayBufferBytes, concatBytes } from '../decode/bytes.js';
import { ERROR_CODES, parameterError } from '../engine/errors.js';
import type { DottedOptions, NestedOptions } from './options.generated.js';

// ---------------------------------------------------------------------------------------------
// Public types

export const DEFAULT_BASE_URL = 'https://api.vectorizer.ai/api/v1';
/** Client idle timeout: the service asks for at least 180 s (reference §1, §5.4). */
export const DEFAULT_TIMEOUT_MS = 180_000;
export const DEFAULT_MAX_ATTEMPTS = 6;
/** Linear back-off step on 429/503 (reference §5.3). */
export const DEFAULT_BACKOFF_STEP_MS = 5_000;

/** `Accept` of the official CLI for the binary endpoints (§2.4). */
export const ACCEPT_FILE = 'image/svg+xml, application/postscript, application/pdf, application/dxf, image/png, application/json';
/** `Accept` of the official CLI for `/account` and `/delete` (§2.4). */
export const ACCEPT_JSON = 'application/json';

/**
 * The subset of `fetch` the client uses. `globalThis.fetch` fits; an in-process handler
 * `(req: Request) => Promise<Response>` fits once wrapped:
 * `fetch: (input, init) => handler(new Request(input, init))`.
 */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Time source and timer, injectable so tests can use fake timers. */
export interface Clock {
  now(): number;
  /** Run `fn` after `ms`; returns a function that cancels it. */
  setTimer(fn: () => void, ms: number): () => void;
}

/** Real time. Looks `setTimeout` up at call time, so fake timers installed later still apply. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const handle = globalThis.setTimeout(fn, ms);
    return () => globalThis.clearTimeout(handle);
  },
};

export type SleepFn = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface ClientOptions {
  /** Default `https://api.vectorizer.ai/api/v1`; a trailing slash is tolerated. */
  readonly baseUrl?: string;
  /** HTTP Basic user name. With `apiSecret`; when both are empty no `Authorization` is sent. */
  readonly apiId: string;
  /** HTTP Basic password. */
  readonly apiSecret: string;
  /** Default `globalThis.fetch` (looked up at call time). */
  readonly fetch?: FetchLike;
  /** Default real time. Used for back-off waits, the idle timeout and HTTP-date `Retry-After`. */
  readonly clock?: Clock;
  /** Back-off wait; default waits on `clock`. Must reject with the signal's reason on abort. */
  readonly sleep?: SleepFn;
  /** Idle timeout per attempt (no response / no body bytes for this long); default 180 000 ms. */
  readonly timeoutMs?: number;
  /** Attempts per call, including the first; default 6. */
  readonly maxAttempts?: number;
  /** Linear back-off step; default 5000 ms (5 s, 10 s, 15 s, …). */
  readonly backoffStepMs?: number;
  /**
   * Check `fields` against the local option schema before sending (default true): unknown names,
   * bad values and options not accepted on the endpoint throw the library's `TracelabError`
   * 400 / 1019 — the error and message `vectorize()` gives — without making a request. Turn off
   * to send fields this schema does not know.
   */
  readonly validateFields?: boolean;
  /**
   * Is this the real Vectorizer.AI service (directly or through a proxy)? Then Tracelab extension
   * fields (`tracelab.*`) are validated like any field but left out of the request, and listed in
   * `FileResult.droppedOptions`. Default: whether `baseUrl`'s host is `vectorizer.ai` or a
   * subdomain of it (`isRealServiceUrl`); any other host is taken for a Tracelab server, which
   * accepts them.
   */
  readonly realService?: boolean;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

/** Exactly one image source (multipart `image`, `image.url`, `image.base64` or `image.token`). */
export type VectorizeInput =
  | { readonly image: Uint8Array | Blob; readonly filename?: string }
  | { readonly url: string }
  | { readonly base64: string }
  | { readonly token: string };

export type FieldValue = string | number | boolean;
/**
 * The API parameters of a call, as `vectorize()` of `tracelab` takes them: nested
 * (`{ output: { file_format: 'pdf' } }`) or dotted (`{ 'output.file_format': 'pdf' }`), each
 * option with its own value type (a misspelt name or a wrong value type does not compile) — or raw
 * `[name, value]` pairs, which are checked at run time only. Booleans are sent as `true`/`false`,
 * numbers as plain decimals.
 */
export type Fields = (DottedOptions & NestedOptions) | Iterable<readonly [string, FieldValue]>;
/** The `output.*` options, dotted: the only API parameters `/download` takes besides `receipt`. */
export type DottedOutputOptions = { readonly [K in keyof DottedOptions as K extends `output.${string}` ? K : never]: DottedOptions[K] };
/**
 * `/download` parameters: the output options of Fields (dotted or nested under `output`) and
 * `receipt` (an upgraded preview's X-Receipt). A `processing.*`, `input.*`, `mode` or other
 * vectorize-only option does not compile (at run time it is 1019: it needs a new /vectorize).
 */
export type DownloadFields = (DottedOutputOptions & Pick<NestedOptions, 'output'> & { readonly receipt?: string }) | Iterable<readonly [string, FieldValue]>;

export interface FileResult {
  readonly status: number;
  /** Over an ArrayBuffer (a BlobPart under the DOM lib: `new Blob([result.body])`). */
  readonly body: Uint8Array<ArrayBuffer>;
  /** `Content-Type` as sent ('' when absent). */
  readonly contentType: string;
  /** From `Content-Disposition` (`filename*` preferred over `filename`). */
  readonly filename?: string;
  /** `X-Image-Token` (when `policy.retention_days > 0`). */
  readonly imageToken?: string;
  /** `X-Receipt` (preview token upgraded on `/download`). */
  readonly receipt?: string;
  /** `X-Credits-Charged`. */
  readonly creditsCharged?: number;
  /** `X-Credits-Calculated`. */
  readonly creditsCalculated?: number;
  /** Tracelab extension options given but not sent, because the client talks to the real service. */
  readonly droppedOptions?: readonly string[];
}

export interface AccountStatus {
  readonly subscriptionPlan: string;
  readonly subscriptionState: string;
  readonly credits: number;
}

export interface ApiClient {
  /** Talks to the real Vectorizer.AI service: `tracelab.*` fields are left out (ClientOptions.realService). */
  readonly realService: boolean;
  vectorize(input: VectorizeInput, fields?: Fields, call?: CallOptions): Promise<FileResult>;
  download(token: string, fields?: DownloadFields, call?: CallOptions): Promise<FileResult>;
  delete(token: string, call?: CallOptions): Promise<{ success: true }>;
  account(call?: CallOptions): Promise<AccountStatus>;
}

/**
 * A non-2xx answer (`status`, and `code`/`message` from the JSON error body; code -1 and the body
 * text when it is not the API's JSON error). A bad field found before sending is not one: that is
 * the library's `TracelabError` 400 / 1019, and no request is made.
 */
export class ApiClientError extends Error {
  readonly status: number;
  readonly code: number;
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, code: number, message: string, retryAfterSeconds?: number, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ApiClientError';
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

// ---------------------------------------------------------------------------------------------
// Small helpers (exported where tests or other modules benefit)

/** Wait `ms` on `clock`; rejects with the signal's reason as soon as it aborts. */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      cancel();
      reject(abortReason(signal!));
    };
    const cancel = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** `Authorization` value for HTTP Basic; UTF-8 safe `btoa`. */
export function basicAuth(id: string, secret: string): string {
  const bytes = new TextEncoder().encode(`${id}:${secret}`);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `Basic ${btoa(binary)}`;
}

/** Field text of a value: `true`/`false`, plain decimal numbers (never exponent notation). */
export function formatFieldValue(value: FieldValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (!Number.isFinite(value)) throw new TypeError(`Field value must be a finite number; received ${value}`);
  const text = String(value);
  // String() is the shortest round-tripping form; only its exponent notation needs expanding.
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (m === null) return text;
  const digits = m[2]! + (m[3] ?? '');
  const point = 1 + Number(m[4]);
  const body =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return m[1]! + body;
}

/** Filename from a `Content-Disposition` header (`filename*=UTF-8''…` preferred). */
export function parseContentDispositionFilename(header: string | null): string | undefined {
  if (header === null) return undefined;
  let plain: string | undefined;
  let extended: string | undefined;
  const re = /;\s*(filename\*?)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/gi;
  for (let m = re.exec(header); m !== null; m = re.exec(header)) {
    const key = m[1]!.toLowerCase();
    let value = m[2]!.trim();
    if (key === 'filename*') {
      const ext = /^([^']*)'[^']*'(.*)$/.exec(value);
      if (ext === null) continue;
      try {
        extended = decodeURIComponent(ext[2]!);
      } catch {
        continue;
      }
    } else {
      if (value.startsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
      plain = value;
    }
  }
  const name = extended ?? plain;
  return name === undefined || name === '' ? undefined : name;
}

/** `X-Credits-*` value (e.g. `0.000000`, `1.000000`) as a number; undefined when absent/malformed. */
export function parseCredits(header: string | null): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) return undefined;
  return Number(text);
}

/**
 * Did the connection close while the request was still being written? Node's fetch (undici) says
 * so with an `EPIPE` code on the error or one of its causes. The peer cannot have read the whole
 * request then. Browsers give no cause, so there this is never true and the usual rule holds.
 */
function isCutWhileSending(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { code?: unknown }).code === 'EPIPE') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Did the connection break after the request may have reached the service (reset, closed by the
 * peer)? Node's fetch (undici) says so with these codes on the error's causes. Not a refused or
 * unresolved connection (nothing was sent), and never true in browsers, whose "Failed to fetch"
 * has no cause (a CORS refusal, an unreachable host: the page explains those itself).
 */
const LOST_AFTER_SENDING_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

function isLostAfterSending(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (LOST_AFTER_SENDING_CODES.has(String((current as { code?: unknown }).code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The text of a network error and its causes (`fetch failed: read ECONNRESET`). */
function networkErrorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current.message !== '' && !parts.includes(current.message)) parts.push(current.message);
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}

/**
 * The error for a call that may have been charged and lost its connection after the request went
 * out (the service may have charged it before the answer was cut): says so, and how to check.
 */
function chargeUnknownError(url: string, path: RequestPlan['path'], cause: unknown): ApiClientError {
  const again = path === 'download' ? 'downloading again without the receipt' : 'sending it again';
  const check = `compare the account's credits (GET /account; \`tracelab account --remote\`) with those before the call: ${again} may charge it twice`;
  return new ApiClientError(
    0,
    ERROR_CODES.chargeUnknown,
    `The connection to ${url} was lost before its answer arrived (${networkErrorText(cause)}): the call may or may not have been charged. To check, ${check}.`,
    undefined,
    { cause },
  );
}

/** `Retry-After` as seconds (delta-seconds or HTTP-date relative to `now`). */
export function parseRetryAfter(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** The API's error JSON `{"error":{"status","code","message"}}`, else code -1 with the text. */
export function errorFromResponse(status: number, statusText: string, text: string, retryAfterSeconds?: number): ApiClientError {
  try {
    const parsed: unknown = JSON.parse(text);
    const error = (parsed as { error?: unknown } | null)?.error as { code?: unknown; message?: unknown } | undefined;
    if (error !== null && typeof error === 'object' && typeof error.code === 'number') {
      const message = typeof error.message === 'string' && error.message !== '' ? error.message : `HTTP ${status}`;
      return new ApiClientError(status, error.code, message, retryAfterSeconds);
    }
  } catch {
    // not JSON: fall through
  }
  const message = text.trim() !== '' ? text.trim() : `HTTP ${status}${statusText !== '' ? ` ${statusText}` : ''}`;
  return new ApiClientError(status, ERROR_CODES.generic, message, retryAfterSeconds);
}

const IMAGE_FIELDS = new Set(['image', 'image.url', 'image.base64', 'image.token']);

/** One value as its form field's text; anything but a string, boolean or finite number is 1019. */
function fieldText(name: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return formatFieldValue(value);
  const spec = OPTION_BY_NAME.get(name);
  const received = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'number' ? String(value) : typeof value;
  throw parameterError(`${name} must be ${spec ? describeAllowed(spec) : 'a string, number or boolean'}; received ${received}`);
}

/**
 * The fields as `[name, text]` in the order given: pairs as they are, an object flattened — a
 * plain object under a name that is not an option is a group (`output: { … }`), as in the
 * library's options (src/lib/options.ts).
 */
function fieldEntries(fields: Fields | DownloadFields | undefined): [string, string][] {
  if (fields === undefined || fields === null) return [];
  const out: [string, string][] = [];
  const add = (name: string, value: unknown): void => {
    if (value === undefined) return;
    if (IMAGE_FIELDS.has(name)) {
      throw new TypeError(`${name} is an image source; pass it as the input / token argument, not in fields`);
    }
    out.push([name, fieldText(name, value)]);
  };
  if (Symbol.iterator in fields) {
    for (const [name, value] of fields as Iterable<readonly [string, unknown]>) add(name, value);
    return out;
  }
  const walk = (obj: object, prefix: string): void => {
    for (const [key, value] of Object.entries(obj)) {
      const name = prefix ? `${prefix}.${key}` : key;
      if (value !== null && typeof value === 'object' && !Array.isArray(value) && !OPTION_BY_NAME.has(name) && !IMAGE_FIELDS.has(name)) walk(value, name);
      else add(name, value);
    }
  };
  walk(fields, '');
  return out;
}

// ---------------------------------------------------------------------------------------------
// Idle timeout combined with the caller's signal

interface AttemptSignal {
  readonly signal: AbortSignal;
  /** Activity seen: restart the idle timer. */
  touch(): void;
  readonly timedOut: () => boolean;
  dispose(): void;
}

function attemptSignal(caller: AbortSignal | undefined, timeoutMs: number, clock: Clock): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  let cancelTimer: (() => void) | undefined;
  const arm = (): void => {
    cancelTimer?.();
    if (!Number.isFinite(timeoutMs)) return;
    cancelTimer = clock.setTimer(() => {
      timedOut = true;
      controller.abort(new DOMException(`No response activity for ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
  };
  const onAbort = (): void => controller.abort(abortReason(caller!));
  if (caller?.aborted) controller.abort(abortReason(caller));
  else {
    caller?.addEventListener('abort', onAbort, { once: true });
    arm();
  }
  return {
    signal: controller.signal,
    touch: () => {
      if (!controller.signal.aborted) arm();
    },
    timedOut: () => timedOut,
    dispose: () => {
      cancelTimer?.();
      caller?.removeEventListener('abort', onAbort);
    },
  };
}

/** Settle with `promise`, or reject as soon as `signal` aborts (also when fetch ignores it). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

async function readBody(res: Response, attempt: AttemptSignal): Promise<Uint8Array> {
  const stream = res.body;
  if (stream === null) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await raceAbort(reader.read(), attempt.signal);
      if (done) break;
      attempt.touch();
      chunks.push(value);
    }
  } catch (e) {
    reader.cancel().catch(() => undefined);
    throw e;
  }
  return concatBytes(chunks);
}

// ---------------------------------------------------------------------------------------------
// Client

interface Exchange {
  readonly res: Response;
  readonly bytes: Uint8Array;
}

interface RequestPlan {
  readonly path: 'vectorize' | 'download' | 'delete' | 'account';
  readonly method: 'GET' | 'POST';
  readonly accept: string;
  /** Built fresh for every attempt. */
  readonly body?: () => FormData;
  /** May a network failure be retried (once)? False whenever the call may have been charged. */
  readonly retryNetworkError: boolean;
}

const TEST_MODES = new Set(['test', 'test_preview']);

export function createClient(options: ClientOptions): ApiClient {
  const base = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const clock = options.clock ?? systemClock;
  const sleep: SleepFn = options.sleep ?? ((ms, signal) => sleepOn(clock, ms, signal));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS));
  const step = options.backoffStepMs ?? DEFAULT_BACKOFF_STEP_MS;
  const validate = options.validateFields ?? true;
  const realService = options.realService ?? isRealServiceUrl(base);
  const auth = options.apiId !== '' || options.apiSecret !== '' ? basicAuth(options.apiId, options.apiSecret) : undefined;
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  /** Consecutive 429/503 answers seen by this client ("per thread" back-off counter). */
  let throttled = 0;

  /**
   * The fields of a call as they go out: checked against the schema (all of them, extensions
   * too: a bad value is a mistake wherever it was meant to go), then without the extensions when
   * this is the real service.
   */
  function fieldsToSend(fields: Fields | DownloadFields | undefined, endpoint: Endpoint): { entries: [string, string][]; dropped: string[] } {
    const entries = fieldEntries(fields);
    // A bad field is the library's own TracelabError (400 / 1019), as vectorize() reports it; for a
    // Tracelab server also the combinations it refuses (output.size.scale=0, …), which the real
    // service's documentation does not list.
    if (validate) {
      const parsed = parseOptions(entries, endpoint);
      if (!realService) checkCombination(parsed);
    }
    if (!realService) return { entries, dropped: [] };
    const { fields: kept, dropped } = forRealService(entries);
    return { entries: kept, dropped };
  }

  async function send(plan: RequestPlan, signal: AbortSignal | undefined): Promise<Exchange> {
    if (signal !== undefined && !(typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal)) {
      throw parameterError(`signal must be an AbortSignal; received ${signal === null ? 'null' : typeof signal}`);
    }
    const headers: Record<string, string> = { Accept: plan.accept };
    if (auth !== undefined) headers['Authorization'] = auth;
    let networkRetries = 0;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw abortReason(signal);
      const current = attemptSignal(signal, timeoutMs, clock);
      let exchange: Exchange | undefined;
      let answered = false;
      try {
        const init: RequestInit = { method: plan.method, headers, signal: current.signal };
        if (plan.body !== undefined) init.body = plan.body();
        const res = await raceAbort(doFetch(`${base}/${plan.path}`, init), current.signal);
        current.touch();
        answered = true;
        exchange = { res, bytes: await readBody(res, current) };
      } catch (e) {
        if (signal?.aborted) throw abortReason(signal);
        const error = current.timedOut() ? abortReason(current.signal) : e;
        if (error === e && isCutWhileSending(e) && attempt < maxAttempts) {
          // falls through to the back-off below, once this attempt's timer is disposed
        } else if (plan.retryNetworkError && networkRetries < 1 && attempt < maxAttempts) {
          networkRetries++;
          continue;
        } else if (!current.timedOut() && !plan.retryNetworkError && (answered || isLostAfterSending(e))) {
          throw chargeUnknownError(`${base}/${plan.path}`, plan.path, e);
        } else throw error;
      } finally {
        current.dispose();
      }
      if (exchange === undefined) {
        throttled++;
        await sleep(step * throttled, signal);
        continue;
      }

      const { res, bytes } = exchange;
      if (res.ok) {
        throttled = 0;
        return exchange;
      }
      const retryAfter = parseRetryAfter(res.headers.get('Retry-After'), clock.now());
      const error = errorFromResponse(res.status, res.statusText, new TextDecoder().decode(bytes), retryAfter);
      if ((res.status === 429 || res.status === 503) && attempt < maxAttempts) {
        throttled++;
        await sleep(Math.max(step * throttled, (retryAfter ?? 0) * 1000), signal);
        continue;
      }
      throw error;
    }
  }

  function fileResult({ res, bytes }: Exchange, dropped: readonly string[]): FileResult {
    const h = res.headers;
    const result: {
      -readonly [K in keyof FileResult]: FileResult[K];
    } = { status: res.status, body: arrayBufferBytes(bytes), contentType: h.get('Content-Type') ?? '' };
    if (dropped.length > 0) result.droppedOptions = dropped;
    const filename = parseContentDispositionFilename(h.get('Content-Disposition'));
    if (filename !== undefined) result.filename = filename;
    const token = h.get('X-Image-Token');
    if (token !== null && token !== '') result.imageToken = token;
    const receipt = h.get('X-Receipt');
    if (receipt !== null && receipt !== '') result.receipt = receipt;
    const charged = parseCredits(h.get('X-Credits-Charged'));
    if (charged !== undefined) result.creditsCharged = charged;
    const calculated = parseCredits(h.get('X-Credits-Calculated'));
    if (calculated !== undefined) result.creditsCalculated = calculated;
    return result;
  }

  function json({ res, bytes }: Exchange): unknown {
    const text = new TextDecoder().decode(bytes);
    try {
      return JSON.parse(text);
    } catch {
      throw new ApiClientError(res.status, ERROR_CODES.generic, `Expected a JSON body; received ${JSON.stringify(text.slice(0, 200))}`);
    }
  }

  function requireToken(token: string): void {
    if (typeof token !== 'string' || token === '') throw new TypeError('An image token is required');
  }

  return {
    realService,

    async vectorize(input, fields, call) {
      const sources = (['image', 'url', 'base64', 'token'] as const).filter(
        (k) => (input as Record<string, unknown>)[k] !== undefined,
      );
      if (sources.length !== 1) {
        throw new TypeError(`Give exactly one image source (image, url, base64 or token); received ${sources.length}`);
      }
      const { entries, dropped } = fieldsToSend(fields, 'vectorize');
      const mode = entries.find(([name]) => name === 'mode')?.[1] ?? 'production';
      const body = (): FormData => {
        const form = new FormData();
        if ('image' in input && input.image !== undefined) {
          const blob = input.image instanceof Blob ? input.image : new Blob([new Uint8Array(input.image)]);
          const name = input.filename ?? (typeof File !== 'undefined' && blob instanceof File ? blob.name : '');
          form.append('image', blob, name !== '' ? name : 'image');
        } else if ('url' in input) form.append('image.url', input.url);
        else if ('base64' in input) form.append('image.base64', input.base64);
        else form.append('image.token', (input as { readonly token: string }).token);
        for (const [k, v] of entries) form.append(k, v);
        return form;
      };
      const exchange = await send(
        { path: 'vectorize', method: 'POST', accept: ACCEPT_FILE, body, retryNetworkError: TEST_MODES.has(mode) },
        call?.signal,
      );
      return fileResult(exchange, dropped);
    },

    async download(token, fields, call) {
      requireToken(token);
      const { entries, dropped } = fieldsToSend(fields, 'download');
      const body = (): FormData => {
        const form = new FormData();
        form.append('image.token', token);
        for (const [k, v] of entries) form.append(k, v);
        return form;
      };
      // /download has no mode: the token may be a production one, so it may have been charged.
      const exchange = await send(
        { path: 'download', method: 'POST', accept: ACCEPT_FILE, body, retryNetworkError: false },
        call?.signal,
      );
      return fileResult(exchange, dropped);
    },

    async delete(token, call) {
      requireToken(token);
      const body = (): FormData => {
        const form = new FormData();
        form.append('image.token', token);
        return form;
      };
      const exchange = await send(
        { path: 'delete', method: 'POST', accept: ACCEPT_JSON, body, retryNetworkError: true },
        call?.signal,
      );
      const parsed = json(exchange) as { success?: unknown } | null;
      if (parsed?.success !== true) {
        throw new ApiClientError(exchange.res.status, ERROR_CODES.generic, `Unexpected /delete answer: ${JSON.stringify(parsed)}`);
      }
      return { success: true };
    },

    async account(call) {
      const exchange = await send(
        { path: 'account', method: 'GET', accept: ACCEPT_JSON, retryNetworkError: true },
        call?.signal,
      );
      const parsed = json(exchange) as Partial<Record<keyof AccountStatus, unknown>> | null;
      if (
        typeof parsed?.subscriptionPlan !== 'string' ||
        typeof parsed.subscriptionState !== 'string' ||
        typeof parsed.credits !== 'number'
      ) {
        throw new ApiClientError(exchange.res.status, ERROR_CODES.generic, `Unexpected /account answer: ${JSON.stringify(parsed)}`);
      }
      return {
        subscriptionPlan: parsed.subscriptionPlan,
        subscriptionState: parsed.subscriptionState,
        credits: parsed.credits,
      };
    },
  };
}
