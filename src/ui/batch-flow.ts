/**
 * The playground's batch: many files traced one after another in the export worker with the
 * current options, packed into one zip. Pure logic (no React): in — the files' names and bytes,
 * the API fields, an exporter; out — the zip bytes and what failed, with progress reported after
 * each file. The zip is deterministic (fixed dates, input order), entries are named after their
 * inputs with the format's extension (duplicates get -2, -3, …), and failures are listed in
 * errors.txt inside it as well.
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
): Promise<BatchOutcome> {
  const zipped: Record<string, [Uint8Array, { mtime: Date }]> = {};
  const entries: string[] = [];
  const failed: BatchFailure[] = [];
  const used = new Set<string>();
  const fieldList = fields.map(([k, v]) => [k, v] as [string, string]);
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    try {
      // exportFile transfers (detaches) what it is given: a copy keeps the caller's bytes.
      const out = await exporter.exportFile(file.bytes.slice(), fieldList);
      const name = uniqueName(`${stem(file.name)}.${out.extension}`, used);
      zipped[name] = [out.body, { mtime: ZIP_DATE }];
      entries.push(name);
    } catch (err) {
      const { code, message } = toJobError(err);
      failed.push({ name: file.name, code, message });
    }
    onProgress(i + 1, files.length);
  }
  if (failed.length > 0) {
    const text = failed.map((f) => `${f.name}: error ${f.code}: ${f.message}`).join('\n') + '\n';
    zipped[uniqueName('errors.txt', used)] = [new TextEncoder().encode(text), { mtime: ZIP_DATE }];
  }
  return { zip: zipSync(zipped, { level: 6 }), entries, failed };
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
