/**
 * The CPU-heavy part of one `/vectorize` or `/download` call (decode, trace, write the file) as a
 * plain-data job, so the service (service.ts) can run it in its own thread or hand it to a Node
 * worker thread (src/cli/trace-pool.ts) — both call `runTraceJob`, so the bytes are identical.
 *
 * In: a `TraceJob` — the trace's source (image bytes + API fields, or a retained trace with the
 * image to re-trace it from when another `output.shape_stacking` is asked), the output fields, the
 * preview/watermark choice, and whether the serialised trace is wanted (a retained token).
 * Out: the response file (body, media type, extension) and, when asked, the serialised trace.
 * Errors: the pipeline's TracelabErrors (1006 unreadable image, 1013 too many pixels, 1023 PNG
 * too large, 1028 corrupt stored trace, …). Jobs hold only structured-cloneable data.
 */

import type { TraceResult } from '../engine/types.js';
import { IMAGE_SOURCE_FIELDS } from './options.js';
import { ENGINE_STAGES, type EngineStage, type TraceHooks, type TraceScratch } from '../engine/index.js';
import { planVectorize, traceBytes, tracePixels, type PixelInput } from './pipeline.js';
import { deserializeTrace, render, serializeTrace, type Rendered } from './service-render.js';
import type { WatermarkStyle } from './watermark.js';

export type Fields = ReadonlyArray<readonly [string, string]>;

/** Where the trace of a job comes from. */
export type TraceSource =
  /** Decode and trace `bytes` with the processing options in `fields` (`/vectorize`). */
  | { readonly kind: 'image'; readonly bytes: Uint8Array; readonly fields: Fields }
  /** Trace caller-decoded RGBA pixels with the processing options in `fields` (the library's pixel input). */
  | { readonly kind: 'pixels'; readonly pixels: PixelInput; readonly fields: Fields }
  /**
   * A retained token (`/download`): its serialised `trace` when it was made with `stacking`, else
   * its `image` traced again with its stored processing `fields` and that stacking (stacking decides
   * which holes the shapes have, so it is part of the trace).
   */
  | {
      readonly kind: 'stored';
      readonly token: string;
      readonly trace: Uint8Array;
      readonly stacking: string;
      readonly image: Uint8Array;
      readonly fields: Fields;
    };

export interface TraceJob {
  readonly source: TraceSource;
  /** The output fields (`output.*`); validated by the caller with planVectorize before the job. */
  readonly outputFields: Fields;
  /** Preview modes answer a 4× PNG whatever the format and size options say (reference §3.1). */
  readonly preview: boolean;
  readonly watermark: WatermarkStyle | 'none';
  /** Return the serialised trace too (the call retains a token). */
  readonly keepTrace: boolean;
  /** Return the stats of the result too (library calls: profile, colours, shapes, nodes). */
  readonly summary?: boolean;
}

/** How far a job is: the step just finished and the share of the work done (0–1). */
export interface JobProgress {
  readonly stage: 'decode' | EngineStage | 'write';
  readonly fraction: number;
}

export interface TraceJobResult extends Rendered {
  /** The serialised TraceResult, when the job asked for it (`keepTrace`). */
  readonly trace?: Uint8Array;
}

/** Runs a job somewhere (this thread, a worker thread); `signal` tells it the client left. */
export type TraceRunner = (job: TraceJob, signal?: AbortSignal, onProgress?: (progress: JobProgress) => void) => Promise<TraceJobResult>;

/** API fields without the image source fields (those never change a trace and can be large). */
export function traceFields(fields: Fields): Array<readonly [string, string]> {
  return fields.filter(([name]) => !IMAGE_SOURCE_FIELDS.has(name));
}

async function traceOf(source: TraceSource, hooks: TraceHooks): Promise<TraceResult> {
  if (source.kind === 'image') return (await traceBytes(planVectorize(source.fields), source.bytes, hooks)).result;
  if (source.kind === 'pixels') return tracePixels(planVectorize(source.fields), source.pixels, hooks);
  const stored = deserializeTrace(source.token, source.trace);
  if ((stored.shapeStacking ?? 'cutouts') === source.stacking) return stored;
  const fields = [...source.fields, ['output.shape_stacking', source.stacking] as const];
  return (await traceBytes(planVectorize(fields), source.image, hooks)).result;
}

/**
 * Runs `job` in the calling thread; `onProgress` hears decode, each engine stage and write.
 * `scratch`: the typed arrays the calling thread's traces borrow one after another (src/engine/scratch.ts).
 */
export async function runTraceJob(job: TraceJob, onProgress?: (progress: JobProgress) => void, scratch?: TraceScratch): Promise<TraceJobResult> {
  // Steps: decode, the engine's stages, write (as the playground's preview reports them).
  const steps = ENGINE_STAGES.length + 2;
  onProgress?.({ stage: 'decode', fraction: 0 });
  const hooks: TraceHooks = onProgress ? { onStage: (stage, index) => onProgress({ stage, fraction: (index + 2) / steps }) } : {};
  if (scratch) hooks.scratch = scratch;
  const result = await traceOf(job.source, hooks);
  const { outputOptions } = planVectorize(job.outputFields);
  const rendered = await render(result, { outputOptions, preview: job.preview, watermark: job.watermark, ...(job.summary ? { summary: true } : {}) });
  onProgress?.({ stage: 'write', fraction: 1 });
  return job.keepTrace ? { ...rendered, trace: serializeTrace(result) } : rendered;
}

/** The in-process runner (the default of createService). */
export const runTraceJobHere: TraceRunner = (job, _signal, onProgress) => runTraceJob(job, onProgress);
