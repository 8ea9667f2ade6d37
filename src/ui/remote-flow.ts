/**
 * Remote mode controller (no React): calls the real Vectorizer.AI service — or a user-run proxy in
 * front of it — with the user's API Id and Secret, through the typed client (src/api/client.ts).
 *
 * In:  the store's source, options (`fieldsFor`), `service.mode` (the one mode control of the page,
 *      shared with the local service so both results are made the same way; `callRemote` accepts a
 *      `mode` override) and the `remote` slice (apiId, apiSecret, remember, proxyUrl).
 * Out: `remote.last` (a ServiceCall: status, credits headers, token, receipt, error code/message)
 *      and `remote.file` (the result bytes, shown by the page through a blob URL only).
 *
 * Tracelab extension options (`tracelab.*`) are never sent: the client is told it talks to the
 * real service (a proxy URL is only a way to reach it), so it leaves them out, and the panel shows
 * `remoteNotSentNote` for as long as any is set.
 *
 * Credential rules (OWASP ASVS V8.2.2/V8.2.3, reference/user-expectations.md §4.3):
 *  - held in the store's memory only; sessionStorage only when the user ticks "remember", and then
 *    nothing but that one key; never localStorage, IndexedDB, URLs, cookies or the console;
 *  - every text this module records (error messages) is scrubbed of the Id, the Secret and the
 *    Basic header, because a proxy or an upstream error page might echo them;
 *  - `forget` clears memory and the stored key.
 * Nothing here logs: the only output is the store.
 */

import {
  ApiClientError,
  basicAuth,
  createClient,
  DEFAULT_BASE_URL,
  type FetchLike,
  type FileResult,
} from '../api/client.js';
import { forRealService, notSentNote } from '../api/extensions.js';
import { FILE_FORMAT_MEDIA } from '../api/media-types.js';
import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import { formatCredits, isTestMode, vectorizeCost, type Mode } from '../api/pricing.js';
import type { VectorizeOptions } from '../api/options.js';
import { fieldsFor, type JobError, type ServiceCall, type ServiceResultFile, type Source, type TracelabStore } from './store.js';
import { formatNumber } from './format.js';

/** The real service (reference §1). A proxy URL replaces its origin. */
export const REMOTE_BASE_URL = DEFAULT_BASE_URL;
/** The one sessionStorage key remote mode may write, and only when the user opted in. */
export const REMOTE_STORAGE_KEY = 'tracelab.remote';

/** The part of the Web Storage API used here (a fake in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface RemoteCallOptions {
  /** Default `globalThis.fetch`. */
  readonly fetch?: FetchLike;
  /** Default `store.service.mode`. */
  readonly mode?: Mode;
  readonly signal?: AbortSignal;
  /** Passed to the client (tests shorten the 429/503 back-off). */
  readonly maxAttempts?: number;
  readonly backoffStepMs?: number;
}

// ---------------------------------------------------------------------------------------------
// Proxy URL

/** Hosts plain http:// may go to: this machine (and what the page's CSP connect-src allows). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

/**
 * Why `text` cannot be used as a proxy URL, or undefined when it can ('' = no proxy). Refused:
 * non-HTTP(S) URLs, user:password@ parts (credentials in a URL end up in histories and logs), a
 * query or fragment, and plain http:// to anything but this machine — Basic auth is only base64,
 * so over plain HTTP the header *is* the secret, readable on the network.
 */
export function proxyUrlProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return 'The proxy URL must be an absolute http:// or https:// URL.';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The proxy URL must be an absolute http:// or https:// URL.';
  if (url.username !== '' || url.password !== '') return 'Do not put credentials into the proxy URL; use the API Id and API Secret fields.';
  if (url.search !== '' || url.hash !== '') return 'The proxy URL must not have a query or fragment.';
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    return 'Plain http:// is only for a proxy on localhost or 127.0.0.1; use https:// elsewhere, or the Authorization header can be read on the network.';
  }
  return undefined;
}

/**
 * The client's base URL: the real service, or `<proxy>/api/v1` (a proxy URL that already ends in
 * /api/v1 is used as is). Throws a plain Error with proxyUrlProblem's message for a bad URL.
 */
export function remoteBaseUrl(proxyUrl: string): string {
  const trimmed = proxyUrl.trim();
  if (trimmed === '') return REMOTE_BASE_URL;
  const problem = proxyUrlProblem(trimmed);
  if (problem !== undefined) throw new Error(problem);
  const base = trimmed.replace(/\/+$/, '');
  return /\/api\/v1$/.test(base) ? base : `${base}/api/v1`;
}

// ---------------------------------------------------------------------------------------------
// Scrubbing

/**
 * `text` with the Id, the Secret and the Basic header (and its base64 part) replaced by '[redacted]'.
 * Values shorter than 4 characters are left alone: hiding every "a" in a message hides nothing.
 */
export function redact(text: string, apiId: string, apiSecret: string): string {
  const needles: string[] = [];
  if (apiId !== '' || apiSecret !== '') {
    const header = basicAuth(apiId, apiSecret);
    needles.push(header, header.slice('Basic '.length));
  }
  needles.push(apiSecret, apiId);
  let out = text;
  for (const needle of needles) {
    if (needle.length >= 4) out = out.split(needle).join('[redacted]');
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The call

/** File extension of a response media type ('bin' when unknown). */
export function extensionFor(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  for (const media of Object.values(FILE_FORMAT_MEDIA)) if (media.contentType === type) return media.extension;
  return 'bin';
}

/** Media types the page may show in an <img> (anything else is offered as a download only). */
export function isViewableImage(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'image/svg+xml' || type === 'image/png';
}

/** Monotonic across calls: the panel keys its object URLs on it. */
let nextCallId = 1;

function isAbort(err: unknown): boolean {
  return (err instanceof DOMException || err instanceof Error) && err.name === 'AbortError';
}

/** A failure as the API reports it (status, code, message), credentials scrubbed. */
function callError(err: unknown, baseUrl: string, apiId: string, apiSecret: string): { status: number; error: JobError } {
  // A server's answer, or a field the client refused before sending (TracelabError 1019).
  if (err instanceof ApiClientError || err instanceof TracelabError) {
    return { status: err.status, error: { code: err.code, message: redact(err.message, apiId, apiSecret) } };
  }
  if (isAbort(err)) return { status: 0, error: { code: ERROR_CODES.none, message: 'The call was cancelled.' } };
  if ((err instanceof DOMException || err instanceof Error) && err.name === 'TimeoutError') {
    return { status: 0, error: { code: ERROR_CODES.none, message: redact(`No answer from the service (${err.message}).`, apiId, apiSecret) } };
  }
  // fetch rejects with a bare TypeError ("Failed to fetch") both when the host is unreachable
  // and when the browser blocks the answer for lack of CORS headers; the page cannot tell which.
  const detail = err instanceof Error ? err.message : String(err);
  const host = new URL(baseUrl).host;
  const message =
    `The request did not reach ${host} (${detail}). Browsers refuse cross-origin answers without CORS headers, ` +
    'which the real service does not send: set a proxy URL (docs/service.md, "Remote mode and CORS") or use the CLI ' +
    '(tracelab vectorize --remote).';
  return { status: 0, error: { code: ERROR_CODES.none, message: redact(message, apiId, apiSecret) } };
}

function succeeded(result: FileResult, mode: Mode, ms: number): { call: ServiceCall; file: ServiceResultFile } {
  const contentType = result.contentType;
  return {
    call: {
      endpoint: 'vectorize',
      mode,
      status: result.status,
      contentType: contentType === '' ? null : contentType,
      charged: result.creditsCharged ?? null,
      calculated: result.creditsCalculated ?? null,
      token: result.imageToken ?? null,
      receipt: result.receipt ?? null,
      error: null,
      ms,
      id: nextCallId++,
    },
    file: { body: result.body, contentType, extension: extensionFor(contentType) },
  };
}

function failed(mode: Mode, status: number, error: JobError, ms: number): ServiceCall {
  return {
    endpoint: 'vectorize',
    mode,
    status,
    contentType: null,
    charged: null,
    calculated: null,
    token: null,
    receipt: null,
    error,
    ms,
    id: nextCallId++,
  };
}

/**
 * Sends the current source with the current options and mode to the real service (or the proxy)
 * and records the outcome in `remote.last` / `remote.file`. Never throws and never logs: every
 * failure becomes `remote.last.error`. Returns the recorded call, or null when a call is already
 * running. `policy.retention_days` is not sent: remote mode has no token workflow, and retention
 * costs credits on the user's account.
 */
export async function callRemote(store: TracelabStore, options: RemoteCallOptions = {}): Promise<ServiceCall | null> {
  const state = store.getState();
  const { apiId, apiSecret, proxyUrl, busy } = state.remote;
  if (busy) return null;
  const mode = options.mode ?? state.service.mode;
  const source: Source | null = state.source;
  const started = Date.now();
  const record = (call: ServiceCall, file?: ServiceResultFile): ServiceCall => {
    // A failed call leaves no older result on show next to its error, and a result for an image
    // that was replaced meanwhile is not shown next to the new one.
    const keepFile = file !== undefined && store.getState().source === source;
    store.getState().setRemote({ busy: false, last: call, file: keepFile ? file : null });
    return call;
  };

  if (source === null) return record(failed(mode, 0, { code: ERROR_CODES.none, message: 'Choose an image first.' }, 0));
  if (apiId.trim() === '' || apiSecret === '') {
    return record(failed(mode, 0, { code: ERROR_CODES.none, message: 'Enter your API Id and API Secret first.' }, 0));
  }
  let baseUrl: string;
  try {
    baseUrl = remoteBaseUrl(proxyUrl);
  } catch (err) {
    return record(failed(mode, 0, { code: ERROR_CODES.none, message: (err as Error).message }, 0));
  }

  store.getState().setRemote({ busy: true });
  const client = createClient({
    baseUrl,
    // Also through a proxy (another host): it forwards to the real service.
    realService: true,
    apiId: apiId.trim(),
    apiSecret,
    ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
    ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    ...(options.backoffStepMs !== undefined ? { backoffStepMs: options.backoffStepMs } : {}),
  });
  const fields: [string, string][] = [...fieldsFor(state.options), ['mode', mode]];
  try {
    const result = await client.vectorize(
      { image: source.bytes, filename: source.name },
      fields,
      options.signal !== undefined ? { signal: options.signal } : undefined,
    );
    const { call, file } = succeeded(result, mode, Date.now() - started);
    return record(call, file);
  } catch (err) {
    const { status, error } = callError(err, baseUrl, apiId.trim(), apiSecret);
    return record(failed(mode, status, error, Date.now() - started));
  }
}

/**
 * The note the remote panel shows while options the real service does not have are set, e.g.
 * "Not sent to Vectorizer.AI: tracelab.gradients (a Tracelab extension)"; '' when none are.
 */
export function remoteNotSentNote(options: VectorizeOptions): string {
  return notSentNote(forRealService(fieldsFor(options)).dropped);
}

// ---------------------------------------------------------------------------------------------
// Cost line

function credits(value: number): string {
  return value.toFixed(6);
}

/** The one-line summary of a remote call: mode, HTTP status, credits (the headers, as sent), time. */
export function remoteCostText(call: ServiceCall): string {
  const parts: string[] = [];
  if (call.mode !== null) parts.push(`mode ${call.mode}`);
  if (call.status > 0) parts.push(`HTTP ${call.status}`);
  if (call.error !== null) {
    parts.push(call.error.code !== ERROR_CODES.none ? `error ${call.error.code}: ${call.error.message}` : `error: ${call.error.message}`);
  } else {
    parts.push(call.charged !== null ? `charged ${credits(call.charged)} credits` : 'charged: no X-Credits-Charged header');
    if (call.calculated !== null && call.calculated !== call.charged) parts.push(`would cost ${credits(call.calculated)}`);
    if (call.token !== null) parts.push(`image token ${call.token}`);
    if (call.receipt !== null) parts.push(`receipt ${call.receipt}`);
  }
  parts.push(`${formatNumber(call.ms)} ms`);
  return parts.join(' · ');
}

/** What a call in `mode` will cost, said before the call (reference §6.2 prices). */
export function expectedCostText(mode: Mode): string {
  const { charged, calculated } = vectorizeCost(mode);
  if (isTestMode(mode)) return `Mode ${mode}: free and watermarked (the same call unwatermarked costs ${formatCredits(calculated)} credits).`;
  return `Mode ${mode}: costs ${formatCredits(charged)} credits of your account per call.`;
}

// ---------------------------------------------------------------------------------------------
// Opt-in sessionStorage

interface Remembered {
  readonly apiId: string;
  readonly apiSecret: string;
  readonly proxyUrl: string;
}

function tryRemove(storage: KeyValueStorage): void {
  try {
    storage.removeItem(REMOTE_STORAGE_KEY);
  } catch {
    // storage disabled: nothing is stored either
  }
}

/**
 * Restores credentials the user asked this tab to remember (remember = true). A malformed entry
 * is removed. Returns whether anything was restored.
 */
export function loadRememberedCredentials(store: TracelabStore, storage: KeyValueStorage): boolean {
  let text: string | null;
  try {
    text = storage.getItem(REMOTE_STORAGE_KEY);
  } catch {
    return false;
  }
  if (text === null) return false;
  let parsed: Partial<Record<keyof Remembered, unknown>> | null = null;
  try {
    parsed = JSON.parse(text) as Partial<Record<keyof Remembered, unknown>> | null;
  } catch {
    parsed = null;
  }
  if (parsed === null || typeof parsed !== 'object' || typeof parsed.apiId !== 'string' || typeof parsed.apiSecret !== 'string') {
    tryRemove(storage);
    return false;
  }
  store.getState().setRemote({
    apiId: parsed.apiId,
    apiSecret: parsed.apiSecret,
    proxyUrl: typeof parsed.proxyUrl === 'string' ? parsed.proxyUrl : '',
    remember: true,
  });
  return true;
}

/**
 * Mirrors the credentials into storage when `remember` is on, and removes the key when it is off
 * (or when there is nothing to remember). Never writes anything while remember is off.
 */
export function persistCredentials(store: TracelabStore, storage: KeyValueStorage): void {
  const { apiId, apiSecret, proxyUrl, remember } = store.getState().remote;
  if (!remember || (apiId === '' && apiSecret === '' && proxyUrl === '')) {
    tryRemove(storage);
    return;
  }
  const value: Remembered = { apiId, apiSecret, proxyUrl };
  try {
    storage.setItem(REMOTE_STORAGE_KEY, JSON.stringify(value));
  } catch {
    // quota or disabled storage: the credentials simply stay in memory only
  }
}

/** The Forget button: clears the credentials from memory and from sessionStorage. */
export function forget(store: TracelabStore, storage: KeyValueStorage | null): void {
  store.getState().forgetCredentials();
  if (storage !== null) tryRemove(storage);
}

/** `window.sessionStorage`, or null where the browser refuses it (sandboxed frames, privacy modes). */
export function browserSessionStorage(): KeyValueStorage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Connects the remote slice to `storage`: restores remembered credentials, then keeps the stored
 * copy in step with every change of the credentials or of `remember` (so no code path can leave a
 * stale secret behind), and drops a remote result when the source image changes. Returns the
 * disconnect function.
 */
export function connectRemote(store: TracelabStore, storage: KeyValueStorage | null): () => void {
  if (storage !== null) loadRememberedCredentials(store, storage);
  return store.subscribe((state, previous) => {
    const now = state.remote;
    const before = previous.remote;
    if (
      storage !== null &&
      (now.apiId !== before.apiId || now.apiSecret !== before.apiSecret || now.proxyUrl !== before.proxyUrl || now.remember !== before.remember)
    ) {
      persistCredentials(store, storage);
    }
    if (state.source !== previous.source && now.file !== null) store.getState().setRemote({ file: null });
  });
}
