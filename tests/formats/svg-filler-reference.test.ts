/**
 * The SVG writer's gap filler on a two-colour picture under cutouts (ink on paper): written as a
 * <use> of each shape of one colour instead of a third copy of every shared border. The render
 * must be the one the bordered filler gives, the file smaller; any other picture or option keeps
 * the filler written border by border.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { RgbaImage } from '../../src/engine/types.js';
import { buildPlan } from '../../src/formats/plan.js';
import { writeSvgDocument, writeSvgPlan } from '../../src/formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS, type OutputOptions } from '../../src/formats/types.js';
import { renderSvgWithResvg } from '../helpers/compare.js';

/** Ink where `inside` holds at the pixel centre (a 1-bit drawing), paper elsewhere. */
function drawing(width: number, height: number, inside: (x: number, y: number) => number, colors: [number, number, number][]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = colors[inside(x + 0.5, y + 0.5)]!;
      data.set([c[0], c[1], c[2], 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

// Rows of rings ("o") and bars ("l"), each a little different (no two outlines the same text, as
// in a real drawing), and a disc touching the picture's edge: holes, counters, edge borders;
// enough of them that the borders outgrow deflate's window.
const scene = (x: number, y: number): number => {
  const row = Math.floor(y / 50);
  for (let k = 0; k < 14; k++) {
    const n = row * 14 + k;
    const cx = 20 + k * 42 + ((n * 37) % 17) / 3;
    const cy = row * 50 + 25 + ((n * 23) % 11) / 4;
    const r = 9 + ((n * 13) % 7) / 2;
    if (Math.abs(Math.hypot((x - cx) * (1 + (n % 5) / 20), y - cy) - r) < 3.4) return 1;
    if (Math.abs(x - cx - r - 7 - (y - cy) * ((n % 3) - 1) * 0.15) < 2.6 && Math.abs(y - cy) < 19) return 1;
  }
  return Math.hypot(x - 600, y - 300) < 60 ? 1 : 0;
};
const inkOnPaper = drawing(600, 300, scene, [[250, 248, 240], [20, 20, 30]]);

function svgs(image: RgbaImage, options: OutputOptions = DEFAULT_OUTPUT_OPTIONS, stacking: 'cutouts' | 'stacked' = 'cutouts'): { byReference: string; bordered: string } {
  const plan = buildPlan(traceImage(image, { ...DEFAULT_ENGINE_PARAMS, shapeStacking: stacking }), { ...options, fileFormat: 'svg' });
  return { byReference: writeSvgPlan(plan), bordered: writeSvgDocument(plan, false) };
}

function maxChannelDiff(a: RgbaImage, b: RgbaImage): { max: number; over8: number } {
  let max = 0;
  let over8 = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = Math.abs(a.data[i]! - b.data[i]!);
    if (d > max) max = d;
    if (d > 8) over8++;
  }
  return { max, over8 };
}

describe('SVG gap filler by reference (two colours, cutouts)', () => {
  it('strokes the shapes of one colour through <use>, renders as the bordered filler does, and is smaller', () => {
    const { byReference, bordered } = svgs(inkOnPaper);
    expect(byReference).toMatch(/<g fill="none" stroke="#[0-9a-f]{6}" stroke-width="2"[^>]*>\n<use xlink:href="#f0"\/>/);
    expect(byReference).not.toMatch(/<path[^>]*stroke=/);
    expect(bordered).toMatch(/<path[^>]*stroke=/);
    const a = renderSvgWithResvg(byReference, inkOnPaper.width);
    const b = renderSvgWithResvg(bordered, inkOnPaper.width);
    // The same picture: the strokes it adds on the picture's edge lie outside the view or under a fill.
    const diff = maxChannelDiff(a, b);
    expect(diff.over8).toBe(0);
    expect(gzipSync(byReference).length).toBeLessThan(gzipSync(bordered).length);
  });

  it('a small two-colour file keeps the bordered filler (gzip already stores its copies once)', () => {
    const small = drawing(120, 60, (x, y) => (Math.abs(Math.hypot(x - 30, y - 30) - 12) < 4 ? 1 : 0), [[250, 248, 240], [20, 20, 30]]);
    const { byReference, bordered } = svgs(small);
    expect(byReference).toBe(bordered);
  });

  it('leaves every other picture and option as it was: three colours, stacked, Adobe mode, no filler', () => {
    const three = drawing(600, 300, (x, y) => (scene(x, y) ? 1 : x > 300 ? 2 : 0), [[250, 248, 240], [20, 20, 30], [200, 40, 40]]);
    for (const [image, options, stacking] of [
      [three, DEFAULT_OUTPUT_OPTIONS, 'cutouts'],
      [inkOnPaper, DEFAULT_OUTPUT_OPTIONS, 'stacked'],
      [inkOnPaper, { ...DEFAULT_OUTPUT_OPTIONS, svg: { ...DEFAULT_OUTPUT_OPTIONS.svg, adobeCompatibilityMode: true } }, 'cutouts'],
      [inkOnPaper, { ...DEFAULT_OUTPUT_OPTIONS, gapFiller: { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, enabled: false } }, 'cutouts'],
    ] as [RgbaImage, OutputOptions, 'cutouts' | 'stacked'][]) {
      const { byReference, bordered } = svgs(image, options, stacking);
      expect(byReference).toBe(bordered);
      expect(byReference).not.toContain('<use');
    }
  });
});
