/**
 * Property checks on many small random pictures (fixed seed, so every run is the same): tracing
 * never throws, every loop is closed chain to chain, painted area matches the opaque pixels
 * for pixel art, and the SVG renders.
 */
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { Chain, Loop, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Blocks of a few colours, optional noise, anti-aliasing-like blends and transparency. */
function randomImage(rnd: () => number): RgbaImage {
  const width = 1 + Math.floor(rnd() * 24);
  const height = 1 + Math.floor(rnd() * 24);
  const colors = Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => [rnd() * 255, rnd() * 255, rnd() * 255].map(Math.round));
  const block = 1 + Math.floor(rnd() * 4);
  const noise = rnd() < 0.3 ? 20 : 0;
  const transparent = rnd() < 0.3;
  const data = new Uint8Array(width * height * 4);
  const pick = Array.from({ length: 64 }, () => Math.floor(rnd() * colors.length));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = colors[pick[(Math.floor(y / block) * 8 + Math.floor(x / block)) % 64]!]!;
      const o = (y * width + x) * 4;
      for (let k = 0; k < 3; k++) data[o + k] = Math.max(0, Math.min(255, c[k]! + Math.round((rnd() - 0.5) * noise)));
      data[o + 3] = transparent && rnd() < 0.2 ? Math.floor(rnd() * 256) : 255;
    }
  }
  return { width, height, data };
}

function endOf(chain: Chain): [number, number] {
  const last = chain.segments[chain.segments.length - 1];
  return last ? [last.x, last.y] : [chain.startX, chain.startY];
}

function expectClosed(result: TraceResult, loop: Loop): void {
  const ends = loop.map((use) => {
    const chain = result.chains[use.chain]!;
    const start: [number, number] = [chain.startX, chain.startY];
    const end = endOf(chain);
    return use.reversed ? [end, start] : [start, end];
  });
  for (let i = 0; i < ends.length; i++) {
    const [, end] = ends[i]!;
    const [nextStart] = ends[(i + 1) % ends.length]!;
    expect(Math.hypot(end[0] - nextStart[0], end[1] - nextStart[1])).toBeLessThan(1e-9);
  }
}

describe('random pictures', () => {
  it('trace without errors into closed loops that render', () => {
    const rnd = random(20261121);
    for (let n = 0; n < 150; n++) {
      const image = randomImage(rnd);
      const stacking = rnd() < 0.5 ? 'cutouts' : 'stacked';
      const result = traceImage(image, { ...DEFAULT_ENGINE_PARAMS, shapeStacking: stacking, maxColors: Math.floor(rnd() * 4) });
      for (const shape of result.shapes) {
        expectClosed(result, shape.outer);
        for (const hole of shape.holes) expectClosed(result, hole);
      }
      if (result.stats.profile === 'pixel' && stacking === 'cutouts') {
        let opaque = 0;
        for (let i = 0; i < image.width * image.height; i++) if (image.data[i * 4 + 3]! >= 128) opaque++;
        expect(result.shapes.reduce((sum, s) => sum + s.areaPx, 0)).toBe(opaque);
      }
      const svg = writeSvg(result);
      const rendered = new Resvg(svg, { fitTo: { mode: 'original' } }).render();
      expect(rendered.width).toBe(image.width);
    }
  });
});
