/**
 * tracelab.strokes=auto where two lines of different colours touch edge to edge (strokes/auto.ts
 * hand-over): under their shared, anti-aliased edge the fill must be ink, not the paper. Each
 * stroke's edge pixel is partly covered, and two partial coverages painted one over the other
 * let the paper under them show through (an emoji's grey barbell plate inside its black outline
 * showed a light seam). The fixture: two parallel 6-px lines in two greys, side by side on white,
 * their shared edge through the middle of a pixel column.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { writeSvg } from '../../src/formats/svg.js';
import { outputOptions } from '../../src/formats/types.js';
import { renderSvgWithResvg } from '../helpers/compare.js';
import { drawShape, rect, type Rgb } from '../helpers/raster.js';

const PAPER: Rgb = [255, 255, 255];
const DARK: Rgb = [40, 40, 40];
const LIGHT: Rgb = [110, 110, 110];
const SIZE = 120;
/** The shared edge (x), half a pixel off the grid: its column is half one grey, half the other. */
const SEAM_X = 60.5;
const WIDTH_PX = 6;
const [TOP, BOTTOM] = [25, 95];

function sideBySide() {
  return drawShape(SIZE, SIZE, PAPER, [
    { color: DARK, inside: rect(SEAM_X - WIDTH_PX, TOP, SEAM_X, BOTTOM) },
    { color: LIGHT, inside: rect(SEAM_X, TOP, SEAM_X + WIDTH_PX, BOTTOM) },
  ]);
}

describe('tracelab.strokes=auto: two lines touching side by side', () => {
  it('both are strokes, and rendered, no pixel between their centre-lines is lighter than both greys', () => {
    const image = sideBySide();
    const result = traceImage(image, { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' });
    expect(result.strokes?.length).toBe(2);
    const back = renderSvgWithResvg(writeSvg(result, outputOptions({})), SIZE);
    let lightest = 0;
    let where = '';
    // Rows away from the lines' ends; columns from one centre-line to the other.
    for (let y = TOP + WIDTH_PX; y < BOTTOM - WIDTH_PX; y++) {
      for (let x = Math.floor(SEAM_X - WIDTH_PX / 2); x < Math.ceil(SEAM_X + WIDTH_PX / 2); x++) {
        const value = back.data[(y * SIZE + x) * 4]!;
        if (value > lightest) [lightest, where] = [value, `${x}, ${y}`];
      }
    }
    expect(lightest, `lightest at ${where}`).toBeLessThanOrEqual(LIGHT[0]);
  });

  it('the ink under the seam stays under the strokes: around the lines, the paper is as drawn', () => {
    const result = traceImage(sideBySide(), { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' });
    // The seam is a filled shape of its own (the first line's colour) beside the paper's.
    expect(result.shapes.map((s) => s.color.r).sort((a, b) => a - b)).toEqual([DARK[0], PAPER[0]]);
    const back = renderSvgWithResvg(writeSvg(result, outputOptions({})), SIZE);
    let darkest = 255;
    for (let y = 0; y < SIZE; y++) {
      for (let x = 0; x < SIZE; x++) {
        // Every pixel a pixel or more off the two lines' rectangle.
        if (x + 1 >= SEAM_X - WIDTH_PX - 1 && x <= SEAM_X + WIDTH_PX + 1 && y + 1 >= TOP - 1 && y <= BOTTOM + 1) continue;
        darkest = Math.min(darkest, back.data[(y * SIZE + x) * 4]!);
      }
    }
    expect(darkest).toBeGreaterThanOrEqual(PAPER[0] - 1);
  });
});
