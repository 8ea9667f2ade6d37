/**
 * The Vectorizer.AI-compatible API as one platform-neutral fetch-style handler
 * (`(request: Request) => Promise<Response>`, reference §1, §2, §4, §5, §6.2–6.3). The Node HTTP
 * server and the tests call the same handler; it does no I/O of its own except through the
 * injected store, account and `fetchImage`.
 *
 * Routes (any path prefix): `POST …/api/v1/vectorize`, `POST …/api/v1/download`,
 * `POST …/api/v1/delete`, `GET …/api/v1/account`. Other paths → 404, other methods → 405
 * (both code −1, the reference has no code for them). Every request needs HTTP Basic auth.
 *
 * Charging: the price comes from `pricing.ts`, `account.checkCanSpend` runs before any image is
 * read or traced, and `account.charge` only after the response body exists and any token was
 * stored (failed calls are free, §4.1). The charge is the last write of a call: an account shared
 * by many replicas (storage/redis.ts) may still refuse it (402, another replica spent the last
 * credit; 503, Redis went away) — then the token just stored is deleted again and the call
 * answers that error uncharged, so a client never holds a token it did not pay for.
 *
 * The decode/trace/write part of a call is a `TraceJob` (service-trace.ts) given to the injected
 * `runTrace`: by default in this thread; `tracelab serve` passes a worker-thread pool
 * (src/cli/trace-pool.ts). Everything else (auth, forms, storage, charging) stays here.
 */

import { checkImageBytes, ERROR_CODES, missingImageError, parameterError, TracelabError } from '../engine/errors.js';
import type { ImageFormat } from '../decode/common.js';
import { sniffFormat } from '../decode/index.js';
import type { ServiceAccount } from './account.js';
import { parseOptions, toFields } from './options.js';
import { planVectorize } from './pipeline.js';
import { creditHeaders, downloadCost, isTestMode, vectorizeCost, type Charge, type Mode } from './pricing.js';
import { authenticate, errorResponse, jsonResponse, readForm, type ParsedForm } from './service-http.js';
import { base64Bytes, fileBytes, imageSource, urlBytes, type FetchImage, type ImageSource } from './service-image.js';
import type { Rendered } from './service-render.js';
import { runTraceJobHere, traceFields, type TraceRunner } from './service-trace.js';
import {
  getRecord,
  newRecord,
  receiptMatches,
  storeFailedError,
  unknownTokenError,
  withReceipt,
  type ImageRecord,
  type ImageStore,
  type RandomSource,
} from './storage/index.js';

export interface ServiceOptions {
  readonly store: ImageStore;
  /** A `LocalAccount`, or the account a fleet shares (`RedisAccount`). */
  readonly account: ServiceAccount;
  /** The one API Id / API Secret pair accepted (HTTP Basic user name / password). */
  readonly credentials: { readonly apiId: string; readonly apiSecret: string };
  /** Clock for every retention decision (ms since the epoch); default `Date.now`. */
  readonly now?: () => number;
  /** Randomness for tokens and receipts; default `crypto.getRandomValues`. */
  readonly random?: RandomSource;
  /** Fetches `image.url`; default `globalThis.fetch`. */
  readonly fetchImage?: FetchImage;
  /** Called with every unexpected (500, code −1) exception, for logging; never with TracelabErrors. */
  readonly onError?: (error: unknown) => void;
  /** Runs the decode/trace/write job of a call; default in this thread (`runTraceJobHere`). */
  readonly runTrace?: TraceRunner;
  /**
   * Honour REQUEST_ID_HEADER (a charge or delete is done once per id). Only for a service that
   * sits behind a load balancer that sets the header on every request (deploy/haproxy.cfg):
   * otherwise a client could send one id with many calls and pay once. Default false.
   */
  readonly trustRequestId?: boolean;
}

/** The id haproxy gives each request (deploy/haproxy.cfg `unique-id-format`), kept on its retries. */
export const REQUEST_ID_HEADER = 'X-Tracelab-Request-Id';

export type ApiHandler = (request: Request) => Promise<Response>;

type Route = 'vectorize' | 'download' | 'delete' | 'account';
const ROUTE_RE = /\/api\/v1\/(vectorize|download|delete|account)\/?$/;
const METHOD: Readonly<Record<Route, 'GET' | 'POST'>> = {
  vectorize: 'POST',
  download: 'POST',
  delete: 'POST',
  account: 'GET',
};

const IMAGE_MIME: Readonly<Record<ImageFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
};

/** The file response of `/vectorize` and `/download`. */
function fileResponse(rendered: Rendered, headers: Record<string, string>): Response {
  return new Response(rendered.body as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'Content-Type': rendered.contentType,
      'Content-Disposition': `attachment; filename="vectorized.${rendered.extension}"`,
      'Content-Length': String(rendered.body.byteLength),
      ...headers,
    },
  });
}

function chargeHeaders(charge: Charge, mode: Mode): Record<string, string> {
  const h = creditHeaders(charge, mode);
  const out: Record<string, string> = { 'X-Credits-Charged': h['X-Credits-Charged'] };
  if (h['X-Credits-Calculated'] !== undefined) out['X-Credits-Calculated'] = h['X-Credits-Calculated'];
  return out;
}

/** The single `image.token` text field of a `/download` or `/delete` form (1005 missing, 1019 otherwise wrong). */
function tokenField(form: ParsedForm, endpoint: 'download' | 'delete'): string {
  if (form.files.length > 0) throw parameterError(`/${endpoint} takes no file uploads; received a file in ${form.files[0]![0]}.`);
  for (const [name] of form.strings) {
    if (name === 'image' || name === 'image.url' || name === 'image.base64') {
      throw parameterError(`${name} is not accepted on /${endpoint}; it takes image.token.`);
    }
  }
  const tokens = form.strings.filter(([n]) => n === 'image.token');
  if (tokens.length === 0 || tokens[0]![1] === '') throw missingImageError(`/${endpoint} requires image.token.`);
  if (tokens.length > 1) throw parameterError('image.token was given more than once; give it once.');
  return tokens[0]![1];
}

/** The service's injected parts with their defaults filled in: what every endpoint works with. */
interface Context {
  readonly store: ImageStore;
  readonly account: ServiceAccount;
  readonly now: () => number;
  readonly random: RandomSource | undefined;
  readonly fetchImage: FetchImage;
  readonly runTrace: TraceRunner;
}

function contextOf(options: ServiceOptions): Context {
  return {
    store: options.store,
    account: options.account,
    now: options.now ?? (() => Date.now()),
    random: options.random,
    fetchImage: options.fetchImage ?? ((url, signal) => globalThis.fetch(url, { signal, redirect: 'follow' })),
    runTrace: options.runTrace ?? runTraceJobHere,
  };
}

/** Stores `record`; a store failure other than a TracelabError is 500/−4 (storeFailedError). */
async function storePut(ctx: Context, record: ImageRecord): Promise<void> {
  try {
    await ctx.store.put(record);
  } catch (e) {
    if (e instanceof TracelabError) throw e;
    throw storeFailedError(record.token, e instanceof Error ? e.message : String(e));
  }
}

/** The bytes of a `/vectorize` image source (413/1012 over the size cap), and the media type a token stored with them. */
async function sourceBytes(ctx: Context, source: ImageSource): Promise<{ bytes: Uint8Array; storedMime?: string }> {
  let read: { bytes: Uint8Array; storedMime?: string };
  switch (source.kind) {
    case 'file':
      read = { bytes: await fileBytes(source.file) };
      break;
    case 'base64':
      read = { bytes: base64Bytes(source.text) };
      break;
    case 'url':
      read = { bytes: await urlBytes(source.url, ctx.fetchImage) };
      break;
    case 'token': {
      const record = await getRecord(ctx.store, source.token, ctx.now);
      read = { bytes: record.image.bytes, storedMime: record.image.mimeType };
      break;
    }
  }
  checkImageBytes(read.bytes.length, 'the image');
  return read;
}

/** Charges `costMicro` as the last write of a call; a refused charge deletes the token just stored (never handed out unpaid). */
async function chargeLast(ctx: Context, costMicro: number, requestId: string | undefined, storedToken: string | undefined): Promise<void> {
  try {
    await ctx.account.charge(costMicro, requestId);
  } catch (e) {
    if (storedToken !== undefined) await ctx.store.delete(storedToken).catch(() => undefined);
    throw e;
  }
}

/** `POST /vectorize`: check every field and the account, read the image, trace, retain (policy.retention_days), charge. */
async function vectorize(ctx: Context, form: ParsedForm, signal: AbortSignal, requestId: string | undefined): Promise<Response> {
  const source = imageSource(form);
  // Every other field is validated before any image is read (1019).
  const opts = parseOptions(form.strings, 'vectorize');
  const mode = opts.mode;
  const previewMode = mode === 'preview' || mode === 'test_preview';
  // Every consistency check (1019) before the image is read; the trace job plans again from the same fields.
  // Preview modes always answer a 4× PNG (§6.2; contradicting output options are ignored).
  planVectorize(form.strings);
  const retentionDays = opts['policy.retention_days'];
  const cost = vectorizeCost(mode, retentionDays);
  await ctx.account.checkCanSpend(mode, cost.charged);

  const { bytes, storedMime } = await sourceBytes(ctx, source);
  const watermark = mode === 'production' ? 'none' : mode === 'preview' ? 'discreet' : 'heavy';
  const fields = traceFields(form.strings);
  const rendered = await ctx.runTrace(
    { source: { kind: 'image', bytes, fields }, outputFields: fields, preview: previewMode, watermark, keepTrace: retentionDays > 0 },
    signal,
  );

  const headers = chargeHeaders(cost, mode);
  if (retentionDays > 0) {
    if (rendered.trace === undefined) throw new Error('the trace job returned no trace to retain');
    const record = newRecord({
      mode,
      retentionDays,
      image: { bytes, mimeType: storedMime ?? IMAGE_MIME[sniffFormat(bytes) ?? 'png'] },
      options: toFields(opts, 'vectorize'),
      trace: rendered.trace,
      now: ctx.now,
      ...(ctx.random ? { random: ctx.random } : {}),
    });
    await storePut(ctx, record);
    headers['X-Image-Token'] = record.token;
  }
  await chargeLast(ctx, cost.charged, requestId, headers['X-Image-Token']);
  return fileResponse(rendered, headers);
}

/** The receipt `/download` hands out with an upgrade: the record's own, or a new one stored once (set-if-absent when shared). */
async function issueReceipt(ctx: Context, record: ImageRecord): Promise<string> {
  const updated = withReceipt(record, ctx.now, ctx.random);
  if (updated === record) return record.receipt!.receipt;
  if (ctx.store.setReceipt) {
    // Shared store: set-if-absent, so two replicas upgrading at once hand out one receipt.
    const kept = await ctx.store.setReceipt(record.token, updated.receipt!);
    if (kept === undefined) throw unknownTokenError(record.token);
    return kept.receipt;
  }
  await storePut(ctx, updated);
  return updated.receipt!.receipt;
}

/** `POST /download`: the retained trace in the asked format (traced again for another stacking), upgraded and charged. */
async function download(ctx: Context, form: ParsedForm, signal: AbortSignal, requestId: string | undefined): Promise<Response> {
  const token = tokenField(form, 'download');
  const fields = form.strings.filter(([n]) => n !== 'image.token');
  const opts = parseOptions(fields, 'download');
  // The same option checks as /vectorize (1019).
  const plan = planVectorize(fields.filter(([n]) => n !== 'receipt'));
  const record = await getRecord(ctx.store, token, ctx.now);
  const receipt = opts.receipt;
  if (receipt !== undefined && !receiptMatches(record, receipt)) {
    throw parameterError('receipt does not belong to this image token (send the X-Receipt issued when this token was upgraded, or no receipt).');
  }
  const cost = downloadCost({ tokenMode: record.mode, validReceipt: receipt !== undefined });
  await ctx.account.checkCanSpend(record.mode, cost.charged);
  // The retained trace, or the stored image traced again when another stacking is asked.
  const retrace = record.options.filter(([n]) => n !== 'output.shape_stacking' && n !== 'mode' && n !== 'policy.retention_days');
  const rendered: Rendered = await ctx.runTrace(
    {
      source: { kind: 'stored', token, trace: record.trace, stacking: plan.options['output.shape_stacking'], image: record.image.bytes, fields: retrace },
      outputFields: fields.filter(([n]) => n !== 'receipt'),
      preview: false,
      // Production and preview tokens download the real result; test tokens stay watermarked (§6.3).
      watermark: isTestMode(record.mode) ? 'heavy' : 'none',
      keepTrace: false,
    },
    signal,
  );
  const headers = chargeHeaders(cost, record.mode);
  if (cost.issuesReceipt) headers['X-Receipt'] = await issueReceipt(ctx, record);
  // Charged last. A refused charge leaves the receipt stored but never handed out: it is
  // unguessable, and paying the upgrade again returns the same one (records.ts withReceipt).
  await ctx.account.charge(cost.charged, requestId);
  return fileResponse(rendered, headers);
}

/** `POST /delete`: forget the token (the same answer again for a load balancer's retry of a delete already done). */
async function remove(ctx: Context, form: ParsedForm, requestId: string | undefined): Promise<Response> {
  const token = tokenField(form, 'delete');
  const extra = form.strings.find(([n]) => n !== 'image.token');
  if (extra) throw parameterError(`Unknown parameter ${JSON.stringify(extra[0].slice(0, 100))} for /delete; it takes only image.token.`);
  try {
    await getRecord(ctx.store, token, ctx.now);
  } catch (e) {
    // A load balancer's retry of a delete whose replica died after deleting: the same answer.
    if (requestId !== undefined && ctx.store.deletedBy && (await ctx.store.deletedBy(token, requestId))) return jsonResponse({ success: true });
    throw e;
  }
  await ctx.store.delete(token, requestId);
  return jsonResponse({ success: true });
}

/** The endpoint a request path names; 404/−1 for any other path. */
function routeOf(request: Request): Route {
  const path = new URL(request.url, 'http://localhost').pathname;
  const m = ROUTE_RE.exec(path);
  if (m === null) {
    throw new TracelabError(
      ERROR_CODES.generic,
      404,
      `No such endpoint: ${path.slice(0, 200)}. Endpoints: /api/v1/vectorize, /api/v1/download, /api/v1/delete, /api/v1/account.`,
    );
  }
  return m[1] as Route;
}

export function createService(options: ServiceOptions): ApiHandler {
  const ctx = contextOf(options);
  return async function handle(request: Request): Promise<Response> {
    let dataReceived: ParsedForm['dataReceived'] | null = null;
    try {
      authenticate(request, options.credentials);
      const route = routeOf(request);
      if (request.method !== METHOD[route]) {
        return errorResponse(
          new TracelabError(ERROR_CODES.generic, 405, `Method ${request.method} is not allowed on /api/v1/${route}; use ${METHOD[route]}.`),
          null,
          { Allow: METHOD[route] },
        );
      }
      if (route === 'account') return jsonResponse(await ctx.account.status());
      const form = await readForm(request);
      if (Object.keys(form.dataReceived).length > 0) dataReceived = form.dataReceived;
      // Set by the load balancer, the same on its retries of one request (charged once,
      // storage/redis.ts) — and only trusted when the deployment says a balancer sets it.
      const requestId = options.trustRequestId === true ? (request.headers.get(REQUEST_ID_HEADER) ?? undefined) : undefined;
      if (route === 'vectorize') return await vectorize(ctx, form, request.signal, requestId);
      if (route === 'download') return await download(ctx, form, request.signal, requestId);
      return await remove(ctx, form, requestId);
    } catch (error) {
      if (!(error instanceof TracelabError)) options.onError?.(error);
      return errorResponse(error, dataReceived);
    }
  };
}
