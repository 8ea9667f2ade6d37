/**
 * A rounded square outline drawn with a round pen 21.3 px wide (a 2-unit stroke, corner radius
 * 21.3 px: a 24-unit icon's rx=2 at 256 px) with three bars touching its sides (lucide rows-4), anti-aliased, in a
 * 256-px picture (automatic max_stroke_width 21.3 px). Its strokes run along the drawn centre-lines:
 * no nub where a corner begins (a cross-section there reaches past the limit's half width).
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams, TraceResult } from '../../src/engine/types.js';
import { distanceToSegment, strokePoints } from '../helpers/geometry.js';
import { drawShape } from '../helpers/raster.js';

/** The automatic limit itself (1/12 of 256 px), as a 2-unit icon stroke: a corner's cross-section reaches past its half width. */
const PEN_PX = 256 / 12;
const [LO, HI, RADIUS] = [32, 224, 21.33];
const BARS_Y = [80, 128, 176];

/** Distance from (x, y) to the rounded square's centre-line. */
function toFrame(x: number, y: number): number {
  const cx = Math.min(HI - RADIUS, Math.max(LO + RADIUS, x));
  const cy = Math.min(HI - RADIUS, Math.max(LO + RADIUS, y));
  const inCorner = (x < LO + RADIUS || x > HI - RADIUS) && (y < LO + RADIUS || y > HI - RADIUS);
  if (inCorner) return Math.abs(Math.hypot(x - cx, y - cy) - RADIUS);
  return Math.min(Math.abs(x - LO), Math.abs(x - HI), Math.abs(y - LO), Math.abs(y - HI));
}

/** Distance from (x, y) to the drawing's centre-lines: the frame and the bars. */
function toDrawing(x: number, y: number): number {
  return Math.min(toFrame(x, y), ...BARS_Y.map((by) => distanceToSegment(x, y, LO, by, HI, by)));
}

function trace(strokes: 'auto' | 'centerline'): TraceResult {
  const image = drawShape(256, 256, [255, 255, 255], [{ color: [0, 0, 0], inside: (x, y) => toDrawing(x, y) <= PEN_PX / 2 }]);
  const params: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes };
  return traceImage(image, params);
}

describe('tracelab.strokes: a rounded frame as wide as the limit, bars touching its sides', () => {
  for (const mode of ['centerline', 'auto'] as const) {
    it(`${mode}: strokes of the pen's width along the drawn centre-lines, corners without nubs`, () => {
      const result = trace(mode);
      expect(result.strokes!.length).toBeGreaterThan(0);
      for (let s = 0; s < result.strokes!.length; s++) {
        const stroke = result.strokes![s]!;
        expect(stroke.outline).toBe(false);
        expect(Math.abs(stroke.widthPx - PEN_PX) / PEN_PX, `width ${stroke.widthPx}`).toBeLessThanOrEqual(0.05);
        for (const [x, y] of strokePoints(result, s)) {
          // Away from the T-junctions (a width and a half), within 0.8 px of the drawn line (a nub: 1.9 px).
          if (BARS_Y.some((by) => Math.min(Math.hypot(x - LO, y - by), Math.hypot(x - HI, y - by)) < 1.5 * PEN_PX)) continue;
          expect(toDrawing(x, y), `stroke ${s} at ${x.toFixed(1)},${y.toFixed(1)}`).toBeLessThanOrEqual(0.8);
        }
      }
    });
  }
});
