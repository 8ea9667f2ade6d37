/**
 * tracelab.strokes reads a region's ink coverage (src/engine/strokes/coverage.ts) and draws its
 * centre-lines against it (stroke-check.ts) once per candidate region, so both take shortcuts: the
 * grid is read only over the region's pixels and their fringe, and the render check reuses one
 * buffer across regions. Neither may change a value: a grid read with the region's box equals the
 * grid read pixel by pixel, and a check after another one on a larger grid equals a fresh one.
 */
import { describe, expect, it } from 'vitest';

import type { CenterPath } from '../../src/engine/strokes/centerline.js';
import { coverageGrid, type InkPicture } from '../../src/engine/strokes/coverage.js';
import { strokeFit, StrokeFitScratch } from '../../src/engine/strokes/stroke-check.js';

const SIZE = 40;

/**
 * Paper (region 0, white), a dark ring 3 px wide about (20, 20) with radius 10 (region 1, its
 * edge pixels blended with what is beside them), a blue disc inside it (region 2) and a
 * transparent corner (−1, alpha 0) that the ring's box reaches.
 */
function ringPicture(): { picture: InkPicture; box: { x0: number; y0: number; x1: number; y1: number } } {
  const data = new Uint8ClampedArray(SIZE * SIZE * 4).fill(255);
  const regionOf = new Int32Array(SIZE * SIZE);
  let box = { x0: SIZE, y0: SIZE, x1: 0, y1: 0 };
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const i = y * SIZE + x;
      const r = Math.hypot(x + 0.5 - 20, y + 0.5 - 20);
      if (x < 4 && y < 4) {
        regionOf[i] = -1;
        data[i * 4 + 3] = 0;
      } else if (Math.abs(r - 10) < 1.5) {
        regionOf[i] = 1;
        const shade = Math.round(40 + 150 * Math.min(1, Math.max(0, Math.abs(r - 10) - 0.9)));
        data.set([shade, shade, shade, 255], i * 4);
        box = { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x + 1), y1: Math.max(box.y1, y + 1) };
      } else if (r < 8.5) {
        regionOf[i] = 2;
        data.set([30, 60, 200, 255], i * 4);
      } else if (r < 10) {
        // A blended fringe pixel of the disc's, between ring and disc.
        regionOf[i] = 2;
        data.set([35, 50, 120, 255], i * 4);
      }
    }
  }
  const regionColor = Float64Array.of(255, 255, 255, 40, 40, 40, 30, 60, 200);
  return { picture: { data, width: SIZE, height: SIZE, regionOf, regionColor }, box };
}

describe('strokes: coverage and render check shortcuts', () => {
  it('a coverage grid read over the region and its fringe equals the grid read pixel by pixel', () => {
    const { picture, box } = ringPicture();
    for (const margin of [2, 7]) {
      const args = [picture, 1, box.x0 - margin, box.y0 - margin, box.x1 - box.x0 + 2 * margin, box.y1 - box.y0 + 2 * margin] as const;
      const full = coverageGrid(...args);
      const shortcut = coverageGrid(...args, box);
      expect(Array.from(shortcut.value)).toEqual(Array.from(full.value));
      // The ring's fringe counts (the disc's blended pixels), so the grids are not all 0 and 1.
      expect(full.value.some((v) => v > 0.05 && v < 0.95)).toBe(true);
    }
    // A grid clipped by the picture's edge and a region of the same picture.
    const whole = { x0: 0, y0: 0, x1: SIZE, y1: SIZE };
    expect(Array.from(coverageGrid(picture, 2, -3, -3, SIZE + 6, SIZE + 6, whole).value)).toEqual(Array.from(coverageGrid(picture, 2, -3, -3, SIZE + 6, SIZE + 6).value));
  });

  it('the render check gives the same fit with a buffer reused after a larger grid as with a fresh one', () => {
    const { picture, box } = ringPicture();
    const points: number[] = [];
    for (let k = 0; k < 64; k++) points.push(20 + 10 * Math.cos((k / 64) * 2 * Math.PI), 20 + 10 * Math.sin((k / 64) * 2 * Math.PI));
    const ring: CenterPath = { points: Float64Array.from(points), closed: true, widthPx: 3, widthSpread: 0, cap: 'round' };
    const grid = coverageGrid(picture, 1, box.x0 - 3, box.y0 - 3, box.x1 - box.x0 + 6, box.y1 - box.y0 + 6, box);
    const large = coverageGrid(picture, 1, -5, -5, SIZE + 10, SIZE + 10, { x0: 0, y0: 0, x1: SIZE, y1: SIZE });
    for (const hardEdged of [false, true]) {
      const scratch = new StrokeFitScratch();
      strokeFit(large, [ring], 1.4, hardEdged, 8, scratch);
      const reused = strokeFit(grid, [ring], 1, hardEdged, 8, scratch);
      const fresh = strokeFit(grid, [ring], 1, hardEdged, 8);
      expect(reused).toEqual(fresh);
      expect(fresh.mismatch).toBeLessThan(0.3);
    }
  });
});
