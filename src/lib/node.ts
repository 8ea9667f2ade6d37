/**
 * `tracelab` in Node: `vectorize(input, options)` and `createTracer({ threads })`.
 * In: image bytes / pixels + API options. Out: the file, its MIME type and stats. Traces run in
 * worker_threads (the pool of `tracelab serve`, src/cli/trace-pool.ts, running the bundled
 * trace-thread.js next to this file), never on the calling thread. Idle workers do not keep the
 * process alive, so a script that calls `vectorize` exits when it is done without `close()`.
 */
import { availableParallelism } from 'node:os';
import { DEFAULT_THREAD_MEMORY_MB } from '../cli/config.js';
import { readNamedFile } from '../cli/read-input.js';
import { createTracePool } from '../cli/trace-pool.js';
import { lazyTracer, type FilePath, type ImageInput, type Tracer, type VectorizeResult } from './tracer.js';
import type { TraceOptions } from './options.js';

export type { FilePath, ImageInput, Pixels, Tracer, TraceStats, VectorizeResult } from './tracer.js';
export type { FileReadError } from '../cli/read-input.js';
export type { CallOptions, DottedOptions, LibraryOptionName, NestedOptions, ParameterOptions, Progress, TraceOptions } from './options.js';
export { TracelabError } from '../engine/errors.js';

export interface TracerOptions {
  /** Worker threads (default: cores − 1, between 1 and 4). */
  readonly threads?: number;
  /** Each thread's V8 heap budget in MB (default 1024); a trace that needs more fails alone (500). */
  readonly heapMb?: number;
  /** A trace running longer is stopped and rejects with 503 / −10 (default: no limit). */
  readonly timeoutMs?: number;
}

/** Default thread count: one core stays free for the caller, at most 4. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** A pool of `threads` trace threads, started on its first call. Call `close()` when done with it. */
export function createTracer(options: TracerOptions = {}): Tracer {
  const entry = new URL('./trace-thread.js', import.meta.url);
  return lazyTracer(
    options.threads ?? defaultThreads(),
    (size) =>
      createTracePool({
        entry,
        size,
        heapMb: options.heapMb ?? DEFAULT_THREAD_MEMORY_MB,
        jobTimeoutMs: options.timeoutMs ?? 0,
        holdProcess: 'busy',
      }),
    readImageFile,
  );
}

/** A path / file: URL input, read on the calling thread; a missing file rejects with `cannot read image file '…': no such file` (code ENOENT). */
export function readImageFile(file: FilePath): Promise<Uint8Array> {
  return readNamedFile(file, 'image file');
}

let shared: Tracer | undefined;

/**
 * Traces `input` — image bytes, pixels, or a file path / `file:` URL (read asynchronously) — on
 * the shared default tracer (created on first use; its idle threads never keep the process
 * alive). Rejects with a TracelabError (`code` 1006 unreadable image, 1013 too many pixels, 1019
 * bad option, …), an Error naming a file that cannot be read (`code` 'ENOENT', …) or, when
 * `options.signal` aborts, with its reason.
 */
export function vectorize(input: ImageInput | FilePath, options?: TraceOptions): Promise<VectorizeResult> {
  return (shared ??= createTracer()).vectorize(input, options);
}
