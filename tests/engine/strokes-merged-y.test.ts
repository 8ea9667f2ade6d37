/**
 * tracelab.strokes=auto where a line runs into another at an acute angle and merges with it (a Y:
 * an OpenMoji hair line running into a face's outline; src/engine/strokes/centerline.ts, mergedY).
 * Fixture drawn here: over a flat fill, a straight 7.1-px line and a second one meeting it at 25°,
 * ending on its centre-line. The thinning pulls both into the middle of the merged ink and, read
 * so, the strokes cut across it: the render check missed over 15 % of the ink in the junction's
 * tiles and the whole drawing stayed a filled shape. Traced: two strokes of the pen, every point
 * on a drawn centre-line, the second one running on beside the first to where they meet.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams } from '../../src/engine/types.js';
import { distanceToSegment, strokePoints } from '../helpers/geometry.js';
import { drawShape, rect } from '../helpers/raster.js';

const AUTO: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' };
const PEN_PX = 7.1;
/** The straight line: x = X, from y = TOP to y = BOTTOM. */
const [X, TOP, BOTTOM] = [100.3, 40.2, 160.4];
/** Where the second line ends, on the first's centre-line, and the angle between them. */
const MEET: [number, number] = [X, 112.6];
const ANGLE = (25 * Math.PI) / 180;
const FAR: [number, number] = [MEET[0] + 62 * Math.sin(ANGLE), MEET[1] - 62 * Math.cos(ANGLE)];

const toStraight = (x: number, y: number): number => distanceToSegment(x, y, X, TOP, X, BOTTOM);
const toSlanted = (x: number, y: number): number => distanceToSegment(x, y, MEET[0], MEET[1], FAR[0], FAR[1]);

describe('tracelab.strokes=auto: a line merging into another at an acute angle (a Y)', () => {
  it('is two strokes of the pen on their drawn centre-lines, the ending one reaching where they meet', () => {
    const image = drawShape(200, 200, [255, 255, 255], [
      { color: [165, 121, 57], inside: rect(30, 30, 170, 170) },
      { color: [0, 0, 0], inside: (x, y) => Math.min(toStraight(x, y), toSlanted(x, y)) <= PEN_PX / 2 },
    ]);
    const result = traceImage(image, AUTO);
    // Read as the thinning merges them, the Y missed its tiles' ink and stayed a filled shape (no stroke).
    expect(result.strokes).toHaveLength(2);
    for (const stroke of result.strokes!) expect(Math.abs(stroke.widthPx - PEN_PX) / PEN_PX).toBeLessThanOrEqual(0.05);
    const lines = [0, 1].map((k) => strokePoints(result, k));
    // Within 0.1 of a width: beside the straight line the slanted one is placed half a width in from
    // its edge read across the straight one, 0.4 px wide of its centre at 25° (measured 0.65 px).
    for (const points of lines) for (const [x, y] of points) expect(Math.min(toStraight(x, y), toSlanted(x, y))).toBeLessThanOrEqual(0.75);
    // The slanted stroke runs on beside the straight one, its end within a width of where they meet.
    const slanted = lines.find((points) => points.some(([x, y]) => toSlanted(x, y) < 0.6 && toStraight(x, y) > PEN_PX))!;
    const ends = [slanted[0]!, slanted[slanted.length - 1]!];
    expect(Math.min(...ends.map(([x, y]) => Math.hypot(x - MEET[0], y - MEET[1])))).toBeLessThanOrEqual(PEN_PX);
  });
});
