/**
 * Gradient paint (Tracelab extension `tracelab.gradients`) as every writer needs it.
 * In: a Gradient (src/engine/types.ts): a linear axis p1 → p2, or a radial centre, radius r and —
 * for an elliptical one — second radius ry and rotation, in traced coordinates; and its colour
 * stops. Out:
 * - its identity (gradientKey: equal values, equal keys) and whether it can be drawn at all;
 * - the ramp: the colour at t (linear sRGB interpolation between stops, padded with the end
 *   colours before the first stop and after the last), and the ramp as pieces between stops;
 * - t at a point (linear: ((p − p1)·(p2 − p1)) / |p2 − p1|², the engine's position along an axis
 *   (ramp-samples.ts linearT) scaled; radial: |p − c| / r; elliptical: √((u / r)² + (v / ry)²)
 *   with u, v the coordinates of p − c along the rotated axes);
 * - an elliptical gradient as affine maps the writers compose with their own (radialFrame: the
 *   unit disc onto the ellipse; ellipseMap: the gradient's circle onto its ellipse);
 * - the gradient moved by an axis-aligned map x' = ox + sx·x, y' = oy + sy·y (the page and device
 *   maps), and a per-pixel evaluator for rasterisers.
 * Pure functions; no I/O.
 */
import type { Gradient, GradientStop, Rgba } from '../engine/types.js';
import { linearT } from '../engine/shading/ramp-samples.js';
import { axisAffine, composeAffine, invertAffine, type Affine } from './affine.js';

export type RadialGradient = Extract<Gradient, { kind: 'radial' }>;
export type EllipticalGradient = RadialGradient & { readonly ry: number };

/**
 * True when the gradient defines a colour everywhere: finite geometry, a non-zero axis or radius,
 * and at least one stop with finite offsets. Writers draw anything else flat (the plan drops it),
 * as SVG itself would paint a zero-length axis or radius with one colour.
 */
export function isDrawableGradient(g: Gradient): boolean {
  if (g.stops.length === 0 || !g.stops.every((s) => Number.isFinite(s.offset))) return false;
  if (g.kind === 'linear') {
    const len2 = (g.x2 - g.x1) ** 2 + (g.y2 - g.y1) ** 2;
    return [g.x1, g.y1, g.x2, g.y2].every(Number.isFinite) && len2 > 0 && Number.isFinite(len2);
  }
  const ryOk = g.ry === undefined || (Number.isFinite(g.ry) && g.ry > 0);
  const rotationOk = g.rotationDeg === undefined || Number.isFinite(g.rotationDeg);
  return Number.isFinite(g.cx) && Number.isFinite(g.cy) && Number.isFinite(g.r) && g.r > 0 && ryOk && rotationOk;
}

/**
 * True for a radial gradient whose isolines are true ellipses (ry given and not r). A circle
 * (ry absent or equal to r) ignores its rotation, and every writer draws it exactly as before
 * ellipses existed.
 */
export function isElliptical(g: Gradient): g is EllipticalGradient {
  return g.kind === 'radial' && g.ry !== undefined && g.ry !== g.r;
}

/**
 * The map from unit-disc coordinates onto the gradient: (u, v) ↦ c + u·r·(cos θ, sin θ) +
 * v·ry·(−sin θ, cos θ), so t at p is the length of p's preimage (the unit circle is t = 1).
 */
export function radialFrame(g: RadialGradient): Affine {
  const [cos, sin] = directionOf(g.rotationDeg ?? 0);
  const ry = g.ry ?? g.r;
  return [g.r * cos, g.r * sin, -ry * sin, ry * cos, g.cx, g.cy];
}

/**
 * The map that turns an elliptical gradient's circle (centre c, radius r) into its ellipse and
 * keeps c: c + R(θ)·diag(1, ry / r)·(p − c); undefined for anything else (linear, circles).
 * Writers that draw the circle (PDF and PostScript radial shadings) compose it into their
 * pattern matrix, so the shading's own coordinates stay the circle.
 */
export function ellipseMap(g: Gradient): Affine | undefined {
  if (!isElliptical(g)) return undefined;
  const [cos, sin] = directionOf(g.rotationDeg ?? 0);
  const k = g.ry / g.r;
  const [a, b, c, d] = [cos, sin, -k * sin, k * cos];
  return [a, b, c, d, g.cx - (a * g.cx + c * g.cy), g.cy - (b * g.cx + d * g.cy)];
}

/** (cos θ, sin θ) of an angle in degrees; the quarter turns exact (no 6e-17 for cos 90°). */
function directionOf(deg: number): [number, number] {
  const quarter = deg / 90;
  if (Number.isInteger(quarter)) {
    const q = ((quarter % 4) + 4) % 4;
    return [[1, 0], [0, 1], [-1, 0], [0, -1]][q] as [number, number];
  }
  const rad = (deg * Math.PI) / 180;
  return [Math.cos(rad), Math.sin(rad)];
}

/**
 * The radial gradient (g's stops) whose unit-disc frame is `frame`: the image of the unit circle
 * is an ellipse for any non-singular linear part, whose semi-axes are that part's singular values
 * and whose first axis is its first left singular vector (closed form for 2 × 2: with
 * E, F, G, H the half sums and differences below, M = R(θ)·diag(Q + R, Q − R)·R(φ)). The rotation
 * is written in (−90°, 90°]: an ellipse turned half a turn is the same ellipse.
 */
function radialFromFrame(g: RadialGradient, frame: Affine): EllipticalGradient {
  const [m00, m10, m01, m11, cx, cy] = frame;
  const e = (m00 + m11) / 2;
  const f = (m00 - m11) / 2;
  const gg = (m10 + m01) / 2;
  const h = (m10 - m01) / 2;
  const q = Math.hypot(e, h);
  const r = Math.hypot(f, gg);
  const thetaRad = (Math.atan2(gg, f) + Math.atan2(h, e)) / 2;
  return { ...g, cx, cy, r: q + r, ry: Math.abs(q - r), rotationDeg: halfTurnDeg((thetaRad * 180) / Math.PI) };
}

/** An ellipse's rotation in (−90°, 90°]: turned half a turn it is the same ellipse. */
export function halfTurnDeg(deg: number): number {
  let d = deg % 180;
  if (d > 90) d -= 180;
  if (d <= -90) d += 180;
  return d;
}

/**
 * A string that two gradients share exactly when they are equal (kind, geometry, stops). Built on
 * each call, not cached: it is asked once or twice per gradient item of a document.
 */
export function gradientKey(g: Gradient): string {
  const ellipse = isElliptical(g) ? `,${g.ry},${g.rotationDeg ?? 0}` : '';
  const geometry = g.kind === 'linear' ? `L${g.x1},${g.y1},${g.x2},${g.y2}` : `R${g.cx},${g.cy},${g.r}${ellipse}`;
  return `${geometry};${g.stops.map((s) => `${s.offset}:${s.color.r},${s.color.g},${s.color.b},${s.color.a}`).join(';')}`;
}

/**
 * Numbers per distinct gradient in first-use order (the SVG's g0, g1…, the PDF's P0, P1…):
 * `id` returns a gradient's number, giving the next one to a gradient not seen yet.
 */
export class GradientIds {
  private readonly ids = new Map<string, number>();
  /** The distinct gradients, index = id. */
  readonly list: Gradient[] = [];

  id(g: Gradient): number {
    const key = gradientKey(g);
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.list.push(g) - 1;
      this.ids.set(key, id);
    }
    return id;
  }
}

/** The ramp parameter at traced point (x, y); not clamped (the ramp pads). */
export function gradientT(g: Gradient, x: number, y: number): number {
  if (g.kind === 'linear') {
    // The engine's t along an axis (ramp-samples.ts), from p1 and over |p2 − p1|² (offset 1 at p2).
    const dx = g.x2 - g.x1;
    const dy = g.y2 - g.y1;
    return linearT(dx, dy, x - g.x1, y - g.y1) / (dx * dx + dy * dy);
  }
  if (isElliptical(g)) {
    const [cos, sin] = directionOf(g.rotationDeg ?? 0);
    const dx = x - g.cx;
    const dy = y - g.cy;
    return Math.hypot((dx * cos + dy * sin) / g.r, (dy * cos - dx * sin) / g.ry);
  }
  return Math.hypot(x - g.cx, y - g.cy) / g.r;
}

/**
 * The ramp's colour at t (channels as unrounded numbers, alpha 255): the end colours outside
 * the stops, linear interpolation in sRGB between the two stops around t. At a hard stop (two
 * stops at one offset) t itself takes the later stop's colour, as SVG and PDF do.
 */
export function rampColor(stops: readonly GradientStop[], t: number): Rgba {
  const rgb = new Float64Array(3);
  rampInto(stops, t, rgb);
  return { r: rgb[0]!, g: rgb[1]!, b: rgb[2]!, a: 255 };
}

/** rampColor's channels written into rgb[0..2], allocating nothing (rasterisers call it per pixel). */
export function rampInto(stops: readonly GradientStop[], t: number, rgb: Float64Array): void {
  const first = stops[0]!;
  const last = stops[stops.length - 1]!;
  if (!(t > first.offset) || t >= last.offset) {
    const c = t >= last.offset ? last.color : first.color;
    rgb[0] = c.r;
    rgb[1] = c.g;
    rgb[2] = c.b;
    return;
  }
  let i = 1;
  while (stops[i]!.offset <= t) i++;
  const a = stops[i - 1]!.color;
  const b = stops[i]!.color;
  const u = (t - stops[i - 1]!.offset) / (stops[i]!.offset - stops[i - 1]!.offset);
  rgb[0] = a.r + (b.r - a.r) * u;
  rgb[1] = a.g + (b.g - a.g) * u;
  rgb[2] = a.b + (b.b - a.b) * u;
}

/** One piece of the ramp: from colour c0 at t0 to c1 at t1 (t0 < t1). */
export interface RampPiece {
  readonly t0: number;
  readonly t1: number;
  readonly c0: Rgba;
  readonly c1: Rgba;
}

/**
 * The ramp between its first and last stop as pieces of positive length, in order; a hard stop
 * (zero-length piece) is a jump where one piece ends and the next begins. A ramp whose stops all
 * share one offset is one flat piece over [0, 1] in the last stop's colour.
 */
export function rampPieces(stops: readonly GradientStop[]): RampPiece[] {
  const pieces: RampPiece[] = [];
  for (let i = 1; i < stops.length; i++) {
    const a = stops[i - 1]!;
    const b = stops[i]!;
    if (b.offset > a.offset) pieces.push({ t0: a.offset, t1: b.offset, c0: a.color, c1: b.color });
  }
  if (pieces.length === 0) {
    const c = stops[stops.length - 1]!.color;
    pieces.push({ t0: 0, t1: 1, c0: c, c1: c });
  }
  return pieces;
}

/**
 * The gradient under the map x' = ox + sx·x, y' = oy + sy·y. A linear gradient stays exact under
 * any such map: its isolines are lines, which the map keeps, so the new axis starts at the
 * mapped p1 and runs along the mapped ramp's steepest direction, (dx/sx, dy/sy) / |d|², to where
 * t = 1. An ellipse stays exact too: the map takes it to another ellipse, whose axes and rotation
 * are derived from the mapped frame (radialFromFrame); a uniform map only scales its radii.
 * A circle is kept a circle, as before ellipses existed (files stay byte-identical): its radius
 * takes the mean scale, exact when |sx| = |sy| (the page maps keep the two within 0.1 % unless
 * the user stretches the page, and writers that can stretch a gradient exactly — PDF, EPS, PNG —
 * do so instead of calling this).
 */
export function mapGradient(g: Gradient, sx: number, sy: number, ox: number, oy: number): Gradient {
  if (g.kind === 'radial') return mapRadial(g, sx, sy, ox, oy);
  const dx = g.x2 - g.x1;
  const dy = g.y2 - g.y1;
  const len2 = dx * dx + dy * dy;
  // Steepest direction of t on the mapped side, with |grad t| = 1 / (length of the new axis).
  const gx = dx / sx / len2;
  const gy = dy / sy / len2;
  const grad2 = gx * gx + gy * gy;
  const x1 = ox + sx * g.x1;
  const y1 = oy + sy * g.y1;
  return { ...g, x1, y1, x2: x1 + gx / grad2, y2: y1 + gy / grad2 };
}

function mapRadial(g: RadialGradient, sx: number, sy: number, ox: number, oy: number): RadialGradient {
  const cx = ox + sx * g.cx;
  const cy = oy + sy * g.cy;
  if (!isElliptical(g)) {
    const r = (g.r * (Math.abs(sx) + Math.abs(sy))) / 2;
    // An explicit ry equal to r follows r, so the result stays a circle.
    return { ...g, cx, cy, r, ...(g.ry !== undefined ? { ry: r } : {}) };
  }
  // Uniform (a negative scale turns it half a turn, which an ellipse ignores): the rotation stays.
  if (sx === sy) return { ...g, cx, cy, r: g.r * Math.abs(sx), ry: g.ry * Math.abs(sx) };
  return radialFromFrame(g, composeAffine(axisAffine(sx, sy, ox, oy), radialFrame(g)));
}

/**
 * A gradient evaluated at device pixels, for the rasterisers: the device map is
 * x' = ox + sx·x, y' = oy + sy·y from traced coordinates, and a pixel (px, py) samples the
 * gradient at its centre (px + ½, py + ½) mapped back to traced coordinates, so any stretch of
 * the page stretches the gradient exactly as it does the shapes.
 */
export class DeviceGradient {
  private readonly stops: readonly GradientStop[];
  private readonly isLinear: boolean;
  // Linear: t = a·X + b·Y + c in device pixels. Radial: traced = (X − ox)/sx, (Y − oy)/sy.
  private readonly a: number;
  private readonly b: number;
  private readonly c: number;
  /** Elliptical: device pixels → unit-disc coordinates (t = their length); undefined otherwise. */
  private readonly toDisc: Affine | undefined;
  private readonly scratch = new Float64Array(3);

  constructor(
    private readonly gradient: Gradient,
    private readonly sx: number,
    private readonly sy: number,
    private readonly ox: number,
    private readonly oy: number,
  ) {
    this.stops = gradient.stops;
    this.isLinear = gradient.kind === 'linear';
    if (gradient.kind === 'linear') {
      const dx = gradient.x2 - gradient.x1;
      const dy = gradient.y2 - gradient.y1;
      const len2 = dx * dx + dy * dy;
      this.a = dx / sx / len2;
      this.b = dy / sy / len2;
      this.c = -(this.a * (ox + sx * gradient.x1) + this.b * (oy + sy * gradient.y1));
    } else {
      this.a = this.b = this.c = 0;
    }
    // Circles keep the traced-coordinate formula below, bit for bit as before ellipses existed.
    this.toDisc = isElliptical(gradient) ? invertAffine(composeAffine(axisAffine(sx, sy, ox, oy), radialFrame(gradient))) : undefined;
  }

  /** The ramp parameter at the centre of device pixel (px, py). */
  t(px: number, py: number): number {
    const x = px + 0.5;
    const y = py + 0.5;
    if (this.isLinear) return linearT(this.a, this.b, x, y) + this.c;
    const m = this.toDisc;
    if (m) return Math.hypot(m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]);
    return gradientT(this.gradient, (x - this.ox) / this.sx, (y - this.oy) / this.sy);
  }

  /** Writes the colour of device pixel (px, py), channels rounded to bytes, into rgb[0..2]. */
  color(px: number, py: number, rgb: Uint8Array): void {
    const c = this.scratch;
    rampInto(this.stops, this.t(px, py), c);
    rgb[0] = byte(c[0]!);
    rgb[1] = byte(c[1]!);
    rgb[2] = byte(c[2]!);
  }
}

function byte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}
