/**
 * tracelab.layers (src/engine/layers/): with output.shape_stacking=stacked, a shape partly hidden
 * by shapes stacked over it comes back completed underneath as the circle or ellipse it is, and
 * the picture drawn stays the input (rendered by resvg, compared pixel by pixel). Off, or with
 * cutouts, the output is the same bytes as without the option.
 */
import { describe, expect, it } from 'vitest';
import { planVectorize, runVectorize } from '../../src/api/pipeline.js';
import { DEFAULT_ENGINE_PARAMS, traceImage, type EngineParams, type RgbaImage, type Shape } from '../../src/engine/index.js';
import { meanAbsDiff, renderSvgWithResvg } from '../helpers/compare.js';
import { encodePng } from '../helpers/encode.js';
import { disc, drawShape, rect, type Rgb } from '../helpers/raster.js';

const W = 140;
const H = 120;
const PAPER: Rgb = [255, 255, 255];
const ORANGE: Rgb = [240, 140, 30];
const NAVY: Rgb = [30, 40, 120];
const GREEN: Rgb = [40, 150, 70];
const BIG = { cx: 70, cy: 60, r: 40 };
const BIG_ELLIPSE = { cx: 70, cy: 60, rx: 50, ry: 32 };

/** A big orange circle (or ellipse) with a navy square over its upper right rim and a green disc over its lower left rim. */
function circleUnderTwo(big: (x: number, y: number) => boolean): RgbaImage {
  return drawShape(W, H, PAPER, [
    { color: ORANGE, inside: big },
    { color: NAVY, inside: rect(88, 14, 120, 42) },
    { color: GREEN, inside: disc(38, 88, 14) },
  ]);
}
const inEllipse = (e: typeof BIG_ELLIPSE) => (x: number, y: number) => ((x - e.cx) / e.rx) ** 2 + ((y - e.cy) / e.ry) ** 2 <= 1;

const LAYERS: EngineParams = { ...DEFAULT_ENGINE_PARAMS, shapeStacking: 'stacked', layers: true };

function orangeShapes(shapes: readonly Shape[]): Shape[] {
  return shapes.filter((s) => Math.abs(s.color.r - ORANGE[0]) < 8 && Math.abs(s.color.g - ORANGE[1]) < 8 && Math.abs(s.color.b - ORANGE[2]) < 8);
}

async function svgOf(image: RgbaImage, more: [string, string][]): Promise<string> {
  const plan = planVectorize([['output.file_format', 'svg'], ...more]);
  return new TextDecoder().decode((await runVectorize(plan, encodePng(image))).body);
}

describe('tracelab.layers completes occluded shapes', () => {
  it('a circle under two smaller shapes comes back as one circle under them', () => {
    const result = traceImage(circleUnderTwo(disc(BIG.cx, BIG.cy, BIG.r)), LAYERS);
    const [orange, ...others] = orangeShapes(result.shapes);
    expect(others).toEqual([]);
    expect(orange!.outer).toHaveLength(1);
    expect(orange!.primitive?.family).toBe('circle');
    const circle = orange!.primitive as Extract<Shape['primitive'], { family: 'circle' }>;
    expect(Math.abs(circle.cx - BIG.cx)).toBeLessThan(0.3);
    expect(Math.abs(circle.cy - BIG.cy)).toBeLessThan(0.3);
    expect(Math.abs(circle.r - BIG.r)).toBeLessThan(0.3);
    // Under the two shapes that hide part of it.
    const order = result.shapes.indexOf(orange!);
    const above = result.shapes.filter((s) => s.color.b === NAVY[2] || s.color.g === GREEN[1]).map((s) => result.shapes.indexOf(s));
    expect(above.length).toBeGreaterThanOrEqual(2);
    for (const i of above) expect(i).toBeGreaterThan(order);
  });

  it('without the option the circle is a cut-out outline (what the option changes)', () => {
    const result = traceImage(circleUnderTwo(disc(BIG.cx, BIG.cy, BIG.r)), { ...LAYERS, layers: false });
    const [orange] = orangeShapes(result.shapes);
    expect(orange!.primitive).toBeUndefined();
    expect(orange!.outer.length).toBeGreaterThan(1);
  });

  it('an ellipse under two smaller shapes comes back as one ellipse', () => {
    const result = traceImage(circleUnderTwo(inEllipse(BIG_ELLIPSE)), LAYERS);
    const [orange] = orangeShapes(result.shapes);
    const ellipse = orange!.primitive as Extract<Shape['primitive'], { family: 'ellipse' }>;
    expect(ellipse.family).toBe('ellipse');
    expect(Math.abs(ellipse.rx - BIG_ELLIPSE.rx)).toBeLessThan(0.5);
    expect(Math.abs(ellipse.ry - BIG_ELLIPSE.ry)).toBeLessThan(0.5);
    expect(Math.abs(ellipse.cx - BIG_ELLIPSE.cx)).toBeLessThan(0.5);
  });

  it('a shape whose missing part shows the paper is not completed (it is a bite, not a layer)', () => {
    // The circle with a bite of paper out of its rim, and the navy square over another part.
    const bitten = (x: number, y: number) => disc(BIG.cx, BIG.cy, BIG.r)(x, y) && !disc(30, 60, 14)(x, y);
    const image = drawShape(W, H, PAPER, [
      { color: ORANGE, inside: bitten },
      { color: NAVY, inside: rect(88, 14, 120, 42) },
    ]);
    const [orange] = orangeShapes(traceImage(image, LAYERS).shapes);
    expect(orange!.primitive).toBeUndefined();
  });

  it('the SVG is a <circle> under the two shapes, and resvg draws it as the input', async () => {
    const image = circleUnderTwo(disc(BIG.cx, BIG.cy, BIG.r));
    const stacked: [string, string][] = [['output.shape_stacking', 'stacked']];
    const layered = await svgOf(image, [...stacked, ['tracelab.layers', 'true']]);
    const plain = await svgOf(image, stacked);
    const circle = /<circle fill="#f08c1e" cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"\/>/.exec(layered);
    expect(circle?.slice(1).map(Number).map((v, k) => Math.abs(v - [BIG.cx, BIG.cy, BIG.r][k]!) < 0.1)).toEqual([true, true, true]);
    // Painted first, under the square and the disc that hide part of it.
    expect(layered.indexOf('<circle')).toBeLessThan(layered.indexOf('<rect fill="#1e2878"'));
    const diffLayered = meanAbsDiff(image, renderSvgWithResvg(layered, W));
    const diffPlain = meanAbsDiff(image, renderSvgWithResvg(plain, W));
    // Closer to the input than the cut-out outline (measured 0.17 vs 0.24 per channel): the
    // square's and the disc's edges are drawn once, over the circle, not matched on both sides.
    expect(diffLayered).toBeLessThan(0.25);
    expect(diffLayered).toBeLessThan(diffPlain);
  });

  it('with cutouts the option changes nothing (the same bytes)', async () => {
    const image = circleUnderTwo(disc(BIG.cx, BIG.cy, BIG.r));
    expect(await svgOf(image, [['tracelab.layers', 'true']])).toBe(await svgOf(image, []));
  });
});
