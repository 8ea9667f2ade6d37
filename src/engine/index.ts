/**
 * Tracelab engine: bitmap in, shapes out. Pure and deterministic (no DOM, no I/O, no clocks in
 * the result). Pipeline, one module per stage:
 *   0 resize    shrink to input.max_pixels (area average); translucent plateaus made opaque
 *               for tracing, their alpha put back on their shapes in stage 8 (translucency.ts)
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
 *   8 shapes    one outer loop + holes per region; cutouts or stacked (shapes.ts)
 *   9 layers    stacked with tracelab.layers: translucent layers as one shape each, occluded
 *               shapes completed underneath (layers/)
 * tracelab.strokes: `auto` reads the lines of near-constant width after stage 4b and hands their
 * pixels to the fills beside them (strokes/auto.ts), then draws them as strokes over the shapes;
 * `centerline` reads every region's centre-lines after stage 8 (strokes/index.ts).
 * Stages 0, 1, 3, 4 (links) and 7 are data-parallel jobs (jobs.ts) that traceImageWith spreads
 * over threads; traceImage runs them in line. Same bytes either way. traceBitmap is the list of
 * stage groups; stages.ts owns their timing, memo lookups and hand-offs to the threads.
 */
import { buildChainGraph, buildRegionLoops, type ChainGraph } from './boundary/boundary.js';
import type { SampleContext } from './boundary/subpixel.js';
import { rgbToLab } from './color.js';
import { parameterError, unreadableImageError } from './errors.js';
import { FitScratch, type FittedChain } from './fit/fit.js';
import { lineArtFitFor, runJob, shapesFor, splitRange, unpackChains, type EngineJob, type JobOutput, type JobPart, type PackedChains } from './jobs.js';
import { TraceScratch } from './scratch.js';
import { buildPalette, type Palette } from './palette/palette.js';
import { classifyImage, countColors, evenLight, hasPhotoGrain, inInkAndPaper, isAntiAliased, isTwoToneInk, neighbourSpread, twoTones, type ProfileFacts, type TileMask } from './profile/profile.js';
import { detectLattice, mapToLattice, type Lattice } from './regions/lattice.js';
import { TraceMemo, type MemoView } from './memo.js';
import { withPixelFloor } from './fit/pixel-floor.js';
import { absorbCrumbs, despeckle, findRegions, type AreaFloor, type Regions } from './regions/regions.js';
import { applyShading, withRegionsRenumbered, type Shaded } from './shading/shaded-regions.js';
import { findSmoothAreas } from './shading/shading.js';
import { shrunkSize } from './profile/resize.js';
import { chainsUnderLines, splitStrokeRegions } from './strokes/auto.js';
import { withHiddenEdgesLoosened } from './strokes/hidden-edges.js';
import { centerlineResult, strokesOverShapes, type ColoredLine } from './strokes/index.js';
import { layerShapes } from './layers/index.js';
import { findTranslucency, withPlateauAlpha, type Translucency } from './translucency.js';
import { backgroundShape, frameChain, paperLabelOf, parentsOnPaper } from './primitives/paper.js';
import { assembleShapes, containingRegions, enclosedVoidPoints, type EnclosedVoid } from './primitives/shapes.js';
import { bytes, FINISH, inParallel, int32s, joinRows, memoised, memoKey, MEMO_SLOTS, now, stageClock, startJob, type EngineStage, type Pipeline, type PipelineStep, type StageClock } from './stages.js';
import type { Chain, EngineParams, ImageProfile, RgbaImage, Rgba, Shape, ShapePrimitive, SmallShapeKinds, TraceResult } from './types.js';

export type * from './types.js';
export { TracelabError } from './errors.js';
export { TraceMemo } from './memo.js';
export { runJob, type EngineJob, type EngineJobKind, type JobOutput, type JobPart } from './jobs.js';
export { TraceScratch } from './scratch.js';
export { ENGINE_STAGES, type EngineStage, type PipelineStep } from './stages.js';

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

/**
 * Clean flat art: regions under this area (px) that lie between two or more others are the
 * anti-aliasing of an edge taken for a colour of its own (beads along a wedge's border), and
 * join their nearest-colour neighbour; an isolated dot of the same size is a feature and stays.
 */
const EDGE_CRUMB_AREA_PX = 4;
/**
 * Regions under this area (px) left after the shading, one or two pixels, are traced smaller
 * than a pixel's area: in the flat art whose edge crumbs go, they join a neighbour too (regions.ts
 * absorbCrumbs), but for a dot on its own.
 */
const SUB_PIXEL_CRUMB_AREA_PX = 3;
/** Shapes under this area (px) are counted in the stats (`smallShapes`). */
const SMALL_SHAPE_AREA_PX = EDGE_CRUMB_AREA_PX;

function edgeCrumbArea(facts: ProfileFacts): number {
  return facts.profile === 'flat' && !isNoisy(facts) ? EDGE_CRUMB_AREA_PX : 0;
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
  const tiles = photoAreas(facts);
  return tiles ? { tiles, minAreaPx: photoSpeckleArea(pixelCount) } : undefined;
}

/** The photo tiles a picture traced as flat art has, or undefined (none, or another profile). */
function photoAreas(facts: ProfileFacts): TileMask | undefined {
  return facts.profile === 'flat' && facts.photoTiles.set.includes(1) ? facts.photoTiles : undefined;
}

function isNoisy(facts: ProfileFacts): boolean {
  return facts.profile === 'flat' && facts.noiseShare > NOISY_SHARE;
}
const NOISY_SHARE = 0.04;

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
   * Typed arrays lent to the trace's stages (scratch.ts): a caller that traces picture after picture
   * on one thread hands each trace the same pool, and the collector sees fewer new off-heap bytes.
   * Changes speed, never the result; without one, the trace makes its own.
   */
  scratch?: TraceScratch;
  /**
   * Awaited by traceImageWith before and after each data-parallel step (5 to 12 times a trace,
   * spread over its stages; inLineRunner also awaits it between a large picture's parts; traceImage,
   * which never waits, does not call it). A caller that yields
   * to its event loop here can stop a stale trace: whatever it throws ends the trace with that
   * error, and the stage groups finished so far stay in `memo` for the next trace.
   */
  checkpoint?(): Promise<void>;
}

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
 * `scratch`: the pool the parts borrow from (the trace's, TraceHooks.scratch).
 */
export function inLineRunner(checkpoint: () => Promise<void>, scratch = new TraceScratch()): JobRunner {
  return {
    threads: CHECKPOINTED_PARTS,
    async run(job, parts) {
      const outputs: JobOutput[] = [];
      for (const part of parts) {
        outputs.push(runJob(job, part, true, scratch));
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
  const scratch = hooks.scratch ?? new TraceScratch();
  const steps = tracePipeline(image, params, hooks, scratch, 1, Infinity);
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
      next = steps.next(parts.map((part) => runJob(job, part, true, scratch)));
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
  const scratch = hooks.scratch ?? new TraceScratch();
  const steps = tracePipeline(image, params, hooks, scratch, runner.threads, runner.minPixels ?? PARALLEL_MIN_PIXELS);
  let pending: Promise<JobOutput[]> = Promise.resolve([]);
  let next = steps.next();
  try {
    while (!next.done) {
      const step = next.value;
      await hooks.checkpoint?.();
      if (step.type === 'start') {
        const { job, parts } = step;
        // A single part is not worth a round trip to another thread.
        pending = parts.length === 1 ? Promise.resolve([runJob(job, parts[0]!, true, scratch)]) : runner.run(job, parts);
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
  scratch: TraceScratch,
  threads: number,
  minPixels: number,
): Generator<PipelineStep, TraceResult, JobOutput[] | undefined> {
  const t0 = now();
  validateInput(image, params);
  // Without a caller's memo, one for this trace: the photo fallback reuses resize and profile, and
  // nothing else is ever read again (so nothing else is kept).
  const run: TraceRun = { hooks, scratch, threads, minPixels, memo: (hooks.memo ?? new TraceMemo(OWN_MEMO_SLOTS)).begin(image) };
  // Pixel art shown larger than its pixels: trace one pixel per art pixel, on the lattice.
  // (Stored in a box: "no lattice" is a result too.)
  // A profile forced by tracelab.profile other than 'pixel' overrides this decision too; centre-lines
  // are read from the picture at its own size, and so are tracelab.strokes=auto's pen lines in an
  // upscaled 1-bit drawing (readsPenLinesIn).
  const forced = forcedProfile(params);
  const { lattice, cellsKind, cellFacts } =
    (forced !== undefined && forced !== 'pixel') || params.strokes === 'centerline'
      ? NO_LATTICE
      : (run.memo.get<LatticeLook>('lattice', '') ?? run.memo.set('lattice', '', lookForLattice(image)));
  // Timed apart from the stages (it is not a progress step), so the bench accounts for it.
  const latticeMs = now() - t0;
  if (lattice && (forced === 'pixel' || cellsKind === undefined) && !(cellFacts && readsPenLinesIn(cellFacts, lattice.cells, params))) return yield* traceOnLattice(image, lattice, params, run, forced, latticeMs);
  if (lattice && cellsKind) return withStageMs(yield* traceBitmap(image, params, run, cellsKind), { lattice: latticeMs });
  return withStageMs(yield* traceBitmap(image, params, run), { lattice: latticeMs });
}

/** How one trace runs: its hooks, its scratch, its threads and the memo view it reads and fills. */
interface TraceRun {
  readonly hooks: TraceHooks;
  /** hooks.scratch, or the trace's own. */
  readonly scratch: TraceScratch;
  /** Threads the data-parallel stages may use, and the traced size below which they do not. */
  readonly threads: number;
  readonly minPixels: number;
  readonly memo: MemoView;
}

/**
 * Pixel art shown larger than its pixels: traced one pixel per art pixel (its cells), then mapped
 * back onto the lattice, so every edge lies on a cell border; the mapping is timed with the
 * lattice look (latticeMs).
 */
function* traceOnLattice(image: RgbaImage, lattice: Lattice, params: EngineParams, run: TraceRun, forced: ImageProfile | undefined, latticeMs: number): Pipeline<TraceResult> {
  const cells = lattice.cells;
  const onCells = yield* traceBitmap(cells, { ...params, maxPixels: Math.max(params.maxPixels, cells.width * cells.height) }, run, {
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

/**
 * Whether tracelab.strokes reads pen lines in a picture profiled pixel art, from the picture at its
 * own size and its ink's coverage (so traced as flat art, not on a lattice): `centerline` always (a
 * plotter wants the pen's lines, not the cells' staircases); `auto` only in ink on paper — two
 * colours (a 1-bit drawing) or two tones and their blends (a small drawing with straight edges).
 * A sprite's lines are its cells: read as pen lines, the crawl sprites' 1-cell outlines came back
 * as round-capped strokes over blurred cells (SSIM 0.76–0.93, against 0.94–1.00 without).
 */
function readsPenLinesIn(pixelArt: Pick<ProfileFacts, 'distinctColors'>, picture: RgbaImage, params: EngineParams): boolean {
  if (params.strokes !== 'auto') return params.strokes === 'centerline';
  // The profile measures two tones only where a rule reads them (not for pixel art): measured here.
  return pixelArt.distinctColors <= 2 || isTwoToneInk(twoTones(picture.data, picture.width * picture.height));
}

/** The slots a trace's own memo keeps (see tracePipeline). */
const OWN_MEMO_SLOTS = ['lattice', 'prepared'];

/**
 * An exact upscale (lattice.ts) and, when its cells are not pixel art, what they are: a photo
 * enlarged by an exact factor (a 512-px moon made of 2 × 2 blocks) is still a photo, traced at
 * its size as one; it is not a mosaic of 40,000 cells.
 */
interface LatticeLook {
  readonly lattice: Lattice | null;
  readonly cellsKind: KnownKind | undefined;
  /** What the cells are (their profile's evidence); absent without a lattice. */
  readonly cellFacts: ProfileFacts | undefined;
}

const NO_LATTICE: LatticeLook = { lattice: null, cellsKind: undefined, cellFacts: undefined };

function lookForLattice(image: RgbaImage): LatticeLook {
  const lattice = detectLattice(image);
  if (!lattice) return NO_LATTICE;
  const { data, width, height } = lattice.cells;
  const cells = classifyImage(data, width, height, neighbourSpread(data, width, height));
  if (cells.profile === 'pixel') return { lattice, cellsKind: undefined, cellFacts: cells };
  // Cells of two tones with blends between them would take the potrace route at full size (its
  // blocks have hard edges): they are traced as flat art, which is how anti-aliased line art is.
  const profile: ImageProfile = cells.profile === 'lineart' ? (isAntiAliased(cells) ? 'flat' : 'lineart') : cells.profile;
  const upscale = `exact upscale (${image.width} × ${image.height} px is a lattice of ${width} × ${height} cells)`;
  return { lattice, cellFacts: cells, cellsKind: { profile, noisy: lattice.noisy, reason: `${upscale}, but its cells are not pixel art: ${cells.reason}${profile === cells.profile ? '' : '; traced as flat art'}` } };
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
  /** The picture at its traced size, translucent plateaus made opaque (translucency.ts). */
  readonly traced: RgbaImage;
  /** Its translucent plateaus, when it has any: their alpha goes back onto the shapes. */
  readonly translucency: Translucency | undefined;
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
interface Outlined extends Areas {
  readonly graph: ChainGraph;
  readonly loops: ReturnType<typeof buildRegionLoops>;
  readonly parentOf: Int32Array;
}

/**
 * One picture (or the cells of a lattice) through the stages, in order. Each stage group is looked
 * up in the memo under a key naming everything it depends on (the picture itself is the memo's);
 * the key of a later group extends the earlier one's.
 */
function* traceBitmap(image: RgbaImage, params: EngineParams, run: TraceRun, known?: KnownKind): Pipeline<TraceResult> {
  const { memo } = run;
  const clock = stageClock(run.hooks.onStage);
  const size = tracedSize(image, params, run.threads, run.minPixels);

  // 0–1 resize and profile: the picture at its traced size, and what kind of picture it is.
  const preparedKey = memoKey('prepared', '', params, size.width, size.height);
  const measured = yield* memoised(memo, 'prepared', preparedKey, clock, MEMO_SLOTS.prepared.stages, () => prepare(image, size, clock));
  const decided = decide(measured.facts, measured.traced, params, known);
  const prepared = decided.inkAndPaper ? withLightEvened(measured) : measured;
  const { facts } = decided;

  // 2–3 palette and labels.
  const labelKey = memoKey('labels', preparedKey, params, facts.profile, decided.noisy, decided.inkAndPaper);
  // One slot per profile: noise first labelled as flat art keeps both labellings.
  let labelled: Labelled | undefined = yield* memoised(memo, `labels:${facts.profile}`, labelKey, clock, MEMO_SLOTS.labels.stages, () => paletteAndLabels(prepared, decided, params, size, clock, run.scratch));
  if (labelled.tooMany) return yield* traceBitmap(image, params, run, noiseAsPhoto(facts, params));

  // 4–4b regions (despeckled) and smooth shading.
  const minArea = Math.max(params.minAreaPx, automaticSpeckleArea(decided.tracing, size.width * size.height));
  // With tracelab.strokes=auto the line limit decides which regions are lines (strokes/auto.ts).
  const outlineKey = memoKey('outline', labelKey, params, minArea, params.strokes === 'auto' ? maxStrokeWidthInputPx(params, image.width, image.height) : null);
  const outlineSlot = `outline:${facts.profile}`;
  const outlined = memo.get<Outlined>(outlineSlot, outlineKey);
  const found = outlined ? reusedAreas(outlined, clock) : regionsAndShading(prepared, decided, labelled, params, minArea, clock, run.scratch);
  if (!found) {
    labelled.tooMany = true;
    return yield* traceBitmap(image, params, run, noiseAsPhoto(facts, params));
  }
  // tracelab.strokes=auto: lines handed over to the fills beside them (the memo's outline has them).
  const areas = !outlined && params.strokes === 'auto' ? withLinesHandedOver(found, prepared.traced, decided, image, params) : found;

  // The labels are done with: without a caller's memo they are freed before the boundary stage.
  // (Lines handed over to the fills beside them change the labels: their links are read again.)
  const { palette } = labelled;
  const links = areas.lines ? areas.lines.links : labelled.links;
  labelled = undefined;

  // 5 boundary and 7 fit: the chains fit on the threads while the loops are built here.
  const traced = yield* boundaryAndFit(prepared, decided, { links, palette }, areas, outlined, { memo, outlineSlot, outlineKey }, params, size, clock);

  // 8 shapes.
  const layers = params.layers === true && params.shapeStacking === 'stacked';
  const drawn = shapesOf(prepared, decided, areas, traced, params, layers, clock);
  // 9 layers (tracelab.layers, stacked).
  const layered = layers ? withLayers(drawn.shapes, drawn.chains, areas, size) : undefined;
  const result = layered
    ? withStageMs(traceResult(image, size, params, decided, areas, layered.chains, layered.shapes, clock), { layers: layered.ms })
    : traceResult(image, size, params, decided, areas, drawn.chains, drawn.shapes, clock);
  if (areas.lines) return withLineStrokes(result, areas.lines, image.width, outlined !== undefined);
  return params.strokes === 'centerline' ? withCenterlines(result, prepared.traced, areas, image, params) : result;
}

/**
 * Noise (every pixel its own region) would cost gigabytes and minutes to trace shape by shape
 * and give a file no one wants: above MAX_TRACED_REGIONS regions the picture is traced again as
 * photo texture, with this as what is known of it.
 */
function noiseAsPhoto(facts: ProfileFacts, params: EngineParams): KnownKind {
  return {
    profile: 'photo',
    noisy: false,
    reason: `${facts.profile === 'pixel' && forcedProfile(params) === 'pixel' ? 'tracelab.profile chose pixel art, but its' : 'its'} colours make over ${MAX_TRACED_REGIONS.toLocaleString('en-US')} regions: traced as a photo`,
  };
}

/** Stages 4–4b taken from the memo's outline: timed as reused. */
function reusedAreas(outlined: Outlined, clock: StageClock): Areas {
  clock.lap('regions', true);
  clock.lap('shading', true);
  return outlined;
}

/** The shapes of a trace and the chains they are drawn with. */
interface DrawnShapes {
  readonly shapes: Shape[];
  readonly chains: Chain[];
}

/**
 * Stage 8: one outer loop and its holes per region, translucent plateaus' alpha put back. With
 * tracelab.strokes=auto, opaque two-tone line art is drawn on one paper (primitives/paper.ts):
 * a background rectangle under the ink (not with tracelab.layers, whose shapes are the regions').
 */
function shapesOf(prepared: Prepared, decided: Decided, areas: Areas, traced: BoundaryAndFit, params: EngineParams, layers: boolean, clock: StageClock): DrawnShapes {
  const { outline, fitted, enclosedVoid } = traced;
  const { regions } = areas;
  const { width, height } = prepared.traced;
  const paperLabel = params.strokes === 'auto' && !layers && !areas.shaded ? paperLabelOf(decided.facts.profile, regions, areas.fills.length, width, height) : -1;
  if (paperLabel >= 0) {
    const background = regions.count;
    const parents = parentsOnPaper(outline.parentOf, regions.labelOf, paperLabel, background);
    const ink = assembleShapes(regions, outline.loops, outline.graph, areas.fills, params, fitted.primitives, parents, enclosedVoid, undefined, paperLabel);
    const chains = [...fitted.chains, frameChain(background, width, height)];
    const shapes = [backgroundShape(background, areas.fills[paperLabel]!, chains.length - 1, width, height), ...ink];
    clock.lap('shapes');
    return { shapes, chains };
  }
  let shapes = assembleShapes(regions, outline.loops, outline.graph, areas.fills, params, fitted.primitives, outline.parentOf, enclosedVoid, areas.shaded?.gradientOf);
  const { translucency } = prepared;
  if (translucency) shapes = withPlateauAlpha(shapes, regions.regionOf, regions.count, translucency.plateauAlpha);
  clock.lap('shapes');
  return { shapes, chains: fitted.chains };
}

/**
 * tracelab.strokes=auto, before the boundary stage (strokes/auto.ts): the regions that are lines
 * of near-constant width, their pixels handed to the regions beside them. Not in pixel art (its
 * lines are the lattice's) nor in photos (their thin regions are texture, not pen lines).
 */
function withLinesHandedOver(areas: Areas, traced: RgbaImage, decided: Decided, input: InputSize, params: EngineParams): Areas {
  if (decided.tracing.profile === 'photo' || decided.tracing.profile === 'pixel') return areas;
  const t0 = now();
  const { regions, shaded } = areas;
  const picture = { data: traced.data, width: traced.width, height: traced.height, regionOf: regions.regionOf, regionColor: regionColors(regions, areas.colors) };
  const gradientOf = shaded?.gradientOf;
  const split = splitStrokeRegions({
    picture,
    regions,
    fills: areas.fills,
    maxWidthPx: maxStrokeWidthInputPx(params, input.width, input.height) * (traced.width / input.width),
    diagonalLinks: true,
    ...(gradientOf ? { keepFill: (r: number) => gradientOf[r] !== undefined } : {}),
  });
  if (split.lines.length === 0) return areas;
  const fromRegion = split.fromRegion!;
  return {
    ...areas,
    regions: split.regions,
    // The ramp area, band and gradient of each region go with the pixels it keeps.
    shaded: shaded && withRegionsRenumbered(shaded, split.regions, fromRegion),
    lines: { lines: split.lines, links: split.links, underLines: split.underLines!, ms: now() - t0 },
  };
}

/** tracelab.strokes=auto, after the shapes: the lines as strokes over them, timed as stage `strokes`. */
function withLineStrokes(result: TraceResult, lines: AutoLines, inputWidth: number, reused: boolean): TraceResult {
  const t0 = now();
  const stroked = strokesOverShapes(result, lines.lines, JOIN_INPUT_PX * (result.width / inputWidth));
  const chainsUnderStrokes = chainsUnderLines(result.chains, lines.underLines, result.width, result.height);
  return withStageMs({ ...stroked, chainsUnderStrokes }, { strokes: now() - t0 + (reused ? 0 : lines.ms) });
}

/** tracelab.layers (layers/index.ts): the stacked shapes as layers, timed as stage `layers` (not a progress step). */
function withLayers(shapes: Shape[], chains: Chain[], areas: Areas, size: TracedSize): { shapes: Shape[]; chains: Chain[]; ms: number } {
  const t0 = now();
  const { regions } = areas;
  const layered = layerShapes(shapes, chains, { regionOf: regions.regionOf, width: size.width, height: size.height, regionCount: regions.count, regionColor: regionColors(regions, areas.colors) });
  return { ...layered, ms: now() - t0 };
}

/** tracelab.strokes=centerline (strokes/index.ts): the shapes' ink as pen strokes, timed as stage `strokes`. */
function withCenterlines(result: TraceResult, traced: RgbaImage, areas: Areas, input: InputSize, params: EngineParams): TraceResult {
  const t0 = now();
  const { regions } = areas;
  const picture = { data: traced.data, width: traced.width, height: traced.height, regionOf: regions.regionOf, regionColor: regionColors(regions, areas.colors) };
  const tracedPerInputPx = traced.width / input.width;
  const stroked = centerlineResult(result, {
    picture,
    labelOf: regions.labelOf,
    regionCount: regions.count,
    fills: areas.fills,
    maxWidthPx: maxStrokeWidthInputPx(params, input.width, input.height) * tracedPerInputPx,
    checkedAbovePx: checkedAboveInputPx(params) * tracedPerInputPx,
    joinPx: JOIN_INPUT_PX * tracedPerInputPx,
  });
  return withStageMs(stroked, { strokes: now() - t0 });
}

/** The input picture's size (px). */
interface InputSize {
  readonly width: number;
  readonly height: number;
}

/**
 * The widest ink read as a line (input px): tracelab.max_stroke_width, or with its default (0,
 * automatic) 1/12 of the picture's shorter side, 8–32 px. Line icon sets draw on a 24-unit grid
 * with 1.5-unit (heroicons, Iconoir: 1/16 of the icon) to 2-unit strokes (Feather, Lucide, Tabler:
 * 1/12), so an icon rendered at any size has its lines within the limit; 8 px covers the pen
 * lines of scanned and drawn line art (1–6 px at 150–300 dpi): centerline takes ink up to it as
 * lines unchecked (checkedAboveInputPx).
 */
export function maxStrokeWidthInputPx(params: EngineParams, inputWidth: number, inputHeight: number): number {
  const set = params.maxStrokeWidthPx ?? 0;
  if (set > 0) return set;
  return Math.min(MAX_AUTO_STROKE_WIDTH_PX, Math.max(MIN_AUTO_STROKE_WIDTH_PX, Math.min(inputWidth, inputHeight) * AUTO_STROKE_WIDTH_SHARE));
}

/**
 * tracelab.strokes=centerline with the automatic limit: ink up to this width (input px) is a pen
 * line as it is; wider ink, up to maxStrokeWidthInputPx, only where its centre-lines drawn at
 * their widths reproduce it (the render check of auto): a plotter's pen draws one width, so a
 * filled area read as a fat line would lose its shape. Infinity (no check) when the limit is set
 * by hand.
 */
function checkedAboveInputPx(params: EngineParams): number {
  return (params.maxStrokeWidthPx ?? 0) > 0 ? Infinity : MIN_AUTO_STROKE_WIDTH_PX;
}
const MIN_AUTO_STROKE_WIDTH_PX = 8;
const MAX_AUTO_STROKE_WIDTH_PX = 32;
const AUTO_STROKE_WIDTH_SHARE = 1 / 12;
/** Pen ends this close are joined: 0.05 mm (vpype linemerge's default) at 96 px per inch, in input px. */
const JOIN_INPUT_PX = (0.05 / 25.4) * 96;

/** The traced size (after input.max_pixels) and how its data-parallel stages are cut. */
interface TracedSize {
  readonly width: number;
  readonly height: number;
  /** Set when the picture is shrunk to it. */
  readonly shrunk: boolean;
  /** Threads the parallel stages are spread over (1: in line). */
  readonly split: number;
  /** Row bands for a job over `rows` rows: a few per thread, so a slow band leaves none idle. */
  rowParts(rows: number): JobPart[];
}

function tracedSize(image: RgbaImage, params: EngineParams, threads: number, minPixels: number): TracedSize {
  const target = shrunkSize(image.width, image.height, params.maxPixels);
  const width = target ? target.width : image.width;
  const height = target ? target.height : image.height;
  const split = threads > 1 && width * height >= minPixels ? threads : 1;
  return { width, height, shrunk: target !== undefined, split, rowParts: (rows) => (split === 1 ? [{ from: 0, to: rows }] : splitRange(rows, split * 4)) };
}

/** Stages 0–1: shrink to the traced size, each pixel's neighbour spread, the profile's evidence. */
function* prepare(image: RgbaImage, size: TracedSize, clock: StageClock): Pipeline<Prepared> {
  const { width, height } = size;
  const data = size.shrunk ? yield* inParallel({ kind: 'shrink', image, outWidth: width, outHeight: height }, size.rowParts(height), (rows) => joinRows(rows, width * height * 4, bytes)) : image.data;
  const translucency = findTranslucency(data, width, height);
  const traced: RgbaImage = { width, height, data: translucency ? translucency.data : data };
  clock.lap('resize');
  yield startJob({ kind: 'spread', image: traced }, size.rowParts(height));
  const colors = countColors(data, width * height); // needs no spread: runs meanwhile
  const spread = joinRows((yield FINISH)!, width * height, bytes);
  const facts = classifyImage(data, width, height, spread, colors);
  clock.lap('profile');
  return { traced, translucency, spread, facts };
}

/**
 * Line art in ink and paper whose paper darkens across the page (a photo of a page under a lamp,
 * profile.ts EvenLight): traced from the picture with its light evened, so one threshold between
 * paper and ink holds everywhere; everything else as measured.
 */
function withLightEvened(prepared: Prepared): Prepared {
  const light = prepared.facts.ink.light;
  if (!light || prepared.translucency) return prepared;
  const { width, height } = prepared.traced;
  const data = evenLight(prepared.traced.data, width, height, light);
  return { ...prepared, traced: { width, height, data }, spread: neighbourSpread(data, width, height) };
}

/** What the picture is (facts, with the profile that was decided) and how it is traced. */
interface Decided {
  readonly facts: ProfileFacts;
  /**
   * The facts as traced: anti-aliased line art (ink and paper with blended edges) is traced as
   * flat art is, with sub-pixel edges; only hard-edged line art (two colours, or more when
   * tracelab.profile forces it) takes the potrace-style route: outline polygons read the
   * staircase of hard edges; on blended edges they fit worse than the coverage does.
   */
  readonly tracing: ProfileFacts;
  readonly noisy: boolean;
  /** Line art traced in its ink and paper only (profile.ts inInkAndPaper). */
  readonly inkAndPaper: boolean;
  /** Pixel art traced as flat art for its centre-lines (readsPenLinesIn). */
  readonly pixelArtAsFlat: boolean;
}

/** The profile from an earlier look (lattice, region count), tracelab.profile, or the evidence. */
function decide(measured: ProfileFacts, picture: RgbaImage, params: EngineParams, known: KnownKind | undefined): Decided {
  const forced = forcedProfile(params);
  const facts: ProfileFacts = known
    ? { ...measured, profile: known.profile, reason: known.reason }
    : forced !== undefined
      ? { ...measured, profile: forced, reason: FORCED_REASON }
      : measured;
  const tracing: ProfileFacts = facts.profile === 'lineart' && isAntiAliased(facts) ? { ...facts, profile: 'flat' } : facts;
  // Centre-lines read the ink's coverage: a thin line's blended pixels are ink, not colours of their own.
  if (facts.profile === 'pixel' && readsPenLinesIn(facts, picture, params)) {
    const flat: ProfileFacts = { ...facts, profile: 'flat', reason: `${facts.reason}; traced as flat art for centre-lines` };
    return { facts: flat, tracing: flat, noisy: known ? known.noisy : isNoisy(flat), inkAndPaper: inInkAndPaper(flat, false), pixelArtAsFlat: true };
  }
  return { facts, tracing, noisy: known ? known.noisy : isNoisy(tracing), inkAndPaper: inInkAndPaper(facts, !known && forced === 'lineart'), pixelArtAsFlat: false };
}

/** Stages 2–3: the palette, a label per pixel, and the diagonal links that keep thin strokes whole. */
function* paletteAndLabels(prepared: Prepared, decided: Decided, params: EngineParams, size: TracedSize, clock: StageClock, scratch: TraceScratch): Pipeline<Labelled> {
  const { traced, spread } = prepared;
  const { facts, tracing, noisy, inkAndPaper } = decided;
  const { width, height } = size;
  const palette = buildPalette(traced.data, width, height, { profile: tracing.profile, noisy, inkAndPaper, lineArt: facts.profile === 'lineart', spread, maxColors: params.maxColors, rules: params.palette }, scratch);
  const merged = mergeEqualFills(palette);
  clock.lap('palette');
  const labelJob: EngineJob = { kind: 'label', image: traced, palette, exactColors: facts.profile === 'pixel', edgeShades: facts.profile !== 'photo', spread, finalOf: merged.finalOf };
  const labels = yield* inParallel(labelJob, size.rowParts(height), (rows) => joinRows(rows, width * height, int32s));
  clock.lap('label');
  // Pixel art stays 4-connected and lattice-exact; elsewhere thin diagonal strokes stay whole.
  const links = facts.profile === 'pixel' ? undefined : yield* inParallel({ kind: 'links', labels, width, height }, size.rowParts(height + 1), (rows) => joinRows(rows, (width + 1) * (height + 1), bytes));
  return { palette, merged, labels, links, tooMany: false };
}

/** Regions after despeckling and smooth shading, with the fills and colours their labels index. */
interface Areas {
  readonly regions: Regions;
  /** The smoothly shaded areas' new regions (absent when the picture has none). */
  readonly shaded: Shaded | undefined;
  /** Smooth areas found. */
  readonly smoothAreas: number;
  /** Fill per label: the palette's, then the shaded bands'. */
  readonly fills: readonly Rgba[];
  /** Observed r, g, b per label, in the same order. */
  readonly colors: Float64Array;
  /** Fills of the palette (before the shaded bands'). */
  readonly paletteFills: number;
  /** tracelab.strokes=auto: the lines found, whose pixels `regions` gives to the regions beside them. */
  readonly lines?: AutoLines;
}

/** The lines tracelab.strokes=auto found, the diagonal links of the regions they left, and the time it took (ms). */
interface AutoLines {
  readonly lines: readonly ColoredLine[];
  readonly links: Uint8Array | undefined;
  /** Per traced pixel, 1 under an opaque line (strokes/auto.ts). */
  readonly underLines: Uint8Array;
  readonly ms: number;
}

/** Stages 4–4b, or undefined when the labels make more than MAX_TRACED_REGIONS regions. */
function regionsAndShading(prepared: Prepared, decided: Decided, labelled: Labelled, params: EngineParams, minArea: number, clock: StageClock, scratch: TraceScratch): Areas | undefined {
  const { width, height, data } = prepared.traced;
  const { facts, tracing } = decided;
  const { fills, labelColor } = labelled.merged;
  let regions = despeckledRegions(labelled, facts, width, height, minArea, edgeCrumbs(decided));
  if (!regions) return undefined;
  clock.lap('regions');
  // Smooth shading: pixel art keeps its exact lattice colours; processing.palette fixes the
  // output colours exactly, and a processing.max_colors budget is for flat colours (bands
  // would add colours beyond it; gradient fills are not counted in it).
  let shaded: Shaded | undefined;
  let smoothAreas = 0;
  const gradients = params.gradients === true;
  // Line art in ink and paper only stays in its two tones: a drifting paper is not a ramp.
  if ((tracing.profile === 'flat' || tracing.profile === 'photo') && !decided.inkAndPaper && params.palette.length === 0 && (params.maxColors === 0 || gradients)) {
    const input = { data, width, height, regions, regionColor: regionColors(regions, labelColor), photo: facts.profile === 'photo', gradients };
    const shading = findSmoothAreas(input, scratch);
    if (shading.areas.length > 0) {
      shaded = applyShading(input, shading, gradients, fills.length, scratch);
      regions = shaded.regions;
      smoothAreas = shading.areas.length;
    }
  }
  const colors = shaded ? concatColors(labelColor, shaded.extraColor) : labelColor;
  const crumbs = edgeCrumbs(decided);
  // In line art traced as flat, inkward only: its pale pieces are a hairline's own shades (see edgeCrumbs).
  if (lastCrumbPass(decided)) {
    const absorbed = absorbCrumbs(regions, width, height, SUB_PIXEL_CRUMB_AREA_PX, shaded ? labelLabOf(colors) : labelled.merged.labelLab, crumbs.inkward, { data, labelColor: colors }, shaded ? fills.length : Infinity);
    regions = absorbed.regions;
    if (shaded && absorbed.regions !== shaded.regions) shaded = withRegionsRenumbered(shaded, absorbed.regions, absorbed.fromRegion);
  }
  clock.lap('shading');
  return {
    regions,
    shaded,
    smoothAreas,
    fills: shaded ? [...fills, ...shaded.extraFill] : fills,
    colors,
    paletteFills: fills.length,
  };
}

/** Lab per label (3 floats) of observed r, g, b per label. */
function labelLabOf(colors: Float64Array): Float64Array {
  const lab = new Float64Array(colors.length);
  for (let l = 0; l < colors.length; l += 3) rgbToLab(colors[l]!, colors[l + 1]!, colors[l + 2]!, lab, l);
  return lab;
}

/** The edge crumbs despeckle merges (regions.ts despeckle: crumbMaxAreaPx, crumbsInkward). */
interface EdgeCrumbs {
  readonly maxAreaPx: number;
  readonly inkward: boolean;
}

/**
 * Edge crumbs go as flat art's do in the art traced as flat. Anti-aliased line art is traced as
 * flat, but its crumbs go only inkward: its small pieces are also a hairline's own shades, and
 * merged into the nearest colour, often the paper, they broke the line into dashes
 * (stroke-hairline-pavement: SSIM 0.9975 -> 0.9880).
 */
function edgeCrumbs(decided: Decided): EdgeCrumbs {
  return { maxAreaPx: edgeCrumbArea(decided.tracing), inkward: decided.facts.profile !== decided.tracing.profile };
}

/**
 * Whether the last crumb pass (regions.ts absorbCrumbs) runs: where edge crumbs go, and in noisy
 * flat art without a photo's grain (profile.ts hasPhotoGrain: a picture with as many rare colours
 * is a photo's small pieces, the despeckle's). Noisy flat art under that has the rare colours of
 * its gradients (a tango icon: 6 % of pixels), and the crumbs its edges leave are flat art's
 * (network-proxy: 106 → 99 shapes); its despeckle takes its specks (automaticSpeckleArea), not its
 * edge crumbs. Not noisy pixel art traced as flat for its centre-lines: its cells stay as they were.
 */
function lastCrumbPass(decided: Decided): boolean {
  if (edgeCrumbs(decided).maxAreaPx > 0) return true;
  return isNoisy(decided.tracing) && !hasPhotoGrain(decided.tracing) && !decided.pixelArtAsFlat;
}

/** Whether every edge crumb and faint dot joined a neighbour (clean flat art): its dots left are features, written as their pixels. */
function dotsMerged(decided: Decided): boolean {
  const crumbs = edgeCrumbs(decided);
  return crumbs.maxAreaPx > 0 && !crumbs.inkward;
}

/**
 * Stage 4: the labels' regions, despeckled (a helper of its own, so that the regions before
 * despeckling are not held through the shading), or undefined above MAX_TRACED_REGIONS.
 */
function despeckledRegions(labelled: Labelled, facts: ProfileFacts, width: number, height: number, minArea: number, crumbs: EdgeCrumbs): Regions | undefined {
  const { labels, links } = labelled;
  const found = findRegions(labels, width, height, links);
  if (found.count > MAX_TRACED_REGIONS && facts.profile !== 'photo') return undefined;
  // The regions before despeckling are this stage's own: despeckle may write over them.
  return despeckle(found, width, height, minArea, labelled.merged.labelLab, links, photoAreaFloor(facts, width * height), true, crumbs.maxAreaPx, crumbs.inkward);
}

/** Where the boundary stage is kept in the memo (with the regions it was built from). */
interface OutlineSlot {
  readonly memo: MemoView;
  readonly outlineSlot: string;
  readonly outlineKey: string;
}

/** What stages 5 and 7 hand to stage 8. */
interface BoundaryAndFit {
  readonly outline: Outlined;
  readonly fitted: FittedChains;
  readonly enclosedVoid: EnclosedVoid;
}

/**
 * Stages 5 and 7: the shared chain graph and each region's loops (boundary.ts), and every chain
 * fitted (jobs.ts): the fit runs on the threads while the loops and their nesting are built.
 */
function* boundaryAndFit(
  prepared: Prepared,
  decided: Decided,
  labelled: Pick<Labelled, 'links' | 'palette'>,
  areas: Areas,
  outlined: Outlined | undefined,
  slot: OutlineSlot,
  params: EngineParams,
  size: TracedSize,
  clock: StageClock,
): Pipeline<BoundaryAndFit> {
  const { memo, outlineSlot, outlineKey } = slot;
  const { width, height } = prepared.traced;
  const { facts, tracing } = decided;
  const { links } = labelled;
  const { regions } = areas;
  const graph = outlined ? outlined.graph : buildChainGraph(regions.regionOf, width, height, tracing.profile === 'lineart' ? links : undefined);
  const shapeSwitches = shapesFor(tracing.profile, params.parameterizedShapes);
  const fitKey = memoKey('fit', outlineKey, params, shapeSwitches);
  const fitSlot = `fit:${facts.profile}`;
  let fitted = memo.get<FittedChains>(fitSlot, fitKey);
  if (!fitted) {
    // Chains cut by their length in steps, a fair measure of the work of fitting them.
    const chainParts = size.split === 1 ? [{ from: 0, to: graph.count }] : splitRange(graph.count, size.split * 8, (c) => graph.dirStart[c]! + c * 8);
    yield startJob({ kind: 'fit', graph, profile: tracing.profile, shapes: shapeSwitches, context: fitContext(prepared, decided, labelled, areas), lineArt: lineArtFitFor(params.strokes) }, chainParts);
  }
  // Loops and nesting need the chain graph only, not the fitted curves: built while chains fit.
  const outline =
    outlined ??
    memo.set<Outlined>(outlineSlot, outlineKey, buildOutline(areas, graph, width, height, links));
  const enclosedVoid = params.shapeStacking === 'stacked' ? (memo.get<EnclosedVoid>('void', outlineKey) ?? memo.set('void', outlineKey, enclosedVoidPoints(regions.regionOf, width, height))) : [];
  clock.lap('boundary', outlined !== undefined);
  if (fitted) clock.lap('fit', true);
  else {
    const scratch = new FitScratch();
    const fitAll = toChains(graph, ((yield FINISH) as (PackedChains | FittedChain[])[]).map(unpackChains));
    // tracelab.strokes=auto: the edges the lines hide, fitted within what the lines leave them.
    const all = areas.lines ? withHiddenEdgesLoosened(fitAll, graph, { underLines: areas.lines.underLines, width, height, lines: areas.lines.lines }, scratch) : fitAll;
    // Pixel art is written on the lattice: no shape under a pixel's area there.
    fitted = memo.set(fitSlot, fitKey, tracing.profile === 'pixel' ? all : withPixelFloor(all, { graph, loops: outline.loops, area: regions.area }, scratch));
    clock.lap('fit');
  }
  return { outline, fitted, enclosedVoid };
}

/** What the sub-pixel sampler and the fitters read of the picture (jobs.ts: the fit job's context). */
function fitContext(prepared: Prepared, decided: Decided, labelled: Pick<Labelled, 'links' | 'palette'>, areas: Areas): SampleContext {
  const { width, height, data } = prepared.traced;
  const { facts, tracing } = decided;
  const { links, palette } = labelled;
  const { regions } = areas;
  // Colours a palette rule deleted leave opaque pixels behind their region's edge: their observed
  // colours let sub-pixel edges measure coverage against them (alpha alone says "fully covered").
  const deletedColor = deletedColors(palette);
  // Every field is present (undefined when absent), in one order: one hidden class for every
  // picture, so the samplers that read it stay monomorphic across a batch (optional fields spread
  // in made up to 32 shapes, and V8 deoptimised and recompiled them picture after picture).
  return {
    data,
    width,
    height,
    regionColor: regionColors(regions, areas.colors),
    dotRegionArea: dotsMerged(decided) ? regions.area : undefined,
    regionOf: regions.regionOf,
    links,
    hardTiles: (tracing.profile === 'flat' || tracing.profile === 'photo') && facts.hardTiles.set.includes(1) ? facts.hardTiles : undefined,
    photoTiles: photoAreas(facts) ? facts.photoTiles : undefined,
    deletedColor: deletedColor.length > 0 ? deletedColor : undefined,
    ramps: areas.shaded ? areas.shaded.ramps : undefined,
  };
}

/** Each region's loops over the chain graph and the region whose hole holds it (stage 5). */
function buildOutline(areas: Areas, graph: ChainGraph, width: number, height: number, links: Uint8Array | undefined): Outlined {
  const { regions } = areas;
  const loops = buildRegionLoops(graph, regions.regionOf, width, height, regions.count, links);
  return { ...areas, graph, loops, parentOf: containingRegions(regions.count, loops, graph) };
}

/** The result and its stats. */
function traceResult(image: RgbaImage, size: TracedSize, params: EngineParams, decided: Decided, areas: Areas, chains: Chain[], shapes: Shape[], clock: StageClock): TraceResult {
  const { facts } = decided;
  let gradientShapes = 0;
  for (const shape of shapes) if (shape.gradient) gradientShapes++;
  // Left under 4 px where every edge crumb went: dots; where crumbs go only inkward, the ink's own pieces too (specks).
  const small = smallShapeKinds(shapes, areas, dotsMerged(decided));
  return {
    width: size.width,
    height: size.height,
    inputWidth: image.width,
    inputHeight: image.height,
    shapeStacking: params.shapeStacking,
    chains,
    shapes,
    stats: {
      colors: countFlatColors(shapes, areas.paletteFills, areas.shaded !== undefined),
      ...(gradientShapes > 0 ? { gradients: gradientShapes } : {}),
      ...(areas.smoothAreas > 0 ? { smoothAreas: areas.smoothAreas } : {}),
      ...(small ? { smallShapes: small.count, smallShapeKinds: small.kinds } : {}),
      regions: areas.regions.count,
      chains: chains.length,
      profile: facts.profile,
      profileReason: facts.reason,
      stageMs: clock.stageMs,
      ...(clock.reusedStages.length > 0 ? { reusedStages: clock.reusedStages } : {}),
    },
  };
}

/**
 * The shapes under SMALL_SHAPE_AREA_PX and why each is left (undefined when none): a piece of a
 * smoothly shaded area's band (`shades`), a dot of a flat colour standing on its own where the
 * edge crumbs were merged (`dots`: a crumb lies between two regions, a dot inside one), or a
 * speck the profile keeps (`specks`: pixel-art cells, line art's and noisy art's specks above
 * their despeckle area).
 */
function smallShapeKinds(shapes: readonly Shape[], areas: Areas, crumbsMerged: boolean): { count: number; kinds: SmallShapeKinds } | undefined {
  let shades = 0;
  let dots = 0;
  let specks = 0;
  for (const shape of shapes) {
    if (shape.areaPx >= SMALL_SHAPE_AREA_PX) continue;
    const label = shape.region < areas.regions.count ? areas.regions.labelOf[shape.region]! : -1;
    if (label >= areas.paletteFills) shades++;
    else if (crumbsMerged) dots++;
    else specks++;
  }
  const count = shades + dots + specks;
  if (count === 0) return undefined;
  return { count, kinds: { ...(dots > 0 ? { dots } : {}), ...(shades > 0 ? { shades } : {}), ...(specks > 0 ? { specks } : {}) } };
}

type FittedChains = ReturnType<typeof toChains>;


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

/**
 * Fitted chains (in chain order, over all parts) with each chain's regions from the graph. A chain
 * the fit job made as a Chain already (jobs.ts latticeChain, from this graph) is kept as it is.
 */
function toChains(graph: ChainGraph, parts: readonly FittedChain[][]): { chains: Chain[]; primitives: (ShapePrimitive | undefined)[] } {
  // Sized once (a push per chain grew both by copies, tens of thousands of chains on pixel art).
  let total = 0;
  for (const part of parts) total += part.length;
  const chains = new Array<Chain>(total);
  const primitives = new Array<ShapePrimitive | undefined>(total);
  let c = 0;
  for (const part of parts) {
    for (const fitted of part) {
      primitives[c] = fitted.primitive;
      chains[c] = isChain(fitted) ? fitted : {
        startX: fitted.startX,
        startY: fitted.startY,
        segments: fitted.segments,
        leftRegion: graph.left[c]!,
        rightRegion: graph.right[c]!,
        closed: graph.closed[c] === 1,
      };
      c++;
    }
  }
  return { chains, primitives };
}

/** Whether a fitted chain is a Chain already (jobs.ts latticeChain). */
function isChain(fitted: FittedChain | Chain): fitted is Chain {
  return 'leftRegion' in fitted;
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
  const labelColor = new Float64Array(fills.length * 3);
  for (let l = 0; l < fills.length; l++) {
    const k = firstCluster[l]!;
    labelColor[l * 3] = palette.observed[k * 3]!;
    labelColor[l * 3 + 1] = palette.observed[k * 3 + 1]!;
    labelColor[l * 3 + 2] = palette.observed[k * 3 + 2]!;
  }
  return { finalOf, fills, labelLab: labelLabOf(labelColor), labelColor };
}

export const DEFAULT_ENGINE_PARAMS: EngineParams = {
  maxColors: 0,
  palette: [],
  minAreaPx: 0.125,
  maxPixels: 2_097_252,
  shapeStacking: 'cutouts',
  gradients: false,
  layers: false,
  profile: 'auto',
  strokes: 'none',
  maxStrokeWidthPx: 0,
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
