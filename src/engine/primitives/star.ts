/**
 * Stars of 3 to 6 points (processing.parameterizedShapes.star.*).
 * In: the loop's samples (all, and the polish's share), the number of points and the loop's
 * direction. Out: the star (centre, rotation of the first tip, outer and inner radius) with its
 * 2N-gon path and errors, or undefined. Before any fit, starTips tells how many tips the loop
 * seems to have (0: none, so no star is fitted).
 * Method: starTips counts the peaks of the smoothed distance from the vertex centroid, cheaply
 * (most notched loops are no stars). fitStar takes the area centroid, the N-th harmonic of the
 * polar radius profile for the rotation and its extremes for the outer and inner radius, and
 * polishes the five by Levenberg–Marquardt on the distance to the 2N-gon. The notches must point
 * inwards: otherwise it is a convex polygon.
 */
import { hypot2 } from '../length.js';
import { areaCentroid, errors, normalizeDeg, polygonDistances } from './geometry.js';
import { emit, polygonNodes, type PrimitiveFit } from './path.js';
import { HOPELESS_RMS, polish, type Distances, type PolishScratch } from './solver.js';

/**
 * The number of tips (3–6) when the outline's distance from its vertex centroid, smoothed over a
 * few samples, rises to that many peaks of similar height (the highest at most 1.5 × the lowest)
 * between valleys well
 * below them (under 85 % of the lowest peak); else 0.
 */
export function starTips(p: Float64Array): number {
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

export function fitStar(scratch: PolishScratch, p: Float64Array, q: Float64Array, points: number, clockwise: boolean): PrimitiveFit | undefined {
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
  const v = polish(scratch, q, Float64Array.of(cx, cy, phase, rMax, rMin), STAR_MODELS[points]!, STAR_STEPS, HOPELESS_RMS);
  const outer = Math.abs(v[3]!);
  const inner = Math.abs(v[4]!);
  // Notches must point inwards: otherwise it is a convex polygon, not a star.
  if (!(inner < 0.9 * outer * Math.cos(Math.PI / points)) || inner < 1) return undefined;
  const verts = starVertices(v, points, new Float64Array(points * 4));
  const [meanError, maxError] = errors(scratch, p, polygonDistances, verts);
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

/** Finite-difference steps of the polish: centre, rotation (radians), outer and inner radius. */
const STAR_STEPS = [1e-4, 1e-4, 1e-6, 1e-4, 1e-4];

/**
 * The star's model (solver.ts) for N points: v = centre x, y, rotation, outer and inner radius;
 * the distance to its 2N-gon, whose vertices it rewrites in the scratch's polygon for every v.
 */
function starModel(points: number): Distances {
  return (v, p, out, scratch) => polygonDistances(starVertices(v, points, scratch.polygon(2 * points)), p, out, scratch);
}

/** The star models by number of points (3–6), made once (they keep no state: the vertices are the scratch's). */
const STAR_MODELS: readonly (Distances | undefined)[] = [undefined, undefined, undefined, starModel(3), starModel(4), starModel(5), starModel(6)];

/** Centre, rotation (first tip), outer and inner radius → 2N vertices, clockwise on screen, in out. */
function starVertices(v: Float64Array, points: number, out: Float64Array): Float64Array {
  for (let k = 0; k < 2 * points; k++) {
    const r = k % 2 === 0 ? Math.abs(v[3]!) : Math.abs(v[4]!);
    const a = v[2]! + (k * Math.PI) / points;
    out[k * 2] = v[0]! + r * Math.cos(a);
    out[k * 2 + 1] = v[1]! + r * Math.sin(a);
  }
  return out;
}
