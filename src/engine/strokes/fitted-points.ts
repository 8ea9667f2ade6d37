/**
 * A fitted chain as a polyline (tracelab.strokes=auto's render check of the curves written).
 * In: a start point and fitted segments (lines, quadratic and cubic Béziers, SVG arcs).
 * Out: x, y pairs from the start, a curve cut into chords of at most CHORD_PX (a stroke drawn
 * along the chords is where the curve's is, to a few hundredths of a pixel).
 * Arcs are sampled about their centre (SVG's endpoint to centre conversion, with its rotation).
 */
import { SEGMENT_CUBIC, SEGMENT_LINE, SEGMENT_QUAD, type SegmentPath } from '../segment-path.js';

/** A curve is cut into chords this long at most (its control polygon's or its ellipse's length over it): within 0.02 px of a 10-px radius. */
const CHORD_PX = 1.5;
const MAX_STEPS = 512;

export function fittedPoints(startX: number, startY: number, path: SegmentPath): Float64Array {
  const out: number[] = [startX, startY];
  let x0 = startX;
  let y0 = startY;
  for (let k = 0; k < path.length; k++) {
    const x = path.x(k);
    const y = path.y(k);
    const code = path.code(k);
    const steps = code === SEGMENT_LINE ? 1 : curveSteps(path, k, x0, y0);
    for (let i = 1; i < steps; i++) {
      const t = i / steps;
      const u = 1 - t;
      if (code === SEGMENT_QUAD) out.push(u * u * x0 + 2 * u * t * path.cx(k) + t * t * x, u * u * y0 + 2 * u * t * path.cy(k) + t * t * y);
      else if (code === SEGMENT_CUBIC) {
        const a = u * u * u;
        const b = 3 * u * u * t;
        const c = 3 * u * t * t;
        const d = t * t * t;
        out.push(a * x0 + b * path.c1x(k) + c * path.c2x(k) + d * x, a * y0 + b * path.c1y(k) + c * path.c2y(k) + d * y);
      } else arcPoint(out, path, k, x0, y0, t);
    }
    out.push(x, y);
    x0 = x;
    y0 = y;
  }
  return Float64Array.from(out);
}

/** Chords for curve k from (x0, y0): its control polygon's length (a Bézier's bound), an arc's whole ellipse's, over CHORD_PX. */
function curveSteps(path: SegmentPath, k: number, x0: number, y0: number): number {
  const x = path.x(k);
  const y = path.y(k);
  let length: number;
  const code = path.code(k);
  if (code === SEGMENT_QUAD) length = Math.hypot(path.cx(k) - x0, path.cy(k) - y0) + Math.hypot(x - path.cx(k), y - path.cy(k));
  else if (code === SEGMENT_CUBIC) length = Math.hypot(path.c1x(k) - x0, path.c1y(k) - y0) + Math.hypot(path.c2x(k) - path.c1x(k), path.c2y(k) - path.c1y(k)) + Math.hypot(x - path.c2x(k), y - path.c2y(k));
  else length = 2 * Math.PI * Math.max(Math.abs(path.rx(k)), Math.abs(path.ry(k)), Math.hypot(x - x0, y - y0) / 2);
  return Math.min(MAX_STEPS, Math.max(2, Math.ceil(length / CHORD_PX)));
}

/** The point at parameter t of arc k from (x0, y0) (SVG's endpoint to centre conversion), pushed to `out`. */
function arcPoint(out: number[], path: SegmentPath, k: number, x0: number, y0: number, t: number): void {
  const phi = (path.rotationDeg(k) * Math.PI) / 180;
  const cos = Math.cos(phi);
  const sin = Math.sin(phi);
  const hx = (x0 - path.x(k)) / 2;
  const hy = (y0 - path.y(k)) / 2;
  const px = cos * hx + sin * hy;
  const py = -sin * hx + cos * hy;
  let rx = Math.abs(path.rx(k));
  let ry = Math.abs(path.ry(k));
  const grow = Math.sqrt((px * px) / (rx * rx) + (py * py) / (ry * ry));
  if (grow > 1) {
    rx *= grow;
    ry *= grow;
  }
  const num = rx * rx * ry * ry - rx * rx * py * py - ry * ry * px * px;
  const den = rx * rx * py * py + ry * ry * px * px;
  const coef = (path.largeArc(k) === path.sweep(k) ? -1 : 1) * Math.sqrt(Math.max(0, num / Math.max(1e-12, den)));
  const cx = (coef * rx * py) / ry;
  const cy = (-coef * ry * px) / rx;
  const start = Math.atan2((py - cy) / ry, (px - cx) / rx);
  let delta = Math.atan2((-py - cy) / ry, (-px - cx) / rx) - start;
  if (path.sweep(k) && delta < 0) delta += 2 * Math.PI;
  if (!path.sweep(k) && delta > 0) delta -= 2 * Math.PI;
  const a = start + t * delta;
  const ex = rx * Math.cos(a);
  const ey = ry * Math.sin(a);
  out.push(cos * cx - sin * cy + (x0 + path.x(k)) / 2 + cos * ex - sin * ey, sin * cx + cos * cy + (y0 + path.y(k)) / 2 + sin * ex + cos * ey);
}
