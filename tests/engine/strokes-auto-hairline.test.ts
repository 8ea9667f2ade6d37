/**
 * tracelab.strokes=auto on anti-aliased hairlines (issue 38, src/engine/strokes/auto.ts): a line
 * under a pixel wide that the palette quantised into greys alternating along it (a clean drawing's
 * palette keeps them: every colour of clean line art is the artist's) is read as one ink
 * (ink-groups.ts): strokes of its own width in its darkest shade, the greys handed to the paper,
 * not a string of grey fragments. Where two hairlines run side by side and the strokes miss the
 * ink locally, only that stretch stays fills.
 */
import { describe, expect, it } from 'vitest';
import { diagonalLinkRows } from '../../src/engine/regions/diagonals.js';
import { findRegions } from '../../src/engine/regions/regions.js';
import { splitStrokeRegions } from '../../src/engine/strokes/auto.js';
import type { Rgba } from '../../src/engine/types.js';
import { drawShape } from '../helpers/raster.js';
import { distanceToSegment } from '../helpers/geometry.js';

type Inside = (x: number, y: number) => boolean;

const SIZE = 160;
const WIDTH_PX = 0.86;
const capsule = (x1: number, y1: number, x2: number, y2: number): Inside => (x, y) => distanceToSegment(x, y, x1, y1, x2, y2) <= WIDTH_PX / 2;
const ring = (cx: number, cy: number, r: number): Inside => (x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) <= WIDTH_PX / 2;

/** Grey level bounds of the quantised shades: paper above 235, then light, mid and dark (label 3…1). */
const SHADE_FLOORS = [235, 175, 115, -1];

/**
 * Black hairlines on white, 8×8 supersampled, quantised as the palette does a clean drawing: the
 * paper (label 0) and three greys (labels 1 dark, 2 mid, 3 light), each label's colour its pixels' mean.
 */
function quantised(parts: readonly Inside[]) {
  const image = drawShape(SIZE, SIZE, [255, 255, 255], [{ color: [0, 0, 0], inside: (x, y) => parts.some((f) => f(x, y)) }]);
  const labels = new Int32Array(SIZE * SIZE);
  const sum = new Float64Array(4);
  const count = new Float64Array(4);
  for (let i = 0; i < labels.length; i++) {
    const grey = image.data[i * 4]!;
    const shade = SHADE_FLOORS.findIndex((floor) => grey > floor);
    labels[i] = shade === 0 ? 0 : 4 - shade;
    sum[labels[i]!] += grey;
    count[labels[i]!]++;
  }
  const fills: Rgba[] = [0, 1, 2, 3].map((l) => {
    const g = Math.round(sum[l]! / Math.max(1, count[l]!));
    return { r: g, g, b: g, a: 255 };
  });
  const links = diagonalLinkRows(labels, SIZE, SIZE, 0, SIZE + 1);
  const regions = findRegions(labels, SIZE, SIZE, links);
  const regionColor = new Float64Array(regions.count * 3);
  for (let r = 0; r < regions.count; r++) {
    const f = fills[regions.labelOf[r]!]!;
    regionColor.set([f.r, f.g, f.b], r * 3);
  }
  const picture = { data: image.data, width: SIZE, height: SIZE, regionOf: regions.regionOf, regionColor };
  return { picture, regions, fills };
}

const split = (parts: readonly Inside[]) => {
  const q = quantised(parts);
  return { ...q, result: splitStrokeRegions({ picture: q.picture, regions: q.regions, fills: q.fills, maxWidthPx: 12, diagonalLinks: true }) };
};

describe('tracelab.strokes=auto: an anti-aliased hairline is one ink, not its shades', () => {
  it('a hairline ring and a line across it: quantised into many grey regions, read as strokes of 0.86 px in the darkest grey, on the drawn lines', () => {
    const line = [15.3, 30.2, 145.1, 105.4] as const;
    const { regions, fills, result } = split([capsule(...line), ring(80.2, 80.4, 45)]);
    // The shades alternate along the lines: dozens of small regions, none of them a line alone.
    expect(regions.count).toBeGreaterThan(40);
    expect(result.lines.length).toBeGreaterThanOrEqual(2);
    expect(result.lines.length).toBeLessThanOrEqual(5);
    for (const { path, color } of result.lines) {
      expect(color).toEqual(fills[1]);
      // The darkest grey is not black (no pixel of a 0.86-px line is wholly inked): the stroke is
      // as much wider as it is lighter, its weight (width × darkness) the line's.
      const weightPx = (path.widthPx * (255 - color.r)) / 255;
      expect(Math.abs(weightPx - WIDTH_PX) / WIDTH_PX, `width ${path.widthPx} in grey ${color.r}`).toBeLessThanOrEqual(0.1);
      for (let k = 0; k < path.points.length; k += 2) {
        const [x, y] = [path.points[k]!, path.points[k + 1]!];
        const off = Math.min(Math.abs(Math.hypot(x - 80.2, y - 80.4) - 45), distanceToSegment(x, y, ...line));
        expect(off, `at ${x.toFixed(1)},${y.toFixed(1)}`).toBeLessThanOrEqual(0.6);
      }
    }
    // Every grey went to the paper: one region left.
    expect(result.regions.count).toBe(1);
  });

  it('two hairlines running side by side for a stretch: strokes everywhere else, only that stretch stays fills', () => {
    // A ring, and a line that touches it tangentially at the top (1 px apart over ~20 px).
    const { result } = split([ring(80.2, 90.4, 50), capsule(10.3, 39.6, 150.1, 39.9)]);
    expect(result.lines.length).toBeGreaterThanOrEqual(2);
    let strokeLengthPx = 0;
    for (const { path } of result.lines) for (let k = 2; k < path.points.length; k += 2) strokeLengthPx += Math.hypot(path.points[k]! - path.points[k - 2]!, path.points[k + 1]! - path.points[k - 1]!);
    // The ring's 314 px and the line's 140: most of it stroked.
    expect(strokeLengthPx).toBeGreaterThan(0.75 * (2 * Math.PI * 50 + 140));
    // What stays fills: the paper and pieces where the lines meet (around the ring's top, x 80 ± 30, y 40 ± 8).
    const paper = result.regions.regionOf[0]!;
    result.regions.regionOf.forEach((r, i) => {
      if (r === paper) return;
      const [x, y] = [i % SIZE, Math.floor(i / SIZE)];
      expect(Math.abs(x - 80) <= 30 && Math.abs(y - 40) <= 8, `fill pixel at ${x},${y}`).toBe(true);
    });
  });
});
