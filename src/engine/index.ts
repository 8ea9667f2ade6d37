/**
 * Tracelab engine: bitmap in, shapes out. Pure and deterministic (no DOM, no I/O, no clocks in
 * the result). Pipeline, one module per stage:
 *   0 resize    shrink to input.max_pixels (area average)
 *   1 profile   pixel art / flat art / photo / line art, from evidence (profile.ts), or as
 *               tracelab.profile forces it (EngineParams.profile)
 *   2 palette   flat-pixel histogram → Lab leader clustering → k-means → max_colors → palette rules
 *   3 label     nearest colour; edge pixels as two-colour blends
 *   4 regions   4-connected components; despeckle by min_area_px
 *   4b shading  smoothly shaded areas: one region with a gradient (tracelab.gradients) or a few
 *               clean bands (shading.ts)
 *   5 boundary  shared chain graph and per-region loops
 *   6 subpixel  chain samples on the lattice (pixel art) or moved by edge coverage
 *   7 fit       corners, lines / quadratics / cubics / arcs within a pixel tolerance; isolated
 *               closed chains as parameterized shapes (circle, ellipse, rectangle, quadrilateral,
 *               bullet, triangle, star: primitives.ts)
 * Stages 0, 1, 3, 4 (links) and 7 are data-parallel jobs (jobs.ts) that traceImageWith spreads
 * over threads; traceImage runs them in line. Same bytes either way.
 *   8 shapes    one outer loop + holes per region; cutouts or stacked
 */
import { buildChainGraph, buildRegionLoops, DX, DY, type ChainGraph } from './boundary.js';
import { rgbToLab } from './color.js';
import { parameterError, unreadableImageError } from './errors.js';
import type { FittedChain } from './fit.js';
import { runJob, shapesFor, splitRange, unpackChains, type EngineJob, type JobOutput, type JobPart, type PackedChains } from './jobs.js';
import { buildPalette, type Palette } from './palette.js';
import { classifyImage, countColors, isAntiAliased, type ProfileFacts } from './profile.js';
import { detectLattice, mapToLattice, type Lattice } from './lattice.js';
import { TraceMemo, type MemoView } from './memo.js';
import { indicesByKey, sortIndicesByKey } from './order.js';
import { despeckle, findRegions, type AreaFloor, type Regions } from './regions.js';
import { applyShading, type Shaded } from './shaded-regions.js';
import { findSmoothAreas } from './shading.js';
import { shrunkSize } from './resize.js';
import type { Chain, ChainUse, EngineParams, Gradient, ImageProfile, Loop, RgbaImage, Rgba, Shape, ShapePrimitive, TraceResult } from './types.js';

export type * from './types.js';
export { TracelabError } from './errors.js';
export { TraceMemo } from './memo.js';
export { runJob, type EngineJob, type EngineJobKind, type JobOutput, type JobPart } from './jobs.js';

/**
 * Despeckle area (px) the engine applies on its own, whatever min_area_px says: photos and
 * noisy (JPEG-damaged, scanned) art produce specks that are noise, not detail. Clean art and
 * pixel art keep every pixel-sized feature.
 */
function automaticSpeckleArea(facts: ProfileFacts, pixelCount: number): number {
  // Photos: specks below ~1/25,000 of the picture (14 px at 0.25 MP, 117 px at 2 MP) are grain,
  // and never less than 5 px: in a thumbnail, 3–4-px specks are grain too (with every colour the
  // palette misses added back, 5 px keeps the small photos' median SSIM and cuts their bytes by
  // a seventh: corpus photos at 96–256 px).
  if (facts.profile === 'photo') return photoSpeckleArea(pixelCount);
  if (isNoisy(facts)) return 6;
  // Line art: specks of a pixel or two are scanning dust (potrace's turdsize 2).
  if (facts.profile === 'lineart') return 2;
  return 0;
}

function photoSpeckleArea(pixelCount: number): number {
  return Math.max(5, pixelCount * 5.6e-5);
}

/**
 * The photo inside a flat picture (profile.ts photoTiles) loses its grain as a whole photo would.
 * Not in line art traced as flat: a scan's small text has few runs too, and its glyphs' counters
 * are smaller than a photo's specks.
 */
function photoAreaFloor(facts: ProfileFacts, pixelCount: number): AreaFloor | undefined {
  return facts.profile === 'flat' && facts.photoTiles.set.includes(1) ? { tiles: facts.photoTiles, minAreaPx: photoSpeckleArea(pixelCount) } : undefined;
}

function isNoisy(facts: ProfileFacts): boolean {
  return facts.profile === 'flat' && facts.noiseShare > NOISY_SHARE;
}
const NOISY_SHARE = 0.04;

/** The engine's stages in order (progress reports name the stage just finished). */
export const ENGINE_STAGES = ['resize', 'profile', 'palette', 'label', 'regions', 'shading', 'boundary', 'fit', 'shapes'] as const;
export type EngineStage = (typeof ENGINE_STAGES)[number];

/** Optional observer of a trace; it never changes the result. */
export interface TraceHooks {
  /** Called after each stage with its name and its index in ENGINE_STAGES. */
  onStage?(stage: EngineStage, index: number): void;
  /**
   * Stage results of the last trace, kept for the next trace of the same picture (memo.ts): the
   * stages the new parameters do not affect are reused. Changes speed, never the result.
   */
  memo?: TraceMemo;
  /**
   * Awaited by traceImageWith before and after each data-parallel step (5 to 12 times a trace,
   * spread over its stages; inLineRunner also awaits it between a large picture's parts; traceImage,
   * which never waits, does not call it). A caller that yields
   * to its event loop here can stop a stale trace: whatever it throws ends the trace with that
   * error, and the stage groups finished so far stay in `memo` for the next trace.
   */
  checkpoint?(): Promise<void>;
}

/**
 * One step the pipeline asks its driver for. `start` hands `job` on its parts to the threads and
 * resumes at once (the pipeline works on in the meantime); the next `finish` waits for those
 * outputs, in the parts' order.
 */
export type PipelineStep = { readonly type: 'start'; readonly job: EngineJob; readonly parts: readonly JobPart[] } | { readonly type: 'finish' };

/** Runs engine jobs somewhere (worker threads, web workers). */
export interface JobRunner {
  /** How many threads it runs jobs on; each parallel stage is cut into a few parts per thread. */
  readonly threads: number;
  /** Images below this many traced pixels run in line (default PARALLEL_MIN_PIXELS). */
  readonly minPixels?: number;
  /** The outputs of `runJob(job, part)` for every part, in the parts' order. */
  run(job: EngineJob, parts: readonly JobPart[]): Promise<JobOutput[]>;
}

/**
 * Images below this many (traced) pixels are not split: moving them to other threads costs more
 * than it saves.
 */
export const PARALLEL_MIN_PIXELS = 500_000;

/** Parts per data-parallel step of an in-line runner with checkpoints (on images of PARALLEL_MIN_PIXELS or more). */
const CHECKPOINTED_PARTS = 4;

/**
 * A runner without threads: traceImageWith(inLineRunner(checkpoint), …) is traceImage with
 * checkpoints. On large images it also cuts each data-parallel step into parts, as for
 * CHECKPOINTED_PARTS threads, and awaits `checkpoint` between them: a 2-MP photo's fit alone ran
 * 1.3–1.4 s between two checkpoints. Same bytes either way (the parts are joined in order).
 */
export function inLineRunner(checkpoint: () => Promise<void>): JobRunner {
  return {
    threads: CHECKPOINTED_PARTS,
    async run(job, parts) {
      const outputs: JobOutput[] = [];
      for (const part of parts) {
        outputs.push(runJob(job, part, true));
        await checkpoint();
      }
      return outputs;
    },
  };
}

/**
 * Traces a bitmap into shapes, in line.
 * @param image RGBA pixels (non-premultiplied).
 * @param params engine parameters (see `toEngineParams` in src/api for the API names).
 * @param hooks progress observer (the page's progress line).
 * @example traceImage({ width, height, data }, DEFAULT_ENGINE_PARAMS).shapes.length
 */
export function traceImage(image: RgbaImage, params: EngineParams, hooks: TraceHooks = {}): TraceResult {
  const steps = tracePipeline(image, params, hooks, 1, Infinity);
  // In line, a started job runs when the pipeline waits for it, so stage timings stay per stage.
  let started: Extract<PipelineStep, { type: 'start' }> | undefined;
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    if (step.type === 'start') {
      started = step;
      next = steps.next(undefined);
    } else {
      const { job, parts } = started!;
      next = steps.next(parts.map((part) => runJob(job, part, true)));
    }
  }
  return next.value;
}

/**
 * Traces a bitmap with the data-parallel stages (shrink, spread, label, links, fit) cut into
 * parts that `runner` spreads over its threads, while the main thread does the serial work that
 * does not wait for them. The result is identical, byte for byte, to `traceImage`'s: only where
 * each part runs differs (see jobs.ts).
 */
export async function traceImageWith(runner: JobRunner, image: RgbaImage, params: EngineParams, hooks: TraceHooks = {}): Promise<TraceResult> {
  const steps = tracePipeline(image, params, hooks, runner.threads, runner.minPixels ?? PARALLEL_MIN_PIXELS);
  let pending: Promise<JobOutput[]> = Promise.resolve([]);
  let next = steps.next();
  try {
    while (!next.done) {
      const step = next.value;
      await hooks.checkpoint?.();
      if (step.type === 'start') {
        const { job, parts } = step;
        // A single part is not worth a round trip to another thread.
        pending = parts.length === 1 ? Promise.resolve([runJob(job, parts[0]!, true)]) : runner.run(job, parts);
        pending.catch(() => undefined); // awaited at 'finish'; never an unhandled rejection meanwhile
        next = steps.next(undefined);
      } else next = steps.next(await pending);
    }
  } finally {
    if (!next.done) steps.return(undefined as never);
  }
  return next.value;
}

/**
 * The pipeline as a generator: it yields each data-parallel step (start … finish) and resumes
 * with the parts' outputs, so the in-line and the threaded drivers share every line of it.
 */
function* tracePipeline(
  image: RgbaImage,
  params: EngineParams,
  hooks: TraceHooks,
  threads: number,
  minPixels: number,
): Generator<PipelineStep, TraceResult, JobOutput[] | undefined> {
  const t0 = now();
  validateInput(image, params);
  // Without a caller's memo, one for this trace: the photo fallback reuses resize and profile.
  const memo = (hooks.memo ?? new TraceMemo()).begin(image);
  // Pixel art shown larger than its pixels: trace one pixel per art pixel, on the lattice.
  // (Stored in a box: "no lattice" is a result too.)
  // A profile forced by tracelab.profile other than 'pixel' overrides this decision too.
  const forced = forcedProfile(params);
  const { lattice } =
    forced !== undefined && forced !== 'pixel'
      ? { lattice: null }
      : (memo.get<{ lattice: Lattice | null }>('lattice', '') ?? memo.set('lattice', '', { lattice: detectLattice(image) }));
  // Timed apart from the stages (it is not a progress step), so the bench accounts for it.
  const latticeMs = now() - t0;
  if (lattice) {
    const cells = lattice.cells;
    const onCells = yield* traceBitmap(cells, { ...params, maxPixels: Math.max(params.maxPixels, cells.width * cells.height) }, hooks, threads, minPixels, memo, {
      profile: 'pixel',
      noisy: lattice.noisy,
      reason:
        forced === 'pixel'
          ? 'chosen by tracelab.profile'
          : `exact upscale: ${image.width} × ${image.height} px is a lattice of ${cells.width} × ${cells.height} cells: pixel art`,
    });
    const t1 = now();
    const mapped = mapToLattice(onCells, lattice, image, shrunkSize(image.width, image.height, params.maxPixels));
    return withStageMs(mapped, { lattice: latticeMs + now() - t1 });
  }
  return withStageMs(yield* traceBitmap(image, params, hooks, threads, minPixels, memo), { lattice: latticeMs });
}

/** The result with more stage timings (ms) in its stats. */
function withStageMs(result: TraceResult, more: Record<string, number>): TraceResult {
  return { ...result, stats: { ...result.stats, stageMs: { ...more, ...result.stats.stageMs } } };
}

/**
 * Regions (before despeckling) above which a picture is traced as photo texture whatever its
 * profile: a dithered 0.14-MP title screen has 35,000; 0.25 MP of random noise 243,000.
 */
export const MAX_TRACED_REGIONS = 120_000;

/** What an earlier look (lattice detection, a region count) already knows about the picture. */
interface KnownKind {
  readonly profile: ImageProfile;
  /** Colours are JPEG-damaged (lattice cell means): near-equal colours are one. */
  readonly noisy: boolean;
  /** Why (TraceStats.profileReason). */
  readonly reason: string;
}

/** The profile tracelab.profile forces, or undefined for 'auto' (classifyImage decides). */
function forcedProfile(params: EngineParams): ImageProfile | undefined {
  return params.profile === undefined || params.profile === 'auto' ? undefined : params.profile;
}

/** Why a forced profile was used (TraceStats.profileReason). */
const FORCED_REASON = 'chosen by tracelab.profile';

/** Resize and profile: depend on the picture and its traced size only. */
interface Prepared {
  readonly traced: RgbaImage;
  readonly spread: Uint8Array;
  readonly facts: ProfileFacts;
}

/** Palette and labels: + the profile, processing.max_colors and processing.palette. */
interface Labelled {
  readonly palette: Palette;
  readonly merged: ReturnType<typeof mergeEqualFills>;
  readonly labels: Int32Array;
  readonly links: Uint8Array | undefined;
  /** Set once the labels are known to make more than MAX_TRACED_REGIONS regions. */
  tooMany: boolean;
}

/** Regions and their boundaries: + the speckle area and tracelab.gradients. */
interface Outlined {
  readonly regions: Regions;
  /** The smoothly shaded areas' new regions (absent when the picture has none). */
  readonly shaded: Shaded | undefined;
  /** Smooth areas found. */
  readonly smoothAreas: number;
  readonly graph: ChainGraph;
  readonly loops: ReturnType<typeof buildRegionLoops>;
  readonly parentOf: Int32Array;
}

function* traceBitmap(
  image: RgbaImage,
  params: EngineParams,
  hooks: TraceHooks,
  threads: number,
  minPixels: number,
  memo: MemoView,
  known?: KnownKind,
): Generator<PipelineStep, TraceResult, JobOutput[] | undefined> {
  const stageMs: Record<string, number> = {};
  const reusedStages: EngineStage[] = [];
  let t = now();
  const lap = (name: EngineStage, reused = false): void => {
    const t2 = now();
    stageMs[name] = t2 - t;
    t = t2;
    if (reused) reusedStages.push(name);
    hooks.onStage?.(name, ENGINE_STAGES.indexOf(name));
  };
  const target = shrunkSize(image.width, image.height, params.maxPixels);
  const width = target ? target.width : image.width;
  const height = target ? target.height : image.height;
  const split = threads > 1 && width * height >= minPixels ? threads : 1;
  // A few bands per thread, so a slow band does not leave a thread idle.
  const rowParts = (rows: number): JobPart[] => (split === 1 ? [{ from: 0, to: rows }] : splitRange(rows, split * 4));

  // Each stage group is looked up in the memo under a key naming everything it depends on
  // (the picture itself is the memo's); the key of a later group extends the earlier one's.
  const preparedKey = `${width}x${height}`;
  let prepared = memo.get<Prepared>('prepared', preparedKey);
  if (prepared) {
    lap('resize', true);
    lap('profile', true);
  } else {
    let data = image.data;
    if (target) {
      yield { type: 'start', job: { kind: 'shrink', image, outWidth: width, outHeight: height }, parts: rowParts(height) };
      data = joinRows((yield { type: 'finish' })!, width * height * 4, bytes);
    }
    const traced: RgbaImage = { width, height, data };
    lap('resize');
    yield { type: 'start', job: { kind: 'spread', image: traced }, parts: rowParts(height) };
    const colors = countColors(data, width * height); // needs no spread: runs meanwhile
    const spread = joinRows((yield { type: 'finish' })!, width * height, bytes);
    prepared = memo.set('prepared', preparedKey, { traced, spread, facts: classifyImage(data, width, height, spread, colors) });
    lap('profile');
  }
  const { traced, spread } = prepared;
  const data = traced.data;
  // What decided the profile: an earlier look (lattice, region count), tracelab.profile, or the
  // evidence classifyImage measured.
  const forced = forcedProfile(params);
  const facts: ProfileFacts = known
    ? { ...prepared.facts, profile: known.profile, reason: known.reason }
    : forced !== undefined
      ? { ...prepared.facts, profile: forced, reason: FORCED_REASON }
      : prepared.facts;
  // How the picture is traced: anti-aliased line art (ink and paper with blended edges) is traced
  // as flat art is, with sub-pixel edges; only hard-edged line art (two colours, or more when
  // tracelab.profile forces it) takes the potrace-style route: outline polygons read the
  // staircase of hard edges; on blended edges they fit worse than the coverage does.
  const tracing: ProfileFacts = facts.profile === 'lineart' && isAntiAliased(facts) ? { ...facts, profile: 'flat' } : facts;
  const noisy = known ? known.noisy : isNoisy(tracing);

  const labelKey = `${preparedKey}|${facts.profile}|${noisy}|${params.maxColors}|${JSON.stringify(params.palette)}`;
  // One slot per profile: noise first labelled as flat art keeps both labellings.
  const labelSlot = `labels:${facts.profile}`;
  let labelled = memo.get<Labelled>(labelSlot, labelKey);
  if (labelled) {
    lap('palette', true);
    lap('label', true);
  } else {
    const palette = buildPalette(data, width, height, { profile: tracing.profile, noisy, spread, maxColors: params.maxColors, rules: params.palette });
    const merged = mergeEqualFills(palette);
    lap('palette');
    yield { type: 'start', job: { kind: 'label', image: traced, palette, exactColors: facts.profile === 'pixel', edgeShades: facts.profile !== 'photo', spread, finalOf: merged.finalOf }, parts: rowParts(height) };
    const labels = joinRows((yield { type: 'finish' })!, width * height, (n) => new Int32Array(n));
    lap('label');
    // Pixel art stays 4-connected and lattice-exact; elsewhere thin diagonal strokes stay whole.
    let links: Uint8Array | undefined;
    if (facts.profile !== 'pixel') {
      yield { type: 'start', job: { kind: 'links', labels, width, height }, parts: rowParts(height + 1) };
      links = joinRows((yield { type: 'finish' })!, (width + 1) * (height + 1), bytes);
    }
    labelled = memo.set<Labelled>(labelSlot, labelKey, { palette, merged, labels, links, tooMany: false });
  }
  const { palette, labels, links } = labelled;
  const { fills, labelLab, labelColor } = labelled.merged;
  // Noise (every pixel its own region) would cost gigabytes and minutes to trace shape by shape
  // and give a file no one wants: above this many regions the picture is traced as photo texture.
  const asPhoto = (): Generator<PipelineStep, TraceResult, JobOutput[] | undefined> =>
    traceBitmap(image, params, hooks, threads, minPixels, memo, {
      profile: 'photo',
      noisy: false,
      reason: `${facts.profile === 'pixel' && forced === 'pixel' ? 'tracelab.profile chose pixel art, but its' : 'its'} colours make over ${MAX_TRACED_REGIONS.toLocaleString('en-US')} regions: traced as a photo`,
    });
  if (labelled.tooMany) return yield* asPhoto();

  const minArea = Math.max(params.minAreaPx, automaticSpeckleArea(tracing, width * height));
  const gradients = params.gradients === true;
  const outlineKey = `${labelKey}|${minArea}|${gradients}`;
  const outlineSlot = `outline:${facts.profile}`;
  let outlined = memo.get<Outlined>(outlineSlot, outlineKey);
  const outlineReused = outlined !== undefined;
  let regions: Regions;
  let shaded: Shaded | undefined;
  let smoothAreas = 0;
  if (outlined) {
    regions = outlined.regions;
    shaded = outlined.shaded;
    smoothAreas = outlined.smoothAreas;
    lap('regions', true);
    lap('shading', true);
  } else {
    const found = findRegions(labels, width, height, links);
    if (found.count > MAX_TRACED_REGIONS && facts.profile !== 'photo') {
      labelled.tooMany = true;
      return yield* asPhoto();
    }
    regions = despeckle(found, width, height, minArea, labelLab, links, photoAreaFloor(facts, width * height));
    lap('regions');
    // Smooth shading: pixel art keeps its exact lattice colours; processing.palette fixes the
    // output colours exactly, and a processing.max_colors budget is for flat colours (bands
    // would add colours beyond it; gradient fills are not counted in it).
    if ((tracing.profile === 'flat' || tracing.profile === 'photo') && params.palette.length === 0 && (params.maxColors === 0 || gradients)) {
      const input = { data, width, height, regions, regionColor: regionColors(regions, labelColor), photo: facts.profile === 'photo' };
      const shading = findSmoothAreas(input);
      if (shading.areas.length > 0) {
        shaded = applyShading(input, shading, gradients, fills.length);
        regions = shaded.regions;
        smoothAreas = shading.areas.length;
      }
    }
    lap('shading');
  }
  const allFills = shaded ? [...fills, ...shaded.extraFill] : fills;
  const allColors = shaded ? concatColors(labelColor, shaded.extraColor) : labelColor;
  const graph = outlined ? outlined.graph : buildChainGraph(regions.regionOf, width, height, tracing.profile === 'lineart' ? links : undefined);

  const shapeSwitches = shapesFor(tracing.profile, params.parameterizedShapes);
  const fitKey = `${outlineKey}|${JSON.stringify(shapeSwitches)}`;
  const fitSlot = `fit:${facts.profile}`;
  let fitted = memo.get<ReturnType<typeof toChains>>(fitSlot, fitKey);
  if (!fitted) {
    const regionColor = regionColors(regions, allColors);
    // Chains cut by their length in steps, a fair measure of the work of fitting them.
    const chainParts = split === 1 ? [{ from: 0, to: graph.count }] : splitRange(graph.count, split * 8, (c) => graph.dirStart[c]! + c * 8);
    // Colours a palette rule deleted leave opaque pixels behind their region's edge: their observed
    // colours let sub-pixel edges measure coverage against them (alpha alone says "fully covered").
    const deletedColor = deletedColors(palette);
    const context = {
      data,
      width,
      height,
      regionColor,
      regionOf: regions.regionOf,
      ...(links ? { links } : {}),
      ...((tracing.profile === 'flat' || tracing.profile === 'photo') && facts.hardTiles.set.includes(1) ? { hardTiles: facts.hardTiles } : {}),
      ...(facts.profile === 'flat' && facts.photoTiles.set.includes(1) ? { photoTiles: facts.photoTiles } : {}),
      ...(deletedColor.length > 0 ? { deletedColor } : {}),
      ...(shaded ? { ramps: shaded.ramps } : {}),
    };
    yield { type: 'start', job: { kind: 'fit', graph, profile: tracing.profile, shapes: shapeSwitches, context }, parts: chainParts };
  }
  // Loops and nesting need the chain graph only, not the fitted curves: built while chains fit.
  if (!outlined) {
    const loops = buildRegionLoops(graph, regions.regionOf, width, height, regions.count, links);
    outlined = memo.set<Outlined>(outlineSlot, outlineKey, { regions, shaded, smoothAreas, graph, loops, parentOf: containingRegions(regions.count, loops, graph) });
  }
  const enclosedVoid = params.shapeStacking === 'stacked' ? (memo.get<EnclosedVoid>('void', outlineKey) ?? memo.set('void', outlineKey, enclosedVoidPoints(regions.regionOf, width, height))) : [];
  lap('boundary', outlineReused);
  if (fitted) lap('fit', true);
  else {
    fitted = memo.set(fitSlot, fitKey, toChains(graph, ((yield { type: 'finish' }) as (PackedChains | FittedChain[])[]).map(unpackChains)));
    lap('fit');
  }
  const { chains, primitives } = fitted;
  const shapes = assembleShapes(regions, outlined.loops, graph, allFills, params, primitives, outlined.parentOf, enclosedVoid, shaded?.gradientOf);
  lap('shapes');
  let gradientShapes = 0;
  for (const shape of shapes) if (shape.gradient) gradientShapes++;
  return {
    width,
    height,
    inputWidth: image.width,
    inputHeight: image.height,
    shapeStacking: params.shapeStacking,
    chains,
    shapes,
    stats: {
      colors: countFlatColors(shapes, fills.length, shaded !== undefined),
      ...(gradientShapes > 0 ? { gradients: gradientShapes } : {}),
      ...(smoothAreas > 0 ? { smoothAreas } : {}),
      regions: regions.count,
      chains: chains.length,
      profile: facts.profile,
      profileReason: facts.reason,
      stageMs,
      ...(reusedStages.length > 0 ? { reusedStages } : {}),
    },
  };
}

type EnclosedVoid = ReturnType<typeof enclosedVoidPoints>;

/** Observed colour per region (r, g, b) from its label's. */
function regionColors(regions: Regions, labelColor: Float64Array): Float64Array {
  const regionColor = new Float64Array(regions.count * 3);
  for (let r = 0; r < regions.count; r++) {
    const l = regions.labelOf[r]!;
    regionColor[r * 3] = labelColor[l * 3]!;
    regionColor[r * 3 + 1] = labelColor[l * 3 + 1]!;
    regionColor[r * 3 + 2] = labelColor[l * 3 + 2]!;
  }
  return regionColor;
}

function concatColors(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/**
 * Distinct flat fill colours of the result: the palette's, or — once smooth areas replaced some
 * of its shades — those the shapes still use (gradient shapes not counted).
 */
function countFlatColors(shapes: readonly Shape[], paletteFills: number, shaded: boolean): number {
  if (!shaded) return paletteFills;
  const seen = new Set<number>();
  for (const s of shapes) if (!s.gradient) seen.add(s.color.r * 16777216 + (s.color.g << 16) + (s.color.b << 8) + s.color.a);
  return seen.size;
}

/** Row bands joined in order into one array of `length` (no copy for a single band). */
function joinRows<T extends Uint8Array | Int32Array>(parts: readonly JobOutput[], length: number, make: (length: number) => T): T {
  if (parts.length === 1) return parts[0] as T;
  const out = make(length);
  let at = 0;
  for (const part of parts as T[]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const bytes = (length: number): Uint8Array => new Uint8Array(length);

/** Fitted chains (in chain order, over all parts) with each chain's regions from the graph. */
function toChains(graph: ChainGraph, parts: readonly FittedChain[][]): { chains: Chain[]; primitives: (ShapePrimitive | undefined)[] } {
  const chains: Chain[] = [];
  const primitives: (ShapePrimitive | undefined)[] = [];
  for (const part of parts) {
    for (const fitted of part) {
      const c = chains.length;
      primitives.push(fitted.primitive);
      chains.push({
        startX: fitted.startX,
        startY: fitted.startY,
        segments: fitted.segments,
        leftRegion: graph.left[c]!,
        rightRegion: graph.right[c]!,
        closed: graph.closed[c] === 1,
      });
    }
  }
  return { chains, primitives };
}

/** Stage timings only feed stats (never the output), so the clock does not break determinism. */
function now(): number {
  const clock = (globalThis as { performance?: { now(): number } }).performance;
  return clock ? clock.now() : 0;
}

function validateInput(image: RgbaImage, params: EngineParams): void {
  if (!(image.width > 0 && image.height > 0) || !Number.isInteger(image.width) || !Number.isInteger(image.height)) {
    throw unreadableImageError(`image has no pixels (${image.width}×${image.height})`);
  }
  if (image.data.length !== image.width * image.height * 4) {
    throw unreadableImageError(`pixel buffer holds ${image.data.length} bytes, expected ${image.width * image.height * 4}`);
  }
  if (!(params.maxColors >= 0 && params.maxColors <= 256) || !Number.isInteger(params.maxColors)) {
    throw parameterError(`processing.max_colors must be an integer from 0 to 256; received ${params.maxColors}`);
  }
  if (!(params.maxPixels >= 100)) throw parameterError(`input.max_pixels must be at least 100; received ${params.maxPixels}`);
  if (!(params.minAreaPx >= 0)) throw parameterError(`processing.shapes.min_area_px must be ≥ 0; received ${params.minAreaPx}`);
}

/** Observed r, g, b of each colour the palette rules deleted (fill null), in palette order. */
function deletedColors(palette: Palette): Float64Array {
  const out: number[] = [];
  for (let k = 0; k < palette.size; k++) {
    if (palette.fill[k]) continue;
    out.push(palette.observed[k * 3]!, palette.observed[k * 3 + 1]!, palette.observed[k * 3 + 2]!);
  }
  return Float64Array.from(out);
}

/**
 * Clusters whose output colours are equal after the palette rules become one label, so their
 * pixels form one region; deleted colours map to -1 (transparent).
 */
function mergeEqualFills(palette: Palette): { finalOf: Int32Array; fills: Rgba[]; labelLab: Float64Array; labelColor: Float64Array } {
  const finalOf = new Int32Array(palette.size);
  const fills: Rgba[] = [];
  const byKey = new Map<number, number>();
  const firstCluster: number[] = [];
  for (let k = 0; k < palette.size; k++) {
    const fill = palette.fill[k];
    if (!fill) {
      finalOf[k] = -1;
      continue;
    }
    const key = fill.r * 16777216 + (fill.g << 16) + (fill.b << 8) + fill.a;
    let label = byKey.get(key);
    if (label === undefined) {
      label = fills.length;
      byKey.set(key, label);
      fills.push(fill);
      firstCluster.push(k);
    }
    finalOf[k] = label;
  }
  const labelLab = new Float64Array(fills.length * 3);
  const labelColor = new Float64Array(fills.length * 3);
  for (let l = 0; l < fills.length; l++) {
    const k = firstCluster[l]!;
    labelColor[l * 3] = palette.observed[k * 3]!;
    labelColor[l * 3 + 1] = palette.observed[k * 3 + 1]!;
    labelColor[l * 3 + 2] = palette.observed[k * 3 + 2]!;
    rgbToLab(labelColor[l * 3]!, labelColor[l * 3 + 1]!, labelColor[l * 3 + 2]!, labelLab, l * 3);
  }
  return { finalOf, fills, labelLab, labelColor };
}

function decodeUse(use: number): ChainUse {
  return { chain: use >> 1, reversed: (use & 1) === 1 };
}

function assembleShapes(
  regions: Regions,
  loops: ReturnType<typeof buildRegionLoops>,
  graph: ChainGraph,
  fills: readonly Rgba[],
  params: EngineParams,
  primitives: readonly (ShapePrimitive | undefined)[],
  parentOf: Int32Array,
  enclosedVoid: readonly (readonly [number, number])[],
  gradientOf: readonly (Gradient | undefined)[] | undefined,
): Shape[] {
  const shapes: Shape[] = [];
  const outerAreas: number[] = [];
  for (let r = 0; r < regions.count; r++) {
    const regionLoops = loops.loops[r]!;
    const areas = loops.loopArea[r]!;
    let outerIndex = -1;
    for (let i = 0; i < regionLoops.length; i++) if (areas[i]! < 0 && (outerIndex < 0 || areas[i]! < areas[outerIndex]!)) outerIndex = i;
    if (outerIndex < 0) continue;
    const holes: Loop[] = [];
    for (let i = 0; i < regionLoops.length; i++) {
      if (i === outerIndex) continue;
      const hole = regionLoops[i]!;
      // Stacked: a hole is drawn only where something transparent shows through it; every other
      // hole is covered by the shapes stacked above.
      if (params.shapeStacking === 'stacked' && !enclosesVoid(graph, hole, enclosedVoid)) continue;
      holes.push(hole.map(decodeUse));
    }
    const outer = regionLoops[outerIndex]!.map(decodeUse);
    const primitive = outer.length === 1 && holes.length === 0 ? primitives[outer[0]!.chain] : undefined;
    const gradient = gradientOf?.[r];
    shapes.push({
      region: r,
      color: fills[regions.labelOf[r]!]!,
      ...(gradient ? { gradient } : {}),
      outer,
      holes,
      areaPx: regions.area[r]!,
      parent: parentOf[r]!,
      ...(primitive ? { primitive } : {}),
    });
    outerAreas.push(-areas[outerIndex]!);
  }
  // Bottom first: a region inside another's hole always has a smaller outer area. Shapes were
  // listed by region, so ties by index are ties by region.
  const ordered: Shape[] = [];
  for (const i of indicesByKey(outerAreas, true)) ordered.push(shapes[i]!);
  return ordered;
}

/** True when one of the transparent points (x, y) lies inside the loop. */
function enclosesVoid(graph: ChainGraph, loop: readonly number[], points: readonly (readonly [number, number])[]): boolean {
  for (const [x, y] of points) if (loopContains(graph, loop, x, y)) return true;
  return false;
}

/**
 * The region whose hole each region lies in (the smallest containing shape), or -1.
 * Containers are taken smallest first; from each of their holes a walk over the region adjacency
 * (shared chains) claims every region inside that no smaller container has claimed yet. A claimed
 * region is not walked through: what lies beyond it is inside one of its own holes.
 */
function containingRegions(count: number, loops: ReturnType<typeof buildRegionLoops>, graph: ChainGraph): Int32Array {
  const parent = new Int32Array(count).fill(-1);
  const adjacency: number[][] = [];
  for (let r = 0; r < count; r++) adjacency.push([]);
  for (let c = 0; c < graph.count; c++) {
    const a = graph.left[c]!;
    const b = graph.right[c]!;
    if (a >= 0 && b >= 0 && a !== b) {
      adjacency[a]!.push(b);
      adjacency[b]!.push(a);
    }
  }
  const outerArea = new Float64Array(count);
  const containers: number[] = [];
  for (let r = 0; r < count; r++) {
    const areas = loops.loopArea[r]!;
    let outer = 0;
    let holes = 0;
    for (const a of areas) {
      if (a < outer) outer = a;
      if (a > 0) holes++;
    }
    outerArea[r] = -outer;
    if (holes > 0) containers.push(r);
  }
  sortIndicesByKey(containers, outerArea, false);
  const stack: number[] = [];
  for (const t of containers) {
    const regionLoops = loops.loops[t]!;
    const areas = loops.loopArea[t]!;
    for (let i = 0; i < regionLoops.length; i++) {
      if (!(areas[i]! > 0)) continue;
      for (const use of regionLoops[i]!) {
        const c = use >> 1;
        const inside = graph.left[c] === t ? graph.right[c]! : graph.left[c]!;
        if (inside >= 0 && inside !== t && parent[inside] === -1) {
          parent[inside] = t;
          stack.push(inside);
        }
      }
    }
    while (stack.length > 0) {
      const r = stack.pop()!;
      for (const n of adjacency[r]!) {
        if (n === t || parent[n] !== -1 || outerArea[n]! >= outerArea[t]!) continue;
        parent[n] = t;
        stack.push(n);
      }
    }
  }
  return parent;
}

/** One pixel centre per transparent component that does not touch the image border. */
function enclosedVoidPoints(regionOf: Int32Array, width: number, height: number): [number, number][] {
  const mask = new Int32Array(regionOf.length);
  for (let i = 0; i < regionOf.length; i++) mask[i] = regionOf[i]! < 0 ? 0 : -1;
  const voids = findRegions(mask, width, height);
  const touchesBorder = new Uint8Array(voids.count);
  const point: ([number, number] | undefined)[] = new Array(voids.count);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = voids.regionOf[y * width + x]!;
      if (v < 0) continue;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) touchesBorder[v] = 1;
      if (!point[v]) point[v] = [x + 0.5, y + 0.5];
    }
  }
  const out: [number, number][] = [];
  for (let v = 0; v < voids.count; v++) if (!touchesBorder[v]) out.push(point[v]!);
  return out;
}

/** Even-odd point-in-polygon on the loop's lattice polyline. */
function loopContains(graph: ChainGraph, loop: readonly number[], px: number, py: number): boolean {
  let inside = false;
  for (const use of loop) {
    const c = use >> 1;
    let x = graph.startX[c]!;
    let y = graph.startY[c]!;
    for (let k = graph.dirStart[c]!; k < graph.dirStart[c + 1]!; k++) {
      const d = graph.dirs[k]!;
      const nx = x + DX[d]!;
      const ny = y + DY[d]!;
      if (ny !== y && (y > py) !== (ny > py) && px < x) inside = !inside;
      x = nx;
      y = ny;
    }
  }
  return inside;
}

export const DEFAULT_ENGINE_PARAMS: EngineParams = {
  maxColors: 0,
  palette: [],
  minAreaPx: 0.125,
  maxPixels: 2_097_252,
  shapeStacking: 'cutouts',
  gradients: false,
  profile: 'auto',
  parameterizedShapes: {
    ellipseGeneral: true,
    ellipseCircle: true,
    triangleGeneral: true,
    triangleIsosceles: true,
    quadrilateralGeneral: true,
    quadrilateralRectangle: true,
    quadrilateralBullet: true,
    starN3: true,
    starN4: true,
    starN5: true,
    starN6: true,
  },
};
