/**
 * Draws small anti-aliased test pictures (coloured shapes on a background) as PNG bytes.
 * Used by the e2e checks for their upload fixture, and once to make public/samples/shapes.png
 * (`sampleScene()`, 128×128: `node scripts/e2e.mjs --make-sample` redraws it).
 */

import { encode } from 'fast-png';

export type Rgb = readonly [number, number, number];

export interface ShapeSpec {
  readonly color: Rgb;
  /** True when the point (x, y) in pixel units lies inside the shape. */
  readonly inside: (x: number, y: number) => boolean;
}

export interface Scene {
  readonly width: number;
  readonly height: number;
  readonly background: Rgb;
  /** Painted bottom first. */
  readonly shapes: readonly ShapeSpec[];
  /** Supersampling per axis for anti-aliasing (default 4; 1 = aliased). */
  readonly samples?: number;
}

export const circle = (cx: number, cy: number, r: number) => (x: number, y: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

export const ring = (cx: number, cy: number, r: number, width: number) => (x: number, y: number) => {
  const d = Math.hypot(x - cx, y - cy);
  return d <= r && d >= r - width;
};

export const roundedRect =
  (x0: number, y0: number, x1: number, y1: number, radius: number) => (x: number, y: number) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const cx = Math.min(Math.max(x, x0 + radius), x1 - radius);
    const cy = Math.min(Math.max(y, y0 + radius), y1 - radius);
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius;
  };

/** Convex or star-shaped polygon by the even-odd rule. */
export const polygon = (points: readonly (readonly [number, number])[]) => (x: number, y: number) => {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i]!;
    const [xj, yj] = points[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};

export function starPoints(cx: number, cy: number, outer: number, inner: number, n: number): [number, number][] {
  const pts: [number, number][] = [];
  for (let i = 0; i < n * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (i * Math.PI) / n;
    pts.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return pts;
}

/** RGBA pixels with S×S supersampled coverage (anti-aliased edges, like a real export). */
export function renderScene(scene: Scene): Uint8Array {
  const { width, height, background, shapes } = scene;
  const data = new Uint8Array(width * height * 4);
  const S = scene.samples ?? 4;
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const x = px + (sx + 0.5) / S;
          const y = py + (sy + 0.5) / S;
          let c = background;
          for (const shape of shapes) if (shape.inside(x, y)) c = shape.color;
          r += c[0];
          g += c[1];
          b += c[2];
        }
      }
      const o = (py * width + px) * 4;
      data[o] = Math.round(r / (S * S));
      data[o + 1] = Math.round(g / (S * S));
      data[o + 2] = Math.round(b / (S * S));
      data[o + 3] = 255;
    }
  }
  return data;
}

export function scenePng(scene: Scene): Uint8Array {
  return encode({ width: scene.width, height: scene.height, data: renderScene(scene), channels: 4, depth: 8 });
}

/** public/samples/shapes.png: five colours, curves, corners and a hole. */
export function sampleScene(): Scene {
  return {
    width: 128,
    height: 128,
    background: [250, 246, 236],
    shapes: [
      { color: [36, 84, 214], inside: roundedRect(10, 12, 70, 62, 10) },
      { color: [226, 61, 52], inside: circle(88, 40, 26) },
      { color: [245, 180, 0], inside: polygon(starPoints(40, 92, 28, 12, 5)) },
      { color: [31, 140, 86], inside: polygon([[78, 118], [120, 118], [99, 76]]) },
      { color: [250, 246, 236], inside: circle(88, 40, 9) },
    ],
  };
}

/** The e2e upload fixture: different from the sample, four colours plus a ring. */
export function fixtureScene(): Scene {
  return {
    width: 96,
    height: 80,
    background: [255, 255, 255],
    shapes: [
      { color: [120, 40, 170], inside: roundedRect(6, 6, 50, 50, 6) },
      { color: [0, 150, 160], inside: circle(66, 48, 24) },
      { color: [250, 120, 20], inside: polygon([[10, 74], [44, 74], [27, 56]]) },
      { color: [20, 20, 20], inside: ring(66, 48, 14, 3) },
    ],
  };
}
