/**
 * Pixel samples of one smoothly shaded area and the geometries a gradient's t can have.
 * In: sample pixels (centre x, y in traced pixels; r, g, b; colour slopes for the geometry
 * search). Out: sample sets (empty, thinned, joined), their bounding box, and t(x, y) of a
 * geometry: the position along a linear axis, the distance from a radial centre, or the elliptical
 * distance from an ellipse's centre measured along its first axis.
 */
import { hypot2 } from '../length.js';

/** Bins of t per fit, at most (a ramp longer than this many px gets wider bins). */
export const MAX_BINS = 1024;

/** Numbers per bin of the geometry search's in-bin sums (RampContext.inBins): count, Σr, Σg, Σb. */
export const IN_BIN_STRIDE = 4;

/** Stops of one ramp at most. */
export const MAX_STOPS = 12;

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

/**
 * The ramp fits' and geometry searches' scratch and caches for one trace: shading.ts makes one per
 * findSmoothAreas and passes it to every ramp fit (ramp-fit.ts) and search (ramp-geometry.ts). The
 * caches hold values derived from a sample set, keyed by the set (a set is not changed once made,
 * and the same set is measured again and again by the searches); the buffers grow and stay, since
 * per-fit arrays were most of the stage's garbage.
 */
export class RampContext {
  /** The last thinning of each sample set (thinned). */
  readonly thinnings = new WeakMap<RampSamples, { readonly limit: number; readonly out: RampSamples }>();
  /** Each sample set's bounding box (boundsOf). */
  readonly bounds = new WeakMap<RampSamples, Bounds>();
  /** Σ|c|² of each sample set (ramp-geometry.ts: the in-bin variance no geometry changes). */
  readonly sumSquares = new WeakMap<RampSamples, number>();
  /** ramp-geometry.ts: recent in-bin evaluations, a ring of RECENT_IN_BIN_SIZE, next written at recentNext. */
  readonly recentInBin: { readonly samples: RampSamples; readonly geometry: RampGeometry; readonly value: number }[] = [];
  recentNext = 0;
  /**
   * ramp-geometry.ts: the in-bin variance's bins (the search's inner loop: a few hundred calls per
   * picture), IN_BIN_STRIDE numbers per bin: count, Σr, Σg, Σb (a bin's four numbers side by side,
   * where a sample adds to them).
   */
  readonly inBins = new Float64Array((MAX_BINS + 1) * IN_BIN_STRIDE);
  /** ramp-fit.ts: the last ramp fitted (its own copy of the stops) and its samples. */
  lastRamp: { readonly samples: RampSamples; readonly ramp: LastRamp } | undefined = undefined;
  /** ramp-fit.ts: t per sample (computeT), grown as needed, and the t range it found. */
  t = new Float64Array(1024);
  tMin = 0;
  tMax = 0;
  /**
   * ramp-fit.ts: per-bin counts and Σr, Σg, Σb of one binning (at most MAX_BINS + 1 bins: the
   * width is at least the range over MAX_BINS), overwritten by the next; the bins that hold
   * samples, the ones the smoothed curve keeps, and the bins' mean colours.
   */
  readonly binCounts = new Float64Array(MAX_BINS + 1);
  readonly binSums = new Float64Array((MAX_BINS + 1) * 3);
  readonly filledBins = new Int32Array(MAX_BINS + 1);
  readonly keptBins = new Int32Array(MAX_BINS + 1);
  readonly binMeans = new Float64Array((MAX_BINS + 1) * 3);
  /** ramp-fit.ts: splitCurve's stretches (at most MAX_STOPS − 1), the worst point of each and its ΔE76. */
  readonly stretchAt = new Int32Array(MAX_STOPS);
  readonly stretchDe = new Float64Array(MAX_STOPS);
  /** ramp-fit.ts: one colour (Lab of a blend, a ramp's colour at a sample). */
  readonly colour = new Float64Array(3);
}

/**
 * The fields of a fitted ramp the ramp context keeps (ramp-fit.ts's FittedRamp); meanError is
 * undefined until measured (a first guess's stops are fitted without it).
 */
export interface LastRamp {
  readonly geometry: RampGeometry;
  readonly tMin: number;
  readonly tMax: number;
  readonly stops: Float64Array;
  readonly meanError: number | undefined;
}

/** True when two geometries are of one kind with bit-identical numbers (the same t everywhere). */
export function sameGeometry(a: RampGeometry, b: RampGeometry): boolean {
  if (a.kind === 'linear') return b.kind === 'linear' && Object.is(a.ux, b.ux) && Object.is(a.uy, b.uy);
  if (a.kind === 'radial') return b.kind === 'radial' && Object.is(a.cx, b.cx) && Object.is(a.cy, b.cy);
  return b.kind === 'ellipse' && Object.is(a.cx, b.cx) && Object.is(a.cy, b.cy) && Object.is(a.ux, b.ux) && Object.is(a.uy, b.uy) && Object.is(a.ratio, b.ratio);
}

/** Every k-th sample, so that at most `limit` remain (the samples themselves when fewer). */
export function thinned(context: RampContext, s: RampSamples, limit: number): RampSamples {
  if (s.count <= limit) return s;
  // The same set is thinned again for every ramp fitted to it (samples are not changed once made).
  const known = context.thinnings.get(s);
  if (known && known.limit === limit) return known.out;
  const out = thinnedCopy(s, limit);
  context.thinnings.set(s, { limit, out });
  return out;
}

function thinnedCopy(s: RampSamples, limit: number): RampSamples {
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

export interface Bounds {
  readonly minX: number;
  readonly maxX: number;
  readonly minY: number;
  readonly maxY: number;
}

export function sampleBounds(s: RampSamples): Bounds {
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

/** The samples' bounding box, computed once per sample set. */
export function boundsOf(context: RampContext, s: RampSamples): Bounds {
  let b = context.bounds.get(s);
  if (!b) context.bounds.set(s, (b = sampleBounds(s)));
  return b;
}

/**
 * t of the point (x, y) for a geometry (px along the axis, or from the centre along the first axis).
 * computeT (ramp-fit.ts) repeats these operations in a loop per kind: change both together.
 */
export function geometryT(g: RampGeometry, x: number, y: number): number {
  if (g.kind === 'linear') return linearT(g.ux, g.uy, x, y);
  if (g.kind === 'radial') return radialT(g.cx, g.cy, x, y);
  return ellipseT(g.cx, g.cy, g.ux, g.uy, g.ratio, x, y);
}

// t(x, y) of each kind, written once: geometryT, the packed geometries (packedT) and the ramp
// fit's loop over samples (ramp-fit.ts computeT) all call these. Plain numbers in and out (V8
// inlines them; an object read per sample was a new heap number per read).

/** Position (px) along the unit axis (ux, uy). */
export function linearT(ux: number, uy: number, x: number, y: number): number {
  return ux * x + uy * y;
}

/** Distance (px) from the centre (cx, cy). */
export function radialT(cx: number, cy: number, x: number, y: number): number {
  return hypot2(x - cx, y - cy);
}

/** Elliptical distance (px along the first axis (ux, uy)) from the centre (cx, cy); ratio = second axis / first. */
export function ellipseT(cx: number, cy: number, ux: number, uy: number, ratio: number, x: number, y: number): number {
  const dx = x - cx;
  const dy = y - cy;
  const u = ux * dx + uy * dy;
  const v = (ux * dy - uy * dx) / ratio;
  return Math.sqrt(u * u + v * v);
}

/**
 * Geometries packed in a Float64Array (shaded-regions.ts keeps one per area for the sub-pixel
 * edges), GEOMETRY_STRIDE numbers each: the kind's code, then its numbers in RampGeometry's order:
 *   linear:  LINEAR,  ux, uy
 *   radial:  RADIAL,  cx, cy
 *   ellipse: ELLIPSE, cx, cy, ux, uy, ratio
 * Unused slots hold 0.
 */
export const GEOMETRY_STRIDE = 6;
export const GEOMETRY_LINEAR = 0;
export const GEOMETRY_RADIAL = 1;
export const GEOMETRY_ELLIPSE = 2;

/** Writes g packed at out[offset …]. */
export function packGeometry(g: RampGeometry, out: Float64Array, offset: number): void {
  if (g.kind === 'linear') out.set([GEOMETRY_LINEAR, g.ux, g.uy], offset);
  else if (g.kind === 'radial') out.set([GEOMETRY_RADIAL, g.cx, g.cy], offset);
  else out.set([GEOMETRY_ELLIPSE, g.cx, g.cy, g.ux, g.uy, g.ratio], offset);
}

/** t of (x, y) for the geometry packed at packed[offset …]. */
export function packedT(packed: Float64Array, offset: number, x: number, y: number): number {
  const kind = packed[offset]!;
  if (kind === GEOMETRY_LINEAR) return linearT(packed[offset + 1]!, packed[offset + 2]!, x, y);
  if (kind === GEOMETRY_RADIAL) return radialT(packed[offset + 1]!, packed[offset + 2]!, x, y);
  return ellipseT(packed[offset + 1]!, packed[offset + 2]!, packed[offset + 3]!, packed[offset + 4]!, packed[offset + 5]!, x, y);
}

/**
 * A ramp's stops packed in a Float64Array, STOP_STRIDE numbers each: t (px), then r, g, b (sRGB
 * floats), t increasing. Read through these accessors (k counts stops from 0).
 */
export const STOP_STRIDE = 4;

export function stopCount(stops: Float64Array): number {
  return stops.length / STOP_STRIDE;
}
export function stopT(stops: Float64Array, k: number): number {
  return stops[k * STOP_STRIDE]!;
}
/** Channel c (0 red, 1 green, 2 blue) of stop k. */
export function stopChannel(stops: Float64Array, k: number, c: number): number {
  return stops[k * STOP_STRIDE + 1 + c]!;
}
/** t of the last stop. */
export function lastStopT(stops: Float64Array): number {
  return stops[stops.length - STOP_STRIDE]!;
}
