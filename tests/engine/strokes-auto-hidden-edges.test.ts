/**
 * tracelab.strokes=auto: the borders the strokes hide (strokes/hidden-edges.ts). The fixture: a red
 * disc outlined by a black 7-px ring, on white paper whose lower part is a blue band that runs
 * under the ring; the disc's border (against the paper and against the band) lies under the ring,
 * along the hand-over's pixel split. It is written with few nodes, at least a pixel inside the
 * ring's painted edges, and the picture rendered back is the input's away from the ring's edges.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { writeSvg } from '../../src/formats/svg.js';
import { outputOptions } from '../../src/formats/types.js';
import { renderSvgWithResvg } from '../helpers/compare.js';
import { sampleChain } from '../helpers/geometry.js';
import { drawShape, type Rgb } from '../helpers/raster.js';

const SIZE = 96;
const PAPER: Rgb = [255, 255, 255];
const BAND: Rgb = [60, 110, 200];
const DISC: Rgb = [230, 70, 60];
const INK: Rgb = [20, 20, 20];
const [CX, CY, RADIUS] = [48, 40, 18];
const WIDTH_PX = 7;
const BAND_TOP = 58;

const ringDistance = (x: number, y: number): number => Math.hypot(x - CX, y - CY) - RADIUS;

function outlinedDisc(widthPx: number) {
  return drawShape(SIZE, SIZE, PAPER, [
    { color: BAND, inside: (_x, y) => y >= BAND_TOP },
    { color: DISC, inside: (x, y) => ringDistance(x, y) <= 0 },
    { color: INK, inside: (x, y) => Math.abs(ringDistance(x, y)) <= widthPx / 2 },
  ]);
}

/** The auto trace of the outlined disc and the chains of the disc's border. */
function traced(widthPx: number) {
  const result = traceImage(outlinedDisc(widthPx), { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' });
  const disc = result.shapes.find((s) => s.color.r === DISC[0] && s.color.g === DISC[1])!;
  return { result, disc, discChains: result.chains.filter((c) => c.leftRegion === disc.region || c.rightRegion === disc.region) };
}

const nodesOf = (chains: readonly { segments: { length: number } }[]): number => chains.reduce((n, c) => n + c.segments.length, 0);

describe('tracelab.strokes=auto: the borders under a stroke', () => {
  const picture = outlinedDisc(WIDTH_PX);
  const { result, disc, discChains } = traced(WIDTH_PX);

  it('the disc meets the paper and the band under the ring', () => {
    expect(result.strokes).toHaveLength(1);
    expect(Math.abs(result.strokes![0]!.widthPx - WIDTH_PX)).toBeLessThanOrEqual(0.5);
    expect(disc).toBeDefined();
    // Its border: against the paper and against the band (junctions where the band's top passes under the ring).
    expect(discChains.length).toBeGreaterThanOrEqual(2);
  });

  it('its border is written with about the nodes a circle needs, a pixel or more inside the ring’s painted edges', () => {
    // A circle is 4 cubics (the two junctions with the band's top cut it into two arcs: 3 here).
    // Fitted as closely as a visible edge, the hand-over's pixel split took 47.
    expect(nodesOf(discChains)).toBeLessThanOrEqual(6);
    for (const chain of discChains) {
      for (const [x, y] of sampleChain(chain)) expect(Math.abs(ringDistance(x, y)), `${x}, ${y}`).toBeLessThanOrEqual(WIDTH_PX / 2 - 1);
    }
  });

  it('written as SVG and rendered, it is the picture away from the ring’s edges: no gap shows', () => {
    const svg = writeSvg(result, outputOptions({ gapFiller: { enabled: false, nonScalingStroke: true, clip: false, strokeWidthPx: 2 } }));
    const back = renderSvgWithResvg(svg, SIZE);
    let worst = 0;
    for (let y = 0; y < SIZE; y++) {
      for (let x = 0; x < SIZE; x++) {
        if (Math.abs(Math.abs(ringDistance(x + 0.5, y + 0.5)) - WIDTH_PX / 2) < 1 || Math.abs(y + 0.5 - BAND_TOP) < 1) continue;
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(back.data[(y * SIZE + x) * 4 + c]! - picture.data[(y * SIZE + x) * 4 + c]!));
      }
    }
    expect(worst).toBeLessThanOrEqual(12);
  });

  it('under a 5-px ring, which leaves under a pixel past the margin, the border stays as fitted', () => {
    // Painted at least 5 / 1.1 wide less the centre-line's 0.4-px fit: 1.87 px either side of it,
    // 0.87 px past the 1-px margin, under the least tolerance a hidden edge is refitted with.
    const thin = traced(5);
    expect(thin.result.strokes).toHaveLength(1);
    expect(nodesOf(thin.discChains)).toBeGreaterThan(12);
  });
});
