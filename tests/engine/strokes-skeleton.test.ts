/**
 * The skeleton graph of a thinned mask (src/engine/strokes/skeleton.ts): a knot of pixels where
 * only two edges meet is no junction, so a ring with a knot on it is read as one ring; a ring
 * with a line leaving it keeps its junction.
 */
import { describe, expect, it } from 'vitest';

import { skeletonGraph } from '../../src/engine/strokes/skeleton.js';

const SIZE = 16;

/** A one-pixel, 8-connected octagon (every pixel two neighbours) on a 16 × 16 mask, with `extra` pixels set too. */
function ringMask(extra: [number, number][]): Uint8Array {
  const mask = new Uint8Array(SIZE * SIZE);
  const ring: [number, number][] = [[3, 3], [8, 3], [3, 8], [8, 8]];
  for (let k = 4; k <= 7; k++) ring.push([k, 2], [9, k], [k, 9], [2, k]);
  for (const [x, y] of [...ring, ...extra]) mask[y * SIZE + x] = 1;
  return mask;
}

describe('skeletonGraph', () => {
  it('a ring with a knot of pixels on it (only two edges leave the knot) is one ring, no node', () => {
    const graph = skeletonGraph(ringMask([[3, 2]]), SIZE, SIZE, 1.5, 3);
    expect(graph.nodes).toEqual([]);
    expect(graph.edges.length).toBe(1);
    expect(graph.edges[0]!.from).toBe(-1);
    expect(graph.edges[0]!.pixels.length).toBeGreaterThanOrEqual(18);
  });

  it('a ring with a line leaving it keeps its junction (three edge ends) and the line\'s free end', () => {
    const graph = skeletonGraph(ringMask([[10, 5], [11, 5], [12, 5], [13, 5]]), SIZE, SIZE, 1.5, 2);
    expect(graph.nodes.map((n) => n.degree).sort()).toEqual([1, 3]);
  });
});
