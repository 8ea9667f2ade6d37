/**
 * tracelab.strokes=auto's render check (drawn-as-ink.ts) on lines as wide as a 256-px icon's
 * 2-unit stroke (21.3 px): its shares of the ink grow with the width, so it also bounds the miss
 * in px. A centre-line read 0.4 px off along a whole line (each edge 0.4 px out: 3.8 % of the
 * ink, within the 5.2 % share) and a round end drawn 2 px short (one tile ~43 px² out: within
 * its 15 % share) are refused; the same line read where it is drawn, 0.2 px off or 1 px short passes.
 */
import { describe, expect, it } from 'vitest';

import type { CenterPath } from '../../src/engine/strokes/centerline.js';
import type { InkPicture } from '../../src/engine/strokes/coverage.js';
import { drawnAsInk, InkCheckScratch } from '../../src/engine/strokes/drawn-as-ink.js';
import { distanceToSegment } from '../helpers/geometry.js';

const SIZE = 240;
const PEN_PX = 256 / 12;
/** The drawn line: from (40, 100) to (200, 130), round ends. */
const [AX, AY, BX, BY] = [40, 100, 200, 130];

/** Black ink on white paper, anti-aliased (4 × 4 samples a pixel): region 1 where any sample is inked, else 0. */
function linePicture(): { picture: InkPicture; box: { x0: number; y0: number; x1: number; y1: number } } {
  const data = new Uint8ClampedArray(SIZE * SIZE * 4).fill(255);
  const regionOf = new Int32Array(SIZE * SIZE);
  const box = { x0: SIZE, y0: SIZE, x1: 0, y1: 0 };
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      let inked = 0;
      for (let s = 0; s < 16; s++) inked += distanceToSegment(x + ((s % 4) + 0.5) / 4, y + (Math.floor(s / 4) + 0.5) / 4, AX, AY, BX, BY) <= PEN_PX / 2 ? 1 : 0;
      if (inked === 0) continue;
      const i = y * SIZE + x;
      regionOf[i] = 1;
      data.fill(Math.round(255 * (1 - inked / 16)), i * 4, i * 4 + 3);
      Object.assign(box, { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x + 1), y1: Math.max(box.y1, y + 1) });
    }
  }
  return { picture: { data, width: SIZE, height: SIZE, regionOf, regionColor: Float64Array.of(255, 255, 255, 0, 0, 0) }, box };
}

/** The line's centre-line as read: moved `acrossPx` to its left and its end pulled back `shortPx`. */
function readLine(acrossPx: number, shortPx: number): CenterPath {
  const length = Math.hypot(BX - AX, BY - AY);
  const [ux, uy] = [(BX - AX) / length, (BY - AY) / length];
  const [nx, ny] = [uy * acrossPx, -ux * acrossPx];
  const points = Float64Array.of(AX + nx, AY + ny, BX - ux * shortPx + nx, BY - uy * shortPx + ny);
  return { points, closed: false, widthPx: PEN_PX, widthSpread: 0, cap: 'round' };
}

describe('strokes=auto render check: a wide line may miss its ink by a fraction of a pixel, not of its width', () => {
  const { picture, box } = linePicture();
  const check = (line: CenterPath) => drawnAsInk(picture, 1, box, [line], new InkCheckScratch());

  it('a centre-line read where the line is drawn passes, and so does one 0.2 px off', () => {
    expect(check(readLine(0, 0))).toBeDefined();
    expect(check(readLine(0.2, 0))).toBeDefined();
  });

  it('a centre-line 0.4 px off along the whole line is refused', () => {
    expect(check(readLine(0.4, 0))).toBeUndefined();
  });

  it('a round end drawn 2 px short is refused, 1 px short passes', () => {
    expect(check(readLine(0, 1))).toBeDefined();
    expect(check(readLine(0, 2))).toBeUndefined();
  });
});
