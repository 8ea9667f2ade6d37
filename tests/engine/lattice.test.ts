/**
 * Pixel art in the real world: upscaled by integer and non-integer factors, JPEG'd after the
 * upscale, dithered, noise-textured. Each must come back lattice-exact: every vertex on a cell
 * border, every fill one of the art's colours.
 */
import { describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { detectLattice } from '../../src/engine/regions/lattice.js';
import type { RgbaImage, TraceResult } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS } from '../../src/formats/types.js';
import { renderSvgWithResvg } from '../helpers/compare.js';

type Rgb = readonly [number, number, number];
const PALETTE: readonly Rgb[] = [
  [250, 250, 250],
  [20, 20, 40],
  [200, 60, 40],
  [240, 200, 60],
  [60, 140, 220],
];

/** A 24 × 24 sprite: an outlined disc with a core and a stripe (hard edges, five colours). */
function sprite(): RgbaImage {
  const size = 24;
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const r = Math.hypot(x + 0.5 - 12, y + 0.5 - 12);
      let c = 0;
      if (r < 10) c = 1;
      if (r < 8.6) c = 2;
      if (r < 4.5) c = 3;
      if (x >= 11 && x <= 12 && y < 12 && r < 8.6) c = 4;
      data.set([...PALETTE[c]!, 255], (y * size + x) * 4);
    }
  }
  return { width: size, height: size, data };
}

/** Nearest-neighbour upscale by `factor` (a non-integer factor gives cells of two sizes). */
function upscale(image: RgbaImage, factor: number): RgbaImage {
  const width = Math.round(image.width * factor);
  const height = Math.round(image.height * factor);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, Math.floor(x / factor));
      const sy = Math.min(image.height - 1, Math.floor(y / factor));
      data.set(image.data.subarray((sy * image.width + sx) * 4, (sy * image.width + sx) * 4 + 4), (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

function jpegRoundTrip(image: RgbaImage, quality: number): RgbaImage {
  const encoded = jpeg.encode({ width: image.width, height: image.height, data: Buffer.from(image.data) }, quality).data;
  const decoded = jpeg.decode(encoded, { useTArray: true, formatAsRGBA: true });
  return { width: decoded.width, height: decoded.height, data: decoded.data };
}

/** Every vertex of every chain, in traced pixels. */
function vertices(result: TraceResult): [number, number][] {
  const out: [number, number][] = [];
  for (const chain of result.chains) {
    out.push([chain.startX, chain.startY]);
    for (const s of chain.segments) {
      expect(s.kind).toBe('line');
      out.push([s.x, s.y]);
    }
  }
  return out;
}

function fillColors(result: TraceResult): Set<string> {
  return new Set(result.shapes.map((s) => `${s.color.r},${s.color.g},${s.color.b}`));
}

function renderDiffShare(result: TraceResult, image: RgbaImage, tolerance: number): number {
  const render = renderSvgWithResvg(writeSvg(result, DEFAULT_OUTPUT_OPTIONS), image.width);
  let off = 0;
  for (let i = 0; i < image.width * image.height; i++) {
    for (let k = 0; k < 3; k++) {
      if (Math.abs(render.data[i * 4 + k]! - image.data[i * 4 + k]!) > tolerance) {
        off++;
        break;
      }
    }
  }
  return off / (image.width * image.height);
}

describe('pixel-art lattice', () => {
  it('a ×4 upscale is traced on its cells: vertices on multiples of 4, the five colours, the same picture', () => {
    const image = upscale(sprite(), 4);
    expect(detectLattice(image)).not.toBeNull();
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('pixel');
    for (const [x, y] of vertices(result)) {
      expect(x % 4).toBe(0);
      expect(y % 4).toBe(0);
    }
    expect(fillColors(result)).toEqual(new Set(PALETTE.map((c) => c.join(','))));
    expect(renderDiffShare(result, image, 8)).toBe(0);
  });

  it('pixels in a buffer at an odd byte offset (a caller\'s view) give the same lattice as aligned ones', () => {
    const image = upscale(sprite(), 3);
    const backing = new Uint8Array(image.data.length + 1);
    backing.set(image.data, 1);
    const odd = { ...image, data: backing.subarray(1) };
    const aligned = detectLattice(image)!;
    const unaligned = detectLattice(odd)!;
    expect(unaligned).not.toBeNull();
    expect([Array.from(unaligned.xs), Array.from(unaligned.ys)]).toEqual([Array.from(aligned.xs), Array.from(aligned.ys)]);
    expect(Array.from(unaligned.cells.data)).toEqual(Array.from(aligned.cells.data));
  });

  it('a ×2.5 upscale (cells of 2 and 3 pixels) is traced on its uneven lattice', () => {
    const art = sprite();
    const image = upscale(art, 2.5);
    const lattice = detectLattice(image)!;
    expect(lattice).not.toBeNull();
    const borders = new Set(Array.from({ length: art.width + 1 }, (_, i) => Math.ceil(i * 2.5)));
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    for (const [x, y] of vertices(result)) {
      expect(borders.has(x)).toBe(true);
      expect(borders.has(y)).toBe(true);
    }
    expect(renderDiffShare(result, image, 8)).toBe(0);
  });

  it('a ×4 upscale saved as JPEG q75 comes back lattice-exact with the art colours (within JPEG shift)', () => {
    const clean = upscale(sprite(), 4);
    const image = jpegRoundTrip(clean, 75);
    const lattice = detectLattice(image);
    expect(lattice?.noisy).toBe(true);
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    for (const [x, y] of vertices(result)) {
      expect(x % 4).toBe(0);
      expect(y % 4).toBe(0);
    }
    // JPEG's chroma smearing may leave a few colours on border cells, never one per cell.
    expect(result.shapes.length).toBeLessThan(24);
    expect(fillColors(result).size).toBeLessThanOrEqual(PALETTE.length + 3);
    // Against the clean art: at most a few border cells differ.
    expect(renderDiffShare(result, clean, 40)).toBeLessThan(0.03);
  });

  it('finds no lattice in anti-aliased art, a photo-like gradient or art with long straight runs', () => {
    const size = 96;
    const aa = new Uint8Array(size * size * 4);
    const gradient = new Uint8Array(size * size * 4);
    const strokes = new Uint8Array(size * size * 4);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const o = (y * size + x) * 4;
        const coverage = Math.max(0, Math.min(1, 30 - Math.hypot(x + 0.5 - 48, y + 0.5 - 48) + 0.5));
        aa.set([255 - coverage * 200, 255 - coverage * 150, 255, 255], o);
        gradient.set([(x * 255) / size, (y * 255) / size, 128, 255], o);
        // Vertical strokes of one pixel every other column: no empty columns, cells one wide.
        strokes.set(x % 2 === 0 && y > 10 && y < 80 ? [0, 0, 0, 255] : [255, 255, 255, 255], o);
      }
    }
    expect(detectLattice({ width: size, height: size, data: aa })).toBeNull();
    expect(detectLattice({ width: size, height: size, data: gradient })).toBeNull();
    expect(detectLattice({ width: size, height: size, data: strokes })).toBeNull();
  });
});

describe('pixel art at its own size', () => {
  /** Deterministic pseudo-random numbers (a fixed linear congruential sequence). */
  function random(seed: number): () => number {
    let s = seed;
    return () => {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      return s / 0x7fffffff;
    };
  }

  /** A radial gradient dithered (Floyd–Steinberg) to four colours: many one-pixel shapes. */
  function ditheredSprite(): RgbaImage {
    const size = 64;
    const colors: Rgb[] = [
      [30, 30, 60],
      [90, 60, 120],
      [200, 120, 80],
      [250, 230, 160],
    ];
    const want = new Float64Array(size * size * 3);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const t = Math.min(1, Math.hypot(x - 32, y - 32) / 40);
        for (let k = 0; k < 3; k++) want[(y * size + x) * 3 + k] = colors[0]![k]! * t + colors[3]![k]! * (1 - t);
      }
    }
    const data = new Uint8Array(size * size * 4);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const i = (y * size + x) * 3;
        let best = 0;
        let bestD = Infinity;
        colors.forEach((c, k) => {
          const d = (want[i]! - c[0]) ** 2 + (want[i + 1]! - c[1]) ** 2 + (want[i + 2]! - c[2]) ** 2;
          if (d < bestD) [best, bestD] = [k, d];
        });
        for (let k = 0; k < 3; k++) {
          const err = want[i + k]! - colors[best]![k]!;
          if (x + 1 < size) want[i + 3 + k]! += (err * 7) / 16;
          if (y + 1 < size) {
            if (x > 0) want[i + size * 3 - 3 + k]! += (err * 3) / 16;
            want[i + size * 3 + k]! += (err * 5) / 16;
            if (x + 1 < size) want[i + size * 3 + 3 + k]! += err / 16;
          }
        }
        data.set([...colors[best]!, 255], (y * size + x) * 4);
      }
    }
    return { width: size, height: size, data };
  }

  it('a Floyd–Steinberg dithered sprite is pixel art, traced pixel for pixel', () => {
    const image = ditheredSprite();
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('pixel');
    for (const [x, y] of vertices(result)) expect(Number.isInteger(x) && Number.isInteger(y)).toBe(true);
    expect(renderDiffShare(result, image, 8)).toBe(0);
  });

  it('under cutouts every fill of one colour is one <path>; stacked keeps one element per shape', () => {
    const result = traceImage(ditheredSprite(), DEFAULT_ENGINE_PARAMS);
    const fillsPerColor = (svg: string): Map<string, number> => {
      const counts = new Map<string, number>();
      for (const m of svg.matchAll(/<(?:path|rect) fill="(#[0-9a-f]+)"/g)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
      return counts;
    };
    const merged = writeSvg(result, DEFAULT_OUTPUT_OPTIONS);
    const counts = fillsPerColor(merged);
    expect(counts.size).toBe(4);
    for (const n of counts.values()) expect(n).toBe(1);
    // The one-pixel shapes are unit squares inside those paths, not <rect> elements.
    expect(merged).not.toContain('<rect');
    expect(merged).toMatch(/h1v1h-1z/);
    // Stacked shapes overlap their parents, so each keeps its own element in paint order.
    const stacked = traceImage(ditheredSprite(), { ...DEFAULT_ENGINE_PARAMS, shapeStacking: 'stacked' });
    const perShape = [...fillsPerColor(writeSvg(stacked, DEFAULT_OUTPUT_OPTIONS)).values()].reduce((a, b) => a + b, 0);
    expect(perShape).toBe(stacked.shapes.length);
  });

  it('merges fills by the paint written: colours that round alike share a path, an opacity written as "1" stays apart from none', () => {
    const result = traceImage(ditheredSprite(), DEFAULT_ENGINE_PARAMS);
    expect(result.shapes.length).toBeGreaterThanOrEqual(4);
    // Four colour groups by shape index: two that round to the same #0a141e at opacity .5, one at
    // a = 254.9 (written fill-opacity="1") and one fully opaque of the same channels.
    const paint = [
      { r: 10.2, g: 19.6, b: 30.4, a: 127.4 },
      { r: 9.8, g: 20.4, b: 29.6, a: 127.6 },
      { r: 10, g: 20, b: 30, a: 254.9 },
      { r: 10, g: 20, b: 30, a: 255 },
    ];
    const recoloured = { ...result, shapes: result.shapes.map((s, i) => ({ ...s, color: paint[i % 4]! })) };
    const svg = writeSvg(recoloured, DEFAULT_OUTPUT_OPTIONS);
    const fills = [...svg.matchAll(/<(?:path|rect) (fill="[^"]+"(?: fill-opacity="[^"]+")?)/g)].map((m) => m[1]!);
    const counts = new Map<string, number>();
    for (const f of fills) counts.set(f, (counts.get(f) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(['fill="#0a141e"', 'fill="#0a141e" fill-opacity="0.5"', 'fill="#0a141e" fill-opacity="1"'].sort());
    for (const n of counts.values()) expect(n).toBe(1);
  });

  it('a noise-textured wall tile (small palette, no flat areas) is pixel art, traced pixel for pixel', () => {
    const size = 48;
    const next = random(11);
    const data = new Uint8Array(size * size * 4);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const mortar = y % 12 === 0 || (x + (Math.floor(y / 12) % 2) * 12) % 24 === 0;
        const v = mortar ? 60 + Math.floor(next() * 3) * 8 : 110 + Math.floor(next() * 8) * 9;
        data.set([v, v - 6, v - 14, 255], (y * size + x) * 4);
      }
    }
    const image = { width: size, height: size, data };
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('pixel');
    for (const [x, y] of vertices(result)) expect(Number.isInteger(x) && Number.isInteger(y)).toBe(true);
    expect(renderDiffShare(result, image, 8)).toBe(0);
  });
});

describe('a picture that mixes kinds', () => {
  it('keeps a pixel-art sprite on the lattice inside anti-aliased flat art, and the flat art in curves', () => {
    const width = 320;
    const height = 200;
    const data = new Uint8Array(width * height * 4);
    // Flat art on the left: anti-aliased discs (8×8 supersampled).
    const discs = [
      [60, 60, 40, [200, 40, 40]],
      [70, 150, 35, [30, 90, 200]],
      [150, 100, 45, [40, 160, 60]],
    ] as const;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (let sy = 0; sy < 8; sy++) {
          for (let sx = 0; sx < 8; sx++) {
            let c: readonly number[] = [255, 255, 255];
            for (const [cx, cy, rad, col] of discs) if (Math.hypot(x + (sx + 0.5) / 8 - cx, y + (sy + 0.5) / 8 - cy) < rad) c = col;
            r += c[0]!;
            g += c[1]!;
            b += c[2]!;
          }
        }
        data.set([Math.round(r / 64), Math.round(g / 64), Math.round(b / 64), 255], (y * width + x) * 4);
      }
    }
    // A hard-edged sprite on the right (tiles 8..9 × 2..3 of 32 px): blobs of 1–3 px blocks.
    let seed = 5;
    const next = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const sprite = [
      [250, 220, 60],
      [120, 60, 20],
      [20, 20, 20],
    ];
    for (let y = 64; y < 128; y++) {
      for (let x = 256; x < 320; x++) {
        const inside = Math.hypot(x - 288, y - 96) < 28;
        if (!inside) continue;
        const c = sprite[Math.floor(next() * 3)]!;
        data.set([...c, 255], (y * width + x) * 4);
      }
    }
    const image = { width, height, data };
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('flat');
    let spriteChains = 0;
    let discCurves = 0;
    for (const chain of result.chains) {
      const xs = [chain.startX, ...chain.segments.toSegments().map((s) => s.x)];
      if (xs.every((x) => x > 258) && chain.segments.length > 0) {
        spriteChains++;
        for (const s of chain.segments) {
          expect(s.kind).toBe('line');
          expect(Number.isInteger(s.x) && Number.isInteger(s.y)).toBe(true);
        }
      }
      if (xs.every((x) => x < 200)) discCurves += chain.segments.toSegments().filter((s) => s.kind !== 'line').length;
    }
    expect(spriteChains).toBeGreaterThan(100);
    expect(discCurves).toBeGreaterThan(3);
  });
});
