/**
 * The shading rules' numbers, pinned (issue 40): a changed band step, band cap or stop tolerance
 * changes what these pictures come back as, so it fails here.
 * - Gradients off (the API's default), a smooth area is cut into flat bands of about one band step
 *   of colour each (ΔE76 along the ramp), at most six per area (shaded-regions.ts).
 * - Gradients on, a ramp gets the fewest stops that keep it within the stop tolerance of the
 *   pixels' colour (ramp-fit.ts): a ramp whose colour follows a curve needs a known number.
 * The pictures are drawn by the tests (tests/helpers/gradient-scenes.ts): a 160 × 100 rectangle
 * with a horizontal ramp on white, 8-bit, anti-aliased. Each ramp's colour length sits well inside
 * a rounding interval of the band rule (2.6 and 3.4 steps both give 3 bands), so a step changed
 * by 1 ΔE76 either way changes one of the counts.
 */
import { describe, expect, it } from 'vitest';
import { rgbToLab } from '../../src/engine/color.js';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { Regions } from '../../src/engine/regions/regions.js';
import { outlinePieces, type ShadingInput } from '../../src/engine/shading/shading.js';
import type { Rgb3 } from '../helpers/delta-e.js';
import { drawPainted, turnedRect, type LinearRamp, type RampStop } from '../helpers/gradient-scenes.js';

/** A 200 × 160 picture: a 160 × 100 rectangle whose colour runs through `stops` from left to right, on white. */
function rampPicture(stops: readonly RampStop[]) {
  const ramp: LinearRamp = { kind: 'linear', x1: 20, y1: 80, x2: 180, y2: 80, stops };
  return drawPainted(200, 160, [255, 255, 255], [{ paint: ramp, inside: turnedRect(100, 80, 160, 100, 0) }]);
}

const twoStops = (from: Rgb3, to: Rgb3): RampStop[] => [
  { offset: 0, color: from },
  { offset: 1, color: to },
];

/** ΔE76 between two sRGB colours. */
function deltaE76(a: Rgb3, b: Rgb3): number {
  const lab = new Float64Array(6);
  rgbToLab(a[0], a[1], a[2], lab, 0);
  rgbToLab(b[0], b[1], b[2], lab, 3);
  return Math.hypot(lab[0]! - lab[3]!, lab[1]! - lab[4]!, lab[2]! - lab[5]!);
}

/** The band colours of a traced ramp picture (every shape but the white background), left to right. */
function bandColours(stops: readonly RampStop[]): Rgb3[] {
  const result = traceImage(rampPicture(stops), DEFAULT_ENGINE_PARAMS);
  expect(result.stats.smoothAreas).toBe(1);
  const bands = result.shapes.filter((s) => !(s.color.r === 255 && s.color.g === 255 && s.color.b === 255));
  // The ramps below all get lighter from left to right: order the bands by red.
  return bands.map((s) => [s.color.r, s.color.g, s.color.b] as Rgb3).sort((p, q) => p[0] - q[0]);
}

const steps = (colours: readonly Rgb3[]): number[] => colours.slice(1).map((c, i) => deltaE76(colours[i]!, c));

describe('gradients off: a smooth area is cut into bands of one band step each, at most six', () => {
  it('a low-contrast blue-grey ramp of ΔE76 37 (2.6 band steps) is 3 bands, 11–14 ΔE76 apart', () => {
    const colours = bandColours(twoStops([74, 104, 170], [146, 156, 170]));
    expect(colours).toHaveLength(3);
    for (const step of steps(colours)) {
      expect(step).toBeGreaterThanOrEqual(11);
      expect(step).toBeLessThanOrEqual(14);
    }
  });

  it('a blue-grey ramp of ΔE76 48 (3.4 band steps) is still 3 bands, 14.5–17 ΔE76 apart', () => {
    const colours = bandColours(twoStops([66, 96, 170], [154, 164, 170]));
    expect(colours).toHaveLength(3);
    for (const step of steps(colours)) {
      expect(step).toBeGreaterThanOrEqual(14.5);
      expect(step).toBeLessThanOrEqual(17);
    }
  });

  it('a high-contrast blue-to-yellow ramp of ΔE76 162 (11 band steps) is capped at 6 bands, 26–29 ΔE76 apart', () => {
    const colours = bandColours(twoStops([20, 40, 160], [250, 220, 60]));
    expect(colours).toHaveLength(6);
    for (const step of steps(colours)) {
      expect(step).toBeGreaterThanOrEqual(26);
      expect(step).toBeLessThanOrEqual(29);
    }
  });
});

describe('gradients on: a ramp gets the fewest stops within the stop tolerance', () => {
  it('a ramp whose colour runs along a 2-radian arc (drawn with 17 stops) is one gradient of 6 stops', () => {
    // The colour turns through 2 radians on a circle of radius 90 in the red-green plane.
    const stops: RampStop[] = [];
    for (let k = 0; k <= 16; k++) {
      const angle = (k / 16) * 2;
      stops.push({ offset: k / 16, color: [Math.round(140 + 90 * Math.cos(angle)), Math.round(120 + 90 * Math.sin(angle)), 110] });
    }
    const result = traceImage(rampPicture(stops), { ...DEFAULT_ENGINE_PARAMS, gradients: true });
    const gradients = result.shapes.flatMap((s) => (s.gradient ? [s.gradient] : []));
    expect(gradients).toHaveLength(1);
    expect(gradients[0]!.kind).toBe('linear');
    expect(gradients[0]!.stops).toHaveLength(6);
  });
});

describe('gradients on: outline pieces a failed group is fitted without', () => {
  /**
   * A 24 × 12 map of regions drawn as rows of digits: 0 the page, 1 a 1-px line of 18 px (no pixel
   * inside it: a rim's highlight line), 2 a band 3 px tall and 18 long (16 of its 54 px inside it,
   * 30 %: a band of shading), 3 a 1-px line of 15 px (under the size floor: left to the specks).
   */
  const rows = [
    '000000000000000000000000',
    '011111111111111111100000',
    '000000000000000000000000',
    '022222222222222222200000',
    '022222222222222222200000',
    '022222222222222222200000',
    '000000000000000000000000',
    '033333333333333300000000',
    '000000000000000000000000',
    '000000000000000000000000',
    '000000000000000000000000',
    '000000000000000000000000',
  ];
  function mapInput(): { input: ShadingInput; groupPx: Int32Array } {
    const width = rows[0]!.length;
    const regionOf = Int32Array.from(rows.join(''), (c) => Number(c));
    const area = new Int32Array(4);
    for (const r of regionOf) area[r]!++;
    const regions = { regionOf, area, count: 4 } as unknown as Regions;
    const input = { width, height: rows.length, regions } as unknown as ShadingInput;
    const groupPx = Int32Array.from({ length: regionOf.length }, (_, p) => p).filter((p) => regionOf[p]! > 0);
    return { input, groupPx };
  }

  it('a 1-px line of 16 px or more is an outline piece; a 3-px band (30 % inside) and a 15-px line are not', () => {
    const { input, groupPx } = mapInput();
    expect([...outlinePieces(input, [1, 2, 3], groupPx)]).toEqual([1]);
  });
});
