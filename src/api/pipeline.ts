/**
 * The trace pipeline every front-end shares (CLI, web worker and the HTTP service):
 * API fields → parseOptions → consistency checks → decodeImage → traceImage → format writer.
 * No I/O and no platform code: hosts load codec assets themselves (Node: src/cli/node-codecs.ts).
 */
import { decodeImage } from '../decode/index.js';
import { parameterError, unreadableImageError } from '../engine/errors.js';
import { traceImage, traceImageWith, type JobRunner, type TraceHooks } from '../engine/index.js';
import type { EngineParams, TraceResult } from '../engine/types.js';
import { writeFile } from './write-file.js';
import type { OutputOptions } from '../formats/types.js';
import { FILE_FORMAT_MEDIA } from './media-types.js';
import { parseOptions, toEngineParams, toOutputOptions, type VectorizeOptions } from './options.js';

/** Validated, converted parameters of one trace. */
export interface VectorizePlan {
  readonly options: VectorizeOptions;
  readonly engineParams: EngineParams;
  readonly outputOptions: OutputOptions;
}

export interface VectorizeOutput {
  readonly body: Uint8Array;
  readonly contentType: string;
  /** File extension without the dot. */
  readonly extension: string;
  readonly result: TraceResult;
  /** Milliseconds per step (decode, each engine stage, write), for TRACELAB_TIMINGS and the bench. */
  readonly timings: Readonly<Record<string, number>>;
}

/**
 * Options that are valid API values but that this version does not honour. Asking for one is an
 * error rather than being silently ignored: a user comparing with the real service must not get
 * a different file without being told.
 */
function unsupportedOption(o: VectorizeOptions): string | undefined {
  if (o['processing.color_profile.input'] !== 'ignore') return `processing.color_profile.input=${o['processing.color_profile.input']}`;
  if (o['processing.color_profile.output'] !== 'ignore') return `processing.color_profile.output=${o['processing.color_profile.output']}`;
  return undefined;
}

/** Output options that contradict each other or cannot give a file (400 / 1019 naming the field). */
function contradiction(o: VectorizeOptions): string | undefined {
  for (const name of ['output.size.scale', 'output.size.width', 'output.size.height'] as const) {
    const v = o[name];
    if (v !== undefined && !(v > 0)) return `${name} must be greater than 0 (a page needs a size); received ${v}.`;
  }
  if (o['output.gap_filler.clip'] && o['output.gap_filler.enabled'] && o['output.file_format'] === 'svg' && o['output.svg.version'] === 'svg_tiny_1_2') {
    return 'output.gap_filler.clip=true needs clipping paths, which output.svg.version=svg_tiny_1_2 does not have; use output.svg.version=svg_1_1, or output.gap_filler.clip=false (unclipped gap-filler strokes).';
  }
  return undefined;
}

/**
 * Validate the API `fields` without touching any image, so a bad request fails before the input
 * is read. Throws TracelabError 1019.
 */
export function planVectorize(fields: Iterable<readonly [string, string]>): VectorizePlan {
  const options = parseOptions(fields, 'vectorize');
  const outputOptions = toOutputOptions(options);
  const contradicted = contradiction(options);
  if (contradicted) throw parameterError(contradicted);
  const unsupported = unsupportedOption(options);
  if (unsupported) {
    throw parameterError(`${unsupported} is a valid API value, but this version of tracelab does not implement it yet`);
  }
  return { options, engineParams: toEngineParams(options), outputOptions };
}

/**
 * Decode and trace. Throws TracelabError (1006 unreadable image, 1013 too many pixels, …).
 * With a `runner` (a pool of engine threads) large images are split across its threads; the
 * result is the same bytes either way.
 */
export async function traceBytes(
  plan: VectorizePlan,
  bytes: Uint8Array,
  hooks: TraceHooks = {},
  runner?: JobRunner,
): Promise<{ result: TraceResult; timings: Record<string, number> }> {
  if (bytes.length === 0) throw unreadableImageError('the input is empty (0 bytes)');
  const t0 = now();
  const decoded = await decodeImage(bytes);
  const t1 = now();
  const image = { width: decoded.width, height: decoded.height, data: decoded.data };
  const traced = runner ? await traceImageWith(runner, image, plan.engineParams, hooks) : traceImage(image, plan.engineParams, hooks);
  // The file's resolution sets the natural page size of PDF/EPS and physical units (reference §3.10).
  const result = decoded.dpi ? { ...traced, inputDpi: decoded.dpi.x } : traced;
  const t2 = now();
  return { result, timings: { decode: t1 - t0, ...result.stats.stageMs, trace: t2 - t1 } };
}

/** Decode, trace and write the requested format. Throws TracelabError (also 1023 for a PNG too large). */
export async function runVectorize(plan: VectorizePlan, bytes: Uint8Array, hooks: TraceHooks = {}, runner?: JobRunner): Promise<VectorizeOutput> {
  const { result, timings } = await traceBytes(plan, bytes, hooks, runner);
  const t0 = now();
  const body = await writeFile(result, plan.outputOptions);
  const t1 = now();
  return { body, ...FILE_FORMAT_MEDIA[plan.outputOptions.fileFormat], result, timings: { ...timings, write: t1 - t0 } };
}

function now(): number {
  const clock = (globalThis as { performance?: { now(): number } }).performance;
  return clock ? clock.now() : 0;
}
