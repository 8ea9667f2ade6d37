/**
 * `tracelab vectorize FILE... | DIR --out-dir OUT`: many inputs in one process, traced on worker
 * threads (the same trace pool `serve` uses, `--jobs` of them, default every core), each output
 * written atomically next to its siblings under its input's name with the format's extension.
 *
 * In: the input paths (files; a directory stands for the image files directly in it), the API
 * fields, the number of jobs. Out: one file per traced input, progress on stderr (a bar rewritten
 * in place on a terminal, one line per image otherwise, nothing with --quiet) and a summary; the
 * result lists what failed with the API error code and message. A bad file never stops the others.
 *
 * Keeping every thread busy to the end: the threads start loading before the inputs are weighed;
 * with several threads the largest files go first, and each thread has one input read and waiting
 * in the pool's shared queue while its current one is traced, so reads and the atomic writes (an
 * fsync each) happen off the threads' time. Decoding runs in the trace threads. Each output's
 * bytes depend on its input alone, never on the order or the number of threads.
 */
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, extname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { planVectorize } from '../api/pipeline.js';
import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import { writeFileAtomically } from './atomic-write.js';
import { DEFAULT_THREAD_MEMORY_MB } from './config.js';
import { createTracePool } from './trace-pool.js';
import { ApiClientError, type ApiClient } from '../api/client.js';

/** File extensions taken from a directory (the decoders sniff the bytes, not the name). */
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.gif', '.bmp', '.tif', '.tiff']);

/** Output extension per `output.file_format`. */
const EXTENSION: Readonly<Record<string, string>> = { svg: '.svg', pdf: '.pdf', eps: '.eps', dxf: '.dxf', png: '.png' };

export interface BatchOptions {
  readonly inputs: readonly string[];
  readonly outDir: string;
  readonly fields: readonly (readonly [string, string])[];
  /** Worker threads; default every core. */
  readonly jobs?: number;
  readonly quiet?: boolean;
  /** The bundled trace worker entry (dist-cli/trace-thread.mjs). */
  readonly traceThread: URL;
  /**
   * Send every input to an API service instead of tracing here (`--remote`: VECTORIZER_API_URL,
   * e.g. a fleet's haproxy): `jobs` requests in flight (default 5, the reference's starting
   * concurrency, §5.3), each slot with its own client (own 429/503 back-off).
   */
  readonly remote?: { readonly client: () => ApiClient };
  readonly writeStderr: (text: string) => void;
  /** Whether stderr is a terminal (progress bar) or not (one line per image). */
  readonly tty: boolean;
}

export interface BatchItem {
  readonly input: string;
  readonly output: string;
}

export interface BatchFailure {
  readonly input: string;
  /** API error code (1006 unreadable image, 1013 too many pixels, …), -1, or 0 (ERROR_CODES.none) for an input that could not be read. */
  readonly code: number;
  readonly message: string;
}

export interface BatchResult {
  readonly done: readonly BatchItem[];
  readonly failed: readonly BatchFailure[];
  /** Inputs whose output name was changed because another input had the same one. */
  readonly renamed: readonly BatchItem[];
  readonly seconds: number;
}

export interface ExpandedInputs {
  /** The files to trace, in order (a missing path too: it fails as that input, naming it). */
  readonly files: string[];
  /** Folders given that hold no image file. */
  readonly emptyFolders: string[];
}

/** Expands directories (their image files, sorted) and keeps files as given, in order. */
export async function expandInputs(inputs: readonly string[]): Promise<ExpandedInputs> {
  const files: string[] = [];
  const emptyFolders: string[] = [];
  for (const input of inputs) {
    let info;
    try {
      info = await stat(input);
    } catch {
      files.push(input); // reported as that input's failure, not the batch's
      continue;
    }
    if (!info.isDirectory()) {
      files.push(input);
      continue;
    }
    const names = (await readdir(input)).filter((n) => IMAGE_EXTENSIONS.has(extname(n).toLowerCase())).sort();
    if (names.length === 0) emptyFolders.push(input);
    for (const name of names) files.push(join(input, name));
  }
  return { files, emptyFolders };
}

/** The extensions a folder's image files are found by, for messages: `.png, .jpg, …`. */
const IMAGE_EXTENSION_LIST = [...IMAGE_EXTENSIONS].join(', ');

/** Thrown (exit 2, nothing written) when the inputs hold no file at all to trace. */
function nothingToTrace(emptyFolders: readonly string[]): Error {
  const folders = emptyFolders.map((f) => `'${f}'`).join(', ');
  return new Error(`nothing to trace: ${emptyFolders.length === 1 ? 'folder' : 'folders'} ${folders} ${emptyFolders.length === 1 ? 'has' : 'have'} no image files (${IMAGE_EXTENSION_LIST})`);
}

/**
 * The output file of each input: its name with the format's extension. Inputs that would share an
 * output (a.png and a.jpg) keep their whole name (a.png.svg, a.jpg.svg); any that still collide
 * get -2, -3, … in input order. Names are compared without case, as case-insensitive disks (macOS,
 * Windows) do: Logo.PNG and logo.webp become Logo.PNG.svg and logo.webp.svg, never one file
 * written twice. Deterministic for a given input list.
 */
export function outputNames(inputs: readonly string[], outDir: string, extension: string): { items: BatchItem[]; renamed: BatchItem[] } {
  const stem = (p: string): string => basename(p, extname(p));
  const key = (name: string): string => name.toLowerCase();
  const count = new Map<string, number>();
  for (const input of inputs) count.set(key(stem(input)), (count.get(key(stem(input))) ?? 0) + 1);
  const used = new Set<string>();
  const items: BatchItem[] = [];
  const renamed: BatchItem[] = [];
  for (const input of inputs) {
    const plain = stem(input) + extension;
    let name = count.get(key(stem(input)))! > 1 ? basename(input) + extension : plain;
    for (let k = 2; used.has(key(name)); k++) name = `${basename(input)}-${k}${extension}`;
    used.add(key(name));
    const item = { input, output: join(outDir, name) };
    items.push(item);
    if (name !== plain) renamed.push(item);
  }
  return { items, renamed };
}

export async function runBatch(options: BatchOptions): Promise<BatchResult> {
  const started = Date.now();
  const plan = planVectorize(options.fields); // bad parameters fail before anything is read
  const { files: inputs, emptyFolders } = await expandInputs(options.inputs);
  if (inputs.length === 0) throw nothingToTrace(emptyFolders);
  for (const folder of emptyFolders) options.writeStderr(`tracelab: note: folder '${folder}' has no image files (${IMAGE_EXTENSION_LIST})\n`);
  const extension = EXTENSION[plan.outputOptions.fileFormat] ?? '.svg';
  const { items, renamed } = outputNames(inputs, options.outDir, extension);
  await mkdir(options.outDir, { recursive: true });
  const remote = options.remote;
  const jobs = Math.max(1, Math.min(options.jobs ?? (remote ? 5 : availableParallelism()), Math.max(1, items.length)));
  if (!remote && jobs >= availableParallelism()) compileOnWorkerThreads();
  // The threads load their bundle while the inputs are weighed below: warm before the first image.
  const pool = remote ? undefined : createTracePool({ entry: options.traceThread, size: jobs, heapMb: DEFAULT_THREAD_MEMORY_MB });
  const clock = batchClock();
  void pool?.ready().then(() => clock.mark('threadsReady'), () => undefined);
  const progress = progressReporter(items.length, options);
  const done: BatchItem[] = [];
  const failed: BatchFailure[] = [];
  // With several threads: largest inputs first and one input waiting per thread (see below). One
  // thread keeps the input order, and its progress lines stay in that order.
  const overlap = !remote && jobs > 1;
  const queue = overlap ? await largestFirst(items) : items;
  let next = 0;
  const fields = options.fields.map(([k, v]) => [k, v] as [string, string]);
  const feeder = async (): Promise<void> => {
    const client = remote?.client();
    while (next < queue.length) {
      const item = queue[next++]!;
      const t0 = Date.now();
      try {
        const bytes = await clock.time('read', readInput(item.input));
        const body = client
          ? (await client.vectorize({ image: bytes, filename: basename(item.input) }, fields)).body
          : (await clock.time('trace', pool!.run({ source: { kind: 'image', bytes, fields }, outputFields: fields, preview: false, watermark: 'none', keepTrace: false }))).body;
        // Never through a link someone left in the folder: the link is replaced, its target untouched.
        await clock.time('write', writeFileAtomically(item.output, body, undefined, { followSymlink: false }));
        done.push(item);
        progress.finished(item, Date.now() - t0);
      } catch (error) {
        const failure = toFailure(item.input, error);
        failed.push(failure);
        progress.failed(failure);
      }
    }
  };
  // Two feeders per thread: while one writes its result and reads its next input, the other's job
  // already waits in the pool's queue, which hands it to whichever thread frees first.
  const feeders = overlap ? FEEDERS_PER_THREAD * jobs : jobs;
  try {
    await Promise.all(Array.from({ length: feeders }, feeder));
  } finally {
    await pool?.close();
  }
  clock.mark('wall');
  progress.end();
  if (process.env['TRACELAB_TIMINGS'] === '1') options.writeStderr(`tracelab-batch-timings ${JSON.stringify(clock.summary())}\n`);
  const order = new Map(items.map((item, i) => [item.input, i]));
  done.sort((a, b) => order.get(a.input)! - order.get(b.input)!);
  failed.sort((a, b) => order.get(a.input)! - order.get(b.input)!);
  return { done, failed, renamed, seconds: (Date.now() - started) / 1000 };
}

/** Inputs in flight per trace thread: one traced, one read and waiting (see runBatch). */
const FEEDERS_PER_THREAD = 2;

/**
 * The order inputs are handed out: largest file first (a big picture started last would leave the
 * other threads idle at the end), input order among equal sizes. A path that cannot be read
 * counts as empty: it fails at once wherever it sits. Outputs do not depend on the order.
 */
export async function largestFirst(items: readonly BatchItem[]): Promise<BatchItem[]> {
  const sizes = await Promise.all(items.map((item) => stat(item.input).then((info) => info.size, () => 0)));
  const order = items.map((_, i) => i).sort((a, b) => sizes[b]! - sizes[a]! || a - b);
  return order.map((i) => items[i]!);
}

/**
 * TRACELAB_TIMINGS=1: where a batch's time went, as one `tracelab-batch-timings {...}` line on
 * stderr — milliseconds from the start to the threads' being loaded (threadsReadyMs) and to the
 * end (wallMs), and the summed milliseconds of reads, of thread jobs (queue wait included) and of
 * writes.
 */
function batchClock() {
  const started = performance.now();
  const marks: Record<string, number> = {};
  const sums: Record<string, number> = { readMs: 0, traceMs: 0, writeMs: 0 };
  return {
    mark(name: string): void {
      marks[`${name}Ms`] ??= Math.round(performance.now() - started);
    },
    async time<T>(phase: 'read' | 'trace' | 'write', work: Promise<T>): Promise<T> {
      const t0 = performance.now();
      try {
        return await work;
      } finally {
        sums[`${phase}Ms`]! += performance.now() - t0;
      }
    },
    summary(): Record<string, number> {
      return { ...marks, ...Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, Math.round(v)])) };
    },
  };
}

/**
 * With a trace worker on every core, V8's background compiler threads can only take time from the
 * workers (measured on the 27 corpus images, 2 cores, 2 jobs: 0.79× the wall time without them,
 * median of 5 paired runs). V8 reads these flags when an isolate starts, so they apply to the
 * workers started after this call; this thread keeps its own compiler. Output is unchanged.
 *
 * Each thread traces a dozen pictures and compiles most of the engine with TurboFan on its own
 * time (a cold pass: ~38 % of its CPU in the compiler, ~60 % of that compiling a function again),
 * so with every core busy the CPU is the wall time. An interrupt budget 8× V8's default (67584)
 * optimises only what keeps running: the batch of the 27 corpus images took 0.96× the CPU (6 paired
 * runs on a loaded machine, spread 0.94–0.97, wall 0.94×; two earlier sets 0.967 and 0.964); 16×
 * and 32× took more. Not for a one-image process, whose compiler threads run on
 * an idle core: there the same budget cut the CPU (icon 0.72×) but made the main thread, which a
 * quiet machine's wall clock follows, 10–20 % longer. Node 20's V8 only (unmeasured elsewhere;
 * an unknown flag prints an error).
 */
function compileOnWorkerThreads(): void {
  setFlagsFromString('--no-concurrent-recompilation');
  setFlagsFromString('--no-concurrent-osr');
  setFlagsFromString('--no-concurrent-sparkplug');
  if (process.versions.v8.startsWith('11.')) setFlagsFromString(`--interrupt-budget=${BATCH_INTERRUPT_BUDGET}`);
}

/** 8× V8 11's default interrupt budget (bytes of bytecode run before a function is considered for optimisation). */
const BATCH_INTERRUPT_BUDGET = 8 * 67584;

/** An input that could not be read: no API call failed, so it has no API code (ERROR_CODES.none). */
class InputReadError extends Error {}

async function readInput(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file or folder' : code === 'EISDIR' ? 'is a folder' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new InputReadError(reason);
  }
}

function toFailure(input: string, error: unknown): BatchFailure {
  if (error instanceof TracelabError || error instanceof ApiClientError) return { input, code: error.code, message: error.message };
  if (error instanceof InputReadError) return { input, code: ERROR_CODES.none, message: error.message };
  return { input, code: ERROR_CODES.generic, message: error instanceof Error ? error.message : String(error) };
}

/**
 * Text from a file name or an error message as printed on a terminal: control characters (C0, DEL,
 * C1 — an ESC starts a terminal escape sequence that could rewrite the screen or the window title)
 * and bidirectional overrides are shown as `\xNN` / `\u{NNNN}` escapes. Plain names print
 * unchanged.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/** `error CODE: message`, or the message alone for a failure without an API code (an unreadable input), printable. */
function failureText(failure: BatchFailure): string {
  const message = printable(failure.message.replace(/\s*\n\s*/g, ' '));
  return failure.code === ERROR_CODES.none ? message : `error ${failure.code}: ${message}`;
}

/** The summary lines printed after a batch (also with --quiet). */
export function summaryLines(result: BatchResult): string[] {
  const total = result.done.length + result.failed.length;
  const rate = result.seconds > 0 ? result.done.length / result.seconds : 0;
  const lines = [`tracelab: ${result.done.length} of ${total} traced, ${result.failed.length} failed in ${result.seconds.toFixed(1)} s (${rate.toFixed(1)} images/s)`];
  for (const r of result.renamed) lines.push(`tracelab: note: ${printable(r.input)} -> ${printable(r.output)} (another input has the same name)`);
  for (const f of result.failed) lines.push(`tracelab: failed: ${printable(f.input)}: ${failureText(f)}`);
  return lines;
}

interface Progress {
  finished(item: BatchItem, ms: number): void;
  failed(failure: BatchFailure): void;
  end(): void;
}

/**
 * On a terminal: one status line rewritten in place (done/total, images per second, time left).
 * Otherwise one plain line per image, so logs of CI jobs stay readable. Nothing with --quiet.
 */
function progressReporter(total: number, options: BatchOptions): Progress {
  const started = Date.now();
  let count = 0;
  let failures = 0;
  const write = options.writeStderr;
  const bar = (): void => {
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? count / seconds : 0;
    const left = rate > 0 ? Math.ceil((total - count) / rate) : 0;
    const width = 24;
    const filled = Math.round((count / Math.max(1, total)) * width);
    write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${count}/${total}  ${rate.toFixed(1)} img/s  ETA ${left} s${failures ? `  ${failures} failed` : ''}   `);
  };
  if (options.quiet) return { finished() {}, failed() {}, end() {} };
  if (options.tty) {
    bar();
    return {
      finished() {
        count++;
        bar();
      },
      failed() {
        count++;
        failures++;
        bar();
      },
      end() {
        write('\n');
      },
    };
  }
  return {
    finished(item, ms) {
      count++;
      write(`tracelab: [${count}/${total}] ${printable(item.input)} -> ${printable(item.output)} (${ms} ms)\n`);
    },
    failed(failure) {
      count++;
      write(`tracelab: [${count}/${total}] ${printable(failure.input)}: ${failureText(failure)}\n`);
    },
    end() {},
  };
}
