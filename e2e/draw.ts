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

/**
 * A 1600 × 1250 PNG = 2,000,000 pixels (just under input.max_pixels, so it is traced at full
 * size): a dense grid of flat anti-aliased shapes, like a large clip-art export. Drawn here rather than
 * with renderScene, which tests every shape at every sub-sample (seconds at this size): each shape
 * only covers its own box, and the shapes do not overlap.
 */
export function denseShapesPng(): Uint8Array {
  const width = 1600;
  const height = 1250;
  const S = 2; // sub-samples per axis
  const colors: Rgb[] = [
    [36, 84, 214],
    [226, 61, 52],
    [245, 180, 0],
    [31, 140, 86],
    [120, 40, 170],
    [0, 150, 160],
    [250, 120, 20],
    [20, 20, 20],
  ];
  const data = new Uint8Array(width * height * 4);
  for (let o = 0; o < data.length; o += 4) data.set([250, 246, 236, 255], o);
  // Dense like a real clip-art export: thousands of shapes give a multi-megabyte SVG (the viewer
  // then shows the worker's PNG rendering instead of rasterising the SVG on the main thread).
  const cols = 64;
  const rows = 50;
  for (let i = 0; i < cols * rows; i++) {
    const cx = ((i % cols) + 0.5) * (width / cols);
    const cy = (Math.floor(i / cols) + 0.5) * (height / rows);
    const size = Math.min(width / cols, height / rows) * 0.42;
    const inside = [
      circle(cx, cy, size),
      polygon(starPoints(cx, cy, size, size * 0.45, 5 + (i % 3))),
      roundedRect(cx - size, cy - size * 0.8, cx + size, cy + size * 0.8, size * 0.25),
      ring(cx, cy, size, size * 0.3),
    ][i % 4]!;
    const color = colors[i % colors.length]!;
    for (let py = Math.floor(cy - size) - 1; py <= Math.ceil(cy + size); py++) {
      for (let px = Math.floor(cx - size) - 1; px <= Math.ceil(cx + size); px++) {
        let hits = 0;
        for (let sy = 0; sy < S; sy++) for (let sx = 0; sx < S; sx++) if (inside(px + (sx + 0.5) / S, py + (sy + 0.5) / S)) hits++;
        if (hits === 0) continue;
        const a = hits / (S * S);
        const o = (py * width + px) * 4;
        for (let c = 0; c < 3; c++) data[o + c] = Math.round(data[o + c]! * (1 - a) + color[c] * a);
      }
    }
  }
  return encode({ width, height, data, channels: 4, depth: 8 });
}
