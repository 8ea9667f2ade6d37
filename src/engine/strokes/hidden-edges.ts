/**
 * tracelab.strokes=auto, after the fit: the edges no one sees, fitted loosely.
 * In: the fitted chains, the chain graph, the hand-over's mask of pixels under an opaque line
 * (auto.ts `underLines`) and the lines. Out: the chain set with every chain that lies deep under
 * the lines refitted on its lattice points within the slack they leave it (a new set; the given
 * one, which a memo may hold, is not changed).
 * Why: the fills a line borders meet under it along the hand-over's pixel split, and fitted as
 * closely as a visible edge (sub-pixel samples that read nothing there: the line's colour lies on
 * both sides) that split came out as a staircase of many nodes, all hidden by the stroke (OpenMoji
 * kiss: the face and hair fills cost more under their new stroke than the old outline fill did).
 * Algorithm: points are measured against the strokes as they will be painted: a point's depth
 * is, over the opaque lines, the most by which the line's painted half width (its width evened
 * down to a pen's, less its centre-line's fit tolerance) exceeds the point's distance to its
 * centre-line (a butt end covers nothing past it); its slack is that depth less
 * HIDDEN_EDGE_MARGIN_PX. A chain whose lattice points all lie in the mask is refitted on its
 * steps' midpoints: where their slack is MIN_LOOSE_TOLERANCE_PX or more within the least slack
 * of the run (no corners: none shows; a loop deep all round may be a circle), elsewhere as
 * closely as a visible edge, its ends kept where its neighbours meet it. A chain partly in sight
 * keeps its fitted segments there, and each run of its segments that lies deep all along is
 * refitted the same way. A refit is kept when it writes fewer numbers.
 */
import { latticePoints } from '../boundary/subpixel.js';
import type { ChainGraph } from '../boundary/boundary.js';
import { fitChain, type FitScratch, type FittedChain } from '../fit/fit.js';
import type { FittedChainSet } from '../fit/pixel-floor.js';
import { SEGMENT_CUBIC, SEGMENT_LINE, SEGMENT_QUAD, SegmentBuilder, type SegmentPath } from '../segment-path.js';
import type { Chain } from '../types.js';
import { PEN_WIDTH_RUN_RATIO, type ColoredLine } from './index.js';
import { fittedPoints } from './fitted-points.js';
import { autoStrokeFit } from './line-fit.js';

/** How far (px) a hidden edge stays inside its stroke's painted edge: no gap shows at any anti-aliasing. */
export const HIDDEN_EDGE_MARGIN_PX = 1;
/** A slack under this (px) is about the visible edges' own tolerance: such a chain stays as fitted. */
const MIN_LOOSE_TOLERANCE_PX = 1;
/** The points of a chain's run that lies near a stroke's edge are fitted as closely as flat art's edges (jobs.ts FIT). */
const SHALLOW_TOLERANCE_PX = 0.3;
/** A chain with fewer lattice points under the lines is not looked at (no run of two curves fits there). */
const MIN_SPAN_POINTS = 8;
/** A fitted segment's end is matched to the step midpoint within this distance (px) of it. */
const NEAR_PX = 1.5;
/**
 * A span in a chain partly in sight is refitted when it then writes at most this share of the
 * numbers: a few saved numbers with fractions compress worse than a staircase's short integers
 * (OpenMoji crossed fingers: 4 % fewer characters, 3 % more gzip bytes).
 */
const SPAN_GAIN = 0.6;
/** No corner is written on a hidden edge (a turn over the corner window never exceeds 180°). */
const NO_CORNER_DEG = 181;

/** What hides the edges: the hand-over's mask of pixels under opaque lines (traced px) and the lines. */
export interface HiddenEdgeCover {
  readonly underLines: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly lines: readonly ColoredLine[];
}

/** An opaque line as painted at the least: its centre-line, the half width it surely covers, its ends. */
interface PaintedLine {
  readonly points: Float64Array;
  readonly closed: boolean;
  readonly butt: boolean;
  readonly halfPx: number;
  /** Bounding box of the centre-line grown by halfPx: x0, y0, x1, y1. */
  readonly box: readonly [number, number, number, number];
}

/** The chain set with the chains deep under lines refitted within their slack (the set itself when none is). */
export function withHiddenEdgesLoosened(fitted: FittedChainSet, graph: ChainGraph, cover: HiddenEdgeCover, s: FitScratch): FittedChainSet {
  const painted = paintedLines(cover.lines);
  let chains = fitted.chains;
  let primitives = fitted.primitives;
  for (let c = 0; c < chains.length; c++) {
    const lattice = latticePoints(graph, c);
    const inMask = pointsInMask(lattice, cover);
    const closed = graph.closed[c] === 1;
    if (inMask < MIN_SPAN_POINTS || (closed && inMask < lattice.length / 2)) continue;
    const old = chains[c]!;
    const points = stepMidpoints(lattice, closed, old);
    let loose: FittedChain | undefined;
    if (inMask === lattice.length / 2) loose = closed ? looseLoop(s, points, painted) : looseOpenChain(s, points, painted);
    else if (!closed) loose = withHiddenSpansLoosened(s, old, points, painted);
    if (!loose || writtenNumbers(loose.segments) >= writtenNumbers(old.segments)) continue;
    if (chains === fitted.chains) {
      chains = chains.slice();
      primitives = primitives.slice();
    }
    chains[c] = { startX: loose.startX, startY: loose.startY, segments: loose.segments, leftRegion: old.leftRegion, rightRegion: old.rightRegion, closed: old.closed };
    primitives[c] = closed ? loose.primitive : undefined;
  }
  return chains === fitted.chains ? fitted : { chains, primitives };
}

/**
 * The midpoints of a chain's lattice steps (a staircase's corners jut half a step either side of
 * the edge it draws); an open chain keeps its fitted ends, where its neighbours end too.
 */
function stepMidpoints(lattice: Float64Array, closed: boolean, chain: Chain): Float64Array {
  const n = lattice.length / 2;
  const steps = closed ? n : n - 1;
  const out = new Float64Array((closed ? steps : steps + 2) * 2);
  const o = closed ? 0 : 2;
  for (let k = 0; k < steps; k++) {
    const j = (k + 1) % n;
    out[o + k * 2] = (lattice[k * 2]! + lattice[j * 2]!) / 2;
    out[o + k * 2 + 1] = (lattice[k * 2 + 1]! + lattice[j * 2 + 1]!) / 2;
  }
  const last = chain.segments.length - 1;
  if (closed || last < 0) return closed ? out : lattice;
  out[0] = chain.startX;
  out[1] = chain.startY;
  out[out.length - 2] = chain.segments.x(last);
  out[out.length - 1] = chain.segments.y(last);
  return out;
}

/**
 * A closed chain under lines: deep all round, refitted within its least slack (a circle or an
 * ellipse where it is one); else opened at its shallowest point and refitted run by run.
 */
function looseLoop(s: FitScratch, points: Float64Array, painted: readonly PaintedLine[]): FittedChain | undefined {
  const n = points.length / 2;
  let slackPx = Infinity;
  let shallowest = 0;
  for (let i = 0; i < n; i++) {
    const slack = pointDepthPx(points[i * 2]!, points[i * 2 + 1]!, painted) - HIDDEN_EDGE_MARGIN_PX;
    if (slack < slackPx) [slackPx, shallowest] = [slack, i];
  }
  if (slackPx >= MIN_LOOSE_TOLERANCE_PX) return fitChain(s, points, true, { tolerancePx: slackPx, cornerAngleDeg: NO_CORNER_DEG, detectCircles: true, detectEllipses: true });
  // Opened at the shallowest point, which is then both its ends, kept exactly.
  const opened = new Float64Array((n + 1) * 2);
  for (let i = 0; i <= n; i++) {
    const j = (shallowest + i) % n;
    opened[i * 2] = points[j * 2]!;
    opened[i * 2 + 1] = points[j * 2 + 1]!;
  }
  return looseOpenChain(s, opened, painted);
}

/**
 * An open chain refitted run by run: its points cut where their slack crosses
 * MIN_LOOSE_TOLERANCE_PX; a deep run is fitted within the least slack of its inner points (its
 * ends are kept exactly), a shallow one within SHALLOW_TOLERANCE_PX. Undefined when no run is deep.
 */
function looseOpenChain(s: FitScratch, points: Float64Array, painted: readonly PaintedLine[]): FittedChain | undefined {
  const n = points.length / 2;
  const slack = new Float64Array(n);
  for (let i = 0; i < n; i++) slack[i] = pointDepthPx(points[i * 2]!, points[i * 2 + 1]!, painted) - HIDDEN_EDGE_MARGIN_PX;
  // The ends are kept exactly: they count as deep.
  const deep = (i: number): boolean => i === 0 || i === n - 1 || slack[i]! >= MIN_LOOSE_TOLERANCE_PX;
  const out = new SegmentBuilder();
  let anyDeep = false;
  let from = 0;
  while (from < n - 1) {
    // A piece: the points after `from` of one kind, up to the first of the other kind (or the end).
    const isDeep = deep(from + 1);
    let to = from + 1;
    while (to < n - 1 && deep(to) === isDeep) to++;
    let tolerancePx = SHALLOW_TOLERANCE_PX;
    if (isDeep) {
      tolerancePx = Infinity;
      for (let i = from + 1; i < to; i++) tolerancePx = Math.min(tolerancePx, slack[i]!);
      if (to - from > 3) anyDeep = true;
    }
    const piece = fitChain(s, points.subarray(from * 2, to * 2 + 2), false, { tolerancePx: Math.max(tolerancePx, SHALLOW_TOLERANCE_PX), cornerAngleDeg: NO_CORNER_DEG, detectCircles: false, detectEllipses: false });
    out.appendFrom(piece.segments);
    from = to;
  }
  return anyDeep ? { startX: points[0]!, startY: points[1]!, segments: out.detach() } : undefined;
}

/** The opaque lines with the half width each surely paints (strokes/index.ts evens widths down to a pen's; its centre-line is fitted). */
function paintedLines(lines: readonly ColoredLine[]): PaintedLine[] {
  const painted: PaintedLine[] = [];
  for (const { path, color } of lines) {
    if (color.a !== 255) continue;
    const halfPx = path.widthPx / PEN_WIDTH_RUN_RATIO / 2 - autoStrokeFit(path.widthPx).tolerancePx;
    if (halfPx <= 0) continue;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < path.points.length; i += 2) {
      x0 = Math.min(x0, path.points[i]!);
      x1 = Math.max(x1, path.points[i]!);
      y0 = Math.min(y0, path.points[i + 1]!);
      y1 = Math.max(y1, path.points[i + 1]!);
    }
    painted.push({ points: path.points, closed: path.closed, butt: path.cap === 'butt', halfPx, box: [x0 - halfPx, y0 - halfPx, x1 + halfPx, y1 + halfPx] });
  }
  return painted;
}

/** Numbers a path writes (a line 2, or 1 along an axis; a quadratic 4, a cubic 6, an arc 7): its cost in bytes, nearly. */
function writtenNumbers(segments: SegmentPath, from = 0, to = segments.length): number {
  let n = 0;
  for (let k = from; k < to; k++) {
    const code = segments.code(k);
    if (code === SEGMENT_LINE) {
      const x0 = k === 0 ? NaN : segments.x(k - 1);
      const y0 = k === 0 ? NaN : segments.y(k - 1);
      n += segments.x(k) === x0 || segments.y(k) === y0 ? 1 : 2;
    } else n += code === SEGMENT_CUBIC ? 6 : code === SEGMENT_QUAD ? 4 : 7;
  }
  return n;
}

/** How many lattice points have only pixels under lines (or past the picture's border) around them. */
function pointsInMask(points: Float64Array, cover: HiddenEdgeCover): number {
  const { underLines, width, height } = cover;
  let count = 0;
  for (let i = 0; i < points.length; i += 2) {
    const px = Math.round(points[i]!);
    const py = Math.round(points[i + 1]!);
    let inside = true;
    for (let qy = py - 1; qy <= py && inside; qy++) {
      for (let qx = px - 1; qx <= px; qx++) if (qx >= 0 && qy >= 0 && qx < width && qy < height && underLines[qy * width + qx] === 0) inside = false;
    }
    if (inside) count++;
  }
  return count;
}

/** The least slack (px past the margin) of points under the painted lines. */
function leastSlackPx(points: Float64Array, from: number, to: number, painted: readonly PaintedLine[]): number {
  let least = Infinity;
  for (let i = from; i < to; i++) least = Math.min(least, pointDepthPx(points[i * 2]!, points[i * 2 + 1]!, painted) - HIDDEN_EDGE_MARGIN_PX);
  return least;
}

/**
 * An open chain that runs partly in sight: each run of two or more of its fitted segments that
 * lie deep under the lines all along (sampled as written) is refitted on the step midpoints
 * between its ends (kept exactly) within their least slack; the segments in sight stay as fitted.
 * Undefined when no run is refitted with fewer curve points.
 */
function withHiddenSpansLoosened(s: FitScratch, old: Chain, points: Float64Array, painted: readonly PaintedLine[]): FittedChain | undefined {
  const segments = old.segments;
  const m = segments.length;
  const deep = new Uint8Array(m);
  const one = new SegmentBuilder(1);
  for (let k = 0; k < m; k++) {
    one.appendFrom(segments, k, k + 1);
    const drawn = fittedPoints(k === 0 ? old.startX : segments.x(k - 1), k === 0 ? old.startY : segments.y(k - 1), one.take(0));
    deep[k] = leastSlackPx(drawn, 0, drawn.length / 2, painted) >= MIN_LOOSE_TOLERANCE_PX ? 1 : 0;
  }
  const out = new SegmentBuilder();
  let changed = false;
  for (let k = 0; k < m; ) {
    let e = k + 1;
    while (deep[k] && e < m && deep[e]) e++;
    const from = k === 0 ? [old.startX, old.startY] : [segments.x(k - 1), segments.y(k - 1)];
    const refit = deep[k] && e - k >= 2 ? refitSpan(s, points, from[0]!, from[1]!, segments.x(e - 1), segments.y(e - 1), painted) : undefined;
    if (refit && writtenNumbers(refit.segments) <= SPAN_GAIN * writtenNumbers(segments, k, e)) {
      out.appendFrom(refit.segments);
      changed = true;
    } else out.appendFrom(segments, k, e);
    k = e;
  }
  return changed ? { startX: old.startX, startY: old.startY, segments: out.detach() } : undefined;
}

/** The step midpoints between the ones nearest (x0, y0) and (x1, y1), fitted from the one point to the other within their least slack. */
function refitSpan(s: FitScratch, points: Float64Array, x0: number, y0: number, x1: number, y1: number, painted: readonly PaintedLine[]): FittedChain | undefined {
  const n = points.length / 2;
  const i = nearestPoint(points, x0, y0, 0);
  const j = nearestPoint(points, x1, y1, i + 1);
  if (i < 0 || j < 0 || j - i < 4) return undefined;
  const tolerancePx = leastSlackPx(points, i + 1, j, painted);
  if (tolerancePx < MIN_LOOSE_TOLERANCE_PX || j >= n) return undefined;
  const span = points.slice(i * 2, j * 2 + 2);
  span[0] = x0;
  span[1] = y0;
  span[span.length - 2] = x1;
  span[span.length - 1] = y1;
  return fitChain(s, span, false, { tolerancePx, cornerAngleDeg: NO_CORNER_DEG, detectCircles: false, detectEllipses: false });
}

/** The index (from `from` on) of the point nearest (x, y) when within a step of it, else −1. */
function nearestPoint(points: Float64Array, x: number, y: number, from: number): number {
  let best = -1;
  let bestPx = NEAR_PX;
  for (let i = from; i < points.length / 2; i++) {
    const d = Math.hypot(points[i * 2]! - x, points[i * 2 + 1]! - y);
    if (d < bestPx) [best, bestPx] = [i, d];
  }
  return best;
}

/** The most by which a line's painted half width exceeds (x, y)'s distance to its centre-line. */
function pointDepthPx(x: number, y: number, painted: readonly PaintedLine[]): number {
  let best = -Infinity;
  for (const line of painted) {
    const [x0, y0, x1, y1] = line.box;
    if (x < x0 || x > x1 || y < y0 || y > y1) continue;
    best = Math.max(best, line.halfPx - distanceToLinePx(x, y, line));
  }
  return best;
}

/** Distance (px) from (x, y) to a centre-line; past a butt end, none (Infinity) from the end's segment. */
function distanceToLinePx(x: number, y: number, line: PaintedLine): number {
  const p = line.points;
  const n = p.length / 2;
  if (n === 1) return line.butt ? Infinity : Math.hypot(x - p[0]!, y - p[1]!);
  const segments = line.closed ? n : n - 1;
  let best = Infinity;
  for (let k = 0; k < segments; k++) {
    const j = (k + 1) % n;
    const [ax, ay, bx, by] = [p[k * 2]!, p[k * 2 + 1]!, p[j * 2]!, p[j * 2 + 1]!];
    const lengthSq = (bx - ax) ** 2 + (by - ay) ** 2;
    const t = lengthSq > 0 ? ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / lengthSq : 0;
    // A butt end paints nothing past it: a point beyond the line's first or last point is not under that segment.
    if (line.butt && !line.closed && ((k === 0 && t < 0) || (k === segments - 1 && t > 1))) continue;
    const u = Math.min(1, Math.max(0, t));
    best = Math.min(best, Math.hypot(x - ax - u * (bx - ax), y - ay - u * (by - ay)));
  }
  return best;
}
