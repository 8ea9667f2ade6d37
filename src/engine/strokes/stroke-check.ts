/**
 * Render and compare (tracelab.strokes=auto): do a region's centre-lines, drawn as strokes,
 * reproduce its ink?
 * In: the region's coverage grid (coverage.ts) and its candidate centre-lines (centerline.ts).
 * Out: how far the drawn strokes are from the ink (the sum of |drawn − ink| over the ink's area),
 * and the width scale at which the strokes hold as much ink as the region (their area matched).
 * Algorithm: each pixel's drawn coverage is 1/2 − its signed distance to the stroke's edge,
 * clamped to 0–1 (a box filter across the edge, as an anti-aliasing renderer gives): the distance
 * to the nearest segment minus half the width (round caps and joins), and past a butt end the
 * larger of that and the distance beyond the end. A lettered glyph (thick and thin strokes), a
 * blob with a tail, a wrong junction or a width off by a pixel all leave a mismatch that a pen
 * line of the measured width does not.
 */
import type { CenterPath } from './centerline.js';
import type { CoverageGrid } from './coverage.js';

export interface StrokeFit {
  /** Σ |drawn − ink| over Σ ink. */
  readonly mismatch: number;
  /** Σ ink (px). */
  readonly inkAreaPx: number;
  /** Σ drawn (px). */
  readonly drawnAreaPx: number;
  /** The largest Σ |drawn − ink| over Σ ink of a tile (side tilePx) holding ink of at least a quarter of its area. */
  readonly worstTile: number;
  /** Per tile (row by row, `tilesAcross` a row, side tilePx from the grid's corner): that share; −1 with less ink. */
  readonly tileShare: Float64Array;
  /** Per tile: Σ ink (px). */
  readonly tileInkPx: Float64Array;
  readonly tilesAcross: number;
}

/**
 * The paths drawn at their widths × widthScale, against the grid's ink; `hardEdged` (1-bit ink):
 * drawn without anti-aliasing, a pixel inked where its centre is.
 */
export function strokeFit(grid: CoverageGrid, paths: readonly CenterPath[], widthScale: number, hardEdged: boolean, tilePx: number, scratch = new StrokeFitScratch()): StrokeFit {
  const outside = drawnOutside(grid, paths, widthScale, hardEdged, scratch);
  const tilesX = Math.ceil(grid.width / tilePx);
  const tileInk = new Float64Array(tilesX * Math.ceil(grid.height / tilePx));
  const tileError = new Float64Array(tileInk.length);
  let drawn = 0;
  for (let gy = 0; gy < grid.height; gy++) {
    const tileRow = Math.floor(gy / tilePx) * tilesX;
    // Tile by tile along the row, each tile's sums in registers (the same sums in the same order).
    for (let t = tileRow, gx0 = 0; gx0 < grid.width; t++, gx0 += tilePx) {
      let ink = tileInk[t]!;
      let error = tileError[t]!;
      for (let k = gy * grid.width + gx0, end = gy * grid.width + Math.min(grid.width, gx0 + tilePx); k < end; k++) {
        const d = drawnCoverage(outside[k]!, hardEdged);
        const c = grid.value[k]!;
        ink += c;
        error += Math.abs(d - c);
        drawn += d;
      }
      tileInk[t] = ink;
      tileError[t] = error;
    }
  }
  let ink = 0;
  let error = 0;
  let worstTile = 0;
  const tileShare = new Float64Array(tileInk.length).fill(-1);
  for (let t = 0; t < tileInk.length; t++) {
    ink += tileInk[t]!;
    error += tileError[t]!;
    if (tileInk[t]! < (tilePx * tilePx) / 4) continue;
    tileShare[t] = tileError[t]! / tileInk[t]!;
    worstTile = Math.max(worstTile, tileShare[t]!);
  }
  return { mismatch: error / Math.max(1e-9, ink), inkAreaPx: ink, drawnAreaPx: drawn, worstTile, tileShare, tileInkPx: tileInk, tilesAcross: tilesX };
}

/**
 * strokeFit(grid, paths, 1, hardEdged, tilePx, scratch).mismatch with one tile holding the whole
 * grid (the same sums in the same order), without the tiles' arrays: the corners' small windows
 * (corners.ts) are checked many times each.
 */
export function strokeMismatch(grid: CoverageGrid, paths: readonly CenterPath[], hardEdged: boolean, scratch: StrokeFitScratch): number {
  const outside = drawnOutside(grid, paths, 1, hardEdged, scratch);
  let ink = 0;
  let error = 0;
  for (let k = 0; k < outside.length; k++) {
    const c = grid.value[k]!;
    ink += c;
    error += Math.abs(drawnCoverage(outside[k]!, hardEdged) - c);
  }
  return error / Math.max(1e-9, ink);
}

/** The paths drawn at their widths × widthScale over the grid: per cell, its signed distance outside the strokes (scratch's buffer). */
function drawnOutside(grid: CoverageGrid, paths: readonly CenterPath[], widthScale: number, hardEdged: boolean, scratch: StrokeFitScratch): Float32Array {
  const outside = scratch.outsideFor(grid.width * grid.height);
  const inside = hardEdged ? 0 : -0.5;
  const span: RowSpan = { lo: 0, hi: 0 };
  for (const path of paths) drawPath(grid, outside, span, path, path.widthPx * widthScale, inside);
  return outside;
}

/** A pixel's drawn coverage from its signed distance outside the strokes: 1/2 − distance, clamped (1-bit: drawn where its centre is). */
function drawnCoverage(outside: number, hardEdged: boolean): number {
  return hardEdged ? (outside <= 0 ? 1 : 0) : outside <= -0.5 ? 1 : outside >= 0.5 ? 0 : 0.5 - outside;
}

/**
 * The render check's per-pixel buffer, kept between calls (a context, not module state): a
 * picture's regions are checked one after another, two or three times each.
 */
export class StrokeFitScratch {
  private outside = new Float32Array(0);

  /** A buffer of `length` pixels, every one at Infinity (outside every stroke). */
  outsideFor(length: number): Float32Array {
    if (this.outside.length < length) this.outside = new Float32Array(length);
    const view = this.outside.subarray(0, length);
    view.fill(Infinity);
    return view;
  }
}

/**
 * Per pixel of the grid, the least signed distance (px) outside any of the path's segments so far.
 * A pixel already `inside` or deeper (−0.5: fully drawn anti-aliased, 0: drawn 1-bit) is drawn
 * whatever comes after, so later segments skip it.
 */
function drawPath(grid: CoverageGrid, outside: Float32Array, span: RowSpan, path: CenterPath, widthPx: number, inside: number): void {
  const p = path.points;
  const n = p.length >> 1;
  const segments = path.closed && n > 2 ? n : Math.max(1, n - 1);
  const butt = !path.closed && path.cap === 'butt';
  for (let s = 0; s < segments; s++) {
    const a = s;
    const b = Math.min(n - 1, path.closed ? (s + 1) % n : s + 1);
    const ends = (butt && s === 0 ? BUTT_START : 0) | (butt && s === segments - 1 ? BUTT_END : 0);
    drawSegment(grid, outside, span, p[2 * a]!, p[2 * a + 1]!, p[2 * b]!, p[2 * b + 1]!, widthPx / 2, ends, inside);
  }
}

/** drawSegment's `ends` flags: the segment starts or ends a butt-ended path. */
const BUTT_START = 1;
const BUTT_END = 2;

/**
 * One segment a–b of half-width `half` drawn into `outside`. Each row visits only the pixels
 * whose centres may lie within NOT_DRAWN_PX of the stroke (segmentRowSpan): a pixel farther out
 * would get a distance of NOT_DRAWN_PX or more, which draws nothing, as Infinity does. The pixels
 * deep inside a round-ended segment are marked DRAWN_WHOLE without measuring: only the edge's
 * pixels, where the coverage is partial, need their distance.
 */
function drawSegment(grid: CoverageGrid, outside: Float32Array, span: RowSpan, ax: number, ay: number, bx: number, by: number, half: number, ends: number, inside: number): void {
  // A pixel this far out or more is drawn 0 (as far as the render check reads: 1/2 − distance).
  const reach = half + NOT_DRAWN_PX;
  const gx0 = Math.max(0, Math.floor(Math.min(ax, bx) - reach - grid.x0));
  const gy0 = Math.max(0, Math.floor(Math.min(ay, by) - reach - grid.y0));
  const gx1 = Math.min(grid.width - 1, Math.ceil(Math.max(ax, bx) + reach - grid.x0));
  const gy1 = Math.min(grid.height - 1, Math.ceil(Math.max(ay, by) + reach - grid.y0));
  // A segment that misses the grid draws nothing (the render check's windows see a few segments of many).
  if (gx0 > gx1 || gy0 > gy1) return;
  const dx = bx - ax;
  const dy = by - ay;
  const length = Math.hypot(dx, dy);
  const ux = length > 0 ? dx / length : 0;
  const uy = length > 0 ? dy / length : 0;
  // Past a butt end a pixel within NOT_DRAWN_PX of the end's line is drawn: half a pixel more.
  const spanReach = reach + (ends !== 0 ? NOT_DRAWN_PX : 0) + SPAN_SLACK_PX;
  const spans = half >= MIN_SPAN_HALF_PX;
  // Pixels this near the segment (round ends only) are drawn whole: marked, not measured.
  const deepReach = ends === 0 && spans ? half + inside - SPAN_SLACK_PX : 0;
  for (let gy = gy0; gy <= gy1; gy++) {
    const y = grid.y0 + gy + 0.5;
    if (spans) segmentRowSpan(span, ax, ay, ux, uy, length, spanReach, y);
    const from = spans ? Math.max(gx0, Math.floor(span.lo - grid.x0 - 0.5)) : gx0;
    const to = spans ? Math.min(gx1, Math.ceil(span.hi - grid.x0 - 0.5)) : gx1;
    let deepFrom = to + 1;
    let deepTo = to;
    if (deepReach > 0) {
      capsuleRowSpan(span, ax, ay, ux, uy, length, deepReach, y);
      deepFrom = Math.max(from, Math.ceil(span.lo - grid.x0 - 0.5));
      deepTo = Math.min(to, Math.floor(span.hi - grid.x0 - 0.5));
      if (deepFrom > deepTo) [deepFrom, deepTo] = [to + 1, to];
      else outside.fill(DRAWN_WHOLE, gy * grid.width + deepFrom, gy * grid.width + deepTo + 1);
    }
    for (let gx = from; gx <= to; gx++) {
      if (gx === deepFrom) gx = deepTo + 1;
      if (gx > to) break;
      const k = gy * grid.width + gx;
      if (outside[k]! <= inside) continue;
      const x = grid.x0 + gx + 0.5;
      const along = (x - ax) * ux + (y - ay) * uy;
      const across = Math.abs((x - ax) * uy - (y - ay) * ux);
      let o: number;
      // A zero-length segment (a dot, a closed path's repeated end) is its round cap.
      if (length === 0) o = capDistance(x - ax, y - ay, half, outside[k]!);
      else if (along < 0) o = ends & BUTT_START ? Math.max(across - half, -along) : capDistance(x - ax, y - ay, half, outside[k]!);
      else if (along > length) o = ends & BUTT_END ? Math.max(across - half, along - length) : capDistance(x - bx, y - by, half, outside[k]!);
      else o = across - half;
      if (o < outside[k]!) outside[k] = o;
    }
  }
}

/**
 * Narrower strokes visit their segments' whole boxes: a box a few pixels wide holds few pixels
 * the span leaves out, fewer than the span's arithmetic costs.
 */
const MIN_SPAN_HALF_PX = 2;
/** Far above the rounding of the spans' arithmetic (~1e-12 px), far below a pixel. */
const SPAN_SLACK_PX = 1e-6;

/**
 * What a pixel deep inside a stroke is marked with: it is drawn whole (anti-aliased: −0.5 or
 * less; 1-bit: 0 or less), as its measured distance would have drawn it, and later segments skip it.
 */
const DRAWN_WHOLE = -1;

/** A row's x range [lo, hi] (empty when lo > hi). */
interface RowSpan {
  lo: number;
  hi: number;
}

/**
 * An x range on the row at height y holding the points within `reach` of the segment from (ax,
 * ay), `length` long in direction (ux, uy), written into `span`: a segment no longer than `reach`
 * lies in a disc round its middle; a longer one's capsule is the union of the discs round its ends
 * and the band along it (convex, so the union is one range).
 */
function segmentRowSpan(span: RowSpan, ax: number, ay: number, ux: number, uy: number, length: number, reach: number, y: number): void {
  // A short segment lies in the disc of radius reach + length / 2 round its middle.
  if (length <= reach) {
    span.lo = Infinity;
    span.hi = -Infinity;
    addDisc(span, ax + (ux * length) / 2, y - ay - (uy * length) / 2, reach + length / 2);
    return;
  }
  capsuleRowSpan(span, ax, ay, ux, uy, length, reach, y);
}

/**
 * The x range on the row at height y of the points within `reach` of the segment (its capsule:
 * the discs round its ends and the band along it, one range as the capsule is convex), into `span`.
 */
function capsuleRowSpan(span: RowSpan, ax: number, ay: number, ux: number, uy: number, length: number, reach: number, y: number): void {
  span.lo = Infinity;
  span.hi = -Infinity;
  const dy0 = y - ay;
  addDisc(span, ax, dy0, reach);
  if (length === 0) return;
  addDisc(span, ax + ux * length, y - (ay + uy * length), reach);
  // The band: 0 ≤ along ≤ length and |across| ≤ reach, each linear in x on the row.
  let lo = -Infinity;
  let hi = Infinity;
  const along0 = dy0 * uy;
  if (ux !== 0) {
    const p = ax + (-SPAN_SLACK_PX - along0) / ux;
    const q = ax + (length + SPAN_SLACK_PX - along0) / ux;
    lo = Math.min(p, q);
    hi = Math.max(p, q);
  } else if (along0 < -SPAN_SLACK_PX || along0 > length + SPAN_SLACK_PX) return;
  const across0 = -dy0 * ux;
  if (uy !== 0) {
    const p = ax + (-reach - across0) / uy;
    const q = ax + (reach - across0) / uy;
    lo = Math.max(lo, Math.min(p, q));
    hi = Math.min(hi, Math.max(p, q));
  } else if (Math.abs(across0) > reach) return;
  if (lo > hi) return;
  span.lo = Math.min(span.lo, lo);
  span.hi = Math.max(span.hi, hi);
}

/** Widens `span` by the row's chord of the disc of radius `reach` centred at x = cx, dy from the row. */
function addDisc(span: RowSpan, cx: number, dy: number, reach: number): void {
  if (Math.abs(dy) >= reach) return;
  const half = Math.sqrt(reach * reach - dy * dy);
  span.lo = Math.min(span.lo, cx - half);
  span.hi = Math.max(span.hi, cx + half);
}

/** Drawn 0 from this far outside a stroke's edge (px): 1/2 − distance, clamped. */
const NOT_DRAWN_PX = 0.5;

/**
 * Signed distance outside a round cap of radius `half` at offset (dx, dy), or Infinity when it
 * can neither lower `least` nor draw the pixel. The octagon's distance (the larger of the larger
 * offset and their sum over √2) is within 8 % below the Euclidean one, so most pixels of a cap
 * skip the square root; BOUND_SLACK_PX keeps the test on the safe side of rounding.
 */
function capDistance(dx: number, dy: number, half: number, least: number): number {
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  if (Math.max(ax, ay, (ax + ay) * Math.SQRT1_2) - half >= Math.min(least, NOT_DRAWN_PX) + BOUND_SLACK_PX) return Infinity;
  return Math.hypot(dx, dy) - half;
}

/** Far above the rounding of a distance of a few thousand px (~1e-12), far below any distance that matters. */
const BOUND_SLACK_PX = 1e-9;
