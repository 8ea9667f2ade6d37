/**
 * The worker's job as a plain function (no comlink, no worker globals) so it runs in Node tests too:
 * bytes + API fields → the shared pipeline (src/api/pipeline.ts) → SVG + stats. Throws
 * TracelabError (1006, 1013, 1019, …).
 */

import { planVectorize, runVectorize } from '../api/pipeline.js';
import { TracelabError } from '../engine/errors.js';
import { countFilledPaths, type VectorizeResult, type WorkerErrorPayload } from './protocol.js';

export async function vectorizeInWorker(bytes: Uint8Array, fields: Iterable<readonly [string, string]>): Promise<VectorizeResult> {
  const start = performance.now();
  // Options first: a bad parameter fails before any pixel is decoded (as the CLI does).
  const plan = planVectorize(fields);
  const { body, result } = await runVectorize(plan, bytes);
  const svg = new TextDecoder().decode(body);
  return {
    svg,
    stats: {
      profile: result.stats.profile,
      colors: result.stats.colors,
      regions: result.stats.regions,
      shapes: countFilledPaths(svg),
      bytes: body.length,
    },
    width: result.inputWidth,
    height: result.inputHeight,
    ms: Math.round((performance.now() - start) * 10) / 10,
  };
}

/** Any thrown value as the plain `{ code, status, message }` that crosses the worker boundary. */
export function toErrorPayload(err: unknown): WorkerErrorPayload {
  if (err instanceof TracelabError) return { code: err.code, status: err.status, message: err.message };
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return { code: 0, status: 500, message: `Internal error while tracing (${detail})` };
}
