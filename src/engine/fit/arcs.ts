/**
 * A fitted line's circular bends written as SVG arcs: the one arc writer of both stroke modes
 * (tracelab.strokes=centerline's lines, auto's wide pen lines); the numbers that differ by mode
 * (the tolerance, the widest piece) come from the caller as an ArcRule (fit.ts, FitOptions.arcs).
 * In: a fitted chain (fit.ts), the samples it was fitted to, whether it is closed, the fit's
 * options and scratch, the rule. Out: the chain with each run of samples that lies within the
 * rule's tolerance of one circle (turning one way, by MIN_SWEEP_RAD to MAX_SWEEP_RAD, at least
 * half of it over the fit's curves) written as arcs, the samples between them fitted again as
 * before — when that takes fewer numbers than the fit did (else the fit as it was). An icon's 180°
 * bend, three or four cubics (24 numbers) that also take in the straight line before it, is two
 * `a`s of 90° (7 numbers each, 3 of them one digit).
 * Algorithm: greedily from the chain's start, the longest stretch of samples within the tolerance
 * of its chord (a line) or of one circle (a run), whichever reaches farther, each found by
 * doubling and halving its length; the run's circle is the Kåsa fit of its samples (Kåsa 1976).
 * Where a line meets the run both hold the samples near the tangent point: the run's ends go to
 * the middle of each overlap, and are moved onto its circle (where the fits beside it start and
 * end). A run is written in pieces of at most the rule's widest sweep.
 */
import { hypot2 } from '../length.js';
import { SEGMENT_QUAD, SEGMENT_CUBIC, SegmentBuilder, type SegmentPath } from '../segment-path.js';
import { fitCircle } from './ellipse.js';
import { fitChain, pieceCost, type FitOptions, type FitScratch, type ArcRule, type FittedChain } from './fit.js';

/** A run turning less is near straight: its circle's radius is large and no cheaper to write. */
const MIN_SWEEP_RAD = (20 * Math.PI) / 180;
/** Short of a full turn: an arc whose ends (nearly) meet has no well-defined circle through them. */
const MAX_SWEEP_RAD = 1.8 * Math.PI;
/** A sample stepping back against the arc's turn by more than this (rad) is no arc's. */
const BACKSTEP_RAD = 0.05;
/** Fewest samples an arc is fitted to. */
const MIN_ARC_SAMPLES = 5;
/** A run of samples first..last on one circle: its radius and signed sweep (rad, + is SVG's sweep 1 on y-down). */
interface ArcRun {
  readonly first: number;
  readonly last: number;
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
  readonly sweepRad: number;
}

/** fitChain, then its bends as arcs by options.arcs where it is set. */
export function fitWithArcs(s: FitScratch, samples: Float64Array, closed: boolean, options: FitOptions): FittedChain {
  const curves = fitChain(s, samples, closed, options);
  return options.arcs ? withArcs(s, curves, samples, closed, options, options.arcs) : curves;
}

/** The chain with its arc-shaped bends as arcs, when that is cheaper to write (else the chain itself). */
export function withArcs(s: FitScratch, fitted: FittedChain, samples: Float64Array, closed: boolean, options: FitOptions, rule: ArcRule): FittedChain {
  if (fitted.segments.length === 0 || fitted.primitive) return fitted;
  const p = inFittedOrder(fitted, samples, closed);
  const runs = arcRuns(p, curveSamples(fitted.segments, p), rule.tolerancePx);
  if (runs.length === 0) return fitted;
  const out = new SegmentBuilder(fitted.segments.length);
  let at = 0;
  for (const run of runs) {
    appendFit(s, out, p, at, run.first, options);
    appendArc(out, p, run, rule.maxPieceSweepRad);
    at = run.last;
  }
  appendFit(s, out, p, at, p.length / 2 - 1, options);
  const segments = out.detach();
  return pathCost(segments) < pathCost(fitted.segments) ? { startX: p[0]!, startY: p[1]!, segments } : fitted;
}

/**
 * The samples from the fitted chain's start: an open chain's as they are (its fit starts at the
 * first), a closed one's turned to start at the sample nearest the fit's start (the fitter starts
 * a loop at a corner) and closed by that sample again.
 */
function inFittedOrder(fitted: FittedChain, samples: Float64Array, closed: boolean): Float64Array {
  if (!closed) return samples.slice();
  const n = samples.length / 2;
  let start = 0;
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const d = hypot2(samples[2 * i]! - fitted.startX, samples[2 * i + 1]! - fitted.startY);
    if (d < best) [start, best] = [i, d];
  }
  const p = new Float64Array(2 * n + 2);
  for (let i = 0; i <= n; i++) {
    p[2 * i] = samples[2 * ((start + i) % n)]!;
    p[2 * i + 1] = samples[2 * ((start + i) % n) + 1]!;
  }
  return p;
}

/** The run's arc in pieces of at most maxPieceSweepRad (ArcRule), ending on the run's last sample. */
function appendArc(out: SegmentBuilder, p: Float64Array, run: ArcRun, maxPieceSweepRad: number): void {
  const pieces = Math.ceil(Math.abs(run.sweepRad) / maxPieceSweepRad);
  const start = Math.atan2(p[2 * run.first + 1]! - run.cy, p[2 * run.first]! - run.cx);
  for (let k = 1; k < pieces; k++) {
    const a = start + (run.sweepRad * k) / pieces;
    out.arc(run.r, run.r, 0, false, run.sweepRad > 0, run.cx + run.r * Math.cos(a), run.cy + run.r * Math.sin(a));
  }
  out.arc(run.r, run.r, 0, false, run.sweepRad > 0, p[2 * run.last]!, p[2 * run.last + 1]!);
}

/** Samples from..to fitted as the chain was (nothing for a single sample), appended to `out`. */
function appendFit(s: FitScratch, out: SegmentBuilder, p: Float64Array, from: number, to: number, options: FitOptions): void {
  if (to <= from) return;
  if (to - from === 1) {
    out.line(p[2 * to]!, p[2 * to + 1]!);
    return;
  }
  out.appendFrom(fitChain(s, p.subarray(2 * from, 2 * to + 2), false, options).segments);
}

/**
 * Per sample, how many samples up to it lie in the fit's curve segments (a prefix count; a
 * segment's samples run from its start's sample to its end's: the fitter ends segments on
 * samples, a sharpened corner or tip on the nearest one).
 */
function curveSamples(path: SegmentPath, p: Float64Array): Int32Array {
  const n = p.length / 2;
  const count = new Int32Array(n);
  const curve = new Uint8Array(n);
  let from = 0;
  for (let k = 0; k < path.length; k++) {
    let best = from;
    let bestDistance = Infinity;
    for (let i = from; i < n; i++) {
      const d = hypot2(p[2 * i]! - path.x(k), p[2 * i + 1]! - path.y(k));
      if (d < bestDistance) [best, bestDistance] = [i, d];
      if (d === 0) break;
    }
    const code = path.code(k);
    if (code === SEGMENT_QUAD || code === SEGMENT_CUBIC) curve.fill(1, from + 1, best + 1);
    from = best;
  }
  for (let i = 1; i < n; i++) count[i] = count[i - 1]! + curve[i]!;
  return count;
}

/** Numbers the path is written with (pieceCost per segment). */
function pathCost(path: SegmentPath): number {
  let cost = 0;
  for (let k = 0; k < path.length; k++) cost += pieceCost(path.code(k));
  return cost;
}

/**
 * The runs, in order, not overlapping: from each sample the longest line and the longest run,
 * the run taken (its ends moved onto its circle) when it reaches farther and is no near-straight
 * one, else the search goes on from the line's end.
 */
function arcRuns(p: Float64Array, inCurves: Int32Array, tolerancePx: number): ArcRun[] {
  const runs: ArcRun[] = [];
  const last = p.length / 2 - 1;
  let i = 0;
  let lineFrom = 0;
  while (i < last) {
    const line = farthest(i + 1, last, (j) => withinChord(p, i, j, tolerancePx));
    const found = longestRun(p, i, last, tolerancePx);
    if (!found || found.last <= line || nearStraight(found) || 2 * (inCurves[found.last]! - inCurves[i]!) < found.last - i) {
      lineFrom = i;
      i = line;
      continue;
    }
    // Where a line meets the arc both hold the samples: the arc's ends go to the middle of
    // each overlap (the tangent point), not wherever the greedy search stopped.
    const back = farthestBack(i, lineFrom, (k) => runArc(p, k, found.last, tolerancePx) !== undefined);
    const first = (back + i) >> 1;
    const next = farthest(found.last + 1 <= last ? found.last + 1 : last, last, (j) => withinChord(p, found.last, j, tolerancePx));
    const lineBack = farthestBack(found.last, first + 1, (k) => withinChord(p, k, next, tolerancePx));
    // (Past i, so the search moves on.)
    const end = Math.max(i + 1, next > found.last ? (lineBack + found.last + 1) >> 1 : found.last);
    const run = runArc(p, first, Math.max(end, first + MIN_ARC_SAMPLES - 1), tolerancePx) ?? found;
    // The arc's ends onto its circle: the fits beside it start and end there.
    ontoCircle(p, run.first, run);
    ontoCircle(p, run.last, run);
    runs.push(run);
    i = run.last;
    lineFrom = i;
  }
  return runs;
}

/** The smallest k in first..from for which `fits` holds, taking it to hold from `from` down to some sample: farthest, mirrored. */
function farthestBack(from: number, first: number, fits: (k: number) => boolean): number {
  return -farthest(-from, -first, (j) => fits(-j));
}

/** A run turning under MIN_SWEEP_RAD: its huge radius writes the most digits of any piece (a2375.1 2375.1 0 0 1 …) where the fit beside it writes a line. */
function nearStraight(run: ArcRun): boolean {
  return Math.abs(run.sweepRad) < MIN_SWEEP_RAD;
}

/**
 * The largest j in from..last for which `fits` holds, taking it to hold from `from` up to some
 * sample and not beyond (a stretch that fits, shortened, still fits): doubling steps, then
 * halving (a logarithmic number of tests where growing a sample at a time made a quadratic
 * number of samples' work per stretch).
 */
function farthest(from: number, last: number, fits: (j: number) => boolean): number {
  let good = from;
  let step = 1;
  while (good + step <= last && fits(good + step)) {
    good += step;
    step *= 2;
  }
  for (step >>= 1; step >= 1; step >>= 1) if (good + step <= last && fits(good + step)) good += step;
  return good;
}

function withinChord(p: Float64Array, i: number, j: number, tolerancePx: number): boolean {
  const dx = p[j * 2]! - p[i * 2]!;
  const dy = p[j * 2 + 1]! - p[i * 2 + 1]!;
  const length = Math.hypot(dx, dy);
  if (length < 1e-9) return false;
  for (let k = i + 1; k < j; k++) {
    if (Math.abs((p[k * 2]! - p[i * 2]!) * dy - (p[k * 2 + 1]! - p[i * 2 + 1]!) * dx) / length > tolerancePx) return false;
  }
  return true;
}

/** The longest run from sample i (undefined: none of at least MIN_ARC_SAMPLES). */
function longestRun(p: Float64Array, i: number, last: number, tolerancePx: number): ArcRun | undefined {
  const from = i + MIN_ARC_SAMPLES - 1;
  if (from > last || !runArc(p, i, from, tolerancePx)) return undefined;
  return runArc(p, i, farthest(from, last, (j) => runArc(p, i, j, tolerancePx) !== undefined), tolerancePx);
}

/** The circle fitted to samples first..last (Kåsa) when it holds them all, turning one way; else undefined. */
function runArc(p: Float64Array, first: number, last: number, tolerancePx: number): ArcRun | undefined {
  if (hypot2(p[2 * last]! - p[2 * first]!, p[2 * last + 1]! - p[2 * first + 1]!) < 1) return undefined;
  const circle = fitCircle(p.subarray(2 * first, 2 * last + 2));
  if (!circle) return undefined;
  const sweepRad = heldSweep(p, first, last, circle.cx, circle.cy, circle.r, tolerancePx);
  return sweepRad === undefined ? undefined : { first, last, cx: circle.cx, cy: circle.cy, r: circle.r, sweepRad };
}

/** Moves sample i onto the run's circle (an arc's end; within the tolerance of where it was). */
function ontoCircle(p: Float64Array, i: number, run: ArcRun): void {
  const d = hypot2(p[2 * i]! - run.cx, p[2 * i + 1]! - run.cy);
  if (d === 0) return;
  p[2 * i] = run.cx + ((p[2 * i]! - run.cx) * run.r) / d;
  p[2 * i + 1] = run.cy + ((p[2 * i + 1]! - run.cy) * run.r) / d;
}

/** The sweep (rad) when samples first..last all lie within the tolerance of the circle, turning one way by at most MAX_SWEEP_RAD; else undefined. */
function heldSweep(p: Float64Array, first: number, last: number, cx: number, cy: number, r: number, tolerancePx: number): number | undefined {
  let sweepRad = 0;
  let forward = 0;
  let backward = 0;
  let previous = Math.atan2(p[2 * first + 1]! - cy, p[2 * first]! - cx);
  for (let i = first; i <= last; i++) {
    const x = p[2 * i]!;
    const y = p[2 * i + 1]!;
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
  const back = sweepRad > 0 ? Math.max(-backward, forward - sweepRad) : Math.max(forward, sweepRad - backward);
  if (back > BACKSTEP_RAD || Math.abs(sweepRad) > MAX_SWEEP_RAD) return undefined;
  return sweepRad;
}
