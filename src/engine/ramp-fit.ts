/**
 * Fits one gradient to the pixels of one smoothly shaded area.
 * In: sample pixels of the area (centre x, y in traced pixels; r, g, b) and, for the initial
 * guess, the local colour slope at each sample. Out: a linear or radial ramp geometry, the colour
 * ramp as stops (the fewest that keep every part of the ramp within STOP_TOLERANCE_DE of the
 * pixels' mean colour there) and the fit's error.
 *
 * Method: a gradient is a colour that depends on one number t(x, y) — the position along an axis
 * (linear) or the distance from a centre (radial). For a candidate geometry the samples are
 * binned by t (1-px bins); the colour variance left inside the bins says how well the geometry
 * explains the picture, whatever the ramp's shape (two stops or ten, monotone or not). The axis
 * starts from the structure tensor of the colour slopes (its main direction), the centre from the
 * point the slope lines meet in least squares; both are refined by minimising the in-bin variance
 * (golden-section search over the angle, Nelder–Mead over the centre). The ramp is then the bins'
 * mean colours, simplified to stops by greedy insertion at the worst bin, with the stop colours
 * fitted by least squares (hat functions). Cf. the gradient-region fits of Kansal & Kumar (2014)
 * and Photo2ClipArt (Favreau et al. 2017), done here in closed form and 1-D searches.
 */
import { rgbToLab } from './color.js';
import { hypot2, hypot3 } from './length.js';
import type { Gradient, GradientStop } from './types.js';

/** Pixels of one area: centres (traced px) and colours (sRGB 0–255), with local slopes. */
export interface RampSamples {
  readonly count: number;
  readonly x: Float64Array;
  readonly y: Float64Array;
  /** r, g, b per sample. */
  readonly rgb: Float64Array;
  /**
   * Colour slope per sample along x and y of the area's main colour axis (sRGB units per px), NaN
   * where the neighbours needed are outside the area; empty arrays for samples without slopes
   * (only the geometry search needs them).
   */
  readonly slopeX: Float64Array;
  readonly slopeY: Float64Array;
}

/** Where t comes from: position along a unit axis, or distance from a centre (traced px). */
export type RampGeometry =
  | { readonly kind: 'linear'; readonly ux: number; readonly uy: number }
  | { readonly kind: 'radial'; readonly cx: number; readonly cy: number }
  /**
   * Ellipses around (cx, cy): t = √(u² + (v / ratio)²) with u, v the coordinates of p − c along
   * the first axis (ux, uy) and the second (−uy, ux): t is px along the first axis.
   */
  | { readonly kind: 'ellipse'; readonly cx: number; readonly cy: number; readonly ux: number; readonly uy: number; readonly ratio: number };

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
/** Stops of one ramp at most. */
const MAX_STOPS = 12;
/** Bins per ramp at most (a ramp longer than this many px gets wider bins). */
const MAX_BINS = 1024;
/** A radial fit must leave at most this share of the linear fit's in-bin variance to be chosen. */
const RADIAL_ADVANTAGE = 0.8;
/** How far (rad) the angle search looks either side of the structure tensor's direction. */
const ANGLE_SEARCH_RAD = 0.12;
/** In-bin evaluations the centre search may spend. */
const CENTRE_STEPS = 40;
/** A radial ramp whose first stop lies within this share of its radius starts at the centre. */
const RADIAL_CENTRE_SHARE = 0.04;
/** A centre further than this many area extents away is a linear ramp in disguise. */
const MAX_CENTRE_DISTANCE = 6;

/**
 * The best linear or radial ramp for the samples, or undefined when there are too few samples
 * or no direction to speak of.
 */
/**
 * The best linear or radial ramp for the samples, or undefined when there are too few samples
 * or no direction to speak of: the geometry is searched on `search` (a regular subset with
 * slopes: a thousand pixels or two pin an axis or a centre well), the ramp fitted to `samples`.
 * @param gate when given, an RMS error (sRGB units) that the first guesses must already reach
 * (within the searches' reach), else the samples are not a ramp and no search is made.
 */
export function fitRamp(samples: RampSamples, search: RampSamples = thinned(samples, SEARCH_SAMPLES), gate?: number): FittedRamp | undefined {
  const geometry = findGeometry(search, gate);
  return geometry && rampFor(samples, geometry);
}

/** The linear or radial geometry that leaves the least colour variance along its t (see fitRamp). */
export function findGeometry(search: RampSamples, gate?: number): RampGeometry | undefined {
  if (search.count < 8) return undefined;
  const bounds = boundsOf(search);
  const extent = Math.max(bounds.maxX - bounds.minX, bounds.maxY - bounds.minY, 1);
  const tensor = slopeTensor(search);
  if (!tensor) return undefined;
  const centre = tensor.centre && hypot2(tensor.centre[0] - (bounds.minX + bounds.maxX) / 2, tensor.centre[1] - (bounds.minY + bounds.maxY) / 2) < MAX_CENTRE_DISTANCE * extent ? tensor.centre : undefined;
  // First guesses: the tensor's axis, the slope lines' meeting point and (when those two are
  // near misses, or a centre is worth searching) the slopes' ellipse.
  const linearFirst = inBinError(search, linearAt(tensor.angle));
  const roundFirst = centre ? inBinError(search, { kind: 'radial', cx: centre[0], cy: centre[1] }) : Infinity;
  let oval: Oval | null | undefined;
  let ovalFirst = Infinity;
  const guessOval = (): void => {
    if (oval !== undefined || !centre) return;
    oval = initialEllipse(search, centre[0], centre[1]) ?? null;
    if (oval) ovalFirst = inBinError(search, ellipseAt(oval.cx, oval.cy, oval.angle, oval.ratio));
  };
  // A field no geometry near the first guesses comes close to explaining is texture: the
  // searches would not rescue it.
  if (gate !== undefined) {
    const rms = (sse: number): number => Math.sqrt(sse / search.count);
    if (rms(Math.min(linearFirst, roundFirst)) > gate) {
      if (rms(Math.min(linearFirst, roundFirst)) > NEAR_MISS * gate) return undefined;
      guessOval();
      if (rms(ovalFirst) > gate) return undefined;
    }
  }
  const linear = bestLinear(search, tensor.angle);
  let best: { geometry: RampGeometry; sse: number } = linear;
  // A linear fit within the 8-bit steps of a render leaves nothing for a centre to explain; a
  // centre whose first guess is far behind the linear fit is not searched either.
  const curved = centre !== undefined && Math.sqrt(linear.sse / search.count) > LINEAR_IS_EXACT;
  if (curved) guessOval();
  const promising = curved && Math.min(roundFirst, ovalFirst) < RADIAL_PROMISE * linear.sse;
  if (centre && promising) {
    const radial = bestRadial(search, centre, extent);
    const g = radial.geometry as Extract<RampGeometry, { kind: 'radial' }>;
    const near = hypot2(g.cx - (bounds.minX + bounds.maxX) / 2, g.cy - (bounds.minY + bounds.maxY) / 2) < MAX_CENTRE_DISTANCE * extent;
    if (near && radial.sse < RADIAL_ADVANTAGE * linear.sse) best = radial;
    // Ellipses (a radial gradient squeezed or stretched, as drawing programs make them with a
    // gradient transform): from the slopes' quadratic form, refined when its first guess already
    // beats the circle's.
    if (near && oval && ovalFirst < RADIAL_ADVANTAGE * roundFirst) {
      const ellipse = bestEllipse(search, oval, extent);
      if (ellipse && ellipse.sse < RADIAL_ADVANTAGE * best.sse) best = ellipse;
    }
  }
  return best.geometry;
}

/** First guesses within this many times the gate may still be an ellipse the other two miss. */
const NEAR_MISS = 4;
/** A centre is searched only when its first guess leaves less than this many times the linear fit's variance. */
const RADIAL_PROMISE = 1.5;
/** In-bin RMS (sRGB units) under which a linear fit is not worth trying a centre against. */
const LINEAR_IS_EXACT = 0.8;
/** Samples a ramp's mean error is measured on, at most. */
const ERROR_SAMPLES = 4000;
/** Samples the geometry search looks at, at most. */
export const SEARCH_SAMPLES = 1500;

/** Every k-th sample, so that at most `limit` remain (the samples themselves when fewer). */
function thinned(s: RampSamples, limit: number): RampSamples {
  if (s.count <= limit) return s;
  const stride = Math.ceil(s.count / limit);
  const count = Math.ceil(s.count / stride);
  const out = emptySamples(count, s.slopeX.length > 0);
  for (let k = 0; k < count; k++) {
    const i = k * stride;
    if (s.slopeX.length > 0) {
      out.slopeX[k] = s.slopeX[i]!;
      out.slopeY[k] = s.slopeY[i]!;
    }
    out.x[k] = s.x[i]!;
    out.y[k] = s.y[i]!;
    out.rgb[k * 3] = s.rgb[i * 3]!;
    out.rgb[k * 3 + 1] = s.rgb[i * 3 + 1]!;
    out.rgb[k * 3 + 2] = s.rgb[i * 3 + 2]!;
  }
  return out;
}

interface Bounds {
  readonly minX: number;
  readonly maxX: number;
  readonly minY: number;
  readonly maxY: number;
}

function sampleBounds(s: RampSamples): Bounds {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < s.count; i++) {
    const x = s.x[i]!;
    const y = s.y[i]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, maxX, minY, maxY };
}

/**
 * The main direction of the colour slopes (angle of the structure tensor's first eigenvector) and
 * the point where the slope lines through the samples meet in least squares (undefined when they
 * are parallel: a linear ramp).
 */
function slopeTensor(s: RampSamples): { angle: number; centre: readonly [number, number] | undefined } | undefined {
  if (s.slopeX.length < s.count) return undefined;
  let jxx = 0;
  let jxy = 0;
  let jyy = 0;
  let used = 0;
  let minX = Infinity;
  let maxX = -Infinity;
  for (let i = 0; i < s.count; i++) {
    const gx = s.slopeX[i]!;
    const gy = s.slopeY[i]!;
    if (Number.isNaN(gx) || Number.isNaN(gy) || (gx === 0 && gy === 0)) continue;
    used++;
    jxx += gx * gx;
    jxy += gx * gy;
    jyy += gy * gy;
    minX = Math.min(minX, s.x[i]!);
    maxX = Math.max(maxX, s.x[i]!);
  }
  if (used < 4 || jxx + jyy === 0) return undefined;
  // First eigenvector of [[jxx, jxy], [jxy, jyy]]: angle ½·atan2(2jxy, jxx - jyy).
  const angle = 0.5 * Math.atan2(2 * jxy, jxx - jyy);
  return { angle, centre: meetingPoint(s, Math.max(1, maxX - minX)) };
}

/**
 * The point where the slope lines meet (each sample's line through it along its slope), in
 * weighted least squares — Σ w n nᵀ c = Σ w n (n · p) with n ⟂ slope, w the slope's strength —
 * refined twice with weights that fade for lines passing far from the last estimate (slopes near
 * a radial ramp's centre and noisy ones point anywhere). Undefined when the lines are parallel.
 */
function meetingPoint(s: RampSamples, extent: number): [number, number] | undefined {
  let centre: [number, number] | undefined;
  const scale = extent / 20;
  for (let pass = 0; pass < 3; pass++) {
    let axx = 0;
    let axy = 0;
    let ayy = 0;
    let bx = 0;
    let by = 0;
    for (let i = 0; i < s.count; i++) {
      const gx = s.slopeX[i]!;
      const gy = s.slopeY[i]!;
      if (Number.isNaN(gx) || Number.isNaN(gy) || (gx === 0 && gy === 0)) continue;
      // Normal to the slope, |n|² = the slope's strength.
      const nx = -gy;
      const ny = gx;
      const np = nx * s.x[i]! + ny * s.y[i]!;
      let w = 1;
      if (centre) {
        const d = (nx * centre[0] + ny * centre[1] - np) / Math.sqrt(nx * nx + ny * ny) / scale;
        w = 1 / (1 + d * d);
      }
      axx += w * nx * nx;
      axy += w * nx * ny;
      ayy += w * ny * ny;
      bx += w * nx * np;
      by += w * ny * np;
    }
    const det = axx * ayy - axy * axy;
    const trace = axx + ayy;
    // Parallel slope lines make the system singular: its smaller eigenvalue vanishes.
    const smaller = trace / 2 - Math.sqrt(Math.max(0, (trace * trace) / 4 - det));
    if (!(smaller > 0.02 * trace)) return pass === 0 ? undefined : centre;
    centre = [(ayy * bx - axy * by) / det, (axx * by - axy * bx) / det];
  }
  return centre;
}

/** t of the point (x, y) for a geometry (px along the axis, or from the centre along the first axis). */
export function geometryT(g: RampGeometry, x: number, y: number): number {
  if (g.kind === 'linear') return g.ux * x + g.uy * y;
  if (g.kind === 'radial') return hypot2(x - g.cx, y - g.cy);
  const dx = x - g.cx;
  const dy = y - g.cy;
  const u = g.ux * dx + g.uy * dy;
  const v = (g.ux * dy - g.uy * dx) / g.ratio;
  return Math.sqrt(u * u + v * v);
}

/** Per-bin sums of one binning of the samples by t. */
interface Bins {
  readonly tMin: number;
  readonly width: number;
  readonly count: number;
  readonly n: Float64Array;
  /** Σr, Σg, Σb per bin. */
  readonly sum: Float64Array;
  /** Σ(r² + g² + b²) per bin. */
  readonly sumSq: Float64Array;
}

/** Scratch t per sample and scratch bins, grown as needed (binning runs some hundred times per picture). */
let scratchT = new Float64Array(1024);
const SCRATCH_BINS = { n: new Float64Array(MAX_BINS + 1), sum: new Float64Array((MAX_BINS + 1) * 3), sumSq: new Float64Array(MAX_BINS + 1) };

/** t of every sample into scratchT; returns [tMin, tMax]. One loop per kind (no test per sample). */
function computeT(s: RampSamples, g: RampGeometry): [number, number] {
  if (scratchT.length < s.count) scratchT = new Float64Array(s.count * 2);
  const t = scratchT;
  let tMin = Infinity;
  let tMax = -Infinity;
  if (g.kind === 'linear') {
    const { ux, uy } = g;
    for (let i = 0; i < s.count; i++) {
      const v = ux * s.x[i]! + uy * s.y[i]!;
      t[i] = v;
      if (v < tMin) tMin = v;
      if (v > tMax) tMax = v;
    }
  } else {
    for (let i = 0; i < s.count; i++) {
      const v = geometryT(g, s.x[i]!, s.y[i]!);
      t[i] = v;
      if (v < tMin) tMin = v;
      if (v > tMax) tMax = v;
    }
  }
  return [tMin, tMax];
}

/** The samples binned by t (1-px bins, at most MAX_BINS); `scratch` bins are overwritten by the next call. */
function binSamples(s: RampSamples, g: RampGeometry, scratch = false): Bins {
  const [tMin, tMax] = computeT(s, g);
  const t = scratchT;
  const width = Math.max(1, (tMax - tMin) / MAX_BINS);
  const count = Math.floor((tMax - tMin) / width) + 1;
  let n: Float64Array;
  let sum: Float64Array;
  let sumSq: Float64Array;
  if (scratch) {
    n = SCRATCH_BINS.n.fill(0, 0, count);
    sum = SCRATCH_BINS.sum.fill(0, 0, count * 3);
    sumSq = SCRATCH_BINS.sumSq.fill(0, 0, count);
  } else {
    n = new Float64Array(count);
    sum = new Float64Array(count * 3);
    sumSq = new Float64Array(count);
  }
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
    sumSq[b]! += r * r + gg * gg + bb * bb;
  }
  return { tMin, width, count, n, sum, sumSq };
}

/** Σ|c|² of a sample set (the part of the in-bin variance no geometry changes), computed once. */
const SUM_SQUARES = new WeakMap<RampSamples, number>();

function sumOfSquares(s: RampSamples): number {
  let v = SUM_SQUARES.get(s);
  if (v === undefined) {
    v = 0;
    for (let i = 0; i < s.count * 3; i++) v += s.rgb[i]! * s.rgb[i]!;
    SUM_SQUARES.set(s, v);
  }
  return v;
}

/**
 * Colour variance left inside 1-px bins of t (sum of squares, sRGB units²): Σ|c|² − Σ over bins
 * of |Σc|²/n. The t range comes from the samples' bounding box (no first pass to find it); this
 * is the search's inner loop, a few hundred times per picture.
 */
function inBinError(s: RampSamples, g: RampGeometry): number {
  const b = boundsOf(s);
  let tMin: number;
  let tMax: number;
  if (g.kind === 'linear') {
    const tx0 = g.ux * b.minX;
    const tx1 = g.ux * b.maxX;
    const ty0 = g.uy * b.minY;
    const ty1 = g.uy * b.maxY;
    tMin = Math.min(tx0, tx1) + Math.min(ty0, ty1);
    tMax = Math.max(tx0, tx1) + Math.max(ty0, ty1);
  } else if (g.kind === 'radial') {
    const dx = Math.max(Math.abs(b.minX - g.cx), Math.abs(b.maxX - g.cx));
    const dy = Math.max(Math.abs(b.minY - g.cy), Math.abs(b.maxY - g.cy));
    const nx = g.cx < b.minX ? b.minX - g.cx : g.cx > b.maxX ? g.cx - b.maxX : 0;
    const ny = g.cy < b.minY ? b.minY - g.cy : g.cy > b.maxY ? g.cy - b.maxY : 0;
    tMin = Math.sqrt(nx * nx + ny * ny);
    tMax = Math.sqrt(dx * dx + dy * dy);
  } else {
    // t is convex: its largest value over the box is at a corner; 0 bounds it below.
    tMin = 0;
    tMax = Math.max(geometryT(g, b.minX, b.minY), geometryT(g, b.maxX, b.minY), geometryT(g, b.minX, b.maxY), geometryT(g, b.maxX, b.maxY));
  }
  const width = Math.max(1, (tMax - tMin) / MAX_BINS);
  const perWidth = 1 / width;
  const count = Math.floor((tMax - tMin) * perWidth) + 1;
  const n = SCRATCH_BINS.n.fill(0, 0, count);
  const sum = SCRATCH_BINS.sum.fill(0, 0, count * 3);
  const { x, y, rgb } = s;
  if (g.kind === 'linear') {
    const { ux, uy } = g;
    for (let i = 0; i < s.count; i++) {
      const k = Math.min(count - 1, Math.floor((ux * x[i]! + uy * y[i]! - tMin) * perWidth));
      n[k]!++;
      sum[k * 3]! += rgb[i * 3]!;
      sum[k * 3 + 1]! += rgb[i * 3 + 1]!;
      sum[k * 3 + 2]! += rgb[i * 3 + 2]!;
    }
  } else if (g.kind === 'radial') {
    const { cx, cy } = g;
    for (let i = 0; i < s.count; i++) {
      const dx = x[i]! - cx;
      const dy = y[i]! - cy;
      const k = Math.min(count - 1, Math.floor((Math.sqrt(dx * dx + dy * dy) - tMin) * perWidth));
      n[k]!++;
      sum[k * 3]! += rgb[i * 3]!;
      sum[k * 3 + 1]! += rgb[i * 3 + 1]!;
      sum[k * 3 + 2]! += rgb[i * 3 + 2]!;
    }
  } else {
    const { cx, cy, ux, uy } = g;
    const perRatio = 1 / g.ratio;
    for (let i = 0; i < s.count; i++) {
      const dx = x[i]! - cx;
      const dy = y[i]! - cy;
      const u = ux * dx + uy * dy;
      const v = (ux * dy - uy * dx) * perRatio;
      const k = Math.min(count - 1, Math.floor((Math.sqrt(u * u + v * v) - tMin) * perWidth));
      n[k]!++;
      sum[k * 3]! += rgb[i * 3]!;
      sum[k * 3 + 1]! += rgb[i * 3 + 1]!;
      sum[k * 3 + 2]! += rgb[i * 3 + 2]!;
    }
  }
  let explained = 0;
  for (let k = 0; k < count; k++) {
    const nk = n[k]!;
    if (nk === 0) continue;
    const r = sum[k * 3]!;
    const gg = sum[k * 3 + 1]!;
    const bb = sum[k * 3 + 2]!;
    explained += (r * r + gg * gg + bb * bb) / nk;
  }
  return sumOfSquares(s) - explained;
}

/** The samples' bounding box, computed once per sample set. */
const BOUNDS = new WeakMap<RampSamples, Bounds>();

function boundsOf(s: RampSamples): Bounds {
  let b = BOUNDS.get(s);
  if (!b) BOUNDS.set(s, (b = sampleBounds(s)));
  return b;
}

function linearAt(angle: number): RampGeometry {
  return { kind: 'linear', ux: Math.cos(angle), uy: Math.sin(angle) };
}

/**
 * The axis angle near `start` (the structure tensor's, already close): successive parabolas
 * through three angles, the bracket narrowing around the best, from ANGLE_SEARCH_RAD down to
 * ~0.001 rad (0.06°).
 */
function bestLinear(s: RampSamples, start: number): { geometry: RampGeometry; sse: number } {
  let centre = start;
  let fc = inBinError(s, linearAt(centre));
  let step = ANGLE_SEARCH_RAD;
  for (let round = 0; step > 0.001 && round < 24; round++) {
    const fl = inBinError(s, linearAt(centre - step));
    const fr = inBinError(s, linearAt(centre + step));
    // Vertex of the parabola through the three; kept within the bracket.
    const curvature = fl + fr - 2 * fc;
    let next = centre;
    let fn = fc;
    if (fl < fc || fr < fc) [next, fn] = fl < fr ? [centre - step, fl] : [centre + step, fr];
    if (curvature > 0) {
      const vertex = centre + (step * (fl - fr)) / (2 * curvature);
      if (Math.abs(vertex - centre) < step) {
        const fv = inBinError(s, linearAt(vertex));
        if (fv < fn) [next, fn] = [vertex, fv];
      }
    }
    // Moved to an end: keep the step (the minimum may lie beyond); else narrow around the best.
    const atEnd = next === centre - step || next === centre + step;
    centre = next;
    fc = fn;
    step = atEnd ? step : step / 4;
  }
  return { geometry: linearAt(centre), sse: fc };
}

/**
 * Compass (pattern) search of the centre from `start`, the slope lines' meeting point: try a step
 * each way along x and y, move to the best, halve the step when none is better; from a fiftieth of
 * the extent down to 0.1 px.
 */
function bestRadial(s: RampSamples, start: readonly [number, number], extent: number): { geometry: RampGeometry; sse: number } {
  let cx = start[0];
  let cy = start[1];
  let best = inBinError(s, { kind: 'radial', cx, cy });
  let step = Math.max(0.4, extent / 50);
  let evaluations = 0;
  while (step >= 0.1 && evaluations < CENTRE_STEPS) {
    let moved = false;
    for (let d = 0; d < 4; d++) {
      const x = cx + (d === 0 ? step : d === 1 ? -step : 0);
      const y = cy + (d === 2 ? step : d === 3 ? -step : 0);
      const f = inBinError(s, { kind: 'radial', cx: x, cy: y });
      evaluations++;
      if (f < best) {
        best = f;
        cx = x;
        cy = y;
        moved = true;
        break;
      }
    }
    if (!moved) step /= 2;
  }
  return { geometry: { kind: 'radial', cx, cy }, sse: best };
}

/** Ratios of the two axes closer to 1 than this are circles. */
const MIN_ELLIPSE_RATIO = 1.08;

/**
 * An elliptical geometry around (cx, cy), or undefined when the field is round (or not
 * elliptical at all). For t² = dᵀ A d (d = p − c) the colour slope at p is parallel to A d, so
 * slope × (A d) = 0 is linear in A's three entries: A is the least-squares null vector of those
 * equations (smallest eigenvector of their 3 × 3 scatter), which must be positive definite. Its
 * eigenvectors give the axes; a compass search then refines centre, axis angle and ratio.
 */
/** An ellipse's centre, first-axis angle (rad) and ratio of its axes (≤ 1). */
interface Oval {
  readonly cx: number;
  readonly cy: number;
  readonly angle: number;
  readonly ratio: number;
}

function bestEllipse(s: RampSamples, first: Oval, extent: number): { geometry: RampGeometry; sse: number } | undefined {
  const refined = refineEllipse(s, first.cx, first.cy, first.angle, first.ratio, extent);
  return 1 / refined.ratio < MIN_ELLIPSE_RATIO ? undefined : { geometry: ellipseAt(refined.cx, refined.cy, refined.angle, refined.ratio), sse: refined.sse };
}

/**
 * The ellipse's centre, axis angle and ratio from the slopes (see bestEllipse), or undefined:
 * A for the given centre, then the centre for that A (slope × A (p − c) = 0 is linear in c too),
 * three times — the slope lines of an ellipse do not meet at its centre, so the first guess of
 * the centre is off.
 */
function initialEllipse(s: RampSamples, cx0: number, cy0: number): Oval | undefined {
  let cx = cx0;
  let cy = cy0;
  let form: Float64Array | undefined;
  for (let round = 0; round < 3; round++) {
    form = quadraticForm(s, cx, cy);
    if (!form) return undefined;
    const centre = formCentre(s, form);
    if (!centre) break;
    [cx, cy] = centre;
  }
  form = quadraticForm(s, cx, cy);
  if (!form) return undefined;
  const [a11, a12, a22] = form as unknown as [number, number, number];
  // Eigenvalues of [[a11, a12], [a12, a22]]; both must be positive.
  const mean = (a11 + a22) / 2;
  const spread = hypot2((a11 - a22) / 2, a12);
  const small = mean - spread;
  const large = mean + spread;
  if (!(small > 0)) return undefined;
  // First axis: the eigenvector of the smaller eigenvalue (t grows slowest along it: the long axis).
  const angle = 0.5 * Math.atan2(2 * a12, a11 - a22) + Math.PI / 2;
  const ratio = Math.sqrt(small / large);
  return { cx, cy, angle, ratio: 1 / ratio < MIN_ELLIPSE_RATIO ? 1 / MIN_ELLIPSE_RATIO : ratio };
}

/** A (a11, a12, a22, trace-positive) of t² = dᵀ A d for centre (cx, cy): see bestEllipse. */
function quadraticForm(s: RampSamples, cx: number, cy: number): Float64Array | undefined {
  const m = new Float64Array(9);
  let used = 0;
  for (let i = 0; i < s.count; i++) {
    const gx = s.slopeX[i]!;
    const gy = s.slopeY[i]!;
    if (Number.isNaN(gx) || Number.isNaN(gy)) continue;
    const dx = s.x[i]! - cx;
    const dy = s.y[i]! - cy;
    const len = hypot2(gx, gy) * hypot2(dx, dy);
    if (len === 0) continue;
    used++;
    // Coefficients of a11, a12, a22 in gx·(A d)y − gy·(A d)x = 0, normalised per sample.
    const v0 = (-gy * dx) / len;
    const v1 = (gx * dx - gy * dy) / len;
    const v2 = (gx * dy) / len;
    m[0]! += v0 * v0;
    m[1]! += v0 * v1;
    m[2]! += v0 * v2;
    m[4]! += v1 * v1;
    m[5]! += v1 * v2;
    m[8]! += v2 * v2;
  }
  if (used < 6) return undefined;
  m[3] = m[1]!;
  m[6] = m[2]!;
  m[7] = m[5]!;
  const a = smallestEigenvector3(m);
  if (a[0]! + a[2]! < 0) for (let k = 0; k < 3; k++) a[k] = -a[k]!;
  return a;
}

/** The centre c that makes every slope parallel to A (p − c), in least squares, or undefined. */
function formCentre(s: RampSamples, a: Float64Array): [number, number] | undefined {
  const a11 = a[0]!;
  const a12 = a[1]!;
  const a22 = a[2]!;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  let bx = 0;
  let by = 0;
  for (let i = 0; i < s.count; i++) {
    const gx = s.slopeX[i]!;
    const gy = s.slopeY[i]!;
    if (Number.isNaN(gx) || Number.isNaN(gy)) continue;
    const g = hypot2(gx, gy);
    if (g === 0) continue;
    // gx·(A c)y − gy·(A c)x = gx·(A p)y − gy·(A p)x, each equation scaled to a unit slope.
    const ex = (gx * a12 - gy * a11) / g;
    const ey = (gx * a22 - gy * a12) / g;
    const px = s.x[i]!;
    const py = s.y[i]!;
    const rhs = (gx * (a12 * px + a22 * py) - gy * (a11 * px + a12 * py)) / g;
    sxx += ex * ex;
    sxy += ex * ey;
    syy += ey * ey;
    bx += ex * rhs;
    by += ey * rhs;
  }
  const det = sxx * syy - sxy * sxy;
  if (!(Math.abs(det) > 1e-12 * (sxx + syy) * (sxx + syy))) return undefined;
  return [(syy * bx - sxy * by) / det, (sxx * by - sxy * bx) / det];
}

function ellipseAt(cx: number, cy: number, angle: number, ratio: number): RampGeometry {
  return { kind: 'ellipse', cx, cy, ux: Math.cos(angle), uy: Math.sin(angle), ratio };
}

/** Compass search over centre, angle and log ratio (steps halved until fine), ratio kept ≤ 1. */
function refineEllipse(s: RampSamples, cx0: number, cy0: number, angle0: number, ratio0: number, extent: number): { cx: number; cy: number; angle: number; ratio: number; sse: number } {
  const p = [cx0, cy0, angle0, Math.log(ratio0)];
  const steps = [Math.max(0.4, extent / 50), Math.max(0.4, extent / 50), 0.05, 0.05];
  const floor = [0.1, 0.1, 0.004, 0.004];
  const at = (q: readonly number[]): number => inBinError(s, ellipseAt(q[0]!, q[1]!, q[2]!, Math.min(1, Math.exp(q[3]!))));
  let best = at(p);
  for (let evaluations = 0; evaluations < ELLIPSE_STEPS && steps.some((st, i) => st >= floor[i]!); ) {
    let moved = false;
    for (let d = 0; d < 8 && !moved; d++) {
      const i = d >> 1;
      if (steps[i]! < floor[i]!) continue;
      const q = p.slice();
      q[i]! += d & 1 ? -steps[i]! : steps[i]!;
      const f = at(q);
      evaluations++;
      if (f < best) {
        best = f;
        for (let k = 0; k < 4; k++) p[k] = q[k]!;
        moved = true;
      }
    }
    if (!moved) for (let i = 0; i < 4; i++) steps[i]! /= 2;
  }
  return { cx: p[0]!, cy: p[1]!, angle: p[2]!, ratio: Math.min(1, Math.exp(p[3]!)), sse: best };
}

/** In-bin evaluations the ellipse refinement may spend. */
const ELLIPSE_STEPS = 40;

/** Unit eigenvector of the smallest eigenvalue of a symmetric 3 × 3 matrix (Jacobi rotations). */
function smallestEigenvector3(m: Float64Array): Float64Array {
  const a = Float64Array.from(m);
  const v = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  for (let sweep = 0; sweep < 12; sweep++) {
    for (const [p, q] of JACOBI_PAIRS) {
      const apq = a[p * 3 + q]!;
      if (Math.abs(apq) < 1e-15) continue;
      const theta = (a[q * 3 + q]! - a[p * 3 + p]!) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const sn = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[k * 3 + p]!;
        const akq = a[k * 3 + q]!;
        a[k * 3 + p] = c * akp - sn * akq;
        a[k * 3 + q] = sn * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p * 3 + k]!;
        const aqk = a[q * 3 + k]!;
        a[p * 3 + k] = c * apk - sn * aqk;
        a[q * 3 + k] = sn * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k * 3 + p]!;
        const vkq = v[k * 3 + q]!;
        v[k * 3 + p] = c * vkp - sn * vkq;
        v[k * 3 + q] = sn * vkp + c * vkq;
      }
    }
  }
  let min = 0;
  for (let i = 1; i < 3; i++) if (a[i * 3 + i]! < a[min * 3 + min]!) min = i;
  return new Float64Array([v[min]!, v[3 + min]!, v[6 + min]!]);
}

const JACOBI_PAIRS: readonly (readonly [number, number])[] = [
  [0, 1],
  [0, 2],
  [1, 2],
];

/** The ramp (stops) of a geometry and its error over the samples. */
export function rampFor(s: RampSamples, g: RampGeometry): FittedRamp {
  const bins = binSamples(s, g);
  const stops = fitStops(bins);
  return { geometry: g, tMin: bins.tMin, tMax: bins.tMin + bins.count * bins.width, stops, meanError: rampError(thinned(s, ERROR_SAMPLES), g, stops) };
}

/** Mean distance (sRGB units) between the samples and a ramp's colour at their t. */
export function rampError(s: RampSamples, g: RampGeometry, stops: Float64Array): number {
  let error = 0;
  const out = new Float64Array(3);
  for (let i = 0; i < s.count; i++) {
    rampColorAt(stops, geometryT(g, s.x[i]!, s.y[i]!), out);
    error += hypot3(s.rgb[i * 3]! - out[0]!, s.rgb[i * 3 + 1]! - out[1]!, s.rgb[i * 3 + 2]! - out[2]!);
  }
  return error / Math.max(1, s.count);
}

/** Zeroed samples for `count` pixels, with slope arrays or empty ones. */
export function emptySamples(count: number, withSlopes: boolean): RampSamples {
  const slopes = withSlopes ? count : 0;
  return {
    count,
    x: new Float64Array(count),
    y: new Float64Array(count),
    rgb: new Float64Array(count * 3),
    slopeX: new Float64Array(slopes),
    slopeY: new Float64Array(slopes),
  };
}

/** Samples of several areas as one set (for a shared gradient). */
export function joinSamples(parts: readonly RampSamples[]): RampSamples {
  let count = 0;
  for (const p of parts) count += p.count;
  const withSlopes = parts.every((p) => p.slopeX.length >= p.count);
  const out = emptySamples(count, withSlopes);
  let at = 0;
  for (const p of parts) {
    out.x.set(p.x.subarray(0, p.count), at);
    out.y.set(p.y.subarray(0, p.count), at);
    out.rgb.set(p.rgb.subarray(0, p.count * 3), at * 3);
    if (withSlopes) {
      out.slopeX.set(p.slopeX.subarray(0, p.count), at);
      out.slopeY.set(p.slopeY.subarray(0, p.count), at);
    }
    at += p.count;
  }
  return out;
}

/** The ramp's colour at t (stops t, r, g, b; padded beyond the ends) into out[0..2]. */
export function rampColorAt(stops: Float64Array, t: number, out: Float64Array): void {
  const last = stops.length / 4 - 1;
  if (t <= stops[0]!) {
    out[0] = stops[1]!;
    out[1] = stops[2]!;
    out[2] = stops[3]!;
    return;
  }
  for (let k = 1; k <= last; k++) {
    const t1 = stops[k * 4]!;
    if (t <= t1 || k === last) {
      const t0 = stops[(k - 1) * 4]!;
      const f = t >= t1 ? 1 : (t - t0) / (t1 - t0);
      for (let c = 0; c < 3; c++) out[c] = stops[(k - 1) * 4 + 1 + c]! + (stops[k * 4 + 1 + c]! - stops[(k - 1) * 4 + 1 + c]!) * f;
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
function fitStops(bins: Bins): Float64Array {
  const centre = (b: number): number => bins.tMin + (b + 0.5) * bins.width;
  const filled: number[] = [];
  let total = 0;
  for (let b = 0; b < bins.count; b++) {
    if (bins.n[b]! > 0) {
      filled.push(b);
      total += bins.n[b]!;
    }
  }
  // Bins of one or two pixels (a corner, the tip of a ramp) are noise, not shape; the centre of a
  // radial ramp has few pixels per bin yet carries its first stop.
  const minCount = Math.min(3, (0.5 * total) / filled.length);
  const means = new Float64Array(bins.count * 3);
  for (const b of filled) for (let c = 0; c < 3; c++) means[b * 3 + c] = bins.sum[b * 3 + c]! / bins.n[b]!;
  const curve = smoothedCurve(bins, filled, minCount);
  const positions: number[] = [];
  if (curve.count < 2) {
    positions.push(centre(filled[0]!), centre(filled[filled.length - 1]!));
    if (positions[1] === positions[0]) positions[1] = positions[0]! + bins.width;
  } else {
    for (const i of splitCurve(curve)) positions.push(curve.t[i]!);
  }
  return leastSquaresStops(bins, means, filled, positions);
}

/** The bins' mean colours along t, each averaged with its neighbours (±2 bins, by count), thin bins left out. */
interface Curve {
  readonly count: number;
  readonly t: Float64Array;
  readonly rgb: Float64Array;
  readonly lab: Float64Array;
}

function smoothedCurve(bins: Bins, filled: readonly number[], minCount: number): Curve {
  const kept = filled.filter((b) => bins.n[b]! >= minCount);
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
function splitCurve(curve: Curve): number[] {
  const kept = [0, curve.count - 1];
  const lab = new Float64Array(3);
  const worstOf = (i: number, j: number): { at: number; de: number } => {
    let at = -1;
    let de = 0;
    for (let k = i + 1; k < j; k++) {
      const f = (curve.t[k]! - curve.t[i]!) / (curve.t[j]! - curve.t[i]!);
      rgbToLab(
        curve.rgb[i * 3]! + (curve.rgb[j * 3]! - curve.rgb[i * 3]!) * f,
        curve.rgb[i * 3 + 1]! + (curve.rgb[j * 3 + 1]! - curve.rgb[i * 3 + 1]!) * f,
        curve.rgb[i * 3 + 2]! + (curve.rgb[j * 3 + 2]! - curve.rgb[i * 3 + 2]!) * f,
        lab,
        0,
      );
      const d = hypot3(lab[0]! - curve.lab[k * 3]!, lab[1]! - curve.lab[k * 3 + 1]!, lab[2]! - curve.lab[k * 3 + 2]!);
      if (d > de) {
        de = d;
        at = k;
      }
    }
    return { at, de };
  };
  while (kept.length < MAX_STOPS) {
    let bestAt = -1;
    let bestDe = STOP_TOLERANCE_DE;
    for (let s = 0; s + 1 < kept.length; s++) {
      const w = worstOf(kept[s]!, kept[s + 1]!);
      if (w.de > bestDe) {
        bestDe = w.de;
        bestAt = w.at;
      }
    }
    if (bestAt < 0) break;
    kept.push(bestAt);
    kept.sort((p, q) => p - q);
  }
  return kept;
}

/**
 * Stop colours at fixed positions that minimise the count-weighted squared distance between the
 * piecewise-linear ramp and the bin means: a tridiagonal system of hat-function overlaps, one
 * right-hand side per channel (Thomas algorithm).
 */
function leastSquaresStops(bins: Bins, means: Float64Array, filled: readonly number[], positions: readonly number[]): Float64Array {
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
  const stops = new Float64Array(k * 4);
  for (let i = 0; i < k; i++) stops[i * 4] = positions[i]!;
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
    stops[(k - 1) * 4 + 1 + c] = next;
    for (let i = k - 2; i >= 0; i--) {
      next = dp[i]! - cp[i]! * next;
      stops[i * 4 + 1 + c] = next;
    }
  }
  return stops;
}

/**
 * The fitted ramp as a Gradient of the types (offsets 0–1, opaque colours rounded to bytes):
 * a linear axis through (originX, originY) — any point on it — from tMin to tMax; a radial one
 * around the centre out to tMax, with a first stop repeated at offset 0 when the ramp starts
 * beyond the centre.
 */
export function toGradient(ramp: FittedRamp, originX: number, originY: number): Gradient {
  const g = ramp.geometry;
  const count = ramp.stops.length / 4;
  const stops: GradientStop[] = [];
  const stopAt = (k: number, offset: number): GradientStop => ({
    offset,
    color: { r: byte(ramp.stops[k * 4 + 1]!), g: byte(ramp.stops[k * 4 + 2]!), b: byte(ramp.stops[k * 4 + 3]!), a: 255 },
  });
  if (g.kind === 'linear') {
    const t0 = ramp.stops[0]!;
    const t1 = ramp.stops[(count - 1) * 4]!;
    const tOrigin = g.ux * originX + g.uy * originY;
    for (let k = 0; k < count; k++) stops.push(stopAt(k, round4((ramp.stops[k * 4]! - t0) / (t1 - t0))));
    return {
      kind: 'linear',
      x1: originX + g.ux * (t0 - tOrigin),
      y1: originY + g.uy * (t0 - tOrigin),
      x2: originX + g.ux * (t1 - tOrigin),
      y2: originY + g.uy * (t1 - tOrigin),
      stops,
    };
  }
  const radius = ramp.stops[(count - 1) * 4]!;
  // A first stop within a few per cent of the centre is the centre's colour; further out the
  // centre keeps that colour (a repeated stop at 0).
  const startsAtCentre = ramp.stops[0]! / radius < RADIAL_CENTRE_SHARE;
  if (!startsAtCentre) stops.push(stopAt(0, 0));
  for (let k = 0; k < count; k++) stops.push(stopAt(k, k === 0 && startsAtCentre ? 0 : round4(Math.max(0, ramp.stops[k * 4]!) / radius)));
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
