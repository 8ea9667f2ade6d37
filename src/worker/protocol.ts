/**
 * What crosses the worker boundary (structured-clone-safe plain data only).
 * In: nothing. Out: the worker API type, its result and its error payload.
 * No comlink here; src/worker/tracer.worker.ts (expose) and src/worker/client.ts (wrap) hold that.
 */

import type { ImageProfile } from '../engine/types.js';

/** Summary of one trace, for the stats line. */
export interface VectorizeStats {
  readonly profile: ImageProfile;
  /** Colours in the final palette (engine stats). */
  readonly colors: number;
  /** Connected regions the engine traced. */
  readonly regions: number;
  /** Filled `<path>` elements in the SVG (gap-filler strokes not counted). */
  readonly shapes: number;
  /** UTF-8 size of the SVG document. */
  readonly bytes: number;
}

export interface VectorizeResult {
  readonly svg: string;
  readonly stats: VectorizeStats;
  /** Input image size in pixels (the SVG viewBox). */
  readonly width: number;
  readonly height: number;
  /** Wall time in the worker: decode + options + trace + SVG. */
  readonly ms: number;
}

/**
 * The error a failed call throws across the boundary: a plain object, because an Error subclass
 * (TracelabError) loses its class and fields in structured clone. `code` is the API error code
 * (1006, 1013, 1019, …); 0 for an internal failure that has no API code.
 */
export interface WorkerErrorPayload {
  readonly code: number;
  readonly status: number;
  readonly message: string;
}

/** The object the worker exposes. `bytes` is transferred (detached on the caller's side). */
export interface TracerApi {
  vectorize(bytes: Uint8Array, fields: [string, string][]): Promise<VectorizeResult>;
}

/** Count of filled paths in an SVG written by src/formats/svg.ts. */
export function countFilledPaths(svg: string): number {
  let n = 0;
  for (const m of svg.matchAll(/<(?:path|circle|ellipse|rect)\b[^>]*>/g)) if (/\sfill="(?!none")/.test(m[0])) n++;
  return n;
}

export function isWorkerErrorPayload(value: unknown): value is WorkerErrorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'number' && typeof v.message === 'string';
}
