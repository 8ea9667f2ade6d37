/**
 * Curve flattening for the rasteriser.
 * In: a start point and fitted segments (lines, quadratic/cubic Béziers, SVG elliptical arcs).
 * Out: a polyline as a Float64Array of x,y pairs, starting with the start point and ending
 * exactly on the last segment's end point.
 * Accuracy: every curve is split into enough uniform parameter steps that the polyline stays
 * within `tolerancePx` of the curve: for a Bézier of degree d, |B''(t)| ≤ d(d−1)·max|Δ²P| (the
 * control polygon's second differences), and a chord over a parameter step h deviates at most
 * h²/8·max|B''|, so n = ⌈√(d(d−1)·max|Δ²P| / (8·tol))⌉. Arcs use angle steps whose sagitta
 * R(1−cos(δ/2)) ≤ tol, R the larger radius.
 * Plain doubles only, no randomness: the same input gives the same points everywhere.
 */
import { SEGMENT_ARC, SEGMENT_CUBIC, SEGMENT_LINE, SEGMENT_QUAD, SegmentPath } from '../engine/segment-path.js';
import type { Segment } from '../engine/types.js';
import { hypot2 } from '../engine/length.js';

/** Most pieces one curve is split into (keeps memory bounded for absurd inputs). */
const MAX_STEPS = 4096;

/** A growable list of doubles. */
class PointList {
  data = new Float64Array(64);
  length = 0;

  push(x: number, y: number): void {
    if (this.length + 2 > this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
    this.data[this.length++] = y;
  }

  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

export function flattenSegments(startX: number, startY: number, segments: readonly Segment[], tolerancePx: number): Float64Array {
  return flattenPath(startX, startY, SegmentPath.of(segments), tolerancePx);
}

/**
 * flattenSegments for a typed path, read in place: segments from … to − 1 (all by default), from
 * (startX, startY), where segment `from − 1` ended.
 */
export function flattenPath(startX: number, startY: number, path: SegmentPath, tolerancePx: number, from = 0, to = path.length): Float64Array {
  const tol = tolerancePx > 0 ? tolerancePx : 0.1;
  const out = new PointList();
  out.push(startX, startY);
  let x0 = startX;
  let y0 = startY;
  for (let k = from; k < to; k++) {
    const x = path.x(k);
    const y = path.y(k);
    switch (path.code(k)) {
      case SEGMENT_LINE:
        out.push(x, y);
        break;
      case SEGMENT_QUAD: {
        const cx = path.cx(k);
        const cy = path.cy(k);
        const ddx = x0 - 2 * cx + x;
        const ddy = y0 - 2 * cy + y;
        const n = steps(hypot2(ddx, ddy) * 2, tol);
        for (let i = 1; i < n; i++) {
          const t = i / n;
          const u = 1 - t;
          out.push(u * u * x0 + 2 * u * t * cx + t * t * x, u * u * y0 + 2 * u * t * cy + t * t * y);
        }
        out.push(x, y);
        break;
      }
      case SEGMENT_CUBIC: {
        const c1x = path.c1x(k);
        const c1y = path.c1y(k);
        const c2x = path.c2x(k);
        const c2y = path.c2y(k);
        const d1 = hypot2(x0 - 2 * c1x + c2x, y0 - 2 * c1y + c2y);
        const d2 = hypot2(c1x - 2 * c2x + x, c1y - 2 * c2y + y);
        const n = steps(Math.max(d1, d2) * 6, tol);
        for (let i = 1; i < n; i++) {
          const t = i / n;
          const u = 1 - t;
          const a = u * u * u;
          const b = 3 * u * u * t;
          const c = 3 * u * t * t;
          const d = t * t * t;
          out.push(a * x0 + b * c1x + c * c2x + d * x, a * y0 + b * c1y + c * c2y + d * y);
        }
        out.push(x, y);
        break;
      }
      case SEGMENT_ARC:
        flattenArc(out, x0, y0, path.rx(k), path.ry(k), path.rotationDeg(k), path.largeArc(k), path.sweep(k), x, y, tol);
        break;
    }
    x0 = x;
    y0 = y;
  }
  return out.toArray();
}

/** Uniform steps for a curve whose second derivative is bounded by `maxSecond`. */
function steps(maxSecond: number, tol: number): number {
  const n = Math.ceil(Math.sqrt(maxSecond / (8 * tol)));
  return Math.min(MAX_STEPS, Math.max(1, n));
}

/** An SVG endpoint arc in centre form (after the radius correction), angles in radians. */
export interface ArcCenter {
  readonly cx: number;
  readonly cy: number;
  readonly rx: number;
  readonly ry: number;
  /** Rotation of the x radius from the x axis. */
  readonly phi: number;
  readonly theta1: number;
  /** Signed sweep: positive = increasing angle (clockwise on a y-down page). */
  readonly delta: number;
}

/**
 * Endpoint → centre parameterisation (SVG 1.1 appendix F.6.5–F.6.6). Radii too small for the
 * chord are scaled up to just fit. Undefined for a degenerate arc (equal end points, or a zero or
 * non-finite radius), which renderers draw as nothing or as a line.
 */
export function arcCenter(
  x1: number,
  y1: number,
  rxIn: number,
  ryIn: number,
  rotationDeg: number,
  largeArc: boolean,
  sweep: boolean,
  x2: number,
  y2: number,
): ArcCenter | undefined {
  if (x1 === x2 && y1 === y2) return undefined;
  let rx = Math.abs(rxIn);
  let ry = Math.abs(ryIn);
  if (rx === 0 || ry === 0 || !Number.isFinite(rx) || !Number.isFinite(ry)) return undefined;
  const phi = ((rotationDeg % 360) * Math.PI) / 180;
  const cos = Math.cos(phi);
  const sin = Math.sin(phi);
  // F.6.5.1: the midpoint-relative start point in the ellipse's axes.
  const hx = (x1 - x2) / 2;
  const hy = (y1 - y2) / 2;
  const x1p = cos * hx + sin * hy;
  const y1p = -sin * hx + cos * hy;
  // F.6.6.2: scale radii up when the ellipse cannot reach both points.
  const lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry);
  if (lambda > 1) {
    const k = Math.sqrt(lambda);
    rx *= k;
    ry *= k;
  }
  // F.6.5.2: centre in the rotated frame.
  const rx2 = rx * rx;
  const ry2 = ry * ry;
  const den = rx2 * y1p * y1p + ry2 * x1p * x1p;
  const num = rx2 * ry2 - den;
  let coef = den > 0 && num > 0 ? Math.sqrt(num / den) : 0;
  if (largeArc === sweep) coef = -coef;
  const cxp = (coef * rx * y1p) / ry;
  const cyp = (-coef * ry * x1p) / rx;
  // F.6.5.3: centre in user space.
  const cx = cos * cxp - sin * cyp + (x1 + x2) / 2;
  const cy = sin * cxp + cos * cyp + (y1 + y2) / 2;
  // F.6.5.5–6: start angle and sweep.
  const ux = (x1p - cxp) / rx;
  const uy = (y1p - cyp) / ry;
  const vx = (-x1p - cxp) / rx;
  const vy = (-y1p - cyp) / ry;
  const theta1 = Math.atan2(uy, ux);
  let delta = Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  if (!sweep && delta > 0) delta -= 2 * Math.PI;
  else if (sweep && delta < 0) delta += 2 * Math.PI;
  return { cx, cy, rx, ry, phi, theta1, delta };
}

/** The point at angle `theta` of an arc's ellipse. */
export function arcPoint(a: ArcCenter, theta: number): [number, number] {
  const ex = a.rx * Math.cos(theta);
  const ey = a.ry * Math.sin(theta);
  const cos = Math.cos(a.phi);
  const sin = Math.sin(a.phi);
  return [a.cx + cos * ex - sin * ey, a.cy + sin * ex + cos * ey];
}

/** Appends the points of an SVG endpoint arc after (x1, y1), ending exactly on (x2, y2). */
function flattenArc(
  out: PointList,
  x1: number,
  y1: number,
  rxIn: number,
  ryIn: number,
  rotationDeg: number,
  largeArc: boolean,
  sweep: boolean,
  x2: number,
  y2: number,
  tol: number,
): void {
  if (x1 === x2 && y1 === y2) return;
  const a = arcCenter(x1, y1, rxIn, ryIn, rotationDeg, largeArc, sweep, x2, y2);
  if (!a) {
    out.push(x2, y2);
    return;
  }
  const r = Math.max(a.rx, a.ry);
  // Angle step whose chord sagitta r(1 − cos(δ/2)) is at most tol.
  const step = tol >= r ? Math.PI / 2 : Math.min(Math.PI / 2, 2 * Math.acos(1 - tol / r));
  const n = Math.min(MAX_STEPS, Math.max(1, Math.ceil(Math.abs(a.delta) / step)));
  for (let i = 1; i < n; i++) {
    const [x, y] = arcPoint(a, a.theta1 + (a.delta * i) / n);
    out.push(x, y);
  }
  out.push(x2, y2);
}

/** Bounding box [minX, minY, maxX, maxY] of x,y pairs. */
export function polylineBounds(points: Float64Array): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < points.length; i += 2) {
    const x = points[i]!;
    const y = points[i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}
