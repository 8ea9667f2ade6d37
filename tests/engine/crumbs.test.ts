/**
 * Issue 39 item 2: no crumbs. In clean flat art the anti-aliasing along an edge belongs to the
 * edge: a region of a few pixels lying between two others (a bead of a third colour along their
 * border) joins a neighbour, while a dot of the same size on its own is a feature and stays.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { despeckle, findRegions } from '../../src/engine/regions/regions.js';
import { disc, drawShape, rect, type Rgb } from '../helpers/raster.js';

/**
 * Labels drawn as text, one digit a pixel: 0 blue above, 1 white below, 2 light blue. Row 2 holds
 * a 3-px bead of 2 on the border of 0 and 1; row 6 a 3-px dot of 2 inside the white.
 */
const PICTURE = [
  '0000000000',
  '0000000000',
  '0002220000',
  '1111111111',
  '1111111111',
  '1111111111',
  '1111222111',
  '1111111111',
];
const WIDTH = 10;
const HEIGHT = PICTURE.length;
// Lab of the three labels: blue, white, light blue (nearer blue than white).
const LABEL_LAB = Float64Array.from([58, -5, -42, 100, 0, 0, 65, -8, -32]);

function regionsOf(): ReturnType<typeof findRegions> {
  const labels = Int32Array.from(PICTURE.join('').split('').map(Number));
  return findRegions(labels, WIDTH, HEIGHT);
}

function labelAt(regions: ReturnType<typeof findRegions>, x: number, y: number): number {
  return regions.labelOf[regions.regionOf[y * WIDTH + x]!]!;
}

describe('edge crumbs (despeckle crumbMaxAreaPx)', () => {
  it('a 3-px bead between two regions joins its nearest-colour neighbour; a 3-px dot stays', () => {
    const out = despeckle(regionsOf(), WIDTH, HEIGHT, 0.125, LABEL_LAB, undefined, undefined, false, 4);
    expect(out.count).toBe(3);
    expect(labelAt(out, 4, 2)).toBe(0); // the bead is blue now
    expect(labelAt(out, 5, 6)).toBe(2); // the dot is still light blue
  });

  it('without the crumb area (pixel art, photos, min_area_px alone) both stay', () => {
    const out = despeckle(regionsOf(), WIDTH, HEIGHT, 0.125, LABEL_LAB, undefined, undefined, false, 0);
    expect(out.count).toBe(4);
    expect(labelAt(out, 4, 2)).toBe(2);
  });

  it('a bead of 4 px or more is no crumb', () => {
    const labels = Int32Array.from(PICTURE.map((row, y) => (y === 2 ? '0022220000' : row)).join('').split('').map(Number));
    const out = despeckle(findRegions(labels, WIDTH, HEIGHT), WIDTH, HEIGHT, 0.125, LABEL_LAB, undefined, undefined, false, 4);
    expect(labelAt(out, 4, 2)).toBe(2);
  });
});

describe('edge crumbs in a traced picture', () => {
  it('flat art: a 3-px bead of light blue on the border of blue and white is gone, a 3-px dot stays', () => {
    const blue: Rgb = [29, 147, 216];
    const lightBlue: Rgb = [74, 169, 224];
    const image = drawShape(200, 140, [255, 255, 255], [
      { color: blue, inside: rect(0, 0, 150, 40) },
      { color: lightBlue, inside: rect(160, 10, 196, 130) },
      { color: [220, 60, 40], inside: disc(40, 100, 24) },
      { color: [250, 200, 30], inside: disc(110, 100, 22) },
    ]);
    const paint = (x: number, y: number) => image.data.set([...lightBlue, 255], (y * image.width + x) * 4);
    for (const x of [60, 61, 62]) paint(x, 40); // on the border, just below the blue
    for (const y of [70, 71, 72]) paint(75, y); // alone in the white
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('flat');
    const small = result.shapes.filter((s) => s.areaPx < 4);
    expect(small.map((s) => [s.areaPx, s.color.r, s.color.g, s.color.b])).toEqual([[3, ...lightBlue]]);
    expect(result.stats.smallShapes).toBe(1);
  });
});
