/**
 * Runs of fitted curves that lie on one circle, written as one circular arc (tracelab.strokes=centerline).
 * In: a fitted chain (fit.ts), the samples it was fitted to, the fit's tolerance (px).
 * Out: the same chain where each run of two or more neighbouring segments (at least one a curve)
 * whose samples all lie within the tolerance of one circular arc through the run's two ends is
 * that arc: an icon's 180° bend, fitted as three or four cubics (24 numbers), is one SVG `a`
 * (7 numbers, 3 of them one digit). The ends of the run stay where the fit put them, so the
 * neighbours are untouched.
 * Algorithm: each segment's end is matched to its sample (the fitter ends segments on samples;
 * a sharpened corner or tip on the nearest one); runs grow greedily from each segment while the
 * circle fitted to their samples (Kåsa), moved onto the perpendicular bisector of the run's chord,
 * holds them all within the tolerance, turning one way, by at least MIN_SWEEP_RAD and at most
 * MAX_SWEEP_RAD.
 */
import { hypot2 } from '../length.js';
import { SEGMENT_ARC, SEGMENT_CUBIC, SEGMENT_LINE, SEGMENT_QUAD, SegmentBuilder, type SegmentPath } from '../segment-path.js';
import { fitCircle } from './ellipse.js';
import type { FittedChain } from './fit.js';

/** A run turning less is near straight: its circle's radius is large and no cheaper to write. */
const MIN_SWEEP_RAD = (20 * Math.PI) / 180;
/** Short of a full turn: an arc whose ends (nearly) meet has no well-defined circle through them. */
const MAX_SWEEP_RAD = 1.8 * Math.PI;
/** A sample stepping back against the arc's turn by more than this (rad) is no arc's. */
const BACKSTEP_RAD = 0.05;

/** A circular arc through a run's two ends: centre, radius, signed sweep (rad, + is SVG's sweep 1 on y-down). */
interface RunArc {
  readonly r: number;
  readonly sweepRad: number;
}

/** The chain with its arc-shaped runs of segments as single arcs (the chain itself when there are none). */
export function withArcRuns(fitted: FittedChain, samples: Float64Array, tolerancePx: number): FittedChain {
  const path = fitted.segments;
  if (path.length < 2 || fitted.primitive) return fitted;
  const ends = segmentSamples(fitted, samples);
  const out = new SegmentBuilder(path.length);
  let changed = false;
  let k = 0;
  while (k < path.length) {
    let best: { to: number; arc: RunArc } | undefined;
    for (let to = k + 1; to < path.length; to++) {
      if (path.code(to) === SEGMENT_ARC || path.code(k) === SEGMENT_ARC) break;
      const arc = runArc(fitted, samples, ends, k, to, tolerancePx);
      if (!arc) break;
      if (hasCurve(path, k, to)) best = { to, arc };
    }
    if (best && runCost(path, k, best.to) > ARC_COST) {
      const x = path.x(best.to);
      const y = path.y(best.to);
      out.arc(best.arc.r, best.arc.r, 0, Math.abs(best.arc.sweepRad) > Math.PI, best.arc.sweepRad > 0, x, y);
      changed = true;
      k = best.to + 1;
    } else {
      out.appendFrom(path, k, k + 1);
      k++;
    }
  }
  return changed ? { startX: fitted.startX, startY: fitted.startY, segments: out.detach() } : fitted;
}

/** Numbers an arc is written with (rx, ry, rotation, two flags, x, y). */
const ARC_COST = 7;

/** Numbers segments from..to are written with. */
function runCost(path: SegmentPath, from: number, to: number): number {
  let cost = 0;
  for (let k = from; k <= to; k++) {
    const code = path.code(k);
    cost += code === SEGMENT_LINE ? 2 : code === SEGMENT_QUAD ? 4 : code === SEGMENT_CUBIC ? 6 : ARC_COST;
  }
  return cost;
}

function hasCurve(path: SegmentPath, from: number, to: number): boolean {
  for (let k = from; k <= to; k++) if (path.code(k) !== SEGMENT_LINE) return true;
  return false;
}

/** Per segment, the index of the sample its end lies on (or nearest to), ascending. */
function segmentSamples(fitted: FittedChain, samples: Float64Array): Int32Array {
  const path = fitted.segments;
  const n = samples.length / 2;
  const ends = new Int32Array(path.length);
  let from = 0;
  for (let k = 0; k < path.length; k++) {
    let best = from;
    let bestDistance = Infinity;
    for (let i = from; i < n; i++) {
      const d = hypot2(samples[2 * i]! - path.x(k), samples[2 * i + 1]! - path.y(k));
      if (d < bestDistance) [best, bestDistance] = [i, d];
      if (d === 0) break;
    }
    ends[k] = best;
    from = best;
  }
  return ends;
}

/** The arc through the start of segment `from` and the end of segment `to` that holds their samples, or undefined. */
function runArc(fitted: FittedChain, samples: Float64Array, ends: Int32Array, from: number, to: number, tolerancePx: number): RunArc | undefined {
  const path = fitted.segments;
  const x0 = from === 0 ? fitted.startX : path.x(from - 1);
  const y0 = from === 0 ? fitted.startY : path.y(from - 1);
  const x1 = path.x(to);
  const y1 = path.y(to);
  const first = from === 0 ? 0 : ends[from - 1]!;
  const last = ends[to]!;
  if (last - first < 4) return undefined;
  const circle = fitCircle(samples.subarray(2 * first, 2 * last + 2));
  if (!circle) return undefined;
  // The centre moved onto the chord's bisector, so the arc passes through both ends exactly.
  const mx = (x0 + x1) / 2;
  const my = (y0 + y1) / 2;
  const chord = hypot2(x1 - x0, y1 - y0);
  if (chord < 1) return undefined;
  const nx = -(y1 - y0) / chord;
  const ny = (x1 - x0) / chord;
  const along = (circle.cx - mx) * nx + (circle.cy - my) * ny;
  const cx = mx + along * nx;
  const cy = my + along * ny;
  const r = hypot2(x0 - cx, y0 - cy);
  return heldArc(samples, first, last, cx, cy, r, tolerancePx);
}

/** The arc's sweep when samples first..last all lie within the tolerance of the circle, turning one way; else undefined. */
function heldArc(samples: Float64Array, first: number, last: number, cx: number, cy: number, r: number, tolerancePx: number): RunArc | undefined {
  let sweepRad = 0;
  let forward = 0;
  let backward = 0;
  let previous = Math.atan2(samples[2 * first + 1]! - cy, samples[2 * first]! - cx);
  for (let i = first; i <= last; i++) {
    const x = samples[2 * i]!;
    const y = samples[2 * i + 1]!;
    if (Math.abs(hypot2(x - cx, y - cy) - r) > tolerancePx) return undefined;
    const angle = Math.atan2(y - cy, x - cx);
    let step = angle - previous;
    if (step > Math.PI) step -= 2 * Math.PI;
    if (step < -Math.PI) step += 2 * Math.PI;
    sweepRad += step;
    forward = Math.max(forward, sweepRad);
    backward = Math.min(backward, sweepRad);
    previous = angle;
  }
  // One way round: no sample steps back against the turn (beyond the samples' noise).
  if (sweepRad > 0 ? -backward > BACKSTEP_RAD || forward - sweepRad > BACKSTEP_RAD : forward > BACKSTEP_RAD || sweepRad - backward > BACKSTEP_RAD) return undefined;
  if (Math.abs(sweepRad) < MIN_SWEEP_RAD || Math.abs(sweepRad) > MAX_SWEEP_RAD) return undefined;
  return { r, sweepRad };
}
