/**
 * Connects the store's `service` slice to the in-browser local service and the file exporter (both
 * in the export worker, src/worker/client.ts). No React: every function takes the store and the
 * exporter, does one thing, and writes the outcome into the store.
 *
 * In: the current source, options and service settings (mode, retention days, receipts).
 * Out: `service.last` — one ServiceCall per call (status, X-Credits-Charged / X-Credits-Calculated
 * as numbers, token, receipt, the API error `{code, message}` from the error JSON, ms, increasing
 * id) — `service.file` (the file of the last call that returned one), `service.account`,
 * `service.retained`, `service.receipts`, and `service.busy` while anything runs.
 *
 * Nothing here throws: an API error JSON, a worker failure or a bad account form all end up in
 * `service.last.error`, so the panel can announce them and React never sees a rejection.
 * `exportFormat` is the exception to the store rule: plain downloads are not service calls (no
 * credits, no token), so it returns its outcome to the download panel instead of replacing the
 * service panel's cost line.
 */

import { AccountConfigError, LocalAccount } from '../api/account.js';
import { FILE_FORMAT_MEDIA, toFields } from '../api/index.js';
import { isMode, type Mode } from '../api/pricing.js';
import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import type { FileFormat } from '../formats/types.js';
import type { TracerClient } from '../worker/client.js';
import type { AccountInfo, ServiceField, ServiceResponse } from '../worker/protocol.js';
import { fieldsFor, SERVICE_FIELDS, type JobError, type ServiceCall, type ServiceResultFile, type ServiceState, type TracelabStore } from './store.js';

/** What the flows need from the export worker's client (a fake or the real service host in tests). */
export type ServiceExporter = Pick<TracerClient, 'exportFile' | 'callService' | 'account' | 'setAccount' | 'resetAccount' | 'listRetained'>;

/** Every output format, in the order the panels offer them. */
export const FILE_FORMATS: readonly FileFormat[] = ['svg', 'pdf', 'eps', 'dxf', 'png'];

type Endpoint = ServiceCall['endpoint'];

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());
const elapsed = (start: number): number => Math.round((now() - start) * 10) / 10;

// ---------------------------------------------------------------------------------------------
// Small pure helpers (exported for the panels and tests)

/** `<source name without extension>.<ext>` ('traced' when there is no usable name). */
export function fileNameFor(sourceName: string | null, extension: string): string {
  const base = (sourceName ?? 'traced').replace(/\.[^./\\]*$/, '') || 'traced';
  return `${base}.${extension}`;
}

/** File extension of a response content type (parameters ignored); 'bin' for an unknown type. */
export function extensionOf(contentType: string): string {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  for (const media of Object.values(FILE_FORMAT_MEDIA)) if (media.contentType === type) return media.extension;
  if (type === 'application/json') return 'json';
  return 'bin';
}

/** A credit header ('0.200000') as a number; null when absent or not a number. */
export function parseCredits(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * The API error of a failed response: `{error:{code,message}}` from the JSON body (reference §4.1).
 * A body that is not that JSON (an internal failure may answer anything) keeps the HTTP status.
 */
export function parseApiError(status: number, body: Uint8Array): JobError {
  try {
    const json: unknown = JSON.parse(new TextDecoder().decode(body));
    const error = (json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (error && typeof error.code === 'number') {
      return { code: error.code, message: typeof error.message === 'string' ? error.message : `HTTP ${status}` };
    }
  } catch {
    // not JSON: fall through
  }
  return { code: ERROR_CODES.none, message: `HTTP ${status} without an API error body` };
}

/** A thrown value (worker failure, AccountConfigError, …) as an error with the API code when it has one. */
function thrownError(err: unknown): { status: number; error: JobError } {
  if (err instanceof TracelabError) return { status: err.status, error: { code: err.code, message: err.message } };
  const message = err instanceof Error ? err.message : String(err);
  return { status: 500, error: { code: ERROR_CODES.none, message } };
}

/** The output.* fields of the current options for /download (it rejects processing.* and mode). */
export function downloadFieldsFor(options: Parameters<typeof fieldsFor>[0]): [string, string][] {
  return toFields(options, 'download').filter(([name]) => !SERVICE_FIELDS.has(name) && name !== 'output.file_format');
}

/** The receipt to send for `token`: one issued in this session, else the one the store kept. */
export function receiptFor(service: ServiceState, token: string): string | null {
  return service.receipts[token] ?? service.retained.find((r) => r.token === token)?.receipt ?? null;
}

// ---------------------------------------------------------------------------------------------
// Bookkeeping

/** Calls in flight per store: `busy` stays set until the last overlapping call ends. */
const inFlight = new WeakMap<TracelabStore, number>();

async function whileBusy<T>(store: TracelabStore, work: () => Promise<T>): Promise<T> {
  inFlight.set(store, (inFlight.get(store) ?? 0) + 1);
  if (!store.getState().service.busy) store.getState().setService({ busy: true });
  try {
    return await work();
  } finally {
    const left = (inFlight.get(store) ?? 1) - 1;
    inFlight.set(store, left);
    if (left === 0) store.getState().setService({ busy: false });
  }
}

/** Stores `call` as service.last with the next id (plus any other patch of the same update). */
function record(store: TracelabStore, call: Omit<ServiceCall, 'id'>, patch: Partial<ServiceState> = {}): ServiceCall {
  const { service, setService } = store.getState();
  const last: ServiceCall = { ...call, id: (service.last?.id ?? 0) + 1 };
  setService({ ...patch, last });
  return last;
}

function emptyCall(endpoint: Endpoint, mode: Mode | null): Omit<ServiceCall, 'id' | 'status' | 'error' | 'ms'> {
  return { endpoint, mode, contentType: null, charged: null, calculated: null, token: null, receipt: null };
}

function recordFailure(store: TracelabStore, endpoint: Endpoint, mode: Mode | null, err: unknown, ms: number, token: string | null = null): ServiceCall {
  const { status, error } = thrownError(err);
  return record(store, { ...emptyCall(endpoint, mode), token, status, error, ms }, staleFile(endpoint));
}

/**
 * A failed /vectorize or /download made no file: the previous call's file must not stay beside its
 * error as if it were the answer (issue 17: a 1011 shown above the previous PDF and its save link).
 */
function staleFile(endpoint: Endpoint): { file?: null } {
  return endpoint === 'vectorize' || endpoint === 'download' ? { file: null } : {};
}

/**
 * One POST to the local service. A 2xx answer with a file body becomes service.file; a new
 * X-Receipt is kept under the token it upgraded (`token` is the request's token on /download and
 * /delete; on /vectorize it comes from X-Image-Token).
 */
async function post(
  store: TracelabStore,
  exporter: ServiceExporter,
  endpoint: 'vectorize' | 'download' | 'delete',
  fields: readonly ServiceField[],
  mode: Mode | null,
  requestToken: string | null,
): Promise<ServiceCall> {
  const start = now();
  let response: ServiceResponse;
  try {
    response = await exporter.callService({ endpoint, fields });
  } catch (err) {
    return recordFailure(store, endpoint, mode, err, elapsed(start), requestToken);
  }
  const header = (name: string): string | null => response.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? null;
  const ok = response.status >= 200 && response.status < 300;
  const contentType = header('content-type');
  const token = requestToken ?? header('x-image-token');
  const receipt = header('x-receipt');
  const call: Omit<ServiceCall, 'id'> = {
    endpoint,
    mode,
    status: response.status,
    contentType,
    charged: parseCredits(header('x-credits-charged')),
    calculated: parseCredits(header('x-credits-calculated')),
    token,
    receipt,
    error: ok ? null : parseApiError(response.status, response.body),
    ms: elapsed(start),
  };
  const patch: { file?: ServiceResultFile | null; receipts?: Record<string, string> } = ok ? {} : staleFile(endpoint);
  if (ok && endpoint !== 'delete' && contentType !== null) {
    patch.file = { body: response.body, contentType: contentType.split(';')[0]!.trim(), extension: extensionOf(contentType) };
  }
  if (ok && receipt !== null && token !== null) patch.receipts = { ...store.getState().service.receipts, [token]: receipt };
  return record(store, call, patch);
}

/**
 * After a call the credits and the token list may have changed; reload both. Failures here are
 * dropped: the call's own outcome (its cost line or error) is what the user needs to see.
 */
async function resync(store: TracelabStore, exporter: ServiceExporter): Promise<void> {
  await Promise.all([loadAccount(store, exporter).catch(() => undefined), loadRetained(store, exporter).catch(() => undefined)]);
}

async function loadAccount(store: TracelabStore, exporter: ServiceExporter): Promise<AccountInfo> {
  const account = await exporter.account();
  store.getState().setService({ account });
  return account;
}

async function loadRetained(store: TracelabStore, exporter: ServiceExporter): Promise<void> {
  const retained = await exporter.listRetained();
  store.getState().setService({ retained });
}

// ---------------------------------------------------------------------------------------------
// The flows

/**
 * POST /vectorize with the current source as `image`, the current options, and the service
 * slice's `mode` and `policy.retention_days`. Returns the recorded call.
 */
export function callVectorize(store: TracelabStore, exporter: ServiceExporter): Promise<ServiceCall> {
  return whileBusy(store, async () => {
    const { source, options, service } = store.getState();
    const mode = service.mode;
    if (!source) {
      return record(store, { ...emptyCall('vectorize', mode), status: 400, error: { code: ERROR_CODES.none, message: 'Choose an image first.' }, ms: 0 });
    }
    const fields: ServiceField[] = [
      // The worker copies file fields (no transfer), so the store keeps its bytes.
      ['image', { bytes: source.bytes, filename: source.name, type: source.type || 'application/octet-stream' }],
      ...fieldsFor(options),
      ['mode', mode],
      ['policy.retention_days', String(service.retentionDays)],
    ];
    const call = await post(store, exporter, 'vectorize', fields, mode, null);
    await resync(store, exporter);
    return call;
  });
}

/**
 * POST /download of a retained token in `format` with the current output options. Sends the
 * receipt of that token when one is known (cheap other-format rate); a newly issued X-Receipt is
 * kept in service.receipts for the next download.
 */
export function downloadToken(store: TracelabStore, exporter: ServiceExporter, token: string, format: FileFormat): Promise<ServiceCall> {
  return whileBusy(store, async () => {
    const { options, service } = store.getState();
    const retainedMode = service.retained.find((r) => r.token === token)?.mode;
    const mode = retainedMode !== undefined && isMode(retainedMode) ? retainedMode : null;
    const receipt = receiptFor(service, token);
    const fields: ServiceField[] = [
      ['image.token', token],
      ...(receipt !== null ? [['receipt', receipt] as const] : []),
      ...downloadFieldsFor(options),
      ['output.file_format', format],
    ];
    const call = await post(store, exporter, 'download', fields, mode, token);
    await resync(store, exporter);
    return call;
  });
}

/** POST /delete of a retained token; its receipt is forgotten with it. */
export function deleteToken(store: TracelabStore, exporter: ServiceExporter, token: string): Promise<ServiceCall> {
  return whileBusy(store, async () => {
    const retainedMode = store.getState().service.retained.find((r) => r.token === token)?.mode;
    const mode = retainedMode !== undefined && isMode(retainedMode) ? retainedMode : null;
    const call = await post(store, exporter, 'delete', [['image.token', token]], mode, token);
    if (call.error === null) {
      const { [token]: _gone, ...receipts } = store.getState().service.receipts;
      store.getState().setService({ receipts, retained: store.getState().service.retained.filter((r) => r.token !== token) });
    }
    await resync(store, exporter);
    return call;
  });
}

/**
 * Reloads the local account into service.account. A refresh is not a billed call, so a success
 * leaves service.last (the cost line) alone; a failure is recorded there like any other error.
 */
export function refreshAccount(store: TracelabStore, exporter: ServiceExporter): Promise<AccountInfo | null> {
  return whileBusy(store, async () => {
    const start = now();
    try {
      return await loadAccount(store, exporter);
    } catch (err) {
      recordFailure(store, 'account', null, err, elapsed(start));
      return null;
    }
  });
}

/** Reloads the retained-image list (same recording rule as refreshAccount). */
export function refreshRetained(store: TracelabStore, exporter: ServiceExporter): Promise<void> {
  return whileBusy(store, async () => {
    const start = now();
    try {
      await loadRetained(store, exporter);
    } catch (err) {
      recordFailure(store, 'account', null, err, elapsed(start));
    }
  });
}

/**
 * Replaces the local account (plan, state, credits). The values are checked here with the same
 * rules the service applies (src/api/account.ts), so a bad form gets the field's own message
 * instead of a generic worker failure. Recorded as an 'account' call.
 */
export function setAccount(store: TracelabStore, exporter: ServiceExporter, status: AccountInfo): Promise<ServiceCall> {
  return whileBusy(store, async () => {
    const start = now();
    try {
      const checked = new LocalAccount(status).status();
      const account = await exporter.setAccount(checked);
      return record(store, { ...emptyCall('account', null), status: 200, error: null, ms: elapsed(start) }, { account });
    } catch (err) {
      if (err instanceof AccountConfigError) {
        return record(store, { ...emptyCall('account', null), status: 400, error: { code: ERROR_CODES.none, message: err.message }, ms: elapsed(start) });
      }
      return recordFailure(store, 'account', null, err, elapsed(start));
    }
  });
}

/** Back to the default local account (100 credits, active). Recorded as an 'account' call. */
export function resetAccount(store: TracelabStore, exporter: ServiceExporter): Promise<ServiceCall> {
  return whileBusy(store, async () => {
    const start = now();
    try {
      const account = await exporter.resetAccount();
      return record(store, { ...emptyCall('account', null), status: 200, error: null, ms: elapsed(start) }, { account });
    } catch (err) {
      return recordFailure(store, 'account', null, err, elapsed(start));
    }
  });
}

/** A plain download (no service, no credits): the file, or the error to show next to the buttons. */
export type ExportOutcome =
  | { readonly ok: true; readonly file: ServiceResultFile; readonly name: string; readonly ms: number }
  | { readonly ok: false; readonly error: JobError };

/** The current source traced with the current options, written as `format` by the export worker. */
export async function exportFormat(store: TracelabStore, exporter: ServiceExporter, format: FileFormat): Promise<ExportOutcome> {
  const { source, options } = store.getState();
  if (!source) return { ok: false, error: { code: ERROR_CODES.none, message: 'Choose an image first.' } };
  const fields: [string, string][] = [...fieldsFor(options).filter(([name]) => name !== 'output.file_format'), ['output.file_format', format]];
  try {
    // exportFile transfers (detaches) its bytes; the store keeps the original.
    const out = await exporter.exportFile(source.bytes.slice(), fields);
    return {
      ok: true,
      file: { body: out.body, contentType: out.contentType, extension: out.extension },
      name: fileNameFor(source.name, out.extension),
      ms: out.ms,
    };
  } catch (err) {
    return { ok: false, error: thrownError(err).error };
  }
}
