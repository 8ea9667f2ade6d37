/**
 * One fuzz input through the whole pipeline: decode + trace + SVG write (runVectorize with default options),
 * classified as ok, a documented error, or a crash. Used in-process by the CI slice and inside worker threads
 * by scripts/fuzz.mjs (which adds the time and memory bounds: a hang or OOM there terminates the worker).
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { planVectorize, runVectorize, type VectorizePlan } from '../../src/api/pipeline.js';
import { setWebpWasm } from '../../src/decode/index.js';
import { TracelabError } from '../../src/engine/errors.js';

/**
 * Error codes an input alone may produce (docs/cli.md and docs/service.md "Limits and safety"): 1006 unreadable image (corrupt, truncated, unknown
 * format, 0×0, unsupported variant), 1012 too many bytes (a host-side check; listed for the service), 1013 too
 * many pixels (> 33,554,432 declared or decoded). Any other code, or any other exception, is a crash.
 */
export const ALLOWED_CODES: readonly number[] = [1006, 1012, 1013];

export type Outcome =
  | { kind: 'ok'; width: number; height: number; svgBytes: number; ms: number }
  | { kind: 'error'; code: number; message: string; ms: number }
  | { kind: 'crash'; message: string; ms: number };

let plan: VectorizePlan | undefined;

/** Hands the WebP decoder its wasm (Node cannot fetch it by URL); idempotent. */
export function prepareFuzzHost(): void {
  if (plan) return;
  const require = createRequire(import.meta.url);
  setWebpWasm(readFileSync(require.resolve('@jsquash/webp/codec/dec/webp_dec.wasm')));
  plan = planVectorize([]);
}

export async function runOne(bytes: Uint8Array): Promise<Outcome> {
  prepareFuzzHost();
  const t0 = performance.now();
  try {
    const out = await runVectorize(plan!, bytes);
    const ms = performance.now() - t0;
    const { width, height } = out.result;
    if (!(width > 0 && height > 0) || out.body.length === 0) {
      return { kind: 'crash', message: `ok result with size ${width}×${height} and ${out.body.length} output bytes`, ms };
    }
    return { kind: 'ok', width, height, svgBytes: out.body.length, ms };
  } catch (err) {
    const ms = performance.now() - t0;
    if (err instanceof TracelabError && ALLOWED_CODES.includes(err.code)) return { kind: 'error', code: err.code, message: err.message, ms };
    const message = err instanceof Error ? `${err.name}: ${err.message}\n${err.stack ?? ''}` : String(err);
    return { kind: 'crash', message: err instanceof TracelabError ? `undocumented code ${err.code}: ${message}` : message, ms };
  }
}
