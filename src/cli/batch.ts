/**
 * `tracelab vectorize FILE... | DIR --out-dir OUT`: many inputs in one process, traced on worker
 * threads (the same trace pool `serve` uses, `--jobs` of them, default every core), each output
 * written atomically next to its siblings under its input's name with the format's extension.
 *
 * In: the input paths (files; a directory stands for the image files directly in it), the API
 * fields, the number of jobs. Out: one file per traced input, progress on stderr (a bar rewritten
 * in place on a terminal, one line per image otherwise, nothing with --quiet) and a summary; the
 * result lists what failed with the API error code and message. A bad file never stops the others.
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
  /** API error code (1006 unreadable image, 1013 too many pixels, …) or -1. */
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

/** Expands directories (their image files, sorted) and keeps files as given, in order. */
export async function expandInputs(inputs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const input of inputs) {
    let info;
    try {
      info = await stat(input);
    } catch {
      out.push(input); // reported as that input's failure, not the batch's
      continue;
    }
    if (!info.isDirectory()) {
      out.push(input);
      continue;
    }
    const names = (await readdir(input)).filter((n) => IMAGE_EXTENSIONS.has(extname(n).toLowerCase())).sort();
    for (const name of names) out.push(join(input, name));
  }
  return out;
}

/**
 * The output file of each input: its name with the format's extension. Inputs that would share an
 * output (a.png and a.jpg) keep their whole name (a.png.svg, a.jpg.svg); any that still collide
 * get -2, -3, … in input order. Deterministic for a given input list.
 */
export function outputNames(inputs: readonly string[], outDir: string, extension: string): { items: BatchItem[]; renamed: BatchItem[] } {
  const stem = (p: string): string => basename(p, extname(p));
  const count = new Map<string, number>();
  for (const input of inputs) count.set(stem(input), (count.get(stem(input)) ?? 0) + 1);
  const used = new Set<string>();
  const items: BatchItem[] = [];
  const renamed: BatchItem[] = [];
  for (const input of inputs) {
    const plain = stem(input) + extension;
    let name = count.get(stem(input))! > 1 ? basename(input) + extension : plain;
    for (let k = 2; used.has(name); k++) name = `${basename(input)}-${k}${extension}`;
    used.add(name);
    const item = { input, output: join(outDir, name) };
    items.push(item);
    if (name !== plain) renamed.push(item);
  }
  return { items, renamed };
}

export async function runBatch(options: BatchOptions): Promise<BatchResult> {
  const started = Date.now();
  const plan = planVectorize(options.fields); // bad parameters fail before anything is read
  const inputs = await expandInputs(options.inputs);
  const extension = EXTENSION[plan.outputOptions.fileFormat] ?? '.svg';
  const { items, renamed } = outputNames(inputs, options.outDir, extension);
  await mkdir(options.outDir, { recursive: true });
  const remote = options.remote;
  const jobs = Math.max(1, Math.min(options.jobs ?? (remote ? 5 : availableParallelism()), Math.max(1, items.length)));
  if (!remote && jobs >= availableParallelism()) compileOnWorkerThreads();
  const pool = remote ? undefined : createTracePool({ entry: options.traceThread, size: jobs, heapMb: DEFAULT_THREAD_MEMORY_MB });
  const progress = progressReporter(items.length, options);
  const done: BatchItem[] = [];
  const failed: BatchFailure[] = [];
  let next = 0;
  const fields = options.fields.map(([k, v]) => [k, v] as [string, string]);
  const worker = async (): Promise<void> => {
    const client = remote?.client();
    while (next < items.length) {
      const item = items[next++]!;
      const t0 = Date.now();
      try {
        const bytes = await readInput(item.input);
        const body = client
          ? (await client.vectorize({ image: bytes, filename: basename(item.input) }, fields)).body
          : (await pool!.run({ source: { kind: 'image', bytes, fields }, outputFields: fields, preview: false, watermark: 'none', keepTrace: false })).body;
        // Never through a link someone left in the folder: the link is replaced, its target untouched.
        await writeFileAtomically(item.output, body, undefined, { followSymlink: false });
        done.push(item);
        progress.finished(item, Date.now() - t0);
      } catch (error) {
        const failure = toFailure(item.input, error);
        failed.push(failure);
        progress.failed(failure);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: jobs }, worker));
  } finally {
    await pool?.close();
  }
  progress.end();
  const order = new Map(items.map((item, i) => [item.input, i]));
  done.sort((a, b) => order.get(a.input)! - order.get(b.input)!);
  failed.sort((a, b) => order.get(a.input)! - order.get(b.input)!);
  return { done, failed, renamed, seconds: (Date.now() - started) / 1000 };
}

/**
 * With a trace worker on every core, V8's background compiler threads can only take time from the
 * workers (measured on the 27 corpus images, 2 cores, 2 jobs: 0.79× the wall time without them,
 * median of 5 paired runs). V8 reads these flags when an isolate starts, so they apply to the
 * workers started after this call; this thread keeps its own compiler. Output is unchanged.
 */
function compileOnWorkerThreads(): void {
  setFlagsFromString('--no-concurrent-recompilation');
  setFlagsFromString('--no-concurrent-osr');
  setFlagsFromString('--no-concurrent-sparkplug');
}

async function readInput(path: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (err as Error).message);
  }
}

function toFailure(input: string, error: unknown): BatchFailure {
  if (error instanceof TracelabError || error instanceof ApiClientError) return { input, code: error.code, message: error.message };
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

/** The summary lines printed after a batch (also with --quiet). */
export function summaryLines(result: BatchResult): string[] {
  const total = result.done.length + result.failed.length;
  const rate = result.seconds > 0 ? result.done.length / result.seconds : 0;
  const lines = [`tracelab: ${result.done.length} of ${total} traced, ${result.failed.length} failed in ${result.seconds.toFixed(1)} s (${rate.toFixed(1)} images/s)`];
  for (const r of result.renamed) lines.push(`tracelab: note: ${printable(r.input)} -> ${printable(r.output)} (another input has the same name)`);
  for (const f of result.failed) lines.push(`tracelab: failed: ${printable(f.input)}: error ${f.code}: ${printable(f.message.replace(/\s*\n\s*/g, ' '))}`);
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
      write(`tracelab: [${count}/${total}] ${printable(failure.input)}: error ${failure.code}: ${printable(failure.message.replace(/\s*\n\s*/g, ' '))}\n`);
    },
    end() {},
  };
}
