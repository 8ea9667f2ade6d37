/**
 * Gradient test pictures the tests draw themselves: shapes filled with a linear or radial colour
 * ramp (the way SVG renders <linearGradient>/<radialGradient>: stops interpolated in sRGB, padded
 * beyond the ends), anti-aliased by 8×8 supersampling and rounded to 8 bits, so a gentle ramp
 * arrives in the 1-level steps of a real render. Also the known truth each picture was drawn
 * with, so a test can compare what the tracer found with it.
 */
import type { RgbaImage } from '../../src/engine/types.js';
import type { Rgb } from './raster.js';

export interface RampStop {
  readonly offset: number;
  readonly color: Rgb;
}

/** Linear ramp from (x1, y1) (offset 0) to (x2, y2) (offset 1). */
export interface LinearRamp {
  readonly kind: 'linear';
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  readonly stops: readonly RampStop[];
}

/**
 * Radial ramp: offset = distance from (cx, cy) / r; elliptical with ry and rotationDeg (the first
 * axis's direction, clockwise on screen): offset = √((u / r)² + (v / ry)²).
 */
export interface RadialRamp {
  readonly kind: 'radial';
  readonly cx: number;
  readonly cy: number;
  readonly r: number;
  readonly ry?: number;
  readonly rotationDeg?: number;
  readonly stops: readonly RampStop[];
}

export type Ramp = LinearRamp | RadialRamp;

export type Paint = Rgb | Ramp;

export interface PaintedShape {
  readonly paint: Paint;
  readonly inside: (x: number, y: number) => boolean;
}

/** The ramp's offset at (x, y), not clamped. */
export function rampOffset(ramp: Ramp, x: number, y: number): number {
  if (ramp.kind === 'linear') {
    const dx = ramp.x2 - ramp.x1;
    const dy = ramp.y2 - ramp.y1;
    return ((x - ramp.x1) * dx + (y - ramp.y1) * dy) / (dx * dx + dy * dy);
  }
  const a = ((ramp.rotationDeg ?? 0) * Math.PI) / 180;
  const dx = x - ramp.cx;
  const dy = y - ramp.cy;
  const u = dx * Math.cos(a) + dy * Math.sin(a);
  const v = -dx * Math.sin(a) + dy * Math.cos(a);
  return Math.hypot(u / ramp.r, v / (ramp.ry ?? ramp.r));
}

/** The ramp's colour at offset t (stops interpolated in sRGB, padded). */
export function rampColor(stops: readonly RampStop[], t: number): Rgb {
  if (t <= stops[0]!.offset) return stops[0]!.color;
  for (let i = 1; i < stops.length; i++) {
    const a = stops[i - 1]!;
    const b = stops[i]!;
    if (t <= b.offset) {
      const f = b.offset > a.offset ? (t - a.offset) / (b.offset - a.offset) : 1;
      return [a.color[0] + (b.color[0] - a.color[0]) * f, a.color[1] + (b.color[1] - a.color[1]) * f, a.color[2] + (b.color[2] - a.color[2]) * f];
    }
  }
  return stops[stops.length - 1]!.color;
}

function paintAt(paint: Paint, x: number, y: number): Rgb {
  return 'kind' in paint ? rampColor(paint.stops, rampOffset(paint, x, y)) : paint;
}

/** Paints the shapes (bottom first) over `bg`, 8×8 supersampled, opaque. */
export function drawPainted(width: number, height: number, bg: Rgb, shapes: readonly PaintedShape[]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  const ss = 8;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          const px = x + (sx + 0.5) / ss;
          const py = y + (sy + 0.5) / ss;
          let c: Rgb = bg;
          for (const shape of shapes) if (shape.inside(px, py)) c = paintAt(shape.paint, px, py);
          r += c[0];
          g += c[1];
          b += c[2];
        }
      }
      const o = (y * width + x) * 4;
      data[o] = Math.round(r / (ss * ss));
      data[o + 1] = Math.round(g / (ss * ss));
      data[o + 2] = Math.round(b / (ss * ss));
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}

/** A rectangle turned by `deg` about its centre. */
export function turnedRect(cx: number, cy: number, w: number, h: number, deg: number): (x: number, y: number) => boolean {
  const c = Math.cos((deg * Math.PI) / 180);
  const s = Math.sin((deg * Math.PI) / 180);
  return (x, y) => {
    const u = (x - cx) * c + (y - cy) * s;
    const v = -(x - cx) * s + (y - cy) * c;
    return Math.abs(u) <= w / 2 && Math.abs(v) <= h / 2;
  };
}

export function disc(cx: number, cy: number, r: number): (x: number, y: number) => boolean {
  return (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/**
 * A 30°-turned rectangle with a two-stop linear ramp along its long side (blue to orange), a
 * flat green disc beside it, on white: 200 × 160.
 */
export function linearScene(): { image: RgbaImage; ramp: LinearRamp } {
  const deg = 30;
  const c = Math.cos((deg * Math.PI) / 180);
  const s = Math.sin((deg * Math.PI) / 180);
  const [cx, cy, half] = [88, 80, 60];
  const ramp: LinearRamp = {
    kind: 'linear',
    x1: cx - c * half,
    y1: cy - s * half,
    x2: cx + c * half,
    y2: cy + s * half,
    stops: [
      { offset: 0, color: [40, 90, 200] },
      { offset: 1, color: [250, 170, 60] },
    ],
  };
  const image = drawPainted(200, 160, [255, 255, 255], [
    { paint: ramp, inside: turnedRect(cx, cy, 2 * half, 70, deg) },
    { paint: [30, 150, 60], inside: disc(172, 130, 20) },
  ]);
  return { image, ramp };
}

/** A disc with a three-stop radial ramp (light centre, orange, dark red rim) on white: 180 × 180. */
export function radialScene(): { image: RgbaImage; ramp: RadialRamp } {
  const ramp: RadialRamp = {
    kind: 'radial',
    cx: 84,
    cy: 92,
    r: 70,
    stops: [
      { offset: 0, color: [255, 240, 200] },
      { offset: 0.5, color: [245, 150, 60] },
      { offset: 1, color: [150, 40, 30] },
    ],
  };
  const image = drawPainted(180, 180, [255, 255, 255], [{ paint: ramp, inside: disc(84, 92, 70) }]);
  return { image, ramp };
}

/** An ellipse (semi-axes a along `deg`, b across it) about (cx, cy). */
export function ellipse(cx: number, cy: number, a: number, b: number, deg: number): (x: number, y: number) => boolean {
  const c = Math.cos((deg * Math.PI) / 180);
  const s = Math.sin((deg * Math.PI) / 180);
  return (x, y) => {
    const u = (x - cx) * c + (y - cy) * s;
    const v = -(x - cx) * s + (y - cy) * c;
    return (u / a) ** 2 + (v / b) ** 2 <= 1;
  };
}

/**
 * A 30°-turned ellipse (semi-axes 80 × 40) shaded with an elliptical radial ramp of the same axes
 * (a glossy oval button: light centre to deep blue), on white: 200 × 160.
 */
export function ellipseScene(): { image: RgbaImage; ramp: RadialRamp } {
  const ramp: RadialRamp = {
    kind: 'radial',
    cx: 100,
    cy: 80,
    r: 80,
    ry: 40,
    rotationDeg: 30,
    stops: [
      { offset: 0, color: [210, 230, 255] },
      { offset: 1, color: [20, 60, 170] },
    ],
  };
  const image = drawPainted(200, 160, [255, 255, 255], [{ paint: ramp, inside: ellipse(100, 80, 80, 40, 30) }]);
  return { image, ramp };
}

/**
 * A flat red ball standing on a soft floor shadow: an elliptical radial ramp (semi-axes 100 × 20,
 * dark grey at the centre, hidden under the ball) that fades into the white page (`rimGrey` 255)
 * or is clipped with a small step at its rim (rimGrey below 255), as drawing programs' floor
 * shadows are: 240 × 190.
 */
export function floorShadowScene(rimGrey: number): { image: RgbaImage; ramp: RadialRamp } {
  const ramp: RadialRamp = {
    kind: 'radial',
    cx: 120,
    cy: 150,
    r: 100,
    ry: 20,
    stops: [
      { offset: 0, color: [40, 40, 40] },
      { offset: 1, color: [rimGrey, rimGrey, rimGrey] },
    ],
  };
  const image = drawPainted(240, 190, [255, 255, 255], [
    { paint: ramp, inside: ellipse(120, 150, 100, 20, 0) },
    { paint: [200, 40, 40], inside: disc(120, 85, 65) },
  ]);
  return { image, ramp };
}

/**
 * A magnifying glass's lens: a disc with a linear ramp (near-white to blue) inside a thin dark
 * outline (0.8 px) and a grey rim, on white: 200 × 180. The palette leaves the light end of the
 * ramp as one region that also holds the outline's anti-aliased pixels beside it.
 */
export function lensScene(): { image: RgbaImage; ramp: LinearRamp } {
  const ramp: LinearRamp = {
    kind: 'linear',
    x1: 40,
    y1: 130,
    x2: 160,
    y2: 50,
    stops: [
      { offset: 0, color: [235, 242, 246] },
      { offset: 1, color: [70, 155, 226] },
    ],
  };
  const image = drawPainted(200, 180, [255, 255, 255], [
    { paint: [200, 205, 215], inside: disc(100, 90, 80) },
    { paint: [20, 40, 60], inside: disc(100, 90, 71.8) },
    { paint: ramp, inside: disc(100, 90, 71) },
  ]);
  return { image, ramp };
}

/**
 * A speech bubble's body: a disc with a radial ramp lit from above (light green at the top,
 * green at the rim), a soft light highlight line just inside its top rim and a soft darker
 * outline over the rest of the rim, on white: 200 × 180 (after gradient-elementary-internet-chat's
 * green bubble, whose rim line and outline blends are thin regions joined softly to its shades).
 */
export function rimLineScene(): { image: RgbaImage; ramp: RadialRamp } {
  const [cx, cy, r] = [100, 95, 70];
  const ramp: RadialRamp = {
    kind: 'radial',
    cx,
    cy: cy - 45,
    r: 120,
    stops: [
      { offset: 0, color: [212, 255, 140] },
      { offset: 1, color: [160, 222, 80] },
    ],
  };
  // The highlight: a soft light line (about 2 px across) along the top of the rim.
  const rimEdge: RadialRamp = {
    kind: 'radial',
    cx,
    cy,
    r,
    stops: [
      { offset: (r - 6) / r, color: [196, 246, 122] },
      { offset: (r - 3.5) / r, color: [240, 255, 215] },
      { offset: (r - 1) / r, color: [196, 246, 122] },
    ],
  };
  // The outline: darker green over the rim's last 3 px, soft (its blend is a ramp of its own).
  const outline: RadialRamp = {
    kind: 'radial',
    cx,
    cy,
    r,
    stops: [
      { offset: (r - 3) / r, color: [170, 228, 90] },
      { offset: 1, color: [120, 170, 70] },
    ],
  };
  const topRim = (x: number, y: number): boolean => y < cy - 20 && disc(cx, cy, r - 1)(x, y) && !disc(cx, cy, r - 6)(x, y);
  const image = drawPainted(200, 180, [255, 255, 255], [
    { paint: ramp, inside: disc(cx, cy, r) },
    { paint: rimEdge, inside: topRim },
    { paint: outline, inside: (x, y) => disc(cx, cy, r)(x, y) && !disc(cx, cy, r - 3)(x, y) && y >= cy - 20 },
  ]);
  return { image, ramp };
}
