/**
 * `tracelab` in a browser: `vectorize(input, options)` and `createTracer({ threads })`.
 * In: image bytes (Uint8Array, ArrayBuffer, Blob / File) or pixels (ImageData) + API options.
 * Out: the file, its MIME type and stats. Traces run in module Web Workers (worker.js next to
 * this file, src/worker/library.worker.ts), never on the page's thread; bundlers (Vite, webpack 5)
 * see `new Worker(new URL('./worker.js', import.meta.url))` and emit the worker and its chunks.
 */
import { createWorkerPool } from '../worker/library-pool.js';
import { lazyTracer, type FilePath, type ImageInput, type Tracer, type VectorizeResult } from './tracer.js';
import type { TraceOptions } from './options.js';

export type { FilePath, ImageInput, Pixels, Tracer, TraceStats, VectorizeResult } from './tracer.js';
export type { CallOptions, DottedOptions, LibraryOptionName, NestedOptions, ParameterOptions, Progress, TraceOptions } from './options.js';
export { TracelabError } from '../engine/errors.js';

export interface TracerOptions {
  /** Worker threads (default: reported cores − 1, between 1 and 4). */
  readonly threads?: number;
  /** Node only (each thread's heap budget); ignored in browsers. */
  readonly heapMb?: number;
  /** Node only (per-trace time limit); ignored in browsers — abort with a signal instead. */
  readonly timeoutMs?: number;
}

/** Default thread count: one core stays free for the page, at most 4. */
export function defaultThreads(): number {
  const cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 1 : 1;
  return Math.max(1, Math.min(4, cores - 1));
}

/** A pool of `threads` trace workers, started on its first call. Call `close()` when done with it. */
export function createTracer(options: TracerOptions = {}): Tracer {
  return lazyTracer(options.threads ?? defaultThreads(), (size) =>
    createWorkerPool(size, () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'tracelab' })),
  );
}

let shared: Tracer | undefined;

/**
 * Traces `input` on the shared default tracer (created on first use). Rejects with a
 * TracelabError (`code` 1006 unreadable image — also for a file path or URL string, which only
 * Node reads —, 1013 too many pixels, 1019 bad option, …) or, when `options.signal` aborts, with
 * its reason.
 */
export function vectorize(input: ImageInput | FilePath, options?: TraceOptions): Promise<VectorizeResult> {
  return (shared ??= createTracer()).vectorize(input, options);
}
