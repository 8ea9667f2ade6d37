/**
 * Fits one gradient to the pixels of one smoothly shaded area.
 * In: the area's samples (ramp-samples.ts) and a geometry (ramp-geometry.ts). Out: the colour ramp
 * along t as stops — the fewest that keep every part of the ramp within STOP_TOLERANCE_DE of the
 * pixels' mean colour there — the fit's error, and the ramp as a Gradient of the types.
 *
 * Method: the samples are binned by t (1-px bins); the bins' mean colours, lightly smoothed, are
 * simplified by Douglas–Peucker in sRGB (the worst stretch split first), and the stop colours
 * fitted to the bins by least squares (hat functions, a tridiagonal system).
 */
import { rgbToLab } from '../color.js';
import { hypot3 } from '../length.js';
import { ellipseT, linearT, MAX_BINS, MAX_STOPS, radialT, sameGeometry, STOP_STRIDE, stopChannel, stopCount, stopT, thinned, type LastRamp, type RampContext, type RampGeometry, type RampSamples } from './ramp-samples.js';
import type { Gradient, GradientStop } from '../types.js';

export type { RampGeometry, RampSamples } from './ramp-samples.js';

export interface FittedRamp {
  readonly geometry: RampGeometry;
  /** The t range the ramp spans (px along the axis, or px from the centre). */
  readonly tMin: number;
  readonly tMax: number;
  /** Stops at t positions (px), colours sRGB floats: t, r, g, b per stop, t increasing. */
  readonly stops: Float64Array;
  /** Mean distance (sRGB units) between each sample and the ramp's colour at its t. */
  readonly meanError: number;
}

/** Largest ΔE76 between the ramp and the pixels' mean colour at any t (1-px bins). */
export const STOP_TOLERANCE_DE = 1.6;

export { MAX_STOPS } from './ramp-samples.js';

/** A radial ramp whose first stop lies within this share of its radius starts at the centre. */
const RADIAL_CENTRE_SHARE = 0.04;


/** Samples a ramp's mean error is measured on, at most. */
const ERROR_SAMPLES = 4000;

/** Per-bin sums of one binning of the samples by t. */
interface Bins {
  readonly tMin: number;
  readonly width: number;
  readonly count: number;
  readonly n: Float64Array;
  /** Σr, Σg, Σb per bin. */
  readonly sum: Float64Array;
}

/**
 * t of every sample into context.t, its range into context.tMin, tMax: geometryT's operations, in one loop per
 * kind with the geometry's numbers read once. Read per sample, they were new heap numbers: the
 * three kinds' objects meet at these loads.
 */
function computeT(context: RampContext, s: RampSamples, g: RampGeometry): void {
  if (context.t.length < s.count) context.t = new Float64Array(s.count * 2);
  const t = context.t;
  const n = s.count;
  const xs = s.x;
  const ys = s.y;
  if (g.kind === 'linear') {
    const { ux, uy } = g;
    for (let i = 0; i < n; i++) t[i] = linearT(ux, uy, xs[i]!, ys[i]!);
  } else if (g.kind === 'radial') {
    const { cx, cy } = g;
    for (let i = 0; i < n; i++) t[i] = radialT(cx, cy, xs[i]!, ys[i]!);
  } else {
    const { cx, cy, ux, uy, ratio } = g;
    for (let i = 0; i < n; i++) t[i] = ellipseT(cx, cy, ux, uy, ratio, xs[i]!, ys[i]!);
  }
  let tMin = Infinity;
  let tMax = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = t[i]!;
    if (v < tMin) tMin = v;
    if (v > tMax) tMax = v;
  }
  context.tMin = tMin;
  context.tMax = tMax;
}

/**
 * The samples binned by t (1-px bins, at most MAX_BINS), in the context's bin sums: the bins are
 * overwritten by the next call (they live only while rampFor fits their stops).
 */
function binSamples(context: RampContext, s: RampSamples, g: RampGeometry): Bins {
  computeT(context, s, g);
  const { tMin, tMax, t, binCounts, binSums } = context;
  const width = Math.max(1, (tMax - tMin) / MAX_BINS);
  const count = Math.floor((tMax - tMin) / width) + 1;
  // (No samples: the range is not finite, and sized arrays would have thrown here too.)
  if (!(count >= 1 && count <= binCounts.length)) throw new RangeError('invariant: 1 to MAX_BINS + 1 bins');
  const n = binCounts.fill(0, 0, count);
  const sum = binSums.fill(0, 0, count * 3);
  const rgb = s.rgb;
  for (let i = 0; i < s.count; i++) {
    const b = Math.min(count - 1, Math.floor((t[i]! - tMin) / width));
    const r = rgb[i * 3]!;
    const gg = rgb[i * 3 + 1]!;
    const bb = rgb[i * 3 + 2]!;
    n[b]!++;
    sum[b * 3]! += r;
    sum[b * 3 + 1]! += gg;
    sum[b * 3 + 2]! += bb;
  }
  return { tMin, width, count, n, sum };
}

/** The ramp (stops) of a geometry and its error over the samples. */
export function rampFor(context: RampContext, s: RampSamples, g: RampGeometry): FittedRamp {
  const ramp = lastOrFittedRamp(context, s, g);
  let meanError = ramp.meanError;
  if (meanError === undefined) {
    meanError = rampError(context, thinned(context, s, ERROR_SAMPLES), g, ramp.stops);
    context.lastRamp = { samples: s, ramp: { geometry: ramp.geometry, tMin: ramp.tMin, tMax: ramp.tMax, stops: ramp.stops, meanError } };
  }
  return { geometry: g, tMin: ramp.tMin, tMax: ramp.tMax, stops: Float64Array.from(ramp.stops), meanError };
}

/**
 * rampFor's stops alone (a copy), without measuring the ramp's error: a first guess is checked
 * for steps only, and its error is measured if rampFor asks for the same ramp next.
 */
export function rampStops(context: RampContext, s: RampSamples, g: RampGeometry): Float64Array {
  return Float64Array.from(lastOrFittedRamp(context, s, g).stops);
}

/**
 * The context's last ramp when it is this one, else the ramp fitted now (its error not measured)
 * and kept as the last. An area's ramp is fitted for its first guess and again for the searched
 * geometry, which is often that guess still (bit for bit): the same samples and numbers give the
 * same ramp. The kept stops are never handed out (callers get copies).
 */
function lastOrFittedRamp(context: RampContext, s: RampSamples, g: RampGeometry): LastRamp {
  const last = context.lastRamp;
  if (last && last.samples === s && sameGeometry(last.ramp.geometry, g)) return last.ramp;
  const bins = binSamples(context, s, g);
  const stops = fitStops(context, bins);
  const ramp: LastRamp = { geometry: g, tMin: bins.tMin, tMax: bins.tMin + bins.count * bins.width, stops, meanError: undefined };
  context.lastRamp = { samples: s, ramp };
  return ramp;
}

/** Mean distance (sRGB units) between the samples and a ramp's colour at their t. */
export function rampError(context: RampContext, s: RampSamples, g: RampGeometry, stops: Float64Array): number {
  let error = 0;
  const out = context.colour;
  // t of every sample first, in computeT's loop per geometry kind (the same t as geometryT's).
  computeT(context, s, g);
  const t = context.t;
  for (let i = 0; i < s.count; i++) {
    rampColorAt(stops, t[i]!, out);
    error += hypot3(s.rgb[i * 3]! - out[0]!, s.rgb[i * 3 + 1]! - out[1]!, s.rgb[i * 3 + 2]! - out[2]!);
  }
  return error / Math.max(1, s.count);
}

/** The ramp's colour at t (stops t, r, g, b; padded beyond the ends) into out[0..2]. */
export function rampColorAt(stops: Float64Array, t: number, out: Float64Array): void {
  rampColorOf(stops, 0, stopCount(stops), t, out);
}

/**
 * rampColorAt for the ramp of `count` stops from stop `first` of a packed stop list: sub-pixel
 * edges ask per pixel, and a subarray view per call was a new object each time.
 */
export function rampColorOf(stops: Float64Array, first: number, count: number, t: number, out: Float64Array): void {
  // No stops: nothing written (as a view of none would read undefined and write nothing).
  if (count < 1) return;
  const last = first + count - 1;
  if (t <= stopT(stops, first)) {
    for (let c = 0; c < 3; c++) out[c] = stopChannel(stops, first, c);
    return;
  }
  for (let k = first + 1; k <= last; k++) {
    const t1 = stopT(stops, k);
    if (t <= t1 || k === last) {
      const t0 = stopT(stops, k - 1);
      const f = t >= t1 ? 1 : (t - t0) / (t1 - t0);
      for (let c = 0; c < 3; c++) out[c] = stopChannel(stops, k - 1, c) + (stopChannel(stops, k, c) - stopChannel(stops, k - 1, c)) * f;
      return;
    }
  }
}

/**
 * The fewest stops (at bin centres) whose piecewise-linear ramp stays within STOP_TOLERANCE_DE
 * of the pixels' mean colour along t: Douglas–Peucker on the curve of bin means (lightly
 * smoothed, thin bins left out), always splitting the stretch that is furthest off, then the
 * stop colours fitted to the bins by least squares.
 */
function fitStops(context: RampContext, bins: Bins): Float64Array {
  const { filledBins, binMeans } = context;
  let filledCount = 0;
  let total = 0;
  for (let b = 0; b < bins.count; b++) {
    if (bins.n[b]! > 0) {
      filledBins[filledCount++] = b;
      total += bins.n[b]!;
    }
  }
  const filled = filledBins.subarray(0, filledCount);
  // Bins of one or two pixels (a corner, the tip of a ramp) are noise, not shape; the centre of a
  // radial ramp has few pixels per bin yet carries its first stop.
  const minCount = Math.min(3, (0.5 * total) / filled.length);
  // Only the filled bins' means are written, and only they are read.
  const means = binMeans;
  for (const b of filled) for (let c = 0; c < 3; c++) means[b * 3 + c] = bins.sum[b * 3 + c]! / bins.n[b]!;
  const curve = smoothedCurve(context, bins, filled, minCount);
  const positions: number[] = [];
  if (curve.count < 2) {
    positions.push(binCentre(bins, filled[0]!), binCentre(bins, filled[filled.length - 1]!));
    if (positions[1] === positions[0]) positions[1] = positions[0]! + bins.width;
  } else {
    for (const i of splitCurve(context, curve)) positions.push(curve.t[i]!);
  }
  return leastSquaresStops(bins, means, filled, positions);
}

/** Centre t of bin b. */
function binCentre(bins: Bins, b: number): number {
  return bins.tMin + (b + 0.5) * bins.width;
}

/** The bins' mean colours along t, each averaged with its neighbours (±2 bins, by count), thin bins left out. */
interface Curve {
  readonly count: number;
  readonly t: Float64Array;
  readonly rgb: Float64Array;
  readonly lab: Float64Array;
}

function smoothedCurve(context: RampContext, bins: Bins, filled: Int32Array, minCount: number): Curve {
  const keptBins = context.keptBins;
  let keptCount = 0;
  for (const b of filled) if (bins.n[b]! >= minCount) keptBins[keptCount++] = b;
  const kept = keptBins.subarray(0, keptCount);
  const t = new Float64Array(kept.length);
  const rgb = new Float64Array(kept.length * 3);
  const lab = new Float64Array(kept.length * 3);
  for (let i = 0; i < kept.length; i++) {
    const b = kept[i]!;
    let n = 0;
    let r = 0;
    let g = 0;
    let bb = 0;
    for (let k = Math.max(0, b - 2); k <= Math.min(bins.count - 1, b + 2); k++) {
      n += bins.n[k]!;
      r += bins.sum[k * 3]!;
      g += bins.sum[k * 3 + 1]!;
      bb += bins.sum[k * 3 + 2]!;
    }
    t[i] = bins.tMin + (b + 0.5) * bins.width;
    rgb[i * 3] = r / n;
    rgb[i * 3 + 1] = g / n;
    rgb[i * 3 + 2] = bb / n;
    rgbToLab(r / n, g / n, bb / n, lab, i * 3);
  }
  return { count: kept.length, t, rgb, lab };
}

/**
 * Indices of the curve points kept as stops: the two ends, then, while a stretch between kept
 * points strays more than STOP_TOLERANCE_DE from the straight sRGB blend of its ends, its worst
 * point (the worst stretch first), up to MAX_STOPS.
 */
function splitCurve(context: RampContext, curve: Curve): number[] {
  const { stretchAt, stretchDe } = context;
  const kept = [0, curve.count - 1];
  // The worst point of each stretch between kept points (stretch s: kept[s] … kept[s + 1]); a
  // split only changes the stretch it cuts, so the others are not measured again.
  measureStretch(context, curve, kept[0]!, kept[1]!, 0);
  let stretches = 1;
  while (kept.length < MAX_STOPS) {
    let bestAt = -1;
    let bestDe = STOP_TOLERANCE_DE;
    let bestStretch = -1;
    for (let s = 0; s + 1 < kept.length; s++) {
      if (stretchDe[s]! > bestDe) {
        bestDe = stretchDe[s]!;
        bestAt = stretchAt[s]!;
        bestStretch = s;
      }
    }
    if (bestAt < 0) break;
    // bestAt lies strictly inside its stretch: inserting it there keeps kept sorted.
    kept.splice(bestStretch + 1, 0, bestAt);
    // The stretch splits in two: the ones after it move up one place.
    stretchAt.copyWithin(bestStretch + 2, bestStretch + 1, stretches);
    stretchDe.copyWithin(bestStretch + 2, bestStretch + 1, stretches);
    stretches++;
    measureStretch(context, curve, kept[bestStretch]!, bestAt, bestStretch);
    measureStretch(context, curve, bestAt, kept[bestStretch + 2]!, bestStretch + 1);
  }
  return kept;
}

/**
 * The curve point strictly between i and j furthest (ΔE76) from the straight sRGB blend of i and
 * j, written to stretch s of the context's stretch columns (-1 and 0 when none is off): typed
 * columns rather than an object per measured stretch.
 */
function measureStretch(context: RampContext, curve: Curve, i: number, j: number, s: number): void {
  const lab = context.colour;
  let at = -1;
  let de = 0;
  // The stretch's ends, read once (the loop's writes to `lab` would make the compiler read them
  // again per point); the same numbers and operations as written out per point.
  const { t, rgb } = curve;
  const t0 = t[i]!;
  const span = t[j]! - t0;
  const r0 = rgb[i * 3]!;
  const g0 = rgb[i * 3 + 1]!;
  const b0 = rgb[i * 3 + 2]!;
  const dr = rgb[j * 3]! - r0;
  const dg = rgb[j * 3 + 1]! - g0;
  const db = rgb[j * 3 + 2]! - b0;
  for (let k = i + 1; k < j; k++) {
    const f = (t[k]! - t0) / span;
    rgbToLab(r0 + dr * f, g0 + dg * f, b0 + db * f, lab, 0);
    const d = hypot3(lab[0]! - curve.lab[k * 3]!, lab[1]! - curve.lab[k * 3 + 1]!, lab[2]! - curve.lab[k * 3 + 2]!);
    if (d > de) {
      de = d;
      at = k;
    }
  }
  context.stretchAt[s] = at;
  context.stretchDe[s] = de;
}

/**
 * Stop colours at fixed positions that minimise the count-weighted squared distance between the
 * piecewise-linear ramp and the bin means: a tridiagonal system of hat-function overlaps, one
 * right-hand side per channel (Thomas algorithm).
 */
function leastSquaresStops(bins: Bins, means: Float64Array, filled: Int32Array, positions: readonly number[]): Float64Array {
  const k = positions.length;
  const diag = new Float64Array(k);
  const off = new Float64Array(k); // off[i] couples stop i and i + 1
  const rhs = new Float64Array(k * 3);
  let seg = 0;
  for (const b of filled) {
    const t = bins.tMin + (b + 0.5) * bins.width;
    const w = bins.n[b]!;
    while (seg < k - 2 && t > positions[seg + 1]!) seg++;
    const t0 = positions[seg]!;
    const t1 = positions[seg + 1]!;
    const f = Math.max(0, Math.min(1, (t - t0) / (t1 - t0)));
    const a = 1 - f;
    diag[seg]! += w * a * a;
    diag[seg + 1]! += w * f * f;
    off[seg]! += w * a * f;
    for (let c = 0; c < 3; c++) {
      rhs[seg * 3 + c]! += w * a * means[b * 3 + c]!;
      rhs[(seg + 1) * 3 + c]! += w * f * means[b * 3 + c]!;
    }
  }
  // A stop no bin weighs on (an empty stretch) gets a tiny pull towards its neighbours' average.
  for (let i = 0; i < k; i++) diag[i]! += 1e-9;
  const stops = new Float64Array(k * STOP_STRIDE);
  for (let i = 0; i < k; i++) stops[i * STOP_STRIDE] = positions[i]!;
  solveStopColours(diag, off, rhs, stops);
  return stops;
}

/**
 * The stop colours (written into `stops`, whose t are set) that solve the normal equations of a
 * ramp's least-squares fit: diagonal `diag`, `off[i]` coupling stops i and i + 1, one right-hand
 * side per channel in `rhs` (r, g, b per stop) — a tridiagonal system (Thomas algorithm).
 */
export function solveStopColours(diag: Float64Array, off: Float64Array, rhs: Float64Array, stops: Float64Array): void {
  const k = diag.length;
  const cp = new Float64Array(k);
  const dp = new Float64Array(k);
  for (let c = 0; c < 3; c++) {
    // Forward sweep.
    cp[0] = off[0]! / diag[0]!;
    dp[0] = rhs[c]! / diag[0]!;
    for (let i = 1; i < k; i++) {
      const m = diag[i]! - off[i - 1]! * cp[i - 1]!;
      cp[i] = i < k - 1 ? off[i]! / m : 0;
      dp[i] = (rhs[i * 3 + c]! - off[i - 1]! * dp[i - 1]!) / m;
    }
    // Back substitution.
    let next = dp[k - 1]!;
    stops[(k - 1) * STOP_STRIDE + 1 + c] = next;
    for (let i = k - 2; i >= 0; i--) {
      next = dp[i]! - cp[i]! * next;
      stops[i * STOP_STRIDE + 1 + c] = next;
    }
  }
}

/**
 * The fitted ramp as a Gradient of the types (offsets 0–1, opaque colours rounded to bytes):
 * a linear axis through (originX, originY) — any point on it — from tMin to tMax; a radial one
 * around the centre out to tMax, with a first stop repeated at offset 0 when the ramp starts
 * beyond the centre.
 */
export function toGradient(ramp: FittedRamp, originX: number, originY: number): Gradient {
  const g = ramp.geometry;
  const count = stopCount(ramp.stops);
  const stops: GradientStop[] = [];
  const stopAt = (k: number, offset: number): GradientStop => ({
    offset,
    color: { r: byte(stopChannel(ramp.stops, k, 0)), g: byte(stopChannel(ramp.stops, k, 1)), b: byte(stopChannel(ramp.stops, k, 2)), a: 255 },
  });
  if (g.kind === 'linear') {
    const t0 = stopT(ramp.stops, 0);
    const t1 = stopT(ramp.stops, count - 1);
    const tOrigin = linearT(g.ux, g.uy, originX, originY);
    for (let k = 0; k < count; k++) stops.push(stopAt(k, round4((stopT(ramp.stops, k) - t0) / (t1 - t0))));
    return {
      kind: 'linear',
      x1: originX + g.ux * (t0 - tOrigin),
      y1: originY + g.uy * (t0 - tOrigin),
      x2: originX + g.ux * (t1 - tOrigin),
      y2: originY + g.uy * (t1 - tOrigin),
      stops,
    };
  }
  const radius = stopT(ramp.stops, count - 1);
  // A first stop within a few per cent of the centre is the centre's colour; further out the
  // centre keeps that colour (a repeated stop at 0).
  const startsAtCentre = stopT(ramp.stops, 0) / radius < RADIAL_CENTRE_SHARE;
  if (!startsAtCentre) stops.push(stopAt(0, 0));
  for (let k = 0; k < count; k++) stops.push(stopAt(k, k === 0 && startsAtCentre ? 0 : round4(Math.max(0, stopT(ramp.stops, k)) / radius)));
  if (g.kind === 'radial') return { kind: 'radial', cx: g.cx, cy: g.cy, r: radius, stops };
  // The first axis's direction in [0°, 180°) (either way along it is the same ellipse).
  let rotationDeg = (Math.atan2(g.uy, g.ux) * 180) / Math.PI;
  rotationDeg = ((rotationDeg % 180) + 180) % 180;
  return { kind: 'radial', cx: g.cx, cy: g.cy, r: radius, ry: radius * g.ratio, rotationDeg: Math.round(rotationDeg * 100) / 100, stops };
}

function byte(v: number): number {
  return Math.max(0, Math.min(255, Math.round(v)));
}

function round4(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}
