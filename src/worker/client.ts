/**
 * Main-thread side of the trace worker.
 * In: image bytes + API fields. Out: VectorizeResult, or a rejected TracelabError (API code and
 * message, rebuilt from the worker's plain error object) / TracerAbortedError.
 * One request at a time: a newer request aborts the older one, and abort = terminate the worker
 * (the engine is synchronous, so a running trace cannot be interrupted any other way) and spawn
 * a fresh one at once.
 */

import { proxy, transfer, wrap, type Remote } from 'comlink';

import { TracelabError } from '../engine/errors.js';
import { isWorkerErrorPayload, type TracerApi } from './protocol.js';

export type { AccountInfo, ExportResult, RetainedImage, ServiceRequest, ServiceResponse, VectorizeResult, VectorizeStats, ViewRender, ViewWindow } from './protocol.js';
export { TracelabError } from '../engine/errors.js';

/** Rejection of a request that was superseded by a newer one or cancelled with `abort()`. */
export class TracerAbortedError extends Error {
  constructor() {
    super('The trace was cancelled');
    this.name = 'AbortError';
  }
}

/**
 * The worker's API on the page's side (TracerApi), plus cancellation. `vectorize` transfers the
 * bytes' buffer (detached here afterwards: pass a copy if you need it again) and aborts every
 * request still running; the other calls do not abort anything. File fields of `callService` are
 * copied, not transferred.
 */
export interface TracerClient extends TracerApi {
  /** Cancels every running request (each rejects with TracerAbortedError). */
  abort(): void;
  /** Cancels and stops the worker; a later request starts a new one. */
  dispose(): void;
  /** Starts the worker now (at page load), so the first request does not wait for it to load. */
  prepare(): void;
}

function defaultWorker(): Worker {
  return new Worker(new URL('./tracer.worker.ts', import.meta.url), { type: 'module', name: 'tracelab-tracer' });
}

/** A worker's rejection as an Error: its plain error payload becomes a TracelabError again. */
export function toTypedError(thrown: unknown): Error {
  if (thrown instanceof TracelabError) return thrown;
  if (isWorkerErrorPayload(thrown)) {
    return new TracelabError(thrown.code, typeof thrown.status === 'number' ? thrown.status : 500, thrown.message);
  }
  if (thrown instanceof Error) return new TracelabError(0, 500, `Internal error while tracing (${thrown.message})`);
  return new TracelabError(0, 500, `Internal error while tracing (${String(thrown)})`);
}

function transferBytes(bytes: Uint8Array): Uint8Array {
  const buffer = bytes.buffer;
  return transfer(bytes, buffer instanceof ArrayBuffer ? [buffer] : []);
}

export function createTracerClient(createWorker: () => Worker = defaultWorker): TracerClient {
  let worker: Worker | undefined;
  let remote: Remote<TracerApi> | undefined;
  /** Rejecters of the requests still running. */
  const pending = new Set<(reason: unknown) => void>();

  function stopWorker(): void {
    worker?.terminate();
    worker = undefined;
    remote = undefined;
  }

  function rejectAll(reason: unknown): void {
    const all = [...pending];
    pending.clear();
    for (const reject of all) reject(reason);
  }

  function start(): Remote<TracerApi> {
    if (remote) return remote;
    const w = createWorker();
    // A worker that fails to load or crashes never answers: fail the requests instead of hanging.
    w.addEventListener('error', (event) => {
      event.preventDefault();
      if (worker !== w) return;
      const detail = event.message || 'the worker script failed to load; try again';
      stopWorker();
      rejectAll(new TracelabError(0, 500, `The trace worker stopped (${detail})`));
    });
    worker = w;
    remote = wrap<TracerApi>(w);
    return remote;
  }

  function abort(): void {
    if (pending.size === 0) return;
    stopWorker();
    start(); // respawn now, so the next request does not wait for the worker to load
    rejectAll(new TracerAbortedError());
  }

  /** Runs one request on the worker; abort/dispose reject it, late answers are dropped. */
  function request<T>(call: (r: Remote<TracerApi>) => Promise<T>): Promise<T> {
    const r = start();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const mine = (reason: unknown): void => {
        if (settled) return;
        settled = true;
        reject(reason);
      };
      pending.add(mine);
      call(r).then(
        (value) => {
          if (!pending.delete(mine)) return; // aborted meanwhile
          settled = true;
          resolve(value);
        },
        (thrown: unknown) => {
          if (!pending.delete(mine)) return;
          mine(toTypedError(thrown));
        },
      );
    });
  }

  return {
    vectorize(bytes, fields, onProgress) {
      abort();
      // The callback crosses the boundary as a comlink proxy; reports arrive while the worker runs.
      return request((r) => r.vectorize(transferBytes(bytes), fields, onProgress ? proxy(onProgress) : undefined));
    },
    exportFile: (bytes, fields) => request((r) => r.exportFile(transferBytes(bytes), fields)),
    // No abort: a view of the current result runs beside it (a new trace aborts both).
    renderView: (bytes, fields, view) => request((r) => r.renderView(transferBytes(bytes), fields, view)),
    callService: (req) => request((r) => r.callService(req)),
    account: () => request((r) => r.account()),
    setAccount: (status) => request((r) => r.setAccount(status)),
    resetAccount: () => request((r) => r.resetAccount()),
    listRetained: () => request((r) => r.listRetained()),
    abort,
    prepare() {
      start();
    },
    dispose() {
      stopWorker();
      rejectAll(new TracerAbortedError());
    },
  };
}
