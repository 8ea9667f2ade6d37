/**
 * Issue 39 item 1: no flat colour lost. A flat tone of the art that covers a real share of the
 * picture keeps its own shape however close it is to its neighbour (the corpus lemon's shadow,
 * 3 ΔE00 from the body), while tones a person cannot tell apart (JPEG's two blues) and a rendered
 * gradient's one-unit steps still merge.
 */
import { describe, expect, it } from 'vitest';
import { deltaE2000 } from '../../src/engine/color.js';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { RgbaImage } from '../../src/engine/types.js';
import { drawPainted, type LinearRamp } from '../helpers/gradient-scenes.js';
import { disc, drawShape, type Rgb } from '../helpers/raster.js';

const WHITE: Rgb = [255, 255, 255];

function fills(image: RgbaImage): Map<string, number> {
  const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
  const areas = new Map<string, number>();
  for (const s of result.shapes) {
    const key = [s.color.r, s.color.g, s.color.b].map((v) => v.toString(16).padStart(2, '0')).join('');
    areas.set(key, (areas.get(key) ?? 0) + s.areaPx);
  }
  return areas;
}

describe('CIEDE2000 (Sharma, Wu & Dalal 2005 test data)', () => {
  it.each([
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
  ])('%j vs %j is %f', (a, b, expected) => {
    expect(deltaE2000(Float64Array.from(a), 0, Float64Array.from(b), 0)).toBeCloseTo(expected, 4);
  });
});

describe('flat colours of the art are kept', () => {
  it('a shadow tone 3 ΔE00 from the body colour keeps its own shape (the corpus lemon)', () => {
    const body: Rgb = [0xf7, 0xf6, 0x19];
    const shadow: Rgb = [0xe8, 0xe8, 0x00];
    const image = drawShape(160, 160, WHITE, [
      { color: body, inside: disc(80, 80, 64) },
      { color: shadow, inside: (x, y) => disc(80, 80, 64)(x, y) && !disc(62, 66, 58)(x, y) },
    ]);
    const areas = fills(image);
    // Exactly the art's two tones, each with about its drawn area (not one in-between yellow).
    expect(areas.get('f7f619')).toBeGreaterThan(6000);
    expect(areas.get('e8e800')).toBeGreaterThan(2500);
    expect([...areas.keys()].sort()).toEqual(['e8e800', 'f7f619', 'ffffff']);
  });

  it('two tones a person cannot tell apart (1 ΔE00, JPEG-like) stay one colour', () => {
    const image = drawShape(160, 160, WHITE, [
      { color: [0, 0, 0xfe], inside: disc(80, 80, 64) },
      { color: [0, 0, 0xf6], inside: (x, y) => disc(80, 80, 64)(x, y) && x > 80 },
    ]);
    const areas = fills(image);
    expect(areas.size).toBe(2); // the blue and the paper
    expect(areas.get('ffffff')).toBeGreaterThan(0);
  });

  it('two tones joined by soft steps are one colour, though a person tells them apart', () => {
    // Diagonal stripes of two greys 3 units apart (2.9 ΔE00: a neutral grey and a greenish one),
    // each over 40 % of the picture: their borders are mostly with each other, steps of at most 3
    // units, as a rendered gradient's tones are: not distinct flat colours.
    const a: Rgb = [128, 127, 128];
    const b: Rgb = [128, 130, 128];
    const stripe = (x: number, y: number) => Math.floor((x + y) / 14) % 2 === 0;
    const image = drawShape(200, 200, WHITE, [
      { color: a, inside: disc(100, 100, 96) },
      { color: b, inside: (x, y) => disc(100, 100, 96)(x, y) && stripe(x, y) },
    ]);
    expect(fills(image).size).toBe(2); // one grey and the paper
  });

  it("a rendered gradient's one-unit steps are not each a colour of their own", () => {
    // A grey ramp 100 → 148 over a 200 × 160 px disc: each of the 48 one-unit tones is exact and
    // flat over ~1.5 % of the picture, but borders the next tone one unit away.
    const ramp: LinearRamp = { kind: 'linear', x1: 40, y1: 0, x2: 200, y2: 0, stops: [{ offset: 0, color: [100, 100, 100] }, { offset: 1, color: [148, 148, 148] }] };
    const image = drawPainted(240, 200, WHITE, [{ paint: ramp, inside: disc(120, 100, 96) }]);
    expect(fills(image).size).toBeLessThanOrEqual(10);
  });
});
