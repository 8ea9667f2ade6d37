/**
 * The CLI's trace: the shared pipeline (src/api/pipeline.ts) plus the Node-only codec set-up.
 * Free of other I/O so tests can call it directly.
 */
import { planVectorize, runVectorize as runPipeline, type VectorizeOutput, type VectorizePlan } from '../api/pipeline.js';
import { prepareNodeDecoders } from './node-codecs.js';

export { planVectorize, type VectorizeOutput, type VectorizePlan };

/** Decode, trace and write. Throws TracelabError (1006 unreadable image, 1013 too many pixels, …). */
export async function runVectorize(plan: VectorizePlan, bytes: Uint8Array): Promise<VectorizeOutput> {
  prepareNodeDecoders(bytes);
  return runPipeline(plan, bytes);
}

/** Both steps: trace `bytes` with the API `fields`. */
export async function vectorizeBytes(bytes: Uint8Array, fields: Iterable<readonly [string, string]>): Promise<VectorizeOutput> {
  return runVectorize(planVectorize(fields), bytes);
}
