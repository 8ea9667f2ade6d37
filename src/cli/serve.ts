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
 */

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
/** A store temp file older than this belongs to no running write. */
const STALE_TEMP_MS = 10 * 60_000;

/** Starts the service; resolves once it listens. */
export async function startService(options: ServeOptions): Promise<{ server: RunningServer; pool: TracePool | undefined; finish(): Promise<void> }> {
  const line = (text: string): void => options.writeStderr(`tracelab: ${text}\n`);
  const log = (e: unknown): void => line(`server error: ${e instanceof Error ? e.message : String(e)}`);
  const threads = options.config.threads;
  const pool =
    options.traceThread !== undefined && threads !== undefined && threads.count > 0
      ? createTracePool({ entry: options.traceThread, size: threads.count, heapMb: threads.heapMb, jobTimeoutMs: threads.jobTimeoutMs, log: line })
      : undefined;
  try {
    // A bundle that cannot load in a worker fails here, at start-up, not on the first request.
    await pool?.ready();
    const stale = await removeStaleTempFiles(options.config.imagesDir, STALE_TEMP_MS);
    if (stale.length > 0) line(`removed ${stale.length} unfinished image-store write(s) left by an earlier run`);
  } catch (e) {
    await pool?.close();
    throw e;
  }
  const local = openLocalService(options.config, log, pool ? { runTrace: pool.run } : {});
  // A bounded queue: a burst beyond it gets 429 + Retry-After instead of unbounded memory.
  const handler = withQueueLimit(local.handler, options.config.queue ?? DEFAULT_QUEUE);
  let server: RunningServer;
  try {
    server = await startServer({ handler, host: options.host, port: options.port, onError: log });
  } catch (e) {
    await pool?.close();
    throw e;
  }
  if (!LOOPBACK.has(options.host)) line(`warning: listening on ${options.host}, reachable from other machines`);
  line(pool ? `tracing in ${pool.size} worker thread(s), heap budget ${pool.heapMb} MB each` : 'tracing on the server thread');
  line(`serving ${server.url}/api/v1`);
  return {
    server,
    pool,
    async finish() {
      await server.close();
      await pool?.close();
      await local.account.flush();
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
  options.writeStderr('tracelab: shutting down\n');
  await running.finish();
}
