/**
 * Engine job pool on Node worker threads.
 * In: a thread count and the URL of the bundled thread entry (job-thread.ts → job-thread.mjs,
 * next to the CLI bundle). Out: a JobPool whose threads keep the process alive only while a run
 * waits on them. Typed arrays of a job move to shared memory once per array (not once per
 * thread), so every thread reads the same pixels without a copy of its own.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { EngineJob } from '../engine/index.js';
import { createJobPool, type JobPool, type JobPort, type PoolAnswer } from './job-pool.js';

/**
 * Threads a trace uses by default: in line below 4 cores, else every core up to 4 (beyond that the
 * serial stages dominate). On 2 vCPUs we measured ×1.05–1.10 for 2 threads (two threads share the
 * memory bandwidth the per-pixel stages need) at ~60 % more peak memory, so 2 cores stay in line.
 */
export function defaultEngineThreads(cores = availableParallelism()): number {
  return cores < MIN_CORES_FOR_THREADS ? 1 : Math.min(4, cores);
}

export const MIN_CORES_FOR_THREADS = 4;

export function createNodeJobPool(threads: number, threadUrl: URL, minPixels?: number): JobPool {
  const spawn = (): JobPort => {
    const worker = new Worker(threadUrl);
    return {
      postMessage: (message) => worker.postMessage(message),
      listen(onMessage, onFailure) {
        worker.on('message', (answer: PoolAnswer) => onMessage(answer));
        worker.on('error', (error) => onFailure(error));
        worker.on('exit', (code) => onFailure(new Error(`exited with code ${code}`)));
        // After the 'message' listener, which refs the thread again: a thread warmed for a run
        // that never came (the image was traced in line) must not keep the process alive.
        worker.unref();
      },
      terminate: () => void worker.terminate(),
      hold: (waiting) => (waiting ? worker.ref() : worker.unref()),
    };
  };
  const shared = new WeakMap<object, object>();
  return createJobPool(spawn, threads, { ...(minPixels !== undefined ? { minPixels } : {}), prepareJob: (job) => inSharedMemory(job, shared) as EngineJob });
}

type TypedArray = Uint8Array | Uint8ClampedArray | Int32Array | Float64Array;

/**
 * A copy of `value` whose typed arrays live in SharedArrayBuffers (plain objects walked; arrays
 * of objects kept as they are). `cache` maps each original array to its shared twin, so the same
 * pixels are copied once for the whole trace.
 */
function inSharedMemory(value: unknown, cache: WeakMap<object, object>): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (ArrayBuffer.isView(value)) {
    const array = value as TypedArray;
    if (array.buffer instanceof SharedArrayBuffer) return array;
    const known = cache.get(array);
    if (known) return known;
    const Ctor = array.constructor as new (buffer: SharedArrayBuffer) => TypedArray;
    const twin = new Ctor(new SharedArrayBuffer(array.byteLength));
    twin.set(array as never);
    cache.set(array, twin);
    return twin;
  }
  if (Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = inSharedMemory(v, cache);
  return out;
}
