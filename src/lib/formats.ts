/**
 * `tracelab/formats`: the format writers. In: a TraceResult (from `traceSync` of
 * `tracelab/engine`) and API output options (`output.*`, nested or dotted). Out: the file's bytes.
 * `writeTrace` loads the PDF, EPS, DXF and PNG writers on first use; the writer functions below
 * take an OutputPlan (`buildPlan(result, toOutputOptions(...))`) for callers that need one format only.
 */
import type { TraceResult } from '../engine/types.js';
import { FILE_FORMAT_MEDIA } from '../api/media-types.js';
import { planVectorize } from '../api/pipeline.js';
import { writeFile } from '../api/write-file.js';
import type { OutputOptions } from '../formats/types.js';
import { optionFields, type ParameterOptions } from './options.js';

export { buildPlan, type OutputPlan } from '../formats/plan.js';
export { writeSvg, writeSvgPlan } from '../formats/svg.js';
export { writeFile, writePlanFile } from '../api/write-file.js';
export { DEFAULT_OUTPUT_OPTIONS, type OutputOptions, type FileFormat } from '../formats/types.js';
export { FILE_FORMAT_MEDIA, type FormatMedia } from '../api/media-types.js';
export type { TraceResult } from '../engine/types.js';
export type { DottedOptions, NestedOptions, ParameterOptions } from './options.js';

/** Output options (validated by the one options schema; 1019 on a bad value) → writer options. */
export function toOutputOptions(options?: ParameterOptions): OutputOptions {
  return planVectorize(optionFields(options)).outputOptions;
}

/** Writes `result` in `output.file_format` (default SVG) with the output options given. */
export async function writeTrace(result: TraceResult, options?: ParameterOptions): Promise<{ data: Uint8Array; mimeType: string; extension: string }> {
  const outputOptions = toOutputOptions(options);
  const media = FILE_FORMAT_MEDIA[outputOptions.fileFormat];
  return { data: await writeFile(result, outputOptions), mimeType: media.contentType, extension: media.extension };
}
