/**
 * tracelab.strokes=auto where a line ends on another just beside that one's rounded corner (a T on
 * a corner: an OpenMoji 3D printer's foot hanging from its base's corner;
 * src/engine/strokes/centerline.ts, junctionJoints). Fixture drawn here: over a flat fill, a
 * rounded rectangle outlined with a 7.2-px pen and a stem hanging from its bottom side, a width and
 * a half from its corner. The thinning merges the T and the corner into one junction; the corner's
 * branch, read across its bend, pulls the junction's meeting point ~3.5 px towards the corner, and
 * the stem was drawn slanting to it (1 px off its centre-line, its cap out of the ink beside the
 * corner). Traced: the rectangle one closed stroke and the stem another, ending on the
 * rectangle's centre-line, every point within 0.75 px of a drawn centre-line.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams } from '../../src/engine/types.js';
import { distanceToSegment, strokePoints } from '../helpers/geometry.js';
import { drawShape, rect } from '../helpers/raster.js';

const AUTO: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' };
const PEN_PX = 7.2;
/** The rectangle's centre-line: [X0, X1] × [Y0, Y1], corners rounded with radius R. */
const [X0, Y0, X1, Y1, R] = [40.3, 50.2, 160.4, 130.3, 6];
/** The stem: x = STEM_X, from the rectangle's bottom down to STEM_END. */
const [STEM_X, STEM_END] = [X1 - 10.5, 158.1];

/** Distance to the rounded rectangle's centre-line. */
function toFrame(x: number, y: number): number {
  const cx = Math.min(Math.max(x, X0 + R), X1 - R);
  const cy = Math.min(Math.max(y, Y0 + R), Y1 - R);
  const inCorner = cx !== x && cy !== y;
  if (inCorner) return Math.abs(Math.hypot(x - cx, y - cy) - R);
  const inside = x > X0 && x < X1 && y > Y0 && y < Y1;
  return inside ? Math.min(x - X0, X1 - x, y - Y0, Y1 - y) : Math.max(X0 - x, x - X1, Y0 - y, y - Y1);
}
const toStem = (x: number, y: number): number => distanceToSegment(x, y, STEM_X, Y1, STEM_X, STEM_END);

describe('tracelab.strokes=auto: a T beside a rounded corner', () => {
  it('is the frame as one closed stroke and the stem as another, on their drawn centre-lines', () => {
    const image = drawShape(200, 180, [255, 255, 255], [
      { color: [241, 176, 102], inside: rect(20, 30, 180, 170) },
      { color: [0, 0, 0], inside: (x, y) => Math.min(toFrame(x, y), toStem(x, y)) <= PEN_PX / 2 },
    ]);
    const result = traceImage(image, AUTO);
    expect(result.strokes).toHaveLength(2);
    for (const stroke of result.strokes!) expect(Math.abs(stroke.widthPx - PEN_PX) / PEN_PX).toBeLessThanOrEqual(0.05);
    expect(result.strokes!.filter((s) => s.closed)).toHaveLength(1);
    // Ended on the meeting point of the junction's branches, the stem's last segment slanted 1 px off.
    for (let k = 0; k < 2; k++) for (const [x, y] of strokePoints(result, k)) expect(Math.min(toFrame(x, y), toStem(x, y))).toBeLessThanOrEqual(0.75);
  });
});
