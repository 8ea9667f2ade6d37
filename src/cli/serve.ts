/**
 * `tracelab serve [--port N] [--host H]`: the local `/api/v1` service over HTTP (node:http, see
 * server.ts) with the configuration of config.ts. Binds 127.0.0.1 unless `--host` says otherwise;
 * runs until SIGINT/SIGTERM (or `stop` aborts), then closes cleanly.
 */

import { DEFAULT_QUEUE, withQueueLimit } from '../api/service-queue.js';
import { openLocalService, type TracelabConfig } from './config.js';
import { startServer, type RunningServer } from './server.js';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly config: TracelabConfig;
  readonly writeStderr: (text: string) => void;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Starts the service; resolves once it listens. */
export async function startService(options: ServeOptions): Promise<{ server: RunningServer; finish(): Promise<void> }> {
  const log = (e: unknown): void => options.writeStderr(`tracelab: server error: ${e instanceof Error ? e.message : String(e)}\n`);
  const local = openLocalService(options.config, log);
  // A bounded queue: a burst beyond it gets 429 + Retry-After instead of unbounded memory.
  const handler = withQueueLimit(local.handler, options.config.queue ?? DEFAULT_QUEUE);
  const server = await startServer({ handler, host: options.host, port: options.port, onError: log });
  if (!LOOPBACK.has(options.host)) {
    options.writeStderr(`tracelab: warning: listening on ${options.host}, reachable from other machines\n`);
  }
  options.writeStderr(`tracelab: serving ${server.url}/api/v1\n`);
  return {
    server,
    async finish() {
      await server.close();
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
