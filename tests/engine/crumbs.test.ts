/**
 * Issue 39 item 2: no crumbs. In clean flat art the anti-aliasing along an edge belongs to the
 * edge: a region of a few pixels lying between two others (a bead of a third colour along their
 * border) joins a neighbour, while a dot of the same size on its own is a feature and stays.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { absorbCrumbs, despeckle, findRegions } from '../../src/engine/regions/regions.js';
import { drawPainted, turnedRect } from '../helpers/gradient-scenes.js';
import { disc, drawShape, rect, type Rgb } from '../helpers/raster.js';
import { smallShapeCounts } from '../../src/api/pipeline.js';

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

/**
 * The last crumb pass (regions.ts absorbCrumbs), after the shading: labels drawn as text, one digit
 * a pixel, on white (0, a fill of over 64 px): a black block (1) with a 1-px black dot touching it
 * at a corner (a piece of its edge cut off at a diagonal step), a 1-px black dot alone (a feature),
 * two 1-px light greys (2: ΔE76 7.5 from the white, a shade of it; 4: 8.5, a colour of its own), a
 * 3-px blue run (3), a 1-px grey dot (5) between two others (a crumb), a 4-px grey (6) between
 * the black and the white fill, a blend of them (anti-aliasing), and a blue line's piece (3, 7 px)
 * round a white gap that touches the white at a corner (the line keeps it).
 */
const LAST_PASS = [
  '111100000000',
  '111100000000',
  '000010000000',
  '000000000000',
  '000000010000',
  '002004000000',
  '000000333000',
  '000000000000',
  '111111000000',
  '111111500000',
  '006666000000',
  '003300000000',
  '030300000000',
  '033300000000',
];
const LAST_WIDTH = 12;
// Lab of white, black, light grey 7.5 away, blue, light grey 8.5 away, mid grey, a grey of L* 70.
const LAST_PASS_LAB = Float64Array.from([100, 0, 0, 0, 0, 0, 92.5, 0, 0, 50, 10, -50, 91.5, 0, 0, 45, 0, 0, 70, 0, 0]);

describe('the last crumb pass (absorbCrumbs)', () => {
  const labels = Int32Array.from(LAST_PASS.join('').split('').map(Number));
  const before = findRegions(labels, LAST_WIDTH, LAST_PASS.length);
  const { regions: out, fromRegion } = absorbCrumbs(before, LAST_WIDTH, LAST_PASS.length, 3, LAST_PASS_LAB);
  const at = (x: number, y: number) => out.labelOf[out.regionOf[y * LAST_WIDTH + x]!]!;

  it('a dot in a fill touching its own colour at a corner, a dot within 8 ΔE76 of its fill, a crumb and a blend between two regions go', () => {
    expect(at(4, 2)).toBe(0);
    expect(at(2, 5)).toBe(0);
    expect(at(6, 9)).toBe(1); // mid grey: nearer black than white
    // The blend joins the white fill, its nearest colour (the white pocket at its left is no fill);
    // the pocket touches the fill through it now, and is one region with it.
    expect(out.regionOf[10 * LAST_WIDTH + 2]).toBe(out.regionOf[0 * LAST_WIDTH + 11]);
    expect(out.regionOf[11 * LAST_WIDTH + 0]).toBe(out.regionOf[0 * LAST_WIDTH + 11]);
    expect(out.count).toBe(before.count - 5);
  });

  it('a dot of a colour of its own, a 3-px run and a gap in a line stay', () => {
    expect(at(7, 4)).toBe(1);
    expect(at(5, 5)).toBe(4);
    expect(at(7, 6)).toBe(3);
    expect(at(2, 12)).toBe(0);
    expect(out.regionOf[12 * LAST_WIDTH + 2]).not.toBe(out.regionOf[0]);
  });

  it('each new region is the region before it that kept its label, numbered in raster order', () => {
    for (let id = 0; id < out.count; id++) expect(out.labelOf[id]).toBe(before.labelOf[fromRegion[id]!]);
    const first = Array.from({ length: out.count }, (_, id) => out.regionOf.indexOf(id));
    expect(first).toEqual([...first].sort((a, b) => a - b));
    expect(out.area.reduce((s, a) => s + a, 0)).toBe(labels.length);
  });

  it('a 1-px region with only transparency around stays', () => {
    const alone = Int32Array.from([-1, -1, -1, -1, 1, -1, -1, -1, -1]);
    const regions = findRegions(alone, 3, 3);
    expect(absorbCrumbs(regions, 3, 3, 3, LAST_PASS_LAB).regions).toBe(regions);
  });
});

describe('no sub-pixel crumbs left along an anti-aliased edge over shaded bands', () => {
  /**
   * A 160 × 100 rectangle with a horizontal blue-grey ramp (cut into bands) on white, a black ring
   * over it and a black bar below it, anti-aliased; 1-px black dots that touch the ring or the bar
   * at a corner (as an anti-aliased edge leaves them), and one black dot alone in the white. (The
   * stages before the last pass already take these dots; this guards the whole pipeline, the pass
   * renumbering shaded regions included, in both shading modes. The pass's own rules are pinned
   * by the tests above.)
   */
  function picture() {
    const stops = [
      { offset: 0, color: [74, 104, 170] as const },
      { offset: 1, color: [146, 156, 170] as const },
    ];
    const ring = (x: number, y: number) => Math.abs(Math.hypot(x - 100, y - 80) - 30) <= 3;
    const image = drawPainted(200, 160, [255, 255, 255], [
      { paint: { kind: 'linear', x1: 20, y1: 80, x2: 180, y2: 80, stops }, inside: turnedRect(100, 80, 160, 100, 0) },
      { paint: [0, 0, 0], inside: ring },
      { paint: [0, 0, 0], inside: turnedRect(100, 145, 120, 6, 0) },
    ]);
    const black = (x: number, y: number) => image.data.set([0, 0, 0, 255], (y * image.width + x) * 4);
    // Dots one pixel inside the ring's inner edge, diagonal to its last fully black pixel.
    for (const [x, y] of [[103, 55], [125, 83], [97, 105], [75, 77], [39, 141], [160, 141], [160, 148]] as const) black(x, y);
    black(10, 150);
    return image;
  }

  for (const gradients of [false, true]) {
    it(`gradients ${gradients ? 'on' : 'off'}: no region under 3 px but the lone dot; the ramp and the ring keep their areas`, () => {
      const result = traceImage(picture(), { ...DEFAULT_ENGINE_PARAMS, gradients });
      expect(result.stats.profile).toBe('flat');
      expect(result.stats.smoothAreas).toBeGreaterThanOrEqual(1);
      const tiny = result.shapes.filter((s) => s.areaPx < 3);
      expect(tiny.map((s) => [s.areaPx, s.color.r, s.color.g, s.color.b])).toEqual([[1, 0, 0, 0]]);
      const dark = result.shapes.filter((s) => s.color.r < 40 && s.color.g < 40 && s.color.b < 40).reduce((sum, s) => sum + s.areaPx, 0);
      // The ring (2π · 30 · 6 ≈ 1131 px) and the bar (720 px), anti-aliased edges shared with their neighbours.
      expect(dark).toBeGreaterThan(1750);
      expect(dark).toBeLessThan(1950);
      if (gradients) expect(result.shapes.filter((s) => s.gradient).length).toBeGreaterThanOrEqual(1);
    });
  }
});

/**
 * No shape under a pixel's area (issue 39 item 2): a dot on its own is written as its pixels where
 * its sub-pixel edges, pulled in on every side by their coverage, made it smaller (a 1-px dot 75 %
 * covered was 0.26 px²); a faint dot — its pixels under half its own colour, the tip of a tapering
 * line — joins the colour around it.
 */
describe('dots: written as their pixels, or gone when faint', () => {
  const white: Rgb = [255, 255, 255];
  const red: Rgb = [220, 60, 40];
  const mix = (t: number): Rgb => [0, 1, 2].map((k) => Math.round(t * red[k]! + (1 - t) * white[k]!)) as unknown as Rgb;

  it('absorbCrumbs: a 1-px dot 40 % its own colour joins the fill; one 60 % stays', () => {
    const size = 10;
    const labels = new Int32Array(size * size);
    labels[2 * size + 2] = 1;
    labels[6 * size + 6] = 1;
    const data = new Uint8Array(size * size * 4).fill(255);
    const paint = (x: number, y: number, c: Rgb) => data.set(c, (y * size + x) * 4);
    paint(2, 2, mix(0.4));
    paint(6, 6, mix(0.6));
    const lab = Float64Array.from([100, 0, 0, 52, 58, 50]);
    const labelColor = Float64Array.from([...white, ...red]);
    const { regions } = absorbCrumbs(findRegions(labels, size, size), size, size, 3, lab, false, { data, labelColor });
    expect(regions.labelOf[regions.regionOf[2 * size + 2]!]).toBe(0);
    expect(regions.labelOf[regions.regionOf[6 * size + 6]!]).toBe(1);
    // Without the pixels (the crumb pass as before), both stay: neither is a shade nor cut off.
    const { regions: kept } = absorbCrumbs(findRegions(labels, size, size), size, size, 3, lab);
    expect(kept.labelOf[kept.regionOf[2 * size + 2]!]).toBe(1);
  });

  it('a traced picture: a 1-px crumb on an edge is gone; a 2×2 and a 1-px dot of their own colour stay, written at least their pixels', () => {
    const blue: Rgb = [29, 147, 216];
    const image = drawShape(200, 140, white, [
      { color: blue, inside: rect(0, 0, 150, 40) },
      { color: red, inside: disc(40, 100, 24) },
      { color: [250, 200, 30], inside: disc(110, 100, 22) },
    ]);
    const paint = (x: number, y: number, c: Rgb) => image.data.set([...c, 255], (y * image.width + x) * 4);
    // Anti-aliasing of a thin red line's end on the border of the blue and the white.
    paint(100, 40, mix(0.55));
    for (const [x, y] of [[160, 80], [161, 80], [160, 81], [161, 81]]) paint(x!, y!, red);
    paint(180, 120, red);
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('flat');
    const small = result.shapes.filter((s) => s.areaPx <= 4);
    expect(small.map((s) => [s.areaPx, s.color.r, s.color.g, s.color.b]).sort()).toEqual([[1, ...red], [4, ...red]]);
    // Written: the 2×2 dot covers its 4 px² (not under 4), the 1-px one its pixel; nothing under 1 px².
    expect(smallShapeCounts(result)).toEqual({ shapesUnder1px2: 0, shapesUnder4px2: 1 });
    expect(result.stats.smallShapes).toBe(1);
    expect(result.stats.smallShapeKinds).toEqual({ dots: 1 });
  });
});

/**
 * A 1-px rim beside a stepped gradient (issue 39: shape count within 2× VTracer's). Labels drawn as
 * text, one digit a pixel: white (0) at the left, the rim (1) one pixel wide, bands of a gradient
 * (3, 4, 5) at the right. Where the rim steps or what lies beside it changes, its pixels took
 * another label: a shade of the rim (2, ΔE76 10.8, a blend of no two neighbours), a blend of the rim
 * and band 4 (6). A red
 * feature (7) on the rim, a rim-coloured shade of 16 px and a step that is the rim at ΔE76 17
 * (8) stay.
 */
const RIM = [
  '001333333',
  '001333333',
  '001333333',
  '002333333',
  '002333333',
  '002444444',
  '001444444',
  '001444444',
  '001444444',
  '006444444',
  '006444444',
  '006555555',
  '001555555',
  '001555555',
  '001555555',
  '007555555',
  '007555555',
  '007555555',
  '001555555',
  '001555555',
  '001555555',
  '008555555',
  '008555555',
  '008555555',
  '001555555',
  '001555555',
  '001555555',
  ...Array.from({ length: 16 }, () => '002555555'),
  '001555555',
  '001555555',
  '001555555',
];
const RIM_WIDTH = 9;
// Lab of white, the rim, its shade, the three bands, the rim–band 4 blend, red, a rim at ΔE76 17.
const RIM_LAB = Float64Array.from([100, 0, 0, 50, 10, 30, 58, 14, 36, 90, 5, 20, 85, 5, 20, 80, 5, 20, 67.5, 7.5, 25, 50, 60, 40, 50, 27, 30]);

describe('a 1-px rim beside a stepped gradient (absorbCrumbs rimStepInto)', () => {
  const labels = Int32Array.from(RIM.join('').split('').map(Number));
  const before = findRegions(labels, RIM_WIDTH, RIM.length);
  // Labels from 3 on are the shading's (its bands 3, 4, 5 and the rest).
  const { regions: out } = absorbCrumbs(before, RIM_WIDTH, RIM.length, 3, RIM_LAB, false, undefined, 3);
  const regionAt = (y: number) => out.regionOf[y * RIM_WIDTH + 2]!;

  it('its 3-px steps (a shade of the rim, a blend of the rim and a band) join it: the rim down to the red is one region', () => {
    expect(before.count).toBe(15);
    for (let y = 0; y <= 14; y++) expect(regionAt(y)).toBe(regionAt(0));
    expect(out.labelOf[regionAt(0)]).toBe(1);
    expect(out.area[regionAt(0)]).toBe(15);
  });

  it('a 3-px feature of its own colour on the rim, a 3-px step 17 ΔE76 from it and a 16-px shade stay', () => {
    expect(out.labelOf[regionAt(16)]).toBe(7);
    expect(regionAt(18)).not.toBe(regionAt(0));
    expect(out.labelOf[regionAt(22)]).toBe(8);
    expect(out.labelOf[regionAt(30)]).toBe(2);
    expect(out.count).toBe(before.count - 4);
  });
});

describe('a 1-px rim drawn beside a stepped gradient, traced', () => {
  /**
   * A 2°-turned rectangle on white with a vertical gradient (cut into bands) and a 1-px rim whose
   * colour darkens along it with the gradient (after the elementary folders' side rims): where the
   * rim steps from one pixel column to the next, its pixels are blends, labelled apart; joined, the
   * rim is cut only where its step was labelled a band's colour.
   */
  it('the rim and its steps come back in at most 11 pieces (18 before the steps joined it)', () => {
    const stops = (top: Rgb, bottom: Rgb) => [
      { offset: 0, color: top },
      { offset: 1, color: bottom },
    ];
    const image = drawPainted(120, 160, [255, 255, 255], [
      { paint: { kind: 'linear', x1: 0, y1: 10, x2: 0, y2: 150, stops: stops([197, 169, 118], [173, 141, 88]) }, inside: turnedRect(60, 80, 82, 140, 2) },
      { paint: { kind: 'linear', x1: 0, y1: 10, x2: 0, y2: 150, stops: stops([238, 216, 182], [214, 180, 130]) }, inside: turnedRect(60, 80, 80, 140, 2) },
    ]);
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('flat');
    // The white and the gradient's two bands are the large shapes; the rest is the rim.
    const large = result.shapes.filter((s) => s.areaPx > 1000);
    expect(large).toHaveLength(3);
    expect(result.shapes.length - large.length).toBeLessThanOrEqual(11);
  });
});

/**
 * A grey outline's fringe beside the paper (absorbCrumbs fringeInto), after the elementary
 * folders' side rims: 0 white paper, 1 the outline (a fill of 96 px), 3 the body, and between the
 * paper and the outline a 1-px column of the outline's anti-aliasing, one coverage level per
 * step of the slanted line (2: a dark blend, 4: a light one; greys that are colours of the
 * palette, so the label stage keeps them), a 9-px run of a colour of its own (5) and a 2-px-wide
 * block of the dark blend.
 */
const FRINGE = [
  ...Array.from({ length: 9 }, () => '00211333'),
  ...Array.from({ length: 9 }, () => '00411333'),
  ...Array.from({ length: 9 }, () => '00211333'),
  ...Array.from({ length: 9 }, () => '00511333'),
  ...Array.from({ length: 9 }, () => '00411333'),
  ...Array.from({ length: 5 }, () => '02211333'),
  ...Array.from({ length: 4 }, () => '00011333'),
];
const FRINGE_WIDTH = 8;
// Lab of white, the grey outline, the dark blend (nearer the outline), the purple body, the light
// blend (nearer the paper), red.
const FRINGE_LAB = Float64Array.from([100, 0, 0, 50, 0, 0, 72, 0, 0, 60, 20, -40, 88, 0, 0, 50, 60, 40]);

describe("an outline's 1-px fringe beside the paper (absorbCrumbs fringeInto)", () => {
  const labels = Int32Array.from(FRINGE.join('').split('').map(Number));
  const before = findRegions(labels, FRINGE_WIDTH, FRINGE.length);
  const { regions: out } = absorbCrumbs(before, FRINGE_WIDTH, FRINGE.length, 3, FRINGE_LAB);
  const regionAt = (x: number, y: number) => out.regionOf[y * FRINGE_WIDTH + x]!;

  it('its 9-px pieces, blends of the paper and the outline, join the nearer of the two', () => {
    expect(before.count).toBe(9);
    for (const y of [0, 8, 18, 26]) expect(regionAt(2, y)).toBe(regionAt(3, 0));
    for (const y of [9, 17, 36, 44]) expect(regionAt(2, y)).toBe(regionAt(0, 0));
  });

  it('a run of a colour of its own and a blend two pixels wide stay', () => {
    expect(out.labelOf[regionAt(2, 30)]).toBe(5);
    expect(out.labelOf[regionAt(1, 47)]).toBe(2);
    expect(out.count).toBe(before.count - 4);
  });
});

/**
 * Islands of a shade (absorbCrumbs shadeIslandInto), after a noto emoji's hair lit at its rim:
 * palette browns 3–5 ΔE76 apart where a soft ramp crosses between them leave 4–15-px islands of
 * one in another. 0 the dark hair, 1 its lighter shade, 2 a brown 10 ΔE76 lighter, 3 a lit rim
 * 6 ΔE76 above the hair, 4 the shade between hair and rim (3 ΔE76 from each), 5 a red.
 */
const ISLANDS = [
  '0000000000000',
  '0111000022200',
  '0111000022200',
  '0111000022200',
  '0111000022200',
  '0000000000000',
  '0000000000000',
  '0000000000000',
  '0004440005550',
  '0004440005550',
  '3334443335553',
  '3333333333333',
  '3333333333333',
  '3333333333333',
  '3333333333333',
  '3333333333333',
];
const ISLANDS_WIDTH = 13;
const ISLANDS_LAB = Float64Array.from([30, 5, 5, 33, 6, 6, 40, 5, 5, 36, 5, 5, 33, 5, 5, 50, 60, 40]);

describe('islands of a shade inside a fill (absorbCrumbs shadeIslandInto)', () => {
  const labels = Int32Array.from(ISLANDS.join('').split('').map(Number));
  const before = findRegions(labels, ISLANDS_WIDTH, ISLANDS.length);
  const { regions: out } = absorbCrumbs(before, ISLANDS_WIDTH, ISLANDS.length, 3, ISLANDS_LAB);
  const labelAtXY = (x: number, y: number) => out.labelOf[out.regionOf[y * ISLANDS_WIDTH + x]!]!;

  it('a 12-px island of a shade within 8 ΔE76 joins the fill; one 10 ΔE76 away stays', () => {
    expect(before.count).toBe(6);
    expect(labelAtXY(2, 2)).toBe(0);
    expect(labelAtXY(9, 2)).toBe(2);
  });

  it('a 9-px shade between two fills it is a shade of both joins one of them; a red piece stays', () => {
    expect([0, 3]).toContain(labelAtXY(4, 9));
    expect(labelAtXY(10, 9)).toBe(5);
    expect(out.count).toBe(4);
  });
});

describe('the last crumb pass in noisy flat art (index.ts lastCrumbPass)', () => {
  /**
   * The 1-px rim beside a stepped gradient above, on a wider page, beside a patch of a 2-D colour
   * ramp whose every pixel is a colour of its own (a tango icon's gradients: the picture is noisy,
   * its rare colours 4–12 % of its pixels). With the patch 46 × 42 the rim's steps join it as in
   * clean art; with the patch 62 × 62 (over 12 %: as many rare colours as a grainy photo's) the
   * pass does not run, and the rim keeps its pieces.
   */
  function rimBesidePatch(patchWidth: number, patchHeight: number) {
    const stops = (top: Rgb, bottom: Rgb) => [
      { offset: 0, color: top },
      { offset: 1, color: bottom },
    ];
    const image = drawPainted(180, 160, [255, 255, 255], [
      { paint: { kind: 'linear', x1: 0, y1: 10, x2: 0, y2: 150, stops: stops([197, 169, 118], [173, 141, 88]) }, inside: turnedRect(60, 80, 82, 140, 2) },
      { paint: { kind: 'linear', x1: 0, y1: 10, x2: 0, y2: 150, stops: stops([238, 216, 182], [214, 180, 130]) }, inside: turnedRect(60, 80, 80, 140, 2) },
    ]);
    const x0 = 176 - patchWidth;
    for (let y = 10; y < 10 + patchHeight; y++) {
      for (let x = x0; x < 176; x++) image.data.set([60 + (x - x0) * 2, 100 + (y - 10) * 2, 200, 255], (y * image.width + x) * 4);
    }
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('flat');
    // The patch's shapes are blue 200; the white and the gradient's two bands are the large shapes.
    return result.shapes.filter((s) => s.color.b !== 200 && s.areaPx < 1000).length;
  }

  it("a gradient's rare colours: the rim and its steps come back in at most 11 pieces (13 without the pass)", () => {
    expect(rimBesidePatch(46, 42)).toBeLessThanOrEqual(11);
  });

  it("a grainy photo's share of rare colours: the pass does not run and the rim keeps its 13 pieces", () => {
    expect(rimBesidePatch(62, 62)).toBe(13);
  });
});
