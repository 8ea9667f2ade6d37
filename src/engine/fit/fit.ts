/**
 * Stage 7: curve fitting of one chain's sample points.
 * In: sample points (x, y pairs) of one boundary, open (ends are fixed junctions) or closed, and
 * an error tolerance in pixels. Out: segments (lines, quadratic and cubic Béziers, circular arcs)
 * starting at the first point, each within the tolerance of the samples it covers.
 *
 * Corners: turn angle over a window of s samples, kept only where the turn over 2s is not much
 * larger (a corner turns at once, an arc keeps turning: the scale-ratio test), at local maxima.
 * Spans between corners: Schneider's algorithm (Graphics Gems, 1990) — chord-length
 * parameters, least-squares cubic with fixed end tangents, Newton reparameterisation, split at
 * the worst point with a shared tangent. A span that fits a line within tolerance is a line; a
 * cubic that is a degree-elevated quadratic is written as a quadratic; a closed corner-free loop
 * that fits a circle (Kåsa fit) becomes two arcs. A closed loop that is neither may be handed to
 * a caller's shape test (an isolated loop's parameterized shapes, primitives.ts) before any span
 * is fitted: a shape that fits replaces the whole loop, so its spans are never computed.
 *
 * Work whose outcome is already known is not done, and the result is the same to the bit: an
 * error that only decides which side of a bound it lies on is measured until it is past the
 * bound, two line pieces are not refitted as a curve (it would cost as many numbers), and two
 * pieces that are the halves of a span split for want of a fit are not refitted as that span.
 */
import { DX, DY } from '../boundary/boundary.js';
import { ellipseMaxError, fitCircle, fitEllipse } from './ellipse.js';
import type { ShapePrimitive } from '../types.js';
import { hypot2 } from '../length.js';
import { EMPTY_PATH, SEGMENT_CUBIC, SEGMENT_LINE, SEGMENT_QUAD, SegmentBuilder, type SegmentCode, type SegmentPath } from '../segment-path.js';

/** The numbers the arc writer takes from its caller (per stroke mode). */
export interface ArcRule {
  /** Every sample of a run within this of its circle (px). */
  readonly tolerancePx: number;
  /**
   * The widest piece a run is written in (rad): an SVG arc is given by its ends and radius, and
   * near a half circle its centre moves across the chord by tan(sweep / 2) / 2 times any change of
   * the chord — the ends rounded to a tenth of a pixel moved a 48-px half circle's bulge by ~3 px
   * (a heroicons link, SSIM 0.99 → 0.97).
   */
  readonly maxPieceSweepRad: number;
}

export interface FitOptions {
  /** Maximum distance (px) between a sample and the fitted curve. */
  readonly tolerancePx: number;
  /** Turn (degrees) over the corner window above which a point may be a corner. */
  readonly cornerAngleDeg: number;
  /** `processing.parameterizedShapes.ellipse.circle.enabled`: closed circular loops become arcs. */
  readonly detectCircles: boolean;
  /** `processing.parameterizedShapes.ellipse.general.enabled`: closed elliptical loops become arcs. */
  readonly detectEllipses: boolean;
  /**
   * The fitted chain's circular bends as arcs by this rule (arcs.ts fitWithArcs, after the fit;
   * fitChain itself writes curves; undefined: curves only — the stroke modes' lines set it).
   */
  readonly arcs?: ArcRule;
}

export interface FittedChain {
  readonly startX: number;
  readonly startY: number;
  readonly segments: SegmentPath;
  /** Set when the whole closed loop was fitted as a circle or an ellipse. */
  readonly primitive?: ShapePrimitive;
}

/**
 * The fitters' scratch and their multi-value results, reused from chain to chain: one per fitting
 * thread's part (jobs.ts makes one per part, tests one per call), passed down to every step. The
 * garbage of per-span arrays, tuples and segment objects was most of the engine's allocation, so
 * the buffers grow and stay; a fit runs start to end on one thread and never re-enters itself.
 */
export class FitScratch {
  /** Segments of the chain being fitted; `take` hands them to the chain. */
  readonly chainOut = new SegmentBuilder();
  /** A span's pieces before mergePieces, and the sample each one ends at. */
  readonly pieces = new SegmentBuilder();
  pieceEnds = new Int32Array(64);
  /** mergePieces' candidate for two neighbours as one piece. */
  readonly candidate = new SegmentBuilder();
  /** Chord parameters of the samples being fitted (used before any recursion, never after). */
  params = new Float64Array(256);
  /** The cubic being fitted, 8 numbers: P0, P1, P2, P3. */
  readonly bez = new Float64Array(8);
  /** Turn per sample (findCorners), a closed loop rotated to its first corner, sharpenTips' vertices. */
  turns = new Float64Array(256);
  rotatedBuf = new Float64Array(512);
  /** sharpenCorners' copy of the samples with its corners moved (a new array per chain was an off-heap store each). */
  sharpenedBuf = new Float64Array(512);
  tipX = new Float64Array(64);
  tipY = new Float64Array(64);
  tipKeep = new Uint8Array(64);
  /** fitLine's line: a point on it (its samples' mean) and its unit direction. */
  lineX = 0;
  lineY = 0;
  lineDX = 0;
  lineDY = 0;
  /** The unit vector the tangent functions and normalize leave (read right after the call). */
  unitX = 1;
  unitY = 0;
  /** Where latticeSteps' chain starts (its first corner; read right after the call). */
  latticeStartX = 0;
  latticeStartY = 0;
  /** The sample maxCubicError found farthest from the curve (read right after the call). */
  worstSample = 0;
  /** The spans fitCubicRecursive failed to fit as one piece, by the sample it split them at. */
  readonly failedSplits = new FailedSplits();
}

/**
 * Where fitCubicRecursive split a span that no single piece fitted: per split sample, the span's
 * ends and end tangents, for the span being fitted (a stamp per span, so no clearing). mergePieces
 * asks it before refitting two neighbours as one piece: the same samples with the same tangents
 * and tolerance go through the same steps, so that fit is already known to fail.
 */
class FailedSplits {
  private stamp = 0;
  private stampAt = new Int32Array(0);
  private firstAt = new Int32Array(0);
  private lastAt = new Int32Array(0);
  /** Per split sample: the span's start and end tangents (4 numbers). */
  private tangentsAt = new Float64Array(0);

  /** Starts a new span over samples below n (earlier spans' records no longer match). */
  begin(n: number): void {
    if (this.stampAt.length < n) {
      const size = Math.max(n, this.stampAt.length * 2);
      this.stampAt = new Int32Array(size);
      this.firstAt = new Int32Array(size);
      this.lastAt = new Int32Array(size);
      this.tangentsAt = new Float64Array(size * 4);
      this.stamp = 0;
    }
    this.stamp++;
  }

  /** Records that samples first..last with these end tangents fitted no single piece and were split at `split`. */
  record(split: number, first: number, last: number, t0x: number, t0y: number, t1x: number, t1y: number): void {
    this.stampAt[split] = this.stamp;
    this.firstAt[split] = first;
    this.lastAt[split] = last;
    this.tangentsAt[split * 4] = t0x;
    this.tangentsAt[split * 4 + 1] = t0y;
    this.tangentsAt[split * 4 + 2] = t1x;
    this.tangentsAt[split * 4 + 3] = t1y;
  }

  /** Whether samples first..last, joined at `split`, with these end tangents are a span recorded as failed. */
  failed(split: number, first: number, last: number, t0x: number, t0y: number, t1x: number, t1y: number): boolean {
    return (
      this.stampAt[split] === this.stamp &&
      this.firstAt[split] === first &&
      this.lastAt[split] === last &&
      this.tangentsAt[split * 4] === t0x &&
      this.tangentsAt[split * 4 + 1] === t0y &&
      this.tangentsAt[split * 4 + 2] === t1x &&
      this.tangentsAt[split * 4 + 3] === t1y
    );
  }
}

/** A Float64Array of at least n numbers: `buf` itself, or a larger one (contents dropped). */
function atLeast(buf: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  return buf.length >= n ? buf : new Float64Array(Math.max(n, buf.length * 2));
}

/**
 * A chain of lattice steps fitted exactly (pixel art): straight lines between its corners, only
 * collinear vertices dropped. Read from its directions (0 E, 1 S, 2 W, 3 N) without listing its
 * vertices: on the lattice a vertex is collinear exactly when the steps into and out of it are
 * parallel, so the corners are where the direction turns. A closed chain starts at its first
 * corner. (A list of its vertices was most of pixel art's garbage: it has hundreds of thousands.)
 */
export function fitLatticeSteps(s: FitScratch, startX: number, startY: number, dirs: Uint8Array, from: number, to: number, closed: boolean): FittedChain {
  const segments = latticeSteps(s, startX, startY, dirs, from, to, closed);
  return { startX: s.latticeStartX, startY: s.latticeStartY, segments };
}

/** fitLatticeSteps' segments, its start left in s.latticeStartX, s.latticeStartY (for a caller that builds its own chain object). */
export function latticeSteps(s: FitScratch, startX: number, startY: number, dirs: Uint8Array, from: number, to: number, closed: boolean): SegmentPath {
  const steps = to - from;
  const n = closed ? steps : steps + 1;
  const segments = s.chainOut;
  segments.truncate(0);
  let x = startX;
  let y = startY;
  let firstX = NaN;
  let firstY = NaN;
  for (let i = 0; i < n; i++) {
    // Vertex i is entered by step i − 1 (a closed chain's vertex 0 by its last step) and left by
    // step i; an open chain's ends are kept.
    const isEnd = !closed && (i === 0 || i === n - 1);
    if (isEnd || (dirs[from + (i === 0 ? steps - 1 : i - 1)]! & 1) !== (dirs[from + i]! & 1)) {
      if (Number.isNaN(firstX)) {
        firstX = x;
        firstY = y;
      } else segments.line(x, y);
    }
    if (i < steps) {
      x += DX[dirs[from + i]!]!;
      y += DY[dirs[from + i]!]!;
    }
  }
  if (Number.isNaN(firstX)) {
    firstX = startX;
    firstY = startY;
  }
  if (closed) segments.line(firstX, firstY);
  s.latticeStartX = firstX;
  s.latticeStartY = firstY;
  return segments.take(0);
}

/**
 * `shape`, when given, is tried on a closed loop that is not round, before any span is fitted: a
 * shape it returns replaces the whole loop, so the spans it would have replaced are never fitted.
 */
export function fitChain(s: FitScratch, input: Float64Array, closed: boolean, options: FitOptions, shape?: (loop: Float64Array) => FittedChain | undefined): FittedChain {
  let points = input;
  // `points` is replaced (not mutated) when corners are sharpened.
  const n = points.length / 2;
  if (n < 2) return { startX: points[0] ?? 0, startY: points[1] ?? 0, segments: EMPTY_PATH };
  const corners = findCorners(s, points, closed, options.cornerAngleDeg);
  // Only a corner-free closed loop can be a circle or an ellipse.
  if (closed && corners.length === 0) {
    const round = fitRoundLoop(s, points, options);
    if (round) return round;
  }
  if (closed && shape) {
    const found = shape(points);
    if (found) return found;
  }
  points = sharpenCorners(s, points, corners, closed);
  s.chainOut.truncate(0);
  if (!closed) {
    // Spans between the corners, from sample 0 to sample n − 1.
    let from = 0;
    for (const i of corners) {
      if (i <= 0 || i >= n - 1) continue;
      fitSpan(s, points, from, i, options.tolerancePx, false);
      from = i;
    }
    fitSpan(s, points, from, n - 1, options.tolerancePx, false);
    return sharpenTips(s, points[0]!, points[1]!, false);
  }
  // Closed: rotate so the loop starts at a corner (or at sample 0), then close it.
  const start = corners.length > 0 ? corners[0]! : 0;
  const rotated = (s.rotatedBuf = atLeast(s.rotatedBuf, (n + 1) * 2));
  for (let i = 0; i <= n; i++) {
    const j = (start + i) % n;
    rotated[i * 2] = points[j * 2]!;
    rotated[i * 2 + 1] = points[j * 2 + 1]!;
  }
  // Corner offsets from the start, ascending (they ascend already, wrapped once at the start).
  const inner: number[] = [];
  for (const c of corners) {
    const i = (c - start + n) % n;
    if (i > 0) inner.push(i);
  }
  inner.sort(ascending);
  const smoothSeam = corners.length === 0;
  let from = 0;
  for (const i of inner) {
    fitSpan(s, rotated, from, i, options.tolerancePx, smoothSeam);
    from = i;
  }
  fitSpan(s, rotated, from, n, options.tolerancePx, smoothSeam);
  return sharpenTips(s, rotated[0]!, rotated[1]!, true);
}

/**
 * Sampling on crack midpoints cuts every corner: the corner sample sits up to ~0.35 px inside
 * the true corner. Move each corner sample to the intersection of lines fitted (least squares)
 * to the runs on either side, when the runs are straight enough and the point stays near.
 */
function sharpenCorners(s: FitScratch, p: Float64Array, corners: readonly number[], closed: boolean): Float64Array {
  if (corners.length === 0) return p;
  const n = p.length / 2;
  // In the scratch (a view of the samples' length): the fit reads it only until the chain's segments are taken.
  s.sharpenedBuf = atLeast(s.sharpenedBuf, p.length);
  const out = s.sharpenedBuf.subarray(0, p.length);
  out.set(p);
  const run = 4;
  for (const c of corners) {
    if (!fitLine(s, p, c, -1, run, n, closed)) continue;
    const ax = s.lineX;
    const ay = s.lineY;
    const adx = s.lineDX;
    const ady = s.lineDY;
    if (!fitLine(s, p, c, 1, run, n, closed)) continue;
    const bx = s.lineX;
    const by = s.lineY;
    const bdx = s.lineDX;
    const bdy = s.lineDY;
    // Intersect the lines (point + direction form).
    const denom = adx * bdy - ady * bdx;
    if (Math.abs(denom) < 0.3) continue; // nearly parallel: no well-defined corner
    const t = ((bx - ax) * bdy - (by - ay) * bdx) / denom;
    const ix = ax + adx * t;
    const iy = ay + ady * t;
    if (hypot2(ix - p[c * 2]!, iy - p[c * 2 + 1]!) > 1.2) continue;
    out[c * 2] = ix;
    out[c * 2 + 1] = iy;
  }
  return out;
}

/** Sample k (1 … run) beside sample c in direction dir, wrapped around a closed loop; -1 past an open end. */
function besideSample(c: number, dir: number, k: number, n: number, closed: boolean): number {
  const j = c + dir * k;
  if (closed) return ((j % n) + n) % n;
  return j < 0 || j >= n ? -1 : j;
}

/**
 * Least-squares line through `run` samples beside sample c (excluding c), left in lineX … lineDY;
 * false if there are fewer than 3 of them or they are bent.
 */
function fitLine(s: FitScratch, p: Float64Array, c: number, dir: number, run: number, n: number, closed: boolean): boolean {
  // The samples are the first `count` of besideSample(…, 1 … run): an open chain's end stops them.
  let count = 0;
  while (count < run && besideSample(c, dir, count + 1, n, closed) >= 0) count++;
  if (count < 3) return false;
  let mx = 0;
  let my = 0;
  for (let k = 1; k <= count; k++) {
    const j = besideSample(c, dir, k, n, closed);
    mx += p[j * 2]!;
    my += p[j * 2 + 1]!;
  }
  mx /= count;
  my /= count;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let k = 1; k <= count; k++) {
    const j = besideSample(c, dir, k, n, closed);
    const dx = p[j * 2]! - mx;
    const dy = p[j * 2 + 1]! - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  // Principal direction of the run; reject runs that are not straight.
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  let worst = 0;
  for (let k = 1; k <= count; k++) {
    const j = besideSample(c, dir, k, n, closed);
    worst = Math.max(worst, Math.abs(-(p[j * 2]! - mx) * dy + (p[j * 2 + 1]! - my) * dx));
  }
  if (worst > 0.3) return false;
  s.lineX = mx;
  s.lineY = my;
  s.lineDX = dx;
  s.lineDY = dy;
  return true;
}

/**
 * Spikes narrower than a pixel lose their tip: the last pixels are under half covered, so the
 * trace ends in a short flat edge. Where a short line (< 2.5 px) joins two lines that meet at a
 * sharp angle, the short line is replaced by the point where the two long lines cross, if that
 * point is near (< 3 px). Closed polygons are treated cyclically.
 */
function sharpenTips(s: FitScratch, startX: number, startY: number, closed: boolean): FittedChain {
  const segs = s.chainOut;
  const n = segs.length;
  if (n < 3 || !segs.allOfKind(SEGMENT_LINE)) return { startX, startY, segments: segs.take(0) };
  // Vertices v[0..n]: v[0] is the start, v[k] the end of segment k-1 (closed: v[n] === v[0]).
  const vx = (s.tipX = atLeast(s.tipX, n + 1));
  const vy = (s.tipY = atLeast(s.tipY, n + 1));
  vx[0] = startX;
  vy[0] = startY;
  for (let k = 0; k < n; k++) {
    vx[k + 1] = segs.x(k);
    vy[k + 1] = segs.y(k);
  }
  const count = closed ? n : n + 1;
  if (s.tipKeep.length < count) s.tipKeep = new Uint8Array(Math.max(count, s.tipKeep.length * 2));
  const keep = s.tipKeep;
  keep.fill(1, 0, count);
  for (let i = 0; i < count; i++) {
    // Closed polygons index cyclically.
    const b = closed ? wrapIndex(i, n) : i;
    const c = closed ? wrapIndex(i + 1, n) : i + 1;
    const a = closed ? wrapIndex(i - 1, n) : i - 1;
    const d = closed ? wrapIndex(i + 2, n) : i + 2;
    if (!closed && (i < 1 || i + 2 > n)) continue;
    if (!keep[b] || !keep[c] || !keep[a] || !keep[d] || b === c || a === d) continue;
    if (hypot2(vx[c]! - vx[b]!, vy[c]! - vy[b]!) >= 2.5) continue;
    const ux = vx[b]! - vx[a]!;
    const uy = vy[b]! - vy[a]!;
    const wx = vx[d]! - vx[c]!;
    const wy = vy[d]! - vy[c]!;
    const lu = hypot2(ux, uy);
    const lw = hypot2(wx, wy);
    if (lu < 3 || lw < 3) continue;
    // Sharp tip: the long sides turn by more than 100°.
    if ((ux * wx + uy * wy) / (lu * lw) > Math.cos((100 * Math.PI) / 180)) continue;
    const denom = ux * wy - uy * wx;
    if (Math.abs(denom) < 1e-9) continue;
    const t = ((vx[c]! - vx[a]!) * wy - (vy[c]! - vy[a]!) * wx) / denom;
    const px = vx[a]! + ux * t;
    const py = vy[a]! + uy * t;
    if (hypot2(px - (vx[b]! + vx[c]!) / 2, py - (vy[b]! + vy[c]!) / 2) > 3) continue;
    vx[b] = px;
    vy[b] = py;
    keep[c] = 0;
  }
  let dropped = false;
  for (let i = 0; i < count && !dropped; i++) dropped = keep[i] === 0;
  if (!dropped) return { startX, startY, segments: segs.take(0) };
  // The kept vertices as the new polygon (vx, vy hold them, so the builder can be rewritten).
  segs.truncate(0);
  if (closed) {
    let first = 0;
    while (keep[first] === 0) first++;
    for (let k = 1; k < n; k++) if (keep[(first + k) % n]) segs.line(vx[(first + k) % n]!, vy[(first + k) % n]!);
    segs.line(vx[first]!, vy[first]!);
    return { startX: vx[first]!, startY: vy[first]!, segments: segs.take(0) };
  }
  for (let i = 1; i <= n; i++) if (keep[i]) segs.line(vx[i]!, vy[i]!);
  return { startX: vx[0]!, startY: vy[0]!, segments: segs.take(0) };
}

/** Turn (radians) above which a local maximum is a corner without the scale-ratio test. */
const SURE_CORNER_RAD = (65 * Math.PI) / 180;

/** Indices of corner samples (ascending). */
export function findCorners(s: FitScratch, p: Float64Array, closed: boolean, cornerAngleDeg: number): number[] {
  const n = p.length / 2;
  if (n < 5) return [];
  const windowSamples = n >= 12 ? 3 : 2;
  const threshold = (cornerAngleDeg * Math.PI) / 180;
  const turn = (s.turns = atLeast(s.turns, n));
  for (let i = 0; i < n; i++) turn[i] = !closed && (i < 1 || i > n - 2) ? 0 : turnAt(p, n, closed, i, windowSamples);
  const corners: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = turn[i]!;
    if (t < threshold) continue;
    let isMax = true;
    for (let k = -windowSamples; k <= windowSamples && isMax; k++) {
      if (k === 0) continue;
      const j = closed ? wrapIndex(i + k, n) : i + k;
      if (j < 0 || j >= n) continue;
      const tj = turn[j]!;
      if (tj > t || (tj === t && k < 0)) isMax = false;
    }
    if (!isMax) continue;
    // Scale-ratio test: an arc turns about twice as much over twice the window; a corner not.
    const wide = turnAt(p, n, closed, i, 2 * windowSamples);
    // A sharp turn is a corner whatever the wider window says: that window may already reach
    // the next corner of a small feature (a star arm a dozen pixels long).
    if (wide > t * 1.6 && t < SURE_CORNER_RAD) continue;
    corners.push(i);
  }
  return corners;
}

/** i modulo n, in 0 … n − 1 for any whole i. */
function wrapIndex(i: number, n: number): number {
  return ((i % n) + n) % n;
}

function ascending(a: number, b: number): number {
  return a - b;
}

/**
 * Turn (radians) at sample i between the chords to the samples w before and w after it: around
 * a closed loop, or clamped to the ends of an open chain.
 */
function turnAt(p: Float64Array, n: number, closed: boolean, i: number, w: number): number {
  const a = closed ? wrapIndex(i - w, n) : Math.min(n - 1, Math.max(0, i - w));
  const b = closed ? wrapIndex(i + w, n) : Math.min(n - 1, Math.max(0, i + w));
  const ux = p[i * 2]! - p[a * 2]!;
  const uy = p[i * 2 + 1]! - p[a * 2 + 1]!;
  const vx = p[b * 2]! - p[i * 2]!;
  const vy = p[b * 2 + 1]! - p[i * 2 + 1]!;
  const lu = hypot2(ux, uy);
  const lv = hypot2(vx, vy);
  if (lu < 1e-9 || lv < 1e-9) return 0;
  return Math.acos(Math.max(-1, Math.min(1, (ux * vx + uy * vy) / (lu * lv))));
}

/**
 * Fits samples first..last (inclusive) and appends segments ending at sample `last` to chainOut.
 * Tangents travel as plain numbers (x, y pairs), not tuples: a pair per call was garbage.
 */
function fitSpan(s: FitScratch, p: Float64Array, first: number, last: number, tolerance: number, smoothSeam: boolean): void {
  if (smoothSeam) seamTangent(s, p, first, last, true);
  else endTangent(s, p, first, last, true);
  const t0x = s.unitX;
  const t0y = s.unitY;
  if (smoothSeam) seamTangent(s, p, first, last, false);
  else endTangent(s, p, first, last, false);
  const t1x = s.unitX;
  const t1y = s.unitY;
  s.pieces.truncate(0);
  s.failedSplits.begin(p.length / 2);
  fitCubicRecursive(s, p, first, last, t0x, t0y, t1x, t1y, tolerance, 0);
  mergePieces(s, p, first, t0x, t0y, t1x, t1y, tolerance);
  s.chainOut.appendFrom(s.pieces);
}

/** Appends a piece's end sample to pieceEnds (pieces and pieceEnds grow together). */
function pushEnd(s: FitScratch, sample: number): void {
  const k = s.pieces.length - 1;
  if (k >= s.pieceEnds.length) {
    const grown = new Int32Array(s.pieceEnds.length * 2);
    grown.set(s.pieceEnds);
    s.pieceEnds = grown;
  }
  s.pieceEnds[k] = sample;
}

/**
 * Splitting at the worst sample (Schneider) places breaks greedily, so neighbouring pieces can
 * often be one curve after all: each pair of neighbours is refitted as one piece (same tangents
 * at its outer ends) and kept merged when that piece is still within the tolerance. Fewer nodes
 * for the same error budget. `pieceEnds[i]` is the sample where piece i ends; both are updated.
 */
function mergePieces(s: FitScratch, p: Float64Array, first: number, t0x: number, t0y: number, t1x: number, t1y: number, tolerance: number): void {
  const ends = s.pieceEnds;
  const last = ends[s.pieces.length - 1]!;
  let k = 0;
  while (k + 1 < s.pieces.length) {
    const from = k === 0 ? first : ends[k - 1]!;
    const to = ends[k + 1]!;
    pieceTangent(s, p, from, true, first, last, t0x, t0y, t1x, t1y);
    const sx = s.unitX;
    const sy = s.unitY;
    let ex = t1x;
    let ey = t1y;
    if (to !== last) {
      pieceTangent(s, p, to, false, first, last, t0x, t0y, t1x, t1y);
      ex = s.unitX;
      ey = s.unitY;
    }
    // Fewer nodes is the means, fewer numbers the end: a cubic for a line and a quadratic saves
    // a node but no bytes. So two lines (4 numbers) can only become one line: no curve is fitted
    // for them (a third of the merge attempts on line and clip art, every one of them refused).
    // Two pieces that are the halves of a span fitCubicRecursive split, with its end tangents,
    // would repeat a fit that failed (fitOnePiece's steps are a prefix of fitCubicRecursive's).
    const pairCost = pieceCost(s.pieces.code(k)) + pieceCost(s.pieces.code(k + 1));
    if (s.failedSplits.failed(ends[k]!, from, to, sx, sy, ex, ey)) k++;
    else if (fitOnePiece(s, p, from, to, sx, sy, ex, ey, tolerance, pairCost > CHEAPEST_CURVE_COST) && pieceCost(s.candidate.code(0)) < pairCost) {
      s.pieces.mergePair(k, s.candidate, 0);
      ends.copyWithin(k, k + 1, s.pieces.length + 1);
      if (k > 0) k--; // the merged piece may now merge with its left neighbour
    } else k++;
  }
}

/**
 * mergePieces' tangent at sample i, pointing into the piece that starts (atStart) or ends there,
 * left in unitX, unitY: the span's own end tangents at its ends, else the central difference.
 */
function pieceTangent(s: FitScratch, p: Float64Array, i: number, atStart: boolean, first: number, last: number, t0x: number, t0y: number, t1x: number, t1y: number): void {
  if (i === first) {
    s.unitX = t0x;
    s.unitY = t0y;
    return;
  }
  if (i === last) {
    s.unitX = -t1x;
    s.unitY = -t1y;
    return;
  }
  normalize(s, p[(i + 1) * 2]! - p[(i - 1) * 2]!, p[(i + 1) * 2 + 1]! - p[(i - 1) * 2 + 1]!);
  if (!atStart) {
    s.unitX = -s.unitX;
    s.unitY = -s.unitY;
  }
}

/**
 * Numbers a piece writes: 2 for a line, 4 for a quadratic, 6 for a cubic or a circular arc (its
 * radius twice, its end, and a rotation and two flags of a digit each: as long as a cubic's text).
 */
/**
 * Numbers a segment is written with: a line 2, a quadratic 4, a cubic 6, an arc 5 (rx, ry, x, y,
 * and its rotation and two flags one digit each, "0 0 1": about one number's bytes).
 */
export function pieceCost(code: SegmentCode): number {
  return code === SEGMENT_LINE ? 2 : code === SEGMENT_QUAD ? 4 : code === SEGMENT_CUBIC ? 6 : ARC_COST;
}

/** What an arc costs to write (pieceCost). */
const ARC_COST = 5;

/** What the cheapest curve piece (a quadratic) writes: pieceCost(SEGMENT_QUAD). */
const CHEAPEST_CURVE_COST = 4;

/** Newton reparameterisations a piece gets while its error is within REPARAMETERIZE_REACH tolerances. */
const REPARAMETERIZE_ROUNDS = 4;
const REPARAMETERIZE_REACH = 6;

/**
 * One line or one curve (only when `curves`) through samples from..to within the tolerance, as
 * `candidate`'s only segment; false if none.
 * Only the error's side of the tolerance (and, before the last round, of REPARAMETERIZE_REACH
 * tolerances) decides anything here, so each error is measured only until it is beyond the
 * bound that decides: the same answer, sooner for the curves that miss.
 */
function fitOnePiece(s: FitScratch, p: Float64Array, from: number, to: number, t0x: number, t0y: number, t1x: number, t1y: number, tolerance: number, curves: boolean): boolean {
  s.candidate.truncate(0);
  if (to - from <= 1 || withinChord(p, from, to, tolerance)) {
    s.candidate.line(p[to * 2]!, p[to * 2 + 1]!);
    return true;
  }
  if (!curves) return false;
  const reach = tolerance * REPARAMETERIZE_REACH;
  const u = chordParameters(s, p, from, to);
  leastSquaresCubic(s, p, from, to, u, t0x, t0y, t1x, t1y);
  let err = maxCubicError(s, p, from, to, u, s.bez, reach);
  for (let iter = 0; iter < REPARAMETERIZE_ROUNDS && err > tolerance && err <= reach; iter++) {
    reparameterize(p, from, to, u, s.bez);
    leastSquaresCubic(s, p, from, to, u, t0x, t0y, t1x, t1y);
    err = maxCubicError(s, p, from, to, u, s.bez, iter === REPARAMETERIZE_ROUNDS - 1 ? tolerance : reach);
  }
  if (err > tolerance) return false;
  pushCubic(s.candidate, s.bez, tolerance);
  return true;
}

function endTangent(s: FitScratch, p: Float64Array, first: number, last: number, atStart: boolean): void {
  const span = last - first;
  const k = Math.max(1, Math.min(3, span));
  const a = atStart ? first : last;
  const b = atStart ? first + k : last - k;
  normalize(s, p[b * 2]! - p[a * 2]!, p[b * 2 + 1]! - p[a * 2 + 1]!);
}

/** Tangent at the seam of a corner-free closed loop: central difference across the seam. */
function seamTangent(s: FitScratch, p: Float64Array, first: number, last: number, atStart: boolean): void {
  const k = Math.max(1, Math.min(2, Math.floor((last - first) / 4)));
  const ax = p[(last - k) * 2]!;
  const ay = p[(last - k) * 2 + 1]!;
  const bx = p[(first + k) * 2]!;
  const by = p[(first + k) * 2 + 1]!;
  normalize(s, bx - ax, by - ay);
  if (!atStart) {
    s.unitX = -s.unitX;
    s.unitY = -s.unitY;
  }
}

function normalize(s: FitScratch, x: number, y: number): void {
  const l = hypot2(x, y);
  if (l < 1e-12) {
    s.unitX = 1;
    s.unitY = 0;
  } else {
    s.unitX = x / l;
    s.unitY = y / l;
  }
}

/** Schneider's recursion over samples first..last; appends to `pieces` and pieceEnds. */
function fitCubicRecursive(s: FitScratch, p: Float64Array, first: number, last: number, t0x: number, t0y: number, t1x: number, t1y: number, tolerance: number, depth: number): void {
  const x3 = p[last * 2]!;
  const y3 = p[last * 2 + 1]!;
  if (last - first <= 1 || withinChord(p, first, last, tolerance)) {
    s.pieces.line(x3, y3);
    pushEnd(s, last);
    return;
  }
  const u = chordParameters(s, p, first, last);
  leastSquaresCubic(s, p, first, last, u, t0x, t0y, t1x, t1y);
  let err = maxCubicError(s, p, first, last, u, s.bez, Infinity);
  let worst = s.worstSample;
  if (err <= tolerance) {
    pushCubic(s.pieces, s.bez, tolerance);
    pushEnd(s, last);
    return;
  }
  if (err <= tolerance * REPARAMETERIZE_REACH) {
    for (let iter = 0; iter < REPARAMETERIZE_ROUNDS; iter++) {
      reparameterize(p, first, last, u, s.bez);
      leastSquaresCubic(s, p, first, last, u, t0x, t0y, t1x, t1y);
      // Before the last round only the tolerance's side matters (the split takes the last
      // round's worst sample): measured only until a sample is beyond it.
      err = maxCubicError(s, p, first, last, u, s.bez, iter === REPARAMETERIZE_ROUNDS - 1 ? Infinity : tolerance);
      worst = s.worstSample;
      if (err <= tolerance) {
        pushCubic(s.pieces, s.bez, tolerance);
        pushEnd(s, last);
        return;
      }
    }
  }
  if (depth > 40) {
    // Pathological input: fall back to the polyline, which is exact at the samples.
    for (let i = first + 1; i <= last; i++) {
      s.pieces.line(p[i * 2]!, p[i * 2 + 1]!);
      pushEnd(s, i);
    }
    return;
  }
  // `u` and `bez` are scratch: nothing below reads them after the first recursive call.
  const split = Math.min(last - 1, Math.max(first + 1, worst));
  s.failedSplits.record(split, first, last, t0x, t0y, t1x, t1y);
  normalize(s, p[(split - 1) * 2]! - p[(split + 1) * 2]!, p[(split - 1) * 2 + 1]! - p[(split + 1) * 2 + 1]!);
  const tcx = s.unitX;
  const tcy = s.unitY;
  fitCubicRecursive(s, p, first, split, t0x, t0y, tcx, tcy, tolerance, depth + 1);
  fitCubicRecursive(s, p, split, last, -tcx, -tcy, t1x, t1y, tolerance, depth + 1);
}

/**
 * Whether every sample first..last lies within `tolerance` of their chord (false at the first
 * that does not). Samples within a pixel of either end are not counted when enough others remain:
 * next to a corner (or the tip of a thin spike) crack-midpoint samples are cut off by up to half a
 * pixel, which is sampling, not shape.
 */
function withinChord(p: Float64Array, first: number, last: number, tolerance: number): boolean {
  const ax = p[first * 2]!;
  const ay = p[first * 2 + 1]!;
  const bx = p[last * 2]!;
  const by = p[last * 2 + 1]!;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const trim = last - first >= 8 && len2 > 16;
  for (let i = first + 1; i < last; i++) {
    const px = p[i * 2]! - ax;
    const py = p[i * 2 + 1]! - ay;
    if (trim && (px * px + py * py < 1 || (p[i * 2]! - bx) ** 2 + (p[i * 2 + 1]! - by) ** 2 < 1)) continue;
    let d: number;
    if (len2 < 1e-12) d = hypot2(px, py);
    else {
      const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
      d = hypot2(px - t * dx, py - t * dy);
    }
    if (d > tolerance) return false;
  }
  return true;
}

/**
 * Chord-length parameters of samples first..last in [0, 1], in the scratch `params` (entries
 * 0 … last − first; the array may be longer).
 */
function chordParameters(s: FitScratch, p: Float64Array, first: number, last: number): Float64Array {
  const m = last - first + 1;
  const u = (s.params = atLeast(s.params, m));
  u[0] = 0;
  for (let i = first + 1; i <= last; i++) {
    u[i - first] = u[i - first - 1]! + hypot2(p[i * 2]! - p[(i - 1) * 2]!, p[i * 2 + 1]! - p[(i - 1) * 2 + 1]!);
  }
  const total = u[m - 1]!;
  if (total > 0) for (let i = 0; i < m; i++) u[i]! /= total;
  return u;
}

/** Cubic as 8 numbers: P0, P1, P2, P3. */
type Cubic = Float64Array;

/** Least-squares cubic through samples first..last with fixed end tangents, written into `bez`. */
function leastSquaresCubic(s: FitScratch, p: Float64Array, first: number, last: number, u: Float64Array, t0x: number, t0y: number, t1x: number, t1y: number): void {
  const x0 = p[first * 2]!;
  const y0 = p[first * 2 + 1]!;
  const x3 = p[last * 2]!;
  const y3 = p[last * 2 + 1]!;
  let c00 = 0;
  let c01 = 0;
  let c11 = 0;
  let r0 = 0;
  let r1 = 0;
  for (let i = first; i <= last; i++) {
    const t = u[i - first]!;
    const mt = 1 - t;
    const b0 = mt * mt * mt;
    const b1 = 3 * t * mt * mt;
    const b2 = 3 * t * t * mt;
    const b3 = t * t * t;
    const a0x = t0x * b1;
    const a0y = t0y * b1;
    const a1x = t1x * b2;
    const a1y = t1y * b2;
    c00 += a0x * a0x + a0y * a0y;
    c01 += a0x * a1x + a0y * a1y;
    c11 += a1x * a1x + a1y * a1y;
    const tx = p[i * 2]! - (x0 * (b0 + b1) + x3 * (b2 + b3));
    const ty = p[i * 2 + 1]! - (y0 * (b0 + b1) + y3 * (b2 + b3));
    r0 += a0x * tx + a0y * ty;
    r1 += a1x * tx + a1y * ty;
  }
  const det = c00 * c11 - c01 * c01;
  const chord = hypot2(x3 - x0, y3 - y0);
  let alpha0 = Math.abs(det) > 1e-12 ? (r0 * c11 - c01 * r1) / det : 0;
  let alpha1 = Math.abs(det) > 1e-12 ? (c00 * r1 - c01 * r0) / det : 0;
  // Degenerate or reversed handles: fall back to Wu–Barsky's heuristic of a third of the chord.
  const eps = 1e-6 * chord;
  if (alpha0 < eps || alpha1 < eps || alpha0 > chord * 2 || alpha1 > chord * 2) {
    alpha0 = chord / 3;
    alpha1 = chord / 3;
  }
  s.bez[0] = x0;
  s.bez[1] = y0;
  s.bez[2] = x0 + t0x * alpha0;
  s.bez[3] = y0 + t0y * alpha0;
  s.bez[4] = x3 + t1x * alpha1;
  s.bez[5] = y3 + t1y * alpha1;
  s.bez[6] = x3;
  s.bez[7] = y3;
}

/**
 * The curve's x (and y) at t, as plain numbers: an [x, y] pair per sample was garbage in the
 * hottest loops (V8 inlines these).
 */
function bezierX(b: Cubic, t: number): number {
  const mt = 1 - t;
  return mt * mt * mt * b[0]! + 3 * t * mt * mt * b[2]! + 3 * t * t * mt * b[4]! + t * t * t * b[6]!;
}

function bezierY(b: Cubic, t: number): number {
  const mt = 1 - t;
  return mt * mt * mt * b[1]! + 3 * t * mt * mt * b[3]! + 3 * t * t * mt * b[5]! + t * t * t * b[7]!;
}

/**
 * Largest distance between the samples first..last and the curve; the sample where it occurs is
 * left in `s.worstSample` (a scratch field rather than a returned pair: this runs once per fit
 * attempt, and the pair was garbage). When a distance exceeds `stopAbove` it is returned at once
 * (with its sample): the largest is then beyond stopAbove too, which is all such a caller asks.
 */
function maxCubicError(s: FitScratch, p: Float64Array, first: number, last: number, u: Float64Array, b: Cubic, stopAbove: number): number {
  let worst = 0;
  // worst² (a bound, not rounded back): a distance can beat `worst` only when its square beats
  // this, since sqrt is monotone; the root is taken for those only, and compared as before (ties
  // keep the first sample), so the result is the same to the bit.
  let worstSq = 0;
  let worstIndex = Math.floor((first + last) / 2);
  for (let i = first + 1; i < last; i++) {
    const t = u[i - first]!;
    const dx = bezierX(b, t) - p[i * 2]!;
    const dy = bezierY(b, t) - p[i * 2 + 1]!;
    const dSq = dx * dx + dy * dy;
    if (!(dSq > worstSq)) continue;
    const d = hypot2(dx, dy);
    if (d > worst) {
      worst = d;
      worstSq = dSq;
      worstIndex = i;
      if (worst > stopAbove) break;
    }
  }
  if (worst > stopAbove) {
    s.worstSample = worstIndex;
    return worst;
  }
  // Also bound the curve between samples: a loop or overshoot can hide between two samples.
  // (The distance to the segment between them, as a separate function had it, inlined.)
  for (let i = first; i < last; i++) {
    const t = (u[i - first]! + u[i - first + 1]!) / 2;
    const x = bezierX(b, t);
    const y = bezierY(b, t);
    const ax = p[i * 2]!;
    const ay = p[i * 2 + 1]!;
    const dx = p[(i + 1) * 2]! - ax;
    const dy = p[(i + 1) * 2 + 1]! - ay;
    const len2 = dx * dx + dy * dy;
    const along = len2 < 1e-12 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
    const ox = x - ax - along * dx;
    const oy = y - ay - along * dy;
    const dSq = ox * ox + oy * oy;
    if (!(dSq > worstSq)) continue;
    const d = hypot2(ox, oy);
    if (d > worst) {
      worst = d;
      worstSq = dSq;
      worstIndex = i - first < (last - first) / 2 ? i + 1 : i;
      if (worst > stopAbove) break;
    }
  }
  s.worstSample = worstIndex;
  return worst;
}

/** One Newton–Raphson step per sample towards the closest point on the curve, in place in `u`. */
function reparameterize(p: Float64Array, first: number, last: number, u: Float64Array, b: Cubic): void {
  for (let i = first; i <= last; i++) {
    const t = u[i - first]!;
    const mt = 1 - t;
    const x = bezierX(b, t);
    const y = bezierY(b, t);
    const d1x = 3 * (mt * mt * (b[2]! - b[0]!) + 2 * t * mt * (b[4]! - b[2]!) + t * t * (b[6]! - b[4]!));
    const d1y = 3 * (mt * mt * (b[3]! - b[1]!) + 2 * t * mt * (b[5]! - b[3]!) + t * t * (b[7]! - b[5]!));
    const d2x = 6 * (mt * (b[4]! - 2 * b[2]! + b[0]!) + t * (b[6]! - 2 * b[4]! + b[2]!));
    const d2y = 6 * (mt * (b[5]! - 2 * b[3]! + b[1]!) + t * (b[7]! - 2 * b[5]! + b[3]!));
    const ex = x - p[i * 2]!;
    const ey = y - p[i * 2 + 1]!;
    const num = ex * d1x + ey * d1y;
    const den = d1x * d1x + d1y * d1y + ex * d2x + ey * d2y;
    let nt = Math.abs(den) < 1e-12 ? t : t - num / den;
    if (!(nt >= 0 && nt <= 1)) nt = t;
    u[i - first] = nt; // each parameter depends only on its own old value
  }
  // Keep parameters monotone; Newton can swap neighbours on tight turns.
  const m = last - first + 1;
  for (let i = 1; i < m; i++) if (u[i]! < u[i - 1]!) u[i] = u[i - 1]!;
  u[0] = 0;
  u[m - 1] = 1;
}

/** Emits a cubic, or a quadratic when the cubic is (within tolerance) a raised quadratic. */
function pushCubic(out: SegmentBuilder, b: Cubic, tolerance: number): void {
  const qx1 = b[0]! + 1.5 * (b[2]! - b[0]!);
  const qy1 = b[1]! + 1.5 * (b[3]! - b[1]!);
  const qx2 = b[6]! + 1.5 * (b[4]! - b[6]!);
  const qy2 = b[7]! + 1.5 * (b[5]! - b[7]!);
  // The curves differ by at most ~0.2·|Q1−Q2| (the cubic term's largest coefficient).
  if (hypot2(qx1 - qx2, qy1 - qy2) * 0.2 <= tolerance * 0.25) {
    out.quad((qx1 + qx2) / 2, (qy1 + qy2) / 2, b[6]!, b[7]!);
    return;
  }
  out.cubic(b[2]!, b[3]!, b[4]!, b[5]!, b[6]!, b[7]!);
}

/**
 * A closed loop that lies within tolerance of an ellipse (or circle) becomes two half-ellipse
 * arcs. Near-circular fits (axes within 2 %) count as circles and obey the circle switch.
 */
export function fitRoundLoop(s: FitScratch, p: Float64Array, options: FitOptions): FittedChain | undefined {
  if (options.detectCircles) {
    const circle = fitCircleLoop(s, p, options.tolerancePx);
    if (circle) return circle;
  }
  if (!options.detectEllipses || p.length / 2 < 16) return undefined;
  const e = fitEllipse(p);
  if (!e || e.b < 2 || e.a < 2 || Math.max(e.a, e.b) / Math.min(e.a, e.b) < 1.02) return undefined;
  if (ellipseMaxError(p, e) > options.tolerancePx * ELLIPSE_TOLERANCE_SHARE) return undefined;
  const sweep = loopTurning(p, e.cx, e.cy) > 0;
  const cos = Math.cos(e.angle);
  const sin = Math.sin(e.angle);
  const rotationDeg = ((e.angle * 180) / Math.PI + 360) % 180;
  const startX = e.cx + e.a * cos;
  const startY = e.cy + e.a * sin;
  const endX = e.cx - e.a * cos;
  const endY = e.cy - e.a * sin;
  return {
    startX,
    startY,
    primitive: { family: 'ellipse', cx: e.cx, cy: e.cy, rotationDeg, rx: e.a, ry: e.b },
    segments: halfArcs(s, e.a, e.b, rotationDeg, sweep, endX, endY, startX, startY),
  };
}

/**
 * A whole-loop primitive replaces every curve of the loop, so its error shows all around the
 * shape: it must fit tighter than the piecewise curves it replaces.
 */
const ELLIPSE_TOLERANCE_SHARE = 0.7;

/** Total signed angle the loop sweeps around (cx, cy); ±2π for a simple loop around it. */
function loopTurning(p: Float64Array, cx: number, cy: number): number {
  const n = p.length / 2;
  let turning = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    let da = Math.atan2(p[j * 2 + 1]! - cy, p[j * 2]! - cx) - Math.atan2(p[i * 2 + 1]! - cy, p[i * 2]! - cx);
    if (da > Math.PI) da -= 2 * Math.PI;
    if (da < -Math.PI) da += 2 * Math.PI;
    turning += da;
  }
  return turning;
}

/**
 * A closed, corner-free loop whose samples all lie within tolerance of one circle (Kåsa
 * algebraic fit) becomes two half-circle arcs starting at the sample nearest the top.
 */
function fitCircleLoop(s: FitScratch, p: Float64Array, tolerance: number): FittedChain | undefined {
  const n = p.length / 2;
  if (n < 12) return undefined;
  const circle = fitCircle(p);
  if (!circle) return undefined;
  const { cx, cy, r } = circle;
  if (!(r > 2)) return undefined;
  // Cheap rejection first: most loops are not circles, and eight probes usually show it.
  for (let k = 0; k < 8; k++) {
    const i = Math.floor((k * n) / 8);
    if (Math.abs(hypot2(p[i * 2]! - cx, p[i * 2 + 1]! - cy) - r) > tolerance) return undefined;
  }
  let turning = 0;
  for (let i = 0; i < n; i++) {
    if (Math.abs(hypot2(p[i * 2]! - cx, p[i * 2 + 1]! - cy) - r) > tolerance) return undefined;
    const a0 = Math.atan2(p[i * 2 + 1]! - cy, p[i * 2]! - cx);
    const j = (i + 1) % n;
    const a1 = Math.atan2(p[j * 2 + 1]! - cy, p[j * 2]! - cx);
    let da = a1 - a0;
    if (da > Math.PI) da -= 2 * Math.PI;
    if (da < -Math.PI) da += 2 * Math.PI;
    turning += da;
  }
  // The samples must go round exactly once (no spiral or back-and-forth).
  if (Math.abs(Math.abs(turning) - 2 * Math.PI) > 0.1) return undefined;
  const sweep = turning > 0; // y-down: positive angle change = clockwise on screen = SVG sweep 1
  const startX = cx;
  const startY = cy - r;
  return {
    startX,
    startY,
    primitive: { family: 'circle', cx, cy, rotationDeg: 0, r },
    segments: halfArcs(s, r, r, 0, sweep, cx, cy + r, startX, startY),
  };
}

/** A round loop's two half arcs: to the far end (midX, midY), then back to the start. */
function halfArcs(s: FitScratch, rx: number, ry: number, rotationDeg: number, sweep: boolean, midX: number, midY: number, endX: number, endY: number): SegmentPath {
  const out = s.chainOut;
  out.truncate(0);
  out.arc(rx, ry, rotationDeg, false, sweep, midX, midY);
  out.arc(rx, ry, rotationDeg, false, sweep, endX, endY);
  return out.take(0);
}
