/**
 * Bends that are circular arcs, written as arcs (tracelab.strokes=centerline).
 * In: a fitted chain (fit.ts), the samples it was fitted to, whether it is closed, the fit's
 * options and scratch. Out: the chain with each run of samples that lies within the tolerance of
 * one circular arc (within half the tolerance, turning one way, by MIN_SWEEP_RAD to MAX_SWEEP_RAD)
 * written as SVG arcs (appendArc),
 * and the samples between the arcs fitted again as before — when that takes fewer numbers than
 * the fit did (else the fit as it was). An icon's 180° bend, fitted as three or four cubics (24
 * numbers) that also take in the straight line before it, is two `a`s of 90° (7 numbers each, 3 of
 * them one digit).
 * Algorithm: each segment's end is matched to its sample (the fitter ends segments on samples;
 * a sharpened corner or tip on the nearest one). Each curve segment's samples not yet in an arc
 * seed one: while the circle fitted to the run (Kåsa) holds every sample of the run, the run
 * grows forward, then backward, a sample at a time; its end samples are then moved onto the
 * circle (the arc's ends, where the fits beside it start and end).
 */
import { hypot2 } from '../length.js';
import { SEGMENT_LINE, SEGMENT_QUAD, SEGMENT_CUBIC, SegmentBuilder, type SegmentPath } from '../segment-path.js';
import { fitCircle } from './ellipse.js';
import { fitChain, type FitOptions, type FitScratch, type FittedChain } from './fit.js';

/** A run turning less is near straight: its circle's radius is large and no cheaper to write. */
const MIN_SWEEP_RAD = (20 * Math.PI) / 180;
/** Short of a full turn: an arc whose ends (nearly) meet has no well-defined circle through them. */
const MAX_SWEEP_RAD = 1.8 * Math.PI;
/** A sample stepping back against the arc's turn by more than this (rad) is no arc's. */
const BACKSTEP_RAD = 0.05;
/** The widest piece an arc is written in (appendArc): its centre moves by at most 0.87× a change of its chord. */
const MAX_PIECE_SWEEP_RAD = (2 * Math.PI) / 3;
/**
 * An arc holds its samples within this share of the fit's tolerance: a circle is rigid where a
 * cubic bends with the samples, and an arc at the full tolerance (0.4 px) moved whole glyph
 * bowls that far (22-px sans text: SSIM 0.9480 → 0.9460); at half, 0.9488, and the icons' bends
 * are still arcs (a heroicons link: 0.9917 → 0.9977).
 */
const ARC_TOLERANCE_SHARE = 0.5;
/** Fewest samples an arc is fitted to. */
const MIN_ARC_SAMPLES = 5;
/**
 * What an arc costs to write, in numbers: rx, ry, x, y, and its rotation and two flags, one
 * digit each ("0 0 1": about one number's bytes).
 */
const ARC_COST = 5;

/** A run of samples first..last on one circle: its radius and signed sweep (rad, + is SVG's sweep 1 on y-down). */
interface ArcRun {
  readonly first: number;
  readonly last: number;
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
  readonly sweepRad: number;
}

/** The chain with its arc-shaped bends as arcs, when that is cheaper to write (else the chain itself). */
export function withArcRuns(s: FitScratch, fitted: FittedChain, samples: Float64Array, closed: boolean, options: FitOptions): FittedChain {
  if (fitted.segments.length === 0 || fitted.primitive) return fitted;
  const p = inFittedOrder(fitted, samples, closed);
  const ends = segmentSamples(fitted.segments, p);
  const runs = arcRuns(fitted.segments, p, ends, ARC_TOLERANCE_SHARE * options.tolerancePx);
  if (runs.length === 0) return fitted;
  const out = new SegmentBuilder(fitted.segments.length);
  let at = 0;
  for (const run of runs) {
    appendFit(s, out, p, at, run.first, options);
    appendArc(out, p, run);
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

/**
 * The run's arc in pieces of at most MAX_PIECE_SWEEP_RAD: an SVG arc is given by its ends and
 * radius, and near a half circle its centre moves across the chord by tan(sweep / 2) / 2 times
 * any change of the chord — the ends rounded to a tenth of a pixel moved a 48-px half circle's
 * bulge by ~3 px (a heroicons link, SSIM 0.99 → 0.97).
 */
function appendArc(out: SegmentBuilder, p: Float64Array, run: ArcRun): void {
  const pieces = Math.ceil(Math.abs(run.sweepRad) / MAX_PIECE_SWEEP_RAD);
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

/** Numbers the path is written with. */
function pathCost(path: SegmentPath): number {
  let cost = 0;
  for (let k = 0; k < path.length; k++) {
    const code = path.code(k);
    cost += code === SEGMENT_LINE ? 2 : code === SEGMENT_QUAD ? 4 : code === SEGMENT_CUBIC ? 6 : ARC_COST;
  }
  return cost;
}

/** Per segment, the index of the sample its end lies on (or nearest to), ascending. */
function segmentSamples(path: SegmentPath, p: Float64Array): Int32Array {
  const n = p.length / 2;
  const ends = new Int32Array(path.length);
  let from = 0;
  for (let k = 0; k < path.length; k++) {
    let best = from;
    let bestDistance = Infinity;
    for (let i = from; i < n; i++) {
      const d = hypot2(p[2 * i]! - path.x(k), p[2 * i + 1]! - path.y(k));
      if (d < bestDistance) [best, bestDistance] = [i, d];
      if (d === 0) break;
    }
    ends[k] = best;
    from = best;
  }
  return ends;
}

/** The arcs seeded by the curve segments and grown along the samples, in order, not overlapping. */
function arcRuns(path: SegmentPath, p: Float64Array, ends: Int32Array, tolerancePx: number): ArcRun[] {
  const runs: ArcRun[] = [];
  const n = p.length / 2;
  let free = 0;
  for (let k = 0; k < path.length; k++) {
    const code = path.code(k);
    if (code !== SEGMENT_QUAD && code !== SEGMENT_CUBIC) continue;
    let first = Math.max(free, k === 0 ? 0 : ends[k - 1]!);
    let last = ends[k]!;
    if (last - first + 1 < MIN_ARC_SAMPLES || !runArc(p, first, last, tolerancePx)) continue;
    while (last + 1 < n && runArc(p, first, last + 1, tolerancePx)) last++;
    while (first - 1 >= free && runArc(p, first - 1, last, tolerancePx)) first--;
    const run = runArc(p, first, last, tolerancePx)!;
    if (Math.abs(run.sweepRad) < MIN_SWEEP_RAD) continue;
    // The arc's ends onto its circle: the fits beside it start and end there.
    ontoCircle(p, first, run);
    ontoCircle(p, last, run);
    runs.push(run);
    free = last;
  }
  return runs;
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
