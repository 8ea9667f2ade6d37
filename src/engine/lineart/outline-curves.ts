/**
 * Line art, step 2 of 2: a polygon (outline-polygon.ts) to corners and Bézier curves.
 * In: polygon vertices (x, y pairs), open (its end vertices are junctions and stay) or closed.
 * Out: lines and cubic Béziers from the midpoint of one side to the next.
 *
 * After Selinger, "Potrace: a polygon-based tracing algorithm" (2003), §2.3–2.4:
 * - at each vertex the curve runs from the midpoint of the side before to the midpoint of the
 *   side after, its control points a fraction α of the way to the vertex. α is chosen so the
 *   curve's middle just reaches the unit square about the vertex; a vertex that would need
 *   α > αmax (1 by default) is a corner, two straight pieces;
 * - runs of curve pieces that turn one way by less than 179° in all are merged into one Bézier
 *   whose ends keep the run's end tangents, whose control arms enclose the same area as the run,
 *   and which stays within a tolerance of every piece it replaces.
 */
import type { FittedChain } from '../fit/fit.js';
import { SEGMENT_CUBIC, SEGMENT_LINE, SegmentBuilder, type SegmentPath } from '../segment-path.js';

export interface OutlineCurveOptions {
  /** A vertex whose curve would need α above this is a corner (potrace's alphamax). */
  readonly alphaMax: number;
  /** Largest distance (px) between merged curves and the pieces they replace (potrace's opttolerance). */
  readonly mergeTolerancePx: number;
}

/** Control-arm fraction bounds of a curve piece (potrace clips α to the same range). */
const ALPHA_MIN = 0.55;
const ALPHA_CAP = 1;
/** A merged run turns by less than this (radians): a Bézier cannot follow a half turn. */
const MAX_RUN_TURN_RAD = (179 * Math.PI) / 180;

/**
 * Pieces at the polygon's vertices: piece k starts at the midpoint of the side entering vertex k
 * and ends at the midpoint of the side leaving it. alpha[k] < 0 marks a corner.
 */
interface Pieces {
  /** Vertex of each piece (index into the polygon). */
  readonly vertex: Int32Array;
  readonly alpha: Float64Array;
}

export function polygonCurves(scratch: OutlineScratch, polygon: Float64Array, closed: boolean, options: OutlineCurveOptions): FittedChain {
  const m = polygon.length / 2;
  if (m < 3) return polyline(scratch, polygon, closed);
  const first = closed ? 0 : 1;
  const last = closed ? m - 1 : m - 2;
  const count = last - first + 1;
  const vertex = new Int32Array(count);
  const alpha = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    vertex[k] = first + k;
    alpha[k] = vertexAlpha(polygon, first + k, options.alphaMax);
  }
  const pieces: Pieces = { vertex, alpha };
  // A closed outline starts at a corner where it has one, so no run of curves is cut in two.
  let rotation = 0;
  if (closed) {
    const corner = alpha.findIndex((a) => a < 0);
    if (corner > 0) rotation = corner;
  }
  const order = new Int32Array(count);
  for (let k = 0; k < count; k++) order[k] = (k + rotation) % count;
  return emit(scratch, polygon, closed, pieces, order, options.mergeTolerancePx);
}

/**
 * The outline's segments as emitted, and after joinStraightRuns: one pair per fitting part
 * (jobs.ts), reused from outline to outline.
 */
export class OutlineScratch {
  readonly emitted = new SegmentBuilder();
  readonly joined = new SegmentBuilder();
}

function polyline(scratch: OutlineScratch, polygon: Float64Array, closed: boolean): FittedChain {
  const m = polygon.length / 2;
  const segments = scratch.emitted;
  segments.truncate(0);
  for (let k = 1; k < m; k++) segments.line(polygon[k * 2]!, polygon[k * 2 + 1]!);
  if (closed && m > 1) segments.line(polygon[0]!, polygon[1]!);
  return { startX: polygon[0]!, startY: polygon[1]!, segments: segments.take(0) };
}

/**
 * α at vertex v: the curve's midpoint lies 3α/4 of the way from the sides' midpoint chord to the
 * vertex; it should reach the edge of the unit square about the vertex, which lies
 * (|nx| + |ny|) / 2 from the vertex along the chord's normal n. −1 = corner.
 */
function vertexAlpha(polygon: Float64Array, v: number, alphaMax: number): number {
  const m = polygon.length / 2;
  const [ax, ay] = sideMidpoint(polygon, v - 1);
  const [bx, by] = sideMidpoint(polygon, v);
  const px = polygon[(v % m) * 2]!;
  const py = polygon[(v % m) * 2 + 1]!;
  const cx = bx - ax;
  const cy = by - ay;
  const chord = Math.sqrt(cx * cx + cy * cy);
  if (chord < 1e-9) return -1;
  const nx = -cy / chord;
  const ny = cx / chord;
  const height = Math.abs((px - ax) * nx + (py - ay) * ny);
  const reach = (Math.abs(nx) + Math.abs(ny)) / 2;
  const alpha = height > reach ? (4 / 3) * (1 - reach / height) : 0;
  if (alpha > alphaMax) return -1;
  return Math.min(ALPHA_CAP, Math.max(ALPHA_MIN, alpha));
}

/** Midpoint of side s (from vertex s to vertex s + 1, cyclically). */
function sideMidpoint(polygon: Float64Array, s: number): [number, number] {
  const m = polygon.length / 2;
  const a = ((s % m) + m) % m;
  const b = (a + 1) % m;
  return [(polygon[a * 2]! + polygon[b * 2]!) / 2, (polygon[a * 2 + 1]! + polygon[b * 2 + 1]!) / 2];
}

/** One cubic: start, two controls, end. */
type Cubic = [number, number, number, number, number, number, number, number];

function pieceCubic(polygon: Float64Array, v: number, alpha: number): Cubic {
  const m = polygon.length / 2;
  const [ax, ay] = sideMidpoint(polygon, v - 1);
  const [bx, by] = sideMidpoint(polygon, v);
  const px = polygon[(v % m) * 2]!;
  const py = polygon[(v % m) * 2 + 1]!;
  return [ax, ay, ax + alpha * (px - ax), ay + alpha * (py - ay), bx + alpha * (px - bx), by + alpha * (py - by), bx, by];
}

/** Walks the pieces in order, merging runs of curves (fewest Béziers, by dynamic programming). */
function emit(scratch: OutlineScratch, polygon: Float64Array, closed: boolean, pieces: Pieces, order: Int32Array, tolerancePx: number): FittedChain {
  return writeRuns(scratch, polygon, closed, pieces, order, fewestRuns(polygon, pieces, order, tolerancePx));
}

/**
 * The runs of pieces with the fewest output curves: from[k] is where the run ending before piece
 * k began, merged[k] that run's one cubic (undefined: a single piece, written as it is).
 */
interface RunPlan {
  readonly from: Int32Array;
  readonly merged: readonly (Cubic | undefined)[];
}

function fewestRuns(polygon: Float64Array, pieces: Pieces, order: Int32Array, tolerancePx: number): RunPlan {
  const count = order.length;
  // best[k]: fewest output curves for the first k pieces; from[k]: where the last run began.
  const best = new Int32Array(count + 1).fill(0x7fffffff);
  const from = new Int32Array(count + 1).fill(-1);
  const merged: (Cubic | undefined)[] = new Array(count + 1);
  best[0] = 0;
  for (let i = 0; i < count; i++) {
    if (best[i] === 0x7fffffff) continue;
    const single = pieces.alpha[order[i]!]! < 0 ? 2 : 1;
    if (best[i]! + single < best[i + 1]!) {
      best[i + 1] = best[i]! + single;
      from[i + 1] = i;
      merged[i + 1] = undefined;
    }
    if (pieces.alpha[order[i]!]! < 0) continue;
    runsFrom(polygon, pieces, order, i, tolerancePx, best, from, merged);
  }
  return { from, merged };
}

/**
 * The runs of curves from piece i on that merge into one cubic (one sign of turn, less than
 * MAX_RUN_TURN_RAD in all), each improving best / from / merged at its end where it saves curves.
 */
function runsFrom(polygon: Float64Array, pieces: Pieces, order: Int32Array, i: number, tolerancePx: number, best: Int32Array, from: Int32Array, merged: (Cubic | undefined)[]): void {
  const vi = pieces.vertex[order[i]!]!;
  let turn = 0;
  let sign = 0;
  for (let j = i; j < order.length; j++) {
    const vj = pieces.vertex[order[j]!]!;
    if (pieces.alpha[order[j]!]! < 0) break;
    const t = vertexTurn(polygon, vj);
    const s = Math.sign(t);
    if (s === 0 || (sign !== 0 && s !== sign)) break;
    sign = s;
    turn += Math.abs(t);
    if (turn >= MAX_RUN_TURN_RAD) break;
    // A merge that would not save a curve is not tried (the fit is the costly part).
    if (j === i || best[i]! + 1 >= best[j + 1]!) continue;
    const candidate = mergeRun(polygon, pieces, order, i, j, vi, vj, tolerancePx);
    if (candidate) {
      best[j + 1] = best[i]! + 1;
      from[j + 1] = i;
      merged[j + 1] = candidate;
    }
  }
}

/** The planned runs as the chain's segments (scratch.emitted), read back from the end, straight runs joined. */
function writeRuns(scratch: OutlineScratch, polygon: Float64Array, closed: boolean, pieces: Pieces, order: Int32Array, plan: RunPlan): FittedChain {
  const m = polygon.length / 2;
  const { from, merged } = plan;
  const runs: { start: number; end: number; cubic: Cubic | undefined }[] = [];
  for (let k = order.length; k > 0; k = from[k]!) runs.push({ start: from[k]!, end: k, cubic: merged[k] });
  runs.reverse();
  const segments = scratch.emitted;
  segments.truncate(0);
  const startVertex = pieces.vertex[order[0]!]!;
  let [startX, startY] = sideMidpoint(polygon, startVertex - 1);
  if (!closed) {
    startX = polygon[0]!;
    startY = polygon[1]!;
    const [mx, my] = sideMidpoint(polygon, startVertex - 1);
    segments.line(mx, my);
  }
  for (const run of runs) {
    if (run.cubic) {
      const c = run.cubic;
      segments.cubic(c[2], c[3], c[4], c[5], c[6], c[7]);
      continue;
    }
    const piece = order[run.start]!;
    const v = pieces.vertex[piece]!;
    const [bx, by] = sideMidpoint(polygon, v);
    if (pieces.alpha[piece]! < 0) {
      segments.line(polygon[(v % m) * 2]!, polygon[(v % m) * 2 + 1]!);
      segments.line(bx, by);
    } else {
      const c = pieceCubic(polygon, v, pieces.alpha[piece]!);
      segments.cubic(c[2], c[3], c[4], c[5], c[6], c[7]);
    }
  }
  if (!closed) segments.line(polygon[(m - 1) * 2]!, polygon[(m - 1) * 2 + 1]!);
  return { startX, startY, segments: joinStraightRuns(scratch, startX, startY, segments) };
}

/** Signed turn (radians) of the polygon at vertex v. */
function vertexTurn(polygon: Float64Array, v: number): number {
  const m = polygon.length / 2;
  const a = (((v - 1) % m) + m) % m;
  const b = v % m;
  const c = (b + 1) % m;
  const ux = polygon[b * 2]! - polygon[a * 2]!;
  const uy = polygon[b * 2 + 1]! - polygon[a * 2 + 1]!;
  const wx = polygon[c * 2]! - polygon[b * 2]!;
  const wy = polygon[c * 2 + 1]! - polygon[b * 2 + 1]!;
  return Math.atan2(ux * wy - uy * wx, ux * wx + uy * wy);
}

/**
 * One Bézier for the curve pieces order[i … j]: from the start of piece i along the side into
 * vertex vi, to the end of piece j along the side out of vertex vj, its arms scaled so it
 * encloses the run's area; undefined when no such curve stays within the tolerance.
 */
function mergeRun(polygon: Float64Array, pieces: Pieces, order: Int32Array, i: number, j: number, vi: number, vj: number, tolerancePx: number): Cubic | undefined {
  const m = polygon.length / 2;
  const [sx, sy] = sideMidpoint(polygon, vi - 1);
  const [ex, ey] = sideMidpoint(polygon, vj);
  const pix = polygon[(vi % m) * 2]!;
  const piy = polygon[(vi % m) * 2 + 1]!;
  const pjx = polygon[(vj % m) * 2]!;
  const pjy = polygon[(vj % m) * 2 + 1]!;
  // The end tangents meet at o.
  const dx0 = pix - sx;
  const dy0 = piy - sy;
  const dx1 = pjx - ex;
  const dy1 = pjy - ey;
  const denom = dx0 * dy1 - dy0 * dx1;
  if (Math.abs(denom) < 1e-9) return undefined;
  const t0 = ((ex - sx) * dy1 - (ey - sy) * dx1) / denom;
  const t1 = ((ex - sx) * dy0 - (ey - sy) * dx0) / denom;
  if (t0 <= 0 || t1 <= 0) return undefined;
  const ox = sx + dx0 * t0;
  const oy = sy + dy0 * t0;
  const cubics: Cubic[] = [];
  let target = 0;
  for (let k = i; k <= j; k++) {
    const piece = order[k]!;
    const c = pieceCubic(polygon, pieces.vertex[piece]!, pieces.alpha[piece]!);
    cubics.push(c);
    target += cubicAreaTerm(c);
  }
  target += ex * sy - ey * sx;
  const withArms = (lambda: number): Cubic => [sx, sy, sx + lambda * (ox - sx), sy + lambda * (oy - sy), ex + lambda * (ox - ex), ey + lambda * (oy - ey), ex, ey];
  const areaAt = (lambda: number): number => cubicAreaTerm(withArms(lambda)) + (ex * sy - ey * sx);
  // The enclosed area is quadratic in the arm fraction λ: solve area(λ) = target.
  const f0 = areaAt(0);
  const fHalf = areaAt(0.5);
  const f1 = areaAt(1);
  const a1 = 4 * (fHalf - f0) - (f1 - f0);
  const a2 = f1 - f0 - a1;
  const lambda = smallestPositiveRoot(a2, a1, f0 - target);
  if (lambda === undefined || lambda > 1.2) return undefined;
  const candidate = withArms(lambda);
  for (const c of cubics) {
    for (let s = 0; s < 3; s++) {
      const [qx, qy] = cubicPoint(c, s / 3);
      if (distanceToCubic(candidate, qx, qy) > tolerancePx) return undefined;
    }
  }
  return candidate;
}

/** ∫ (x y′ − y x′) dt over a cubic: 3-point Gauss–Legendre, exact for its degree-5 integrand. */
function cubicAreaTerm(c: Cubic): number {
  let sum = 0;
  for (let g = 0; g < 3; g++) {
    const t = GAUSS_T[g]!;
    const [x, y] = cubicPoint(c, t);
    const [dx, dy] = cubicDerivative(c, t);
    sum += GAUSS_W[g]! * (x * dy - y * dx);
  }
  return sum;
}

const GAUSS_T = [0.5 - 0.5 * Math.sqrt(0.6), 0.5, 0.5 + 0.5 * Math.sqrt(0.6)];
const GAUSS_W = [5 / 18, 8 / 18, 5 / 18];

function cubicPoint(c: Cubic, t: number): [number, number] {
  const u = 1 - t;
  const b0 = u * u * u;
  const b1 = 3 * u * u * t;
  const b2 = 3 * u * t * t;
  const b3 = t * t * t;
  return [b0 * c[0] + b1 * c[2] + b2 * c[4] + b3 * c[6], b0 * c[1] + b1 * c[3] + b2 * c[5] + b3 * c[7]];
}

function cubicDerivative(c: Cubic, t: number): [number, number] {
  const u = 1 - t;
  const d0 = 3 * u * u;
  const d1 = 6 * u * t;
  const d2 = 3 * t * t;
  return [
    d0 * (c[2] - c[0]) + d1 * (c[4] - c[2]) + d2 * (c[6] - c[4]),
    d0 * (c[3] - c[1]) + d1 * (c[5] - c[3]) + d2 * (c[7] - c[5]),
  ];
}

/** Distance from a point to a cubic, through a 32-piece polyline of it (error ≪ the tolerance). */
function distanceToCubic(c: Cubic, x: number, y: number): number {
  let best = Infinity;
  let [ax, ay] = cubicPoint(c, 0);
  for (let s = 1; s <= CURVE_STEPS; s++) {
    const [bx, by] = cubicPoint(c, s / CURVE_STEPS);
    best = Math.min(best, segmentDistanceSquared(ax, ay, bx, by, x, y));
    ax = bx;
    ay = by;
  }
  return Math.sqrt(best);
}

const CURVE_STEPS = 32;

function segmentDistanceSquared(ax: number, ay: number, bx: number, by: number, x: number, y: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  let t = length2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / length2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = ax + t * dx - x;
  const ey = ay + t * dy - y;
  return ex * ex + ey * ey;
}

function smallestPositiveRoot(a: number, b: number, c: number): number | undefined {
  if (Math.abs(a) < 1e-12) {
    if (Math.abs(b) < 1e-12) return undefined;
    const r = -c / b;
    return r > 0 ? r : undefined;
  }
  const disc = b * b - 4 * a * c;
  if (disc < 0) return undefined;
  const root = Math.sqrt(disc);
  const r1 = (-b - root) / (2 * a);
  const r2 = (-b + root) / (2 * a);
  const lo = Math.min(r1, r2);
  const hi = Math.max(r1, r2);
  if (lo > 0) return lo;
  return hi > 0 ? hi : undefined;
}

/** Drops a line's end point where the next line carries on in the same direction. */
function joinStraightRuns(scratch: OutlineScratch, startX: number, startY: number, segments: SegmentBuilder): SegmentPath {
  const out = scratch.joined;
  out.truncate(0);
  let px = startX;
  let py = startY;
  const n = segments.length;
  for (let k = 0; k < n; k++) {
    const x = segments.x(k);
    const y = segments.y(k);
    const straightOn = k + 1 < n && segments.code(k) === SEGMENT_LINE && segments.code(k + 1) === SEGMENT_LINE;
    if (straightOn && isOnTheWay(px, py, x, y, segments.x(k + 1), segments.y(k + 1))) continue;
    out.appendFrom(segments, k, k + 1);
    px = x;
    py = y;
  }
  return out.take(0);
}

function isOnTheWay(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  const ux = bx - ax;
  const uy = by - ay;
  const wx = cx - bx;
  const wy = cy - by;
  const lu = Math.sqrt(ux * ux + uy * uy);
  const lw = Math.sqrt(wx * wx + wy * wy);
  if (lu === 0 || lw === 0) return true;
  return Math.abs(ux * wy - uy * wx) < 1e-9 * lu * lw && ux * wx + uy * wy > 0;
}

/**
 * Points along a closed fitted outline about a pixel apart (lines and cubics only), for the
 * parameterized-shape tests that flat art runs on its edge samples.
 */
export function sampleOutline(chain: FittedChain): Float64Array {
  const out: number[] = [];
  let x = chain.startX;
  let y = chain.startY;
  const g = chain.segments;
  for (let s = 0; s < g.length; s++) {
    const isCubic = g.code(s) === SEGMENT_CUBIC;
    const isLine = g.code(s) === SEGMENT_LINE;
    const ex = g.x(s);
    const ey = g.y(s);
    const c: Cubic = isCubic ? [x, y, g.c1x(s), g.c1y(s), g.c2x(s), g.c2y(s), ex, ey] : [x, y, x, y, ex, ey, ex, ey];
    // The control polygon is at least as long as the curve.
    const span = Math.hypot(c[2] - c[0], c[3] - c[1]) + Math.hypot(c[4] - c[2], c[5] - c[3]) + Math.hypot(c[6] - c[4], c[7] - c[5]);
    const count = Math.max(1, Math.ceil(span));
    for (let k = 1; k <= count; k++) {
      const [px, py] = isLine ? [x + ((ex - x) * k) / count, y + ((ey - y) * k) / count] : cubicPoint(c, k / count);
      out.push(px, py);
    }
    x = ex;
    y = ey;
  }
  // The last point is the start again.
  out.length -= 2;
  return Float64Array.from(out);
}

/**
 * How a closed polygon turns: 'convex' (it turns back by less than NEARLY_CONVEX_RAD in all:
 * digitising a convex outline leaves a few small wrong-way turns), 'alternating' (its sharp turns
 * go in and out by turns, as a star's tips and notches do) or 'other'.
 */
export function polygonTurns(polygon: Float64Array): 'convex' | 'alternating' | 'other' {
  const m = polygon.length / 2;
  let total = 0;
  let sum = 0;
  let alternating = true;
  let sharp = 0;
  let previous = 0;
  let first = 0;
  for (let v = 0; v < m; v++) {
    const t = vertexTurn(polygon, v);
    total += Math.abs(t);
    sum += t;
    if (Math.abs(t) < SHARP_TURN_RAD) continue;
    const sign = t > 0 ? 1 : -1;
    sharp++;
    if (previous === sign) alternating = false;
    if (previous === 0) first = sign;
    previous = sign;
  }
  // A simple loop turns by ±2π in all; what it turns beyond that, it turned back and forth.
  if (total - Math.abs(sum) < 2 * NEARLY_CONVEX_RAD) return 'convex';
  return alternating && sharp >= 6 && sharp % 2 === 0 && previous !== first ? 'alternating' : 'other';
}

const NEARLY_CONVEX_RAD = (25 * Math.PI) / 180;
const SHARP_TURN_RAD = (20 * Math.PI) / 180;
