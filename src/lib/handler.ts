/**
 * `tracelab/handler`: the local `/api/v1` service (src/api/service.ts, the one `tracelab serve`
 * runs) as a fetch-style handler `(request: Request) => Promise<Response>` to mount in a server
 * of your own — node:http through `toNodeListener`, or any framework that speaks Request/Response.
 * In: credentials, an image store (memory by default, or a directory), an account, a thread count.
 * Out: the handler, with `close()` for its trace threads. Routes end in /api/v1/vectorize,
 * /download, /delete and /account under any prefix; the same auth, queue limit (429),
 * image.url guard and charging as `tracelab serve`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_ACCOUNT, LocalAccount, type AccountStatus } from '../api/account.js';
import { createService, type ServiceOptions } from '../api/service.js';
import { DEFAULT_QUEUE, withQueueLimit, type QueueOptions } from '../api/service-queue.js';
import { runTraceJobHere, type TraceRunner } from '../api/service-trace.js';
import { createMemoryStore, type ImageStore } from '../api/storage/index.js';
import { createDirectoryStore } from '../api/storage/directory.js';
import { DEFAULT_THREAD_MEMORY_MB } from '../cli/config.js';
import { createSafeFetchImage } from '../cli/safe-fetch.js';
import { createNodeListener } from '../cli/server.js';
import { createTracePool, type TracePool } from '../cli/trace-pool.js';
import { defaultThreads } from './node.js';

export { createMemoryStore, type ImageStore, type ImageRecord } from '../api/storage/index.js';
export { createDirectoryStore } from '../api/storage/directory.js';
export { LocalAccount, DEFAULT_ACCOUNT, type AccountStatus } from '../api/account.js';
export { TracelabError } from '../engine/errors.js';

export interface HandlerOptions {
  /** The one API Id / API Secret pair accepted (HTTP Basic user name / password). */
  readonly credentials: { readonly apiId: string; readonly apiSecret: string };
  /** Where retained images (Image Tokens) live: an ImageStore, `{ directory }`, or memory (default). */
  readonly store?: ImageStore | { readonly directory: string };
  /** The local account (`/account`, credits charged as the real service does); default: the CLI's default account. */
  readonly account?: LocalAccount | AccountStatus;
  /**
   * Trace threads (worker_threads, started on first use, never holding the process open when idle);
   * 0 traces on the calling thread. Default: cores − 1, between 1 and 4.
   */
  readonly threads?: number;
  /** A trace running longer answers 503 / −10 (default 300 000 ms, as `tracelab serve`). */
  readonly timeoutMs?: number;
  /** Requests handled or waiting at once; more get 429 + Retry-After. Default 16. */
  readonly queue?: QueueOptions;
  /** Let `image.url` reach loopback and private addresses (default false, as `tracelab serve`). */
  readonly allowPrivateUrls?: boolean;
  /** Told about unexpected (500) errors. */
  readonly onError?: (error: unknown) => void;
  /** Clock (ms since the epoch) for retention decisions; default Date.now. */
  readonly now?: () => number;
}

export interface TracelabHandler {
  (request: Request): Promise<Response>;
  /** The account the handler charges. */
  readonly account: LocalAccount;
  /** Stops the trace threads (requests still tracing fail). */
  close(): Promise<void>;
}

export function createHandler(options: HandlerOptions): TracelabHandler {
  const threads = options.threads ?? defaultThreads();
  let pool: TracePool | undefined;
  const entry = new URL('./trace-thread.js', import.meta.url);
  const runTrace: TraceRunner =
    threads > 0
      ? (job, signal, onProgress) =>
          (pool ??= createTracePool({
            entry,
            size: threads,
            heapMb: DEFAULT_THREAD_MEMORY_MB,
            ...(options.timeoutMs !== undefined ? { jobTimeoutMs: options.timeoutMs } : {}),
            holdProcess: 'busy',
          })).run(job, signal, onProgress)
      : runTraceJobHere;
  const store: ImageStore =
    options.store === undefined ? createMemoryStore() : 'directory' in options.store ? createDirectoryStore(options.store.directory) : options.store;
  const account = options.account instanceof LocalAccount ? options.account : new LocalAccount(options.account ?? DEFAULT_ACCOUNT);
  const serviceOptions: ServiceOptions = {
    store,
    account,
    credentials: options.credentials,
    fetchImage: createSafeFetchImage({ allowPrivate: options.allowPrivateUrls === true }),
    runTrace,
    ...(options.onError ? { onError: options.onError } : {}),
    ...(options.now ? { now: options.now } : {}),
  };
  const handle = withQueueLimit(createService(serviceOptions), options.queue ?? DEFAULT_QUEUE);
  const handler = ((request: Request) => handle(request)) as TracelabHandler;
  Object.defineProperty(handler, 'account', { value: account, enumerable: true });
  Object.defineProperty(handler, 'close', {
    value: async () => {
      await pool?.close();
    },
  });
  return handler;
}

export interface NodeListenerOptions {
  /** Hard cap on a request body (413 above it); default 40 MiB. */
  readonly maxBodyBytes?: number;
  /** Told about handler exceptions and write failures. */
  readonly onError?: (error: unknown) => void;
}

/**
 * A node:http request listener answering with `handler`: `http.createServer(toNodeListener(h))`.
 * The body streams with a hard cap; a client that disconnects aborts `request.signal`.
 */
export function toNodeListener(
  handler: (request: Request) => Promise<Response>,
  options: NodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  return createNodeListener({ handler, ...options });
}
