/**
 * centerline mode, lines as wide as the automatic limit (256 px / 12 = 21.3 px, a 2-unit icon
 * stroke) whose centre-line has a branch shorter than the spur rule's 1.2 widths, or a short
 * path: a magnifier's handle (a 23-px line leaving its ring), a sharp V's point, a check mark.
 * Each is centre-lines, not the outline of ink too wide for a line, and reaches its ends and points.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams, TraceResult } from '../../src/engine/types.js';
import { distanceToSegment, strokePoints } from '../helpers/geometry.js';
import { drawShape } from '../helpers/raster.js';

const PEN_PX = 256 / 12;

function trace(inside: (x: number, y: number) => boolean): TraceResult {
  const image = drawShape(256, 256, [255, 255, 255], [{ color: [0, 0, 0], inside }]);
  const params: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes: 'centerline' };
  return traceImage(image, params);
}

function allPoints(result: TraceResult): [number, number][] {
  return result.strokes!.flatMap((_, s) => strokePoints(result, s));
}

function nearest(points: readonly [number, number][], x: number, y: number): number {
  return Math.min(...points.map(([px, py]) => Math.hypot(px - x, py - y)));
}

describe('tracelab.strokes=centerline: short branches of lines as wide as the limit', () => {
  it('a magnifier: its ring and its short handle are centre-lines, the handle reaching its end', () => {
    // Ring of radius 32 around (110, 110); the handle at 45° from 38 to 61 px out (lucide's
    // file-search at 256 px): its skeleton branch beyond the ring is under 1.2 widths long.
    const [cx, cy, r] = [110, 110, 32];
    const [h0, h1] = [38 / Math.SQRT2, 61 / Math.SQRT2];
    const handle = [cx + h0, cy + h0, cx + h1, cy + h1] as const;
    const result = trace((x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) <= PEN_PX / 2 || distanceToSegment(x, y, ...handle) <= PEN_PX / 2);
    expect(result.strokes!.filter((s) => s.outline).length, 'outlines').toBe(0);
    for (const s of result.strokes!) expect(Math.abs(s.widthPx - PEN_PX) / PEN_PX, `width ${s.widthPx}`).toBeLessThanOrEqual(0.05);
    const points = allPoints(result);
    expect(nearest(points, handle[2], handle[3]), 'the handle reaches its end').toBeLessThanOrEqual(1.5);
    // Every point on the ring or on the handle's line (which ends on the ring's centre-line), but
    // within half a width of where they meet (the paths turn into the junction there).
    const [jx, jy] = [cx + r / Math.SQRT2, cy + r / Math.SQRT2];
    for (const [x, y] of points) {
      if (Math.hypot(x - jx, y - jy) <= PEN_PX / 2) continue;
      const off = Math.min(Math.abs(Math.hypot(x - cx, y - cy) - r), distanceToSegment(x, y, jx, jy, handle[2], handle[3]));
      expect(off, `point ${x.toFixed(1)},${y.toFixed(1)}`).toBeLessThanOrEqual(1.5);
    }
  });

  it('a sharp V: its arms are one line through its point, with no bulge past it', () => {
    // Arms 150 px long from (128, 50), 15° either side of straight down.
    const arm = (side: number): [number, number, number, number] => [128, 50, 128 + side * 150 * Math.sin(Math.PI / 12), 50 + 150 * Math.cos(Math.PI / 12)];
    const arms = [arm(-1), arm(1)];
    const result = trace((x, y) => arms.some((a) => distanceToSegment(x, y, ...a) <= PEN_PX / 2));
    expect(result.strokes!.map((st) => st.outline)).toEqual([false]);
    expect(Math.abs(result.strokes![0]!.widthPx - PEN_PX) / PEN_PX, `width ${result.strokes![0]!.widthPx}`).toBeLessThanOrEqual(0.05);
    const points = strokePoints(result, 0);
    expect(nearest(points, 128, 50), 'through the point').toBeLessThanOrEqual(1.5);
    for (const [x, y] of points) expect(Math.min(...arms.map((a) => distanceToSegment(x, y, ...a))), `point ${x.toFixed(1)},${y.toFixed(1)}`).toBeLessThanOrEqual(1.5);
  });

  it('a check mark: a short V at a right angle is a centre-line, not an outline', () => {
    // lucide's check at 256 px: (96, 138.7) – (117.3, 160) – (160, 117.3).
    const s = 256 / 24;
    const legs = [[9 * s, 13 * s, 11 * s, 15 * s] as const, [11 * s, 15 * s, 15 * s, 11 * s] as const];
    const result = trace((x, y) => legs.some((l) => distanceToSegment(x, y, ...l) <= PEN_PX / 2));
    expect(result.strokes!.map((st) => st.outline)).toEqual([false]);
    expect(Math.abs(result.strokes![0]!.widthPx - PEN_PX) / PEN_PX, `width ${result.strokes![0]!.widthPx}`).toBeLessThanOrEqual(0.08);
  });
});
