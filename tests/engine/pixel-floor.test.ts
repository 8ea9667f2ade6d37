/**
 * No shape under a pixel's area (issue 39 item 2), after the fit (fit/pixel-floor.ts): a small
 * region whose fitted outline came out under 1 px² — sub-pixel edges pulled in on every side by
 * their pixels' coverage — is written as its pixels; a dot on its own just over 1 px²; what is
 * written at a pixel or more, and a long hairline, stay as fitted.
 */
import { describe, expect, it } from 'vitest';
import { buildChainGraph, buildRegionLoops, type ChainGraph } from '../../src/engine/boundary/boundary.js';
import { FitScratch, fitLatticeSteps } from '../../src/engine/fit/fit.js';
import { chainTwiceArea, withPixelFloor } from '../../src/engine/fit/pixel-floor.js';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { findRegions } from '../../src/engine/regions/regions.js';
import { SegmentPath } from '../../src/engine/segment-path.js';
import type { Chain, RgbaImage } from '../../src/engine/types.js';
import { smallShapeCounts } from '../../src/api/pipeline.js';

/**
 * Labels on a field of 0 (rows 0–5) over 1 (rows 6–7): a 1-px dot of 2 inside the 0 at (1, 1);
 * a 1-px piece of 3 at (5, 5) between the 0 above and the 1 below; a 2-px dot of 4 at (77, 1–2);
 * a 70-px hairline of 5 in row 3 (inside the 0).
 */
const WIDTH = 80;
function labelPicture(): Int32Array {
  const rows = 8;
  const labels = new Int32Array(WIDTH * rows);
  for (let y = 6; y < rows; y++) labels.fill(1, y * WIDTH, (y + 1) * WIDTH);
  labels[1 * WIDTH + 1] = 2;
  labels[5 * WIDTH + 5] = 3;
  labels[1 * WIDTH + 77] = 4;
  labels[2 * WIDTH + 77] = 4;
  labels.fill(5, 3 * WIDTH + 5, 3 * WIDTH + 75);
  return labels;
}

/** A chain's lattice steps moved towards (cx, cy) by `pull` (0–1), its open ends kept: a sub-pixel fit pulled in by coverage. */
function pulledChain(graph: ChainGraph, c: number, cx: number, cy: number, pull: number): Chain {
  const lattice = fitLatticeSteps(new FitScratch(), graph.startX[c]!, graph.startY[c]!, graph.dirs, graph.dirStart[c]!, graph.dirStart[c + 1]!, graph.closed[c] === 1);
  const closed = graph.closed[c] === 1;
  const move = (x: number, y: number, end: boolean) => (end ? { x, y } : { x: x + (cx - x) * pull, y: y + (cy - y) * pull });
  const n = lattice.segments.length;
  const segments = lattice.segments.toSegments().map((s, k) => ({ kind: 'line' as const, ...move(s.x, s.y, !closed && k === n - 1) }));
  const start = move(lattice.startX, lattice.startY, !closed);
  return { startX: start.x, startY: start.y, segments: SegmentPath.of(segments), leftRegion: graph.left[c]!, rightRegion: graph.right[c]!, closed };
}

function setUp(dotAreaPx2 = 1.1) {
  const labels = labelPicture();
  const height = labels.length / WIDTH;
  const regions = findRegions(labels, WIDTH, height);
  const graph = buildChainGraph(regions.regionOf, WIDTH, height);
  const loops = buildRegionLoops(graph, regions.regionOf, WIDTH, height, regions.count);
  const regionAt = (x: number, y: number) => regions.regionOf[y * WIDTH + x]!;
  // Each small region's chains pulled towards its middle: the 1-px dot to 0.3 px² (pull 1 − √0.3),
  // the 1-px piece between two regions by half, the 2-px dot to dotAreaPx2, the hairline to 0.5 px².
  const pulls = new Map([
    [regionAt(1, 1), { cx: 1.5, cy: 1.5, pull: 1 - Math.sqrt(0.3) }],
    [regionAt(5, 5), { cx: 5.5, cy: 5.5, pull: 0.5 }],
    [regionAt(77, 1), { cx: 77.5, cy: 2, pull: 1 - Math.sqrt(dotAreaPx2 / 2) }],
    [regionAt(5, 3), { cx: 40, cy: 3.5, pull: 1 - Math.sqrt(0.5 / 70) }],
  ]);
  const chains: Chain[] = [];
  for (let c = 0; c < graph.count; c++) {
    const p = pulls.get(graph.left[c]!) ?? pulls.get(graph.right[c]!) ?? { cx: 0, cy: 0, pull: 0 };
    chains.push(pulledChain(graph, c, p.cx, p.cy, p.pull));
  }
  const fitted = { chains, primitives: chains.map(() => undefined) };
  return { regions, graph, loops, regionAt, fitted };
}

/** The region's written area (px²) from its loops' chains (each loop closed: the chains meet). */
function writtenArea(chains: readonly Chain[], loops: ReturnType<typeof buildRegionLoops>, r: number): number {
  let twice = 0;
  for (let l = loops.loopStart[r]!; l < loops.loopStart[r + 1]!; l++) {
    for (let u = loops.useFrom[l]!; u < loops.useTo[l]!; u++) twice += (loops.uses[u]! & 1 ? -1 : 1) * chainTwiceArea(chains[loops.uses[u]! >> 1]!);
  }
  return Math.abs(twice) / 2;
}

describe('withPixelFloor', () => {
  it('a 1-px dot fitted to 0.3 px² and a 1-px piece between two regions are written as their pixels', () => {
    const { regions, graph, loops, regionAt, fitted } = setUp();
    expect(writtenArea(fitted.chains, loops, regionAt(1, 1))).toBeCloseTo(0.3, 9);
    expect(writtenArea(fitted.chains, loops, regionAt(5, 5))).toBeLessThan(1);
    const out = withPixelFloor(fitted, { graph, loops, area: regions.area }, new FitScratch());
    expect(writtenArea(out.chains, loops, regionAt(1, 1))).toBeCloseTo(1, 12);
    expect(writtenArea(out.chains, loops, regionAt(5, 5))).toBeCloseTo(1, 12);
    // Written on the lattice: the pixel's corners.
    const dot = out.chains.find((c) => c.leftRegion === regionAt(1, 1) || c.rightRegion === regionAt(1, 1))!;
    expect(dot.segments.toSegments().map((s) => [s.x, s.y]).sort()).toEqual([[1, 1], [1, 2], [2, 1], [2, 2]]);
    // The given set (a memo may hold it) is not changed.
    expect(writtenArea(fitted.chains, loops, regionAt(1, 1))).toBeCloseTo(0.3, 9);
  });

  it('a 2-px dot fitted to 0.6 px² is written as its pixels shrunk about their middle to 1.25 px² (the 0.1-px rounding of a writer leaves it over 1 px²)', () => {
    const { regions, graph, loops, regionAt, fitted } = setUp(0.6);
    const out = withPixelFloor(fitted, { graph, loops, area: regions.area }, new FitScratch());
    expect(writtenArea(out.chains, loops, regionAt(77, 1))).toBeCloseTo(1.25, 9);
    const dot = out.chains.find((c) => c.leftRegion === regionAt(77, 1) || c.rightRegion === regionAt(77, 1))!;
    const xs = dot.segments.toSegments().map((s) => s.x);
    const ys = dot.segments.toSegments().map((s) => s.y);
    expect((Math.min(...xs) + Math.max(...xs)) / 2).toBeCloseTo(77.5, 9);
    expect((Math.min(...ys) + Math.max(...ys)) / 2).toBeCloseTo(2, 9);
  });

  it('a 2-px dot written at 1.1 px², a 70-px hairline written at 0.5 px² and the large regions stay as fitted', () => {
    const { regions, graph, loops, regionAt, fitted } = setUp();
    const out = withPixelFloor(fitted, { graph, loops, area: regions.area }, new FitScratch());
    const floored = new Set([regionAt(1, 1), regionAt(5, 5)]);
    let kept = 0;
    out.chains.forEach((c, k) => {
      if (floored.has(c.leftRegion) || floored.has(c.rightRegion)) expect(c).not.toBe(fitted.chains[k]);
      else {
        expect(c).toBe(fitted.chains[k]);
        kept++;
      }
    });
    expect(kept).toBe(graph.count - 3);
    expect(writtenArea(out.chains, loops, regionAt(77, 1))).toBeCloseTo(1.1, 9);
    expect(writtenArea(out.chains, loops, regionAt(5, 3))).toBeCloseTo(0.5, 6);
  });

  it('nothing under the floor: the same set back', () => {
    const { regions, graph, loops } = setUp();
    const chains: Chain[] = [];
    for (let c = 0; c < graph.count; c++) chains.push(pulledChain(graph, c, 0, 0, 0));
    const fitted = { chains, primitives: chains.map(() => undefined) };
    expect(withPixelFloor(fitted, { graph, loops, area: regions.area }, new FitScratch())).toBe(fitted);
  });
});

describe('chainTwiceArea', () => {
  it('a circle of four cubics encloses π r²; a unit square of lines 1', () => {
    const k = 0.5522847498 * 10;
    const circle = SegmentPath.of([
      { kind: 'cubic', c1x: 10, c1y: k, c2x: k, c2y: 10, x: 0, y: 10 },
      { kind: 'cubic', c1x: -k, c1y: 10, c2x: -10, c2y: k, x: -10, y: 0 },
      { kind: 'cubic', c1x: -10, c1y: -k, c2x: -k, c2y: -10, x: 0, y: -10 },
      { kind: 'cubic', c1x: k, c1y: -10, c2x: 10, c2y: -k, x: 10, y: 0 },
    ]);
    const chain = (startX: number, startY: number, segments: SegmentPath): Chain => ({ startX, startY, segments, leftRegion: 0, rightRegion: -1, closed: true });
    expect(chainTwiceArea(chain(10, 0, circle)) / 2).toBeCloseTo(Math.PI * 100, 0);
    const square = SegmentPath.of([
      { kind: 'line', x: 3, y: 2 },
      { kind: 'line', x: 3, y: 3 },
      { kind: 'line', x: 2, y: 3 },
      { kind: 'line', x: 2, y: 2 },
    ]);
    expect(chainTwiceArea(chain(2, 2, square)) / 2).toBeCloseTo(1, 12);
  });
});

/**
 * A smooth sky with grain (a radial ramp, ±4 levels of deterministic noise): traced as a photo,
 * its bands' 1–3-px pieces were fitted into slivers and specks (85 shapes under 1 px² before).
 */
describe('a photo with grain: its band pieces are each at least a pixel', () => {
  function grainySky(width: number, height: number): RgbaImage {
    const data = new Uint8Array(width * height * 4);
    let state = 3;
    const noise = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return (state / 4294967296 - 0.5) * 8;
    };
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const d = Math.hypot(x - width * 0.3, y - height * 0.4) / width;
        const n = noise();
        const rgb = [30 + 180 * d + n, 60 + 120 * d + n, 140 - 60 * d + n].map((v) => Math.max(0, Math.min(255, Math.round(v))));
        data.set([...rgb, 255], (y * width + x) * 4);
      }
    }
    return { width, height, data };
  }

  it('no shape under 1 px²; the shapes are the regions as before', () => {
    const result = traceImage(grainySky(150, 100), DEFAULT_ENGINE_PARAMS);
    expect(result.stats.profile).toBe('photo');
    expect(result.shapes.length).toBe(144);
    expect(smallShapeCounts(result).shapesUnder1px2).toBe(0);
  });
});
