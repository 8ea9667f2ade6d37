/**
 * A small pool of Node worker threads that runs the service's TraceJobs (src/api/service-trace.ts)
 * off the server's event loop. In: jobs through `run` (the service's `runTrace`). Out: each job's
 * result, or an error in the API's terms.
 *
 * - `size` workers are started at once from the bundled entry `entry` (dist-cli/trace-thread.mjs);
 *   a job waits in FIFO order while all are busy (the HTTP queue limit in front, TRACELAB_MAX_QUEUE,
 *   bounds how many can wait). A queued job whose client left is dropped; a running one is stopped
 *   (its worker terminated and replaced), so a trace nobody waits for does not hold a thread.
 * - Every worker runs under V8 `resourceLimits`: its heap (old generation) is capped at `heapMb`.
 *   A trace that needs more kills only its own worker.
 * - A worker that dies with a job (uncaught exception, `process.exit`, out of memory, `terminate()`)
 *   fails that job with 500 / −1 (reference §4.1: 500 is the unexpected internal error; the
 *   reference has no code for it, −1 is the service's generic code) and is replaced at once, so
 *   the next job runs normally. A job running longer than `jobTimeoutMs` has its worker terminated
 *   and answers 503 / −10 "internal timeout; try again" (§4.2).
 * - Jobs go only to workers that have loaded (reported `ready`); the time limit counts from there.
 *   A worker that dies before it finished loading is not restarted in a loop: the waiting jobs
 *   fail (500 / −1) when no other worker is up, and the next job starts a new one.
 * - `close()` fails queued jobs and terminates every worker.
 * - With `holdProcess: 'busy'` (the library's pools) workers keep the Node process alive only while
 *   a job runs or waits; an idle pool never holds a script open. `tracelab serve` keeps the default.
 * - A `run` with `onProgress` hears the job's stages (ProgressMessages from the worker).
 */

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import type { JobProgress, TraceJob, TraceJobResult, TraceRunner } from '../api/service-trace.js';
import { deserializeError, isWorkerMessage, type JobMessage } from './trace-protocol.js';

/** Default limit of one job (decode + trace + write), in ms. */
export const DEFAULT_JOB_TIMEOUT_MS = 300_000;

export interface TracePoolOptions {
  /** The worker entry module (the bundled dist-cli/trace-thread.mjs). */
  readonly entry: URL;
  /** Worker threads (≥ 1). */
  readonly size: number;
  /** Each worker's V8 heap budget in MB (`resourceLimits.maxOldGenerationSizeMb`). */
  readonly heapMb: number;
  /** A job running longer is stopped: its worker is terminated, the job answers 503 / −10. */
  readonly jobTimeoutMs?: number;
  /** One line (no newline) per worker that died or was replaced, for the server's log. */
  readonly log?: (line: string) => void;
  /** 'always' (default): workers keep the process alive; 'busy': only while jobs run or wait. */
  readonly holdProcess?: 'always' | 'busy';
}

export interface TracePoolStats {
  /** Workers alive now (loading, idle or busy). */
  readonly workers: number;
  readonly busy: number;
  readonly queued: number;
  /** Workers started since the pool was created (replacements included). */
  readonly started: number;
  /** Workers that died with or without a job (crash, out of memory, timeout). */
  readonly died: number;
  readonly completed: number;
  /** Running jobs stopped because their client disconnected (their workers were replaced). */
  readonly cancelled: number;
  /** Milliseconds from the last worker death until its replacement had loaded (undefined before any). */
  readonly lastRecoveryMs: number | undefined;
}

export interface TracePool {
  readonly run: TraceRunner;
  readonly size: number;
  readonly heapMb: number;
  stats(): TracePoolStats;
  /** Resolves once every worker started so far has loaded; rejects when one died before (start-up, tests). */
  ready(): Promise<void>;
  /** Fails queued jobs, terminates the workers. */
  close(): Promise<void>;
}

/** 500 / −1: the worker running the job died. */
export function workerDiedError(detail: string): TracelabError {
  return new TracelabError(
    ERROR_CODES.generic,
    500,
    `Internal error: the trace worker stopped while processing this image (${detail}); a new worker was started. Retry; if the same image fails again, it cannot be processed by this server.`,
  );
}

/** 500 / −1: the worker running the job went over its heap budget. */
export function workerOutOfMemoryError(heapMb: number): TracelabError {
  return new TracelabError(
    ERROR_CODES.generic,
    500,
    `Internal error: tracing this image needed more than the trace worker's memory budget (${heapMb} MB, TRACELAB_THREAD_MEMORY_MB) and was stopped; a new worker was started. Lower input.max_pixels or processing.max_colors, or raise the budget.`,
  );
}

/** 503 / −10: the job ran out of time (reference §4.2 "internal timeout; try again"). */
export function traceTimeoutError(ms: number): TracelabError {
  return new TracelabError(ERROR_CODES.internalTimeout, 503, `Internal timeout: the trace took longer than ${Math.round(ms / 1000)} s and was stopped; try again.`);
}

interface Pending {
  readonly id: number;
  readonly job: TraceJob;
  readonly resolve: (result: TraceJobResult) => void;
  readonly reject: (error: unknown) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
  readonly onProgress: ((progress: JobProgress) => void) | undefined;
}

interface Slot {
  readonly number: number;
  readonly worker: Worker;
  /** Settles when the worker has loaded (or rejects when it died before). */
  readonly loaded: Promise<void>;
  readonly settleLoaded: { resolve(): void; reject(error: Error): void };
  isLoaded: boolean;
  job: Pending | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  timedOut: boolean;
  /** Its job's client left while the job ran: the worker was terminated on purpose. */
  cancelled: boolean;
  error: unknown;
  /** When the worker this one replaces died (recovery time). */
  readonly replacing: number | undefined;
}

function errorCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}

export function createTracePool(options: TracePoolOptions): TracePool {
  const { entry, size, heapMb } = options;
  const jobTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const holdAlways = (options.holdProcess ?? 'always') === 'always';
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`trace pool size must be a positive integer; received ${size}`);
  if (!(heapMb >= 16)) throw new RangeError(`trace worker heap budget must be at least 16 MB; received ${heapMb}`);
  if (entry.protocol === 'file:' && !existsSync(fileURLToPath(entry))) {
    throw new Error(`the trace worker bundle ${fileURLToPath(entry)} is missing; run \`npm run build:cli\``);
  }
  const log = (line: string): void => {
    try {
      options.log?.(line);
    } catch {
      // a failing logger must not break the pool
    }
  };

  const slots = new Set<Slot>();
  const queue: Pending[] = [];
  let nextJobId = 1;
  let nextWorker = 1;
  let closed = false;
  /** The last worker died before it had loaded: start new ones only for waiting jobs. */
  let startupFailing = false;
  let started = 0;
  let died = 0;
  let completed = 0;
  let cancelled = 0;
  let lastRecoveryMs: number | undefined;

  function spawn(replacing?: number): void {
    let settleLoaded!: Slot['settleLoaded'];
    const loaded = new Promise<void>((resolve, reject) => (settleLoaded = { resolve, reject }));
    loaded.catch(() => undefined); // reported through ready() and the log, not as unhandled
    const worker = new Worker(entry, {
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
      // The parent's flags (test runners' loaders, inspector) are not the worker's business.
      execArgv: [],
      name: `tracelab-trace-${nextWorker}`,
    });
    const slot: Slot = {
      number: nextWorker++,
      worker,
      loaded,
      settleLoaded,
      isLoaded: false,
      job: undefined,
      timer: undefined,
      timedOut: false,
      cancelled: false,
      error: undefined,
      replacing,
    };
    started++;
    slots.add(slot);
    worker.on('message', (message: unknown) => onMessage(slot, message));
    worker.on('error', (error) => {
      slot.error = error;
    });
    worker.on('exit', (code) => onExit(slot, code));
    // After the 'message' listener, which refs the worker again (see node-pool.ts).
    if (!holdAlways) worker.unref();
  }

  function onMessage(slot: Slot, message: unknown): void {
    if (!isWorkerMessage(message)) return;
    if (message.type === 'ready') {
      slot.isLoaded = true;
      startupFailing = false;
      slot.settleLoaded.resolve();
      if (slot.replacing !== undefined) {
        lastRecoveryMs = performance.now() - slot.replacing;
        log(`trace worker ${slot.number} ready (replacement, ${Math.round(lastRecoveryMs)} ms)`);
      }
      pump();
      return;
    }
    const pending = slot.job;
    if (pending === undefined || pending.id !== message.id) return;
    if (message.type === 'progress') {
      try {
        pending.onProgress?.(message.progress);
      } catch {
        // a failing progress callback is the caller's problem, not the job's
      }
      return;
    }
    finishJob(slot);
    completed++;
    if (message.ok) pending.resolve(message.result);
    else pending.reject(deserializeError(message.error));
    pump();
  }

  function finishJob(slot: Slot): void {
    if (slot.timer !== undefined) clearTimeout(slot.timer);
    slot.timer = undefined;
    const pending = slot.job;
    slot.job = undefined;
    pending?.signal?.removeEventListener('abort', pending.onAbort);
  }

  function causeOf(slot: Slot, code: number): { error: TracelabError; detail: string } {
    if (slot.timedOut) return { error: traceTimeoutError(jobTimeoutMs), detail: `over the ${jobTimeoutMs} ms time limit, terminated` };
    if (errorCode(slot.error) === 'ERR_WORKER_OUT_OF_MEMORY') {
      return { error: workerOutOfMemoryError(heapMb), detail: `out of memory (heap budget ${heapMb} MB)` };
    }
    if (slot.error !== undefined) {
      const message = slot.error instanceof Error ? slot.error.message : String(slot.error);
      return { error: workerDiedError('uncaught error'), detail: `uncaught error: ${message}` };
    }
    return { error: workerDiedError(`exit code ${code}`), detail: `exited with code ${code}` };
  }

  function onExit(slot: Slot, code: number): void {
    slots.delete(slot);
    const pending = slot.job;
    finishJob(slot);
    if (slot.cancelled && !closed) {
      // Stopped because its client left (that job was answered already): just replace it. A job
      // it held would have been given to it by mistake: back to the front of the queue.
      if (pending !== undefined) queue.unshift(pending);
      log(`trace worker ${slot.number} stopped: its client disconnected during the trace; starting a replacement`);
      fill(performance.now());
      pump();
      return;
    }
    if (closed) {
      pending?.reject(new Error('the trace pool was closed'));
      slot.settleLoaded.reject(new Error('the trace pool was closed'));
      return;
    }
    died++;
    const { error, detail } = causeOf(slot, code);
    if (slot.isLoaded) log(`trace worker ${slot.number} stopped${pending ? ' during a job' : ''}: ${detail}; starting a replacement`);
    else log(`trace worker ${slot.number} failed to start: ${detail}`);
    pending?.reject(error);
    if (!slot.isLoaded) {
      startupFailing = true;
      slot.settleLoaded.reject(new Error(`trace worker ${slot.number} failed to start: ${detail}`));
      // No worker can take the waiting jobs: fail them rather than retry the start in a loop.
      if (![...slots].some((s) => s.isLoaded)) {
        for (const waiting of queue.splice(0)) {
          waiting.signal?.removeEventListener('abort', waiting.onAbort);
          waiting.reject(workerDiedError(`a new trace worker failed to start: ${detail}`));
        }
      }
    }
    fill(performance.now());
    pump();
  }

  /**
   * Starts workers up to `size`. While workers fail to load, only one at a time and only for a
   * waiting job, so a broken bundle costs one failed start per request, not a restart loop.
   */
  function fill(replacing?: number): void {
    while (!closed && slots.size < size) {
      if (startupFailing && (queue.length === 0 || slots.size > 0)) return;
      spawn(replacing);
    }
  }

  /**
   * 'busy' pools: every worker holds the process while any job runs or waits (a job waiting for a
   * worker that is still loading must not let the process exit), none when all are idle.
   */
  function updateHold(): void {
    if (holdAlways) return;
    const working = queue.length > 0 || [...slots].some((s) => s.job !== undefined);
    for (const slot of slots) {
      if (working) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  /** Hands waiting jobs to idle workers that have loaded (their job timer starts now). */
  function pump(): void {
    fill();
    try {
      assign();
    } finally {
      updateHold();
    }
  }

  function assign(): void {
    for (const slot of slots) {
      if (queue.length === 0) return;
      // A worker being terminated (its client left) takes no new job: it is about to exit.
      if (slot.job !== undefined || !slot.isLoaded || slot.cancelled) continue;
      const pending = queue.shift()!;
      slot.job = pending;
      slot.timedOut = false;
      // jobTimeoutMs 0 or Infinity: no limit (setTimeout would treat Infinity as 1 ms).
      if (jobTimeoutMs > 0 && Number.isFinite(jobTimeoutMs)) {
        slot.timer = setTimeout(() => {
          slot.timedOut = true;
          void slot.worker.terminate();
        }, jobTimeoutMs);
      }
      const message: JobMessage = { type: 'job', id: pending.id, job: pending.job, ...(pending.onProgress ? { progress: true } : {}) };
      try {
        slot.worker.postMessage(message);
      } catch (error) {
        // not cloneable: this job's failure; the worker is still fine
        finishJob(slot);
        pending.reject(error);
      }
    }
  }

  const run: TraceRunner = (job, signal, onProgress) =>
    new Promise<TraceJobResult>((resolve, reject) => {
      if (closed) {
        reject(new Error('the trace pool is closed'));
        return;
      }
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const pending: Pending = {
        id: nextJobId++,
        job,
        resolve,
        reject,
        signal,
        onProgress,
        onAbort: () => {
          // A waiting job is dropped; a running one stops at once: its worker is terminated (a
          // trace cannot be interrupted from outside otherwise) and replaced, so the CPU goes to
          // the clients still waiting.
          const index = queue.indexOf(pending);
          if (index >= 0) {
            queue.splice(index, 1);
            reject(signal!.reason);
            updateHold();
            return;
          }
          for (const slot of slots) {
            if (slot.job !== pending) continue;
            slot.cancelled = true;
            finishJob(slot);
            cancelled++;
            reject(signal!.reason);
            void slot.worker.terminate();
          }
        },
      };
      signal?.addEventListener('abort', pending.onAbort, { once: true });
      queue.push(pending);
      pump();
    });

  fill();

  return {
    run,
    size,
    heapMb,
    stats() {
      let busy = 0;
      for (const slot of slots) if (slot.job !== undefined) busy++;
      return { workers: slots.size, busy, queued: queue.length, started, died, completed, cancelled, lastRecoveryMs };
    },
    async ready() {
      await Promise.all([...slots].map((slot) => slot.loaded));
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const pending of queue.splice(0)) {
        pending.signal?.removeEventListener('abort', pending.onAbort);
        pending.reject(new Error('the trace pool was closed'));
      }
      await Promise.all([...slots].map((slot) => slot.worker.terminate()));
    },
  };
}
