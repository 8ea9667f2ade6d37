/**
 * The playground's batch: many files traced one after another in an export worker with the
 * current options (output.file_format among them), packed into one zip. Pure logic (no React):
 * in — the files' names and bytes, the API fields, an exporter, optionally an AbortSignal; out —
 * the zip bytes, what failed, whether it was cancelled and how many files were never traced, with
 * progress reported after each file. The zip is deterministic (fixed dates, input order), entries
 * are named after their inputs with the extension of the format the exporter wrote (duplicates
 * get -2, -3, …), and failures are listed in errors.txt inside it as well.
 *
 * Cancelling (the signal aborts): no further file is started, the file in flight is given up at
 * once (its answer, if it still comes, is dropped), and the zip holds what was finished before.
 */

import { zipSync } from 'fflate';

import type { ServiceExporter } from './service-flow.js';
import { toJobError } from './tracing.js';

export interface BatchFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export interface BatchFailure {
  readonly name: string;
  readonly code: number;
  readonly message: string;
}

export interface BatchOutcome {
  readonly zip: Uint8Array;
  /** Entry names in the zip, in input order (errors.txt excluded). */
  readonly entries: readonly string[];
  readonly failed: readonly BatchFailure[];
  /** The signal aborted before every file was traced. */
  readonly cancelled: boolean;
  /** Files neither traced nor failed (cancelled before or while they were traced). */
  readonly untraced: number;
}

/** Image file names the batch takes from a dropped folder or a multiple selection. */
export const BATCH_IMAGE_NAME = /\.(png|jpe?g|webp|gif|bmp|tiff?)$/i;

/** Zip entries carry this date (not the clock), so the same inputs give the same zip. */
const ZIP_DATE = new Date(Date.UTC(2000, 0, 1));

export async function traceBatch(
  files: readonly BatchFile[],
  fields: readonly (readonly [string, string])[],
  exporter: Pick<ServiceExporter, 'exportFile'>,
  onProgress: (done: number, total: number) => void = () => undefined,
  signal?: AbortSignal,
): Promise<BatchOutcome> {
  const zipped: Record<string, [Uint8Array, { mtime: Date }]> = {};
  const entries: string[] = [];
  const failed: BatchFailure[] = [];
  const used = new Set<string>();
  const fieldList = fields.map(([k, v]) => [k, v] as [string, string]);
  let finished = 0;
  for (let i = 0; i < files.length && !signal?.aborted; i++) {
    const file = files[i]!;
    try {
      // exportFile transfers (detaches) what it is given: a copy keeps the caller's bytes.
      const out = await unlessAborted(exporter.exportFile(file.bytes.slice(), fieldList), signal);
      if (out === ABORTED) break;
      const name = uniqueName(`${stem(file.name)}.${out.extension}`, used);
      zipped[name] = [out.body, { mtime: ZIP_DATE }];
      entries.push(name);
    } catch (err) {
      const { code, message } = toJobError(err);
      failed.push({ name: file.name, code, message });
    }
    finished = i + 1;
    onProgress(finished, files.length);
  }
  if (failed.length > 0) {
    const text = failed.map((f) => `${f.name}: error ${f.code}: ${f.message}`).join('\n') + '\n';
    zipped[uniqueName('errors.txt', used)] = [new TextEncoder().encode(text), { mtime: ZIP_DATE }];
  }
  const untraced = files.length - finished;
  return { zip: zipSync(zipped, { level: 6 }), entries, failed, cancelled: untraced > 0, untraced };
}

const ABORTED: unique symbol = Symbol('aborted');

/**
 * `work`'s value, or ABORTED as soon as `signal` aborts: a cancelled batch must not wait for the
 * image in flight (a large one takes seconds), whatever the exporter does with it meanwhile.
 */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (!signal) return work;
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const onAbort = (): void => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // A rejection caused by the cancel itself (the exporter stopped) is not a failure.
        if (signal.aborted) resolve(ABORTED);
        else reject(err);
      },
    );
  });
}

function stem(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  return base.replace(/\.[^.]*$/, '') || 'traced';
}

function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  for (let k = 2; used.has(candidate); k++) candidate = dot > 0 ? `${name.slice(0, dot)}-${k}${name.slice(dot)}` : `${name}-${k}`;
  used.add(candidate);
  return candidate;
}
