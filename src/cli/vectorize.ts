/**
 * The CLI's trace pipeline, free of I/O so tests can call it directly:
 * fields → parseOptions → decodeImage → traceImage → writeSvg.
 */

import { FILE_FORMAT_MEDIA, parseOptions, toEngineParams, toOutputOptions } from '../api/index.js';
import type { VectorizeOptions } from '../api/index.js';
import { parameterError, unreadableImageError } from '../engine/errors.js';
import type { EngineParams, RgbaImage } from '../engine/types.js';
import type { OutputOptions } from '../formats/types.js';
import { decodeImage } from '../decode/index.js';
import { traceImage } from '../engine/index.js';
import { writeSvg } from '../formats/svg.js';
import { prepareNodeDecoders } from './node-codecs.js';

export interface VectorizeOutput {
  /** Milliseconds per step (decode, each engine stage, write), for `--timings` and the bench. */
  readonly timings: Readonly<Record<string, number>>;
  readonly body: Uint8Array;
  readonly contentType: string;
  /** File extension without the dot. */
  readonly extension: string;
}

/** Formats this version can write. The others are valid API values, just not implemented yet. */
const IMPLEMENTED_FORMATS = new Set(['svg']);

/** Validated, converted parameters of one trace. */
export interface VectorizePlan {
  readonly options: VectorizeOptions;
  readonly engineParams: EngineParams;
  readonly outputOptions: OutputOptions;
}

/**
 * Validate the API `fields` (multipart-style name/value pairs) without touching any image, so a
 * bad command line fails before the input is read. Throws TracelabError 1019.
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
  return { options, engineParams: toEngineParams(options), outputOptions };
}

/** Decode, trace and write. Throws TracelabError (1006 unreadable image, 1013 too many pixels, …). */
export async function runVectorize(plan: VectorizePlan, bytes: Uint8Array): Promise<VectorizeOutput> {
  if (bytes.length === 0) throw unreadableImageError('the input is empty (0 bytes)');
  const t0 = performance.now();
  prepareNodeDecoders(bytes);
  const decoded = await decodeImage(bytes);
  const image: RgbaImage = { width: decoded.width, height: decoded.height, data: decoded.data };
  const t1 = performance.now();
  const result = traceImage(image, plan.engineParams);
  const t2 = performance.now();
  const body = new TextEncoder().encode(writeSvg(result, plan.outputOptions));
  const t3 = performance.now();
  const timings = { decode: t1 - t0, ...result.stats.stageMs, trace: t2 - t1, write: t3 - t2 };
  return { timings, body, ...FILE_FORMAT_MEDIA.svg };
}

/** Both steps: trace `bytes` with the API `fields`. */
export async function vectorizeBytes(
  bytes: Uint8Array,
  fields: Iterable<readonly [string, string]>,
): Promise<VectorizeOutput> {
  return runVectorize(planVectorize(fields), bytes);
}
