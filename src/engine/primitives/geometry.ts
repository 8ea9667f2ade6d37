/**
 * Geometry of a loop's samples (x, y pairs), shared by the router and the families.
 * In: samples or a convex hull as flat Float64Arrays. Out: areas and centroids (shoelace), the
 * convex hull (Andrew's monotone chain), the minimum-area enclosing box (rotating calipers), the
 * hull's farthest-point triangle, a thinned copy of the samples for the polish, the signed
 * distance to a polygon and the mean and largest distance of the samples to any model.
 * Screen coordinates throughout: y grows downwards, so a positive shoelace area is clockwise on
 * screen.
 */
import { hypot2 } from '../length.js';
import { sortIndices } from '../order.js';
import type { Distances, PolishScratch } from './solver.js';

/**
 * Signed distance (negative inside, even-odd) of every sample p (x, y pairs) to the closed polygon
 * v (x, y pairs), written to out: the polygon families' model (solver.ts). Each side's numbers
 * (start, end y, direction, squared length) are worked out once per call into the scratch
 * (polygonSides), not once per sample.
 */
export function polygonDistances(v: Float64Array, p: Float64Array, out: Float64Array, scratch: PolishScratch): void {
  const m = v.length / 2;
  const sides = polygonSides(v, scratch);
  const n = p.length / 2;
  for (let s = 0; s < n; s++) {
    const x = p[s * 2]!;
    const y = p[s * 2 + 1]!;
    let best = Infinity;
    let inside = false;
    for (let i = 0; i < m; i++) {
      const o = i * SIDE_STRIDE;
      const ax = sides[o]!;
      const ay = sides[o + 1]!;
      const by = sides[o + 2]!;
      const dx = sides[o + 3]!;
      const dy = sides[o + 4]!;
      const len2 = sides[o + 5]!;
      const t = len2 < 1e-18 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
      const ex = x - ax - t * dx;
      const ey = y - ay - t * dy;
      const d2 = ex * ex + ey * ey;
      if (d2 < best) best = d2;
      if (ay > y !== by > y && x < ax + ((y - ay) * dx) / dy) inside = !inside;
    }
    const d = Math.sqrt(best);
    out[s] = inside ? -d : d;
  }
}

/** Numbers per side in polygonSides' array: start x, y, end y, direction x, y, squared length. */
const SIDE_STRIDE = 6;

/** The sides of polygon v (side i from vertex i − 1, cyclic, to vertex i) in the scratch's array. */
function polygonSides(v: Float64Array, scratch: PolishScratch): Float64Array {
  const m = v.length / 2;
  if (scratch.sides.length < m * SIDE_STRIDE) scratch.sides = new Float64Array(m * SIDE_STRIDE);
  const sides = scratch.sides;
  for (let i = 0, j = m - 1; i < m; j = i++) {
    const ax = v[j * 2]!;
    const ay = v[j * 2 + 1]!;
    const dx = v[i * 2]! - ax;
    const by = v[i * 2 + 1]!;
    const dy = by - ay;
    const o = i * SIDE_STRIDE;
    sides[o] = ax;
    sides[o + 1] = ay;
    sides[o + 2] = by;
    sides[o + 3] = dx;
    sides[o + 4] = dy;
    sides[o + 5] = dx * dx + dy * dy;
  }
  return sides;
}

/** Mean and largest |distance| of all samples p to the model with parameters v (distances in the scratch). */
export function errors(scratch: PolishScratch, p: Float64Array, model: Distances, v: Float64Array): [number, number] {
  const n = p.length / 2;
  if (scratch.distances.length < n) scratch.distances = new Float64Array(Math.max(n, scratch.distances.length * 2));
  const distances = scratch.distances;
  model(v, p, distances, scratch);
  let sum = 0;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(distances[i]!);
    sum += d;
    if (d > worst) worst = d;
  }
  return [sum / n, worst];
}

/** Twice the signed area (shoelace; positive = clockwise on screen, y down). */
export function shoelace(p: Float64Array): number {
  const n = p.length / 2;
  let s = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) s += p[j * 2]! * p[i * 2 + 1]! - p[i * 2]! * p[j * 2 + 1]!;
  return s / 2;
}

export function areaCentroid(p: Float64Array): [number, number] {
  const n = p.length / 2;
  let a = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const cross = p[j * 2]! * p[i * 2 + 1]! - p[i * 2]! * p[j * 2 + 1]!;
    a += cross;
    sx += (p[j * 2]! + p[i * 2]!) * cross;
    sy += (p[j * 2 + 1]! + p[i * 2 + 1]!) * cross;
  }
  return Math.abs(a) < 1e-12 ? [p[0]!, p[1]!] : [sx / (3 * a), sy / (3 * a)];
}

/** Convex hull (Andrew's monotone chain), counter-clockwise in y-up terms, as x, y pairs. */
export function convexHull(p: Float64Array): Float64Array {
  const n = p.length / 2;
  const idx: number[] = [];
  for (let i = 0; i < n; i++) idx.push(i);
  sortIndices(idx, p, beforeByXThenY); // a total order: any correct sort gives this result
  const out: number[] = [];
  for (const i of idx) {
    while (out.length >= 2 && hullCross(p, out[out.length - 2]!, out[out.length - 1]!, i) <= 0) out.pop();
    out.push(i);
  }
  const lower = out.length + 1;
  for (let k = idx.length - 2; k >= 0; k--) {
    const i = idx[k]!;
    while (out.length >= lower && hullCross(p, out[out.length - 2]!, out[out.length - 1]!, i) <= 0) out.pop();
    out.push(i);
  }
  out.pop();
  const hull = new Float64Array(out.length * 2);
  for (let k = 0; k < out.length; k++) {
    hull[k * 2] = p[out[k]! * 2]!;
    hull[k * 2 + 1] = p[out[k]! * 2 + 1]!;
  }
  return hull;
}

/** True when sample a goes before sample b: smaller x, then smaller y, then smaller index. */
function beforeByXThenY(p: Float64Array, a: number, b: number): boolean {
  const dx = p[a * 2]! - p[b * 2]!;
  if (dx < 0) return true;
  if (dx > 0) return false;
  const dy = p[a * 2 + 1]! - p[b * 2 + 1]!;
  if (dy < 0) return true;
  if (dy > 0) return false;
  return a < b;
}

/** Cross product of (a − o) and (b − o) for samples o, a, b. */
function hullCross(p: Float64Array, o: number, a: number, b: number): number {
  return (p[a * 2]! - p[o * 2]!) * (p[b * 2 + 1]! - p[o * 2 + 1]!) - (p[a * 2 + 1]! - p[o * 2 + 1]!) * (p[b * 2]! - p[o * 2]!);
}

/** Every k-th sample so that at most `max` remain. */
export function strided(p: Float64Array, max: number): Float64Array {
  const n = p.length / 2;
  if (n <= max) return p;
  const step = Math.ceil(n / max);
  const out = new Float64Array(Math.ceil(n / step) * 2);
  for (let i = 0, k = 0; i < n; i += step, k++) {
    out[k * 2] = p[i * 2]!;
    out[k * 2 + 1] = p[i * 2 + 1]!;
  }
  return out;
}

export function normalizeDeg(deg: number, period: number): number {
  const d = ((deg % period) + period) % period;
  return d >= period - 1e-9 ? 0 : d;
}

/** Centre x, y, rotation (radians), width and height of a rectangle. */
export type Box = [number, number, number, number, number];

/** Minimum-area enclosing rectangle of a convex polygon (rotating calipers over its edges). */
export function minAreaRect(hull: Float64Array): Box | undefined {
  const h = hull.length / 2;
  let best: Box | undefined;
  let bestArea = Infinity;
  for (let i = 0; i < h; i++) {
    const j = (i + 1) % h;
    const ex = hull[j * 2]! - hull[i * 2]!;
    const ey = hull[j * 2 + 1]! - hull[i * 2 + 1]!;
    const len = hypot2(ex, ey);
    if (len < 1e-9) continue;
    const ux = ex / len;
    const uy = ey / len;
    let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
    for (let k = 0; k < h; k++) {
      const u = hull[k * 2]! * ux + hull[k * 2 + 1]! * uy;
      const v = -hull[k * 2]! * uy + hull[k * 2 + 1]! * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const mu = (minU + maxU) / 2;
      const mv = (minV + maxV) / 2;
      best = [mu * ux - mv * uy, mu * uy + mv * ux, Math.atan2(uy, ux), maxU - minU, maxV - minV];
    }
  }
  return best;
}

/**
 * Indices of three hull points spanning a large triangle: the one farthest from the hull points'
 * centroid, the one farthest from it, and the one farthest from the line through both; undefined
 * when two of them coincide. The triangle's start, and the quadrilateral's first three corners.
 */
export function farthestTriangleIndices(hull: Float64Array): [number, number, number] | undefined {
  const h = hull.length / 2;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < h; i++) {
    mx += hull[i * 2]!;
    my += hull[i * 2 + 1]!;
  }
  mx /= h;
  my /= h;
  const farthest = (score: (x: number, y: number) => number): number => {
    let best = 0;
    let bestScore = -Infinity;
    for (let i = 0; i < h; i++) {
      const s = score(hull[i * 2]!, hull[i * 2 + 1]!);
      if (s > bestScore) {
        bestScore = s;
        best = i;
      }
    }
    return best;
  };
  const a = farthest((x, y) => (x - mx) ** 2 + (y - my) ** 2);
  const ax = hull[a * 2]!;
  const ay = hull[a * 2 + 1]!;
  const b = farthest((x, y) => (x - ax) ** 2 + (y - ay) ** 2);
  const bx = hull[b * 2]!;
  const by = hull[b * 2 + 1]!;
  const c = farthest((x, y) => Math.abs((bx - ax) * (y - ay) - (by - ay) * (x - ax)));
  if (a === b || b === c || a === c) return undefined;
  return [a, b, c];
}
