/**
 * Corners of wide centre-lines (tracelab.strokes=auto).
 * In: a region's coverage grid (coverage.ts) and its centre-lines (centerline.ts).
 * Out: the centre-lines with each corner between two straight runs redrawn — one sharp vertex, or
 * an arc tangent to both runs (CORNER_RADII) — where that reproduces the ink around the corner
 * better than the line read from the skeleton.
 * Why: where two straight runs of a wide line meet (a round join at 70°, a right angle), the
 * cross-sections near the corner cut through both runs, so the centres read there round the corner
 * off and the stroke misses the corner's ink (a lampshade's corner: 3 px of ink left out). A pen
 * drawing a round join turns on one point: the centre-line is the two runs' lines up to where they
 * cross. Where the artist's line itself turns on an arc (a rounded rectangle's corner), the
 * skeleton rounds it at another radius (under half the width, the inner corner is sharp and the
 * centres read bulge ~0.6 px); the arc tangent to both runs that matches the ink restores it, and
 * the render check around the corner (stroke-check.ts) picks it.
 * Algorithm: at each point, the turn between the chords a width back and a width ahead; from the
 * sharpest, corners at least two widths apart whose runs (a width long, starting one width away,
 * or farther past a knot) are straight within STRAIGHT_TOLERANCE_PX; the corner is where the
 * runs' lines cross, near the point. The points between the runs are replaced by the corner of
 * the radius whose strokes' mismatch against the ink, in a window around it, is least, when that
 * is below the line as read.
 */
import type { CenterPath } from './centerline.js';
import type { CoverageGrid } from './coverage.js';
import { strokeMismatch, type StrokeFitScratch } from './stroke-check.js';

/** A corner turns by more than this (degrees): a gentler bend is read well as it is. */
const MIN_CORNER_TURN_DEG = 30;
/** A run's points lie within this of its chord (anti-aliased centres are exact to ~0.1 px). */
const STRAIGHT_TOLERANCE_PX = 0.5;
/** Lines narrower than this keep their corners as read (their cross-sections barely round them). */
const MIN_WIDTH_PX = 4;

/**
 * The corner's radii tried, in widths: 0 (a sharp corner, a round join) and arcs of a rounded
 * corner up to a width (a rounded rectangle's corner radius under half the pen: its inner
 * corner sharp, its outer one an arc of radius + half the width, which the skeleton rounds off).
 */
const CORNER_RADII = [0, 0.125, 0.25, 0.375, 0.5, 0.75, 1];
/**
 * Sharp corners on the point read at the corner (widths): where the two sides curve into it (a
 * heart's notch, two arcs meeting at a cusp), their chords a width or two off are much flatter
 * than the sides where they meet, and cross short of the vertex the pen turned on; the skeleton
 * rounds the vertex off over about half a width each side, so the vertex is that point with its
 * neighbours within each of NEAR_REACHES dropped (a drawn heart's notch wants ½, an OpenMoji
 * shower's drops ¾), moved out of the turn by NEAR_DEPTHS.
 */
const NEAR_REACHES = [0.5, 0.75];
const NEAR_DEPTHS = [0, 0.1, 0.2, 0.3];
/** ... and across the turn (widths): the knot the thinning leaves at a cusp lies off to one side of it. */
const NEAR_SIDES = [-0.2, -0.1, 0, 0.1, 0.2];
/**
 * The vertex on the point read is tried only where the corner, drawn as read or between the runs,
 * still misses more than this share of the ink around it: OpenMoji's hearts and drops missed
 * 0.07–0.12 (0.01–0.05 after), heroicons' and Iconoir's corners 0.003–0.045, which it never
 * bettered (and its 40 window checks a corner had cost those icons a quarter more time).
 */
const NEAR_MIN_MISMATCH = 0.06;
/** Arc samples per px along a rounded corner. */
const ARC_STEP_PX = 1;

/** The paths with each corner redrawn as the ink says (the same array when none is). */
export function withFittedCorners(grid: CoverageGrid, paths: CenterPath[], hardEdged: boolean, scratch: StrokeFitScratch): CenterPath[] {
  let out: CenterPath[] | undefined;
  paths.forEach((path, k) => {
    if (path.widthPx < MIN_WIDTH_PX || path.points.length < 8) return;
    let current = path;
    for (const corner of cornersOf(path)) {
      const others = (out ?? paths).slice();
      const mismatchOf = (candidate: CenterPath): number => {
        others[k] = candidate;
        return windowMismatch(grid, others, corner, path.widthPx, hardEdged, scratch);
      };
      let best: Redrawn = { path: current, mismatch: mismatchOf(current) };
      for (const radius of CORNER_RADII) {
        const candidate = withCorner(current, corner, radius * path.widthPx);
        if (!candidate) continue;
        const mismatch = mismatchOf(candidate);
        if (mismatch < best.mismatch) best = { path: candidate, mismatch };
      }
      current = best.mismatch > NEAR_MIN_MISMATCH ? bestNearVertex(current, corner, path.widthPx, mismatchOf, best).path : best.path;
    }
    if (current !== path) (out ??= [...paths])[k] = current;
  });
  return out ?? paths;
}

/** A corner's redrawn path and its strokes' mismatch against the ink around the corner. */
interface Redrawn {
  readonly path: CenterPath;
  readonly mismatch: number;
}

/**
 * The better of `asRedrawn` and the corner drawn sharp on the point read there, its neighbours within
 * each of NEAR_REACHES dropped, the vertex moved out of the turn by each of NEAR_DEPTHS and across it by
 * each of NEAR_SIDES (a search along each axis in turn lost a shower's drops: 2.16 → 2.31× the
 * artist's gzip).
 */
function bestNearVertex(path: CenterPath, corner: Corner, widthPx: number, mismatchOf: (candidate: CenterPath) => number, asRedrawn: Redrawn): Redrawn {
  let best = asRedrawn;
  const at = indexOf(path, corner.readX, corner.readY);
  if (at < 0) return best;
  const p = path.points;
  const { readX: x, readY: y } = corner;
  for (const reach of NEAR_REACHES) {
    const a = stepAlong(path, at, reach * widthPx, -1);
    const b = stepAlong(path, at, reach * widthPx, 1);
    if (a < 0 || b < 0) continue;
    const near: Corner = { readX: x, readY: y, x, y, fromX: p[2 * a]!, fromY: p[2 * a + 1]!, toX: p[2 * b]!, toY: p[2 * b + 1]! };
    const out = outOfTurn(near);
    if (!out) continue;
    for (const depth of NEAR_DEPTHS) {
      for (const side of NEAR_SIDES) {
        const dx = (out.x * depth - out.y * side) * widthPx;
        const dy = (out.y * depth + out.x * side) * widthPx;
        const candidate = withCorner(path, { ...near, x: x + dx, y: y + dy }, 0);
        const mismatch = candidate ? mismatchOf(candidate) : Infinity;
        if (candidate && mismatch < best.mismatch) best = { path: candidate, mismatch };
      }
    }
  }
  return best;
}

/** The unit direction out of the corner's turn (the incoming direction less the outgoing one), or undefined when it does not turn. */
function outOfTurn(corner: Corner): { x: number; y: number } | undefined {
  const ux = corner.x - corner.fromX;
  const uy = corner.y - corner.fromY;
  const vx = corner.toX - corner.x;
  const vy = corner.toY - corner.y;
  const lu = Math.hypot(ux, uy);
  const lv = Math.hypot(vx, vy);
  if (lu === 0 || lv === 0) return undefined;
  const ox = ux / lu - vx / lv;
  const oy = uy / lu - vy / lv;
  const lo = Math.hypot(ox, oy);
  return lo < 1e-9 ? undefined : { x: ox / lo, y: oy / lo };
}

/** A corner: the point where the two runs' lines cross, and the original points it replaces (after `from`, before `to`). */
interface Corner {
  /** The point read at the corner (the sharpest turn). */
  readonly readX: number;
  readonly readY: number;
  readonly x: number;
  readonly y: number;
  readonly fromX: number;
  readonly fromY: number;
  readonly toX: number;
  readonly toY: number;
}

/** The path's corners, sharpest first, at least two widths apart. */
function cornersOf(path: CenterPath): Corner[] {
  const p = path.points;
  const n = p.length >> 1;
  const reach = path.widthPx;
  const turns: { i: number; turn: number }[] = [];
  for (let i = 0; i < n; i++) {
    const a = stepAlong(path, i, reach, -1);
    const b = stepAlong(path, i, reach, 1);
    if (a < 0 || b < 0) continue;
    const turn = turnDeg(p[2 * i]! - p[2 * a]!, p[2 * i + 1]! - p[2 * a + 1]!, p[2 * b]! - p[2 * i]!, p[2 * b + 1]! - p[2 * i + 1]!);
    if (turn > MIN_CORNER_TURN_DEG) turns.push({ i, turn });
  }
  turns.sort((u, v) => v.turn - u.turn || u.i - v.i);
  const corners: Corner[] = [];
  const taken: number[] = [];
  for (const { i } of turns) {
    const x = p[2 * i]!;
    const y = p[2 * i + 1]!;
    if (taken.some((j) => Math.hypot(p[2 * j]! - x, p[2 * j + 1]! - y) < 2 * reach)) continue;
    taken.push(i);
    const corner = runsCrossing(path, i, reach);
    if (corner) corners.push(corner);
  }
  return corners;
}

/** Runs start one width from a corner, or farther where the skeleton's knot at the corner reaches beyond. */
const RUN_OFFSETS = [1, 1.5, 2];

/** Where the straight runs (a width long, from the first of RUN_OFFSETS widths away that gives straight runs) before and after point i cross. */
function runsCrossing(path: CenterPath, i: number, reach: number): Corner | undefined {
  for (const offset of RUN_OFFSETS) {
    const corner = crossingAt(path, i, reach * offset, reach);
    if (corner) return corner;
  }
  return undefined;
}

/** Where the runs from `fromPx` to fromPx + runPx before and after point i cross (undefined: a run bends, or they cross farther off than fromPx). */
function crossingAt(path: CenterPath, i: number, fromPx: number, runPx: number): Corner | undefined {
  const p = path.points;
  const a = stepAlong(path, i, fromPx, -1);
  const a2 = stepAlong(path, i, fromPx + runPx, -1);
  const b = stepAlong(path, i, fromPx, 1);
  const b2 = stepAlong(path, i, fromPx + runPx, 1);
  if (a < 0 || a2 < 0 || b < 0 || b2 < 0) return undefined;
  if (!isStraight(path, a2, a) || !isStraight(path, b, b2)) return undefined;
  const ux = p[2 * a]! - p[2 * a2]!;
  const uy = p[2 * a + 1]! - p[2 * a2 + 1]!;
  const vx = p[2 * b2]! - p[2 * b]!;
  const vy = p[2 * b2 + 1]! - p[2 * b + 1]!;
  const det = ux * vy - uy * vx;
  if (Math.abs(det) < 1e-9) return undefined;
  const t = ((p[2 * b]! - p[2 * a]!) * vy - (p[2 * b + 1]! - p[2 * a + 1]!) * vx) / det;
  const x = p[2 * a]! + t * ux;
  const y = p[2 * a + 1]! + t * uy;
  if (Math.hypot(x - p[2 * i]!, y - p[2 * i + 1]!) > fromPx) return undefined;
  return { readX: p[2 * i]!, readY: p[2 * i + 1]!, x, y, fromX: p[2 * a]!, fromY: p[2 * a + 1]!, toX: p[2 * b]!, toY: p[2 * b + 1]! };
}

/**
 * The path with the points strictly between the corner's `from` and `to` points replaced by the
 * corner drawn with radius radiusPx (0: the runs' crossing; undefined: the arc does not fit
 * between them, or they are not found in order).
 */
function withCorner(path: CenterPath, corner: Corner, radiusPx: number): CenterPath | undefined {
  const p = path.points;
  const n = p.length >> 1;
  const from = indexOf(path, corner.fromX, corner.fromY);
  const to = indexOf(path, corner.toX, corner.toY);
  const arc = cornerPoints(corner, radiusPx);
  if (from < 0 || to < 0 || from === to || !arc) return undefined;
  const kept: number[] = [];
  // Walk the path from `to` round to `from` (a closed path may wrap), then the corner.
  if (path.closed) {
    for (let k = to; k !== from; k = (k + 1) % n) kept.push(p[2 * k]!, p[2 * k + 1]!);
    kept.push(p[2 * from]!, p[2 * from + 1]!, ...arc);
  } else {
    if (from > to) return undefined;
    for (let k = 0; k <= from; k++) kept.push(p[2 * k]!, p[2 * k + 1]!);
    kept.push(...arc);
    for (let k = to; k < n; k++) kept.push(p[2 * k]!, p[2 * k + 1]!);
  }
  return { ...path, points: Float64Array.from(kept) };
}

/** The index of the path's point at (x, y), or −1 (an earlier corner replaced it). */
function indexOf(path: CenterPath, x: number, y: number): number {
  const p = path.points;
  for (let k = 0; k < p.length >> 1; k++) if (p[2 * k] === x && p[2 * k + 1] === y) return k;
  return -1;
}

/** The corner's points (x, y pairs): its crossing, or the arc of radiusPx tangent to both runs (undefined: longer than the runs left). */
function cornerPoints(corner: Corner, radiusPx: number): number[] | undefined {
  if (radiusPx === 0) return [corner.x, corner.y];
  const { x, y } = corner;
  const ux = x - corner.fromX;
  const uy = y - corner.fromY;
  const vx = corner.toX - x;
  const vy = corner.toY - y;
  const lu = Math.hypot(ux, uy);
  const lv = Math.hypot(vx, vy);
  if (lu === 0 || lv === 0) return undefined;
  const turn = Math.acos(Math.max(-1, Math.min(1, (ux * vx + uy * vy) / (lu * lv))));
  const back = radiusPx * Math.tan(turn / 2);
  if (back >= lu || back >= lv) return undefined;
  // Tangent points a distance `back` from the crossing; the centre a radius inside the turn.
  const t1x = x - (ux / lu) * back;
  const t1y = y - (uy / lu) * back;
  const side = Math.sign(ux * vy - uy * vx);
  const cx = t1x - (side * uy * radiusPx) / lu;
  const cy = t1y + (side * ux * radiusPx) / lu;
  const start = Math.atan2(t1y - cy, t1x - cx);
  const steps = Math.max(2, Math.ceil((radiusPx * turn) / ARC_STEP_PX));
  const out: number[] = [];
  for (let k = 0; k <= steps; k++) {
    const angle = start + (side * turn * k) / steps;
    out.push(cx + radiusPx * Math.cos(angle), cy + radiusPx * Math.sin(angle));
  }
  return out;
}

/** The strokes' mismatch against the ink in a window two widths wide around the corner. */
function windowMismatch(grid: CoverageGrid, paths: readonly CenterPath[], corner: Corner, widthPx: number, hardEdged: boolean, scratch: StrokeFitScratch): number {
  const half = Math.ceil(widthPx);
  const x0 = Math.max(0, Math.floor(corner.x - half) - grid.x0);
  const y0 = Math.max(0, Math.floor(corner.y - half) - grid.y0);
  const x1 = Math.min(grid.width, Math.ceil(corner.x + half) - grid.x0);
  const y1 = Math.min(grid.height, Math.ceil(corner.y + half) - grid.y0);
  if (x1 <= x0 || y1 <= y0) return Infinity;
  const value = new Float32Array((x1 - x0) * (y1 - y0));
  for (let y = y0; y < y1; y++) value.set(grid.value.subarray(y * grid.width + x0, y * grid.width + x1), (y - y0) * (x1 - x0));
  const window: CoverageGrid = { x0: grid.x0 + x0, y0: grid.y0 + y0, width: x1 - x0, height: y1 - y0, value };
  return strokeMismatch(window, paths, hardEdged, scratch);
}

/** The index of the first point at least `distancePx` along the path from point i (direction ±1; −1: the open path ends first). */
function stepAlong(path: CenterPath, i: number, distancePx: number, direction: number): number {
  const p = path.points;
  const n = p.length >> 1;
  let run = 0;
  let k = i;
  for (let steps = 0; steps < n - 1; steps++) {
    const next = k + direction;
    if (next < 0 || next >= n) {
      if (!path.closed) return -1;
    }
    const j = (next + n) % n;
    run += Math.hypot(p[2 * j]! - p[2 * k]!, p[2 * j + 1]! - p[2 * k + 1]!);
    k = j;
    if (run >= distancePx) return k;
  }
  return -1;
}

/** Every point from a to b (along the path's direction) within STRAIGHT_TOLERANCE_PX of the chord a–b. */
function isStraight(path: CenterPath, a: number, b: number): boolean {
  const p = path.points;
  const n = p.length >> 1;
  const dx = p[2 * b]! - p[2 * a]!;
  const dy = p[2 * b + 1]! - p[2 * a + 1]!;
  const length = Math.hypot(dx, dy);
  if (length === 0) return false;
  for (let k = a; k !== b; k = (k + 1) % n) {
    if (Math.abs((p[2 * k]! - p[2 * a]!) * dy - (p[2 * k + 1]! - p[2 * a + 1]!) * dx) / length > STRAIGHT_TOLERANCE_PX) return false;
  }
  return true;
}

/** The turn (degrees, 0–180) from direction u to direction v. */
function turnDeg(ux: number, uy: number, vx: number, vy: number): number {
  const cos = (ux * vx + uy * vy) / Math.max(1e-12, Math.hypot(ux, uy) * Math.hypot(vx, vy));
  return (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
}
