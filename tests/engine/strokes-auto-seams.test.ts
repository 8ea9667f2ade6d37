/**
 * tracelab.strokes=auto's gap-filler rule (strokes/auto.ts chainsUnderLines): a border between two
 * fills loses its gap filler only where the whole border lies under an opaque line, not where its
 * ends do. The fixture: a dark outline (a rounded rectangle 4 px wide) around a box whose upper
 * half is orange and lower half blue; the straight seam between the halves runs from the outline
 * on one side to the outline on the other. And the rule alone, on chains drawn by hand.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { SegmentPath } from '../../src/engine/segment-path.js';
import { chainsUnderLines } from '../../src/engine/strokes/auto.js';
import type { Chain } from '../../src/engine/types.js';
import { sampleChain } from '../helpers/geometry.js';
import { drawShape, type Rgb } from '../helpers/raster.js';

const PAPER: Rgb = [255, 255, 255];
const INK: Rgb = [30, 30, 30];
const TOP: Rgb = [240, 170, 40];
const BOTTOM: Rgb = [60, 110, 200];
const WIDTH_PX = 4;

/** Signed distance to the rounded rectangle 20…100 × 20…80, corner radius 10 (the outline's outer edge). */
function boxDistance(x: number, y: number): number {
  const qx = Math.abs(x - 60) - 30;
  const qy = Math.abs(y - 50) - 20;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - 10;
}

function outlinedHalves() {
  return drawShape(120, 100, PAPER, [
    { color: TOP, inside: (x, y) => boxDistance(x, y) <= 0 && y < 50 },
    { color: BOTTOM, inside: (x, y) => boxDistance(x, y) <= 0 && y >= 50 },
    { color: INK, inside: (x, y) => Math.abs(boxDistance(x, y) + WIDTH_PX / 2) <= WIDTH_PX / 2 },
  ]);
}

describe('tracelab.strokes=auto: which borders go without a gap filler', () => {
  it('the borders under the outline do; the seam across the box, whose ends only are under it, does not', () => {
    const result = traceImage(outlinedHalves(), { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' });
    expect(result.strokes).toHaveLength(1);
    const under = result.chainsUnderStrokes ?? [];
    expect(under.length).toBeGreaterThan(0);
    // Every chain listed lies under the 4-px outline (its centre-line 2 px inside the box's edge) …
    for (const c of under) {
      for (const [x, y] of sampleChain(result.chains[c]!)) expect(Math.abs(boxDistance(x, y) + WIDTH_PX / 2), `chain ${c} at ${x}, ${y}`).toBeLessThanOrEqual(WIDTH_PX / 2 + 0.5);
    }
    // … and the seam (a chain through the box's middle, x = 60, y = 50) is not listed.
    const seam = result.chains.findIndex((chain) => sampleChain(chain).some(([x, y]) => Math.abs(x - 60) < 2 && Math.abs(y - 50) < 1));
    expect(seam).toBeGreaterThanOrEqual(0);
    expect(under).not.toContain(seam);
  });

  it('a straight chain whose two ends lie under lines but whose middle crosses open fill is not under them', () => {
    // Two vertical lines 4 px wide (x 0–4 and 36–40) in a 40 × 20 picture.
    const [width, height] = [40, 20];
    const underLines = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (const x of [0, 1, 2, 3, 36, 37, 38, 39]) underLines[y * width + x] = 1;
    const chain = (x0: number, y0: number, ...to: [number, number][]): Chain => ({
      startX: x0,
      startY: y0,
      segments: SegmentPath.of(to.map(([x, y]) => ({ kind: 'line' as const, x, y }))),
      leftRegion: 0,
      rightRegion: 1,
      closed: false,
    });
    const chains = [
      chain(2, 2, [2, 18]), // along the left line: under it
      chain(2, 10, [38, 10]), // across the gap, one segment: ends under, middle not
      chain(38, 2, [38, 10], [38, 18]), // along the right line in two segments: under it
      chain(2, 4, [20, 4], [38, 4]), // across, with a segment end in the gap
      // A quarter circle of radius 20 about (20, -10) bulging into the gap, its ends under the
      // lines: its chord is a line between them, its curve is not under them.
      { ...chain(2, 5), segments: SegmentPath.of([{ kind: 'quad', cx: 20, cy: 30, x: 38, y: 5 }]) },
    ];
    expect(chainsUnderLines(chains, underLines, width, height)).toEqual([0, 2]);
  });
});
