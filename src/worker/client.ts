/**
 * Main-thread side of the trace worker.
 * In: image bytes + API fields. Out: VectorizeResult, or a rejected TracelabError (API code and
 * message, rebuilt from the worker's plain error object) / TracerAbortedError.
 * One request at a time: a newer request aborts the older one, and abort = terminate the worker
 * (the engine is synchronous, so a running trace cannot be interrupted any other way) and spawn
 * a fresh one at once.
 */

import { transfer, wrap, type Remote } from 'comlink';

import { TracelabError } from '../engine/errors.js';
import { isWorkerErrorPayload, type TracerApi, type VectorizeResult } from './protocol.js';

export type { VectorizeResult, VectorizeStats } from './protocol.js';
export { TracelabError } from '../engine/errors.js';

/** Rejection of a request that was superseded by a newer one or cancelled with `abort()`. */
export class TracerAbortedError extends Error {
  constructor() {
    super('The trace was cancelled');
    this.name = 'AbortError';
  }
}

export interface TracerClient {
  /**
   * Traces `bytes` with the API `fields`. The bytes' buffer is transferred to the worker (it is
   * detached here afterwards): pass a copy if you need it again. Aborts any request still running.
   */
  vectorize(bytes: Uint8Array, fields: [string, string][]): Promise<VectorizeResult>;
  /** Cancels the running request, if any (its promise rejects with TracerAbortedError). */
  abort(): void;
  /** Cancels and stops the worker; a later `vectorize` starts a new one. */
  dispose(): void;
}

function defaultWorker(): Worker {
  return new Worker(new URL('./tracer.worker.ts', import.meta.url), { type: 'module', name: 'tracelab-tracer' });
}

interface Pending {
  reject(reason: unknown): void;
}

function toTypedError(thrown: unknown): Error {
  if (thrown instanceof TracelabError) return thrown;
  if (isWorkerErrorPayload(thrown)) {
    return new TracelabError(thrown.code, typeof thrown.status === 'number' ? thrown.status : 500, thrown.message);
  }
  if (thrown instanceof Error) return new TracelabError(0, 500, `Internal error while tracing (${thrown.message})`);
  return new TracelabError(0, 500, `Internal error while tracing (${String(thrown)})`);
}

export function createTracerClient(createWorker: () => Worker = defaultWorker): TracerClient {
  let worker: Worker | undefined;
  let remote: Remote<TracerApi> | undefined;
  let pending: Pending | undefined;

  function stopWorker(): void {
    worker?.terminate();
    worker = undefined;
    remote = undefined;
  }

  function start(): Remote<TracerApi> {
    if (remote) return remote;
    const w = createWorker();
    // A worker that fails to load or crashes never answers: fail the request instead of hanging.
    w.addEventListener('error', (event) => {
      event.preventDefault();
      if (worker !== w) return;
      const detail = event.message || 'the worker script failed to load; try again';
      stopWorker();
      const p = pending;
      pending = undefined;
      p?.reject(new TracelabError(0, 500, `The trace worker stopped (${detail})`));
    });
    worker = w;
    remote = wrap<TracerApi>(w);
    return remote;
  }

  function abort(): void {
    const p = pending;
    if (!p) return;
    pending = undefined;
    stopWorker();
    start(); // respawn now, so the next request does not wait for the worker to load
    p.reject(new TracerAbortedError());
  }

  return {
    vectorize(bytes, fields) {
      abort();
      const r = start();
      return new Promise<VectorizeResult>((resolve, reject) => {
        const mine: Pending = { reject };
        pending = mine;
        const buffer = bytes.buffer;
        const transferable = buffer instanceof ArrayBuffer ? [buffer] : [];
        r.vectorize(transfer(bytes, transferable), fields).then(
          (value) => {
            if (pending !== mine) return;
            pending = undefined;
            resolve(value);
          },
          (thrown: unknown) => {
            if (pending !== mine) return;
            pending = undefined;
            reject(toTypedError(thrown));
          },
        );
      });
    },
    abort,
    dispose() {
      const p = pending;
      pending = undefined;
      stopWorker();
      p?.reject(new TracerAbortedError());
    },
  };
}
