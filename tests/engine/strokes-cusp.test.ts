/**
 * tracelab.strokes=auto on an outlined heart drawn as OpenMoji draws one (2 units on a 72 grid at
 * 256 px: a 7.1-px pen; lobes of radius 15 px), anti-aliased, over a red fill
 * (src/engine/strokes/corners.ts): its notch is a cusp where the two lobes' arcs meet, turning
 * ~130°, their chords a width off much flatter than the sides where they meet. The skeleton
 * rounds the notch off; read so, the strokes missed the notch's ink (its tile over the render
 * check's 15 %) and the heart stayed a filled shape. Traced: one closed stroke of the pen,
 * through the notch within 0.5 px, every point within 0.3 px of the centre-line drawn.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams } from '../../src/engine/types.js';
import { distanceToSegment, strokePoints } from '../helpers/geometry.js';
import { drawShape } from '../helpers/raster.js';

const AUTO: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' };
const PEN_PX = 7.1;
/** The lobes: circles of radius R at (CX ∓ LOBE_DX, CY); the tip below, at TIP_Y. */
const [CX, CY, R, LOBE_DX, TIP_Y] = [120.3, 100.2, 15, 13.5, 140.2];
/** The notch: where the two lobes' circles cross. */
const NOTCH: [number, number] = [CX, CY - Math.sqrt(R * R - LOBE_DX * LOBE_DX)];

/** The left lobe's arc: angles (about its centre) from the tangent towards the tip, over the top, to the notch. */
const LEFT_X = CX - LOBE_DX;
const NOTCH_ANGLE = Math.atan2(NOTCH[1] - CY, NOTCH[0] - LEFT_X);
const TANGENT_ANGLE = Math.atan2(TIP_Y - CY, CX - LEFT_X) + Math.acos(R / Math.hypot(CX - LEFT_X, TIP_Y - CY)) - 2 * Math.PI;
const TANGENT: [number, number] = [LEFT_X + R * Math.cos(TANGENT_ANGLE), CY + R * Math.sin(TANGENT_ANGLE)];

/** Distance to the heart's centre-line: the left lobe's arc and its side to the tip, mirrored (x ↦ 2·CX − x). */
function distanceToHeart(px: number, y: number): number {
  const x = px > CX ? 2 * CX - px : px;
  const angle = Math.atan2(y - CY, x - LEFT_X);
  const onArc = [angle, angle - 2 * Math.PI].some((a) => a >= TANGENT_ANGLE && a <= NOTCH_ANGLE);
  const arc = onArc ? Math.abs(Math.hypot(x - LEFT_X, y - CY) - R) : Math.min(Math.hypot(x - NOTCH[0], y - NOTCH[1]), Math.hypot(x - TANGENT[0], y - TANGENT[1]));
  return Math.min(arc, distanceToSegment(x, y, TANGENT[0], TANGENT[1], CX, TIP_Y));
}

/** Inside the heart (its fill, under the outline). */
function insideHeart(px: number, y: number): boolean {
  const x = px > CX ? 2 * CX - px : px;
  if (Math.hypot(x - LEFT_X, y - CY) < R) return true;
  if (y >= CY && y < TANGENT[1]) return x >= LEFT_X;
  return y >= TANGENT[1] && y <= TIP_Y && x >= TANGENT[0] + ((CX - TANGENT[0]) * (y - TANGENT[1])) / (TIP_Y - TANGENT[1]);
}

describe('tracelab.strokes=auto: a heart outlined at an emoji pen', () => {
  it('is one closed stroke of the pen, through its notch (a cusp between two arcs) within 0.5 px', () => {
    const image = drawShape(240, 240, [255, 255, 255], [
      { color: [210, 47, 39], inside: insideHeart },
      { color: [0, 0, 0], inside: (x, y) => distanceToHeart(x, y) <= PEN_PX / 2 },
    ]);
    const result = traceImage(image, AUTO);
    expect(result.strokes).toHaveLength(1);
    const stroke = result.strokes![0]!;
    expect(stroke.closed).toBe(true);
    expect(Math.abs(stroke.widthPx - PEN_PX) / PEN_PX).toBeLessThanOrEqual(0.05);
    const points = strokePoints(result, 0);
    // Read as the skeleton rounds it, the notch missed its tile's ink and the heart stayed a filled shape (no stroke).
    expect(Math.min(...points.map(([x, y]) => Math.hypot(x - NOTCH[0], y - NOTCH[1])))).toBeLessThanOrEqual(0.5);
    for (const [x, y] of points) expect(distanceToHeart(x, y)).toBeLessThanOrEqual(0.3);
  });
});
