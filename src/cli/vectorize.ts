/**
 * The CLI's trace: the shared pipeline (src/api/pipeline.ts) plus the Node-only set-up — codecs,
 * and the engine thread pool that splits large images (TRACELAB_WORKERS, default
 * defaultEngineThreads(): in line below 4 cores; 1 = no threads). The output is the same bytes whatever the number of threads.
 * Free of other I/O so tests can call it directly.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { planVectorize, runVectorize as runPipeline, smallShapeCounts, type VectorizeOutput, type VectorizePlan } from '../api/pipeline.js';
import type { JobPool } from '../pool/job-pool.js';
import { createNodeJobPool, defaultEngineThreads } from '../pool/node-pool.js';
import { prepareNodeDecoders } from './node-codecs.js';
import { TraceScratch } from '../engine/index.js';

export { planVectorize, smallShapeCounts, type VectorizeOutput, type VectorizePlan };

/** Decode, trace and write. Throws TracelabError (1006 unreadable image, 1013 too many pixels, …). */
export async function runVectorize(plan: VectorizePlan, bytes: Uint8Array): Promise<VectorizeOutput> {
  prepareNodeDecoders(bytes);
  const threads = engineThreads();
  // A file this big is almost surely a large picture: the threads boot while it decodes.
  if (threads && bytes.length >= WARM_THREADS_BYTES) threads.warm();
  return runPipeline(plan, bytes, { scratch }, threads);
}

/** The typed arrays this process's traces borrow, one image after another (src/engine/scratch.ts). */
const scratch = new TraceScratch();

const WARM_THREADS_BYTES = 256 * 1024;

/** Both steps: trace `bytes` with the API `fields`. */
export async function vectorizeBytes(bytes: Uint8Array, fields: Iterable<readonly [string, string]>): Promise<VectorizeOutput> {
  return runVectorize(planVectorize(fields), bytes);
}

let pool: { threads: number; runner: JobPool | undefined } | undefined;

/**
 * The process's engine thread pool (started lazily: threads spawn on the first large image), or
 * undefined for in-line tracing — one thread asked for, or no bundled thread entry (running
 * from TypeScript sources).
 */
export function engineThreads(threads = threadsFromEnv()): JobPool | undefined {
  if (pool?.threads === threads) return pool.runner;
  const url = jobThreadUrl();
  const runner = threads > 1 && url ? createNodeJobPool(threads, url) : undefined;
  pool = { threads, runner };
  return runner;
}

/** TRACELAB_WORKERS: engine threads per trace (integer ≥ 1); unset or invalid → the default. */
export function threadsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env['TRACELAB_WORKERS']?.trim();
  const n = raw ? Number(raw) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : defaultEngineThreads();
}

/** dist-cli/job-thread.mjs next to the bundle (code may sit in dist-cli/chunks/). */
function jobThreadUrl(): URL | undefined {
  const here = new URL('.', import.meta.url);
  const url = here.pathname.endsWith('/chunks/') ? new URL('../job-thread.mjs', here) : new URL('job-thread.mjs', here);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : undefined;
}
