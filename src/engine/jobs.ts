/**
 * The engine's data-parallel work, as jobs a host may run in other threads (worker threads in
 * Node, web workers in the browser) or in line.
 * In: a job — one stage's kind and its shared, read-only inputs (plain objects and typed arrays,
 * so structured cloning carries them) — and a part: a half-open range of rows or of chains.
 * Out: that part's slice of the stage's result.
 * Every element of a result depends on the shared inputs only, never on where a part starts or
 * ends (bands read the rows around them themselves), so the parts concatenated in order give the
 * same bytes whatever the number of parts and whichever thread ran each one. That is what makes
 * the output identical across worker counts.
 */
import { DX, DY, type ChainGraph } from './boundary/boundary.js';
import { diagonalLinkRows } from './regions/diagonals.js';
import { DOT_MAX_AREA_PX, dotPixelShare } from './regions/regions.js';
import { FitScratch, fitChain, fitLatticeSteps, fitRoundLoop, latticeSteps, type FittedChain } from './fit/fit.js';
import { shrunkToInk } from './fit/pixel-floor.js';
import { labelRows } from './palette/label.js';
import type { Palette } from './palette/palette.js';
import { fitPrimitive } from './primitives.js';
import { PolishScratch } from './primitives/solver.js';
import { shoelace } from './primitives/geometry.js';
import { OutlineScratch, polygonCurves, polygonTurns, sampleOutline, type OutlineCurveOptions } from './lineart/outline-curves.js';
import { outlinePolygon, type SideRule } from './lineart/outline-polygon.js';
import { neighbourSpread, type TileMask } from './profile/profile.js';
import { TraceScratch } from './scratch.js';
import { shrinkRows } from './profile/resize.js';
import { coveragePoints, latticePoints, SubpixelScratch, type SampleContext } from './boundary/subpixel.js';
import { SEGMENT_LINE, SEGMENT_STRIDE, SegmentPath } from './segment-path.js';
import type { Chain, EngineParams, ImageProfile, ParameterizedShapeSwitches, RgbaImage, ShapePrimitive } from './types.js';

export type EngineJob =
  /** Rows of the image shrunk to outWidth × outHeight (resize.ts). */
  | { readonly kind: 'shrink'; readonly image: RgbaImage; readonly outWidth: number; readonly outHeight: number }
  /** Rows of the neighbour spread (profile.ts). */
  | { readonly kind: 'spread'; readonly image: RgbaImage }
  /** Rows of final labels: palette cluster → merged fill label via finalOf, -1 transparent (label.ts). */
  | {
      readonly kind: 'label';
      readonly image: RgbaImage;
      readonly palette: Palette;
      readonly exactColors: boolean;
      /** Edge shades between two fills go to those fills even where a third colour matches (not photos). */
      readonly edgeShades: boolean;
      readonly spread: Uint8Array;
      readonly finalOf: Int32Array;
    }
  /** Vertex rows (0 … height) of the diagonal links between same-label pixels (diagonals.ts). */
  | { readonly kind: 'links'; readonly labels: Int32Array; readonly width: number; readonly height: number }
  /** A range of chains, each fitted once (fit.ts, primitives.ts). */
  | {
      readonly kind: 'fit';
      readonly graph: ChainGraph;
      readonly profile: ImageProfile;
      readonly shapes: ParameterizedShapeSwitches;
      readonly context: SampleContext;
      /** How hard-edged line art's outlines are fitted (lineArtFitFor). */
      readonly lineArt: LineArtFit;
    };

export type EngineJobKind = EngineJob['kind'];

/** Half-open range [from, to) of rows (shrink, spread, label, links) or chains (fit). */
export interface JobPart {
  readonly from: number;
  readonly to: number;
}

export type JobOutput = Uint8Array | Int32Array | PackedChains | FittedChain[];

/**
 * Fitted chains in three typed arrays, for the way back from a thread: one clone of a few arrays
 * instead of one per chain. `starts`: startX, startY per chain; `numbers`: every chain's segment
 * path (segment-path.ts layout) one after another; `segmentCounts` per chain; `primitives` per
 * chain (few, so left as objects).
 */
export interface PackedChains {
  readonly starts: Float64Array;
  readonly numbers: Float64Array;
  readonly segmentCounts: Int32Array;
  readonly primitives: readonly (ShapePrimitive | undefined)[];
}

/**
 * Runs one part of a job. Pure: the same job and part always give the same output. Fitted chains
 * cross to another thread packed (PackedChains); `inLine` (the caller's own thread) keeps them as
 * they are, since packing and unpacking only rebuild the same segments. `scratch`: the calling
 * thread's pool of typed arrays (scratch.ts), reused part after part; none, a fresh one.
 */
export function runJob(job: EngineJob, part: JobPart, inLine = false, scratch = new TraceScratch()): JobOutput {
  switch (job.kind) {
    case 'shrink':
      return shrinkRows(job.image, job.outWidth, job.outHeight, part.from, part.to);
    case 'spread':
      return neighbourSpread(job.image.data, job.image.width, job.image.height, part.from, part.to);
    case 'label':
      return labelPart(job, part, scratch);
    case 'links':
      return diagonalLinkRows(job.labels, job.width, job.height, part.from, part.to);
    case 'fit': {
      const out = fitPart(job, part);
      return inLine ? out : packChains(out);
    }
  }
}

// The loops of runJob's cases are functions of their own, so that the dispatcher stays small: V8
// recompiled the whole switch each time a loop inside one case became hot.

function labelPart(job: Extract<EngineJob, { kind: 'label' }>, part: JobPart, scratch: TraceScratch): Int32Array {
  const { image, palette, exactColors, edgeShades, spread, finalOf } = job;
  const labels = labelRows(image.data, image.width, image.height, palette, exactColors, spread, part.from, part.to, edgeShades, scratch);
  for (let i = 0; i < labels.length; i++) labels[i] = labels[i]! < 0 ? -1 : finalOf[labels[i]!]!;
  return labels;
}

function fitPart(job: Extract<EngineJob, { kind: 'fit' }>, part: JobPart): FittedChain[] {
  // Sized once (pushes grew it by copies: tens of thousands of chains on pixel art).
  const out = new Array<FittedChain>(part.to - part.from);
  // One scratch per part: its buffers grow to the part's longest chain and serve every chain.
  const scratch: ChainFitScratch = { fit: new FitScratch(), subpixel: new SubpixelScratch(), shapes: new PolishScratch(), outline: new OutlineScratch() };
  for (let c = part.from; c < part.to; c++) out[c - part.from] = fitOneChain(scratch, job.graph, c, job.profile, job.shapes, job.context, job.lineArt);
  return out;
}

/** The scratch of one part: the curve fitters', the sub-pixel sampler's, the parameterized shapes' and line art's outline curves'. */
interface ChainFitScratch {
  readonly fit: FitScratch;
  readonly subpixel: SubpixelScratch;
  readonly shapes: PolishScratch;
  readonly outline: OutlineScratch;
}

/** Fit tolerance (px) and corner angle per profile. */
const FIT: Record<Exclude<ImageProfile, 'pixel' | 'lineart'>, { tolerancePx: number; cornerAngleDeg: number }> = {
  flat: { tolerancePx: 0.3, cornerAngleDeg: 45 },
  photo: { tolerancePx: 0.7, cornerAngleDeg: 60 },
};

/**
 * Fits one chain. A closed chain away from the image border (an isolated shape's whole outline)
 * may become a parameterized shape: a circle or an ellipse from the arc fit, else a rectangle,
 * triangle or star that measurably matches its samples (primitives.ts). Its segments are then the
 * primitive's exact geometry and `primitive` describes it.
 */
function fitOneChain(scratch: ChainFitScratch, graph: ChainGraph, c: number, profile: ImageProfile, shapes: ParameterizedShapeSwitches, context: SampleContext, lineArt: LineArtFit): FittedChain {
  const closed = graph.closed[c] === 1;
  if (profile === 'pixel' || mostlyOnTiles(graph, c, context.hardTiles)) return latticeChain(scratch.fit, graph, c, closed);
  if (profile === 'lineart') return fitLineArt(scratch, graph, c, closed, shapes, context, lineArt);
  // Clean flat art only: a photo's, a JPEG's and anti-aliased text's small pieces are grain and
  // glyph parts, traced closer to the picture by their coverage (written as pixels, small text
  // lost 0.008 SSIM).
  const dotRegionArea = context.dotRegionArea;
  const dotAreaPx = dotRegionArea ? latticeDotArea(graph, c) : 0;
  // A 1-px region's edges are written as its pixel's, whichever regions it lies between.
  const pixelDot = dotAreaPx > 0 || (dotRegionArea !== undefined && bordersOnePixelRegion(graph, c, dotRegionArea));
  // (A border of a 1-px region needs no edge samples: it is written as its pixel's edges.)
  const points = pixelDot && dotAreaPx === 0 ? undefined : coveragePoints(scratch.subpixel, graph, c, context);
  // A dot's edge samples sit inside its pixels on every side: fitted, it came out smaller than
  // they are (a 1-px dot 75 % covered: 0.26 px², invisible at 1:1). It is written as its pixels.
  if (!points || (pixelDot && Math.abs(shoelace(points)) < DOT_GROWN_RATIO * dotAreaPx)) {
    const pixels = fitLatticeSteps(scratch.fit, graph.startX[c]!, graph.startY[c]!, graph.dirs, graph.dirStart[c]!, graph.dirStart[c + 1]!, closed);
    // A chain whose ends are a junction keeps them (other chains end there too).
    return closed && dotAreaPx > 0 ? shrunkToInk(scratch.fit, pixels, dotAreaPx, dotInk(graph, c, dotAreaPx, context)) : pixels;
  }
  const isolated = closed && !touchesBorder(graph, c, context.width, context.height);
  // A blob in the photo part of a flat picture is a photo's blob: no invented corners.
  const allowed = profile === 'flat' && mostlyOnTiles(graph, c, context.photoTiles) ? shapesFor('photo', shapes) : shapes;
  // An isolated loop that is no circle or ellipse may be a rectangle, triangle, bullet, 4-gon or
  // star; fitChain tries that before fitting the spans the shape would replace.
  const shape = isolated ? (loop: Float64Array): FittedChain | undefined => fitPrimitive(scratch.shapes, loop, allowed) : undefined;
  // A literal, not a spread of FIT[profile]: the spread was a slow object clone on every chain.
  const fit = FIT[profile];
  return fitChain(scratch.fit, points, closed, { tolerancePx: fit.tolerancePx, cornerAngleDeg: fit.cornerAngleDeg, detectCircles: shapes.ellipseCircle, detectEllipses: shapes.ellipseGeneral }, shape);
}

/**
 * Chain c fitted on the lattice (fitLatticeSteps) as the trace's Chain itself, which toChains keeps
 * (index.ts): pixel art has tens of thousands, each fitted as a FittedChain that was then copied
 * into a Chain, garbage the collector copied with the trace's live objects. Chain's fields in
 * toChains' order, so every chain has one hidden class.
 */
function latticeChain(s: FitScratch, graph: ChainGraph, c: number, closed: boolean): Chain {
  const segments = latticeSteps(s, graph.startX[c]!, graph.startY[c]!, graph.dirs, graph.dirStart[c]!, graph.dirStart[c + 1]!, closed);
  return { startX: s.latticeStartX, startY: s.latticeStartY, segments, leftRegion: graph.left[c]!, rightRegion: graph.right[c]!, closed };
}

/**
 * A dot whose edge samples enclose this many times its pixels is grown by the anti-aliasing of the
 * pixels round it (a disc labelled by its middle pixel) and keeps its fitted outline.
 */
const DOT_GROWN_RATIO = 1.5;
/** A chain round DOT_MAX_AREA_PX pixels or fewer is at most this long (lattice steps: a 1×4 run). */
const LATTICE_DOT_MAX_STEPS = 10;

/**
 * The pixel area a chain that returns to its start encloses when it is a dot (DOT_MAX_AREA_PX
 * or fewer), else 0. Such a chain is closed, or both its ends are one junction (a
 * dot's pixel linked at a corner to another region of its colour).
 */
function latticeDotArea(graph: ChainGraph, c: number): number {
  const from = graph.dirStart[c]!;
  const to = graph.dirStart[c + 1]!;
  if (to - from > LATTICE_DOT_MAX_STEPS) return 0;
  // Shoelace over the steps: each step from (x, y) adds x·dy − dx·y (twice the signed area).
  let x = graph.startX[c]!;
  let y = graph.startY[c]!;
  let twice = 0;
  for (let k = from; k < to; k++) {
    const dx = DX[graph.dirs[k]!]!;
    const dy = DY[graph.dirs[k]!]!;
    twice += x * dy - dx * y;
    x += dx;
    y += dy;
  }
  const area = Math.abs(twice) / 2;
  return x === graph.startX[c]! && y === graph.startY[c]! && area <= DOT_MAX_AREA_PX ? area : 0;
}

/**
 * How much of its pixels' area a dot's colour covers (px², the dot's pixels' shares of its colour
 * against the region around it: 0 when the chain encloses no region of dotAreaPx pixels).
 */
function dotInk(graph: ChainGraph, c: number, dotAreaPx: number, ctx: SampleContext): number {
  const areas = ctx.dotRegionArea!;
  const a = graph.left[c]!;
  const b = graph.right[c]!;
  const dot = a >= 0 && areas[a] === dotAreaPx ? a : b;
  const around = dot === a ? b : a;
  if (dot < 0 || areas[dot] !== dotAreaPx) return 0;
  // The dot lies within DOT_MAX_AREA_PX pixels of the chain's start in every direction.
  const { data, width, height, regionOf, regionColor } = ctx;
  const x0 = graph.startX[c]!;
  const y0 = graph.startY[c]!;
  let ink = 0;
  for (let y = Math.max(0, y0 - DOT_MAX_AREA_PX); y < Math.min(height, y0 + DOT_MAX_AREA_PX); y++) {
    for (let x = Math.max(0, x0 - DOT_MAX_AREA_PX); x < Math.min(width, x0 + DOT_MAX_AREA_PX); x++) {
      const i = y * width + x;
      if (regionOf[i] !== dot) continue;
      const o = i * 4;
      ink += around < 0 ? data[o + 3]! / 255 : dotPixelShare(data, o, regionColor, dot, around);
    }
  }
  return ink;
}

/** Whether chain c borders a region of one pixel (transparency, region −1, is none). */
function bordersOnePixelRegion(graph: ChainGraph, c: number, regionArea: Int32Array): boolean {
  const a = graph.left[c]!;
  const b = graph.right[c]!;
  return (a >= 0 && regionArea[a] === 1) || (b >= 0 && regionArea[b] === 1);
}

/**
 * Line art as potrace traces it: the fewest-sided polygon, then corners and merged curves. An
 * isolated closed outline may then be a circle or an ellipse (arcs), or a rectangle, triangle or
 * star, tested on points along that outline as flat art's are on its edge samples.
 */
function fitLineArt(scratch: ChainFitScratch, graph: ChainGraph, c: number, closed: boolean, shapes: ParameterizedShapeSwitches, context: SampleContext, lineArt: LineArtFit): FittedChain {
  const polygon = outlinePolygon(latticePoints(graph, c), closed, lineArt.sides);
  const fitted = polygonCurves(scratch.outline, polygon, closed, lineArt.curves);
  if (!closed || touchesBorder(graph, c, context.width, context.height) || fitted.segments.length < 2) return fitted;
  // Every parameterized shape's polygon is convex or, for a star, turns in and out by turns; a
  // glyph or a blob is neither, and is spared the costly fits (a page of text has thousands).
  const turns = polygonTurns(polygon);
  if (turns === 'other') return fitted;
  const samples = sampleOutline(fitted);
  const corners = fitted.segments.hasKind(SEGMENT_LINE);
  const round = corners || turns !== 'convex' ? undefined : fitRoundLoop(scratch.fit, samples, { ...LINE_ART_ROUND, detectCircles: shapes.ellipseCircle, detectEllipses: shapes.ellipseGeneral });
  return round ?? fitPrimitive(scratch.shapes, samples, shapes) ?? fitted;
}

/** Line art's polygon side rule (outline-polygon.ts) and its curves' corner and merge limits (outline-curves.ts). */
export interface LineArtFit {
  readonly sides: SideRule;
  readonly curves: OutlineCurveOptions;
}

/**
 * Every border written in the shapes on both sides of it (cutouts, the default): sides within
 * half a pixel of the outline, potrace's alphamax (1); curves merge within 0.3 px (potrace's
 * opttolerance is 0.2: on the corpus's drawings 0.3 saves 3–9 % of the bytes for 0.0005–0.0007
 * SSIM).
 */
const LINE_ART_CUTOUTS: LineArtFit = { sides: 'chord', curves: { alphaMax: 1, mergeTolerancePx: 0.3 } };

/**
 * Ink over one paper, each border written once (tracelab.strokes=auto, where two-tone line art is
 * written as potrace writes it, and its bytes are the curves): potrace's possible sides, so a
 * drawing's polygons have potrace's vertex count; potrace's alphamax (1); curves merge within
 * 0.25 px. On the 16 1-bit drawings of bench/lineart-bilevel.mjs against potrace 1.16 (`-s`), a
 * 0.3 px merge leaves biohazard 0.0007 under potrace's SSIM, 0.2 px owl 1.03× its gzip; alphamax
 * 0.7 would cut the bytes further but puts corners on a 1-bit circle.
 */
const LINE_ART_ON_PAPER: LineArtFit = { sides: 'straightRun', curves: { alphaMax: 1, mergeTolerancePx: 0.25 } };

/** The line-art fit of a trace: under tracelab.strokes=auto the ink lies on one paper. */
export function lineArtFitFor(strokes: EngineParams['strokes']): LineArtFit {
  return strokes === 'auto' ? LINE_ART_ON_PAPER : LINE_ART_CUTOUTS;
}

/** A 1-bit outline is only known to half a pixel: a circle or an ellipse is accepted within that. */
const LINE_ART_ROUND = { tolerancePx: 0.5, cornerAngleDeg: 55 };

/**
 * Parameterized shapes a profile may fit. A photo's regions are blurry blobs whose outlines are
 * noise: a triangle, quadrilateral (rectangle, bullet) or star fitted to one is a guess that
 * puts crisp corners where the picture has none. Ellipses and circles stay (a blurred round blob
 * is still round, and they have no corners to invent).
 */
export function shapesFor(profile: ImageProfile, shapes: ParameterizedShapeSwitches): ParameterizedShapeSwitches {
  if (profile !== 'photo') return shapes;
  return {
    ...shapes,
    triangleGeneral: false,
    triangleIsosceles: false,
    quadrilateralGeneral: false,
    quadrilateralRectangle: false,
    quadrilateralBullet: false,
    starN3: false,
    starN4: false,
    starN5: false,
    starN6: false,
  };
}

/**
 * Whether most of a chain's cracks lie in flagged tiles: tiles of pixel art (profile.ts
 * hardTiles: a sprite inside a flat picture keeps its exact pixel edges instead of being smoothed
 * into curves) or of photo (photoTiles).
 */
function mostlyOnTiles(graph: ChainGraph, c: number, tiles: TileMask | undefined): boolean {
  if (!tiles) return false;
  let x = graph.startX[c]!;
  let y = graph.startY[c]!;
  let flagged = 0;
  const from = graph.dirStart[c]!;
  const to = graph.dirStart[c + 1]!;
  for (let k = from; k < to; k++) {
    const d = graph.dirs[k]!;
    // The crack's midpoint decides its tile.
    const tx = Math.floor((x + DX[d]! / 2) / tiles.tilePx);
    const ty = Math.floor((y + DY[d]! / 2) / tiles.tilePx);
    flagged += tiles.set[ty * tiles.columns + tx] ?? 0;
    x += DX[d]!;
    y += DY[d]!;
  }
  return flagged * 2 > to - from;
}

/** Whether a chain runs along (or touches) the image border: a cropped shape is no primitive. */
function touchesBorder(graph: ChainGraph, c: number, width: number, height: number): boolean {
  let x = graph.startX[c]!;
  let y = graph.startY[c]!;
  for (let k = graph.dirStart[c]!; k < graph.dirStart[c + 1]!; k++) {
    if (x <= 0 || y <= 0 || x >= width || y >= height) return true;
    const d = graph.dirs[k]!;
    x += DX[d]!;
    y += DY[d]!;
  }
  return false;
}

export function packChains(chains: readonly FittedChain[]): PackedChains {
  let size = 0;
  for (const chain of chains) size += chain.segments.length * SEGMENT_STRIDE;
  const starts = new Float64Array(chains.length * 2);
  const numbers = new Float64Array(size);
  const segmentCounts = new Int32Array(chains.length);
  let at = 0;
  chains.forEach((chain, c) => {
    starts[c * 2] = chain.startX;
    starts[c * 2 + 1] = chain.startY;
    segmentCounts[c] = chain.segments.length;
    numbers.set(chain.segments.view(), at);
    at += chain.segments.length * SEGMENT_STRIDE;
  });
  return { starts, numbers, segmentCounts, primitives: chains.map((chain) => chain.primitive) };
}

/** The chains packChains packed, each path a view into the packed numbers (chains fitted in line pass through). */
export function unpackChains(packed: PackedChains | FittedChain[]): FittedChain[] {
  if (Array.isArray(packed)) return packed;
  const { starts, numbers, segmentCounts, primitives } = packed;
  const chains: FittedChain[] = [];
  let at = 0;
  for (let c = 0; c < segmentCounts.length; c++) {
    const segments = new SegmentPath(numbers, at, segmentCounts[c]!);
    at += segmentCounts[c]!;
    const primitive = primitives[c];
    const startX = starts[c * 2]!;
    const startY = starts[c * 2 + 1]!;
    chains.push(primitive ? { startX, startY, segments, primitive } : { startX, startY, segments });
  }
  return chains;
}

/**
 * Splits [0, total) into at most `parts` contiguous ranges of about equal weight (`weightBefore(i)`
 * = summed weight of items before i, non-decreasing; default one per item). Empty ranges are
 * dropped. Only load balancing depends on the split, never the result.
 */
export function splitRange(total: number, parts: number, weightBefore: (i: number) => number = (i) => i): JobPart[] {
  const count = Math.max(1, Math.min(Math.floor(parts), total));
  const whole = weightBefore(total);
  const ranges: JobPart[] = [];
  let from = 0;
  for (let p = 1; p <= count && from < total; p++) {
    let to = total;
    if (p < count) {
      // First item index whose prefix weight reaches p/count of the whole (binary search).
      const target = (whole * p) / count;
      let lo = from + 1;
      let hi = total;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (weightBefore(mid) >= target) hi = mid;
        else lo = mid + 1;
      }
      to = lo;
    }
    if (to > from) ranges.push({ from, to });
    from = to;
  }
  return ranges;
}
