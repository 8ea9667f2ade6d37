/**
 * Main-thread side of the trace worker.
 * In: image bytes + API fields. Out: VectorizeResult, or a rejected TracelabError (API code and
 * message, rebuilt from the worker's plain error object) / TracerAbortedError.
 * A newer vectorize call (or abort()) cancels the older requests at once: they reject with
 * TracerAbortedError and their answers are dropped. The worker itself stops a stale trace at its
 * next checkpoint (vectorize.ts) and starts the newer one with the stages and the decoded image
 * the stale one left. A stale trace that reaches no checkpoint within STALE_TRACE_GRACE_MS (one
 * long stage of a huge or hostile image) is stopped the hard way: the worker is terminated and
 * the newer trace runs on a fresh one.
 */

import { proxy, transfer, wrap, type Remote } from 'comlink';

import { TracelabError } from '../engine/errors.js';
import { internalTraceError, isWorkerErrorPayload, workerStoppedError, type TraceProgress, type TracerApi, type VectorizeResult } from './protocol.js';

export type { AccountInfo, ExportResult, OutlineView, RetainedImage, ServiceRequest, ServiceResponse, ShrunkImage, VectorizeResult, VectorizeStats, ViewRender, ViewWindow } from './protocol.js';
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
export interface TracerClient extends Omit<TracerApi, 'cancel'> {
  /** Cancels every running request (each rejects with TracerAbortedError). */
  abort(): void;
  /** Cancels and stops the worker; a later request starts a new one. */
  dispose(): void;
  /** Starts the worker now (at page load), so the first request does not wait for it to load. */
  prepare(): void;
}

/**
 * How long a newer trace waits for the stale one ahead of it in the worker to stop at a
 * checkpoint before the worker is replaced. Waiting is the better bet for any ordinary stage: a
 * fresh worker loads its code, decodes the image again and traces from scratch with a cold JIT
 * (a change made while the last one traced: 1.5–1.8 s to its result that way on a 1-MP picture,
 * 0.6–0.7 s waiting; Chromium, `npm run bench`). The longest stretch between checkpoints measured
 * 180–250 ms on the corpus's clip art and photos and 0.5–0.7 s on a 2-MP photo (its palette; in
 * Node on the bench machine): this is well above those.
 */
export const STALE_TRACE_GRACE_MS = 2000;

function defaultWorker(): Worker {
  return new Worker(new URL('./tracer.worker.ts', import.meta.url), { type: 'module', name: 'tracelab-tracer' });
}

/** A worker's rejection as an Error: its plain error payload becomes a TracelabError again. */
export function toTypedError(thrown: unknown): Error {
  if (thrown instanceof TracelabError) return thrown;
  if (isWorkerErrorPayload(thrown)) {
    return new TracelabError(thrown.code, typeof thrown.status === 'number' ? thrown.status : 500, thrown.message);
  }
  return internalTraceError(thrown instanceof Error ? thrown.message : String(thrown));
}

function transferBytes(bytes: Uint8Array): Uint8Array {
  const buffer = bytes.buffer;
  return transfer(bytes, buffer instanceof ArrayBuffer ? [buffer] : []);
}

export function createTracerClient(createWorker: () => Worker = defaultWorker, { staleGraceMs = STALE_TRACE_GRACE_MS } = {}): TracerClient {
  let worker: Worker | undefined;
  let remote: Remote<TracerApi> | undefined;
  /** Rejecters of the requests still running. */
  const pending = new Set<(reason: unknown) => void>();
  /** The worker's answer to the newest vectorize call, until it arrives (the worker is tracing). */
  let tracing: Promise<unknown> | undefined;

  function stopWorker(): void {
    worker?.terminate();
    worker = undefined;
    remote = undefined;
    tracing = undefined;
  }

  /** Rejects every request still running (but `except`); each rejecter leaves `pending` itself. */
  function rejectAll(reason: unknown, except?: (reason: unknown) => void): void {
    for (const reject of [...pending]) if (reject !== except) reject(reason);
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
      rejectAll(workerStoppedError(detail));
    });
    worker = w;
    remote = wrap<TracerApi>(w);
    return remote;
  }

  function abort(): void {
    if (pending.size === 0) return;
    rejectAll(new TracerAbortedError());
    if (tracing) remote?.cancel().catch(() => undefined);
  }

  /**
   * A promise that `abort`/`dispose` reject; `run` gets its settle functions (which drop late
   * answers) and its rejecter (its entry in `pending`).
   */
  function cancellable<T>(run: (resolve: (value: T) => void, fail: (thrown: unknown) => void, self: (reason: unknown) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const self = (reason: unknown): void => {
        if (!pending.delete(self)) return; // settled already
        reject(reason);
      };
      pending.add(self);
      run(
        (value) => {
          if (pending.delete(self)) resolve(value);
        },
        (thrown) => self(toTypedError(thrown)),
        self,
      );
    });
  }

  /** Runs one request on the worker; abort/dispose reject it, late answers are dropped. */
  function request<T>(call: (r: Remote<TracerApi>) => Promise<T>): Promise<T> {
    return cancellable<T>((resolve, fail) => {
      call(start()).then(resolve, fail);
    });
  }

  /** Sends one vectorize call and tracks its answer as the running trace. */
  function sendTrace(bytes: Uint8Array, fields: [string, string][], progress: ((p: TraceProgress) => void) | undefined): Promise<VectorizeResult> {
    const answer = start().vectorize(transferBytes(bytes), fields, progress);
    tracing = answer;
    const clear = (): void => {
      if (tracing === answer) tracing = undefined;
    };
    answer.then(clear, clear);
    return answer;
  }

  return {
    vectorize(bytes, fields, onProgress) {
      const stale = tracing;
      // The answers to older requests are no longer wanted; the worker stops the stale trace itself.
      rejectAll(new TracerAbortedError());
      // The callback crosses the boundary as a comlink proxy; reports arrive while the worker runs.
      const progress = onProgress ? proxy(onProgress) : undefined;
      // Kept for a fresh worker, in case the stale trace does not stop in time.
      const spare = stale ? bytes.slice() : undefined;
      return cancellable<VectorizeResult>((resolve, fail, self) => {
        sendTrace(bytes, fields, progress).then(resolve, fail);
        if (!stale || !spare) return;
        const timer = setTimeout(() => {
          if (!pending.has(self)) return; // settled or cancelled meanwhile
          // Stuck in one long stage: stop that worker (and whatever else was sent to it).
          stopWorker();
          rejectAll(new TracerAbortedError(), self);
          sendTrace(spare, fields, progress).then(resolve, fail);
        }, staleGraceMs);
        const stopWaiting = (): void => clearTimeout(timer);
        stale.then(stopWaiting, stopWaiting);
      });
    },
    exportFile: (bytes, fields) => request((r) => r.exportFile(transferBytes(bytes), fields)),
    // No abort: a view of the current result runs beside it (a new trace cancels both).
    renderView: (bytes, fields, view) => request((r) => r.renderView(transferBytes(bytes), fields, view)),
    renderOutline: (bytes, fields) => request((r) => r.renderOutline(transferBytes(bytes), fields)),
    shrinkImage: (bytes, maxPixels) => request((r) => r.shrinkImage(transferBytes(bytes), maxPixels)),
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
