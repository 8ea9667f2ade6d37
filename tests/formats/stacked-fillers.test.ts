/**
 * Gap fillers in stacked output (src/formats/plan.ts thinnerThanFiller): a filler between two
 * shapes that lie on a third is drawn over that third, so beside a shape thinner than the filler
 * half its width shows on it. Pixel art and line art get no filler beside such shapes; flat art
 * keeps its fillers (they hide the seams between its near-coloured bands).
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { RgbaImage } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { outputOptions } from '../../src/formats/types.js';
import { renderSvgWithResvg } from '../helpers/compare.js';
import { drawCells, drawShape, type Rgb } from '../helpers/raster.js';

const STACKED_WITH_FILLER = outputOptions({ gapFiller: { enabled: true, nonScalingStroke: true, clip: false, strokeWidthPx: 2 } });

/** Pixels whose colour differs from the input's by more than `tolerance` in some channel. */
function pixelsOff(input: RgbaImage, back: RgbaImage, tolerance: number): number {
  let off = 0;
  for (let i = 0; i < input.width * input.height; i++) {
    for (let c = 0; c < 3; c++) {
      if (Math.abs(input.data[i * 4 + c]! - back.data[i * 4 + c]!) > tolerance) {
        off++;
        break;
      }
    }
  }
  return off;
}

/**
 * A 12 × 12-cell sprite on pale paper, each cell 1 px: a 1-cell dark outline in two tones around a
 * red body — the outline's pieces are siblings lying on the paper, each thinner than the filler.
 */
function sprite(): RgbaImage {
  const rows = [
    '000000000000',
    '011111122220',
    '012222222210',
    '013333333320',
    '023333333310',
    '013333333320',
    '023333333310',
    '013333333320',
    '023333333310',
    '012222222210',
    '022211111110',
    '000000000000',
  ];
  const colors: Rgb[] = [[245, 240, 225], [30, 25, 40], [90, 60, 110], [200, 50, 40]];
  return drawCells(rows.map((r) => [...r].map(Number)), colors, 1);
}

describe('gap fillers in stacked output', () => {
  it('pixel art: no filler pokes past its 1-px outline onto the paper — the render is the sprite', () => {
    const input = sprite();
    const result = traceImage(input, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('pixel');
    const back = renderSvgWithResvg(writeSvg({ ...result, shapeStacking: 'stacked' }, STACKED_WITH_FILLER), input.width);
    expect(pixelsOff(input, back, 24)).toBe(0);
  });

  it('flat art keeps its fillers beside thin shapes on a parent', () => {
    // Two halves of a disc split by a 1.5-px band of an in-between shade, on a blue disc, on
    // white, anti-aliased (flat art): the band is thinner than the filler; its fillers stay.
    const image = drawShape(120, 120, [255, 255, 255], [
      { color: [40, 90, 200], inside: (x, y) => Math.hypot(x - 60, y - 60) < 50 },
      { color: [200, 140, 40], inside: (x, y) => Math.hypot(x - 60, y - 60) < 30 && x < 59.25 },
      { color: [150, 100, 60], inside: (x, y) => Math.hypot(x - 60, y - 60) < 30 && x >= 59.25 && x < 60.75 },
      { color: [230, 170, 60], inside: (x, y) => Math.hypot(x - 60, y - 60) < 30 && x >= 60.75 },
    ]);
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('flat');
    const svg = writeSvg({ ...result, shapeStacking: 'stacked' }, STACKED_WITH_FILLER);
    expect(svg).toContain('non-scaling-stroke');
  });
});
