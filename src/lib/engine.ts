/**
 * `tracelab/engine`: the trace on the calling thread, for callers that run it in a worker of their
 * own (or need no worker). In: decoded pixels (`vectorizeSync`, `traceSync`) or image bytes
 * (`vectorizeHere`, async: decoders and the PDF writer load on demand) + API options. Out: the same
 * file bytes and stats as `vectorize` (the same TraceJob / writer code the thread pools run).
 * PDF is written by pdf-lib, which is asynchronous: `vectorizeSync` refuses it, `vectorizeHere`
 * writes it.
 */
import { parameterError } from '../engine/errors.js';
import { TraceScratch } from '../engine/scratch.js';
import type { TraceResult } from '../engine/types.js';
import { FILE_FORMAT_MEDIA } from '../api/media-types.js';
import { planVectorize, summarize, tracePixelsSync } from '../api/pipeline.js';
import { runTraceJob } from '../api/service-trace.js';
import { buildPlan } from '../formats/plan.js';
import { writeDxf } from '../formats/dxf.js';
import { writeEps } from '../formats/eps.js';
import { writePlanPng } from '../formats/png.js';
import { writeSvgPlan } from '../formats/svg.js';
import { optionFields, type ParameterOptions, type TraceOptions } from './options.js';
import { toResult, vectorizeWith, type FilePath, type ImageInput, type PathReader, type Pixels, type VectorizeResult } from './tracer.js';

export type { FilePath, ImageInput, Pixels, TraceStats, VectorizeResult } from './tracer.js';
export type { CallOptions, DottedOptions, LibraryOptionName, NestedOptions, ParameterOptions, Progress, TraceOptions } from './options.js';
export type { Chain, Segment, TraceResult } from '../engine/types.js';
export { SegmentPath } from '../engine/segment-path.js';
export { TracelabError } from '../engine/errors.js';
export { decodeImage, type DecodedImage } from '../decode/index.js';
export { setWebpWasm } from '../decode/webp-wasm.js';

/** Runs before a file is decoded on this thread (Node: native inflate and the WebP wasm). */
let prepareDecoders: (bytes: Uint8Array) => void = () => undefined;

/** The typed arrays this thread's traces borrow, call after call (src/engine/scratch.ts). */
const scratch = new TraceScratch();

/** Reads file path inputs (Node only, engine-node.ts); browsers refuse them. */
let readPath: PathReader | undefined;

/** Lets the Node build of this entry load the decoders' Node assets (engine-node.ts). */
export function setDecoderPreparation(prepare: (bytes: Uint8Array) => void): void {
  prepareDecoders = prepare;
}

/** Lets the Node build of this entry read file path inputs (engine-node.ts). */
export function setPathReader(read: PathReader): void {
  readPath = read;
}

/**
 * Decodes and traces `input` (in Node also a file path or `file:` URL) on this thread (async only
 * for reading a file, on-demand decoders and the PDF writer).
 */
export function vectorizeHere(input: ImageInput | FilePath, options?: TraceOptions): Promise<VectorizeResult> {
  return vectorizeWith(
    (job, _signal, onProgress) => {
      if (job.source.kind === 'image') prepareDecoders(job.source.bytes);
      return runTraceJob(job, onProgress, scratch);
    },
    input,
    options,
    readPath,
  );
}

/** Traces decoded pixels synchronously; the result feeds the writers of `tracelab/formats`. */
export function traceSync(pixels: Pixels, options?: ParameterOptions): TraceResult {
  return tracePixelsSync(planVectorize(optionFields(options)), pixels, { scratch });
}

/**
 * Traces decoded pixels and writes SVG, EPS, DXF or PNG synchronously — blocking: call it in a
 * worker. Same bytes as `vectorize` with the same options. Throws TracelabError (1019 for PDF).
 */
export function vectorizeSync(pixels: Pixels, options?: ParameterOptions): VectorizeResult {
  const plan = planVectorize(optionFields(options));
  const format = plan.outputOptions.fileFormat;
  if (format === 'pdf') throw parameterError('output.file_format=pdf is written asynchronously (pdf-lib); use vectorizeHere or vectorize for PDF');
  const result = tracePixelsSync(plan, pixels, { scratch });
  const output = buildPlan(result, plan.outputOptions);
  const { contentType, extension } = FILE_FORMAT_MEDIA[format];
  const stats = summarize(result, output);
  if (format === 'png') return toResult(writePlanPng(output), contentType, extension, stats);
  // The writer's string is the result's text; its UTF-8 bytes are the file.
  const text = format === 'svg' ? writeSvgPlan(output) : format === 'eps' ? writeEps(output) : writeDxf(output);
  return toResult(new TextEncoder().encode(text), contentType, extension, stats, text);
}
