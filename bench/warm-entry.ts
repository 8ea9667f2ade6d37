/**
 * What bench/warm.mjs loads (one bundle, so the decoders' set-up and the pipeline share their
 * module state): the CLI's pipeline and the Node decoder set-up the CLI and the Node library run
 * before each decode (native inflate for PNG, src/cli/node-codecs.ts). Like the CLI's thread, the
 * bundle's traces borrow their typed arrays from one pool (src/engine/scratch.ts).
 */
import { runVectorize as runPipeline, type VectorizeOutput, type VectorizePlan } from '../src/api/pipeline.js';
import { TraceScratch } from '../src/engine/index.js';

export { planVectorize } from '../src/api/pipeline.js';
export { prepareNodeDecoders } from '../src/cli/node-codecs.js';

const scratch = new TraceScratch();

export function runVectorize(plan: VectorizePlan, bytes: Uint8Array): Promise<VectorizeOutput> {
  return runPipeline(plan, bytes, { scratch });
}
