/**
 * The pictures of the playground's sample gallery that the project draws itself (public/samples/,
 * CC0, see public/samples/SOURCES.md; the real pictures beside them come from Debian packages).
 * `node scripts/make-samples.mjs` writes them; the drawing is deterministic, so running it again
 * gives the same bytes.
 *
 * One picture per kind the presets aim at: shapes.png (flat art, from draw.ts), logo.png,
 * lineart.png (a scan-like drawing with specks), pixel.png (an aliased sprite) and photo.png
 * (gradients and grain).
 */

import { encode } from 'fast-png';

import { circle, polygon, ring, roundedRect, sampleScene, scenePng, starPoints, type Rgb, type Scene } from './draw.js';

export interface SampleImage {
  /** File name in public/samples/. */
  readonly file: string;
  readonly png: () => Uint8Array;
}

/** A filled capsule along the polyline `points` (a pen stroke of `width` px). */
export const stroke =
  (points: readonly (readonly [number, number])[], width: number) =>
  (x: number, y: number): boolean => {
    const r2 = (width / 2) ** 2;
    for (let i = 1; i < points.length; i++) {
      const [ax, ay] = points[i - 1]!;
      const [bx, by] = points[i]!;
      const dx = bx - ax;
      const dy = by - ay;
      const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy || 1)));
      if ((x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= r2) return true;
    }
    return false;
  };

/** Points along an arc (angles in degrees, 0 = east, clockwise in image coordinates). */
function arc(cx: number, cy: number, r: number, from: number, to: number, steps = 24): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i <= steps; i++) {
    const a = ((from + ((to - from) * i) / steps) * Math.PI) / 180;
    out.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return out;
}

/** logo.png: a badge — teal disc with a white star, an orange frame beside it. */
export function logoScene(): Scene {
  return {
    width: 160,
    height: 120,
    background: [255, 255, 255],
    shapes: [
      { color: [14, 116, 144], inside: circle(58, 60, 46) },
      { color: [255, 255, 255], inside: polygon(starPoints(58, 62, 30, 13, 5)) },
      { color: [249, 115, 22], inside: roundedRect(112, 24, 150, 96, 8) },
      { color: [255, 255, 255], inside: roundedRect(122, 34, 140, 86, 4) },
      { color: [14, 116, 144], inside: circle(131, 60, 6) },
    ],
  };
}

/** lineart.png: a smiling sun drawn with a dark pen on off-white paper, plus a few scan specks. */
export function lineArtScene(): Scene {
  const ink: Rgb = [34, 34, 38];
  const rays = Array.from({ length: 12 }, (_, i) => {
    const a = (i * Math.PI) / 6;
    return stroke([[80 + 50 * Math.cos(a), 80 + 50 * Math.sin(a)], [80 + 68 * Math.cos(a), 80 + 68 * Math.sin(a)]], 4);
  });
  const specks: [number, number][] = [[14, 20], [150, 30], [24, 140], [140, 148], [70, 150]];
  return {
    width: 160,
    height: 160,
    background: [250, 247, 238],
    shapes: [
      { color: ink, inside: ring(80, 80, 42, 4) },
      ...rays.map((inside) => ({ color: ink, inside })),
      { color: ink, inside: circle(66, 70, 4) },
      { color: ink, inside: circle(94, 70, 4) },
      { color: ink, inside: stroke(arc(80, 82, 18, 20, 160), 3.5) },
      ...specks.map(([x, y]) => ({ color: [60, 60, 60] as Rgb, inside: circle(x, y, 1.1) })),
    ],
  };
}

const SPRITE = [
  '................',
  '...KKK....KKK...',
  '..KRRRK..KRRRK..',
  '.KRWWRRKKRRRRRK.',
  '.KRWRRRRRRRRRRK.',
  '.KRRRRRRRRRRRRK.',
  '.KRRRRRRRRRRRRK.',
  '..KRRRRRRRRRRK..',
  '...KRRRRRRRRK...',
  '....KRRRRRRK....',
  '.....KRRRRK.....',
  '......KRRK......',
  '.......KK.......',
  '................',
  'GGGGGGGGGGGGGGGG',
  'gGgGgGgGgGgGgGgG',
];
const SPRITE_COLORS: Readonly<Record<string, Rgb>> = {
  '.': [198, 228, 255],
  K: [40, 24, 48],
  R: [228, 52, 72],
  W: [255, 240, 244],
  G: [70, 170, 80],
  g: [40, 120, 60],
};

/** pixel.png: a 16×16 heart sprite, each sprite pixel 3×3 image pixels, no anti-aliasing. */
export function pixelPng(scale = 3): Uint8Array {
  const size = 16 * scale;
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const c = SPRITE_COLORS[SPRITE[Math.floor(y / scale)]![Math.floor(x / scale)]!]!;
      data.set([c[0], c[1], c[2], 255], (y * size + x) * 4);
    }
  }
  return encode({ width: size, height: size, data, channels: 4, depth: 8 });
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const smooth = (edge: number, width: number, v: number) => Math.max(0, Math.min(1, (v - edge) / width + 0.5));
const mix = (a: Rgb, b: Rgb, u: number, t = Math.max(0, Math.min(1, u))): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

/** photo.png: a sunset landscape — sky gradient, glowing sun, two shaded hills, film grain. */
export function photoPng(width = 128, height = 96): Uint8Array {
  const rand = random(20240611);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = y / height;
      let c = mix([64, 92, 170], [250, 190, 140], v); // sky: deep blue to warm haze
      const sun = Math.hypot(x - 88, y - 38);
      c = mix(c, [255, 236, 180], Math.max(0, 1 - sun / 34) ** 2); // glow
      c = mix(c, [255, 248, 220], smooth(0, 2, 13 - sun)); // disc of radius 13, soft edge
      const far = 58 + 10 * Math.sin(x / 17) + 4 * Math.sin(x / 5.3);
      c = mix(c, mix([120, 110, 150], [90, 80, 120], (y - far) / 40), smooth(far, 1.5, y));
      const near = 74 + 9 * Math.cos(x / 23 + 1) + 2 * Math.sin(x / 3.1);
      c = mix(c, mix([60, 110, 70], [30, 70, 40], (y - near) / 22), smooth(near, 1.5, y));
      const grain = (rand() - 0.5) * 14;
      const o = (y * width + x) * 4;
      data[o] = Math.max(0, Math.min(255, Math.round(c[0] + grain)));
      data[o + 1] = Math.max(0, Math.min(255, Math.round(c[1] + grain)));
      data[o + 2] = Math.max(0, Math.min(255, Math.round(c[2] + grain)));
      data[o + 3] = 255;
    }
  }
  return encode({ width, height, data, channels: 4, depth: 8 });
}

export const SAMPLE_IMAGES: readonly SampleImage[] = [
  { file: 'shapes.png', png: () => scenePng(sampleScene()) },
  { file: 'logo.png', png: () => scenePng(logoScene()) },
  { file: 'lineart.png', png: () => scenePng(lineArtScene()) },
  { file: 'pixel.png', png: () => pixelPng() },
  { file: 'photo.png', png: () => photoPng() },
];
