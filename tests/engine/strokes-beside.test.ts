/**
 * tracelab.strokes=centerline where two lines touch side by side before they part (a spiral's
 * turns, a document's fold running into its outline; src/engine/strokes/centerline.ts,
 * linesBeside and bendInto): fixtures drawn here — a curve that runs into a straight line
 * tangentially, a line that bends into another — come back as one stroke per line on its own
 * centre-line, their strokes covering all of the ink (no wedge left out where they merge).
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { RgbaImage, TraceResult } from '../../src/engine/types.js';
import { strokePoints } from '../helpers/geometry.js';
import { drawShape } from '../helpers/raster.js';

type Distance = (x: number, y: number) => number;

const segment = (x1: number, y1: number, x2: number, y2: number): Distance => (x, y) => {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - x1 - t * dx, y - y1 - t * dy);
};
/** A quarter circle about (cx, cy) of radius r, between the angles a0 < a1 (rad, y down). */
const arc = (cx: number, cy: number, r: number, a0: number, a1: number): Distance => (x, y) => {
  const a = Math.atan2(y - cy, x - cx);
  if (a >= a0 && a <= a1) return Math.abs(Math.hypot(x - cx, y - cy) - r);
  return Math.min(Math.hypot(x - cx - r * Math.cos(a0), y - cy - r * Math.sin(a0)), Math.hypot(x - cx - r * Math.cos(a1), y - cy - r * Math.sin(a1)));
};
const nearest = (...lines: Distance[]): Distance => (x, y) => Math.min(...lines.map((d) => d(x, y)));

function draw(size: number, line: Distance, widthPx: number): RgbaImage {
  return drawShape(size, size, [255, 255, 255], [{ color: [0, 0, 0], inside: (x, y) => line(x, y) <= widthPx / 2 }]);
}

/** The share of the ink (pixel centres a pixel or more inside it) farther than half the stroke's width from every stroke's centre-line. */
function inkLeftOut(result: TraceResult, size: number, line: Distance, widthPx: number): number {
  const polylines = result.strokes!.map((_, i) => strokePoints(result, i));
  let ink = 0;
  let out = 0;
  for (let y = 0.5; y < size; y++) {
    for (let x = 0.5; x < size; x++) {
      if (line(x, y) > widthPx / 2 - 1) continue;
      ink++;
      const covered = polylines.some((p) => p.some((q, k) => k > 0 && segment(p[k - 1]![0], p[k - 1]![1], q[0], q[1])(x, y) <= widthPx / 2));
      if (!covered) out++;
    }
  }
  return out / ink;
}

function centerline(image: RgbaImage): TraceResult {
  return traceImage(image, { ...DEFAULT_ENGINE_PARAMS, strokes: 'centerline', maxStrokeWidthPx: 20 });
}

describe('tracelab.strokes=centerline: lines side by side', () => {
  it('a curve running into a straight line tangentially (a spiral turn touching the next): two strokes, each on a drawn centre-line, no ink left out', () => {
    const widthPx = 12;
    const straight = segment(10, 70, 150, 70);
    const curve = arc(90, 10, 60, Math.PI / 2, Math.PI); // from (30, 10) down to (90, 70), tangent there
    const line = nearest(straight, curve);
    const result = centerline(draw(160, line, widthPx));
    expect(result.strokes).toHaveLength(2);
    for (let i = 0; i < 2; i++) {
      // Merged, the ink is up to twice a line wide: a centre-line in its middle was 3.9 px off both lines.
      for (const [x, y] of strokePoints(result, i)) expect(line(x, y), `stroke ${i} at ${x.toFixed(1)}, ${y.toFixed(1)}`).toBeLessThanOrEqual(1.6);
    }
    // The curve ending at the junction left 2 % of the ink out.
    expect(inkLeftOut(result, 160, line, widthPx)).toBeLessThanOrEqual(0.004);
  });

  it('a line bending into another (a document fold into its top edge): the bend follows the ink, no ink left out at its inner corner', () => {
    const widthPx = 16;
    const top = segment(10, 30, 150, 30);
    const fold = nearest(segment(100, 140, 100, 56), arc(74, 56, 26, -Math.PI / 2, 0)); // up, then left into the top edge at (74, 30)
    const line = nearest(top, fold);
    const result = centerline(draw(160, line, widthPx));
    expect(result.strokes).toHaveLength(2);
    // Ending at the junction's centre, the fold left 1.1 % of the ink out (its bend's inner side).
    expect(inkLeftOut(result, 160, line, widthPx)).toBeLessThanOrEqual(0.002);
  });
});
