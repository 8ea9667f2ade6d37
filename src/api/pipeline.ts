/**
 * The trace pipeline every front-end shares (CLI, web worker and the HTTP service):
 * API fields → parseOptions → consistency checks → decodeImage → traceImage → format writer.
 * No I/O and no platform code: hosts load codec assets themselves (Node: src/cli/node-codecs.ts).
 */
import { decodeImage } from '../decode/index.js';
import { MAX_ACCEPTED_PIXELS, tooManyPixelsError, unreadableImageError } from '../engine/errors.js';
import { inLineRunner, traceImage, traceImageWith, type JobRunner, type TraceHooks } from '../engine/index.js';
import type { EngineParams, ImageProfile, RgbaImage, StrokeStats, TraceResult, TraceStats } from '../engine/types.js';
import { parseIccProfile } from '../decode/icc.js';
import { forEachDrawable, type OutputPlan } from '../formats/plan.js';
import { ChainCache, loopArea2 } from '../formats/raster.js';
import { writeFile } from './write-file.js';
import type { OutputOptions } from '../formats/types.js';
import { FILE_FORMAT_MEDIA } from './media-types.js';
import { checkCombination, parseOptions, toEngineParams, toOutputOptions, type VectorizeOptions } from './options.js';

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
 * Validate the API `fields` without touching any image, so a bad request fails before the input
 * is read. Throws TracelabError 1019.
 */
export function planVectorize(fields: Iterable<readonly [string, string]>): VectorizePlan {
  const options = parseOptions(fields, 'vectorize');
  const outputOptions = toOutputOptions(options);
  checkCombination(options);
  return { options, engineParams: toEngineParams(options), outputOptions };
}

/** Decoded pixels handed in by a caller (library `vectorize({ data, width, height })`): RGBA rows, top to bottom. */
export interface PixelInput {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array | Uint8ClampedArray;
  /** Pixels per inch, when the caller knows it (sets the natural page size of PDF/EPS, like a file's pHYs). */
  readonly dpi?: number;
  /** The ICC profile the colours are in, when the file embedded one (processing.color_profile.*). */
  readonly colorProfile?: Uint8Array;
}

/**
 * Checks caller-supplied pixels the way decodeImage checks a file's header: integer, non-zero
 * size (1006), not more than MAX_ACCEPTED_PIXELS (1013), exactly width × height × 4 bytes (1006).
 */
export function checkPixels(pixels: PixelInput): void {
  const { width, height, data } = pixels;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw unreadableImageError(`pixels: width and height must be positive integers; received ${width}×${height}`);
  }
  if (width * height > MAX_ACCEPTED_PIXELS) throw tooManyPixelsError(width, height);
  if (!(data instanceof Uint8Array || data instanceof Uint8ClampedArray)) throw unreadableImageError('pixels: data must be a Uint8Array or Uint8ClampedArray of RGBA bytes');
  if (data.length !== width * height * 4) {
    throw unreadableImageError(`pixels: data has ${data.length} bytes; ${width}×${height} RGBA needs ${width * height * 4}`);
  }
}

/**
 * What `processing.color_profile.*` make of the pixels' embedded profile: the pixels to trace and the profile to
 * embed in the output. Input `preserve` converts RGB and grey matrix/TRC profiles to sRGB (src/decode/icc.ts);
 * output `preserve` embeds the profile the traced colours are still in — the input's RGB profile unless input
 * `preserve` converted them to sRGB (then there is nothing to embed: sRGB is what an untagged file means). A
 * profile icc.ts cannot apply (LUT-only, CMYK) leaves the pixels as they are. Without a profile, or with both
 * fields `ignore`, the pixels are handed on untouched.
 */
function applyColorProfile(plan: VectorizePlan, pixels: PixelInput): { image: RgbaImage; embed?: Uint8Array } {
  const image = { width: pixels.width, height: pixels.height, data: pixels.data };
  const profileBytes = pixels.colorProfile;
  const input = plan.options['processing.color_profile.input'];
  const output = plan.options['processing.color_profile.output'];
  if (!profileBytes || (input === 'ignore' && output === 'ignore')) return { image };
  const profile = parseIccProfile(profileBytes);
  if (!profile) return { image };
  let converted = false;
  if (input === 'preserve' && profile.toSrgb) {
    converted = true;
    if (!profile.isSrgb) image.data = srgbCopy(pixels.data, profile.toSrgb);
  }
  const embed = output === 'preserve' && !converted && profile.colorSpace === 'RGB' ? profileBytes : undefined;
  return embed ? { image, embed } : { image };
}

/**
 * The sRGB conversion of `data`, made once per pixel array: a retrace of the same picture (the playground's option
 * changes) then hands the engine the same array, so its memo of earlier stages still applies.
 */
const SRGB_COPIES = new WeakMap<object, Uint8Array>();
function srgbCopy(data: Uint8Array | Uint8ClampedArray, toSrgb: (rgba: Uint8Array) => Uint8Array): Uint8Array {
  let copy = SRGB_COPIES.get(data);
  if (!copy) SRGB_COPIES.set(data, (copy = toSrgb(data instanceof Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.length))));
  return copy;
}

/** What decides a trace's result besides the picture: a cached trace with the same key is the same trace. */
export function traceKey(plan: VectorizePlan): string {
  const o = plan.options;
  return JSON.stringify([plan.engineParams, o['processing.color_profile.input'], o['processing.color_profile.output']]);
}

/** The trace with what the pipeline adds to the engine's: the input's resolution and the profile to embed. */
function withInputFacts(traced: TraceResult, pixels: PixelInput, embed: Uint8Array | undefined): TraceResult {
  // The file's resolution sets the natural page size of PDF/EPS and physical units (reference §3.10).
  let result = pixels.dpi ? { ...traced, inputDpi: pixels.dpi } : traced;
  if (embed) result = { ...result, colorProfile: embed };
  return result;
}

/**
 * Trace decoded pixels (a file's, or a caller's). With a `runner` (a pool of engine threads) large
 * images are split across its threads; the result is the same bytes either way.
 */
export async function tracePixels(plan: VectorizePlan, pixels: PixelInput, hooks: TraceHooks = {}, runner?: JobRunner): Promise<TraceResult> {
  checkPixels(pixels);
  const { image, embed } = applyColorProfile(plan, pixels);
  // A checkpoint needs the awaiting driver even without threads (same bytes either way).
  const driver = runner ?? (hooks.checkpoint ? inLineRunner(hooks.checkpoint, hooks.scratch) : undefined);
  const traced = driver ? await traceImageWith(driver, image, plan.engineParams, hooks) : traceImage(image, plan.engineParams, hooks);
  return withInputFacts(traced, pixels, embed);
}

/** The synchronous twin of tracePixels (no thread pool): for callers that run it in a worker of their own. */
export function tracePixelsSync(plan: VectorizePlan, pixels: PixelInput, hooks: TraceHooks = {}): TraceResult {
  checkPixels(pixels);
  const { image, embed } = applyColorProfile(plan, pixels);
  return withInputFacts(traceImage(image, plan.engineParams, hooks), pixels, embed);
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
  const t0 = now();
  const pixels = await decodeBytes(bytes);
  const t1 = now();
  const result = await tracePixels(plan, pixels, hooks, runner);
  const t2 = now();
  return { result, timings: { decode: t1 - t0, ...result.stats.stageMs, trace: t2 - t1 } };
}

/** An image file's pixels and resolution, as tracePixels takes them. Throws 1006 for an unreadable file. */
export async function decodeBytes(bytes: Uint8Array): Promise<PixelInput> {
  if (bytes.length === 0) throw unreadableImageError('the input is empty (0 bytes)');
  const decoded = await decodeImage(bytes);
  return {
    width: decoded.width,
    height: decoded.height,
    data: decoded.data,
    ...(decoded.dpi ? { dpi: decoded.dpi.x } : {}),
    ...(decoded.iccProfile ? { colorProfile: decoded.iccProfile } : {}),
  };
}

/** The engine's gradient counts (tracelab.gradients): present only when above 0. */
export type GradientCounts = Pick<TraceStats, 'gradients' | 'smoothAreas'>;

/** `counts` without zero or absent entries (absent = none, as TraceStats has them). */
export function gradientCounts({ gradients, smoothAreas }: GradientCounts): GradientCounts {
  return { ...(gradients ? { gradients } : {}), ...(smoothAreas ? { smoothAreas } : {}) };
}

/**
 * What the playground's stats line shows of a trace (and what the library returns with the file).
 * `gradients` (shapes filled with a gradient) and `smoothAreas` (smoothly shaded areas found) only
 * when the engine found any.
 */
export interface TraceSummary extends GradientCounts {
  /** pixel art, flat art, photo or line art. */
  readonly profile: ImageProfile;
  /** Why the engine chose that profile, for people (TraceStats.profileReason; '' for a stored trace of an older version). */
  readonly profileReason: string;
  /** Colours in the final palette. */
  readonly colors: number;
  /** Connected regions the engine traced. */
  readonly regions: number;
  /**
   * Shapes drawn: filled shapes written (gap-filler strokes not counted); with a stroke draw
   * style, where every shape is an outline, the traced shapes (as the playground counts them).
   */
  readonly shapes: number;
  /** Curve nodes (segment end points) over all chains. */
  readonly nodes: number;
  /** Input size in pixels. */
  readonly width: number;
  readonly height: number;
  /** Pen strokes (tracelab.strokes): how many, their widths, pen-down and pen-up lengths (traced px); absent = none. */
  readonly strokes?: StrokeStats;
}

/** The summary of `result` as written with `plan` (shapes: see TraceSummary.shapes). */
export function summarize(result: TraceResult, plan: OutputPlan): TraceSummary {
  let shapes = 0;
  if (plan.options.drawStyle === 'fill_shapes') {
    forEachDrawable(plan.items, (item) => {
      if (item.kind === 'fill') shapes++;
    });
  } else shapes = result.shapes.length;
  return {
    profile: result.stats.profile,
    profileReason: result.stats.profileReason ?? '',
    colors: result.stats.colors,
    regions: result.stats.regions,
    shapes,
    nodes: result.chains.reduce((n, c) => n + c.segments.length, 0),
    width: result.inputWidth,
    height: result.inputHeight,
    ...gradientCounts(result.stats),
    ...(result.stats.strokes ? { strokes: result.stats.strokes } : {}),
  };
}

/**
 * Shapes whose written outline (outer loop less its holes, curves flattened within 0.01 px)
 * encloses under 1 px² and under 4 px² of the input's pixels (TRACELAB_STATS): a shape under a
 * pixel's area is invisible at 1:1 (issue 39). Why the small ones are left: TraceStats.smallShapeKinds.
 */
export interface SmallShapeCounts {
  readonly shapesUnder1px2: number;
  readonly shapesUnder4px2: number;
}

const SMALL_SHAPE_FLATTEN_PX = 0.01;

export function smallShapeCounts(result: TraceResult): SmallShapeCounts {
  const chains = new ChainCache(result.chains, result.inputWidth / result.width, result.inputHeight / result.height, SMALL_SHAPE_FLATTEN_PX);
  let shapesUnder1px2 = 0;
  let shapesUnder4px2 = 0;
  for (const shape of result.shapes) {
    let twiceArea = Math.abs(loopArea2(chains, shape.outer));
    for (const hole of shape.holes) twiceArea -= Math.abs(loopArea2(chains, hole));
    if (twiceArea < 2) shapesUnder1px2++;
    if (twiceArea < 8) shapesUnder4px2++;
  }
  return { shapesUnder1px2, shapesUnder4px2 };
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
