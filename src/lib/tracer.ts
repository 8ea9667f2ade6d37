/**
 * The platform-neutral half of `vectorize`: input normalisation, option validation on the calling
 * thread (a bad option fails before any byte is posted), the TraceJob the threads run, and the
 * result. In: an image (bytes, Blob or RGBA pixels) + TraceOptions, and a TraceRunner (Node:
 * worker_threads via src/cli/trace-pool.ts; browser: Web Workers via src/worker/library-pool.ts;
 * tests and `tracelab/engine`: this thread). Out: the file's bytes (and text, for SVG/EPS/DXF), its
 * MIME type and the stats.
 * The job is the service's TraceJob, so the bytes are those of the CLI and `tracelab serve`.
 */
import { arrayBufferBytes } from '../decode/bytes.js';
import { TracelabError, tracerClosedError, unreadableImageError } from '../engine/errors.js';
import { planVectorize, type PixelInput, type TraceSummary } from '../api/pipeline.js';
import type { TraceJob, TraceRunner, TraceSource } from '../api/service-trace.js';
import { callSettings, optionFields, type TraceOptions } from './options.js';

/** Decoded RGBA pixels (e.g. an `ImageData`): 4 bytes per pixel, rows top to bottom. */
export interface Pixels {
  readonly data: Uint8Array | Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
  /** Pixels per inch, when known (the natural page size of PDF/EPS). */
  readonly dpi?: number;
}

/**
 * An image: the bytes of a PNG, JPEG, WebP, GIF, BMP or TIFF file (Uint8Array, Node Buffer,
 * ArrayBuffer, any ArrayBuffer view, Blob / File), or decoded pixels.
 */
export type ImageInput = Uint8Array | ArrayBuffer | ArrayBufferView | Blob | Pixels;

/**
 * An image file to read — Node only (`tracelab` and `tracelab/engine` in Node): a path, or a
 * `file:` URL. In a browser a string or URL input is refused (1006): pass the bytes.
 */
export type FilePath = string | URL;

/** Reads a FilePath input (Node: src/cli/read-input.ts); browsers have none. */
export type PathReader = (file: FilePath) => Promise<Uint8Array>;

/** Stats of a result, as the playground shows them. */
export type TraceStats = TraceSummary;

export interface VectorizeResult {
  /**
   * The file (SVG, PDF, EPS, DXF or PNG), over an ArrayBuffer of its own kind (never a
   * SharedArrayBuffer), so `new Blob([data])` type-checks under the DOM lib (TypeScript ≥ 5.7).
   */
  readonly data: Uint8Array<ArrayBuffer>;
  /** e.g. `image/svg+xml`, `application/pdf`. */
  readonly mimeType: string;
  /** File extension without the dot, e.g. `svg`. */
  readonly extension: string;
  /**
   * The file as text, for the text formats (SVG, EPS, DXF): the same characters as `data`
   * (UTF-8). Absent for PDF and PNG.
   */
  readonly text?: string;
  readonly stats: TraceStats;
}

/** The formats written as text (their extension is the `output.file_format` value). */
const TEXT_EXTENSIONS: ReadonlySet<string> = new Set(['svg', 'eps', 'dxf']);

/**
 * A VectorizeResult; `text` is the writer's own string when the caller has it, else `data`
 * decoded once (text formats only).
 */
export function toResult(bytes: Uint8Array, mimeType: string, extension: string, stats: TraceStats, text?: string): VectorizeResult {
  const data = arrayBufferBytes(bytes);
  if (!TEXT_EXTENSIONS.has(extension)) return { data, mimeType, extension, stats };
  return { data, mimeType, extension, text: text ?? new TextDecoder().decode(data), stats };
}

/** A pool of trace threads. */
export interface Tracer {
  /**
   * Traces `input` (in Node also a file path or `file:` URL) on one of the pool's threads; calls
   * wait in FIFO order while all are busy.
   */
  vectorize(input: ImageInput | FilePath, options?: TraceOptions): Promise<VectorizeResult>;
  /** Stops the threads; calls still waiting or running reject. */
  close(): Promise<void>;
  /** Number of threads. */
  readonly threads: number;
}

function isPixels(input: object): input is Pixels {
  const p = input as Partial<Pixels>;
  return typeof p.width === 'number' && typeof p.height === 'number' && (p.data instanceof Uint8Array || p.data instanceof Uint8ClampedArray);
}

/**
 * The input as a job source (bytes are never the caller's own buffer: threads may take them).
 * A file path is read with `readPath` (Node); without one it is refused.
 */
export async function toSource(input: ImageInput | FilePath, fields: [string, string][], readPath?: PathReader): Promise<TraceSource> {
  if (typeof input === 'string' || (typeof URL !== 'undefined' && input instanceof URL)) {
    if (readPath) return { kind: 'image', bytes: await readPath(input), fields };
    const shown = JSON.stringify(String(input).slice(0, 200));
    throw unreadableImageError(
      `a file path or URL (${shown}) is read only in Node; in a browser pass the image itself: a File or Blob (for a URL: await (await fetch(url)).blob()), a Uint8Array or an ArrayBuffer`,
    );
  }
  if (input instanceof Uint8Array) return { kind: 'image', bytes: input.slice(), fields };
  if (input instanceof ArrayBuffer) return { kind: 'image', bytes: new Uint8Array(input.slice(0)), fields };
  if (ArrayBuffer.isView(input)) return { kind: 'image', bytes: new Uint8Array(input.buffer, input.byteOffset, input.byteLength).slice(), fields };
  if (typeof Blob !== 'undefined' && input instanceof Blob) return { kind: 'image', bytes: new Uint8Array(await input.arrayBuffer()), fields };
  if (input !== null && typeof input === 'object' && isPixels(input)) {
    const pixels: PixelInput = {
      width: input.width,
      height: input.height,
      data: new Uint8Array(input.data.buffer, input.data.byteOffset, input.data.byteLength).slice(),
      ...(input.dpi !== undefined ? { dpi: input.dpi } : {}),
    };
    return { kind: 'pixels', pixels, fields };
  }
  throw unreadableImageError('the input must be image file bytes (Uint8Array, Buffer, ArrayBuffer, Blob), pixels { data, width, height } or, in Node, a file path');
}

/**
 * One vectorize call on `run`. Throws TracelabError (1006, 1013, 1019, …), the signal's reason or,
 * for a file that cannot be read, the Error of `readPath`.
 */
export async function vectorizeWith(run: TraceRunner, input: ImageInput | FilePath, options?: TraceOptions, readPath?: PathReader): Promise<VectorizeResult> {
  const { signal, onProgress } = callSettings(options); // 1019 for null options, a signal that is not an AbortSignal, …
  signal?.throwIfAborted();
  const fields = optionFields(options);
  planVectorize(fields); // every option check (1019) before the input is read
  const source = await toSource(input, fields, readPath);
  signal?.throwIfAborted();
  const job: TraceJob = { source, outputFields: fields, preview: false, watermark: 'none', keepTrace: false, summary: true };
  const out = await run(job, signal, onProgress);
  if (out.summary === undefined) throw new Error('the trace thread returned no stats');
  return toResult(out.body, out.contentType, out.extension, out.summary);
}

/**
 * A Tracer over a pool made on first use (so an unused default tracer starts no thread).
 * `makePool` gets the thread count; `close` stops it. `readPath` reads file path inputs (Node).
 */
export function lazyTracer(
  threads: number,
  makePool: (threads: number) => { run: TraceRunner; close(): Promise<void> | void },
  readPath?: PathReader,
): Tracer {
  if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer; received ${threads}`);
  let pool: ReturnType<typeof makePool> | undefined;
  let closed = false;
  return {
    threads,
    vectorize(input, options) {
      if (closed) return Promise.reject(tracerClosedError());
      const run: TraceRunner = (job, signal, onProgress) => {
        if (closed) throw tracerClosedError();
        return (pool ??= makePool(threads)).run(job, signal, onProgress);
      };
      // A call that close() cut short (queued or running) fails with the same coded error; its
      // own abort and API errors stay as they are.
      return vectorizeWith(run, input, options, readPath).catch((e: unknown) => {
        const aborted = options !== null && typeof options === 'object' && options.signal instanceof AbortSignal && options.signal.aborted;
        throw closed && !aborted && !(e instanceof TracelabError) ? tracerClosedError(e) : e;
      });
    },
    async close() {
      closed = true;
      await pool?.close();
    },
  };
}
