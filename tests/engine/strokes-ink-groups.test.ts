/**
 * tracelab.strokes=centerline reads the shades of one ink as one line (src/engine/strokes/ink-groups.ts):
 * a hairline whose regions alternate between two greys along its length (as an anti-aliased
 * hairline is quantised, on a map's borders) is one group in the darker grey and one centre-line,
 * not a broken line per shade; a line of another colour beside it is not merged.
 */
import { describe, expect, it } from 'vitest';

import { regionCenterlines } from '../../src/engine/strokes/centerline.js';
import type { InkPicture } from '../../src/engine/strokes/coverage.js';
import { inkGroups } from '../../src/engine/strokes/ink-groups.js';

const WIDTH = 160;
const HEIGHT = 60;
const PAPER: [number, number, number] = [255, 255, 255];

/**
 * White paper (region 0), a 2-px grey line from x = 10 to 150 at rows 20–21 in 14 runs of 10 px,
 * alternating grey 90 (odd regions) and grey 180 (even regions), and a red line at rows 40–41
 * (region 15). Labels: paper 0, dark grey 1, light grey 2, red 3.
 */
function picture(): { picture: InkPicture; labelOf: Int32Array } {
  const data = new Uint8ClampedArray(WIDTH * HEIGHT * 4).fill(255);
  const regionOf = new Int32Array(WIDTH * HEIGHT);
  const grey = (r: number): number => (r % 2 === 1 ? 90 : 180);
  for (let x = 10; x < 150; x++) {
    const r = 1 + Math.floor((x - 10) / 10);
    for (const y of [20, 21]) {
      regionOf[y * WIDTH + x] = r;
      data.set([grey(r), grey(r), grey(r), 255], (y * WIDTH + x) * 4);
    }
    for (const y of [40, 41]) {
      regionOf[y * WIDTH + x] = 15;
      data.set([220, 30, 30, 255], (y * WIDTH + x) * 4);
    }
  }
  const regionColor = new Float64Array(16 * 3);
  regionColor.set(PAPER, 0);
  for (let r = 1; r <= 14; r++) regionColor.set([grey(r), grey(r), grey(r)], r * 3);
  regionColor.set([220, 30, 30], 15 * 3);
  const labelOf = Int32Array.from({ length: 16 }, (_, r) => (r === 0 ? 0 : r === 15 ? 3 : r % 2 === 1 ? 1 : 2));
  return { picture: { data, width: WIDTH, height: HEIGHT, regionOf, regionColor }, labelOf };
}

describe('tracelab.strokes=centerline: shades of one ink (ink-groups.ts)', () => {
  it('the two greys of the hairline are one group, in the darker grey, and one centre-line along its whole length', () => {
    const { picture: p, labelOf } = picture();
    const groups = inkGroups(p, labelOf, 16, PAPER);
    // Paper, the hairline, the red line.
    expect(groups.count).toBe(3);
    expect(groups.members[1]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(groups.labelOf[1]).toBe(1);
    expect(Array.from(groups.picture.regionColor.subarray(3, 6))).toEqual([90, 90, 90]);
    expect(groups.members[2]).toEqual([15]);
    const lines = regionCenterlines(groups.picture, 1, { x0: 10, y0: 20, x1: 150, y1: 22 }, 8);
    expect(lines.kind).toBe('lines');
    if (lines.kind !== 'lines') return;
    expect(lines.paths).toHaveLength(1);
    const xs = Array.from(lines.paths[0]!.points.filter((_, k) => k % 2 === 0));
    expect(Math.min(...xs)).toBeLessThan(12);
    // The last run is the light grey, read as 45 % ink: the end stops a little inside it.
    expect(Math.max(...xs)).toBeGreaterThan(146);
  });

  it('without a paper colour (transparent paper) nothing is merged, and the picture is the one given', () => {
    const { picture: p, labelOf } = picture();
    const groups = inkGroups(p, labelOf, 16, undefined);
    expect(groups.count).toBe(16);
    expect(groups.picture).toBe(p);
  });
});
