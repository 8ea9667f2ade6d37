/**
 * Bullets, "D" shapes (processing.parameterizedShapes.quadrilateral.bullet): a straight side, a
 * straight body of length ≥ 0 and a half-ellipse back.
 * In: the loop's samples (all, and the polish's share), its minimum-area box (geometry.ts), its
 * area and direction. Out: the bullet (centre, rotation of its axis, width, height, depth of the
 * back) with its path (the back as two elliptical quarter arcs) and errors, or undefined.
 * Method: the area centroid leans towards the straight side (the round back holds less area than
 * the box around it), which picks the box side; samples along it must cover half the breadth, so
 * round loops stop before any fit. The area the box misses, (2 − π/2)·depth·half breadth, starts
 * the depth. Levenberg–Marquardt polishes the six parameters on the signed distance to the bullet
 * (to the back by Newton on the closest-point equation of the ellipse); a body under a pixel is
 * refitted as a pure "D". The back must bulge by at least a quarter of its half breadth: a
 * flatter one fits the rectangle or is no "D".
 */
import { hypot2 } from '../length.js';
import { areaCentroid, errors, normalizeDeg, type Box } from './geometry.js';
import { emit, type PathNode, type PrimitiveFit } from './path.js';
import { HOPELESS_RMS, polish, type PolishScratch } from './solver.js';

/** Smallest depth of a bullet's round back, as a share of its half breadth. */
const MIN_BULLET_DEPTH = 0.25;
/** Share of the breadth the samples along the straight side must cover before any fit. */
const MIN_BULLET_STRAIGHT = 0.5;
/** Fitted straight bodies shorter than this (px) are a pure "D": refitted without a body. */
const MIN_BULLET_BODY = 1;

export function fitBullet(scratch: PolishScratch, p: Float64Array, q: Float64Array, box: Box | undefined, area: number, clockwise: boolean): PrimitiveFit | undefined {
  if (!box) return undefined;
  const [, , , w, h] = box;
  if (!(w > 0 && h > 0)) return undefined;
  const side = straightSide(p, box);
  // Round loops touch the box side in one place and stop here, before the (costly) polish.
  if (!coversStraightSide(p, side)) return undefined;
  const v = polishBullet(scratch, q, side, area);
  const b = Math.abs(v[3]!);
  const depth = Math.abs(v[5]!);
  if (b < 2 || depth < MIN_BULLET_DEPTH * b) return undefined;
  // On v itself: bulletDistances takes the absolute values b, body and depth are.
  const [meanError, maxError] = errors(scratch, p, bulletModel, v);
  return { ...bulletPath(v, clockwise), meanError, maxError };
}

/** A first guess of the bullet's straight side: its middle (fx, fy), the axis angle theta away from it, the length along it and the half breadth. */
interface StraightSide {
  readonly fx: number;
  readonly fy: number;
  readonly theta: number;
  readonly length: number;
  readonly half: number;
}

/**
 * The straight side is where the area centroid leans: the round back holds less area than the
 * box around it. Along the box axis with the larger (relative) lean.
 */
function straightSide(p: Float64Array, box: Box): StraightSide {
  const [bx, by, angle, w, h] = box;
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
  return { fx: bx - (length / 2) * Math.cos(theta), fy: by - (length / 2) * Math.sin(theta), theta, length, half };
}

/** Whether the samples within a pixel or so of the straight side cover most of the breadth (MIN_BULLET_STRAIGHT). */
function coversStraightSide(p: Float64Array, side: StraightSide): boolean {
  const { fx, fy, theta, length, half } = side;
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
  return hi - lo >= MIN_BULLET_STRAIGHT * 2 * half;
}

/**
 * The bullet polished from the straight side's guess, v = straight side's middle x, y, rotation,
 * half breadth, body, depth; a body under MIN_BULLET_BODY is refitted as a pure "D".
 */
function polishBullet(scratch: PolishScratch, q: Float64Array, side: StraightSide, area: number): Float64Array {
  const { fx, fy, theta, length, half } = side;
  // Box area minus the shape's: a half-ellipse back of depth e misses (2 − π/2)·e·half.
  const depth0 = Math.min(length, Math.max(MIN_BULLET_DEPTH * half, (2 * half * length - area) / (half * (2 - Math.PI / 2))));
  const v = polish(scratch, q, Float64Array.of(fx, fy, theta, half, length - depth0, depth0), bulletModel, BULLET_STEPS, HOPELESS_RMS);
  if (Math.abs(v[4]!) >= MIN_BULLET_BODY) return v;
  // No straight body: a pure "D" gets exactly its straight side and its back.
  const s = polish(scratch, q, Float64Array.of(v[0]!, v[1]!, v[2]!, v[3]!, v[5]!), pureBulletModel, PURE_BULLET_STEPS);
  return Float64Array.of(s[0]!, s[1]!, s[2]!, s[3]!, 0, s[4]!);
}

/** The polished bullet v as a path (straight side, body, half-ellipse back) and its primitive. */
function bulletPath(v: Float64Array, clockwise: boolean): Omit<PrimitiveFit, 'meanError' | 'maxError'> {
  const b = Math.abs(v[3]!);
  const body = Math.abs(v[4]!);
  const depth = Math.abs(v[5]!);
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
  };
}

/** Finite-difference steps of the polish: straight side's middle, rotation (radians), half breadth, body, depth. */
const BULLET_STEPS = [1e-4, 1e-4, 1e-6, 1e-4, 1e-4, 1e-4];
const PURE_BULLET_STEPS = [1e-4, 1e-4, 1e-6, 1e-4, 1e-4];

/** The bullet's model (solver.ts): v = straight side's middle x, y, rotation, half breadth, body, depth. */
function bulletModel(v: Float64Array, p: Float64Array, out: Float64Array): void {
  bulletDistances(v[0]!, v[1]!, v[2]!, v[3]!, v[4]!, v[5]!, p, out);
}

/** The pure "D"'s model: v = straight side's middle x, y, rotation, half breadth, depth (no body). */
function pureBulletModel(v: Float64Array, p: Float64Array, out: Float64Array): void {
  bulletDistances(v[0]!, v[1]!, v[2]!, v[3]!, 0, v[4]!, p, out);
}

/**
 * Signed distance of every sample p (x, y pairs) to a bullet, written to out: straight side of
 * half length b centred on (fx, fy), a body of length `body` along `angle`, then a half-ellipse
 * back (semi-axes depth along the axis, b across). Union of the body box and the back's whole
 * ellipse, cut behind the straight side.
 *
 * The distance to the ellipse x²/a² + y²/b² = 1 (a = depth) is worked out in the loop rather than
 * by a function, since V8 does not inline that Newton solve and a call boxed its arguments and
 * result, per sample. The closest point (x0, y0) = (a²x/(t + a²), b²y/(t + b²)) for the one root t
 * of F(t) = (ax/(t + a²))² + (by/(t + b²))² − 1 above −min(a, b)²; F falls and is convex there,
 * so Newton from a start left of the root climbs to it without overshooting.
 */
function bulletDistances(fx: number, fy: number, angle: number, b: number, body: number, depth: number, p: Float64Array, out: Float64Array): void {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  b = Math.abs(b);
  body = Math.abs(body);
  depth = Math.abs(depth);
  // Two passes over the samples, each loop in a function of its own: the body box, then the back.
  boxDistances(fx, fy, cos, sin, b, body, p, out);
  withBackDistances(fx, fy, cos, sin, b, body, depth, p, out);
}

/**
 * Signed distance of every sample to the bullet's body box (straight side of half length b at
 * (fx, fy), `body` long along (cos, sin)) into out.
 */
function boxDistances(fx: number, fy: number, cos: number, sin: number, b: number, body: number, p: Float64Array, out: Float64Array): void {
  const n = p.length / 2;
  for (let i = 0; i < n; i++) {
    const dx = p[i * 2]! - fx;
    const dy = p[i * 2 + 1]! - fy;
    const u = dx * cos + dy * sin;
    const v = -dx * sin + dy * cos;
    const qx = Math.abs(u - body / 2) - body / 2;
    const qy = Math.abs(v) - b;
    out[i] = hypot2(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0);
  }
}

/**
 * out (the box distances) made the bullet's: the union of the box and the back's whole ellipse
 * (semi-axes depth along the axis, b across, centred at the body's end), cut behind the straight side.
 * In the two rare branches (a flat back, a sample on the major axis) sqrt(x² + y²) is written out
 * rather than called as hypot2: a call there is not inlined, and its boxed result made back and d
 * tagged values for every sample (a heap number per sample, ~3 MB a warm pass over clip art).
 */
function withBackDistances(fx: number, fy: number, cos: number, sin: number, b: number, body: number, depth: number, p: Float64Array, out: Float64Array): void {
  // The ellipse is worked on in the first quadrant with semi-axes e0 ≥ e1 (a sample's
  // coordinates: y0 along e0, y1 along e1).
  const swap = depth < b;
  const e0 = swap ? b : depth;
  const e1 = swap ? depth : b;
  const n = p.length / 2;
  for (let i = 0; i < n; i++) {
    const dx = p[i * 2]! - fx;
    const dy = p[i * 2 + 1]! - fy;
    const u = dx * cos + dy * sin;
    const v = -dx * sin + dy * cos;
    const box = out[i]!;
    // Behind the back's ellipse, its distance is at least the gap to it: the box decides (saves
    // the Newton solve for most of a long body's samples).
    const gap = body - depth - u;
    let back = gap;
    if (!(gap >= box)) {
      const y0 = swap ? Math.abs(v) : Math.abs(u - body);
      const y1 = swap ? Math.abs(u - body) : Math.abs(v);
      if (!(e1 > 1e-9)) {
        const x = Math.max(0, y0 - e0);
        back = Math.sqrt(x * x + y1 * y1);
      } else {
        const inside = (y0 / e0) ** 2 + (y1 / e1) ** 2 < 1;
        let d: number;
        if (y1 > 1e-9 * e0) {
          if (y0 > 1e-9 * e0) {
            const a2 = e0 * e0;
            const b2 = e1 * e1;
            // F ≥ 0 at both starts (one of its terms alone is 1 there); take the nearer to the root.
            let t = -b2 + e1 * y1;
            t = Math.max(t, -a2 + e0 * y0);
            for (let step = 0; step < 40; step++) {
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
            const across = e1 * Math.sqrt(Math.max(0, 1 - (x0 / e0) ** 2));
            d = Math.sqrt((x0 - y0) * (x0 - y0) + across * across);
          } else d = Math.abs(y0 - e0);
        }
        back = inside ? -d : d;
      }
    }
    out[i] = Math.max(Math.min(box, back), -u);
  }
}
