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
 *   already running (traces included) finish, for at most TRACELAB_SHUTDOWN_GRACE_S, then it exits.
 */

import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import { errorResponse } from '../api/service-http.js';
import { removeStaleTempFiles } from '../api/storage/directory.js';
import { DEFAULT_QUEUE, withQueueLimit } from '../api/service-queue.js';
import { openLocalService, type TracelabConfig } from './config.js';
import { startServer, type RunningServer } from './server.js';
import { createTracePool, type TracePool } from './trace-pool.js';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly config: TracelabConfig;
  readonly writeStderr: (text: string) => void;
  /** The bundled trace worker entry (dist-cli/trace-thread.mjs); omitted → traces on this thread. */
  readonly traceThread?: URL;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** How long SIGTERM lets running requests finish by default (TRACELAB_SHUTDOWN_GRACE_S). */
const DEFAULT_SHUTDOWN_GRACE_MS = 30_000;
/** A store temp file older than this belongs to no running write. */
const STALE_TEMP_MS = 10 * 60_000;

/** Liveness and readiness paths (no auth; for haproxy / an orchestrator). */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

function probe(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } });
}

export interface StartedService {
  readonly server: RunningServer;
  readonly pool: TracePool | undefined;
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
  let draining = false;
  const handler = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    if (path === HEALTH_PATH) return probe(200, { status: 'ok' });
    if (path === READY_PATH) {
      if (draining) return probe(503, { status: 'draining' });
      return (await storeReady()) ? probe(200, { status: 'ready' }) : probe(503, { status: 'store unavailable' });
    }
    if (draining) {
      // Shutting down: a new request goes elsewhere (the client's back-off or haproxy retries it).
      const error = new TracelabError(ERROR_CODES.unavailable, 503, 'This server is shutting down; retry (another replica will answer).');
      return errorResponse(error, null, { 'Retry-After': '1', Connection: 'close' });
    }
    return queued(request);
  };
  let server: RunningServer;
  try {
    server = await startServer({ handler, host: options.host, port: options.port, onError: log, graceMs: config.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS });
  } catch (e) {
    await pool?.close();
    await closeStore().catch(() => undefined);
    throw e;
  }
  if (!LOOPBACK.has(options.host)) line(`warning: listening on ${options.host}, reachable from other machines`);
  line(pool ? `tracing in ${pool.size} worker thread(s), heap budget ${pool.heapMb} MB each` : 'tracing on the server thread');
  line(`serving ${server.url}/api/v1`);
  return {
    server,
    pool,
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
