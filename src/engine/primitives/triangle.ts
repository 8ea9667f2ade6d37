/**
 * Triangles, general or isosceles (processing.parameterizedShapes.triangle.*).
 * In: the loop's samples (all, and the polish's share), its convex hull, the mean-distance budget
 * and the loop's direction. Out: the best triangle with its path and errors (vertex 0 the apex,
 * or the vertex opposite the longest side), isosceles when a mirror axis costs (almost) nothing;
 * which switch it obeys is the caller's business.
 * Method: the hull's farthest-point triangle starts the three vertices, polished by
 * Levenberg–Marquardt on the distance to the polygon. When the two sides at one vertex are within
 * 8 % of each other, an isosceles hypothesis (apex, base midpoint, half base) is polished too and
 * kept when its mean error is within 15 % (or 0.03 px) of the general one and within the budget.
 */
import { hypot2 } from '../length.js';
import { errors, farthestTriangleIndices, normalizeDeg, polygonDistances } from './geometry.js';
import { emit, polygonNodes, type PrimitiveFit } from './path.js';
import { HOPELESS_RMS, polish, type PolishScratch } from './solver.js';

/** The best triangle, isosceles when a mirror axis costs (almost) nothing; switches are the caller's. */
export function fitTriangle(scratch: PolishScratch, p: Float64Array, q: Float64Array, hull: Float64Array, meanBudget: number, clockwise: boolean): PrimitiveFit | undefined {
  const guess = farthestTriangle(hull);
  if (!guess) return undefined;
  const tri = polish(scratch, q, guess, polygonDistances, TRIANGLE_STEPS, HOPELESS_RMS);
  const [genMean, genMax] = errors(scratch, p, polygonDistances, tri);
  // Isosceles hypothesis: the vertex whose two sides are most nearly equal is the apex.
  let iso: { v: Float64Array; mean: number; max: number } | undefined;
  const side = (i: number, j: number): number => hypot2(tri[j * 2]! - tri[i * 2]!, tri[j * 2 + 1]! - tri[i * 2 + 1]!);
  let apex = 0;
  let apexGap = Infinity;
  for (let i = 0; i < 3; i++) {
    const l1 = side(i, (i + 1) % 3);
    const l2 = side(i, (i + 2) % 3);
    const gap = Math.abs(l1 - l2) / Math.max(l1, l2);
    if (gap < apexGap) {
      apexGap = gap;
      apex = i;
    }
  }
  if (apexGap < 0.08) {
    const b1 = (apex + 1) % 3;
    const b2 = (apex + 2) % 3;
    const mx = (tri[b1 * 2]! + tri[b2 * 2]!) / 2;
    const my = (tri[b1 * 2 + 1]! + tri[b2 * 2 + 1]!) / 2;
    const start = Float64Array.of(tri[apex * 2]!, tri[apex * 2 + 1]!, mx, my, side(b1, b2) / 2);
    const iv = polish(scratch, q, start, isoscelesDistances, ISOSCELES_STEPS);
    const verts = isoscelesVertices(iv, new Float64Array(6));
    const [mean, max] = errors(scratch, p, polygonDistances, verts);
    // Symmetric when the mirror axis costs (almost) nothing.
    if (mean <= Math.max(genMean * 1.15, genMean + 0.03) && mean <= meanBudget) iso = { v: verts, mean, max };
  }
  const verts = iso ? iso.v : tri;
  // Vertex 0: the apex (isosceles, built first) or the vertex opposite the longest side.
  let first = 0;
  if (!iso) {
    let longest = -1;
    for (let i = 0; i < 3; i++) {
      const l = hypot2(verts[((i + 2) % 3) * 2]! - verts[((i + 1) % 3) * 2]!, verts[((i + 2) % 3) * 2 + 1]! - verts[((i + 1) % 3) * 2 + 1]!);
      if (l > longest) {
        longest = l;
        first = i;
      }
    }
  }
  const order = [first, (first + 1) % 3, (first + 2) % 3];
  const cx = (verts[0]! + verts[2]! + verts[4]!) / 3;
  const cy = (verts[1]! + verts[3]! + verts[5]!) / 3;
  const vertices = order.map((i) => [verts[i * 2]!, verts[i * 2 + 1]!] as const);
  const rotationDeg = normalizeDeg((Math.atan2(vertices[0]![1] - cy, vertices[0]![0] - cx) * 180) / Math.PI, 360);
  const nodes = polygonNodes(vertices);
  return {
    ...emit(nodes, clockwise),
    primitive: { family: 'triangle', cx, cy, rotationDeg, isosceles: iso !== undefined, vertices },
    meanError: iso ? iso.mean : genMean,
    maxError: iso ? iso.max : genMax,
  };
}

/** Finite-difference steps of the polish: three vertices; apex, base midpoint and half base. */
const TRIANGLE_STEPS = [1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4];
const ISOSCELES_STEPS = [1e-4, 1e-4, 1e-4, 1e-4, 1e-4];

/**
 * The isosceles triangle's model (solver.ts): v = apex x, y, base midpoint x, y, half base; the
 * vertices it measures against are the scratch's, rewritten for every parameter vector.
 */
function isoscelesDistances(v: Float64Array, p: Float64Array, out: Float64Array, scratch: PolishScratch): void {
  polygonDistances(isoscelesVertices(v, scratch.polygon(3)), p, out, scratch);
}

/** Apex (x, y), base midpoint (x, y) and half base → the three vertices, apex first, in out. */
function isoscelesVertices(v: Float64Array, out: Float64Array): Float64Array {
  const ax = v[0]!;
  const ay = v[1]!;
  const mx = v[2]!;
  const my = v[3]!;
  const len = hypot2(ax - mx, ay - my) || 1;
  const px = (-(ay - my) / len) * v[4]!;
  const py = ((ax - mx) / len) * v[4]!;
  out[0] = ax;
  out[1] = ay;
  out[2] = mx + px;
  out[3] = my + py;
  out[4] = mx - px;
  out[5] = my - py;
  return out;
}

/** Start corners: the hull point farthest from the centroid, the one farthest from it, and the
 *  one farthest from the line through both. */
function farthestTriangle(hull: Float64Array): Float64Array | undefined {
  const corners = farthestTriangleIndices(hull);
  if (!corners) return undefined;
  const [a, b, c] = corners;
  return Float64Array.of(hull[a * 2]!, hull[a * 2 + 1]!, hull[b * 2]!, hull[b * 2 + 1]!, hull[c * 2]!, hull[c * 2 + 1]!);
}
