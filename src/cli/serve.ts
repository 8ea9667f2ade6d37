/**
 * `tracelab serve [--port N] [--host H]`: the local `/api/v1` service over HTTP (node:http, see
 * server.ts) with the configuration of config.ts. Binds 127.0.0.1 unless `--host` says otherwise;
 * runs until SIGINT/SIGTERM (or `stop` aborts), then closes cleanly.
 *
 * Traces run in a pool of worker threads (trace-pool.ts; TRACELAB_THREADS, TRACELAB_THREAD_MEMORY_MB,
 * TRACELAB_TRACE_TIMEOUT_S) started from the bundled `traceThread` entry, so the event loop keeps
 * answering while images are traced and a crashing trace takes down only its worker. Without
 * `traceThread` (the service run from source) or with TRACELAB_THREADS=0, traces run on this thread.
 * At start-up, temp files of image-store writes a killed server left behind are deleted.
 *
 * `--store redis://HOST:PORT/DB` (or TRACELAB_REDIS_URL) keeps all state in a Redis shared by a
 * fleet of replicas instead (fleet.ts, loaded only then). Either way:
 * - `GET /healthz` is 200 while the process runs; `GET /readyz` is 200 while it takes requests and
 *   its store answers, else 503 (haproxy's health check, deploy/haproxy.cfg);
 * - SIGTERM drains: readiness turns 503, new requests are answered 503 + Retry-After, requests
 *   already running (traces included) finish, for at most TRACELAB_SHUTDOWN_GRACE_S, then it exits;
 * - both probes answer 503 once every queue slot has been taken for TRACELAB_QUEUE_STUCK_S, so a
 *   load balancer stops sending to a replica that is stuck full.
 *
 * Before a request reaches the queue: a page of another origin is refused (403, request-origin.ts;
 * on a loopback bind also a page on a name that is not a loopback name: DNS rebinding), a client
 * that sent wrong credentials waits a growing delay (login-throttle.ts), and wrong credentials are
 * answered 401 before the upload is read. A non-loopback bind refuses to start with the default secret unless
 * `--allow-default-secret` says so.
 */

import { setTimeout as sleep } from 'node:timers/promises';
import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import { createLoginThrottle, type LoginThrottle } from '../api/login-throttle.js';
import { checkRequestOrigin, isLoopbackHost } from '../api/request-origin.js';
import { authenticate, errorResponse } from '../api/service-http.js';
import { removeStaleTempFiles } from '../api/storage/directory.js';
import { DEFAULT_QUEUE, withQueueLimit } from '../api/service-queue.js';
import { DEFAULT_API_SECRET, DEFAULT_QUEUE_STUCK_MS, openLocalService, type TracelabConfig } from './config.js';
import { clientAddressOf, startServer, type RunningServer } from './server.js';
import { createTracePool, type TracePool } from './trace-pool.js';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly config: TracelabConfig;
  readonly writeStderr: (text: string) => void;
  /** The bundled trace worker entry (dist-cli/trace-thread.mjs); omitted → traces on this thread. */
  readonly traceThread?: URL;
  /** `--allow-default-secret`: start on a non-loopback address although the secret is the default one. */
  readonly allowDefaultSecret?: boolean;
}

/** Why `serve` must not start: a non-loopback bind with the default secret and no explicit consent. */
export function defaultSecretRefusal(host: string, config: TracelabConfig, allowDefaultSecret: boolean): string | undefined {
  if (isLoopbackHost(host) || allowDefaultSecret || config.credentials.apiSecret !== DEFAULT_API_SECRET) return undefined;
  return (
    `refusing to listen on ${host} with the default API secret: anyone who can reach it could use the service. ` +
    'Set TRACELAB_API_SECRET (and TRACELAB_API_ID), or pass --allow-default-secret if the network is yours alone.'
  );
}

/** The client a request counts against for the login delay: its address (behind haproxy, the one haproxy saw). */
function clientKey(request: Request, trustForwarded: boolean): string {
  const forwarded = trustForwarded ? request.headers.get('X-Forwarded-For') : null;
  return forwarded?.split(',').pop()?.trim() || clientAddressOf(request) || 'unknown';
}

/** How long SIGTERM lets running requests finish by default (TRACELAB_SHUTDOWN_GRACE_S). */
const DEFAULT_SHUTDOWN_GRACE_MS = 30_000;
/** A store temp file older than this belongs to no running write. */
const STALE_TEMP_MS = 10 * 60_000;

/**
 * The login check made before a request is queued (and so before its upload is read): a client
 * with failed logins first waits its delay; a request with wrong credentials is answered 401 and
 * counts as a failure; one without credentials is answered 401 too but counts not (a browser asks
 * without them first). undefined: the credentials are right.
 */
async function checkLogin(request: Request, config: TracelabConfig, throttle: LoginThrottle): Promise<Response | undefined> {
  const client = clientKey(request, config.trustRequestId === true);
  const delay = throttle.delayMs(client);
  if (delay > 0) await sleep(delay, undefined, { signal: request.signal });
  try {
    authenticate(request, config.credentials);
  } catch (e) {
    if (request.headers.has('Authorization')) throttle.failed(client);
    return errorResponse(e, null);
  }
  throttle.succeeded(client);
  return undefined;
}

/** Liveness and readiness paths (no auth; for haproxy / an orchestrator). */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

function probe(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });
}

export interface StartedService {
  readonly server: RunningServer;
  readonly pool: TracePool | undefined;
  /** How long the next request of `client` (its address) waits after its failed logins. */
  loginDelayMs(client: string): number;
  /** Stop taking requests (503 + Retry-After, readiness 503); running ones go on. */
  drain(): void;
  /** drain(), wait for running requests (at most the shutdown grace), then close everything. */
  finish(): Promise<void>;
}

/** Starts the service; resolves once it listens. */
export async function startService(options: ServeOptions): Promise<StartedService> {
  const line = (text: string): void => options.writeStderr(`tracelab: ${text}\n`);
  const log = (e: unknown): void => line(`server error: ${e instanceof Error ? e.message : String(e)}`);
  const config = options.config;
  const refusal = defaultSecretRefusal(options.host, config, options.allowDefaultSecret === true);
  if (refusal !== undefined) throw new Error(refusal);
  const threads = config.threads;
  const pool =
    options.traceThread !== undefined && threads !== undefined && threads.count > 0
      ? createTracePool({ entry: options.traceThread, size: threads.count, heapMb: threads.heapMb, jobTimeoutMs: threads.jobTimeoutMs, log: line })
      : undefined;
  let api: (request: Request) => Promise<Response>;
  let storeReady: () => Promise<boolean>;
  let closeStore: () => Promise<void>;
  try {
    // A bundle that cannot load in a worker fails here, at start-up, not on the first request.
    await pool?.ready();
    if (config.redisUrl !== undefined) {
      // Loaded only for a Redis store: the default serve never loads the Redis client.
      const { openFleetService } = await import('./fleet.js');
      const fleet = await openFleetService(config, config.redisUrl, line, pool?.run);
      api = fleet.handler;
      storeReady = fleet.ready;
      closeStore = fleet.close;
    } else {
      const stale = await removeStaleTempFiles(config.imagesDir, STALE_TEMP_MS);
      if (stale.length > 0) line(`removed ${stale.length} unfinished image-store write(s) left by an earlier run`);
      const local = openLocalService(config, log, pool ? { runTrace: pool.run } : {});
      api = local.handler;
      storeReady = async () => true;
      closeStore = () => local.account.flush();
    }
  } catch (e) {
    await pool?.close();
    throw e;
  }
  // A bounded queue: a burst beyond it gets 429 + Retry-After instead of unbounded memory.
  const queued = withQueueLimit(api, config.queue ?? DEFAULT_QUEUE);
  const queueStuckMs = config.queueStuckMs ?? DEFAULT_QUEUE_STUCK_MS;
  const stuck = (): boolean => {
    const since = queued.state().fullSinceMs;
    return since !== undefined && Date.now() - since >= queueStuckMs;
  };
  const throttle = createLoginThrottle();
  const allowedOrigins = new Set(config.allowedOrigins ?? []);
  const loopbackOnly = isLoopbackHost(options.host);
  let draining = false;
  const handler = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (path === HEALTH_PATH) return stuck() ? probe(503, { status: 'queue full' }) : probe(200, { status: 'ok' });
    if (path === READY_PATH) {
      if (draining) return probe(503, { status: 'draining' });
      if (stuck()) return probe(503, { status: 'queue full' });
      return (await storeReady()) ? probe(200, { status: 'ready' }) : probe(503, { status: 'store unavailable' });
    }
    if (draining) {
      // Shutting down: a new request goes elsewhere (the client's back-off or haproxy retries it).
      const error = new TracelabError(ERROR_CODES.unavailable, 503, 'This server is shutting down; retry (another replica will answer).');
      return errorResponse(error, null, { 'Retry-After': '1', Connection: 'close' });
    }
    try {
      checkRequestOrigin(request, allowedOrigins, loopbackOnly);
    } catch (e) {
      return errorResponse(e, null);
    }
    const refused = await checkLogin(request, config, throttle);
    return refused ?? queued(request);
  };
  let server: RunningServer;
  try {
    server = await startServer({
      handler,
      host: options.host,
      port: options.port,
      onError: log,
      graceMs: config.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS,
      ...(config.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: config.bodyTimeoutMs } : {}),
    });
  } catch (e) {
    await pool?.close();
    await closeStore().catch(() => undefined);
    throw e;
  }
  if (!loopbackOnly) line(`warning: listening on ${options.host}, reachable from other machines`);
  line(pool ? `tracing in ${pool.size} worker thread(s), heap budget ${pool.heapMb} MB each` : 'tracing on the server thread');
  line(`serving ${server.url}/api/v1`);
  return {
    server,
    pool,
    loginDelayMs: (client) => throttle.delayMs(client),
    drain() {
      draining = true;
    },
    async finish() {
      draining = true;
      await server.close();
      await pool?.close();
      await closeStore();
    },
  };
}

/** Runs until SIGINT/SIGTERM (or `stop` aborts); returns once everything is closed. */
export async function runServe(options: ServeOptions, stop?: AbortSignal): Promise<void> {
  const running = await startService(options);
  await new Promise<void>((resolve) => {
    const done = (): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      stop?.removeEventListener('abort', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
    if (stop?.aborted) done();
    else stop?.addEventListener('abort', done, { once: true });
  });
  options.writeStderr('tracelab: shutting down: refusing new requests, finishing the running ones\n');
  await running.finish();
  options.writeStderr('tracelab: stopped\n');
}
