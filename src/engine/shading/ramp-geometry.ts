/**
 * Finds the geometry of one gradient: a linear axis, a radial centre or an ellipse.
 * In: a regular subset of an area's pixels with their colour slopes (ramp-samples.ts). Out: the
 * geometry whose t leaves the least colour variance within 1-px bins of t — whatever the ramp's
 * shape (two stops or ten, monotone or not) — or undefined when no first guess comes near (texture).
 *
 * First guesses in closed form: the axis is the structure tensor's main direction of the slopes;
 * the centre is where the slope lines meet (iteratively reweighted least squares); an ellipse's
 * quadratic form A comes from slope × A(p − c) = 0 (a 3 × 3 null vector, alternating with the
 * centre). Each is refined by a 1-D or compass search of the in-bin variance: successive parabolas
 * over the angle, a compass over the centre, and over centre, axis angle and axis ratio for the
 * ellipse. Cf. the gradient-region fits of Kansal & Kumar (2014) and Photo2ClipArt (Favreau et
 * al. 2017), done here with closed forms and small searches.
 */
import { hypot2 } from '../length.js';
import { boundsOf, geometryT, IN_BIN_STRIDE, MAX_BINS, sameGeometry, type Bounds, type RampContext, type RampGeometry, type RampSamples } from './ramp-samples.js';

/** A radial fit must leave at most this share of the linear fit's in-bin variance to be chosen. */
const RADIAL_ADVANTAGE = 0.8;

/** How far (rad) the angle search looks either side of the structure tensor's direction. */
const ANGLE_SEARCH_RAD = 0.12;

/** A search step that gains less than this share of the in-bin variance is no progress. */
const FLAT_GAIN = 0.002;
/** Searches stop once a step moves the gradient by less than this (px) over the area. */
const PRECISION_PX = 0.1;
/** In-bin evaluations the centre search may spend. */
const CENTRE_STEPS = 40;

/** A centre further than this many area extents away is a linear ramp in disguise. */
const MAX_CENTRE_DISTANCE = 6;

/**
 * The best linear or radial ramp for the samples, or undefined when there are too few samples
 * or no direction to speak of.
 */

/** First guesses within this many times the gate may still be an ellipse the other two miss. */
const NEAR_MISS = 4;

/** A centre is searched only when its first guess leaves less than this many times the linear fit's variance. */
const RADIAL_PROMISE = 1.5;

/** In-bin RMS (sRGB units) under which a linear fit is not worth trying a centre against. */
const LINEAR_IS_EXACT = 0.8;

/** Samples the geometry search looks at, at most. */
export const SEARCH_SAMPLES = 1500;

/**
 * The linear, radial or elliptical geometry that leaves the least colour variance along its t,
 * searched on `search` (a regular subset with slopes: a thousand pixels or two pin an axis or a
 * centre well), or undefined when there are too few samples or no direction to speak of.
 * @param gate when given, an RMS error (sRGB units) that the first guesses must already reach
 * (within the searches' reach), else the samples are not a ramp and no search is made.
 * @param accept when given, asked about the best first guess: false ends the search (undefined).
 */
export function findGeometry(context: RampContext, search: RampSamples, gate?: number, accept?: (first: RampGeometry) => boolean): RampGeometry | undefined {
  if (search.count < 8) return undefined;
  const bounds = boundsOf(context, search);
  const extent = Math.max(bounds.maxX - bounds.minX, bounds.maxY - bounds.minY, 1);
  const tensor = slopeTensor(search);
  if (!tensor) return undefined;
  const centre = tensor.centre && hypot2(tensor.centre[0] - (bounds.minX + bounds.maxX) / 2, tensor.centre[1] - (bounds.minY + bounds.maxY) / 2) < MAX_CENTRE_DISTANCE * extent ? tensor.centre : undefined;
  // First guesses: the tensor's axis, the slope lines' meeting point and (when those two are
  // near misses, or a centre is worth searching) the slopes' ellipse.
  const linearFirst = inBinError(context, search, linearAt(tensor.angle));
  const roundFirst = centre ? inBinError(context, search, { kind: 'radial', cx: centre[0], cy: centre[1] }) : Infinity;
  let oval: Oval | null | undefined;
  let ovalFirst = Infinity;
  const guessOval = (): void => {
    if (oval !== undefined || !centre) return;
    oval = initialEllipse(search, centre[0], centre[1]) ?? null;
    if (oval) ovalFirst = inBinError(context, search, ellipseAt(oval.cx, oval.cy, oval.angle, oval.ratio));
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
  // The caller may turn down the best first guess before any search (a ramp with an edge in it).
  if (accept) {
    const firstGeometry =
      ovalFirst < Math.min(linearFirst, roundFirst) && oval
        ? ellipseAt(oval.cx, oval.cy, oval.angle, oval.ratio)
        : roundFirst < linearFirst && centre
          ? ({ kind: 'radial', cx: centre[0], cy: centre[1] } as const)
          : linearAt(tensor.angle);
    if (!accept(firstGeometry)) return undefined;
  }
  const linear = bestLinear(context, search, tensor.angle, extent);
  let best: { geometry: RampGeometry; sse: number } = linear;
  // A linear fit within the 8-bit steps of a render leaves nothing for a centre to explain; a
  // centre whose first guess is far behind the linear fit is not searched either.
  const curved = centre !== undefined && Math.sqrt(linear.sse / search.count) > LINEAR_IS_EXACT;
  if (curved) guessOval();
  const promising = curved && Math.min(roundFirst, ovalFirst) < RADIAL_PROMISE * linear.sse;
  if (centre && promising) {
    const radial = bestRadial(context, search, centre, extent);
    const g = radial.geometry as Extract<RampGeometry, { kind: 'radial' }>;
    const near = hypot2(g.cx - (bounds.minX + bounds.maxX) / 2, g.cy - (bounds.minY + bounds.maxY) / 2) < MAX_CENTRE_DISTANCE * extent;
    if (near && radial.sse < RADIAL_ADVANTAGE * linear.sse) best = radial;
    // Ellipses (a radial gradient squeezed or stretched, as drawing programs make them with a
    // gradient transform): from the slopes' quadratic form, refined when its first guess already
    // beats the circle's.
    if (near && oval && ovalFirst < RADIAL_ADVANTAGE * roundFirst) {
      const ellipse = bestEllipse(context, search, oval, extent);
      if (ellipse && ellipse.sse < RADIAL_ADVANTAGE * best.sse) best = ellipse;
    }
  }
  return best.geometry;
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

/** Σ|c|² of a sample set (the part of the in-bin variance no geometry changes), computed once. */
function sumOfSquares(context: RampContext, s: RampSamples): number {
  let v = context.sumSquares.get(s);
  if (v === undefined) {
    v = 0;
    for (let i = 0; i < s.count * 3; i++) v += s.rgb[i]! * s.rgb[i]!;
    context.sumSquares.set(s, v);
  }
  return v;
}

/**
 * Colour variance left inside 1-px bins of t (sum of squares, sRGB units²): Σ|c|² − Σ over bins
 * of |Σc|²/n. The t range comes from the samples' bounding box (no first pass to find it); this
 * is the search's inner loop, a few hundred times per picture.
 */
export function inBinError(context: RampContext, s: RampSamples, g: RampGeometry): number {
  // The searches come back to points already evaluated (the first guesses are each search's
  // start; a compass step back; a parabola's end): the same samples and bit-identical geometry
  // give the same error, so a few recent evaluations are kept.
  for (const recent of context.recentInBin) if (recent.samples === s && sameGeometry(recent.geometry, g)) return recent.value;
  const value = computeInBinError(context, s, g);
  context.recentInBin[context.recentNext] = { samples: s, geometry: g, value };
  context.recentNext = (context.recentNext + 1) % RECENT_IN_BIN_SIZE;
  return value;
}

/** Recent in-bin evaluations kept (a ring in the context). */
const RECENT_IN_BIN_SIZE = 8;

function computeInBinError(context: RampContext, s: RampSamples, g: RampGeometry): number {
  const { tMin, tMax } = tRangeOverBox(g, boundsOf(context, s));
  const width = Math.max(1, (tMax - tMin) / MAX_BINS);
  const perWidth = 1 / width;
  const count = Math.floor((tMax - tMin) * perWidth) + 1;
  const bins = context.inBins.fill(0, 0, count * IN_BIN_STRIDE);
  binSamples(s, g, tMin, perWidth, count, bins);
  return sumOfSquares(context, s) - explainedByBins(bins, count);
}

/** Bounds of t over a box of samples (for a radial t: its nearest and farthest points). */
function tRangeOverBox(g: RampGeometry, b: Bounds): { tMin: number; tMax: number } {
  if (g.kind === 'linear') {
    const tx0 = g.ux * b.minX;
    const tx1 = g.ux * b.maxX;
    const ty0 = g.uy * b.minY;
    const ty1 = g.uy * b.maxY;
    return { tMin: Math.min(tx0, tx1) + Math.min(ty0, ty1), tMax: Math.max(tx0, tx1) + Math.max(ty0, ty1) };
  }
  if (g.kind === 'radial') {
    const dx = Math.max(Math.abs(b.minX - g.cx), Math.abs(b.maxX - g.cx));
    const dy = Math.max(Math.abs(b.minY - g.cy), Math.abs(b.maxY - g.cy));
    const nx = g.cx < b.minX ? b.minX - g.cx : g.cx > b.maxX ? g.cx - b.maxX : 0;
    const ny = g.cy < b.minY ? b.minY - g.cy : g.cy > b.maxY ? g.cy - b.maxY : 0;
    return { tMin: Math.sqrt(nx * nx + ny * ny), tMax: Math.sqrt(dx * dx + dy * dy) };
  }
  // t is convex: its largest value over the box is at a corner; 0 bounds it below.
  return { tMin: 0, tMax: Math.max(geometryT(g, b.minX, b.minY), geometryT(g, b.maxX, b.minY), geometryT(g, b.minX, b.maxY), geometryT(g, b.maxX, b.maxY)) };
}

/**
 * Each sample counted into its bin of t (bins of 1 / perWidth from tMin, the last open-ended):
 * count and colour sums per bin, IN_BIN_STRIDE numbers each (the sums are of whole numbers, so
 * exact in any order). A t a rounding below tMin gives bin −1, whose writes fall outside the array
 * and are dropped: the sample is left out. Written out per kind: this loop is the searches' cost.
 */
function binSamples(s: RampSamples, g: RampGeometry, tMin: number, perWidth: number, count: number, bins: Float64Array): void {
  const { x, y, rgb } = s;
  const last = count - 1;
  if (g.kind === 'linear') {
    const { ux, uy } = g;
    for (let i = 0; i < s.count; i++) {
      const o = Math.min(last, Math.floor((ux * x[i]! + uy * y[i]! - tMin) * perWidth)) * IN_BIN_STRIDE;
      bins[o]!++;
      bins[o + 1]! += rgb[i * 3]!;
      bins[o + 2]! += rgb[i * 3 + 1]!;
      bins[o + 3]! += rgb[i * 3 + 2]!;
    }
  } else if (g.kind === 'radial') {
    const { cx, cy } = g;
    for (let i = 0; i < s.count; i++) {
      const dx = x[i]! - cx;
      const dy = y[i]! - cy;
      const o = Math.min(last, Math.floor((Math.sqrt(dx * dx + dy * dy) - tMin) * perWidth)) * IN_BIN_STRIDE;
      bins[o]!++;
      bins[o + 1]! += rgb[i * 3]!;
      bins[o + 2]! += rgb[i * 3 + 1]!;
      bins[o + 3]! += rgb[i * 3 + 2]!;
    }
  } else {
    const { cx, cy, ux, uy } = g;
    const perRatio = 1 / g.ratio;
    for (let i = 0; i < s.count; i++) {
      const dx = x[i]! - cx;
      const dy = y[i]! - cy;
      const u = ux * dx + uy * dy;
      const v = (ux * dy - uy * dx) * perRatio;
      const o = Math.min(last, Math.floor((Math.sqrt(u * u + v * v) - tMin) * perWidth)) * IN_BIN_STRIDE;
      bins[o]!++;
      bins[o + 1]! += rgb[i * 3]!;
      bins[o + 2]! += rgb[i * 3 + 1]!;
      bins[o + 3]! += rgb[i * 3 + 2]!;
    }
  }
}

/** Σ over bins of |colour sum|² / count: the squared colour the bins' means explain. */
function explainedByBins(bins: Float64Array, count: number): number {
  let explained = 0;
  for (let k = 0; k < count; k++) {
    const o = k * IN_BIN_STRIDE;
    const nk = bins[o]!;
    if (nk === 0) continue;
    const r = bins[o + 1]!;
    const gg = bins[o + 2]!;
    const bb = bins[o + 3]!;
    explained += (r * r + gg * gg + bb * bb) / nk;
  }
  return explained;
}

function linearAt(angle: number): RampGeometry {
  return { kind: 'linear', ux: Math.cos(angle), uy: Math.sin(angle) };
}

/**
 * The axis angle near `start` (the structure tensor's, already close): successive parabolas
 * through three angles, the bracket narrowing around the best, from ANGLE_SEARCH_RAD down to
 * ~0.001 rad (0.06°).
 */
function bestLinear(context: RampContext, s: RampSamples, start: number, extent: number): { geometry: RampGeometry; sse: number } {
  let centre = start;
  let fc = inBinError(context, s, linearAt(centre));
  let step = ANGLE_SEARCH_RAD;
  // Fine enough when the axis's ends move by a tenth of a pixel at most.
  const finest = Math.max(0.001, PRECISION_PX / extent);
  for (let round = 0; step > finest && round < 24; round++) {
    const fl = inBinError(context, s, linearAt(centre - step));
    const fr = inBinError(context, s, linearAt(centre + step));
    // Vertex of the parabola through the three; kept within the bracket.
    const curvature = fl + fr - 2 * fc;
    let next = centre;
    let fn = fc;
    if (fl < fc || fr < fc) [next, fn] = fl < fr ? [centre - step, fl] : [centre + step, fr];
    if (curvature > 0) {
      const vertex = centre + (step * (fl - fr)) / (2 * curvature);
      if (Math.abs(vertex - centre) < step) {
        const fv = inBinError(context, s, linearAt(vertex));
        if (fv < fn) [next, fn] = [vertex, fv];
      }
    }
    // Moved to an end by a real gain: keep the step (the minimum may lie beyond); else narrow
    // around the best (a nearly flat field — a faint ramp — would walk on for nothing).
    const atEnd = (next === centre - step || next === centre + step) && fn < fc * (1 - FLAT_GAIN);
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
function bestRadial(context: RampContext, s: RampSamples, start: readonly [number, number], extent: number): { geometry: RampGeometry; sse: number } {
  let cx = start[0];
  let cy = start[1];
  let best = inBinError(context, s, { kind: 'radial', cx, cy });
  let step = Math.max(0.4, extent / 50);
  let evaluations = 0;
  while (step >= Math.max(PRECISION_PX, extent / 1000) && evaluations < CENTRE_STEPS) {
    let moved = false;
    for (let d = 0; d < 4; d++) {
      const x = cx + (d === 0 ? step : d === 1 ? -step : 0);
      const y = cy + (d === 2 ? step : d === 3 ? -step : 0);
      const f = inBinError(context, s, { kind: 'radial', cx: x, cy: y });
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

function bestEllipse(context: RampContext, s: RampSamples, first: Oval, extent: number): { geometry: RampGeometry; sse: number } | undefined {
  const refined = refineEllipse(context, s, first.cx, first.cy, first.angle, first.ratio, extent);
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
function refineEllipse(context: RampContext, s: RampSamples, cx0: number, cy0: number, angle0: number, ratio0: number, extent: number): { cx: number; cy: number; angle: number; ratio: number; sse: number } {
  const p = [cx0, cy0, angle0, Math.log(ratio0)];
  const steps = [Math.max(0.4, extent / 50), Math.max(0.4, extent / 50), 0.05, 0.05];
  const floor = [Math.max(PRECISION_PX, extent / 1000), Math.max(PRECISION_PX, extent / 1000), Math.max(0.004, PRECISION_PX / extent), 0.004];
  const at = (q: readonly number[]): number => inBinError(context, s, ellipseAt(q[0]!, q[1]!, q[2]!, Math.min(1, Math.exp(q[3]!))));
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
