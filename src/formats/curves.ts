/**
 * Curve restriction: the reference §3.8 fallback chain, applied once per chain so both shapes
 * that share a boundary still land on identical points.
 * In: fitted chains, the curve kinds a format × the user's options allow, a line-fit tolerance.
 * Out: chains using only allowed kinds.
 *   quadratic → cubic (exact degree elevation) → circular arcs (fitted through the curve, split
 *               until within tolerance) → lines
 *   cubic     → lines
 *   circular  → elliptical arc (same data) → cubics (≤ 90° pieces, k = 4/3·tan(Δ/4)) → lines
 *   elliptical→ cubics → lines
 * Lines replace curves by flattening within the tolerance (src/formats/flatten.ts).
 * Also: segment reversal and affine transforms shared by every writer. appendWalked writes a
 * chain's typed path (reversed and/or mapped onto the page) into a SegmentBuilder, number by
 * number; reverseSegments and transformSegment are the same rules on Segment objects. The curve
 * conversions writers call on the way (elevateQuad, arcToCubics) write their pieces into a
 * PieceSink, so no Segment object is made for them either.
 */
import { SEGMENT_ARC, SEGMENT_CUBIC, SEGMENT_LINE, SEGMENT_QUAD, SegmentPath, SegmentBuilder } from '../engine/segment-path.js';
import type { Chain, Segment } from '../engine/types.js';
import { arcCenter, arcPoint, flattenSegments } from './flatten.js';
import { hypot2 } from '../engine/length.js';

export interface AllowedCurves {
  readonly quadratic: boolean;
  readonly cubic: boolean;
  readonly circularArc: boolean;
  readonly ellipticalArc: boolean;
}

export const ALL_CURVES: AllowedCurves = { quadratic: true, cubic: true, circularArc: true, ellipticalArc: true };
export const LINES_AND_CUBICS: AllowedCurves = { quadratic: false, cubic: true, circularArc: false, ellipticalArc: false };

export function intersectCurves(a: AllowedCurves, b: AllowedCurves): AllowedCurves {
  return {
    quadratic: a.quadratic && b.quadratic,
    cubic: a.cubic && b.cubic,
    circularArc: a.circularArc && b.circularArc,
    ellipticalArc: a.ellipticalArc && b.ellipticalArc,
  };
}

/** Relative radius difference under which an arc counts as circular. */
const CIRCULAR_EPS = 1e-6;

export function isCircularArc(s: { rx: number; ry: number }): boolean {
  return Math.abs(s.rx - s.ry) <= CIRCULAR_EPS * Math.max(s.rx, s.ry);
}

/** Chains whose segments are all of allowed kinds; `tolerance` in chain units. */
export function restrictChains(chains: readonly Chain[], allowed: AllowedCurves, tolerance: number): Chain[] {
  if (allowed.quadratic && allowed.cubic && allowed.circularArc && allowed.ellipticalArc) return chains.slice();
  // Off the default path (a curve kind switched off): built through Segment objects.
  const builder = new SegmentBuilder();
  return chains.map((c) => ({ ...c, segments: SegmentPath.of(restrictSegments(c.startX, c.startY, c.segments, allowed, tolerance), builder) }));
}

export function restrictSegments(
  startX: number,
  startY: number,
  segments: Iterable<Segment>,
  allowed: AllowedCurves,
  tolerance: number,
): Segment[] {
  const out: Segment[] = [];
  let x0 = startX;
  let y0 = startY;
  for (const s of segments) {
    restrictSegment(out, x0, y0, s, allowed, tolerance);
    x0 = s.x;
    y0 = s.y;
  }
  return out;
}

function restrictSegment(out: Segment[], x0: number, y0: number, s: Segment, allowed: AllowedCurves, tol: number): void {
  switch (s.kind) {
    case 'line':
      out.push(s);
      return;
    case 'quad':
      if (allowed.quadratic) out.push(s);
      else if (allowed.cubic) elevateQuad(new SegmentList(out), x0, y0, s.cx, s.cy, s.x, s.y);
      else if (allowed.ellipticalArc || allowed.circularArc) quadToArcs(out, x0, y0, s.cx, s.cy, s.x, s.y, tol, 0);
      else toLines(out, x0, y0, s, tol);
      return;
    case 'cubic':
      if (allowed.cubic) out.push(s);
      else toLines(out, x0, y0, s, tol);
      return;
    case 'arc': {
      const circular = isCircularArc(s);
      if (allowed.ellipticalArc || (circular && allowed.circularArc)) out.push(s);
      else if (allowed.cubic) arcToCubics(new SegmentList(out), x0, y0, s.rx, s.ry, s.rotationDeg, s.largeArc, s.sweep, s.x, s.y);
      else toLines(out, x0, y0, s, tol);
      return;
    }
  }
}

/**
 * Where a curve conversion writes its pieces, number by number: a SegmentBuilder, a writer's own
 * output (PDF/EPS text, DXF spline control points), or a SegmentList of objects.
 */
export interface PieceSink {
  line(x: number, y: number): void;
  cubic(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void;
}

/** A PieceSink that appends Segment objects (the object path: restrictSegments, tests). */
export class SegmentList implements PieceSink {
  constructor(readonly segments: Segment[] = []) {}
  line(x: number, y: number): void {
    this.segments.push({ kind: 'line', x, y });
  }
  cubic(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void {
    this.segments.push({ kind: 'cubic', c1x, c1y, c2x, c2y, x, y });
  }
}

/**
 * Exact: the quadratic from (x0, y0) over (cx, cy) to (x, y) is the cubic with control points
 * 2/3 of the way to its control point.
 */
export function elevateQuad(out: PieceSink, x0: number, y0: number, cx: number, cy: number, x: number, y: number): void {
  out.cubic(x0 + (2 / 3) * (cx - x0), y0 + (2 / 3) * (cy - y0), x + (2 / 3) * (cx - x), y + (2 / 3) * (cy - y), x, y);
}

function toLines(out: Segment[], x0: number, y0: number, s: Segment, tol: number): void {
  const p = flattenSegments(x0, y0, [s], tol);
  const n = p.length >> 1;
  for (let i = 1; i < n - 1; i++) out.push({ kind: 'line', x: p[2 * i]!, y: p[2 * i + 1]! });
  // The end point exactly as given, so neighbouring segments still meet.
  out.push({ kind: 'line', x: s.x, y: s.y });
}

/**
 * The SVG endpoint arc from (x0, y0) to (x, y) as cubics of at most 90° each; the last ends
 * exactly on (x, y). A degenerate arc is a line (nothing when it ends where it starts).
 */
export function arcToCubics(
  out: PieceSink,
  x0: number,
  y0: number,
  rx: number,
  ry: number,
  rotationDeg: number,
  largeArc: boolean,
  sweep: boolean,
  x: number,
  y: number,
): void {
  const a = arcCenter(x0, y0, rx, ry, rotationDeg, largeArc, sweep, x, y);
  if (!a) {
    if (x0 !== x || y0 !== y) out.line(x, y);
    return;
  }
  const n = Math.max(1, Math.ceil(Math.abs(a.delta) / (Math.PI / 2) - 1e-9));
  const d = a.delta / n;
  const k = (4 / 3) * Math.tan(d / 4);
  const cos = Math.cos(a.phi);
  const sin = Math.sin(a.phi);
  let t = a.theta1;
  let px = x0;
  let py = y0;
  for (let i = 0; i < n; i++) {
    const t2 = t + d;
    const [ex, ey] = i === n - 1 ? [x, y] : arcPoint(a, t2);
    // The ellipse's derivative direction (per radian) at t and t2, in user space.
    const d1ex = -a.rx * Math.sin(t);
    const d1ey = a.ry * Math.cos(t);
    const d2ex = -a.rx * Math.sin(t2);
    const d2ey = a.ry * Math.cos(t2);
    const d1x = cos * d1ex - sin * d1ey;
    const d1y = sin * d1ex + cos * d1ey;
    const d2x = cos * d2ex - sin * d2ey;
    const d2y = sin * d2ex + cos * d2ey;
    out.cubic(px + k * d1x, py + k * d1y, ex - k * d2x, ey - k * d2y, ex, ey);
    px = ex;
    py = ey;
    t = t2;
  }
}

/**
 * A quadratic as circular arcs: the circle through its ends and its midpoint, accepted when the
 * quarter points lie within `tol` of it, otherwise split in half (de Casteljau) and retried.
 */
function quadToArcs(out: Segment[], x0: number, y0: number, cx: number, cy: number, x2: number, y2: number, tol: number, depth: number): void {
  const mx = 0.25 * x0 + 0.5 * cx + 0.25 * x2;
  const my = 0.25 * y0 + 0.5 * cy + 0.25 * y2;
  const circle = circleThrough(x0, y0, mx, my, x2, y2);
  // A quadratic's distance from its chord peaks at t = ½, so the midpoint's sagitta bounds it.
  const chordSag = Math.abs((x2 - x0) * (my - y0) - (y2 - y0) * (mx - x0)) / Math.max(1e-12, hypot2(x2 - x0, y2 - y0));
  if (chordSag <= tol || !circle) {
    out.push({ kind: 'line', x: x2, y: y2 });
    return;
  }
  const err = Math.max(quadCircleError(x0, y0, cx, cy, x2, y2, 0.25, circle), quadCircleError(x0, y0, cx, cy, x2, y2, 0.75, circle));
  if (err <= tol || depth >= 12) {
    // Sweep flag 1 = increasing angle; with y down, the midpoint then lies on the cross > 0 side.
    const cross = (mx - x0) * (y2 - y0) - (my - y0) * (x2 - x0);
    // Large when the centre lies on the midpoint's side of the chord.
    const centreCross = (circle.x - x0) * (y2 - y0) - (circle.y - y0) * (x2 - x0);
    const largeArc = centreCross * cross > 0;
    out.push({ kind: 'arc', rx: circle.r, ry: circle.r, rotationDeg: 0, largeArc, sweep: cross > 0, x: x2, y: y2 });
    return;
  }
  // Split at t = ½.
  const ax = (x0 + cx) / 2, ay = (y0 + cy) / 2;
  const bx = (cx + x2) / 2, by = (cy + y2) / 2;
  quadToArcs(out, x0, y0, ax, ay, mx, my, tol, depth + 1);
  quadToArcs(out, mx, my, bx, by, x2, y2, tol, depth + 1);
}

function quadCircleError(x0: number, y0: number, cx: number, cy: number, x2: number, y2: number, t: number, c: { x: number; y: number; r: number }): number {
  const u = 1 - t;
  const px = u * u * x0 + 2 * u * t * cx + t * t * x2;
  const py = u * u * y0 + 2 * u * t * cy + t * t * y2;
  return Math.abs(hypot2(px - c.x, py - c.y) - c.r);
}

function circleThrough(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): { x: number; y: number; r: number } | undefined {
  const d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
  if (Math.abs(d) < 1e-12) return undefined;
  const a2 = ax * ax + ay * ay, b2 = bx * bx + by * by, c2 = cx * cx + cy * cy;
  const x = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d;
  const y = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d;
  return { x, y, r: hypot2(ax - x, ay - y) };
}

/** The same path walked backwards: returns the new start point and segments (as objects; the writers use appendWalked). */
export function reverseSegments(startX: number, startY: number, segments: SegmentPath): { x: number; y: number; segments: Segment[] } {
  if (segments.length === 0) return { x: startX, y: startY, segments: [] };
  const out: Segment[] = [];
  for (let k = segments.length - 1; k >= 0; k--) {
    const s = segments.at(k);
    const prev = k > 0 ? { x: segments.x(k - 1), y: segments.y(k - 1) } : { x: startX, y: startY };
    switch (s.kind) {
      case 'line':
        out.push({ kind: 'line', x: prev.x, y: prev.y });
        break;
      case 'quad':
        out.push({ kind: 'quad', cx: s.cx, cy: s.cy, x: prev.x, y: prev.y });
        break;
      case 'cubic':
        out.push({ kind: 'cubic', c1x: s.c2x, c1y: s.c2y, c2x: s.c1x, c2y: s.c1y, x: prev.x, y: prev.y });
        break;
      case 'arc':
        out.push({ ...s, sweep: !s.sweep, x: prev.x, y: prev.y });
        break;
    }
  }
  const last = segments.length - 1;
  return { x: segments.x(last), y: segments.y(last), segments: out };
}

/**
 * How appendWalked writes a point: as it is (traced units) or through the page map. Two separate
 * kinds rather than an identity map: 0 + 1·x turns −0 into +0, and the traced path must keep
 * its numbers exactly.
 */
export interface PointMap {
  x(v: number): number;
  y(v: number): number;
  /** An arc's radii (|sx|, |sy| scale them, as in transformSegment). */
  rx(r: number): number;
  ry(r: number): number;
}

/** Points as they are. */
export const UNMAPPED: PointMap = {
  x: (v) => v,
  y: (v) => v,
  rx: (r) => r,
  ry: (r) => r,
};

/** x' = ox + sx·x, y' = oy + sy·y with transformSegment's arithmetic. */
export class ScaleMap implements PointMap {
  constructor(
    readonly sx: number,
    readonly sy: number,
    readonly ox: number,
    readonly oy: number,
  ) {}
  x(v: number): number {
    return this.ox + this.sx * v;
  }
  y(v: number): number {
    return this.oy + this.sy * v;
  }
  rx(r: number): number {
    return r * Math.abs(this.sx);
  }
  ry(r: number): number {
    return r * Math.abs(this.sy);
  }
}

/**
 * Appends a chain's segments to `out`, forwards or walked backwards, every number through `map`:
 * the numbers of reverseSegments, then transformSegment, without a Segment object on the way.
 * Backwards, a segment ends where the one before it ended (the chain's start for the first), a
 * cubic swaps its handles and an arc flips its sweep.
 */
export function appendWalked(out: SegmentBuilder, startX: number, startY: number, segments: SegmentPath, reversed: boolean, map: PointMap): void {
  if (!reversed && map === UNMAPPED) {
    out.appendFrom(segments);
    return;
  }
  const n = segments.length;
  for (let i = 0; i < n; i++) {
    const k = reversed ? n - 1 - i : i;
    const x = map.x(!reversed ? segments.x(k) : k > 0 ? segments.x(k - 1) : startX);
    const y = map.y(!reversed ? segments.y(k) : k > 0 ? segments.y(k - 1) : startY);
    switch (segments.code(k)) {
      case SEGMENT_LINE:
        out.line(x, y);
        break;
      case SEGMENT_QUAD:
        out.quad(map.x(segments.cx(k)), map.y(segments.cy(k)), x, y);
        break;
      case SEGMENT_CUBIC:
        if (reversed) out.cubic(map.x(segments.c2x(k)), map.y(segments.c2y(k)), map.x(segments.c1x(k)), map.y(segments.c1y(k)), x, y);
        else out.cubic(map.x(segments.c1x(k)), map.y(segments.c1y(k)), map.x(segments.c2x(k)), map.y(segments.c2y(k)), x, y);
        break;
      case SEGMENT_ARC:
        out.arc(map.rx(segments.rx(k)), map.ry(segments.ry(k)), segments.rotationDeg(k), segments.largeArc(k), segments.sweep(k) !== reversed, x, y);
        break;
    }
  }
}

/**
 * Segments under x' = ox + sx·x, y' = oy + sy·y. Arcs scale their radii; callers only keep
 * arcs under (near-)uniform maps (see isUniform), where this is exact up to that mismatch. The
 * object form of ScaleMap (the writers map typed paths with appendWalked).
 */
export function transformSegment(s: Segment, sx: number, sy: number, ox: number, oy: number): Segment {
  switch (s.kind) {
    case 'line':
      return { kind: 'line', x: ox + sx * s.x, y: oy + sy * s.y };
    case 'quad':
      return { kind: 'quad', cx: ox + sx * s.cx, cy: oy + sy * s.cy, x: ox + sx * s.x, y: oy + sy * s.y };
    case 'cubic':
      return {
        kind: 'cubic',
        c1x: ox + sx * s.c1x,
        c1y: oy + sy * s.c1y,
        c2x: ox + sx * s.c2x,
        c2y: oy + sy * s.c2y,
        x: ox + sx * s.x,
        y: oy + sy * s.y,
      };
    case 'arc':
      return { ...s, rx: s.rx * Math.abs(sx), ry: s.ry * Math.abs(sy), x: ox + sx * s.x, y: oy + sy * s.y };
  }
}
