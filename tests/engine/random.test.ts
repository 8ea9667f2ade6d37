/**
 * Property checks on many small random pictures (fixed seed, so every run is the same): tracing
 * never throws, every loop is closed chain to chain, painted area matches the opaque pixels
 * for pixel art, and the SVG, drawn by resvg, paints what the trace paints (our rasteriser's
 * picture of the same trace: no shape lost, none in the wrong colour or place).
 */
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { Chain, Loop, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { buildPlan } from '../../src/formats/plan.js';
import { renderPlan } from '../../src/formats/png.js';
import { writeSvg } from '../../src/formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS } from '../../src/formats/types.js';
import { diffOnCommonArea, grossShareOnCommonArea } from '../helpers/readers.js';

/**
 * resvg against our rasteriser, mean |ΔRGB| on white. Worst measured 10.1 (a 22×3 photo-profile
 * picture: fitted curves a pixel or two across, anti-aliased differently); flat and pixel pictures ≤ 1.2.
 */
const RENDER_MEAN = 15;
/** Share of pixels off by more than 96 levels (a lost or recoloured shape). Measured 0 on all 150. */
const RENDER_GROSS = 0.01;

/** The trace drawn by our own rasteriser at the picture's size (1 px per input pixel). */
function ourPicture(result: TraceResult): RgbaImage {
  const plan = buildPlan(result, { ...DEFAULT_OUTPUT_OPTIONS, fileFormat: 'png', size: { ...DEFAULT_OUTPUT_OPTIONS.size, scale: 1 } });
  const { rgba, width, height } = renderPlan(plan);
  return { width, height, data: rgba };
}

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
  const last = chain.segments.at(chain.segments.length - 1);
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
      expect([rendered.width, rendered.height]).toEqual([image.width, image.height]);
      const drawn: RgbaImage = { width: rendered.width, height: rendered.height, data: new Uint8Array(rendered.pixels) };
      const ours = ourPicture(result);
      expect(diffOnCommonArea(ours, drawn), `picture ${n}: mean |ΔRGB|`).toBeLessThanOrEqual(RENDER_MEAN);
      expect(grossShareOnCommonArea(ours, drawn, 96), `picture ${n}: share of pixels off by > 96`).toBeLessThanOrEqual(RENDER_GROSS);
    }
  });
});
