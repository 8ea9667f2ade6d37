/**
 * Gradient paint (Tracelab extension `tracelab.gradients`) as every writer needs it.
 * In: a Gradient (src/engine/types.ts): a linear axis p1 → p2 or a radial centre and radius in
 * traced coordinates, and its colour stops. Out:
 * - its identity (gradientKey: equal values, equal keys) and whether it can be drawn at all;
 * - the ramp: the colour at t (linear sRGB interpolation between stops, padded with the end
 *   colours before the first stop and after the last), and the ramp as pieces between stops;
 * - t at a point (linear: ((p − p1)·(p2 − p1)) / |p2 − p1|², radial: |p − c| / r);
 * - the gradient moved by an axis-aligned map x' = ox + sx·x, y' = oy + sy·y (the page and device
 *   maps), and a per-pixel evaluator for rasterisers.
 * Pure functions; no I/O.
 */
import type { Gradient, GradientStop, Rgba } from '../engine/types.js';

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
  return Number.isFinite(g.cx) && Number.isFinite(g.cy) && Number.isFinite(g.r) && g.r > 0;
}

/** Keys computed once per gradient object (the plan shares one object per distinct gradient). */
const KEYS = new WeakMap<Gradient, string>();

/** A string that two gradients share exactly when they are equal (kind, geometry, stops). */
export function gradientKey(g: Gradient): string {
  let key = KEYS.get(g);
  if (key === undefined) {
    const geometry = g.kind === 'linear' ? `L${g.x1},${g.y1},${g.x2},${g.y2}` : `R${g.cx},${g.cy},${g.r}`;
    key = `${geometry};${g.stops.map((s) => `${s.offset}:${s.color.r},${s.color.g},${s.color.b},${s.color.a}`).join(';')}`;
    KEYS.set(g, key);
  }
  return key;
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
    const dx = g.x2 - g.x1;
    const dy = g.y2 - g.y1;
    return ((x - g.x1) * dx + (y - g.y1) * dy) / (dx * dx + dy * dy);
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
 * t = 1. A circle stays a circle only when |sx| = |sy|: the radius takes the mean scale (the page
 * maps keep the two within 0.1 % unless the user stretches the page, and writers that can
 * stretch a gradient exactly — PDF, EPS, PNG — do so instead of calling this).
 */
export function mapGradient(g: Gradient, sx: number, sy: number, ox: number, oy: number): Gradient {
  if (g.kind === 'radial') return { ...g, cx: ox + sx * g.cx, cy: oy + sy * g.cy, r: (g.r * (Math.abs(sx) + Math.abs(sy))) / 2 };
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
  }

  /** The ramp parameter at the centre of device pixel (px, py). */
  t(px: number, py: number): number {
    const x = px + 0.5;
    const y = py + 0.5;
    if (this.isLinear) return this.a * x + this.b * y + this.c;
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
