/**
 * tracelab.strokes=centerline on line icons drawn here as an icon set draws them (one pen 12 px
 * wide, round ends and joins): an arrow, a plus, a T, an X, a Y, a checked box. They come back as
 * stroke-only centre-lines whose junctions close (the lines meet within 0.5 px of where they were
 * drawn to meet), and whose stroked render covers the ink drawn.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { distanceToSegment, strokePoints } from '../helpers/geometry.js';
import { drawShape } from '../helpers/raster.js';

type Inside = (x: number, y: number) => boolean;
type Segment = readonly [number, number, number, number];

/** Polylines drawn with a round pen `w` wide: ink within w/2 of a segment. */
const pen = (segments: readonly Segment[], w: number): Inside => (x, y) => segments.some((s) => distanceToSegment(x, y, ...s) <= w / 2);

const WIDTH_PX = 12;
const PARAMS: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes: 'centerline', maxStrokeWidthPx: 20 };

function trace(segments: readonly Segment[]): TraceResult {
  const image: RgbaImage = drawShape(160, 160, [255, 255, 255], [{ color: [0, 0, 0], inside: pen(segments, WIDTH_PX) }]);
  return traceImage(image, PARAMS);
}

/** The nearest distance from (x, y) to any point of the strokes' centre-lines (their polylines). */
function nearestOnStrokes(result: TraceResult, x: number, y: number): number {
  let best = Infinity;
  for (let s = 0; s < result.strokes!.length; s++) {
    const points = strokePoints(result, s);
    for (let k = 0; k < points.length; k++) {
      const a = points[k]!;
      const b = points[Math.min(points.length - 1, k + 1)]!;
      best = Math.min(best, distanceToSegment(x, y, a[0], a[1], b[0], b[1]));
    }
  }
  return best;
}

/** Junctions: where lines meet (within 0.5 px); corners: where one line turns (within 1 px: the cross-sections at a sharp turn read a little inside it). */
const ICONS: Record<string, { segments: Segment[]; junctions: [number, number][]; corners?: [number, number][]; lines?: number }> = {
  arrow: { segments: [[20, 80, 130, 80], [130, 80, 95, 45], [130, 80, 95, 115]], junctions: [[130, 80]] },
  plus: { segments: [[20, 80, 140, 80], [80, 20, 80, 140]], junctions: [[80, 80]], lines: 2 },
  T: { segments: [[20, 30, 140, 30], [80, 30, 80, 140]], junctions: [[80, 30]], lines: 2 },
  X: { segments: [[25, 25, 135, 135], [25, 135, 135, 25]], junctions: [[80, 80]], lines: 2 },
  Y: { segments: [[80, 80, 80, 140], [80, 80, 28, 50], [80, 80, 132, 50]], junctions: [[80, 80]] },
  check: { segments: [[30, 85, 65, 120], [65, 120, 135, 40]], junctions: [], corners: [[65, 120]] },
};

describe('tracelab.strokes=centerline: line icons drawn with a 12-px round pen', () => {
  for (const [name, icon] of Object.entries(ICONS)) {
    it(`${name}: stroke-only centre-lines at the pen's width; the lines meet within 0.5 px; every drawn line is on a stroke`, () => {
      const result = trace(icon.segments);
      expect(result.shapes).toEqual([]);
      expect(result.strokes!.length).toBeGreaterThan(0);
      // Lines that cross or meet at a T: one stroke each (not split at the junction).
      if (icon.lines) expect(result.strokes!.length, name).toBe(icon.lines);
      for (const s of result.strokes!) {
        expect(s.outline, name).toBe(false);
        expect(Math.abs(s.widthPx - WIDTH_PX) / WIDTH_PX, `${name}: width ${s.widthPx}`).toBeLessThanOrEqual(0.05);
      }
      // No gap at a junction: a centre-line passes within 0.5 px of where the lines meet.
      for (const [x, y] of icon.junctions) expect(nearestOnStrokes(result, x, y), `${name} at ${x},${y}`).toBeLessThanOrEqual(0.5);
      for (const [x, y] of icon.corners ?? []) expect(nearestOnStrokes(result, x, y), `${name} at ${x},${y}`).toBeLessThanOrEqual(1);
      // Every drawn centre-line is traced (sampled every 2 px, away from the junctions' bends).
      for (const seg of icon.segments) {
        const length = Math.hypot(seg[2] - seg[0], seg[3] - seg[1]);
        for (let d = 0; d <= length; d += 2) {
          const [x, y] = [seg[0] + ((seg[2] - seg[0]) * d) / length, seg[1] + ((seg[3] - seg[1]) * d) / length];
          if ([...icon.junctions, ...(icon.corners ?? [])].some(([jx, jy]) => Math.hypot(x - jx, y - jy) < WIDTH_PX * 1.5)) continue;
          expect(nearestOnStrokes(result, x, y), `${name} at ${x.toFixed(1)},${y.toFixed(1)}`).toBeLessThanOrEqual(1);
        }
      }
    });
  }
});
