/**
 * tracelab.strokes=centerline in the engine (src/engine/strokes/): fixtures drawn here with known
 * centre-lines and widths — lines at many angles and widths, anti-aliased and 1-bit, rings,
 * rounded rectangles, T/X/Y junctions, ink wider than a line — traced back to pen strokes.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { distanceToSegment, strokePoints } from '../helpers/geometry.js';
import { drawShape } from '../helpers/raster.js';

type Inside = (x: number, y: number) => boolean;

/** A line from (x1, y1) to (x2, y2), `w` wide, round ends (a capsule). */
const capsule = (x1: number, y1: number, x2: number, y2: number, w: number): Inside => (x, y) => distanceToSegment(x, y, x1, y1, x2, y2) <= w / 2;
/** The same line with butt ends. */
const bar = (x1: number, y1: number, x2: number, y2: number, w: number): Inside => (x, y) => {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const t = ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy);
  return t >= 0 && t <= 1 && distanceToSegment(x, y, x1, y1, x2, y2) <= w / 2;
};
const ring = (cx: number, cy: number, r: number, w: number): Inside => (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) <= w / 2;
const any = (...parts: Inside[]): Inside => (x, y) => parts.some((f) => f(x, y));

/** Black ink on white, anti-aliased (8×8 supersampled), or thresholded to 1 bit. */
function draw(size: number, inside: Inside, oneBit = false): RgbaImage {
  const image = drawShape(size, size, [255, 255, 255], [{ color: [0, 0, 0], inside }]);
  if (oneBit) {
    const d = image.data;
    for (let i = 0; i < d.length; i += 4) d[i] = d[i + 1] = d[i + 2] = d[i]! < 128 ? 0 : 255;
  }
  return image;
}

const CENTERLINE: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes: 'centerline' };

function centerline(image: RgbaImage, params: Partial<EngineParams> = {}): TraceResult {
  return traceImage(image, { ...CENTERLINE, ...params });
}

describe('tracelab.strokes=centerline: one stroke per line, its width and centre-line', () => {
  it('anti-aliased lines 2.5–20 px wide at 0–165°: one open stroke, width within 5 %, centre-line within 0.5 px, ends at the line ends', () => {
    for (const w of [2.5, 4.5, 7, 12, 20]) {
      for (const deg of [0, 15, 45, 75, 120, 165]) {
        const a = (deg * Math.PI) / 180;
        const size = 140;
        const half = 45;
        const [x1, y1, x2, y2] = [70 - half * Math.cos(a), 70 - half * Math.sin(a), 70 + half * Math.cos(a), 70 + half * Math.sin(a)];
        const result = centerline(draw(size, capsule(x1, y1, x2, y2, w)), { maxStrokeWidthPx: 24 });
        const what = `w=${w} at ${deg}°`;
        expect(result.shapes, what).toEqual([]);
        expect(result.strokes, what).toHaveLength(1);
        const stroke = result.strokes![0]!;
        expect(stroke.closed, what).toBe(false);
        expect(stroke.outline, what).toBe(false);
        expect(Math.abs(stroke.widthPx - w) / w, `${what}: width ${stroke.widthPx}`).toBeLessThanOrEqual(0.05);
        const points = strokePoints(result, 0);
        for (const [x, y] of points) expect(distanceToSegment(x, y, x1, y1, x2, y2), what).toBeLessThanOrEqual(0.5);
        // A round end: the path ends at the capsule's end point (its cap reaches the tip).
        expect(stroke.cap, what).toBe('round');
        const [first, last] = [points[0]!, points[points.length - 1]!];
        const endError = Math.min(
          Math.hypot(first[0] - x1, first[1] - y1) + Math.hypot(last[0] - x2, last[1] - y2),
          Math.hypot(first[0] - x2, first[1] - y2) + Math.hypot(last[0] - x1, last[1] - y1),
        );
        expect(endError, what).toBeLessThanOrEqual(1.5);
      }
    }
  });

  it('1-bit lines 2–8 px wide: one stroke, width within 5 % of the ink drawn (its area over its length), centre-line within 0.5 px', () => {
    for (const w of [2, 3, 5, 8]) {
      for (const deg of [0, 10, 30, 45, 75]) {
        const a = (deg * Math.PI) / 180;
        const [x1, y1, x2, y2] = [60 - 40 * Math.cos(a), 60 - 40 * Math.sin(a), 60 + 40 * Math.cos(a), 60 + 40 * Math.sin(a)];
        const image = draw(120, capsule(x1, y1, x2, y2, w), true);
        // Thresholding quantises the width (at 45° a 2-px band holds 3 diagonals of pixel centres,
        // 2.12 px): the width drawn is the one whose capsule has the ink's area.
        let area = 0;
        for (let i = 0; i < image.data.length; i += 4) if (image.data[i] === 0) area++;
        const drawn = (-80 + Math.sqrt(80 * 80 + Math.PI * area)) / (Math.PI / 2);
        const result = centerline(image, { maxStrokeWidthPx: 10 });
        const what = `1-bit w=${w} (drawn ${drawn.toFixed(2)}) at ${deg}°`;
        expect(result.strokes, what).toHaveLength(1);
        expect(Math.abs(result.strokes![0]!.widthPx - drawn) / drawn, `${what}: width ${result.strokes![0]!.widthPx}`).toBeLessThanOrEqual(0.05);
        for (const [x, y] of strokePoints(result, 0)) expect(distanceToSegment(x, y, x1, y1, x2, y2), what).toBeLessThanOrEqual(0.5);
      }
    }
  });

  it('a wide line with square ends gets butt caps and ends at the ink ends', () => {
    const result = centerline(draw(120, bar(20, 40, 100, 70, 8)), { maxStrokeWidthPx: 10 });
    expect(result.strokes).toHaveLength(1);
    const stroke = result.strokes![0]!;
    expect(stroke.cap).toBe('butt');
    expect(stroke.join).toBe('miter');
    expect(Math.abs(stroke.widthPx - 8) / 8).toBeLessThanOrEqual(0.05);
    const points = strokePoints(result, 0);
    const ends = [points[0]!, points[points.length - 1]!].sort((p, q) => p[0] - q[0]);
    expect(Math.hypot(ends[0]![0] - 20, ends[0]![1] - 40)).toBeLessThanOrEqual(1);
    expect(Math.hypot(ends[1]![0] - 100, ends[1]![1] - 70)).toBeLessThanOrEqual(1);
  });

  it('rings (anti-aliased and 1-bit) and a rounded rectangle are one closed stroke on their centre-line', () => {
    for (const oneBit of [false, true]) {
      const result = centerline(draw(120, ring(60, 60, 40, 3), oneBit));
      expect(result.strokes).toHaveLength(1);
      expect(result.strokes![0]!.closed).toBe(true);
      expect(Math.abs(result.strokes![0]!.widthPx - 3) / 3).toBeLessThanOrEqual(0.05);
      for (const [x, y] of strokePoints(result, 0)) expect(Math.abs(Math.hypot(x - 60, y - 60) - 40)).toBeLessThanOrEqual(0.5);
    }
    // Rounded rectangle 20…100 × 30…90, corner radius 12, drawn 4 px wide.
    const roundedRectDistance = (x: number, y: number): number => {
      const qx = Math.abs(x - 60) - (40 - 12);
      const qy = Math.abs(y - 60) - (30 - 12);
      return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - 12;
    };
    const result = centerline(draw(120, (x, y) => Math.abs(roundedRectDistance(x, y)) <= 2));
    expect(result.strokes).toHaveLength(1);
    expect(result.strokes![0]!.closed).toBe(true);
    expect(Math.abs(result.strokes![0]!.widthPx - 4) / 4).toBeLessThanOrEqual(0.05);
    for (const [x, y] of strokePoints(result, 0)) expect(Math.abs(roundedRectDistance(x, y))).toBeLessThanOrEqual(0.5);
  });
});

describe('tracelab.strokes=centerline: junctions', () => {
  /** Every stroke end that is not a free line end lies within 0.5 px of `at` (the junction closes). */
  function endsNear(result: TraceResult, at: readonly [number, number]): number {
    let n = 0;
    for (let s = 0; s < result.strokes!.length; s++) {
      const points = strokePoints(result, s);
      for (const p of [points[0]!, points[points.length - 1]!]) if (Math.hypot(p[0] - at[0], p[1] - at[1]) <= 0.5) n++;
    }
    return n;
  }

  it('T: the bar goes through, the stem ends on the bar centre-line; no spur', () => {
    const result = centerline(draw(120, any(capsule(20, 30, 100, 30, 3), capsule(60, 30, 60, 100, 3))));
    expect(result.strokes).toHaveLength(2);
    expect(endsNear(result, [60, 30])).toBe(1);
    expect(result.stats.strokes).toMatchObject({ count: 2, outlines: 0 });
    expect(result.stats.strokes!.penDownPx).toBeGreaterThan(148);
    expect(result.stats.strokes!.penDownPx).toBeLessThan(152);
  });

  it('X (diagonal, and axis-aligned at 6 px): two strokes straight through the crossing', () => {
    const diagonal = centerline(draw(120, any(capsule(20, 20, 100, 100, 3), capsule(20, 100, 100, 20, 3))));
    expect(diagonal.strokes).toHaveLength(2);
    for (let s = 0; s < 2; s++) {
      const points = strokePoints(diagonal, s);
      const [x1, y1, x2, y2] = points[0]![1] < 60 && points[0]![0] < 60 ? [20, 20, 100, 100] : [20, 100, 100, 20];
      for (const [x, y] of points) expect(Math.min(distanceToSegment(x, y, x1, y1, x2, y2), distanceToSegment(x, y, 20, 20, 100, 100), distanceToSegment(x, y, 20, 100, 100, 20))).toBeLessThanOrEqual(0.5);
    }
    const plus = centerline(draw(120, any(capsule(20, 60, 100, 60, 6), capsule(60, 20, 60, 100, 6))));
    expect(plus.strokes).toHaveLength(2);
  });

  it('a ring with a handle (a magnifier): the ring stays one closed circle through the junction, the handle ends on it', () => {
    const result = centerline(draw(120, any(ring(50, 50, 30, 6), capsule(50 + 30 * Math.SQRT1_2, 50 + 30 * Math.SQRT1_2, 105, 105, 6))));
    expect(result.strokes).toHaveLength(2);
    const closed = result.strokes!.findIndex((s) => s.closed);
    expect(closed).toBeGreaterThanOrEqual(0);
    for (const [x, y] of strokePoints(result, closed)) expect(Math.abs(Math.hypot(x - 50, y - 50) - 30)).toBeLessThanOrEqual(0.5);
    const handle = strokePoints(result, 1 - closed);
    const inner = handle.reduce((a, b) => (Math.hypot(a[0] - 50, a[1] - 50) < Math.hypot(b[0] - 50, b[1] - 50) ? a : b));
    // Its end lies within the ring's ink (3 px of its centre-line): no gap.
    expect(Math.abs(Math.hypot(inner[0] - 50, inner[1] - 50) - 30)).toBeLessThanOrEqual(3);
  });

  it('Y (three arms at 120°): the arms meet at the centre, two joined into one stroke, none left short', () => {
    const arm = (deg: number): Inside => capsule(60, 60, 60 + 40 * Math.cos((deg * Math.PI) / 180), 60 + 40 * Math.sin((deg * Math.PI) / 180), 4);
    const result = centerline(draw(120, any(arm(-90), arm(30), arm(150))));
    expect(result.strokes).toHaveLength(2);
    // The joined stroke passes through the centre, the other ends there.
    const through = strokePoints(result, 0).concat(strokePoints(result, 1));
    expect(Math.min(...through.map(([x, y]) => Math.hypot(x - 60, y - 60)))).toBeLessThanOrEqual(0.5);
    expect(endsNear(result, [60, 60])).toBeGreaterThanOrEqual(1);
    expect(result.stats.strokes!.penDownPx).toBeGreaterThan(117);
  });
});

describe('tracelab.strokes=centerline: wide ink, order, determinism', () => {
  it('ink wider than max_stroke_width becomes its outline (one closed 1-px stroke per loop), thinner ink its centre-line', () => {
    const image = draw(120, any((x, y) => Math.hypot(x - 40, y - 40) < 20, capsule(70, 90, 110, 90, 3)));
    const result = centerline(image);
    expect(result.shapes).toEqual([]);
    const outlines = result.strokes!.filter((s) => s.outline);
    expect(outlines).toHaveLength(1);
    expect(outlines[0]).toMatchObject({ closed: true, widthPx: 1 });
    expect(result.strokes!.filter((s) => !s.outline)).toHaveLength(1);
    // The same line with max_stroke_width below its width: an outline too.
    const narrow = centerline(image, { maxStrokeWidthPx: 2 });
    expect(narrow.strokes!.every((s) => s.outline)).toBe(true);
    expect(narrow.strokes).toHaveLength(2);
  });

  it('pens are ordered by nearest neighbour: less travel than the order the lines were found in, inner rings before outer', () => {
    // Short vertical dashes in two columns: found row by row (left, right, left, …); drawn column by column.
    const dashes: Inside[] = [];
    for (let k = 0; k < 5; k++) dashes.push(capsule(20, 12 + 22 * k, 20, 26 + 22 * k, 3), capsule(100, 12 + 22 * k, 100, 26 + 22 * k, 3));
    const result = centerline(draw(120, any(...dashes)));
    const stats = result.stats.strokes!;
    expect(stats.count).toBe(10);
    expect(stats.penUpPx).toBeLessThan(stats.penUpInputOrderPx / 2);
    // Concentric rings: the inner one first.
    const rings = centerline(draw(120, any(ring(60, 60, 45, 3), ring(60, 60, 20, 3))));
    const radius = (s: number): number => {
      const [x, y] = strokePoints(rings, s)[0]!;
      return Math.hypot(x - 60, y - 60);
    };
    expect(rings.strokes).toHaveLength(2);
    expect(radius(0)).toBeLessThan(radius(1));
  });

  it('is deterministic and leaves tracelab.strokes=none untouched', () => {
    const image = draw(120, any(capsule(20, 30, 100, 30, 3), capsule(60, 30, 60, 100, 3), ring(60, 70, 20, 2.5)));
    expect(JSON.stringify(centerline(image).strokes)).toBe(JSON.stringify(centerline(image).strokes));
    const plain = traceImage(image, DEFAULT_ENGINE_PARAMS);
    const none = traceImage(image, { ...DEFAULT_ENGINE_PARAMS, strokes: 'none', maxStrokeWidthPx: 3 });
    const strip = (r: TraceResult): unknown => ({ ...r, stats: { ...r.stats, stageMs: {} } });
    expect(JSON.stringify(strip(none))).toBe(JSON.stringify(strip(plain)));
    expect(plain.strokes).toBeUndefined();
  });
});

describe('tracelab.strokes=centerline: dots', () => {
  it('a dot (a period) is a zero-length round stroke as wide as the dot', () => {
    const result = centerline(draw(60, any((x, y) => Math.hypot(x - 30, y - 30) <= 2, capsule(10, 50, 50, 50, 2.5))));
    const dot = result.strokes!.find((s) => strokePoints(result, result.strokes!.indexOf(s)).every(([x, y]) => Math.hypot(x - 30, y - 30) <= 0.5));
    expect(dot).toBeDefined();
    expect(dot!.cap).toBe('round');
    expect(result.chains[dot!.uses[0]!.chain]!.segments.length).toBe(1);
    expect(Math.abs(dot!.widthPx - 4) / 4).toBeLessThanOrEqual(0.1);
  });
});

describe('tracelab.strokes=centerline: max_stroke_width', () => {
  it('a line drawn exactly max_stroke_width wide is a line (its measure may be a few % over), one 20 % wider is not', () => {
    const frame = (w: number): RgbaImage => draw(100, (x, y) => Math.abs(Math.max(Math.abs(x - 50), Math.abs(y - 50)) - 35) <= w / 2);
    const at = centerline(frame(8), { maxStrokeWidthPx: 8 });
    expect(at.strokes).toHaveLength(1);
    expect(at.strokes![0]!.outline).toBe(false);
    const over = centerline(frame(9.6), { maxStrokeWidthPx: 8 });
    expect(over.strokes!.every((s) => s.outline)).toBe(true);
  });
});
