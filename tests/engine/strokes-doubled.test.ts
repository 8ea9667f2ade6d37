/**
 * tracelab.strokes=centerline writes a line drawn twice along itself once
 * (src/engine/strokes/centerline.ts, withoutDoubledBranches): a map's border between two
 * provinces, each outlined by the artist, is two hairlines a pixel apart with a faint sliver
 * between them. The thinning goes around the sliver (two branches between the same two
 * junctions), both branches are measured onto the same centre-line, and the line came back as two
 * strokes, one on the other. Two lines with clean paper between them stay two.
 */
import { describe, expect, it } from 'vitest';

import { regionCenterlines } from '../../src/engine/strokes/centerline.js';
import type { InkPicture } from '../../src/engine/strokes/coverage.js';

const WIDTH = 160;
const HEIGHT = 60;
const INK = 80;

/**
 * White paper (region 0) and a grey line (region 1) from x = 10 to 150, solid over rows 28–33
 * except between x = 50 and 130, where only `inkRows` are ink and the rows between are paper of
 * grey `gapGrey` (the sliver: its own colour, but the paper's region).
 */
function picture(inkRows: readonly number[], gapGrey: number): InkPicture {
  const data = new Uint8ClampedArray(WIDTH * HEIGHT * 4).fill(255);
  const regionOf = new Int32Array(WIDTH * HEIGHT);
  for (let x = 10; x < 150; x++) {
    for (let y = 28; y <= 33; y++) {
      const i = y * WIDTH + x;
      const doubled = x >= 50 && x < 130;
      if (!doubled || inkRows.includes(y)) {
        regionOf[i] = 1;
        data.set([INK, INK, INK, 255], i * 4);
      } else data.set([gapGrey, gapGrey, gapGrey, 255], i * 4);
    }
  }
  const regionColor = Float64Array.of(255, 255, 255, INK, INK, INK);
  return { data, width: WIDTH, height: HEIGHT, regionOf, regionColor };
}

const BOX = { x0: 10, y0: 28, x1: 150, y1: 34 };

function centreLines(p: InkPicture): Float64Array[] {
  const lines = regionCenterlines(p, 1, BOX, 8, { linesBeside: true });
  expect(lines.kind).toBe('lines');
  return lines.kind === 'lines' ? lines.paths.map((path) => path.points) : [];
}

/** The paths that cross x = 90 (the middle of the doubled stretch), and where: their y there. */
function crossingsAtMiddle(paths: readonly Float64Array[]): number[] {
  const ys: number[] = [];
  for (const p of paths) {
    for (let k = 2; k < p.length; k += 2) {
      const [x0, y0, x1, y1] = [p[k - 2]!, p[k - 1]!, p[k]!, p[k + 1]!];
      if ((x0 - 90) * (x1 - 90) > 0 || x0 === x1) continue;
      ys.push(y0 + ((90 - x0) / (x1 - x0)) * (y1 - y0));
      break;
    }
  }
  return ys.sort((a, b) => a - b);
}

describe('tracelab.strokes=centerline: a line drawn twice along itself', () => {
  it('two hairlines with a faint sliver between them (coverage 0.3) are one centre-line, on their middle, along the whole line', () => {
    // The sliver's grey 200 is 31 % of the way from the paper to the ink.
    const paths = centreLines(picture([28, 29, 32, 33], 200));
    // Without the rule the doubled stretch was written twice: a second stroke from x ≈ 47 to 133 on the first.
    expect(crossingsAtMiddle(paths)).toHaveLength(1);
    expect(paths).toHaveLength(1);
    const xs = paths[0]!.filter((_, k) => k % 2 === 0);
    const ys = paths[0]!.filter((_, k) => k % 2 === 1);
    expect(Math.min(...xs)).toBeLessThan(14);
    expect(Math.max(...xs)).toBeGreaterThan(146);
    // The ink is symmetric about y = 31: the centre-line keeps within half a pixel of it.
    for (const y of ys) expect(Math.abs(y - 31)).toBeLessThanOrEqual(0.5);
  });

  it('two 2-px lines with 2 px of clean paper between them (their centres 4 px apart) stay two lines', () => {
    const ys = crossingsAtMiddle(centreLines(picture([28, 29, 32, 33], 255)));
    expect(ys).toHaveLength(2);
    expect(ys[0]).toBeCloseTo(29, 0);
    expect(ys[1]).toBeCloseTo(33, 0);
  });
});
