/**
 * Pixel art's exact outlines (fitLatticeSteps, src/engine/fit/fit.ts): straight lines between the
 * corners of each boundary chain, read from the chain's steps. Checked against the definition —
 * list every lattice vertex, drop the ones whose neighbours are collinear with them — on the
 * chains of seeded random region maps (open chains between junctions and closed loops), and on a
 * hand-drawn L whose six corners are known.
 */
import { describe, expect, it } from 'vitest';
import { buildChainGraph, type ChainGraph } from '../../src/engine/boundary/boundary.js';
import { FitScratch, fitLatticeSteps } from '../../src/engine/fit/fit.js';
import type { Segment } from '../../src/engine/types.js';

/** The definition: every vertex of chain c, then only the non-collinear ones (and an open chain's ends). */
function byDefinition(graph: ChainGraph, c: number): { startX: number; startY: number; segments: Segment[] } {
  const closed = graph.closed[c] === 1;
  const from = graph.dirStart[c]!;
  const to = graph.dirStart[c + 1]!;
  const xs = [graph.startX[c]!];
  const ys = [graph.startY[c]!];
  for (let k = from; k < to; k++) {
    const d = graph.dirs[k]!;
    xs.push(xs[xs.length - 1]! + [1, 0, -1, 0][d]!);
    ys.push(ys[ys.length - 1]! + [0, 1, 0, -1][d]!);
  }
  if (closed) {
    xs.pop();
    ys.pop();
  }
  const n = xs.length;
  const keep: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = (i - 1 + n) % n;
    const b = (i + 1) % n;
    const cross = (xs[i]! - xs[a]!) * (ys[b]! - ys[a]!) - (ys[i]! - ys[a]!) * (xs[b]! - xs[a]!);
    if ((!closed && (i === 0 || i === n - 1)) || cross !== 0) keep.push(i);
  }
  const segments: Segment[] = keep.slice(1).map((i) => ({ kind: 'line', x: xs[i]!, y: ys[i]! }));
  if (closed) segments.push({ kind: 'line', x: xs[keep[0]!]!, y: ys[keep[0]!]! });
  return { startX: xs[keep[0]!]!, startY: ys[keep[0]!]!, segments };
}

const fitted = (graph: ChainGraph, c: number) =>
  fitLatticeSteps(new FitScratch(), graph.startX[c]!, graph.startY[c]!, graph.dirs, graph.dirStart[c]!, graph.dirStart[c + 1]!, graph.closed[c] === 1);

describe('fitLatticeSteps: exact outlines of pixel art', () => {
  it('keeps exactly the corners of every chain of random region maps, open and closed', () => {
    let seed = 7;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);
    let open = 0;
    let closed = 0;
    for (let trial = 0; trial < 40; trial++) {
      const width = 3 + Math.floor(rand() * 20);
      const height = 3 + Math.floor(rand() * 20);
      const regions = 2 + Math.floor(rand() * 4);
      // Blocky maps (runs of a region) so chains have straight stretches as well as corners.
      const regionOf = new Int32Array(width * height);
      for (let i = 0; i < regionOf.length; i++) regionOf[i] = i > 0 && rand() < 0.6 ? regionOf[i - 1]! : Math.floor(rand() * regions) - (rand() < 0.05 ? regions + 1 : 0);
      for (let i = 0; i < regionOf.length; i++) if (regionOf[i]! < -1) regionOf[i] = -1;
      const graph = buildChainGraph(regionOf, width, height);
      for (let c = 0; c < graph.count; c++) {
        const { startX, startY, segments } = fitted(graph, c);
        expect({ startX, startY, segments: segments.toSegments() }).toEqual(byDefinition(graph, c));
        if (graph.closed[c] === 1) closed++;
        else open++;
      }
    }
    expect(open).toBeGreaterThan(100);
    expect(closed).toBeGreaterThan(10);
  });

  it('an L-shaped region inside another gives one closed outline through its six corners', () => {
    // 6 × 6 background (region 0) holding an L of region 1: a 1 × 3 column and a 3 × 1 foot.
    const width = 6;
    const height = 6;
    const regionOf = new Int32Array(width * height);
    for (const [x, y] of [[1, 1], [1, 2], [1, 3], [2, 3], [3, 3]] as const) regionOf[y * width + x] = 1;
    const graph = buildChainGraph(regionOf, width, height);
    const inner = [...Array(graph.count).keys()].find((c) => graph.left[c] === 1 || graph.right[c] === 1)!;
    const outline = fitted(graph, inner);
    expect(graph.closed[inner]).toBe(1);
    const corners = [[outline.startX, outline.startY], ...outline.segments.toSegments().map((s) => (s.kind === 'line' ? [s.x, s.y] : []))];
    expect(corners).toHaveLength(7); // six corners and back to the first
    expect(corners[6]).toEqual(corners[0]);
    expect(new Set(corners.slice(0, 6).map(String))).toEqual(new Set(['1,1', '2,1', '2,3', '4,3', '4,4', '1,4']));
  });
});
