import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { MAX_RESULT_PIXELS, TracelabError } from '../../src/engine/errors.js';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { Chain, Rgba, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { buildPlan, type OutputPlan } from '../../src/formats/plan.js';
import { pngSize, renderPlan, writePlanPng } from '../../src/formats/png.js';
import { rasterizeShapes } from '../../src/formats/raster.js';
import { writeSvgPlan } from '../../src/formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS, outputOptions, type OutputOptions, type SizeOptions } from '../../src/formats/types.js';
import { meanAbsDiff, renderSvgWithResvg } from '../helpers/compare.js';
import { disc, drawShape, rect, type Rgb } from '../helpers/raster.js';
import { SegmentPath } from '../../src/engine/segment-path.js';

const WHITE: Rgb = [255, 255, 255];
const NO_GAP = { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, enabled: false };

function pngPlan(result: TraceResult, overrides: Partial<OutputOptions> = {}): OutputPlan {
  return buildPlan(result, outputOptions({ fileFormat: 'png', ...overrides }));
}

function size(over: Partial<SizeOptions>): SizeOptions {
  return { ...DEFAULT_OUTPUT_OPTIONS.size, ...over };
}

/** An opaque 50×25 picture: a red disc on white. */
function wide(): TraceResult {
  return traceImage(drawShape(50, 25, WHITE, [{ color: [200, 30, 40], inside: disc(25, 12.5, 9) }]), DEFAULT_ENGINE_PARAMS);
}

/** Draws hard-edged rectangles (colour, x0, y0, x1, y1) on a transparent canvas. */
function onTransparent(width: number, height: number, boxes: readonly (readonly [Rgb, number, number, number, number])[]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (const [c, x0, y0, x1, y1] of boxes) {
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const o = (y * width + x) * 4;
        data.set([c[0], c[1], c[2], 255], o);
      }
    }
  }
  return { width, height, data };
}

const alphaAt = (rgba: Uint8Array, width: number, x: number, y: number): number => rgba[(y * width + x) * 4 + 3]!;

/** Σ alpha / 255: the painted area in pixels. */
function ink(rgba: Uint8Array): number {
  let s = 0;
  for (let i = 3; i < rgba.length; i += 4) s += rgba[i]!;
  return s / 255;
}

describe('pngSize and output.size', () => {
  it('renders at 4× the input by default', () => {
    const plan = pngPlan(wide());
    expect(pngSize(plan)).toMatchObject({ width: 200, height: 100, scaleX: 4, scaleY: 4, offsetX: 0, offsetY: 0 });
    const png = decode(writePlanPng(plan));
    expect([png.width, png.height, png.channels]).toEqual([200, 100, 4]);
  });

  it('scale 1 is the input size', () => {
    const { width, height } = renderPlan(pngPlan(wide(), { size: size({ scale: 1 }) }));
    expect([width, height]).toEqual([50, 25]);
  });

  it('a width in px keeps the aspect ratio', () => {
    const { width, height } = renderPlan(pngPlan(wide(), { size: size({ width: 100, unit: 'px' }) }));
    expect([width, height]).toEqual([100, 50]);
  });

  it('physical units use output_dpi', () => {
    const s = pngSize(pngPlan(wide(), { size: size({ width: 2, unit: 'in', outputDpi: 50 }) }));
    expect([s.width, s.height]).toEqual([100, 50]);
    expect(s.scaleX).toBeCloseTo(2, 12);
  });

  it('preserve_inset centres the picture and leaves transparent margins', () => {
    const plan = pngPlan(wide(), { size: size({ width: 200, height: 200, unit: 'px', aspectRatio: 'preserve_inset' }) });
    expect(pngSize(plan)).toMatchObject({ width: 200, height: 200, offsetX: 0, offsetY: 50 });
    const { rgba, width, height } = renderPlan(plan);
    for (let y = 0; y < height; y++) {
      const expected = y < 50 || y >= 150 ? 0 : 255;
      for (let x = 0; x < width; x++) expect(alphaAt(rgba, width, x, y)).toBe(expected);
    }
  });

  it('stretch fills the whole box', () => {
    const plan = pngPlan(wide(), { size: size({ width: 80, height: 120, unit: 'px', aspectRatio: 'stretch' }) });
    const { rgba, width, height } = renderPlan(plan);
    expect([width, height]).toEqual([80, 120]);
    for (let i = 3; i < rgba.length; i += 4) expect(rgba[i]).toBe(255);
  });

  it('an explicit size above MAX_RESULT_PIXELS is error 1023', () => {
    for (const s of [size({ width: 5000, height: 5000, unit: 'px' }), size({ scale: 200 }), size({ width: 100, unit: 'in', outputDpi: 600 })]) {
      const plan = pngPlan(wide(), { size: s });
      let error: unknown;
      try {
        renderPlan(plan);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TracelabError);
      expect((error as TracelabError).code).toBe(1023);
      expect((error as TracelabError).status).toBe(400);
    }
  });

  it('the default size shrinks a big trace to fit instead of failing', () => {
    // 3000×2000 input: the 4× default would be 12000×8000 = 96 Mpx.
    const big: TraceResult = {
      width: 3000,
      height: 2000,
      inputWidth: 3000,
      inputHeight: 2000,
      chains: [squareChain(1000, 500, 1000)],
      shapes: [{ region: 0, color: { r: 10, g: 20, b: 30, a: 255 }, outer: [{ chain: 0, reversed: false }], holes: [], areaPx: 1e6, parent: -1 }],
      stats: { colors: 1, regions: 1, chains: 1, profile: 'flat', stageMs: {} },
    };
    const plan = pngPlan(big);
    expect(plan.page.explicitSize).toBe(false);
    const s = pngSize(plan);
    expect(s.width * s.height).toBeLessThanOrEqual(MAX_RESULT_PIXELS);
    expect(s.width * s.height).toBeGreaterThan(0.999 * MAX_RESULT_PIXELS);
    expect(Math.abs(s.width / s.height - 1.5)).toBeLessThan(1e-3);
    expect(s.scaleX).toBeCloseTo(s.width / 3000, 12);
    const { rgba, width, height } = renderPlan(plan);
    expect([width, height]).toEqual([s.width, s.height]);
    // The square covers traced [1000, 2000] × [500, 1500].
    const k = s.scaleX;
    expect(alphaAt(rgba, width, Math.round(1500 * k), Math.round(1000 * k))).toBe(255);
    expect(alphaAt(rgba, width, Math.round(500 * k), Math.round(1000 * k))).toBe(0);
  });
});

function squareChain(x: number, y: number, side: number): Chain {
  return {
    startX: x,
    startY: y,
    segments: SegmentPath.of([
      { kind: 'line', x: x + side, y },
      { kind: 'line', x: x + side, y: y + side },
      { kind: 'line', x, y: y + side },
      { kind: 'line', x, y },
    ]),
    leftRegion: -1,
    rightRegion: 0,
    closed: true,
  };
}

function fillFixtures(): { name: string; image: RgbaImage }[] {
  return [
    {
      name: 'ring (hole, arcs)',
      image: drawShape(64, 56, WHITE, [
        { color: [200, 30, 40], inside: disc(30, 28, 22) },
        { color: [255, 255, 255], inside: disc(30, 28, 9) },
      ]),
    },
    {
      name: 'three overlapping colours',
      image: drawShape(60, 40, WHITE, [
        { color: [200, 30, 40], inside: disc(20, 20, 14) },
        { color: [30, 160, 40], inside: disc(38, 20, 14) },
        { color: [20, 20, 180], inside: rect(25, 5, 35, 35) },
      ]),
    },
  ];
}

describe('fills', () => {
  for (const { name, image } of fillFixtures()) {
    for (const antiAliased of [true, false]) {
      it(`${name}, ${antiAliased ? 'anti-aliased' : 'aliased'}: the plan draws the pixels of rasterizeShapes (within 1 level)`, () => {
        const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
        const { rgba, width, height } = renderPlan(pngPlan(result, { gapFiller: NO_GAP, bitmap: { antiAliased } }));
        const ref = rasterizeShapes(result, { width, height, scaleX: width / result.width, scaleY: height / result.height, antiAliased });
        let worst = 0;
        for (let i = 0; i < ref.length; i++) worst = Math.max(worst, Math.abs(rgba[i]! - ref[i]!));
        expect(worst).toBeLessThanOrEqual(1);
      });
    }
  }

  it('paints an optional background under everything', () => {
    const img = onTransparent(10, 10, [[[0, 0, 255], 2, 2, 8, 8]]);
    const bg: Rgba = { r: 255, g: 255, b: 0, a: 255 };
    const { rgba, width } = renderPlan(pngPlan(traceImage(img, DEFAULT_ENGINE_PARAMS)), { background: bg });
    expect(Array.from(rgba.subarray(0, 4))).toEqual([255, 255, 0, 255]);
    const o = (20 * width + 20) * 4;
    expect(Array.from(rgba.subarray(o, o + 4))).toEqual([0, 0, 255, 255]);
  });
});

describe('aliased mode', () => {
  for (const drawStyle of ['fill_shapes', 'stroke_shapes', 'stroke_edges'] as const) {
    it(`${drawStyle}: every pixel is transparent or opaque`, () => {
      const result = traceImage(fillFixtures()[1]!.image, DEFAULT_ENGINE_PARAMS);
      const { rgba } = renderPlan(pngPlan(result, { drawStyle, bitmap: { antiAliased: false }, strokes: { strokeWidthPx: 1.5, nonScalingStroke: false } }));
      let painted = 0;
      for (let i = 3; i < rgba.length; i += 4) {
        expect(rgba[i] === 0 || rgba[i] === 255).toBe(true);
        if (rgba[i] === 255) painted++;
      }
      expect(painted).toBeGreaterThan(0);
    });
  }
});

describe('strokes', () => {
  // A 20×20 opaque square on a transparent 40×40 canvas: one shape, one closed chain.
  const square = (): TraceResult => traceImage(onTransparent(40, 40, [[[200, 20, 20], 10, 10, 30, 30]]), DEFAULT_ENGINE_PARAMS);
  // Stroke of a closed square path with round joins: perimeter·w minus the corners' (4 − π)·r².
  const squareInk = (side: number, w: number): number => 4 * side * w - (4 - Math.PI) * (w / 2) ** 2;

  for (const drawStyle of ['stroke_shapes', 'stroke_edges'] as const) {
    it(`${drawStyle}: a stroked square covers perimeter × width, transparent inside and outside`, () => {
      const result = square();
      for (const [strokeWidthPx, nonScalingStroke, device] of [
        [1, true, 1],
        [2, true, 2],
        [1, false, 4],
        [2, false, 8],
      ] as const) {
        const plan = pngPlan(result, { drawStyle, strokes: { strokeWidthPx, nonScalingStroke } });
        const { rgba, width } = renderPlan(plan);
        const expected = squareInk(80, device);
        expect(Math.abs(ink(rgba) - expected) / expected).toBeLessThan(0.01);
        expect(alphaAt(rgba, width, 80, 80)).toBe(0); // centre of the square
        expect(alphaAt(rgba, width, 10, 10)).toBe(0); // outside
        expect(alphaAt(rgba, width, 80, 40)).toBe(device >= 2 ? 255 : 128); // on the top side
        expect(Array.from(rgba.subarray((40 * width + 80) * 4, (40 * width + 80) * 4 + 3))).toEqual([200, 20, 20]);
      }
    });
  }

  it('scaling widths are 4× the non-scaling ones at the default size', () => {
    const result = square();
    const a = ink(renderPlan(pngPlan(result, { drawStyle: 'stroke_edges', strokes: { strokeWidthPx: 1.5, nonScalingStroke: true } })).rgba);
    const b = ink(renderPlan(pngPlan(result, { drawStyle: 'stroke_edges', strokes: { strokeWidthPx: 1.5, nonScalingStroke: false } })).rgba);
    expect(b / a).toBeGreaterThan(3.95);
    expect(b / a).toBeLessThan(4.01);
    // At scale 1 both are the same.
    const c = ink(renderPlan(pngPlan(result, { drawStyle: 'stroke_edges', size: size({ scale: 1 }), strokes: { strokeWidthPx: 1.5, nonScalingStroke: false } })).rgba);
    const d = ink(renderPlan(pngPlan(result, { drawStyle: 'stroke_edges', size: size({ scale: 1 }), strokes: { strokeWidthPx: 1.5, nonScalingStroke: true } })).rgba);
    expect(c).toBeCloseTo(d, 9);
  });

  it('uses the override colour', () => {
    const overrideColor: Rgba = { r: 0, g: 128, b: 255, a: 255 };
    const { rgba } = renderPlan(pngPlan(square(), { drawStyle: 'stroke_shapes', strokes: { strokeWidthPx: 2, nonScalingStroke: true, overrideColor } }));
    let painted = 0;
    for (let o = 0; o < rgba.length; o += 4) {
      if (rgba[o + 3] === 0) continue;
      painted++;
      expect([rgba[o], rgba[o + 1], rgba[o + 2]]).toEqual([0, 128, 255]);
    }
    expect(painted).toBeGreaterThan(600);
  });

  it('width 0 draws nothing', () => {
    const { rgba } = renderPlan(pngPlan(square(), { drawStyle: 'stroke_edges', strokes: { strokeWidthPx: 0, nonScalingStroke: true } }));
    expect(ink(rgba)).toBe(0);
  });

  it('round joins and caps: coverage matches a supersampled union of capsules', () => {
    // An open zigzag (sharp and blunt turns, one tiny edge) and a closed square, in traced units.
    const zig: Chain = {
      startX: 3.3,
      startY: 5.1,
      segments: SegmentPath.of([
        { kind: 'line', x: 30.2, y: 8.7 },
        { kind: 'line', x: 6.1, y: 14.2 },
        { kind: 'line', x: 33.7, y: 20.9 },
        { kind: 'line', x: 20, y: 21.5 },
        { kind: 'line', x: 21, y: 35.3 },
        { kind: 'line', x: 21.4, y: 35.1 },
      ]),
      leftRegion: -1,
      rightRegion: 0,
      closed: false,
    };
    // The square's sides (±r) fall on the reference's sample grid, so only its corners are sampled.
    for (const chain of [zig, squareChain(10.25, 9.5, 20)]) {
      const result: TraceResult = {
        width: 40,
        height: 40,
        inputWidth: 40,
        inputHeight: 40,
        chains: [chain],
        shapes: [{ region: 0, color: { r: 0, g: 0, b: 0, a: 255 }, outer: [{ chain: 0, reversed: false }], holes: [], areaPx: 1, parent: -1 }],
        stats: { colors: 1, regions: 1, chains: 1, profile: 'flat', stageMs: {} },
      };
      const pts = [chain.startX, chain.startY, ...chain.segments.toSegments().flatMap((s) => [s.x, s.y])].map((v) => v * 4);
      for (const w of [1, 3, 9]) {
        const { rgba, width, height } = renderPlan(pngPlan(result, { drawStyle: 'stroke_edges', strokes: { strokeWidthPx: w, nonScalingStroke: true } }));
        const { maxErr, meanErr } = compareWithCapsules(rgba, width, height, pts, w / 2);
        // Exact up to the 8-bit output and the reference's sampling, except at the pixel around
        // the inner corner of the sharp turn into the tiny last edge, where the pieces are left
        // uncut and overlap (measured: max 0.098 at w = 9).
        expect(meanErr).toBeLessThan(0.01);
        expect(maxErr).toBeLessThan(chain === zig ? 0.15 : 0.05);
      }
    }
  });
});

/** Max and ink-weighted mean |alpha − true coverage| against 16×16 point samples of the union of capsules. */
function compareWithCapsules(rgba: Uint8Array, width: number, height: number, pts: readonly number[], r: number): { maxErr: number; meanErr: number } {
  const dist = (px: number, py: number, i: number): number => {
    const ax = pts[i]!, ay = pts[i + 1]!, dx = pts[i + 2]! - ax, dy = pts[i + 3]! - ay;
    const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
    return Math.hypot(px - ax - t * dx, py - ay - t * dy);
  };
  const near = (px: number, py: number, d: number): boolean => {
    for (let i = 0; i + 3 < pts.length; i += 2) if (dist(px, py, i) <= d) return true;
    return false;
  };
  let maxErr = 0, sumErr = 0, total = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let cov = 0;
      if (near(x + 0.5, y + 0.5, r + 0.75)) {
        for (let sy = 0; sy < 16; sy++) for (let sx = 0; sx < 16; sx++) if (near(x + (sx + 0.5) / 16, y + (sy + 0.5) / 16, r)) cov++;
        cov /= 256;
      }
      const err = Math.abs(alphaAt(rgba, width, x, y) / 255 - cov);
      maxErr = Math.max(maxErr, err);
      sumErr += err;
      total += cov;
    }
  }
  return { maxErr, meanErr: sumErr / total };
}

describe('gap filler', () => {
  // Red and blue touching on a transparent canvas: the filler runs along their border, whose ends
  // meet transparency, so its round caps poke out of the shapes.
  const pair = (): TraceResult =>
    traceImage(
      onTransparent(40, 40, [
        [[220, 0, 0], 8, 8, 20, 32],
        [[0, 0, 220], 20, 8, 32, 32],
      ]),
      DEFAULT_ENGINE_PARAMS,
    );

  it('with clip paints nothing outside the union of its shapes; without clip the caps show', () => {
    const result = pair();
    const fillsOnly = renderPlan(pngPlan(result, { gapFiller: NO_GAP })).rgba;
    for (const width of [2, 5]) {
      const gap = { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, strokeWidthPx: width };
      const clipped = renderPlan(pngPlan(result, { gapFiller: { ...gap, clip: true } })).rgba;
      const unclipped = renderPlan(pngPlan(result, { gapFiller: { ...gap, clip: false } })).rgba;
      let leaked = 0;
      let outside = 0;
      for (let i = 3; i < fillsOnly.length; i += 4) {
        if (fillsOnly[i] !== 0) continue;
        if (clipped[i] !== 0) leaked++;
        if (unclipped[i] !== 0) outside++;
      }
      expect(leaked).toBe(0);
      expect(outside).toBeGreaterThan(0);
      // Inside the shapes the clip changes nothing.
      for (let i = 0; i < fillsOnly.length; i += 4) if (fillsOnly[i + 3] === 255) expect(clipped.subarray(i, i + 4)).toEqual(unclipped.subarray(i, i + 4));
    }
  });

  it('fills the seam between neighbours: on the border the filler colour shows under the fills', () => {
    const result = pair();
    const plan = pngPlan(result, { gapFiller: { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, clip: true } });
    expect(plan.items.some((i) => i.kind === 'stroke' && i.role === 'gap_filler' && i.clipShapes?.length === 2)).toBe(true);
    const { rgba, width } = renderPlan(plan);
    // Border at device x = 80: left pixel red, right pixel blue, no see-through anywhere inside.
    for (let y = 40; y < 120; y++) {
      expect(alphaAt(rgba, width, 79, y)).toBe(255);
      expect(alphaAt(rgba, width, 80, y)).toBe(255);
    }
  });
});

describe('agreement with resvg on the SVG of the same plan', () => {
  const variants: [string, Partial<OutputOptions>][] = [
    ['fill + scaling gap filler, clipped', { gapFiller: { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, nonScalingStroke: false, clip: true } }],
    ['stroke_shapes', { drawStyle: 'stroke_shapes', strokes: { strokeWidthPx: 1, nonScalingStroke: false } }],
    ['stroke_edges, wide', { drawStyle: 'stroke_edges', strokes: { strokeWidthPx: 3, nonScalingStroke: false } }],
  ];
  for (const { name, image } of fillFixtures()) {
    for (const [label, overrides] of variants) {
      it(`${name}, ${label}: mean |ΔRGB| < 1`, () => {
        const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
        const options = outputOptions({ fileFormat: 'png', ...overrides });
        const { rgba, width, height } = renderPlan(buildPlan(result, options));
        const ref = renderSvgWithResvg(writeSvgPlan(buildPlan(result, { ...options, fileFormat: 'svg' })), width);
        expect(ref.height).toBe(height);
        expect(meanAbsDiff({ width, height, data: rgba }, ref)).toBeLessThan(1);
      });
    }
  }
});

describe('determinism', () => {
  it('two renders give identical bytes', () => {
    const image = fillFixtures()[1]!.image;
    for (const overrides of [
      {},
      { gapFiller: { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, clip: true } },
      { drawStyle: 'stroke_edges' as const, strokes: { strokeWidthPx: 2.5, nonScalingStroke: false } },
      { bitmap: { antiAliased: false } },
    ]) {
      const a = writePlanPng(pngPlan(traceImage(image, DEFAULT_ENGINE_PARAMS), overrides));
      const b = writePlanPng(pngPlan(traceImage(image, DEFAULT_ENGINE_PARAMS), overrides));
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    }
  });
});

describe('render window (the playground\'s sharp view of a zoomed large result)', () => {
  it('the whole page at zoom 1 is the plain render, byte for byte', () => {
    const plan = pngPlan(wide(), { size: size({ scale: 1 }) });
    const whole = renderPlan(plan);
    const windowed = renderPlan(plan, { window: { left: 0, top: 0, width: 50, height: 25, zoom: 1 } });
    expect([windowed.width, windowed.height]).toEqual([50, 25]);
    expect(Buffer.from(windowed.rgba).equals(Buffer.from(whole.rgba))).toBe(true);
  });

  it('a window at zoom 8 is that crop of the page rendered 8× — sharp edges, not a scaled-up 1× bitmap', () => {
    const result = wide();
    const big = renderPlan(pngPlan(result, { size: size({ scale: 8 }) })); // 400 × 200
    const view = renderPlan(pngPlan(result, { size: size({ scale: 1 }) }), { window: { left: 14, top: 3, width: 20, height: 12, zoom: 8 } });
    expect([view.width, view.height]).toEqual([160, 96]);
    let worst = 0;
    for (let y = 0; y < view.height; y++) {
      for (let x = 0; x < view.width; x++) {
        for (let c = 0; c < 4; c++) {
          const a = view.rgba[(y * view.width + x) * 4 + c]!;
          const b = big.rgba[((y + 24) * big.width + x + 112) * 4 + c]!;
          worst = Math.max(worst, Math.abs(a - b));
        }
      }
    }
    expect(worst).toBeLessThanOrEqual(1);
    // The disc's edge crosses a row within about one output pixel: partly covered pixels along a
    // row are few (a 1× bitmap scaled 8× would blur the edge over ~8 pixels).
    const row = 48;
    let partial = 0;
    for (let x = 0; x < view.width; x++) {
      const g = view.rgba[(row * view.width + x) * 4 + 1]!;
      if (g > 40 && g < 245) partial++;
    }
    expect(partial).toBeLessThanOrEqual(4);
  });

  it('refuses a window that is empty or larger than the result limit', () => {
    const plan = pngPlan(wide(), { size: size({ scale: 1 }) });
    expect(() => renderPlan(plan, { window: { left: 0, top: 0, width: 0, height: 10, zoom: 2 } })).toThrow(RangeError);
    expect(() => renderPlan(plan, { window: { left: 0, top: 0, width: 50, height: 25, zoom: 1e4 } })).toThrow(RangeError);
  });
});
