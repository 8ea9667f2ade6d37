/**
 * Parameterized shapes (processing.parameterizedShapes.*): rectangles (sharp or rounded),
 * triangles (isosceles, general), bullets ("D" shapes), general convex quadrilaterals and 3- to
 * 6-pointed stars, fitted to one closed chain.
 * In: the chain's sub-pixel samples (the coverage samples fitChain uses) and the family switches.
 * Out: the primitive and the chain's exact geometry (lines between exact corners; rounded
 * corners as circular arcs, a bullet's round back as two elliptical quarter arcs), or undefined.
 *
 * Method: shoelace area, convex hull (monotone chain) and solidity (area / hull area) route a
 * loop to the families it can be. Each hypothesis is started from a closed-form guess and
 * polished by Levenberg–Marquardt on the signed distance of every sample to the primitive:
 * - rectangle: minimum-area bounding rectangle of the hull (rotating calipers) gives centre,
 *   rotation and sides; the area it misses, (4 − π)·r², gives the corner radius;
 * - triangle: farthest-point corners of the hull, then the three vertices; an isosceles
 *   hypothesis (apex, base midpoint, half base) is kept when it fits as well;
 * - bullet: the same minimum-area rectangle; the area centroid leans towards the straight side
 *   (the round back holds less area), and the area the box misses, (2 − π/2)·depth·half breadth,
 *   gives the depth of the back. Model: straight side, body of length ≥ 0, half-ellipse back
 *   (point-to-ellipse distance by Newton on the closest-point equation);
 * - quadrilateral: the largest-area 4-gon on the hull's points (greedy, then moving one corner
 *   at a time while the area grows) starts the four vertices;
 * - star: area centroid and the N-th harmonic of the polar radius profile give rotation, tips
 *   and notches (outer and inner radius) for each enabled N.
 * A primitive is accepted only when it measurably matches the samples: mean distance ≤ 0.35 px
 * and largest ≤ 1 px, both tightened for small shapes (a tiny square is a circle within 0.5 px).
 * Only closed chains away from the image border reach this (index.ts: an isolated shape's whole
 * outline), so replacing the chain's segments keeps both neighbours on the same boundary.
 *
 * Exact rejections before the fits: a triangle, a general quadrilateral and a sharp rectangle
 * are polygons of 3 or 4 sides, and a polygon of k sides cannot pass within the largest-distance
 * budget of 2k + 1 samples no three of which fit in a strip twice the budget wide (see
 * beyondPolygons). When such samples are found the family's fit is skipped: whatever its
 * polish returned, the acceptance test would have rejected it. Nothing is skipped on a guess, so
 * the result is the one the fits alone give. The minimum-area box is computed once for the
 * rectangle and the bullet.
 *
 * Convex loops (solidity > 0.97) try the families simplest first — rectangle, triangle, bullet,
 * quadrilateral — and the first that fits owns the loop. A family's switch only decides whether
 * its own shapes are annotated: a rectangle with `quadrilateral.rectangle` off stays curves
 * rather than becoming a general quadrilateral, and a triangle never becomes a 4-gon with one
 * straight corner. Likewise, triangle switches are exclusive: a triangle that fits with a mirror
 * axis is isosceles and obeys only `triangle.isosceles`; any other obeys only `triangle.general`.
 * Loops with notches (lower solidity) can only be stars. Quadrilaterals must be convex, with four
 * real corners (each turning ≥ 5°, sides ≥ 2 px and ≥ 8 % of the size) and evenly straight
 * sides (the samples along each side within the mean budget, and within 3× the typical side's
 * error once above a third of it), so a triangle with one rounded tip stays curves. A bullet
 * needs samples along its straight side over half its breadth, and a back that bulges by at
 * least a quarter of its half breadth (a flatter one fits the rectangle or is no "D").
 * Pure and deterministic: typed arrays, no randomness, fixed iteration limits.
 */
import type { ParameterizedShapeSwitches, Segment, ShapePrimitive } from './types.js';
import { hypot2 } from './length.js';

export interface PrimitiveFit {
  readonly startX: number;
  readonly startY: number;
  readonly segments: Segment[];
  readonly primitive: ShapePrimitive;
  /** Mean and largest distance (px) from the samples to the primitive. */
  readonly meanError: number;
  readonly maxError: number;
}

/** Acceptance budget (px) for a shape of at least FULL_BUDGET_SIZE px (square root of its area). */
const MEAN_BUDGET = 0.35;
const MAX_BUDGET = 1;
const FULL_BUDGET_SIZE = 24;
/** Smallest shape (square root of area, px) worth a primitive. */
const MIN_SIZE = 6;
/** Samples the least-squares polish uses at most (every k-th); acceptance checks all of them. */
const FIT_SAMPLES = 600;
/** RMS distance (px) after the first rounds of the polish beyond which a hypothesis is dropped. */
const HOPELESS_RMS = 1.2;
/** Fitted corner radii below this (px) are sampling (crack samples cut corners), not rounding. */
const SHARP_RADIUS = 1.5;

/**
 * Fits the enabled families to a closed loop of samples (x, y pairs) and returns the one within
 * the budget — for a convex loop the simplest family that fits, for a notched one the star with
 * the smallest mean error — with segments running in the samples' direction.
 */
export function fitPrimitive(p: Float64Array, switches: ParameterizedShapeSwitches): PrimitiveFit | undefined {
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
      const rect = fitRectangle(p, fitPoints, box, area, clockwise, beyondQuads);
      if (fits(rect)) return switches.quadrilateralRectangle ? rect : undefined;
    }
    if ((switches.triangleGeneral || switches.triangleIsosceles || switches.quadrilateralGeneral) && !beyondTriangles()) {
      const tri = fitTriangle(p, fitPoints, hull, budget.mean, clockwise);
      if (fits(tri)) {
        const isosceles = tri.primitive.family === 'triangle' && tri.primitive.isosceles;
        return (isosceles ? switches.triangleIsosceles : switches.triangleGeneral) ? tri : undefined;
      }
    }
    if (switches.quadrilateralBullet) {
      const bullet = fitBullet(p, fitPoints, box, area, clockwise);
      if (fits(bullet)) return bullet;
    }
    if (switches.quadrilateralGeneral && !beyondQuads()) {
      const quad = fitQuadrilateral(p, fitPoints, hull, size, budget.mean, clockwise);
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
    const star = fitStar(p, fitPoints, points, clockwise);
    if (fits(star) && (!best || star.meanError < best.meanError)) best = star;
  }
  return best;
}

/**
 * The number of tips (3–6) when the outline's distance from its vertex centroid, smoothed over a
 * few samples, rises to that many peaks of similar height (the highest at most 1.5 × the lowest)
 * between valleys well
 * below them (under 85 % of the lowest peak); else 0.
 */
function starTips(p: Float64Array): number {
  const n = p.length / 2;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < n; i++) {
    cx += p[i * 2]!;
    cy += p[i * 2 + 1]!;
  }
  cx /= n;
  cy /= n;
  const radius = new Float64Array(n);
  for (let i = 0; i < n; i++) radius[i] = hypot2(p[i * 2]! - cx, p[i * 2 + 1]! - cy);
  const w = Math.max(1, Math.floor(n / 48));
  const smooth = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let k = -w; k <= w; k++) sum += radius[(i + k + n) % n]!;
    smooth[i] = sum / (2 * w + 1);
  }
  let mean = 0;
  for (let i = 0; i < n; i++) mean += smooth[i]!;
  mean /= n;
  // Peaks: maxima of runs above the mean (one per run), so noise on a tip counts once.
  const peaks: number[] = [];
  let start = 0;
  while (start < n && smooth[start]! > mean) start++; // begin below the mean
  if (start === n) return 0;
  let runMax = -1;
  let valley = Infinity;
  for (let k = 1; k <= n; k++) {
    const v = smooth[(start + k) % n]!;
    if (v > mean) runMax = Math.max(runMax, v);
    else {
      valley = Math.min(valley, v);
      if (runMax >= 0) {
        peaks.push(runMax);
        runMax = -1;
      }
    }
    if (peaks.length > 6) return 0;
  }
  if (runMax >= 0) peaks.push(runMax);
  if (peaks.length < 3 || peaks.length > 6) return 0;
  const low = Math.min(...peaks);
  const high = Math.max(...peaks);
  if (high > low * 1.5 || valley > low * 0.85) return 0;
  return peaks.length;
}

// ---------------------------------------------------------------------------------------------
// Exact rejection of polygons

/** Places around the loop the certificate's samples are picked from. */
const CERTIFICATE_PLACES = 64;
/** Starting offsets (in places) tried; finding no certificate from any proves nothing. */
const CERTIFICATE_STARTS = [0, 17, 34, 51];

/**
 * Whether no closed polygon of `sides` sides passes within `e` of every sample, so that a fit of
 * one would be rejected for its largest distance whatever the polish found.
 * Why it holds: a sample within e of a side lies in the strip of width 2e around the side's
 * line, and three samples lie in one such strip only if their triangle's smallest height is at
 * most 2e. If 2·sides + 1 samples have every triple wider than that, each strip holds at most two
 * of them, `sides` strips at most 2·sides, so one of them is farther than e from every side. (A
 * margin of 1e-9 keeps rounding in the fit's own distances from mattering.)
 * The samples are picked greedily at CERTIFICATE_PLACES places in bit-reversed order (the first
 * picks spread around the loop), from a few starting offsets. Not finding them proves nothing:
 * the fit then runs as before.
 */
function beyondPolygons(p: Float64Array, sides: number, e: number): boolean {
  const n = p.length / 2;
  const need = 2 * sides + 1;
  const width = 2 * e * (1 + 1e-9) + 1e-9;
  const picked = new Int32Array(need);
  for (const start of CERTIFICATE_STARTS) {
    let count = 0;
    // Stops when the places left could not complete the set.
    for (let t = 0; t < CERTIFICATE_PLACES && count < need && count + CERTIFICATE_PLACES - t >= need; t++) {
      const place = (reverseBits6(t) + start) % CERTIFICATE_PLACES;
      const i = Math.floor((place * n) / CERTIFICATE_PLACES);
      if (fatWithAll(p, picked, count, i, width)) picked[count++] = i;
    }
    if (count === need) return true;
  }
  return false;
}

/** Whether sample i, with every pair of the first `count` picked samples, spans more than `width`. */
function fatWithAll(p: Float64Array, picked: Int32Array, count: number, i: number, width: number): boolean {
  for (let a = 0; a < count; a++) {
    if (picked[a] === i) return false;
    for (let b = a + 1; b < count; b++) if (!(tripleWidth(p, picked[a]!, picked[b]!, i) > width)) return false;
  }
  return true;
}

/**
 * Width of the narrowest strip holding samples a, b and c: twice their triangle's area over its
 * longest side (the smallest height).
 */
function tripleWidth(p: Float64Array, a: number, b: number, c: number): number {
  const ax = p[a * 2]!;
  const ay = p[a * 2 + 1]!;
  const bx = p[b * 2]!;
  const by = p[b * 2 + 1]!;
  const cx = p[c * 2]!;
  const cy = p[c * 2 + 1]!;
  const cross = Math.abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
  const longest = Math.sqrt(Math.max((bx - ax) ** 2 + (by - ay) ** 2, (cx - bx) ** 2 + (cy - by) ** 2, (ax - cx) ** 2 + (ay - cy) ** 2));
  return longest > 0 ? cross / longest : 0;
}

/** The 6-bit number t with its bits in reverse order (0, 32, 16, 48, 8, … for t = 0, 1, 2, …). */
function reverseBits6(t: number): number {
  let r = 0;
  for (let b = 0; b < 6; b++) r = (r << 1) | ((t >> b) & 1);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Rectangles

/**
 * `beyondQuads` proves that no 4-gon comes within the budget of every sample: then a sharp
 * rectangle (a 4-gon) would be rejected, and is not polished.
 */
function fitRectangle(p: Float64Array, q: Float64Array, box: Box | undefined, area: number, clockwise: boolean, beyondQuads: () => boolean): PrimitiveFit | undefined {
  if (!box) return undefined;
  const [cx, cy, angle, w, h] = box;
  // The area a rounded rectangle misses at its four corners is (4 − π)·r².
  const r0 = Math.min(Math.min(w, h) / 2, Math.sqrt(Math.max(0, w * h - area) / (4 - Math.PI)));
  const rounded = (v: Float64Array): Distance => roundedRect(v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, v[5]!);
  let v = polish(q, Float64Array.of(cx, cy, angle, w / 2, h / 2, r0), rounded, [1e-4, 1e-4, 1e-6, 1e-4, 1e-4, 1e-4], HOPELESS_RMS);
  if (clampRadius(v) < SHARP_RADIUS) {
    if (beyondQuads()) return undefined;
    const sharp = (s: Float64Array): Distance => roundedRect(s[0]!, s[1]!, s[2]!, s[3]!, s[4]!, 0);
    const s = polish(q, v.subarray(0, 5).slice(), sharp, [1e-4, 1e-4, 1e-6, 1e-4, 1e-4]);
    v = Float64Array.of(s[0]!, s[1]!, s[2]!, s[3]!, s[4]!, 0);
  }
  const r = clampRadius(v);
  let a = Math.abs(v[3]!);
  let b = Math.abs(v[4]!);
  const rcx = v[0]!;
  const rcy = v[1]!;
  // A square rounded all the way is a circle: that is the circle switch's business.
  if (r > 0.45 * Math.min(a, b) && Math.max(a, b) / Math.min(a, b) < 1.1) return undefined;
  const [meanError, maxError] = errors(p, roundedRect(rcx, rcy, v[2]!, a, b, r));
  // Rotation of the width side in [0, 90): quarter turns swap the sides.
  let deg = normalizeDeg((v[2]! * 180) / Math.PI, 360);
  while (deg >= 90) {
    deg -= 90;
    [a, b] = [b, a];
  }
  const theta = (deg * Math.PI) / 180;
  const path = roundedRectPath(rcx, rcy, theta, a, b, r);
  return {
    ...emit(path, clockwise),
    primitive: { family: 'rectangle', cx: rcx, cy: rcy, rotationDeg: deg, width: 2 * a, height: 2 * b, cornerRadius: r },
    meanError,
    maxError,
  };
}

/** The corner radius parameter, kept within [0, half the shorter side]. */
function clampRadius(v: Float64Array): number {
  return Math.max(0, Math.min(Math.abs(v[5]!), Math.abs(v[3]!), Math.abs(v[4]!)));
}

/** Signed distance (negative inside) to a rectangle with half sides a, b and corner radius r. */
function roundedRect(cx: number, cy: number, angle: number, a: number, b: number, r: number): Distance {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  a = Math.abs(a);
  b = Math.abs(b);
  r = Math.max(0, Math.min(Math.abs(r), a, b));
  return (x, y) => {
    const dx = x - cx;
    const dy = y - cy;
    const qx = Math.abs(dx * cos + dy * sin) - (a - r);
    const qy = Math.abs(-dx * sin + dy * cos) - (b - r);
    return hypot2(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
  };
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

/** Centre x, y, rotation (radians), width and height of a rectangle. */
type Box = [number, number, number, number, number];

/** Minimum-area enclosing rectangle of a convex polygon (rotating calipers over its edges). */
function minAreaRect(hull: Float64Array): Box | undefined {
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

// ---------------------------------------------------------------------------------------------
// Triangles

/** The best triangle, isosceles when a mirror axis costs (almost) nothing; switches are the caller's. */
function fitTriangle(p: Float64Array, q: Float64Array, hull: Float64Array, meanBudget: number, clockwise: boolean): PrimitiveFit | undefined {
  const guess = farthestTriangle(hull);
  if (!guess) return undefined;
  const tri = polish(q, guess, polygon, [1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4], HOPELESS_RMS);
  const [genMean, genMax] = errors(p, polygon(tri));
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
    const iv = polish(q, start, (v) => polygon(isoscelesVertices(v)), [1e-4, 1e-4, 1e-4, 1e-4, 1e-4]);
    const verts = isoscelesVertices(iv);
    const [mean, max] = errors(p, polygon(verts));
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

/** Apex (x, y), base midpoint (x, y) and half base → the three vertices, apex first. */
function isoscelesVertices(v: Float64Array): Float64Array {
  const ax = v[0]!;
  const ay = v[1]!;
  const mx = v[2]!;
  const my = v[3]!;
  const len = hypot2(ax - mx, ay - my) || 1;
  const px = (-(ay - my) / len) * v[4]!;
  const py = ((ax - mx) / len) * v[4]!;
  return Float64Array.of(ax, ay, mx + px, my + py, mx - px, my - py);
}

/** Start corners: the hull point farthest from the centroid, the one farthest from it, and the
 *  one farthest from the line through both. */
function farthestTriangle(hull: Float64Array): Float64Array | undefined {
  const corners = farthestTriangleIndices(hull);
  if (!corners) return undefined;
  const [a, b, c] = corners;
  return Float64Array.of(hull[a * 2]!, hull[a * 2 + 1]!, hull[b * 2]!, hull[b * 2 + 1]!, hull[c * 2]!, hull[c * 2 + 1]!);
}

function farthestTriangleIndices(hull: Float64Array): [number, number, number] | undefined {
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

// ---------------------------------------------------------------------------------------------
// Bullets ("D" shapes)

/** Smallest depth of a bullet's round back, as a share of its half breadth. */
const MIN_BULLET_DEPTH = 0.25;
/** Share of the breadth the samples along the straight side must cover before any fit. */
const MIN_BULLET_STRAIGHT = 0.5;
/** Fitted straight bodies shorter than this (px) are a pure "D": refitted without a body. */
const MIN_BULLET_BODY = 1;

function fitBullet(p: Float64Array, q: Float64Array, box: Box | undefined, area: number, clockwise: boolean): PrimitiveFit | undefined {
  if (!box) return undefined;
  const [bx, by, angle, w, h] = box;
  if (!(w > 0 && h > 0)) return undefined;
  // The straight side is where the area centroid leans: the round back holds less area than the
  // box around it. Along the box axis with the larger (relative) lean.
  const [gx, gy] = areaCentroid(p);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const du = ((gx - bx) * cos + (gy - by) * sin) / (w / 2);
  const dv = (-(gx - bx) * sin + (gy - by) * cos) / (h / 2);
  let theta: number;
  let length: number;
  let half: number;
  if (Math.abs(du) >= Math.abs(dv)) {
    theta = du > 0 ? angle + Math.PI : angle;
    length = w;
    half = h / 2;
  } else {
    theta = dv > 0 ? angle - Math.PI / 2 : angle + Math.PI / 2;
    length = h;
    half = w / 2;
  }
  const fx = bx - (length / 2) * Math.cos(theta);
  const fy = by - (length / 2) * Math.sin(theta);
  // The straight side runs along that box side: samples within a pixel or so of it must cover
  // most of the breadth. Round loops touch the box side in one place and stop here, before the
  // (costly) polish.
  const ux = Math.cos(theta);
  const uy = Math.sin(theta);
  const near = Math.max(1.5, 0.02 * length);
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < p.length; i += 2) {
    const dx = p[i]! - fx;
    const dy = p[i + 1]! - fy;
    if (Math.abs(dx * ux + dy * uy) > near) continue;
    const across = -dx * uy + dy * ux;
    if (across < lo) lo = across;
    if (across > hi) hi = across;
  }
  if (!(hi - lo >= MIN_BULLET_STRAIGHT * 2 * half)) return undefined;
  // Box area minus the shape's: a half-ellipse back of depth e misses (2 − π/2)·e·half.
  const depth0 = Math.min(length, Math.max(MIN_BULLET_DEPTH * half, (2 * half * length - area) / (half * (2 - Math.PI / 2))));
  const model = (v: Float64Array): Distance => bulletDistance(v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, v[5]!);
  let v = polish(q, Float64Array.of(fx, fy, theta, half, length - depth0, depth0), model, [1e-4, 1e-4, 1e-6, 1e-4, 1e-4, 1e-4], HOPELESS_RMS);
  if (Math.abs(v[4]!) < MIN_BULLET_BODY) {
    // No straight body: a pure "D" gets exactly its straight side and its back.
    const pure = (s: Float64Array): Distance => bulletDistance(s[0]!, s[1]!, s[2]!, s[3]!, 0, s[4]!);
    const s = polish(q, Float64Array.of(v[0]!, v[1]!, v[2]!, v[3]!, v[5]!), pure, [1e-4, 1e-4, 1e-6, 1e-4, 1e-4]);
    v = Float64Array.of(s[0]!, s[1]!, s[2]!, s[3]!, 0, s[4]!);
  }
  const b = Math.abs(v[3]!);
  const body = Math.abs(v[4]!);
  const depth = Math.abs(v[5]!);
  if (b < 2 || depth < MIN_BULLET_DEPTH * b) return undefined;
  const [meanError, maxError] = errors(p, bulletDistance(v[0]!, v[1]!, v[2]!, b, body, depth));
  const deg = normalizeDeg((v[2]! * 180) / Math.PI, 360);
  const t = (deg * Math.PI) / 180;
  const c = Math.cos(t);
  const sn = Math.sin(t);
  const ox = v[0]!;
  const oy = v[1]!;
  // Local frame: u along the axis from the straight side's middle, v across (clockwise on screen).
  const at = (u: number, w2: number, arc: number): PathNode => ({ x: ox + u * c - w2 * sn, y: oy + u * sn + w2 * c, arc, ry: b, arcDeg: deg });
  const path: PathNode[] = [at(0, -b, 0), at(body, -b, 0), at(body + depth, 0, depth), at(body, b, depth), at(0, b, 0)];
  const width = body + depth;
  return {
    ...emit(path, clockwise),
    primitive: { family: 'bullet', cx: ox + (width / 2) * c, cy: oy + (width / 2) * sn, rotationDeg: deg, width, height: 2 * b, depth },
    meanError,
    maxError,
  };
}

/**
 * Signed distance to a bullet: straight side of half length b centred on (fx, fy), a body of
 * length `body` along `angle`, then a half-ellipse back (semi-axes depth along the axis, b across).
 * Union of the body box and the back's whole ellipse, cut behind the straight side.
 */
function bulletDistance(fx: number, fy: number, angle: number, b: number, body: number, depth: number): Distance {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  b = Math.abs(b);
  body = Math.abs(body);
  depth = Math.abs(depth);
  return (x, y) => {
    const dx = x - fx;
    const dy = y - fy;
    const u = dx * cos + dy * sin;
    const v = -dx * sin + dy * cos;
    const qx = Math.abs(u - body / 2) - body / 2;
    const qy = Math.abs(v) - b;
    const box = hypot2(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0);
    // Behind the back's ellipse, its distance is at least the gap to it: the box decides (saves
    // the Newton solve for most of a long body's samples).
    const gap = body - depth - u;
    const back = gap >= box ? gap : ellipseDistance(u - body, v, depth, b);
    return Math.max(Math.min(box, back), -u);
  };
}

/**
 * Signed distance (negative inside) from (x, y) to the ellipse x²/a² + y²/b² = 1. The closest
 * point (x0, y0) = (a²x/(t + a²), b²y/(t + b²)) for the one root t of
 * F(t) = (ax/(t + a²))² + (by/(t + b²))² − 1 above −min(a, b)²; F falls and is convex there, so
 * Newton from a start left of the root climbs to it without overshooting.
 */
function ellipseDistance(x: number, y: number, a: number, b: number): number {
  // Work in the first quadrant with e0 ≥ e1 (y0 along e0).
  let e0 = a;
  let e1 = b;
  let y0 = Math.abs(x);
  let y1 = Math.abs(y);
  if (e0 < e1) {
    [e0, e1] = [e1, e0];
    [y0, y1] = [y1, y0];
  }
  if (!(e1 > 1e-9)) return hypot2(Math.max(0, y0 - e0), y1);
  const inside = (y0 / e0) ** 2 + (y1 / e1) ** 2 < 1;
  let d: number;
  if (y1 > 1e-9 * e0) {
    if (y0 > 1e-9 * e0) {
      const a2 = e0 * e0;
      const b2 = e1 * e1;
      // F ≥ 0 at both starts (one of its terms alone is 1 there); take the nearer to the root.
      let t = -b2 + e1 * y1;
      t = Math.max(t, -a2 + e0 * y0);
      for (let i = 0; i < 40; i++) {
        const r0 = (e0 * y0) / (t + a2);
        const r1 = (e1 * y1) / (t + b2);
        const f = r0 * r0 + r1 * r1 - 1;
        if (!(f > 1e-15)) break;
        const df = -2 * ((r0 * r0) / (t + a2) + (r1 * r1) / (t + b2));
        const next = t - f / df;
        if (!(next > t)) break;
        t = next;
      }
      d = hypot2((a2 * y0) / (t + a2) - y0, (b2 * y1) / (t + b2) - y1);
    } else d = Math.abs(y1 - e1);
  } else {
    // On the major axis: the closest point is off the axis when the point is deep enough inside.
    const reach = (e0 * e0 - e1 * e1) / e0;
    if (y0 < reach) {
      const x0 = (e0 * e0 * y0) / (e0 * e0 - e1 * e1);
      d = hypot2(x0 - y0, e1 * Math.sqrt(Math.max(0, 1 - (x0 / e0) ** 2)));
    } else d = Math.abs(y0 - e0);
  }
  return inside ? -d : d;
}

// ---------------------------------------------------------------------------------------------
// General quadrilaterals

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

function fitQuadrilateral(p: Float64Array, q: Float64Array, hull: Float64Array, size: number, meanBudget: number, clockwise: boolean): PrimitiveFit | undefined {
  const corners = inscribedPolygon(hull, 4);
  if (!corners) return undefined;
  const start = new Float64Array(8);
  corners.forEach((i, k) => {
    start[k * 2] = hull[i * 2]!;
    start[k * 2 + 1] = hull[i * 2 + 1]!;
  });
  const v = polish(q, start, polygon, [1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4], HOPELESS_RMS);
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
  const [meanError, maxError] = errors(p, polygon(flat));
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

// ---------------------------------------------------------------------------------------------
// Stars

function fitStar(p: Float64Array, q: Float64Array, points: number, clockwise: boolean): PrimitiveFit | undefined {
  const [cx, cy] = areaCentroid(p);
  const n = p.length / 2;
  // Polar radius profile: the N-th harmonic's phase puts the tips, its extremes the radii.
  let re = 0;
  let im = 0;
  let rMin = Infinity;
  let rMax = 0;
  let turning = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const x = p[i * 2]! - cx;
    const y = p[i * 2 + 1]! - cy;
    const rho = hypot2(x, y);
    const alpha = Math.atan2(y, x);
    let da = Math.atan2(p[j * 2 + 1]! - cy, p[j * 2]! - cx) - alpha;
    if (da > Math.PI) da -= 2 * Math.PI;
    if (da < -Math.PI) da += 2 * Math.PI;
    turning += da;
    const w = Math.abs(da);
    re += w * rho * Math.cos(points * alpha);
    im += w * rho * Math.sin(points * alpha);
    if (rho < rMin) rMin = rho;
    if (rho > rMax) rMax = rho;
  }
  // A star is seen once around from its centre.
  if (Math.abs(Math.abs(turning) - 2 * Math.PI) > 0.1 || rMax < 3) return undefined;
  const phase = Math.atan2(im, re) / points;
  const star = (v: Float64Array): Distance => polygon(starVertices(v, points));
  const v = polish(q, Float64Array.of(cx, cy, phase, rMax, rMin), star, [1e-4, 1e-4, 1e-6, 1e-4, 1e-4], HOPELESS_RMS);
  const outer = Math.abs(v[3]!);
  const inner = Math.abs(v[4]!);
  // Notches must point inwards: otherwise it is a convex polygon, not a star.
  if (!(inner < 0.9 * outer * Math.cos(Math.PI / points)) || inner < 1) return undefined;
  const verts = starVertices(v, points);
  const [meanError, maxError] = errors(p, polygon(verts));
  const vertices: [number, number][] = [];
  for (let k = 0; k < 2 * points; k++) vertices.push([verts[k * 2]!, verts[k * 2 + 1]!]);
  const rotationDeg = normalizeDeg((v[2]! * 180) / Math.PI, 360 / points);
  // Start at the tip the rotation names.
  const step = (rotationDeg - (v[2]! * 180) / Math.PI) / (360 / points);
  const shift = ((Math.round(step) % points) + points) % points;
  const rotated = [...vertices.slice(2 * shift), ...vertices.slice(0, 2 * shift)];
  return {
    ...emit(polygonNodes(rotated), clockwise),
    primitive: { family: 'star', cx: v[0]!, cy: v[1]!, rotationDeg, points, outerRadius: outer, innerRadius: inner },
    meanError,
    maxError,
  };
}

/** Centre, rotation (first tip), outer and inner radius → 2N vertices, clockwise on screen. */
function starVertices(v: Float64Array, points: number): Float64Array {
  const out = new Float64Array(points * 4);
  for (let k = 0; k < 2 * points; k++) {
    const r = k % 2 === 0 ? Math.abs(v[3]!) : Math.abs(v[4]!);
    const a = v[2]! + (k * Math.PI) / points;
    out[k * 2] = v[0]! + r * Math.cos(a);
    out[k * 2 + 1] = v[1]! + r * Math.sin(a);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Geometry

/**
 * Path node: reached from the previous node by a line (arc = 0) or an arc of radius `arc` — a
 * circular arc, or with `ry` an elliptical one (x radius `arc`, turned by `arcDeg`). Arcs bend
 * the way the loop turns (convex corners) and span less than half a turn.
 */
interface PathNode {
  readonly x: number;
  readonly y: number;
  readonly arc: number;
  readonly ry?: number;
  readonly arcDeg?: number;
}

function polygonNodes(vertices: readonly (readonly [number, number])[]): PathNode[] {
  return vertices.map(([x, y]) => ({ x, y, arc: 0 }));
}

/**
 * Segments of a closed path of nodes, run clockwise on screen (positive shoelace) or the other
 * way, so the chain keeps its direction (and its left and right regions). Zero-length pieces go.
 */
function emit(nodes: readonly PathNode[], clockwise: boolean): { startX: number; startY: number; segments: Segment[] } {
  let area = 0;
  for (let i = 0; i < nodes.length; i++) {
    const a = nodes[i]!;
    const b = nodes[(i + 1) % nodes.length]!;
    area += a.x * b.y - b.x * a.y;
  }
  const sameWay = area > 0 === clockwise;
  const m = nodes.length;
  // Walk: each step goes from node `from` to node `to` by the piece stored on the node reached.
  const order: PathNode[] = [];
  if (sameWay) for (let i = 0; i < m; i++) order.push(nodes[i]!);
  else {
    // Reversed: node i is reached from node i+1 by the piece node i+1 was reached with.
    for (let i = 0; i < m; i++) {
      const at = nodes[(m - i) % m]!;
      const via = nodes[(m - i + 1) % m]!;
      order.push({ ...via, x: at.x, y: at.y });
    }
  }
  const sweep = clockwise;
  const start = order[0]!;
  const segments: Segment[] = [];
  let x = start.x;
  let y = start.y;
  for (let i = 1; i <= m; i++) {
    const node = order[i % m]!;
    if (hypot2(node.x - x, node.y - y) < 1e-9) continue;
    if (node.arc > 0) segments.push({ kind: 'arc', rx: node.arc, ry: node.ry ?? node.arc, rotationDeg: node.arcDeg ?? 0, largeArc: false, sweep, x: node.x, y: node.y });
    else segments.push({ kind: 'line', x: node.x, y: node.y });
    x = node.x;
    y = node.y;
  }
  // The closing piece must end exactly on the start.
  const last = segments[segments.length - 1];
  if (last && (last.x !== start.x || last.y !== start.y)) segments[segments.length - 1] = { ...last, x: start.x, y: start.y };
  return { startX: start.x, startY: start.y, segments };
}

/** Signed distance from a point to a primitive's outline (negative inside). */
type Distance = (x: number, y: number) => number;

/** Signed distance (negative inside, even-odd) to a closed polygon (x, y pairs). */
function polygon(v: Float64Array): Distance {
  return (x, y) => polygonDistance(v, x, y);
}

function polygonDistance(v: Float64Array, x: number, y: number): number {
  const m = v.length / 2;
  let best = Infinity;
  let inside = false;
  for (let i = 0, j = m - 1; i < m; j = i++) {
    const ax = v[j * 2]!;
    const ay = v[j * 2 + 1]!;
    const bx = v[i * 2]!;
    const by = v[i * 2 + 1]!;
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 < 1e-18 ? 0 : Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / len2));
    const ex = x - ax - t * dx;
    const ey = y - ay - t * dy;
    const d2 = ex * ex + ey * ey;
    if (d2 < best) best = d2;
    if (ay > y !== by > y && x < ax + ((y - ay) * dx) / dy) inside = !inside;
  }
  const d = Math.sqrt(best);
  return inside ? -d : d;
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

/** Mean and largest |distance| of all samples. */
function errors(p: Float64Array, distance: Distance): [number, number] {
  const n = p.length / 2;
  let sum = 0;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(distance(p[i * 2]!, p[i * 2 + 1]!));
    sum += d;
    if (d > worst) worst = d;
  }
  return [sum / n, worst];
}

/** Twice the signed area (shoelace; positive = clockwise on screen, y down). */
function shoelace(p: Float64Array): number {
  const n = p.length / 2;
  let s = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) s += p[j * 2]! * p[i * 2 + 1]! - p[i * 2]! * p[j * 2 + 1]!;
  return s / 2;
}

function areaCentroid(p: Float64Array): [number, number] {
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
function convexHull(p: Float64Array): Float64Array {
  const n = p.length / 2;
  const idx: number[] = [];
  for (let i = 0; i < n; i++) idx.push(i);
  hullPoints = p;
  try {
    idx.sort(byXThenY);
  } finally {
    hullPoints = EMPTY_POINTS;
  }
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

// convexHull's sort order as a module function reading the points from a variable set for one
// synchronous sort: an inline comparator is a new closure per call, which V8 recompiles per picture.
const EMPTY_POINTS = new Float64Array(0);
let hullPoints: Float64Array = EMPTY_POINTS;

function byXThenY(a: number, b: number): number {
  const p = hullPoints;
  return p[a * 2]! - p[b * 2]! || p[a * 2 + 1]! - p[b * 2 + 1]! || a - b;
}

/** Cross product of (a − o) and (b − o) for samples o, a, b. */
function hullCross(p: Float64Array, o: number, a: number, b: number): number {
  return (p[a * 2]! - p[o * 2]!) * (p[b * 2 + 1]! - p[o * 2 + 1]!) - (p[a * 2 + 1]! - p[o * 2 + 1]!) * (p[b * 2]! - p[o * 2]!);
}

/** Every k-th sample so that at most `max` remain. */
function strided(p: Float64Array, max: number): Float64Array {
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

function normalizeDeg(deg: number, period: number): number {
  const d = ((deg % period) + period) % period;
  return d >= period - 1e-9 ? 0 : d;
}

/**
 * Levenberg–Marquardt on the signed distances of the samples: minimises Σ d(v; pᵢ)² over the
 * parameters v, forward-difference Jacobian with the given steps. Returns the polished v.
 */
function polish(p: Float64Array, start: Float64Array, model: (v: Float64Array) => Distance, steps: readonly number[], hopelessRms = Infinity): Float64Array {
  const n = p.length / 2;
  const k = start.length;
  let v = start.slice();
  const res = new Float64Array(n);
  const trial = new Float64Array(n);
  const jac = new Float64Array(n * k);
  const eval_ = (params: Float64Array, out: Float64Array): number => {
    const distance = model(params);
    let cost = 0;
    for (let i = 0; i < n; i++) {
      const d = distance(p[i * 2]!, p[i * 2 + 1]!);
      out[i] = d;
      cost += d * d;
    }
    return cost;
  };
  let cost = eval_(v, res);
  let lambda = 1e-3;
  const a = new Float64Array(k * k);
  const g = new Float64Array(k);
  for (let iter = 0; iter < 40; iter++) {
    // Far off after a few rounds: no primitive of this kind (saves the full polish on blobs).
    if (iter === 8 && Math.sqrt(cost / n) > hopelessRms) return v;
    for (let j = 0; j < k; j++) {
      const shifted = v.slice();
      shifted[j] = shifted[j]! + steps[j]!;
      const distance = model(shifted);
      for (let i = 0; i < n; i++) jac[i * k + j] = (distance(p[i * 2]!, p[i * 2 + 1]!) - res[i]!) / steps[j]!;
    }
    a.fill(0);
    g.fill(0);
    for (let i = 0; i < n; i++) {
      for (let r = 0; r < k; r++) {
        const jr = jac[i * k + r]!;
        g[r] = g[r]! + jr * res[i]!;
        for (let c = r; c < k; c++) a[r * k + c] = a[r * k + c]! + jr * jac[i * k + c]!;
      }
    }
    for (let r = 0; r < k; r++) for (let c = 0; c < r; c++) a[r * k + c] = a[c * k + r]!;
    let improved = false;
    while (lambda < 1e10) {
      const m = a.slice();
      for (let r = 0; r < k; r++) m[r * k + r] = m[r * k + r]! * (1 + lambda) + 1e-12;
      const delta = solve(m, g, k);
      if (!delta) {
        lambda *= 10;
        continue;
      }
      const next = v.slice();
      for (let r = 0; r < k; r++) next[r] = next[r]! - delta[r]!;
      const nextCost = eval_(next, trial);
      if (nextCost < cost) {
        const gain = cost - nextCost;
        v = next;
        res.set(trial);
        cost = nextCost;
        lambda = Math.max(1e-7, lambda / 3);
        improved = gain > 1e-10 * (cost + 1e-12);
        break;
      }
      lambda *= 4;
    }
    if (!improved) break;
  }
  return v;
}

/** Solves m·x = b (k×k, Gaussian elimination with partial pivoting); undefined if singular. */
function solve(m: Float64Array, b: Float64Array, k: number): Float64Array | undefined {
  const a = m.slice();
  const x = b.slice();
  for (let col = 0; col < k; col++) {
    let pivot = col;
    for (let r = col + 1; r < k; r++) if (Math.abs(a[r * k + col]!) > Math.abs(a[pivot * k + col]!)) pivot = r;
    if (Math.abs(a[pivot * k + col]!) < 1e-15) return undefined;
    if (pivot !== col) {
      for (let c = 0; c < k; c++) {
        const t = a[col * k + c]!;
        a[col * k + c] = a[pivot * k + c]!;
        a[pivot * k + c] = t;
      }
      const t = x[col]!;
      x[col] = x[pivot]!;
      x[pivot] = t;
    }
    for (let r = col + 1; r < k; r++) {
      const f = a[r * k + col]! / a[col * k + col]!;
      if (f === 0) continue;
      for (let c = col; c < k; c++) a[r * k + c] = a[r * k + c]! - f * a[col * k + c]!;
      x[r] = x[r]! - f * x[col]!;
    }
  }
  for (let r = k - 1; r >= 0; r--) {
    let s = x[r]!;
    for (let c = r + 1; c < k; c++) s -= a[r * k + c]! * x[c]!;
    x[r] = s / a[r * k + r]!;
  }
  return x;
}
