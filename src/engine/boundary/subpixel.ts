/**
 * Stage 6: sample points of each chain.
 * In: the chain graph, the pixels and each region's observed colour. Out: per chain, points in
 * pixel units. Pixel art keeps the exact lattice vertices. Otherwise every crack contributes its
 * midpoint moved along the crack's normal by the anti-aliasing coverage of the two pixels it
 * separates: a pixel p on side A is a blend p = t·A + (1−t)·B, so the edge lies
 * t_q − (1 − t_p) pixels beyond the crack, towards B (linear compositing of coverage, cf. the
 * survey §5.7). Transparent sides use alpha as coverage. Junction vertices stay on the lattice.
 */
import { DX, DY, type ChainGraph } from './boundary.js';
import type { TileMask } from '../profile/profile.js';
import { blendResidualSq, blendShare } from '../blend.js';
import { hypot3 } from '../length.js';
import { rampColorOfArea, rampT, type AreaRamps } from '../shading/shaded-regions.js';

export interface SampleContext {
  readonly data: Uint8Array | Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
  /** Observed mean colour per region: r, g, b. */
  readonly regionColor: Float64Array;
  /**
   * Pixels per region where dots are written as their pixels (jobs.ts fitOneChain: clean flat art,
   * whose faint dots and edge crumbs joined a neighbour), else undefined.
   */
  readonly dotRegionArea: Int32Array | undefined;
  /** Region per pixel, -1 = transparent. */
  readonly regionOf: Int32Array;
  /** Diagonal links per vertex (diagonals.ts), or undefined for pure 4-connectivity. */
  readonly links?: Uint8Array;
  /** Tiles of pixel art inside a flat or photo picture (profile.ts). */
  readonly hardTiles?: TileMask;
  /** Tiles of photo inside a flat picture (profile.ts): no cornered shapes there. */
  readonly photoTiles?: TileMask;
  /**
   * r, g, b of each colour a palette rule deleted: their pixels are region -1 yet opaque, so
   * coverage against them comes from colour, not alpha. Undefined when nothing was deleted.
   */
  readonly deletedColor?: Float64Array;
  /**
   * The smoothly shaded areas' ramps (shading.ts), when the picture has any: a shaded region's
   * colour at a pixel is its ramp's there (not its mean), and the edge between two bands of one
   * area lies where the ramp crosses their threshold.
   */
  readonly ramps?: AreaRamps;
}

/** How far (px, per axis) a chain end at a linked diagonal moves into the unlinked pixel. */
const PINCH_OFFSET = 0.25;

/**
 * At a vertex whose diagonal is linked, the chain's end moves into the unlinked pixel beside its
 * first crack, so the linked region passes through a channel instead of a single point.
 */
function pinchEnd(ctx: SampleContext, x: number, y: number, d: number, out: Float64Array, k: number): void {
  out[k * 2] = x;
  out[k * 2 + 1] = y;
  if (!ctx.links || x <= 0 || y <= 0 || x >= ctx.width || y >= ctx.height) return;
  const link = ctx.links[y * (ctx.width + 1) + x]!;
  if (link === 0) return;
  // The unlinked side is the pixel that is not on the linked diagonal (no tuples: every chain end
  // of a line-art or pinched picture comes here).
  const lx = leftPixelX(x, d);
  const ly = leftPixelY(y, d);
  const leftLinked = onLinkedDiagonal(link, x, y, lx, ly);
  const ux = leftLinked ? rightPixelX(x, d) : lx;
  const uy = leftLinked ? rightPixelY(y, d) : ly;
  out[k * 2] = x + (ux + 0.5 - x) * 2 * PINCH_OFFSET;
  out[k * 2 + 1] = y + (uy + 0.5 - y) * 2 * PINCH_OFFSET;
}

/** True when pixel (px, py) is one of the two pixels of vertex (x, y)'s linked diagonal. */
function onLinkedDiagonal(link: number, x: number, y: number, px: number, py: number): boolean {
  return link === 1 ? (px === x - 1 && py === y - 1) || (px === x && py === y) : (px === x && py === y - 1) || (px === x - 1 && py === y);
}

function regionAt(ctx: SampleContext, x: number, y: number): number {
  return x < 0 || y < 0 || x >= ctx.width || y >= ctx.height ? -1 : ctx.regionOf[y * ctx.width + x]!;
}

/** Lattice vertices of a chain (first to last; a closed chain omits the repeated start). */
export function latticePoints(graph: ChainGraph, c: number): Float64Array {
  const from = graph.dirStart[c]!;
  const to = graph.dirStart[c + 1]!;
  const steps = to - from;
  const closed = graph.closed[c] === 1;
  const count = closed ? steps : steps + 1;
  const out = new Float64Array(count * 2);
  let x = graph.startX[c]!;
  let y = graph.startY[c]!;
  out[0] = x;
  out[1] = y;
  for (let k = 0; k < count - 1; k++) {
    const d = graph.dirs[from + k]!;
    x += DX[d]!;
    y += DY[d]!;
    out[(k + 1) * 2] = x;
    out[(k + 1) * 2 + 1] = y;
  }
  return out;
}

/** Coverage of about this size is noise (compression, scanning) when placing a thin line's edges. */
const THIN_COVERAGE = 0.05;

/** Two colours closer than this (RGB units²) are one colour: no coverage is measured between them. */
const COVERAGE_MIN_SPAN_SQ = 1;

/** Minimum RGB distance between two region colours for coverage to be trusted. */
const MIN_CONTRAST = 24;

/**
 * The sub-pixel sampler's scratch, one per fitting part (jobs.ts), reused from chain to chain.
 * `coverage[0]` is the answer of coverageOfA and shadedCoverage, read by their caller right after
 * the call: they write it there rather than return it, since coveragePoints makes two or three
 * such calls per crack, more than V8 inlines there, and a fractional number returned from a call
 * that is not inlined is a new heap number.
 */
export class SubpixelScratch {
  /** coveragePoints' samples (grown as needed, never shrunk). */
  points = new Float64Array(1024);
  /** bandJunction's regions around a vertex. */
  readonly junctionRegions = new Int32Array(4);
  /** shadedCoverage's local colours of the two regions. */
  readonly localA = new Float64Array(3);
  readonly localB = new Float64Array(3);
  readonly coverage = new Float64Array(1);
}

/**
 * A chain's sub-pixel samples, as a view of a scratch buffer: valid until the next call (the
 * fitter reads them and keeps numbers, never the array). A new array per chain was the largest
 * allocation left in the fit stage.
 */
export function coveragePoints(scratch: SubpixelScratch, graph: ChainGraph, c: number, ctx: SampleContext): Float64Array {
  const from = graph.dirStart[c]!;
  const to = graph.dirStart[c + 1]!;
  const steps = to - from;
  const closed = graph.closed[c] === 1;
  const count = closed ? steps : steps + 2;
  if (scratch.points.length < count * 2) scratch.points = new Float64Array(Math.max(count * 2, scratch.points.length * 2));
  const out = scratch.points.subarray(0, count * 2);
  const a = graph.left[c]!;
  const b = graph.right[c]!;
  let x = graph.startX[c]!;
  let y = graph.startY[c]!;
  let k = 0;
  if (!closed) {
    if (!bandJunction(scratch, ctx, x, y, out, 0)) pinchEnd(ctx, x, y, graph.dirs[from]!, out, 0);
    k = 1;
  }
  const ramps = ctx.ramps;
  const threshold = ramps ? bandThreshold(ramps, a, b) : NaN;
  const shaded = ramps !== undefined && ((a >= 0 && ramps.areaOfRegion[a]! >= 0) || (b >= 0 && ramps.areaOfRegion[b]! >= 0));
  const contrastOk = a < 0 || b < 0 || colorDistance(ctx.regionColor, a, b) >= MIN_CONTRAST;
  for (let s = from; s < to; s++) {
    const d = graph.dirs[s]!;
    const mx = x + DX[d]! / 2;
    const my = y + DY[d]! / 2;
    // The pixels left and right of this crack.
    const lx = leftPixelX(x, d);
    const ly = leftPixelY(y, d);
    const rx = rightPixelX(x, d);
    const ry = rightPixelY(y, d);
    // Each rule writes the crack's offset into scratch.coverage[0] (see SubpixelScratch).
    let offset = 0;
    if (!Number.isNaN(threshold)) {
      bandCrossing(scratch, ramps!, ramps!.areaOfRegion[a]!, threshold, lx, ly, rx, ry);
      offset = scratch.coverage[0]!;
    } else if (shaded && contrastOk) {
      shadedCoverage(scratch, ctx, lx, ly, a, b);
      const tl = scratch.coverage[0]!;
      shadedCoverage(scratch, ctx, rx, ry, a, b);
      offset = Math.max(-0.5, Math.min(0.5, tl + scratch.coverage[0]! - 1));
    } else if (contrastOk) {
      flatCrackOffset(scratch, ctx, lx, ly, rx, ry, d, a, b);
      offset = scratch.coverage[0]!;
    }
    // Right-hand normal of direction d in y-down coordinates: (−dy, dx).
    out[k * 2] = mx - DY[d]! * offset;
    out[k * 2 + 1] = my + DX[d]! * offset;
    k++;
    x += DX[d]!;
    y += DY[d]!;
  }
  if (!closed && !bandJunction(scratch, ctx, x, y, out, k)) pinchEnd(ctx, x, y, (graph.dirs[to - 1]! + 2) & 3, out, k);
  return out;
}

/**
 * Two bands of one area: the edge is where the ramp's t crosses the threshold between the two
 * pixel centres (linear in between); the offset (px, within ±½) into scratch.coverage[0].
 */
function bandCrossing(scratch: SubpixelScratch, ramps: AreaRamps, area: number, threshold: number, lx: number, ly: number, rx: number, ry: number): void {
  const tl = rampT(ramps, area, lx + 0.5, ly + 0.5);
  const tr = rampT(ramps, area, rx + 0.5, ry + 0.5);
  scratch.coverage[0] = tr !== tl ? Math.max(-0.5, Math.min(0.5, (threshold - tl) / (tr - tl) - 0.5)) : 0;
}

/**
 * The offset (px, within ±½) of the crack in direction d between pixel (lx, ly) of region a and
 * (rx, ry) of region b, from region a's coverage of the two pixels, into scratch.coverage[0].
 */
function flatCrackOffset(scratch: SubpixelScratch, ctx: SampleContext, lx: number, ly: number, rx: number, ry: number, d: number, a: number, b: number): void {
  coverageOfA(scratch, ctx, lx, ly, a, b);
  const tp = scratch.coverage[0]!;
  coverageOfA(scratch, ctx, rx, ry, a, b);
  let tq = scratch.coverage[0]!;
  // A one-pixel gap between two parts of A shares its coverage between its two edges.
  if (regionAt(ctx, rx - DY[d]!, ry + DX[d]!) === a) tq /= 2;
  const farX = lx + DY[d]!;
  const farY = ly - DX[d]!;
  if (regionAt(ctx, farX, farY) !== a) {
    // A one-pixel-wide strip of A (a thin line): its ink is one interval across q | p | far.
    // Coverage in q puts this edge that far into q and p's missing share on the far side;
    // coverage beyond p puts p's missing share on this side; with neither, it is split.
    // Shares vary smoothly with the two coverages (no jumps along a line: fewer nodes).
    coverageOfA(scratch, ctx, farX, farY, a, b);
    const tFar = scratch.coverage[0]!;
    const share = (tFar + THIN_COVERAGE) / (tq + tFar + 2 * THIN_COVERAGE);
    scratch.coverage[0] = Math.max(-0.5, Math.min(0.5, tq - (1 - tp) * share));
  } else scratch.coverage[0] = Math.max(-0.5, Math.min(0.5, tp + tq - 1));
}

/**
 * Where two bands of one shaded area meet a third region, the junction moves off the lattice onto
 * the third region's sub-pixel edge (the mean of the edge points of the vertex's two cracks between
 * the area and that region), else the band edges would notch that edge by up to half a pixel at
 * every band. Every chain ending at the vertex computes the same point. False (nothing written)
 * for any other vertex.
 */
function bandJunction(scratch: SubpixelScratch, ctx: SampleContext, x: number, y: number, out: Float64Array, k: number): boolean {
  const ramps = ctx.ramps;
  if (!ramps || x <= 0 || y <= 0 || x >= ctx.width || y >= ctx.height) return false;
  const w = ctx.width;
  const around = scratch.junctionRegions;
  around[0] = ctx.regionOf[(y - 1) * w + x - 1]!; // top left
  around[1] = ctx.regionOf[(y - 1) * w + x]!; // top right
  around[2] = ctx.regionOf[y * w + x - 1]!; // bottom left
  around[3] = ctx.regionOf[y * w + x]!; // bottom right
  // The area two or more of the four pixels' regions are bands of, and the one other region.
  let area = -1;
  for (let i = 0; i < 4 && area < 0; i++) {
    const r = around[i]!;
    if (r < 0 || ramps.bandOfRegion[r]! < 0) continue;
    for (let j = i + 1; j < 4; j++) {
      const q = around[j]!;
      if (q >= 0 && q !== r && ramps.areaOfRegion[q] === ramps.areaOfRegion[r]) area = ramps.areaOfRegion[r]!;
    }
  }
  if (area < 0) return false;
  let other = -2;
  for (let i = 0; i < 4; i++) {
    const r = around[i]!;
    if (r >= 0 && ramps.areaOfRegion[r] === area) continue;
    if (r < 0 || (other !== -2 && other !== r)) return false;
    other = r;
  }
  if (other < 0) return false;
  // The four cracks at the vertex: pixel pairs (index into `around`) and their midpoints.
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let c = 0; c < 4; c++) {
    const i = CRACK_PIXELS[c * 2]!;
    const j = CRACK_PIXELS[c * 2 + 1]!;
    const ri = around[i]!;
    const rj = around[j]!;
    const iInArea = ramps.areaOfRegion[ri] === area;
    if (iInArea === (ramps.areaOfRegion[rj] === area)) continue;
    // P in the area, Q the other region; the normal points from P to Q.
    const p = iInArea ? i : j;
    const q = iInArea ? j : i;
    const rp = iInArea ? ri : rj;
    const px = x - 1 + (p & 1);
    const py = y - 1 + (p >> 1);
    const qx = x - 1 + (q & 1);
    const qy = y - 1 + (q >> 1);
    shadedCoverage(scratch, ctx, px, py, rp, other);
    const tp = scratch.coverage[0]!;
    shadedCoverage(scratch, ctx, qx, qy, rp, other);
    const offset = Math.max(-0.5, Math.min(0.5, tp + scratch.coverage[0]! - 1));
    sx += (px + qx + 1) / 2 + (qx - px) * offset;
    sy += (py + qy + 1) / 2 + (qy - py) * offset;
    n++;
  }
  if (n === 0) return false;
  out[k * 2] = sx / n;
  out[k * 2 + 1] = sy / n;
  return true;
}

/** The cracks at a vertex as pairs of its pixels (0 TL, 1 TR, 2 BL, 3 BR): up, down, left, right. */
const CRACK_PIXELS = Int8Array.from([0, 1, 2, 3, 0, 2, 1, 3]);

/**
 * The threshold (t) between regions a and b when they are neighbouring bands of one shaded area
 * (gradients off), else NaN.
 */
function bandThreshold(ramps: AreaRamps, a: number, b: number): number {
  if (a < 0 || b < 0) return NaN;
  const area = ramps.areaOfRegion[a]!;
  if (area < 0 || ramps.areaOfRegion[b] !== area) return NaN;
  const ba = ramps.bandOfRegion[a]!;
  const bb = ramps.bandOfRegion[b]!;
  if (ba < 0 || bb < 0 || Math.abs(ba - bb) !== 1) return NaN;
  return ramps.thresholds[ramps.thresholdStart[area]! + Math.min(ba, bb)]!;
}

/**
 * coverageOfA where a or b is a shaded region: each side's colour is its colour at this pixel
 * (a shaded region's ramp there, another region's mean). Written to scratch.coverage[0].
 */
function shadedCoverage(scratch: SubpixelScratch, ctx: SampleContext, x: number, y: number, a: number, b: number): void {
  if (x < 0 || y < 0 || x >= ctx.width || y >= ctx.height) {
    scratch.coverage[0] = a < 0 ? 1 : 0;
    return;
  }
  if (a < 0 || b < 0) {
    coverageOfA(scratch, ctx, x, y, a, b);
    return;
  }
  const ca = scratch.localA;
  const cb = scratch.localB;
  localColor(ctx, a, x, y, ca);
  localColor(ctx, b, x, y, cb);
  const o = (y * ctx.width + x) * 4;
  const t = blendShare(ctx.data[o]!, ctx.data[o + 1]!, ctx.data[o + 2]!, ca[0]!, ca[1]!, ca[2]!, cb[0]!, cb[1]!, cb[2]!, COVERAGE_MIN_SPAN_SQ);
  // The two sides one colour here: the edge is halfway.
  scratch.coverage[0] = Number.isNaN(t) ? 0.5 : t < 0 ? 0 : t > 1 ? 1 : t;
}


/** Region r's colour at pixel (x, y): its ramp's there when it is shaded, else its mean. */
function localColor(ctx: SampleContext, r: number, x: number, y: number, out: Float64Array): void {
  const area = ctx.ramps!.areaOfRegion[r]!;
  if (area >= 0) rampColorOfArea(ctx.ramps!, area, x + 0.5, y + 0.5, out);
  else {
    out[0] = ctx.regionColor[r * 3]!;
    out[1] = ctx.regionColor[r * 3 + 1]!;
    out[2] = ctx.regionColor[r * 3 + 2]!;
  }
}

function colorDistance(colors: Float64Array, a: number, b: number): number {
  return hypot3(colors[a * 3]! - colors[b * 3]!, colors[a * 3 + 1]! - colors[b * 3 + 1]!, colors[a * 3 + 2]! - colors[b * 3 + 2]!);
}

/*
 * The pixels on the left and on the right of the crack stepped from vertex (x, y) in direction d
 * (0=E 1=S 2=W 3=N, y down), one coordinate each: E (x, y−1) | (x, y), S (x, y) | (x−1, y),
 * W (x−1, y) | (x−1, y−1), N (x−1, y−1) | (x, y−1). Integers, so calls to them allocate nothing.
 */
function leftPixelX(x: number, d: number): number {
  return d === 0 || d === 1 ? x : x - 1;
}
function leftPixelY(y: number, d: number): number {
  return d === 0 || d === 3 ? y - 1 : y;
}
function rightPixelX(x: number, d: number): number {
  return d === 0 || d === 3 ? x : x - 1;
}
function rightPixelY(y: number, d: number): number {
  return d === 0 || d === 1 ? y : y - 1;
}

/**
 * Share (0–1) of region A's colour in pixel (x, y), between regions A and B (-1 = nothing),
 * written to scratch.coverage[0].
 */
function coverageOfA(scratch: SubpixelScratch, ctx: SampleContext, x: number, y: number, a: number, b: number): void {
  if (x < 0 || y < 0 || x >= ctx.width || y >= ctx.height) {
    scratch.coverage[0] = a < 0 ? 1 : 0;
    return;
  }
  const o = (y * ctx.width + x) * 4;
  const alpha = ctx.data[o + 3]! / 255;
  if (a < 0) {
    scratch.coverage[0] = 1 - alpha * coverageAgainstDeleted(ctx, o, b);
    return;
  }
  if (b < 0) {
    scratch.coverage[0] = alpha * coverageAgainstDeleted(ctx, o, a);
    return;
  }
  const col = ctx.regionColor;
  // Only regions MIN_CONTRAST apart get here (coveragePoints' contrastOk): no floor needed.
  const t = blendShare(ctx.data[o]!, ctx.data[o + 1]!, ctx.data[o + 2]!, col[a * 3]!, col[a * 3 + 1]!, col[a * 3 + 2]!, col[b * 3]!, col[b * 3 + 1]!, col[b * 3 + 2]!, 0);
  scratch.coverage[0] = t < 0 ? 0 : t > 1 ? 1 : t;
}

/**
 * Share (0–1) of region R's colour in the pixel at byte offset o when the other side is -1: 1 for
 * truly transparent surroundings (alpha carries the coverage); against colours a palette rule
 * deleted, the blend t·R + (1−t)·D with the deleted colour D the pixel lies closest to.
 */
function coverageAgainstDeleted(ctx: SampleContext, o: number, r: number): number {
  const deleted = ctx.deletedColor;
  if (deleted === undefined || r < 0) return 1;
  const col = ctx.regionColor;
  const pr = ctx.data[o]!;
  const pg = ctx.data[o + 1]!;
  const pb = ctx.data[o + 2]!;
  let best = 1;
  let bestMiss = Infinity;
  for (let d = 0; d < deleted.length; d += 3) {
    const raw = blendShare(pr, pg, pb, col[r * 3]!, col[r * 3 + 1]!, col[r * 3 + 2]!, deleted[d]!, deleted[d + 1]!, deleted[d + 2]!, COVERAGE_MIN_SPAN_SQ);
    if (Number.isNaN(raw)) continue;
    const t = raw < 0 ? 0 : raw > 1 ? 1 : raw;
    // Distance of the pixel from the blend at t: the deleted colour that explains the pixel best.
    const miss = blendResidualSq(pr, pg, pb, col[r * 3]!, col[r * 3 + 1]!, col[r * 3 + 2]!, deleted[d]!, deleted[d + 1]!, deleted[d + 2]!, t);
    if (miss < bestMiss) {
      bestMiss = miss;
      best = t;
    }
  }
  return best;
}
