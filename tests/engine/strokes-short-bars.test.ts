/**
 * Short fat round-capped bars (a sun's rays, dashes, the dot of an "i" drawn as a short line): a
 * 21-px pen, bars 30–60 px long end to end, at eight angles, anti-aliased, in a 256-px picture
 * (the automatic max_stroke_width is 256 / 12 = 21.3 px, as for a 2-unit icon stroke). Each bar
 * is one line of the pen's width in both stroke modes, not ink too wide for a line (its caps are
 * a third of its area: area over skeleton length read it 32 px wide). Dots drawn with the pen (a
 * zero-length line) are dots: round strokes of no length at their centres.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams, TraceResult } from '../../src/engine/types.js';
import { distanceToSegment, strokePoints } from '../helpers/geometry.js';
import { drawShape } from '../helpers/raster.js';

type Segment = readonly [number, number, number, number];

const PEN_PX = 21;
/** Rays around (128, 128) from 50 px out, at 10° + 45° k, 30, 40, 50, 60 px long with their caps. */
const RAYS: Segment[] = Array.from({ length: 8 }, (_, k) => {
  const angle = ((10 + 45 * k) * Math.PI) / 180;
  const [r0, r1] = [50, 50 + [30, 40, 50, 60][k % 4]! - PEN_PX];
  return [128 + r0 * Math.cos(angle), 128 + r0 * Math.sin(angle), 128 + r1 * Math.cos(angle), 128 + r1 * Math.sin(angle)] as const;
});

function trace(strokes: 'auto' | 'centerline', lines: readonly Segment[] = RAYS): TraceResult {
  const inside = (x: number, y: number): boolean => lines.some((s) => distanceToSegment(x, y, ...s) <= PEN_PX / 2);
  const image = drawShape(256, 256, [255, 255, 255], [{ color: [0, 0, 0], inside }]);
  const params: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes };
  return traceImage(image, params);
}

describe('tracelab.strokes: short round-capped bars as wide as the automatic limit', () => {
  for (const mode of ['centerline', 'auto'] as const) {
    it(`${mode}: each bar is one ${PEN_PX}-px line along its drawn centre, from end to end`, () => {
      const result = trace(mode);
      const lines = result.strokes!.filter((s) => !s.outline);
      expect(result.strokes!.length, 'strokes').toBe(RAYS.length);
      expect(lines.length, 'centre-lines, not outlines').toBe(RAYS.length);
      for (let s = 0; s < lines.length; s++) {
        const stroke = result.strokes![s]!;
        expect(Math.abs(stroke.widthPx - PEN_PX) / PEN_PX, `width ${stroke.widthPx}`).toBeLessThanOrEqual(0.05);
        expect(stroke.cap).toBe('round');
        const points = strokePoints(result, s);
        const ray = RAYS.find((r) => distanceToSegment(points[0]![0], points[0]![1], ...r) <= 1)!;
        expect(ray, `stroke ${s} on a ray`).toBeDefined();
        // On the ray, and reaching both its ends (within 1.5 px: the round cap does the rest).
        for (const [x, y] of points) expect(distanceToSegment(x, y, ...ray), `stroke ${s} at ${x.toFixed(1)},${y.toFixed(1)}`).toBeLessThanOrEqual(1);
        const ends = [points[0]!, points[points.length - 1]!];
        for (const [ex, ey] of [ray.slice(0, 2), ray.slice(2)] as [number, number][]) {
          expect(Math.min(...ends.map(([x, y]) => Math.hypot(x - ex, y - ey))), `stroke ${s} end at ${ex.toFixed(1)},${ey.toFixed(1)}`).toBeLessThanOrEqual(1.5);
        }
      }
    });
  }
});

/** Dots drawn as zero-length lines with the same pen (a scatter chart's points), at sub-pixel centres. */
const DOTS: Segment[] = [[40.3, 40.7], [120, 52.4], [200.6, 60], [60.2, 190.5], [180.8, 200.3]].map(([x, y]) => [x!, y!, x!, y!] as const);

describe('tracelab.strokes: dots as wide as the automatic limit', () => {
  for (const mode of ['centerline', 'auto'] as const) {
    it(`${mode}: each dot is one round stroke of the pen's width, of no length, at the dot's centre`, () => {
      const result = trace(mode, DOTS);
      expect(result.strokes!.length, 'strokes').toBe(DOTS.length);
      for (let s = 0; s < DOTS.length; s++) {
        const stroke = result.strokes![s]!;
        expect(stroke.outline).toBe(false);
        expect(Math.abs(stroke.widthPx - PEN_PX) / PEN_PX, `width ${stroke.widthPx}`).toBeLessThanOrEqual(0.05);
        const points = strokePoints(result, s);
        const dot = DOTS.find((d) => Math.hypot(points[0]![0] - d[0], points[0]![1] - d[1]) <= 2)!;
        expect(dot, `stroke ${s} on a dot`).toBeDefined();
        // Its cap is the dot: every point within 0.3 px of the centre (a 1.4-px line stuck out 0.7 px).
        for (const [x, y] of points) expect(Math.hypot(x - dot[0], y - dot[1]), `stroke ${s} at ${x.toFixed(2)},${y.toFixed(2)}`).toBeLessThanOrEqual(0.3);
      }
    });
  }
});
