/**
 * Parameterized shapes (processing.parameterizedShapes.*): rectangles (sharp or rounded),
 * triangles (isosceles, general), bullets ("D" shapes), general convex quadrilaterals and 3- to
 * 6-pointed stars, fitted to one closed chain.
 * In: the chain's sub-pixel samples (the coverage samples fitChain uses) and the family switches.
 * Out: the primitive and the chain's exact geometry (lines between exact corners; rounded
 * corners as circular arcs, a bullet's round back as two elliptical quarter arcs), or undefined.
 *
 * This file routes a loop to the families it can be and judges their fits. Each family is a file
 * of primitives/ (rectangle, triangle, bullet, quadrilateral, star) that starts its hypothesis
 * from a closed-form guess and polishes it with the one solver (primitives/solver.ts:
 * Levenberg–Marquardt on the signed distance of every sample to the primitive), on the shared
 * sample geometry (primitives/geometry.ts) and path output (primitives/path.ts).
 *
 * Method: shoelace area, convex hull (monotone chain) and solidity (area / hull area) route a
 * loop to the families it can be. A primitive is accepted only when it measurably matches the
 * samples: mean distance ≤ 0.35 px and largest ≤ 1 px, both tightened for small shapes (a tiny
 * square is a circle within 0.5 px). Only closed chains away from the image border reach this
 * (index.ts: an isolated shape's whole outline), so replacing the chain's segments keeps both
 * neighbours on the same boundary.
 *
 * Exact rejections before the fits: a triangle, a general quadrilateral and a sharp rectangle
 * are polygons of 3 or 4 sides, and a polygon of k sides cannot pass within the largest-distance
 * budget of 2k + 1 samples no three of which fit in a strip twice the budget wide
 * (primitives/polygon-certificate.ts). When such samples are found the family's fit is skipped:
 * whatever its polish returned, the acceptance test would have rejected it. Nothing is skipped on
 * a guess, so the result is the one the fits alone give. The minimum-area box is computed once
 * for the rectangle and the bullet.
 *
 * Convex loops (solidity > 0.97) try the families simplest first — rectangle, triangle, bullet,
 * quadrilateral — and the first that fits owns the loop. A family's switch only decides whether
 * its own shapes are annotated: a rectangle with `quadrilateral.rectangle` off stays curves
 * rather than becoming a general quadrilateral, and a triangle never becomes a 4-gon with one
 * straight corner. Likewise, triangle switches are exclusive: a triangle that fits with a mirror
 * axis is isosceles and obeys only `triangle.isosceles`; any other obeys only `triangle.general`.
 * Loops with notches (lower solidity) can only be stars, of as many points as the loop seems to
 * have tips; of those enabled, the one with the smallest mean error wins.
 * Pure and deterministic: typed arrays, no randomness, fixed iteration limits.
 */
import type { ParameterizedShapeSwitches } from './types.js';
import { fitBullet } from './primitives/bullet.js';
import type { PolishScratch } from './primitives/solver.js';
import { convexHull, minAreaRect, shoelace, strided } from './primitives/geometry.js';
import type { PrimitiveFit } from './primitives/path.js';
import { beyondPolygons } from './primitives/polygon-certificate.js';
import { fitQuadrilateral } from './primitives/quadrilateral.js';
import { fitRectangle } from './primitives/rectangle.js';
import { fitStar, starTips } from './primitives/star.js';
import { fitTriangle } from './primitives/triangle.js';

export type { PrimitiveFit } from './primitives/path.js';

/** Acceptance budget (px) for a shape of at least FULL_BUDGET_SIZE px (square root of its area). */
const MEAN_BUDGET = 0.35;
const MAX_BUDGET = 1;
const FULL_BUDGET_SIZE = 24;
/** Smallest shape (square root of area, px) worth a primitive. */
const MIN_SIZE = 6;
/** Samples the least-squares polish uses at most (every k-th); acceptance checks all of them. */
const FIT_SAMPLES = 600;

/**
 * Fits the enabled families to a closed loop of samples (x, y pairs) and returns the one within
 * the budget — for a convex loop the simplest family that fits, for a notched one the star with
 * the smallest mean error — with segments running in the samples' direction.
 */
export function fitPrimitive(scratch: PolishScratch, p: Float64Array, switches: ParameterizedShapeSwitches): PrimitiveFit | undefined {
  const n = p.length / 2;
  if (n < 24) return undefined;
  const signed = shoelace(p);
  const area = Math.abs(signed);
  const size = Math.sqrt(area);
  if (size < MIN_SIZE) return undefined;
  const hull = convexHull(p);
  if (hull.length < 6) return undefined;
  const solidity = area / Math.abs(shoelace(hull));
  const k = Math.min(1, Math.max(0.5, size / FULL_BUDGET_SIZE));
  const budget = { mean: MEAN_BUDGET * k, max: MAX_BUDGET * k };
  const fitPoints = strided(p, FIT_SAMPLES);
  const clockwise = signed > 0;
  const fits = (c: PrimitiveFit | undefined): c is PrimitiveFit => c !== undefined && c.meanError <= budget.mean && c.maxError <= budget.max;
  if (solidity > 0.97) {
    const box = minAreaRect(hull);
    // Certificates that no polygon of 3 (4) sides comes within budget.max of every sample,
    // computed once, when a family first asks. A 4-gon's needs more samples and is looked for
    // only where a triangle's was found: elsewhere it would almost never be, and costs time.
    let noTriangle: boolean | undefined;
    let noQuad: boolean | undefined;
    const beyondTriangles = (): boolean => (noTriangle ??= beyondPolygons(p, 3, budget.max));
    const beyondQuads = (): boolean => (noQuad ??= beyondTriangles() && beyondPolygons(p, 4, budget.max));
    // Simplest family first; the first that fits owns the loop, whether its switch is on or not
    // (a rectangle is tried even with its switch off so that it cannot come back as a 4-gon).
    if (switches.quadrilateralRectangle || switches.quadrilateralGeneral || switches.quadrilateralBullet) {
      const rect = fitRectangle(scratch, p, fitPoints, box, area, clockwise, beyondQuads);
      if (fits(rect)) return switches.quadrilateralRectangle ? rect : undefined;
    }
    if ((switches.triangleGeneral || switches.triangleIsosceles || switches.quadrilateralGeneral) && !beyondTriangles()) {
      const tri = fitTriangle(scratch, p, fitPoints, hull, budget.mean, clockwise);
      if (fits(tri)) {
        const isosceles = tri.primitive.family === 'triangle' && tri.primitive.isosceles;
        return (isosceles ? switches.triangleIsosceles : switches.triangleGeneral) ? tri : undefined;
      }
    }
    if (switches.quadrilateralBullet) {
      const bullet = fitBullet(scratch, p, fitPoints, box, area, clockwise);
      if (fits(bullet)) return bullet;
    }
    if (switches.quadrilateralGeneral && !beyondQuads()) {
      const quad = fitQuadrilateral(scratch, p, fitPoints, hull, size, budget.mean, clockwise);
      if (fits(quad)) return quad;
    }
    return undefined;
  }
  // Most non-convex outlines are no stars: a star's radius from its centre has 3–6 equal peaks.
  // Counting them is cheap; the fits (Levenberg–Marquardt per point count) are not.
  const tips = starTips(p);
  if (tips === 0) return undefined;
  let best: PrimitiveFit | undefined;
  for (let points = 3; points <= 6; points++) {
    const on = [switches.starN3, switches.starN4, switches.starN5, switches.starN6][points - 3];
    if (!on || points !== tips) continue;
    const star = fitStar(scratch, p, fitPoints, points, clockwise);
    if (fits(star) && (!best || star.meanError < best.meanError)) best = star;
  }
  return best;
}
