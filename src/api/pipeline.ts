/**
 * The trace pipeline every front-end shares (CLI, web worker, and later the HTTP service):
 * API fields → parseOptions → capability check → decodeImage → traceImage → writeSvg.
 * No I/O and no platform code: hosts load codec assets themselves (Node: src/cli/node-codecs.ts).
 */
import { decodeImage } from '../decode/index.js';
import { parameterError, unreadableImageError } from '../engine/errors.js';
import { traceImage } from '../engine/index.js';
import type { EngineParams, TraceResult } from '../engine/types.js';
import { writeSvg } from '../formats/svg.js';
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

/** Formats this version can write. The others are valid API values, just not implemented yet. */
const IMPLEMENTED_FORMATS = new Set(['svg']);

/**
 * Options that are valid API values but that this version does not honour yet. Asking
 * for one is an error rather than being silently ignored: a user comparing with the real
 * service must not get a different file without being told.
 */
function unsupportedOption(o: VectorizeOptions): string | undefined {
  if (o['processing.color_profile.input'] !== 'ignore') return `processing.color_profile.input=${o['processing.color_profile.input']}`;
  if (o['processing.color_profile.output'] !== 'ignore') return `processing.color_profile.output=${o['processing.color_profile.output']}`;
  if (o['output.draw_style'] !== 'fill_shapes') return `output.draw_style=${o['output.draw_style']}`;
  if (o['output.group_by'] !== 'none') return `output.group_by=${o['output.group_by']}`;
  if (o['output.gap_filler.clip']) return 'output.gap_filler.clip=true';
  if (o['output.svg.adobe_compatibility_mode']) return 'output.svg.adobe_compatibility_mode=true';
  for (const curve of ['quadratic_bezier', 'cubic_bezier', 'circular_arc', 'elliptical_arc'] as const) {
    if (!o[`output.curves.allowed.${curve}`]) return `output.curves.allowed.${curve}=false`;
  }
  for (const size of ['scale', 'width', 'height'] as const) {
    if (o[`output.size.${size}`] !== undefined) return `output.size.${size}`;
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
  if (!IMPLEMENTED_FORMATS.has(outputOptions.fileFormat)) {
    const format = outputOptions.fileFormat;
    throw parameterError(
      `output.file_format=${format} is a valid API value, but ${format.toUpperCase()} output is not implemented ` +
        `yet in this version of tracelab; implemented: ${[...IMPLEMENTED_FORMATS].join(', ')}`,
    );
  }
  const unsupported = unsupportedOption(options);
  if (unsupported) {
    throw parameterError(`${unsupported} is a valid API value, but this version of tracelab does not implement it yet`);
  }
  return { options, engineParams: toEngineParams(options), outputOptions };
}

/** Decode, trace and write. Throws TracelabError (1006 unreadable image, 1013 too many pixels, …). */
export async function runVectorize(plan: VectorizePlan, bytes: Uint8Array): Promise<VectorizeOutput> {
  if (bytes.length === 0) throw unreadableImageError('the input is empty (0 bytes)');
  const t0 = now();
  const decoded = await decodeImage(bytes);
  const t1 = now();
  const result = traceImage({ width: decoded.width, height: decoded.height, data: decoded.data }, plan.engineParams);
  const t2 = now();
  const body = new TextEncoder().encode(writeSvg(result, plan.outputOptions));
  const t3 = now();
  const timings = { decode: t1 - t0, ...result.stats.stageMs, trace: t2 - t1, write: t3 - t2 };
  return { body, ...FILE_FORMAT_MEDIA.svg, result, timings };
}

function now(): number {
  const clock = (globalThis as { performance?: { now(): number } }).performance;
  return clock ? clock.now() : 0;
}
