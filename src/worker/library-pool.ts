/**
 * The library's pool of trace workers on the page's side (`tracelab` in a browser).
 * In: a size and a way to start a worker (library.worker.ts). Out: a TraceRunner: jobs run on
 * the first idle worker, FIFO while all are busy. Workers start on first use and are reused.
 * Aborting a queued job drops it; aborting a running one terminates its worker (a synchronous
 * trace cannot be interrupted any other way) — the next job starts a fresh one. A worker that
 * fails to load or crashes fails its job instead of hanging it. The job's input bytes are
 * transferred (the caller's copy, see src/lib/tracer.ts); the file comes back transferred.
 */
import { proxy, transfer, wrap, type Remote } from 'comlink';

import type { JobProgress, TraceJob, TraceJobResult, TraceRunner } from '../api/service-trace.js';
import { toTypedError, TracerAbortedError } from './client.js';
import type { LibraryWorkerApi } from './library.worker.js';
import { workerStoppedError } from './protocol.js';

export interface WorkerPool {
  readonly run: TraceRunner;
  close(): void;
}

interface Job {
  readonly job: TraceJob;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((progress: JobProgress) => void) | undefined;
  readonly resolve: (result: TraceJobResult) => void;
  readonly reject: (reason: unknown) => void;
  readonly onAbort: () => void;
}

interface Slot {
  readonly worker: Worker;
  readonly remote: Remote<LibraryWorkerApi>;
  job: Job | undefined;
}

function transferables(job: TraceJob): Transferable[] {
  const s = job.source;
  const bytes = s.kind === 'image' ? s.bytes : s.kind === 'pixels' ? s.pixels.data : undefined;
  return bytes && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [];
}

export function createWorkerPool(size: number, createWorker: () => Worker): WorkerPool {
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  let closed = false;

  function retire(slot: Slot): void {
    slots.delete(slot);
    slot.worker.terminate();
  }

  function finish(slot: Slot, job: Job): boolean {
    if (slot.job !== job) return false; // aborted or failed meanwhile
    slot.job = undefined;
    job.signal?.removeEventListener('abort', job.onAbort);
    return true;
  }

  function spawn(): Slot {
    const worker = createWorker();
    const slot: Slot = { worker, remote: wrap<LibraryWorkerApi>(worker), job: undefined };
    // A worker that fails to load or dies never answers: fail its job and replace it.
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      const job = slot.job;
      retire(slot);
      if (job && finish(slot, job)) job.reject(workerStoppedError(event.message || 'the worker script failed to load'));
      pump();
    });
    slots.add(slot);
    return slot;
  }

  function pump(): void {
    while (queue.length > 0 && !closed) {
      let slot = [...slots].find((s) => s.job === undefined);
      if (!slot) {
        if (slots.size >= size) return;
        slot = spawn();
      }
      const job = queue.shift()!;
      slot.job = job;
      const running = slot;
      const progress = job.onProgress ? proxy(job.onProgress) : undefined;
      running.remote.run(transfer(job.job, transferables(job.job)), progress).then(
        (result) => {
          if (finish(running, job)) job.resolve(result);
          pump();
        },
        (thrown: unknown) => {
          if (finish(running, job)) job.reject(toTypedError(thrown));
          pump();
        },
      );
    }
  }

  const run: TraceRunner = (job, signal, onProgress) =>
    new Promise<TraceJobResult>((resolve, reject) => {
      if (closed) return reject(new Error('this tracer is closed'));
      if (signal?.aborted) return reject(signal.reason);
      const entry: Job = {
        job,
        signal,
        onProgress,
        resolve,
        reject,
        onAbort: () => {
          const index = queue.indexOf(entry);
          if (index >= 0) queue.splice(index, 1);
          for (const slot of slots) {
            if (slot.job !== entry) continue;
            slot.job = undefined;
            retire(slot); // stops the trace; the next job starts a new worker
          }
          reject(signal?.reason ?? new TracerAbortedError());
          pump();
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      queue.push(entry);
      pump();
    });

  return {
    run,
    close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('this tracer is closed'));
      for (const slot of [...slots]) {
        const job = slot.job;
        retire(slot);
        if (job && finish(slot, job)) job.reject(new Error('this tracer is closed'));
      }
    },
  };
}
