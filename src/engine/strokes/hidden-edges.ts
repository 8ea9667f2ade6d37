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
 * Algorithm: a chain none of whose lattice points touches a pixel outside the mask is measured
 * against the strokes as they will be painted: a point's depth is, over the opaque lines, the
 * most by which the line's painted half width (its width evened down to a pen's, less its
 * centre-line's fit tolerance) exceeds the point's distance to its centre-line (a butt end covers
 * nothing past it). The chain's slack is its least depth less HIDDEN_EDGE_MARGIN_PX; with
 * MIN_LOOSE_TOLERANCE_PX or more it is refitted within the slack (no corners: none shows), its
 * ends kept where its neighbours meet it, and kept when it needs fewer curve points.
 */
import { latticePoints } from '../boundary/subpixel.js';
import type { ChainGraph } from '../boundary/boundary.js';
import { fitChain, type FitScratch, type FittedChain } from '../fit/fit.js';
import type { FittedChainSet } from '../fit/pixel-floor.js';
import { SEGMENT_ARC, SEGMENT_CUBIC, SEGMENT_QUAD, SegmentBuilder, type SegmentPath } from '../segment-path.js';
import type { Chain } from '../types.js';
import { PEN_WIDTH_RUN_RATIO, type ColoredLine } from './index.js';
import { autoStrokeFit } from './line-fit.js';

/** How far (px) a hidden edge stays inside its stroke's painted edge: no gap shows at any anti-aliasing. */
export const HIDDEN_EDGE_MARGIN_PX = 1;
/** A slack under this (px) is about the visible edges' own tolerance: such a chain stays as fitted. */
const MIN_LOOSE_TOLERANCE_PX = 1;
/** The points of a chain's run that lies near a stroke's edge are fitted as closely as flat art's edges (jobs.ts FIT). */
const SHALLOW_TOLERANCE_PX = 0.3;
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
    if (!allInMask(lattice, cover)) continue;
    const old = chains[c]!;
    const closed = graph.closed[c] === 1;
    const points = stepMidpoints(lattice, closed, old);
    const loose = closed ? looseLoop(s, points, painted) : looseOpenChain(s, points, painted);
    if (!loose || curvePoints(loose.segments) >= curvePoints(old.segments)) continue;
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

/** Curve points a path writes (a line 1, a quadratic 2, a cubic 3, an arc about as many as a cubic). */
function curvePoints(segments: SegmentPath): number {
  let n = 0;
  for (let k = 0; k < segments.length; k++) {
    const kind = segments.code(k);
    n += kind === SEGMENT_CUBIC || kind === SEGMENT_ARC ? 3 : kind === SEGMENT_QUAD ? 2 : 1;
  }
  return n;
}

/** Whether every lattice point has only pixels under lines (or past the picture's border) around it. */
function allInMask(points: Float64Array, cover: HiddenEdgeCover): boolean {
  const { underLines, width, height } = cover;
  for (let i = 0; i < points.length; i += 2) {
    const px = Math.round(points[i]!);
    const py = Math.round(points[i + 1]!);
    for (let qy = py - 1; qy <= py; qy++) {
      for (let qx = px - 1; qx <= px; qx++) if (qx >= 0 && qy >= 0 && qx < width && qy < height && underLines[qy * width + qx] === 0) return false;
    }
  }
  return true;
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
