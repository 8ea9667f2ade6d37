/**
 * The worker's job as a plain function (no comlink, no worker globals) so it runs in Node tests too:
 * bytes + API fields → the shared pipeline (src/api/pipeline.ts) → SVG + stats. Throws
 * TracelabError (1006, 1013, 1019, …). With a `runner` large images are split over engine
 * threads (same bytes).
 */

import { formatHexColor } from '../api/palette.js';
import { FILE_FORMAT_MEDIA } from '../api/media-types.js';
import { preparePngInflate } from '../decode/browser-inflate.js';
import { readImageHeader } from '../decode/index.js';
import { decodeBytes, gradientCounts, planVectorize, summarize, tracePixels, traceKey, type PixelInput, type VectorizePlan } from '../api/pipeline.js';
import { writeFile, writePlanFile } from '../api/write-file.js';
import type { TraceResult } from '../engine/types.js';
import { buildPlan, type OutputPlan } from '../formats/plan.js';
import { renderPlan, writePlanPng, type RenderWindow } from '../formats/png.js';
import { plotPreviewSvg } from '../formats/plot-preview.js';
import { writeSvgBytes } from '../formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS } from '../formats/types.js';
import { ENGINE_STAGES, TraceMemo, TraceScratch, type EngineStage, type JobRunner } from '../engine/index.js';
import {
  DRAFT_ABOVE_PIXELS,
  DRAFT_PIXELS,
  LARGE_SVG_BYTES,
  type ExportResult,
  type GradientEntry,
  type OutlineView,
  type PaletteEntry,
  type TraceDraft,
  type TraceProgress,
  type VectorizeResult,
  type ViewRender,
} from './protocol.js';

/**
 * The last trace of this worker, kept so an option that does not change the trace (every
 * `output.*` option: format, size, curves, gap filler, draw style, grouping…) writes the file again
 * without decoding and tracing (fast retrace). The key is the image bytes and the engine
 * parameters the trace depends on; anything else is read from the new plan.
 */
let lastTrace: { bytes: Uint8Array; engineKey: string; result: TraceResult } | undefined;

/**
 * The last decoded image of this worker: a processing option change (colours, speckles, shapes…)
 * traces again from these pixels instead of decoding the file again (a 2-MP PNG or JPEG is
 * hundreds of milliseconds of each retrace). The engine never writes into its input. `bytes` is
 * the caller's own array: the functions below take over the array they are given (decodeOnce).
 */
let lastDecoded: { bytes: Uint8Array; pixels: PixelInput } | undefined;

/**
 * Stage results of the last traces of the decoded image (src/engine/memo.ts): a colour change
 * re-runs from the palette on, a speckle size from the regions on, a shape switch only the fit.
 */
let memo = new TraceMemo();

/** The typed arrays this worker's traces borrow, one trace after another (src/engine/scratch.ts). */
const scratch = new TraceScratch();

/** vectorizeInWorker calls so far: a call that is no longer the newest stops at its next checkpoint. */
let newestVectorize = 0;
/** Settles once the running vectorizeInWorker call has stopped (done, failed or superseded). */
let vectorizeRunning: Promise<void> = Promise.resolve();

/**
 * A trace stopped at a checkpoint because a newer vectorize call (or cancelVectorize) superseded
 * it. Its name is the one client.ts gives a cancelled request.
 */
export class TraceSupersededError extends Error {
  constructor() {
    super('The trace was superseded by a newer one');
    this.name = 'AbortError';
  }
}

/** Stops the running vectorize call at its next checkpoint (the page cancelled it without a new one). */
export function cancelVectorize(): void {
  newestVectorize++;
}

/**
 * Resolves in a new task of this thread's event loop, so messages queued meanwhile (a newer
 * request, a cancel) are handled first. A MessageChannel, not setTimeout(0): nested timers are
 * clamped to 4 ms, and a trace passes 5 to 100 checkpoints.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

async function decodeOnce(bytes: Uint8Array): Promise<{ bytes: Uint8Array; pixels: PixelInput; reused: boolean }> {
  if (lastDecoded && sameBytes(lastDecoded.bytes, bytes)) return { ...lastDecoded, reused: true };
  // A PNG's image data inflated by the browser's own zlib first (the same bytes as fflate's).
  await preparePngInflate(bytes);
  const pixels = await decodeBytes(bytes);
  // Kept as given, not copied: every caller hands its array over (the worker's entry points get
  // it transferred from the page, and nothing here transfers it on or writes into it), and a copy
  // stayed alive beside it for as long as the image did (4 MB for a 2-MP photo's PNG).
  lastDecoded = { bytes, pixels };
  return { ...lastDecoded, reused: false };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The trace of `bytes` under `plan`: from the cache when only output options changed.
 * `beforeTrace` runs first when the trace is not cached (the draft of a large image).
 */
async function traceOnce(
  plan: VectorizePlan,
  bytes: Uint8Array,
  onStage: ((stage: EngineStage, index: number) => void) | undefined,
  runner: JobRunner | undefined,
  beforeTrace?: () => Promise<void>,
  checkpoint?: () => Promise<void>,
): Promise<{ result: TraceResult; reused: boolean; reusedDecode: boolean; reusedStages: readonly string[] }> {
  const engineKey = traceKey(plan);
  if (lastTrace && lastTrace.engineKey === engineKey && sameBytes(lastTrace.bytes, bytes)) {
    return { result: lastTrace.result, reused: true, reusedDecode: true, reusedStages: ENGINE_STAGES };
  }
  if (beforeTrace) {
    await beforeTrace();
    await checkpoint?.();
  }
  const decoded = await decodeOnce(bytes);
  const hooks = { memo, scratch, ...(onStage ? { onStage } : {}), ...(checkpoint ? { checkpoint } : {}) };
  const result = await tracePixels(plan, decoded.pixels, hooks, runner);
  lastTrace = { bytes: decoded.bytes, engineKey, result };
  return { result, reused: false, reusedDecode: decoded.reused, reusedStages: result.stats.reusedStages ?? [] };
}

/** Forgets the cached trace and decoded image (tests; a worker that changes image). */
export function forgetLastTrace(): void {
  lastTrace = undefined;
  lastDecoded = undefined;
  memo = new TraceMemo();
}

/**
 * The browser's own codecs for what is only shown on screen (src/worker/preview-codec.ts; tests
 * pass one): a draft's pixels and the PNG of a draft or of a large result's preview.
 * `shrink` returns the image shrunk to about `targetPixels`, or undefined when it has no more
 * than `minInputPixels` (or cannot be read: the full trace then reports the error).
 */
export interface PreviewCodec {
  shrink(bytes: Uint8Array, targetPixels: number, minInputPixels: number): Promise<{ pixels: PixelInput; inputWidth: number; inputHeight: number } | undefined>;
  /** A plan painted as PNG bytes at its own size (a draft, or a large result's 1× preview). */
  paint(plan: OutputPlan): Promise<TraceDraft>;
}

/**
 * With `previewCodec` and `onProgress`, an image above DRAFT_ABOVE_PIXELS whose trace is not cached
 * first reports a draft (progress step 'draft'), then traces in full; with `previewCodec`, a large
 * result's preview PNG is painted by it instead of Tracelab's own rasteriser and PNG writer.
 *
 * One call runs at a time. A newer call supersedes the running one, which stops at its next
 * checkpoint (between the engine's data-parallel steps, after the draft, before writing) and
 * rejects with TraceSupersededError; the newer call then starts with every stage group the older
 * one finished in the memo and the image already decoded (so a quick second change is a warm
 * retrace, not a cold start in a fresh worker).
 */
export async function vectorizeInWorker(
  bytes: Uint8Array,
  fields: Iterable<readonly [string, string]>,
  onProgress?: (progress: TraceProgress) => void,
  runner?: JobRunner,
  previewCodec?: PreviewCodec,
): Promise<VectorizeResult> {
  const call = ++newestVectorize;
  const previous = vectorizeRunning;
  let stopped!: () => void;
  vectorizeRunning = new Promise((resolve) => (stopped = resolve));
  try {
    await previous;
    const stopIfSuperseded = (): void => {
      if (call !== newestVectorize) throw new TraceSupersededError();
    };
    stopIfSuperseded(); // a newer call arrived while the older one was stopping
    const checkpoint = async (): Promise<void> => {
      await nextTask();
      stopIfSuperseded();
    };
    return await vectorizeOnce(bytes, fields, onProgress, runner, previewCodec, checkpoint);
  } finally {
    stopped();
  }
}

async function vectorizeOnce(
  bytes: Uint8Array,
  fields: Iterable<readonly [string, string]>,
  onProgress: ((progress: TraceProgress) => void) | undefined,
  runner: JobRunner | undefined,
  previewCodec: PreviewCodec | undefined,
  checkpoint: () => Promise<void>,
): Promise<VectorizeResult> {
  const start = performance.now();
  // Options first: a bad parameter fails before any pixel is decoded (as the CLI does).
  const plan = planPreview(fields);
  // Then the header: too many pixels (1013) or an unreadable header (1006) fails before anything
  // is decoded. The draft below decodes all of a large image with the browser's codec first: an
  // 8000 × 8000 PNG showed "decode" for 6–34 s before its 1013 (issue 29).
  await readImageHeader(bytes);
  // Steps: decode, the engine's stages, write. Reported after each engine stage.
  const steps = ENGINE_STAGES.length + 2;
  onProgress?.({ step: 'decode', fraction: 0 });
  const draft = onProgress && previewCodec ? () => sendDraft(plan, bytes, previewCodec, onProgress) : undefined;
  const { result, reused, reusedDecode, reusedStages } = await traceOnce(
    plan,
    bytes,
    (stage, index) => onProgress?.({ step: stage, fraction: (index + 2) / steps }),
    runner,
    draft,
    checkpoint,
  );
  if (!reused) await checkpoint();
  const outputPlan = buildPlan(result, plan.outputOptions);
  const body = await writePlanFile(outputPlan);
  const svg = new TextDecoder().decode(body);
  // The library's summary (pipeline.ts): the same counting rule, read from the plan just written.
  const summary = summarize(result, outputPlan);
  // The preview PNG is 1× the input: what the fitted viewer shows; zoomed in, the viewer asks for
  // the visible part again at screen resolution (renderViewInWorker).
  let previewPng: Uint8Array | null = null;
  if (body.length > LARGE_SVG_BYTES) {
    const pngPlan = previewPlan(result, plan);
    previewPng = previewCodec ? (await previewCodec.paint(pngPlan)).png : writePlanPng(pngPlan);
  }
  return {
    svg,
    svgBytes: body,
    previewPng,
    stats: {
      profile: summary.profile,
      profileReason: summary.profileReason,
      colors: summary.colors,
      regions: summary.regions,
      shapes: summary.shapes,
      bytes: body.length,
      nodes: summary.nodes,
      ...(summary.strokes ? { strokes: summary.strokes } : {}),
      ...gradientCounts(summary),
      palette: resultPalette(result),
      ...resultGradients(result),
      ...rerunFrom(reused, reusedStages),
    },
    width: result.inputWidth,
    height: result.inputHeight,
    ms: Math.round((performance.now() - start) * 10) / 10,
    reusedTrace: reused,
    reusedDecode,
    reusedStages,
  };
}

/** The first step run again after a reuse (see VectorizeStats.rerunFrom), as a spreadable field. */
function rerunFrom(reusedTrace: boolean, reusedStages: readonly string[]): { rerunFrom?: string } {
  if (reusedTrace) return { rerunFrom: 'write' };
  if (reusedStages.length === 0) return {};
  const first = ENGINE_STAGES.find((stage) => !reusedStages.includes(stage));
  return { rerunFrom: first ?? 'write' };
}

/**
 * Reports a draft of an image above DRAFT_ABOVE_PIXELS: the image shrunk to DRAFT_PIXELS by the
 * codec, traced with the same options and rendered at that size (the viewer scales it up). A
 * small fraction of the full trace's time; the full trace follows in the same call. A draft
 * that fails is skipped: the full trace reports any real error.
 */
async function sendDraft(plan: VectorizePlan, bytes: Uint8Array, codec: PreviewCodec, onProgress: (progress: TraceProgress) => void): Promise<void> {
  try {
    const small = await codec.shrink(bytes, DRAFT_PIXELS, DRAFT_ABOVE_PIXELS);
    if (!small) return;
    const traced = await tracePixels(plan, small.pixels, { scratch });
    onProgress({ step: 'draft', fraction: 0.1, draft: await codec.paint(previewPlan(traced, plan)) });
  } catch {
    // no draft
  }
}

/** The preview's plan: always SVG (shown through <img>); files in other formats come from exportInWorker. */
function planPreview(fields: Iterable<readonly [string, string]>): VectorizePlan {
  return planVectorize([...fields].filter(([name]) => name !== 'output.file_format'));
}

/** The plan of a large result's preview PNG: the current output options at the input's size. */
function previewPlan(result: TraceResult, plan: VectorizePlan): OutputPlan {
  return buildPlan(result, { ...plan.outputOptions, fileFormat: 'png', size: { ...DEFAULT_OUTPUT_OPTIONS.size, scale: 1 } });
}

/**
 * The part of a large result the zoomed viewer shows, rendered at screen resolution (issue 17:
 * the 1× preview PNG turned into a soft bitmap at 16×). `view` is in input pixels with the zoom in
 * output pixels per input pixel; the trace is this worker's last one (the preview's), so nothing
 * is traced again unless the options changed meanwhile. Out: straight-alpha RGBA rows.
 */
export async function renderViewInWorker(
  bytes: Uint8Array,
  fields: Iterable<readonly [string, string]>,
  view: RenderWindow,
  runner?: JobRunner,
): Promise<ViewRender> {
  const plan = planPreview(fields);
  const { result } = await traceOnce(plan, bytes, undefined, runner);
  const { rgba, width, height } = renderPlan(previewPlan(result, plan), { window: view });
  return { rgba, width, height, view };
}

/**
 * The last preview's result as outlines (the viewer's outline mode), from this worker's last
 * trace like renderViewInWorker. Written on request: with every result it was a second SVG
 * document of the same size (tens of milliseconds of each output change on a photo, and its
 * megabytes copied to the page) that only the outline mode shows. For pen strokes
 * (tracelab.strokes=centerline) the outline mode is the plot preview (plot-preview.ts). Outlines
 * whose SVG is over LARGE_SVG_BYTES come painted by `previewCodec` as a PNG at the input's size
 * (OutlineView).
 */
export async function renderOutlineInWorker(
  bytes: Uint8Array,
  fields: Iterable<readonly [string, string]>,
  runner?: JobRunner,
  previewCodec?: PreviewCodec,
): Promise<OutlineView> {
  const plan = planPreview(fields);
  const { result } = await traceOnce(plan, bytes, undefined, runner);
  // Pen strokes (tracelab.strokes): the plot preview, the pen's paths in order and its moves between them.
  if (result.strokes && result.strokes.length > 0) return svgView(plotPreviewSvg(result, plan.outputOptions));
  const outlineOptions = { ...plan.outputOptions, drawStyle: 'stroke_shapes', strokes: { strokeWidthPx: 1, nonScalingStroke: true } } as const;
  const svg = writeSvgBytes(buildPlan(result, { ...outlineOptions, fileFormat: 'svg' }));
  // A large SVG is shown as the browser's painting of the same outlines, 1 px wide at the input's size.
  if (svg.length <= LARGE_SVG_BYTES || !previewCodec) return { body: svg, contentType: 'image/svg+xml' };
  const pngPlan = buildPlan(result, { ...outlineOptions, fileFormat: 'png', size: { ...DEFAULT_OUTPUT_OPTIONS.size, scale: 1 } });
  return { body: (await previewCodec.paint(pngPlan)).png, contentType: 'image/png' };
}

function svgView(svg: string): OutlineView {
  return { body: new TextEncoder().encode(svg), contentType: 'image/svg+xml' };
}

/** The file in the requested `output.file_format` (downloads). */
export async function exportInWorker(bytes: Uint8Array, fields: Iterable<readonly [string, string]>, runner?: JobRunner): Promise<ExportResult> {
  const start = performance.now();
  const plan = planVectorize(fields);
  // Another format of the same trace (a download after the preview) is written, not traced again.
  const { result } = await traceOnce(plan, bytes, undefined, runner);
  const body = await writeFile(result, plan.outputOptions);
  return { body, ...FILE_FORMAT_MEDIA[plan.outputOptions.fileFormat], ms: Math.round((performance.now() - start) * 10) / 10 };
}

/** The result's flat colours (shapes without a gradient), largest total area first (ties: by colour). */
export function resultPalette(result: TraceResult): PaletteEntry[] {
  const byHex = new Map<string, { areaPx: number; shapes: number }>();
  for (const s of result.shapes) {
    if (s.gradient) continue;
    const hex = formatHexColor(s.color);
    const e = byHex.get(hex) ?? { areaPx: 0, shapes: 0 };
    e.areaPx += s.areaPx;
    e.shapes += 1;
    byHex.set(hex, e);
  }
  return [...byHex].map(([hex, e]) => ({ hex, ...e })).sort((a, b) => b.areaPx - a.areaPx || (a.hex < b.hex ? -1 : 1));
}

/**
 * The result's gradient fills, one entry per ramp (kind and stops), largest total area first
 * (ties: by ramp), as a spreadable field: `{ gradientFills }`, or nothing when no shape has one.
 */
export function resultGradients(result: TraceResult): { gradientFills?: GradientEntry[] } {
  const byRamp = new Map<string, GradientEntry & { areaPx: number; shapes: number }>();
  for (const s of result.shapes) {
    if (!s.gradient) continue;
    const stops = s.gradient.stops.map((stop) => ({ offset: stop.offset, hex: formatHexColor({ ...stop.color, a: 255 }) }));
    const key = `${s.gradient.kind} ${stops.map((stop) => `${stop.offset} ${stop.hex}`).join(' ')}`;
    const entry = byRamp.get(key) ?? { kind: s.gradient.kind, stops, areaPx: 0, shapes: 0 };
    entry.areaPx += s.areaPx;
    entry.shapes += 1;
    byRamp.set(key, entry);
  }
  if (byRamp.size === 0) return {};
  const sorted = [...byRamp].sort(([ka, a], [kb, b]) => b.areaPx - a.areaPx || (ka < kb ? -1 : 1));
  return { gradientFills: sorted.map(([, entry]) => entry) };
}

export { toErrorPayload } from './protocol.js';
