/**
 * tracelab.strokes=centerline with tracelab.max_stroke_width at its default (0, automatic): a
 * 256-px line icon drawn with a 16-px round pen (an icon set's 1.5-unit stroke on a 24-unit grid)
 * comes back as centre-lines at the pen's width, not as outlines of its lines; filled shapes as
 * wide as such a line that are no line (a triangle, a square) stay outlines; and a limit set by
 * hand is kept as set (8 px: the icon's lines are outlines).
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams, TraceResult } from '../../src/engine/types.js';
import { distanceToSegment, strokePoints } from '../helpers/geometry.js';
import { drawShape } from '../helpers/raster.js';

type Inside = (x: number, y: number) => boolean;
type Segment = readonly [number, number, number, number];

const PEN_PX = 16;
const pen = (segments: readonly Segment[]): Inside => (x, y) => segments.some((s) => distanceToSegment(x, y, ...s) <= PEN_PX / 2);
const ARROW: Segment[] = [[30, 128, 210, 128], [210, 128, 150, 68], [210, 128, 150, 188]];
const CHECK: Segment[] = [[50, 136, 105, 191], [105, 191, 215, 65]];

function trace(inside: Inside, params: Partial<EngineParams> = {}): TraceResult {
  const image = drawShape(256, 256, [255, 255, 255], [{ color: [0, 0, 0], inside }]);
  return traceImage(image, { ...DEFAULT_ENGINE_PARAMS, strokes: 'centerline', ...params });
}

describe('tracelab.strokes=centerline, automatic stroke width limit', () => {
  for (const [name, segments] of [['arrow', ARROW], ['check', CHECK]] as const) {
    it(`a ${name} drawn with a 16-px pen: centre-lines at 16 px (within 5 %), no outline`, () => {
      const result = trace(pen(segments));
      expect(result.shapes).toEqual([]);
      expect(result.strokes!.length).toBeGreaterThan(0);
      for (const s of result.strokes!) {
        expect(s.outline, name).toBe(false);
        expect(Math.abs(s.widthPx - PEN_PX) / PEN_PX, `${name}: width ${s.widthPx}`).toBeLessThanOrEqual(0.05);
      }
    });
  }

  it('a check whose short arm is three pen widths at 45° (an icon set\'s check, 256 px): one stroke at 16 px that reaches both arm ends', () => {
    // Thinned with Zhang–Suen's rule alone, the short arm — two pixels thick on the diagonal for
    // the last rounds — was eaten from its end and the check came back as its outline.
    const [a, corner, b]: [number, number][] = [[74.67, 133.33], [106.67, 165.33], [181.33, 90.67]];
    const segments: Segment[] = [[...a, ...corner], [...corner, ...b]];
    const result = trace(pen(segments));
    expect(result.strokes!.length).toBe(1);
    const s = result.strokes![0]!;
    expect(s.outline).toBe(false);
    expect(Math.abs(s.widthPx - PEN_PX) / PEN_PX, `width ${s.widthPx}`).toBeLessThanOrEqual(0.05);
    const points = strokePoints(result, 0);
    for (const [x, y] of [a, b]) {
      const nearest = Math.min(...points.map(([px, py]) => Math.hypot(px - x, py - y)));
      expect(nearest, `end ${x},${y}`).toBeLessThanOrEqual(1);
    }
    for (const [x, y] of points) expect(Math.min(...segments.map((seg) => distanceToSegment(x, y, ...seg))), `${x},${y}`).toBeLessThanOrEqual(1.5);
  });

  it('a small ring at a junction (an icon set\'s USB sign at 256 px: a line and two branches meeting a 16-px ring of radius 15 px): the ring stays drawn, no outline', () => {
    const unit = 256 / 24;
    const [cx, cy, radius] = [20.625 * unit, 12 * unit, 1.375 * unit];
    const ring: Inside = (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - radius) <= PEN_PX / 2;
    const inUnits: Segment[] = [[19.25, 12, 11, 12], [18.7, 12, 17.875, 15], [17.875, 15, 16.225, 15], [17.6, 12, 16.5, 9], [16.5, 9, 14.575, 9]];
    const lines = inUnits.map(([x1, y1, x2, y2]): Segment => [x1 * unit, y1 * unit, x2 * unit, y2 * unit]);
    const lined = pen(lines);
    const result = trace((x, y) => ring(x, y) || lined(x, y));
    expect(result.strokes!.length).toBeGreaterThan(0);
    for (const s of result.strokes!) {
      expect(s.outline).toBe(false);
      expect(Math.abs(s.widthPx - PEN_PX) / PEN_PX, `width ${s.widthPx}`).toBeLessThanOrEqual(0.05);
    }
    const points = result.strokes!.flatMap((_, s) => strokePoints(result, s));
    // The ring's far side, away from the junction, is on a stroke (within 1.5 px).
    for (let a = -Math.PI / 2; a <= Math.PI / 2; a += Math.PI / 8) {
      const [x, y] = [cx + radius * Math.cos(a), cy + radius * Math.sin(a)];
      expect(Math.min(...points.map(([px, py]) => Math.hypot(px - x, py - y))), `ring at ${a.toFixed(2)}`).toBeLessThanOrEqual(1.5);
    }
  });

  it('a stub a pen width long past a junction (a scale\'s post above its beam) is kept: the stroke reaches its end', () => {
    const result = trace(pen([[40, 100, 216, 100], [128, 84, 128, 220]]));
    expect(result.strokes!.every((s) => !s.outline)).toBe(true);
    const points = result.strokes!.flatMap((_, s) => strokePoints(result, s));
    expect(Math.min(...points.map(([x, y]) => Math.hypot(x - 128, y - 84)))).toBeLessThanOrEqual(1.5);
  });

  it('prongs ending on a box where its rounded corners begin (an icon set\'s plug at 256 px): the prongs run straight down to the box, the box turns its corners', () => {
    const unit = 256 / 24;
    const [x0, y0, x1, y1, r] = [5 * unit, 6.385 * unit, 15 * unit, 13.154 * unit, 2 * unit];
    // The box's centre-line: its sides and its corners' quarter circles; the ink within 8 px of it.
    const sides: Segment[] = [[x0 + r, y0, x1 - r, y0], [x1, y0 + r, x1, y1 - r], [x1 - r, y1, x0 + r, y1], [x0, y1 - r, x0, y0 + r]];
    const onBox = (x: number, y: number): boolean => {
      const [cx, cy] = [Math.min(Math.max(x, x0 + r), x1 - r), Math.min(Math.max(y, y0 + r), y1 - r)];
      const inCorner = (x < x0 + r || x > x1 - r) && (y < y0 + r || y > y1 - r);
      return inCorner ? Math.abs(Math.hypot(x - cx, y - cy) - r) <= PEN_PX / 2 : sides.some((s) => distanceToSegment(x, y, ...s) <= PEN_PX / 2);
    };
    const prongs = pen([[6.667 * unit, 3 * unit, 6.667 * unit, y0], [13.333 * unit, 3 * unit, 13.333 * unit, y0]]);
    const result = trace((x, y) => onBox(x, y) || prongs(x, y));
    expect(result.strokes!.every((s) => !s.outline)).toBe(true);
    const points = result.strokes!.flatMap((_, s) => strokePoints(result, s));
    // Above the box the strokes are the prongs, straight down to it: bent towards a cut corner,
    // the prong's line passed 3–4 px off.
    for (const [x, y] of points.filter(([, py]) => py > y0 - PEN_PX && py < y0 - 2)) {
      expect(Math.min(Math.abs(x - 6.667 * unit), Math.abs(x - 13.333 * unit)), `${x.toFixed(1)},${y.toFixed(1)}`).toBeLessThanOrEqual(1.5);
    }
  });

  it('a limit set by hand holds: at 8 px the 16-px arrow is its outline', () => {
    const result = trace(pen(ARROW), { maxStrokeWidthPx: 8 });
    expect(result.strokes!.length).toBeGreaterThan(0);
    expect(result.strokes!.every((s) => s.outline)).toBe(true);
  });

  it('filled shapes as wide as a line that are no line stay outlines: a 24-px triangle, a 20-px square', () => {
    const triangle: Inside = (x, y) => y >= 100 && y <= 160 && Math.abs(x - 128) <= ((160 - y) / 60) * 12;
    const square: Inside = (x, y) => x >= 118 && x < 138 && y >= 118 && y < 138;
    for (const inside of [triangle, square]) {
      const result = trace(inside);
      expect(result.strokes!.length).toBeGreaterThan(0);
      expect(result.strokes!.every((s) => s.outline && s.widthPx === 1)).toBe(true);
    }
  });
});
