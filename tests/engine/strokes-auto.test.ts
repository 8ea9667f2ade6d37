/**
 * tracelab.strokes=auto in the engine (src/engine/strokes/auto.ts): fixtures drawn here — lines
 * anti-aliased, 1-bit and through JPEG q75 at several widths and angles, a ring, a rounded
 * rectangle outlining a coloured fill, T/X/Y junctions, a tapered brush line and a leaf — traced,
 * and for the outlined fill written as SVG and rendered back with resvg: each line is one stroke
 * of its width on its centre-line, the fills reach under the strokes (no gap shows), and shapes
 * of varying width stay fills.
 */
import jpeg from 'jpeg-js';
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, maxStrokeWidthInputPx, runJob, traceImage, traceImageWith, type EngineJob, type JobPart, type JobRunner } from '../../src/engine/index.js';
import type { EngineParams, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { outputOptions } from '../../src/formats/types.js';
import { renderSvgWithResvg } from '../helpers/compare.js';
import { distanceToSegment, strokePoints } from '../helpers/geometry.js';
import { drawShape } from '../helpers/raster.js';

type Inside = (x: number, y: number) => boolean;
type Rgb = [number, number, number];

const capsule = (x1: number, y1: number, x2: number, y2: number, w: number): Inside => (x, y) => distanceToSegment(x, y, x1, y1, x2, y2) <= w / 2;
const ring = (cx: number, cy: number, r: number, w: number): Inside => (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) <= w / 2;
const any = (...parts: Inside[]): Inside => (x, y) => parts.some((f) => f(x, y));

/** Signed distance to a rounded rectangle centred at (cx, cy), half sizes hx, hy, corner radius r. */
function roundedRectDistance(x: number, y: number, cx: number, cy: number, hx: number, hy: number, r: number): number {
  const qx = Math.abs(x - cx) - (hx - r);
  const qy = Math.abs(y - cy) - (hy - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** Black ink on white: anti-aliased (8×8 supersampled), thresholded to 1 bit, or through JPEG q75. */
function draw(size: number, inside: Inside, how: 'aa' | '1-bit' | 'jpeg' = 'aa'): RgbaImage {
  const image = drawShape(size, size, [255, 255, 255], [{ color: [0, 0, 0], inside }]);
  if (how === '1-bit') {
    const d = image.data;
    for (let i = 0; i < d.length; i += 4) d[i] = d[i + 1] = d[i + 2] = d[i]! < 128 ? 0 : 255;
  }
  if (how === 'jpeg') {
    const encoded = jpeg.encode({ width: size, height: size, data: Buffer.from(image.data) }, 75).data;
    const decoded = jpeg.decode(encoded, { useTArray: true });
    return { width: size, height: size, data: new Uint8Array(decoded.data) };
  }
  return image;
}

const AUTO: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' };

function auto(image: RgbaImage, params: Partial<EngineParams> = {}): TraceResult {
  return traceImage(image, { ...AUTO, ...params });
}

/** The paper alone: one shape, no holes (it continues under the lines). */
function expectPaperOnly(result: TraceResult, what: string): void {
  expect(result.shapes, what).toHaveLength(1);
  expect(result.shapes[0]!.holes, what).toEqual([]);
  expect(result.shapes[0]!.color, what).toMatchObject({ r: 255, g: 255, b: 255 });
}

describe('tracelab.strokes=auto: free lines become one stroke each over the paper', () => {
  it('anti-aliased, 1-bit and JPEG q75 lines 1–20 px wide at 0–120°: one stroke, width within 5 %, centre-line within 0.5 px, the paper whole', () => {
    const cases: { how: 'aa' | '1-bit' | 'jpeg'; widths: number[]; angles: number[] }[] = [
      { how: 'aa', widths: [2.5, 7, 20], angles: [0, 30, 75, 120] },
      { how: '1-bit', widths: [1, 3, 8], angles: [0, 30, 75] },
      { how: 'jpeg', widths: [4.5, 14], angles: [30, 120] },
    ];
    for (const { how, widths, angles } of cases) {
      for (const w of widths) {
        for (const deg of angles) {
          const a = (deg * Math.PI) / 180;
          // Centred a quarter pixel off the pixel grid: a 1-px line at 0° is one row of pixels, not two half-covered ones.
          const c = 60.25;
          const [x1, y1, x2, y2] = [c - 40 * Math.cos(a), c - 40 * Math.sin(a), c + 40 * Math.cos(a), c + 40 * Math.sin(a)];
          const image = draw(120, capsule(x1, y1, x2, y2, w), how);
          // 1-bit: thresholding quantises the width; the width drawn is the capsule's of the ink's area.
          let drawn = w;
          if (how === '1-bit') {
            let area = 0;
            for (let i = 0; i < image.data.length; i += 4) if (image.data[i] === 0) area++;
            drawn = (-80 + Math.sqrt(80 * 80 + Math.PI * area)) / (Math.PI / 2);
          }
          const result = auto(image, { maxStrokeWidthPx: 24 });
          const what = `${how} w=${w} at ${deg}°`;
          expect(result.strokes, what).toHaveLength(1);
          expect(Math.abs(result.strokes![0]!.widthPx - drawn) / drawn, `${what}: width ${result.strokes![0]!.widthPx}`).toBeLessThanOrEqual(0.05);
          for (const [x, y] of strokePoints(result, 0)) expect(distanceToSegment(x, y, x1, y1, x2, y2), what).toBeLessThanOrEqual(0.5);
          expectPaperOnly(result, what);
          expect(result.stats.strokes).toMatchObject({ count: 1, outlines: 0 });
        }
      }
    }
  });

  it('a ring is one closed stroke on its circle, and the paper inside and outside it is one shape', () => {
    for (const how of ['aa', '1-bit'] as const) {
      const result = auto(draw(120, ring(60, 60, 40, 3), how));
      expect(result.strokes, how).toHaveLength(1);
      expect(result.strokes![0]!.closed, how).toBe(true);
      expect(Math.abs(result.strokes![0]!.widthPx - 3) / 3, how).toBeLessThanOrEqual(0.05);
      for (const [x, y] of strokePoints(result, 0)) expect(Math.abs(Math.hypot(x - 60, y - 60) - 40), how).toBeLessThanOrEqual(0.5);
      expectPaperOnly(result, how);
    }
  });

  it('T, X and Y junctions of one pen: two strokes, no fill left of the ink', () => {
    const arm = (deg: number): Inside => capsule(60, 60, 60 + 40 * Math.cos((deg * Math.PI) / 180), 60 + 40 * Math.sin((deg * Math.PI) / 180), 4);
    const pictures: [string, Inside][] = [
      ['T', any(capsule(20, 30, 100, 30, 3), capsule(60, 30, 60, 100, 3))],
      ['X', any(capsule(20, 20, 100, 100, 3), capsule(20, 100, 100, 20, 3))],
      ['Y', any(arm(-90), arm(30), arm(150))],
    ];
    for (const [what, inside] of pictures) {
      const result = auto(draw(120, inside));
      expect(result.strokes, what).toHaveLength(2);
      expectPaperOnly(result, what);
    }
  });
});

describe('tracelab.strokes=auto: outlines over the fills they border', () => {
  // A rounded rectangle 20…100 × 20…80 (corner radius 12) outlined 4 px wide in dark grey
  // (centre-line: the rounded rectangle 2 px inside it), filled with orange inside.
  const INK: Rgb = [30, 30, 30];
  const FILL: Rgb = [240, 180, 40];
  const WIDTH = 4;
  const centreDistance = (x: number, y: number): number => roundedRectDistance(x, y, 60, 50, 38, 28, 10);
  const outlined = drawShape(120, 100, [255, 255, 255], [
    { color: INK, inside: (x, y) => roundedRectDistance(x, y, 60, 50, 40, 30, 12) <= 0 },
    { color: FILL, inside: (x, y) => centreDistance(x, y) <= -WIDTH / 2 },
  ]);

  it('the outline is one closed stroke on its centre-line, and the fill inside reaches under it to the centre-line', () => {
    const result = auto(outlined);
    expect(result.strokes).toHaveLength(1);
    const stroke = result.strokes![0]!;
    expect(stroke.closed).toBe(true);
    expect(stroke.color).toMatchObject({ r: 30, g: 30, b: 30 });
    expect(Math.abs(stroke.widthPx - WIDTH) / WIDTH).toBeLessThanOrEqual(0.05);
    for (const [x, y] of strokePoints(result, 0)) expect(Math.abs(centreDistance(x, y))).toBeLessThanOrEqual(0.5);
    // Two shapes: the paper (with the fill's hole) and the fill, whose area is the centre-line's
    // rounded rectangle's (76 × 56 less the corners of radius 10), not the 72 × 52 painted orange.
    expect(result.shapes).toHaveLength(2);
    const fill = result.shapes.find((s) => s.color.r === 240)!;
    const centreArea = 76 * 56 - (4 - Math.PI) * 10 * 10;
    expect(Math.abs(fill.areaPx - centreArea) / centreArea).toBeLessThanOrEqual(0.02);
  });

  it('written as SVG and rendered, it is the picture: no gap between the fill and its outline, with the gap filler on or off', () => {
    const result = auto(outlined);
    for (const gapFiller of [true, false]) {
      const svg = writeSvg(result, outputOptions({ gapFiller: { enabled: gapFiller, nonScalingStroke: true, clip: false, strokeWidthPx: 2 } }));
      const back = renderSvgWithResvg(svg, 120);
      // Away from the outline's two edges (where a sub-pixel shift of the edge changes the blend),
      // every pixel — the fill up to the outline, the outline's body, the paper — is the picture's.
      let worst = 0;
      for (let y = 0; y < 100; y++) {
        for (let x = 0; x < 120; x++) {
          const d = centreDistance(x + 0.5, y + 0.5);
          if (Math.abs(Math.abs(d) - WIDTH / 2) < 1) continue;
          for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(back.data[(y * 120 + x) * 4 + c]! - outlined.data[(y * 120 + x) * 4 + c]!));
        }
      }
      expect(worst, `gap filler ${gapFiller}`).toBeLessThanOrEqual(12);
    }
  });

  it('the fills meet under the stroke, so their border gets no gap filler (tracelab.strokes=none writes one)', () => {
    const options = outputOptions({ gapFiller: { enabled: true, nonScalingStroke: true, clip: false, strokeWidthPx: 2 } });
    const result = auto(outlined);
    expect(result.chainsUnderStrokes!.length).toBeGreaterThan(0);
    expect(writeSvg(result, options)).not.toContain('non-scaling-stroke');
    expect(writeSvg(traceImage(outlined, DEFAULT_ENGINE_PARAMS), options)).toContain('non-scaling-stroke');
  });
});

describe('tracelab.strokes=auto: the widest line by default is 1/12 of the picture (a line icon at any size)', () => {
  it('a 16-px line is a stroke in a 240-px picture (limit 20 px) and a fill in a 120-px one (limit 10 px)', () => {
    const big = traceImage(draw(240, capsule(40, 120, 200, 120, 16)), AUTO);
    expect(big.strokes).toHaveLength(1);
    expect(Math.abs(big.strokes![0]!.widthPx - 16) / 16).toBeLessThanOrEqual(0.05);
    expect(maxStrokeWidthInputPx(AUTO, 240, 300)).toBe(20);
    expect(maxStrokeWidthInputPx(AUTO, 60, 60)).toBe(8);
    expect(maxStrokeWidthInputPx(AUTO, 1200, 1200)).toBe(32);
    expect(maxStrokeWidthInputPx({ ...AUTO, maxStrokeWidthPx: 5 }, 1200, 1200)).toBe(5);
    expect(traceImage(draw(120, capsule(20, 60, 100, 60, 16)), AUTO).strokes ?? []).toEqual([]);
  });
});

describe('tracelab.strokes=auto: shapes of varying width stay fills', () => {
  it('a tapered brush line (1 → 9 px) and a leaf are fills, as with tracelab.strokes=none', () => {
    const taper: Inside = (x, y) => {
      const t = (x - 15) / 90;
      return t >= 0 && t <= 1 && Math.abs(y - 60) <= (1 + 8 * t) / 2;
    };
    const leaf: Inside = (x, y) => Math.hypot(x - 60, y - 60 + 60) <= 75 && Math.hypot(x - 60, y - 60 - 60) <= 75 && Math.abs(x - 60) < 50;
    for (const [what, inside] of [
      ['taper', taper],
      ['leaf', leaf],
    ] as const) {
      const image = draw(120, inside);
      const result = auto(image, { maxStrokeWidthPx: 24 });
      expect(result.strokes ?? [], what).toEqual([]);
      expect(JSON.stringify(result.shapes), what).toBe(JSON.stringify(traceImage(image, DEFAULT_ENGINE_PARAMS).shapes));
    }
  });

  it('a ring whose width swells from 4.5 to 6.5 px (a lettered O) is a fill: drawn at one width it does not reproduce the ink', () => {
    const glyph: Inside = (x, y) => Math.abs(Math.hypot(x - 60, y - 60) - 35) <= (5.5 + Math.cos(2 * Math.atan2(y - 60, x - 60))) / 2;
    const image = draw(120, glyph);
    const result = auto(image);
    expect(result.strokes ?? []).toEqual([]);
    expect(JSON.stringify(result.shapes)).toBe(JSON.stringify(traceImage(image, DEFAULT_ENGINE_PARAMS).shapes));
  });

  it('a thin band of a shade beside a near shade (a bevel highlight) stays a fill; a dark line across the same grey is a stroke', () => {
    const image = drawShape(120, 120, [255, 255, 255], [
      { color: [150, 150, 150], inside: (x, y) => x >= 10 && x < 110 && y >= 10 && y < 110 },
      // 35 levels lighter: an RGB distance of 61 from the grey.
      { color: [185, 185, 185], inside: capsule(25, 30, 95, 30, 5) },
      { color: [20, 20, 20], inside: capsule(25, 80, 95, 80, 3) },
    ]);
    const result = auto(image);
    expect(result.strokes).toHaveLength(1);
    expect(result.strokes![0]!.color).toMatchObject({ r: 20, g: 20, b: 20 });
    expect(result.shapes.map((s) => s.color.r)).toContain(185);
  });

  it('ink wider than max_stroke_width stays a fill beside a line that becomes a stroke', () => {
    const image = draw(120, any(capsule(15, 20, 105, 20, 3), (x, y) => Math.hypot(x - 60, y - 75) <= 25));
    const result = auto(image);
    expect(result.strokes).toHaveLength(1);
    expect(result.shapes.filter((s) => s.color.r === 0)).toHaveLength(1);
  });
});

describe('tracelab.strokes=auto: determinism', () => {
  function cloningRunner(threads: number): JobRunner {
    return {
      threads,
      minPixels: 0,
      run(job: EngineJob, parts: readonly JobPart[]) {
        return Promise.resolve(parts.map((part) => runJob(structuredClone(job), part)));
      },
    };
  }

  it('the same SVG bytes in line and over 1 and 2 threads', async () => {
    const image = draw(120, any(ring(60, 60, 40, 3), capsule(20, 30, 100, 30, 3), capsule(60, 30, 60, 100, 5)));
    const inLine = writeSvg(auto(image), outputOptions({}));
    for (const threads of [1, 2]) {
      const threaded = await traceImageWith(cloningRunner(threads), image, AUTO);
      expect(writeSvg(threaded, outputOptions({})), `${threads} threads`).toBe(inLine);
    }
  });
});
