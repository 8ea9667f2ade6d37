/**
 * Smooth means smooth (issue 39 item 3): skies the tests paint, with grain from a seeded PRNG, saved
 * as JPEG q75 and decoded, come back with `tracelab.gradients=true` without visible bands.
 * - a vertical sky (dark blue to orange): one linear gradient shape, no other shape;
 * - a lake: sky above, a darker water gradient below, a dark shore strip between: one gradient
 *   per smooth area, the shore flat;
 * - a storm sky whose iso-lines bend (no one gradient explains it; a photo by the profile): its
 *   shades become a few gradient pieces (neighbouring shades merged while one ramp explains them,
 *   seams refitted to the picture), and the render's visible steps (neighbouring pixels more than
 *   ΔE00 2 apart) fall well below the flat bands' — the figure the bench's band measure reports.
 */
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { RgbaImage, TraceResult } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { renderSvgWithResvg } from '../helpers/compare.js';
import { deltaE2000, type Rgb3 } from '../helpers/delta-e.js';
import { encodeJpeg } from '../helpers/encode.js';

const ON = { ...DEFAULT_ENGINE_PARAMS, gradients: true };

/** Mulberry32: a small seeded PRNG (the grain is the same on every run). */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A picture painted by `paint`, with grain (a sum of three uniforms, ± grain / 2 at most per channel), as JPEG q75 decoded. */
function grainyJpeg(width: number, height: number, grain: number, seed: number, paint: (x: number, y: number) => Rgb3): RgbaImage {
  const random = prng(seed);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = paint(x, y);
      const noise = (random() + random() + random() - 1.5) * grain;
      const o = (y * width + x) * 4;
      for (let k = 0; k < 3; k++) data[o + k] = Math.max(0, Math.min(255, Math.round(c[k]! + noise)));
      data[o + 3] = 255;
    }
  }
  const decoded = jpeg.decode(encodeJpeg({ width, height, data }, 75), { useTArray: true, formatAsRGBA: true });
  return { width: decoded.width, height: decoded.height, data: new Uint8Array(decoded.data) };
}

const mix = (a: Rgb3, b: Rgb3, t: number): Rgb3 => {
  const u = Math.max(0, Math.min(1, t));
  return [a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u, a[2] + (b[2] - a[2]) * u];
};

/** Px of visible step in the render: neighbouring pixels (right, below) more than ΔE00 2 apart, within rows [fromY, toY). */
function bandPx(result: TraceResult, width: number, fromY = 0, toY = Infinity): number {
  const image = renderSvgWithResvg(writeSvg(result), width);
  const d = image.data;
  const at = (p: number): Rgb3 => [d[p * 4]!, d[p * 4 + 1]!, d[p * 4 + 2]!];
  let steps = 0;
  // ΔE00 2 needs a channel to move by more than 1: identical and near neighbours are not measured.
  const step = (p: number, q: number): number => {
    if (Math.abs(d[p * 4]! - d[q * 4]!) <= 1 && Math.abs(d[p * 4 + 1]! - d[q * 4 + 1]!) <= 1 && Math.abs(d[p * 4 + 2]! - d[q * 4 + 2]!) <= 1) return 0;
    return deltaE2000(at(p), at(q)) > 2 ? 1 : 0;
  };
  for (let y = fromY; y < Math.min(toY, image.height); y++) {
    for (let x = 0; x < image.width; x++) {
      const p = y * image.width + x;
      if (x + 1 < image.width) steps += step(p, p + 1);
      if (y + 1 < Math.min(toY, image.height)) steps += step(p, p + image.width);
    }
  }
  return steps;
}

describe('tracelab.gradients: a grainy JPEG sky has no bands', () => {
  it('a vertical sky gradient (256 × 256, dark blue to orange, grain, JPEG q75) is one linear gradient shape and nothing else', () => {
    const image = grainyJpeg(256, 256, 12, 1, (_x, y) => mix([20, 40, 110], [250, 150, 60], y / 255));
    const result = traceImage(image, ON);
    expect(result.shapes).toHaveLength(1);
    const g = result.shapes[0]!.gradient;
    expect(g?.kind).toBe('linear');
    if (g?.kind !== 'linear') return;
    // Vertical (within 2°), dark at the top.
    expect(Math.abs(Math.atan2(Math.abs(g.x2 - g.x1), Math.abs(g.y2 - g.y1)) * (180 / Math.PI))).toBeLessThanOrEqual(2);
    expect(bandPx(result, 256)).toBe(0);
  });

  it('a lake (sky gradient, a dark shore strip, a darker water gradient) is one gradient per smooth area and the flat shore between them', () => {
    const image = grainyJpeg(256, 256, 12, 2, (_x, y) => (y < 140 ? mix([30, 60, 140], [240, 160, 90], y / 139) : y < 156 ? [40, 35, 30] : mix([90, 80, 70], [20, 30, 60], (y - 156) / 99)));
    const result = traceImage(image, ON);
    const shaded = result.shapes.filter((s) => s.gradient);
    expect(shaded.map((s) => s.gradient!.kind)).toEqual(['linear', 'linear']);
    // The sky's gradient covers the rows above the shore, the water's those below.
    const flat = result.shapes.filter((s) => !s.gradient);
    expect(flat).toHaveLength(1);
    expect(deltaE2000([flat[0]!.color.r, flat[0]!.color.g, flat[0]!.color.b], [40, 35, 30])).toBeLessThan(3);
    // No band inside the sky (rows 4–134) or the water (rows 162–251).
    expect(bandPx(result, 256, 4, 134)).toBe(0);
    expect(bandPx(result, 256, 162, 251)).toBe(0);
  });

  it('a storm sky whose iso-lines bend (a photo): its shades become a few gradient pieces, and the render has under 0.4× the visible steps of flat bands', () => {
    const image = grainyJpeg(320, 240, 10, 3, (x, y) => {
      const t = 1.1 * (x / 320) * (0.6 + 0.4 * Math.sin((y / 240) * Math.PI)) + 0.25 * Math.exp(-(((x - 100) / 60) ** 2 + ((y - 150) / 40) ** 2));
      return mix([30, 45, 75], [200, 210, 235], t);
    });
    const on = traceImage(image, ON);
    const off = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(on.stats.profile).toBe('photo');
    // A few pieces, each several shades joined along their seams (7 one-shade pieces before the
    // merge; 4 now), …
    expect(on.stats.gradients).toBeGreaterThanOrEqual(2);
    expect(on.stats.gradients).toBeLessThanOrEqual(5);
    const stepsOn = bandPx(on, 320);
    const stepsOff = bandPx(off, 320);
    // … that meet their neighbours at the picture's colour: 0.31× the flat bands' steps (0.55× with
    // one-shade pieces fitted alone).
    expect(stepsOn).toBeLessThan(0.4 * stepsOff);
  });
});
