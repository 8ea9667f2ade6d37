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
import { arrayBufferBytes } from '../decode/bytes.js';

export { buildPlan, type OutputPlan } from '../formats/plan.js';
export { writeSvg, writeSvgPlan } from '../formats/svg.js';
export { writeFile, writePlanFile } from '../api/write-file.js';
export { DEFAULT_OUTPUT_OPTIONS, type OutputOptions, type FileFormat } from '../formats/types.js';
export { FILE_FORMAT_MEDIA, type FormatMedia } from '../api/media-types.js';
export type { Chain, Segment, TraceResult } from '../engine/types.js';
export { SegmentPath } from '../engine/segment-path.js';
export type { DottedOptions, NestedOptions, ParameterOptions } from './options.js';

/** Output options (validated by the one options schema; 1019 on a bad value) → writer options. */
export function toOutputOptions(options?: ParameterOptions): OutputOptions {
  return planVectorize(optionFields(options)).outputOptions;
}

/** A written file: its bytes, and its text for the text formats (SVG, EPS, DXF; absent for PDF, PNG). */
export interface WrittenFile {
  /** Over an ArrayBuffer (a BlobPart under the DOM lib). */
  readonly data: Uint8Array<ArrayBuffer>;
  readonly mimeType: string;
  readonly extension: string;
  readonly text?: string;
}

/** Writes `result` in `output.file_format` (default SVG) with the output options given. */
export async function writeTrace(result: TraceResult, options?: ParameterOptions): Promise<WrittenFile> {
  const outputOptions = toOutputOptions(options);
  const format = outputOptions.fileFormat;
  const media = FILE_FORMAT_MEDIA[format];
  const data = arrayBufferBytes(await writeFile(result, outputOptions));
  const file = { data, mimeType: media.contentType, extension: media.extension };
  return format === 'pdf' || format === 'png' ? file : { ...file, text: new TextDecoder().decode(data) };
}
