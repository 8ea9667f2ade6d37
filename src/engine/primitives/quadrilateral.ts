/**
 * General convex quadrilaterals (processing.parameterizedShapes.quadrilateral.general).
 * In: the loop's samples (all, and the polish's share), its convex hull, its size (square root of
 * its area), the mean-distance budget and the loop's direction. Out: the 4-gon, clockwise on
 * screen from the start of its longest side, with its path and errors, or undefined.
 * Method: the largest-area 4-gon on the hull's points (greedy, then moving one corner at a time
 * while the area grows) starts the four vertices, polished by Levenberg–Marquardt on the distance
 * to the polygon. Accepted only with four real corners (convex, each turning ≥ 5°, sides ≥ 2 px
 * and ≥ 8 % of the size) and evenly straight sides (the samples along each side within the mean
 * budget, and within 3× the typical side's error once above a third of it), so that a triangle
 * with one rounded tip stays curves.
 */
import { hypot2 } from '../length.js';
import { errors, farthestTriangleIndices, normalizeDeg, polygonDistances, shoelace } from './geometry.js';
import { emit, polygonNodes, type PrimitiveFit } from './path.js';
import { HOPELESS_RMS, polish, type PolishScratch } from './solver.js';

/** A corner must turn at least this much (radians, 5°): flatter, it is a triangle's side. */
const MIN_QUAD_TURN = (5 * Math.PI) / 180;
/**
 * Shortest side: 2 px, and 8 % of the shape's size (square root of its area). A shorter side is
 * a rounded or blunted corner of a triangle that the polish cut off, not a fourth corner.
 */
const MIN_QUAD_SIDE = 2;
const MIN_QUAD_SIDE_SHARE = 0.08;
/** How much worse than the typical side one side may fit (mean distance ratio). */
const SIDE_SPREAD = 3;
/** Finite-difference steps of the polish: the four vertices. */
const QUAD_STEPS = [1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4];

export function fitQuadrilateral(scratch: PolishScratch, p: Float64Array, q: Float64Array, hull: Float64Array, size: number, meanBudget: number, clockwise: boolean): PrimitiveFit | undefined {
  const corners = inscribedPolygon(hull, 4);
  if (!corners) return undefined;
  const start = new Float64Array(8);
  corners.forEach((i, k) => {
    start[k * 2] = hull[i * 2]!;
    start[k * 2 + 1] = hull[i * 2 + 1]!;
  });
  const v = polish(scratch, q, start, polygonDistances, QUAD_STEPS, HOPELESS_RMS);
  // Clockwise on screen (positive shoelace).
  let verts: [number, number][] = [0, 1, 2, 3].map((k) => [v[k * 2]!, v[k * 2 + 1]!]);
  if (shoelace(v) < 0) verts.reverse();
  let longest = 0;
  let longestLen = -1;
  for (let k = 0; k < 4; k++) {
    const [ax, ay] = verts[k]!;
    const [bx, by] = verts[(k + 1) % 4]!;
    const [cx, cy] = verts[(k + 2) % 4]!;
    const len = hypot2(bx - ax, by - ay);
    if (len < Math.max(MIN_QUAD_SIDE, MIN_QUAD_SIDE_SHARE * size)) return undefined;
    // Turn at b: convex (cross > 0 clockwise on screen) and a real corner.
    const cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx);
    const dot = (bx - ax) * (cx - bx) + (by - ay) * (cy - by);
    if (!(cross > 0) || Math.atan2(cross, dot) < MIN_QUAD_TURN) return undefined;
    if (len > longestLen) {
      longestLen = len;
      longest = k;
    }
  }
  verts = [...verts.slice(longest), ...verts.slice(0, longest)];
  const flat = Float64Array.from(verts.flat());
  const [meanError, maxError] = errors(scratch, p, polygonDistances, flat);
  // Each side straight on its own: a short side cut across a rounded corner barely moves the
  // loop's mean error, but the samples along it bulge away from it, while noise spreads evenly.
  // So no side may be off by more than the budget, nor by more than three times the typical
  // side (median) once above a third of the budget.
  const sides = Array.from(sideErrors(p, flat)).sort((a, b) => a - b);
  const typical = (sides[1]! + sides[2]!) / 2;
  if (sides[3]! > Math.min(meanBudget, Math.max(meanBudget / 3, SIDE_SPREAD * typical))) return undefined;
  const cx = (verts[0]![0] + verts[1]![0] + verts[2]![0] + verts[3]![0]) / 4;
  const cy = (verts[0]![1] + verts[1]![1] + verts[2]![1] + verts[3]![1]) / 4;
  const rotationDeg = normalizeDeg((Math.atan2(verts[0]![1] - cy, verts[0]![0] - cx) * 180) / Math.PI, 360);
  return {
    ...emit(polygonNodes(verts), clockwise),
    primitive: { family: 'quadrilateral', cx, cy, rotationDeg, vertices: verts },
    meanError,
    maxError,
  };
}

/**
 * Indices (in hull order) of m hull points spanning a large-area polygon: the farthest-point
 * triangle, then greedy insertion of the point that adds the most area, then each corner moved in
 * turn to the point between its neighbours farthest from the line joining them while that grows
 * the area (a local optimum; enough to start the polish near the true corners).
 */
function inscribedPolygon(hull: Float64Array, m: number): number[] | undefined {
  const h = hull.length / 2;
  const tri = farthestTriangleIndices(hull);
  if (!tri || h < m) return undefined;
  const idx = [...tri].sort((a, b) => a - b);
  // Twice the area of the triangle (i, j, k), unsigned.
  const area2 = (i: number, j: number, k: number): number =>
    Math.abs((hull[j * 2]! - hull[i * 2]!) * (hull[k * 2 + 1]! - hull[i * 2 + 1]!) - (hull[j * 2 + 1]! - hull[i * 2 + 1]!) * (hull[k * 2]! - hull[i * 2]!));
  // The hull point strictly between corners a and b (cyclically) adding the most area, if any.
  const bestBetween = (a: number, b: number): [number, number] => {
    let best = -1;
    let bestArea = 0;
    for (let i = (a + 1) % h; i !== b; i = (i + 1) % h) {
      const s = area2(a, i, b);
      if (s > bestArea) {
        bestArea = s;
        best = i;
      }
    }
    return [best, bestArea];
  };
  while (idx.length < m) {
    let slot = -1;
    let point = -1;
    let gain = 0;
    for (let k = 0; k < idx.length; k++) {
      const [i, s] = bestBetween(idx[k]!, idx[(k + 1) % idx.length]!);
      if (i >= 0 && s > gain) {
        gain = s;
        slot = k + 1;
        point = i;
      }
    }
    if (point < 0) return undefined;
    idx.splice(slot, 0, point);
  }
  for (let round = 0; round < 4 * m; round++) {
    let moved = false;
    for (let k = 0; k < m; k++) {
      const prev = idx[(k + m - 1) % m]!;
      const next = idx[(k + 1) % m]!;
      const [i, s] = bestBetween(prev, next);
      if (i >= 0 && i !== idx[k] && s > area2(prev, idx[k]!, next) * (1 + 1e-12)) {
        idx[k] = i;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return idx;
}

/** Mean |distance| of the samples nearest to each side of a closed polygon (x, y pairs). */
function sideErrors(p: Float64Array, v: Float64Array): Float64Array {
  const m = v.length / 2;
  const sum = new Float64Array(m);
  const count = new Float64Array(m);
  for (let k = 0; k < p.length; k += 2) {
    const x = p[k]!;
    const y = p[k + 1]!;
    let best = Infinity;
    let side = 0;
    for (let i = 0; i < m; i++) {
      const j = (i + 1) % m;
      const ax = v[i * 2]!;
      const ay = v[i * 2 + 1]!;
      const dx = v[j * 2]! - ax;
      const dy = v[j * 2 + 1]! - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 < 1e-18 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
      const d2 = (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2;
      if (d2 < best) {
        best = d2;
        side = i;
      }
    }
    sum[side] = sum[side]! + Math.sqrt(best);
    count[side] = count[side]! + 1;
  }
  for (let i = 0; i < m; i++) sum[i] = count[i]! > 0 ? sum[i]! / count[i]! : 0;
  return sum;
}
