/**
 * Rectangles, sharp or with rounded corners (processing.parameterizedShapes.quadrilateral.rectangle).
 * In: the loop's samples (all, and the polish's share), its minimum-area box (geometry.ts), its
 * area and direction, and on demand a proof that no 4-gon passes within the budget.
 * Out: the rectangle (centre, rotation of the width side in [0°, 90°), width, height, corner
 * radius; 0 = sharp) with its path and errors, or undefined.
 * Method: the box gives centre, rotation and sides; the area the box holds beyond the shape,
 * (4 − π)·r², gives the corner radius. Levenberg–Marquardt polishes the six on the signed distance
 * to a rounded rectangle. A radius below SHARP_RADIUS is sampling, not rounding: the rectangle is
 * polished again sharp (five parameters), unless the proof says no 4-gon can pass. A square
 * rounded almost all the way is left to the circle.
 */
import { hypot2 } from '../length.js';
import { errors, normalizeDeg, type Box } from './geometry.js';
import { emit, type PathNode, type PrimitiveFit } from './path.js';
import type { ShapePrimitive } from '../types.js';
import { HOPELESS_RMS, polish, type PolishScratch } from './solver.js';

/** Fitted corner radii below this (px) are sampling (crack samples cut corners), not rounding. */
const SHARP_RADIUS = 1.5;

/**
 * `beyondQuads` proves that no 4-gon comes within the budget of every sample: then a sharp
 * rectangle (a 4-gon) would be rejected, and is not polished.
 */
export function fitRectangle(scratch: PolishScratch, p: Float64Array, q: Float64Array, box: Box | undefined, area: number, clockwise: boolean, beyondQuads: () => boolean): PrimitiveFit | undefined {
  if (!box) return undefined;
  const [cx, cy, angle, w, h] = box;
  // The area a rounded rectangle misses at its four corners is (4 − π)·r².
  const r0 = Math.min(Math.min(w, h) / 2, Math.sqrt(Math.max(0, w * h - area) / (4 - Math.PI)));
  let v = polish(scratch, q, Float64Array.of(cx, cy, angle, w / 2, h / 2, r0), roundedRectDistances, ROUNDED_STEPS, HOPELESS_RMS);
  if (clampRadius(v) < SHARP_RADIUS) {
    if (beyondQuads()) return undefined;
    const s = polish(scratch, q, v.subarray(0, 5).slice(), sharpRectDistances, SHARP_STEPS);
    v = Float64Array.of(s[0]!, s[1]!, s[2]!, s[3]!, s[4]!, 0);
  }
  const rect = normalizedRectangle(v);
  // A square rounded all the way is a circle: that is the circle switch's business.
  if (rect.r > 0.45 * Math.min(rect.a, rect.b) && Math.max(rect.a, rect.b) / Math.min(rect.a, rect.b) < 1.1) return undefined;
  // v's own radius and half sides: roundedRectDistances takes the same absolute values and clamp.
  const [meanError, maxError] = errors(scratch, p, roundedRectDistances, v);
  return { ...emit(rect.path, clockwise), primitive: rect.primitive, meanError, maxError };
}

/** A polished parameter vector as the primitive: rotation of the width side in [0°, 90°), its path. */
interface NormalizedRectangle {
  readonly primitive: ShapePrimitive & { family: 'rectangle' };
  /** Half sides and corner radius (px) along the primitive's rotation. */
  readonly a: number;
  readonly b: number;
  readonly r: number;
  readonly path: PathNode[];
}

function normalizedRectangle(v: Float64Array): NormalizedRectangle {
  const r = clampRadius(v);
  let a = Math.abs(v[3]!);
  let b = Math.abs(v[4]!);
  const rcx = v[0]!;
  const rcy = v[1]!;
  // Rotation of the width side in [0, 90): quarter turns swap the sides.
  let deg = normalizeDeg((v[2]! * 180) / Math.PI, 360);
  while (deg >= 90) {
    deg -= 90;
    [a, b] = [b, a];
  }
  const theta = (deg * Math.PI) / 180;
  const path = roundedRectPath(rcx, rcy, theta, a, b, r);
  return { primitive: { family: 'rectangle', cx: rcx, cy: rcy, rotationDeg: deg, width: 2 * a, height: 2 * b, cornerRadius: r }, a, b, r, path };
}

/** A rectangle fitted to part of its outline (an occluded shape's visible outline). */
export interface OutlineRectangle {
  readonly primitive: ShapePrimitive & { family: 'rectangle' };
  readonly path: PathNode[];
  /** Largest distance (px) from a sample to the rectangle. */
  readonly maxError: number;
  /** Signed distance (px; negative inside) from (x, y) to the rectangle. */
  distance(x: number, y: number): number;
}

/**
 * The rounded (or sharp) rectangle through samples of part of an outline: polished from `box`
 * (the samples' minimum-area box: where a side is hidden only in part, its visible pieces still
 * reach the box) with a small corner radius to start, as fitRectangle polishes a whole loop.
 */
export function fitRectangleToOutline(scratch: PolishScratch, p: Float64Array, box: Box): OutlineRectangle | undefined {
  const [cx, cy, angle, w, h] = box;
  let v = polish(scratch, p, Float64Array.of(cx, cy, angle, w / 2, h / 2, Math.min(w, h) / 8), roundedRectDistances, ROUNDED_STEPS, HOPELESS_RMS);
  if (clampRadius(v) < SHARP_RADIUS) {
    const s = polish(scratch, p, v.subarray(0, 5).slice(), sharpRectDistances, SHARP_STEPS);
    v = Float64Array.of(s[0]!, s[1]!, s[2]!, s[3]!, s[4]!, 0);
  }
  const rect = normalizedRectangle(v);
  if (!(Math.min(rect.a, rect.b) > 0)) return undefined;
  const [, maxError] = errors(scratch, p, roundedRectDistances, v);
  const { cx: rcx, cy: rcy, rotationDeg } = rect.primitive;
  const cos = Math.cos((rotationDeg * Math.PI) / 180);
  const sin = Math.sin((rotationDeg * Math.PI) / 180);
  return { primitive: rect.primitive, path: rect.path, maxError, distance: (x, y) => rectDistance(rcx, rcy, cos, sin, rect.a, rect.b, rect.r, x, y) };
}

/** The corner radius parameter, kept within [0, half the shorter side]. */
function clampRadius(v: Float64Array): number {
  return Math.max(0, Math.min(Math.abs(v[5]!), Math.abs(v[3]!), Math.abs(v[4]!)));
}

/** Finite-difference steps of the polish: centre, rotation (radians), half sides, corner radius. */
const ROUNDED_STEPS = [1e-4, 1e-4, 1e-6, 1e-4, 1e-4, 1e-4];
const SHARP_STEPS = [1e-4, 1e-4, 1e-6, 1e-4, 1e-4];

/** The rounded rectangle's model (solver.ts): v = centre x, y, rotation, half sides a, b, corner radius. */
function roundedRectDistances(v: Float64Array, p: Float64Array, out: Float64Array): void {
  rectDistances(v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, v[5]!, p, out);
}

/** The sharp rectangle's model: v = centre x, y, rotation, half sides a, b. */
function sharpRectDistances(v: Float64Array, p: Float64Array, out: Float64Array): void {
  rectDistances(v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, 0, p, out);
}

/**
 * Signed distance (negative inside) of every sample p (x, y pairs) to a rectangle with half sides
 * a, b and corner radius r, written to out.
 */
function rectDistances(cx: number, cy: number, angle: number, a: number, b: number, r: number, p: Float64Array, out: Float64Array): void {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  a = Math.abs(a);
  b = Math.abs(b);
  r = Math.max(0, Math.min(Math.abs(r), a, b));
  const n = p.length / 2;
  for (let i = 0; i < n; i++) out[i] = rectDistance(cx, cy, cos, sin, a, b, r, p[i * 2]!, p[i * 2 + 1]!);
}

/** Signed distance (negative inside) of (x, y) to the rectangle of half sides a, b, corner radius r (r ≤ a, b). */
function rectDistance(cx: number, cy: number, cos: number, sin: number, a: number, b: number, r: number, x: number, y: number): number {
  const dx = x - cx;
  const dy = y - cy;
  const qx = Math.abs(dx * cos + dy * sin) - (a - r);
  const qy = Math.abs(-dx * sin + dy * cos) - (b - r);
  return hypot2(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** Closed path, clockwise on screen, starting after the top-right corner's arc. */
function roundedRectPath(cx: number, cy: number, angle: number, a: number, b: number, r: number): PathNode[] {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const at = (u: number, v: number, arc: number): PathNode => ({ x: cx + u * cos - v * sin, y: cy + u * sin + v * cos, arc });
  // Each node is reached from the previous one by a line (arc = 0) or a corner arc (arc = r).
  const local: [number, number, number][] = [
    [a, b - r, 0],
    [a - r, b, r],
    [-a + r, b, 0],
    [-a, b - r, r],
    [-a, -b + r, 0],
    [-a + r, -b, r],
    [a - r, -b, 0],
    [a, -b + r, r],
  ];
  return local.map(([u, v, arc]) => at(u, v, arc));
}
