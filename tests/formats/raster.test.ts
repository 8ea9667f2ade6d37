import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { Chain, RgbaImage, Segment, TraceResult } from '../../src/engine/types.js';
import { flattenSegments } from '../../src/formats/flatten.js';
import { polygonCoverage, rasterizeShapes } from '../../src/formats/raster.js';
import { writeSvg } from '../../src/formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS } from '../../src/formats/types.js';
import { meanAbsDiff, renderSvgWithResvg } from '../helpers/compare.js';
import { disc, drawCells, drawShape, rect } from '../helpers/raster.js';
import { SegmentPath } from '../../src/engine/segment-path.js';

const WHITE = [255, 255, 255] as const;
const SVG_OPTIONS = { ...DEFAULT_OUTPUT_OPTIONS, gapFiller: { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, enabled: false } };

function fixtures(): { name: string; image: RgbaImage }[] {
  const ring = drawShape(64, 56, WHITE, [
    { color: [200, 30, 40], inside: disc(30, 28, 22) },
    { color: [255, 255, 255], inside: disc(30, 28, 9) },
  ]);
  const frame = drawShape(48, 40, [240, 240, 200], [
    { color: [20, 90, 160], inside: rect(6.5, 5.25, 41.5, 34.75) },
    { color: [240, 240, 200], inside: rect(15, 13, 30, 26) },
  ]);
  const circle = drawShape(50, 50, WHITE, [{ color: [30, 60, 200], inside: disc(25.3, 24.7, 17.4) }]);
  const grid: number[][] = [];
  for (let y = 0; y < 8; y++) grid.push(Array.from({ length: 8 }, (_, x) => (x + y) % 2));
  const checker = drawCells(grid, [[0, 0, 0], [250, 200, 0]], 4);
  return [
    { name: 'ring (hole, arcs)', image: ring },
    { name: 'frame (rectangular hole)', image: frame },
    { name: 'circle', image: circle },
    { name: 'pixel-art checkerboard', image: checker },
  ];
}

function render(result: TraceResult, width: number, antiAliased: boolean): RgbaImage {
  const height = Math.round((result.inputHeight * width) / result.inputWidth);
  const data = rasterizeShapes(result, { width, height, scaleX: width / result.width, scaleY: height / result.height, antiAliased });
  return { width, height, data };
}

describe('rasterizeShapes against resvg', () => {
  for (const { name, image } of fixtures()) {
    it(`anti-aliased ${name}: mean |ΔRGB| < 2`, () => {
      const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
      const width = result.inputWidth * 4;
      const ours = render(result, width, true);
      const ref = renderSvgWithResvg(writeSvg(result, SVG_OPTIONS), width);
      expect(ref.height).toBe(ours.height);
      const diff = meanAbsDiff(ours, ref);
      expect(diff).toBeLessThan(2);
    });

    it(`aliased ${name}: only opaque or transparent pixels, close to resvg crispEdges`, () => {
      const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
      const width = result.inputWidth * 4;
      const ours = render(result, width, false);
      for (let i = 3; i < ours.data.length; i += 4) expect(ours.data[i] === 0 || ours.data[i] === 255).toBe(true);
      const svg = writeSvg(result, SVG_OPTIONS);
      const r = new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: 'white', shapeRendering: 1 }).render();
      const ref: RgbaImage = { width: r.width, height: r.height, data: new Uint8Array(r.pixels) };
      let differing = 0;
      const n = ours.width * ours.height;
      for (let p = 0; p < n; p++) {
        const a = ours.data[p * 4 + 3]! / 255;
        let d = 0;
        for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(ours.data[p * 4 + c]! * a + 255 * (1 - a) - ref.data[p * 4 + c]!));
        if (d > 32) differing++;
      }
      expect(differing / n).toBeLessThan(0.03);
    });
  }

  it('is deterministic: two runs give identical bytes', () => {
    const { image } = fixtures()[0]!;
    const result = traceImage(image, DEFAULT_ENGINE_PARAMS);
    const options = { width: 256, height: 224, scaleX: 4, scaleY: 4, antiAliased: true };
    const a = rasterizeShapes(result, options);
    const b = rasterizeShapes(traceImage(image, DEFAULT_ENGINE_PARAMS), options);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const c = rasterizeShapes(result, { ...options, antiAliased: false });
    const d = rasterizeShapes(result, { ...options, antiAliased: false });
    expect(Buffer.from(c).equals(Buffer.from(d))).toBe(true);
  });
});

const square = new Float64Array([2.5, 2.5, 7.5, 2.5, 7.5, 7.5, 2.5, 7.5]);

describe('exact coverage', () => {
  it('a 5×5 square at (2.5, 2.5) covers edge pixels by half and corners by a quarter', () => {
    for (const loop of [square, reversePoints(square)]) {
      const cov = polygonCoverage([loop], 10, 10, true);
      const at = (x: number, y: number) => cov[y * 10 + x]!;
      expect(at(2, 2)).toBeCloseTo(0.25, 12);
      expect(at(7, 2)).toBeCloseTo(0.25, 12);
      expect(at(2, 7)).toBeCloseTo(0.25, 12);
      expect(at(7, 7)).toBeCloseTo(0.25, 12);
      for (let k = 3; k <= 6; k++) {
        expect(at(k, 2)).toBeCloseTo(0.5, 12);
        expect(at(k, 7)).toBeCloseTo(0.5, 12);
        expect(at(2, k)).toBeCloseTo(0.5, 12);
        expect(at(7, k)).toBeCloseTo(0.5, 12);
        for (let j = 3; j <= 6; j++) expect(at(k, j)).toBeCloseTo(1, 12);
      }
      expect(at(1, 5)).toBe(0);
      expect(at(8, 5)).toBe(0);
      expect(at(5, 0)).toBe(0);
      let total = 0;
      for (const v of cov) total += v;
      expect(total).toBeCloseTo(25, 10);
    }
  });

  it('a diagonal half-plane gives triangle areas, also across the image borders', () => {
    // Triangle (0,0)-(10,0)-(0,10) shifted left past the border: x + y < 10 minus x < 0 part.
    const tri = new Float64Array([-3, 0, 10, 0, -3, 13]);
    const cov = polygonCoverage([tri], 10, 10, true);
    // Pixel (2,5) has corners with x+y in [7, 9]: fully inside. Pixel (5,4): x+y from 9 to 11 → half.
    expect(cov[5 * 10 + 2]).toBeCloseTo(1, 12);
    expect(cov[4 * 10 + 5]).toBeCloseTo(0.5, 12);
    expect(cov[4 * 10 + 6]).toBeCloseTo(0, 12);
    // Pixel (6,3): x+y from 9 to 11 → half; pixel (0,9) from 9 to 11 → half.
    expect(cov[3 * 10 + 6]).toBeCloseTo(0.5, 12);
    expect(cov[9 * 10 + 0]).toBeCloseTo(0.5, 12);
    expect(cov[0]).toBeCloseTo(1, 12);
  });

  it('nonzero: a hole running the other way is empty, two overlapping loops the same way stay 1', () => {
    const outer = new Float64Array([0, 0, 10, 0, 10, 10, 0, 10]);
    const hole = reversePoints(new Float64Array([3, 3, 7, 3, 7, 7, 3, 7]));
    const cov = polygonCoverage([outer, hole], 10, 10, true);
    expect(cov[5 * 10 + 5]).toBe(0);
    expect(cov[1 * 10 + 1]).toBeCloseTo(1, 12);
    const twice = polygonCoverage([outer, new Float64Array([3, 3, 7, 3, 7, 7, 3, 7])], 10, 10, true);
    expect(twice[5 * 10 + 5]).toBe(1);
  });

  it('aliased mode takes a pixel when its centre is inside', () => {
    const cov = polygonCoverage([new Float64Array([2.4, 2.6, 7.6, 2.6, 7.6, 7.4, 2.4, 7.4])], 10, 10, false);
    for (let y = 0; y < 10; y++) {
      for (let x = 0; x < 10; x++) {
        const inside = x + 0.5 > 2.4 && x + 0.5 < 7.6 && y + 0.5 > 2.6 && y + 0.5 < 7.4;
        expect(cov[y * 10 + x]).toBe(inside ? 1 : 0);
      }
    }
  });
});

describe('rasterizeShapes on a hand-made result', () => {
  // A 10×10 image, one black square 5×5 at (2.5,2.5) as two chains; the second used reversed.
  const chains: Chain[] = [
    { startX: 2.5, startY: 2.5, segments: SegmentPath.of([{ kind: 'line', x: 7.5, y: 2.5 }, { kind: 'line', x: 7.5, y: 7.5 }]), leftRegion: 0, rightRegion: -1, closed: false },
    { startX: 2.5, startY: 2.5, segments: SegmentPath.of([{ kind: 'line', x: 2.5, y: 7.5 }, { kind: 'line', x: 7.5, y: 7.5 }]), leftRegion: -1, rightRegion: 0, closed: false },
  ];
  const result: TraceResult = {
    width: 10,
    height: 10,
    inputWidth: 10,
    inputHeight: 10,
    chains,
    shapes: [{ region: 0, color: { r: 0, g: 0, b: 0, a: 255 }, outer: [{ chain: 0, reversed: false }, { chain: 1, reversed: true }], holes: [], areaPx: 25, parent: -1 }],
    stats: { colors: 1, regions: 1, chains: 2, profile: 'flat', stageMs: {} },
  };

  it('writes straight alpha from coverage and leaves the rest transparent', () => {
    const rgba = rasterizeShapes(result, { width: 10, height: 10, scaleX: 1, scaleY: 1, antiAliased: true });
    const alpha = (x: number, y: number) => rgba[(y * 10 + x) * 4 + 3];
    expect(alpha(2, 2)).toBe(64);
    expect(alpha(4, 2)).toBe(128);
    expect(alpha(5, 5)).toBe(255);
    expect(alpha(0, 0)).toBe(0);
    expect(rgba[(2 * 10 + 4) * 4]).toBe(0);
  });

  it('composites source over a background', () => {
    const rgba = rasterizeShapes(result, { width: 20, height: 20, scaleX: 2, scaleY: 2, antiAliased: true, background: { r: 255, g: 255, b: 255, a: 255 } });
    expect(Array.from(rgba.subarray(0, 4))).toEqual([255, 255, 255, 255]);
    // Scaled ×2 the square spans (5,5)-(15,15): pixel (10,10) black, the rest white.
    expect(Array.from(rgba.subarray((10 * 20 + 10) * 4, (10 * 20 + 10) * 4 + 4))).toEqual([0, 0, 0, 255]);
    // A half-transparent colour over white.
    const translucent: TraceResult = { ...result, shapes: [{ ...result.shapes[0]!, color: { r: 0, g: 0, b: 255, a: 128 } }] };
    const t = rasterizeShapes(translucent, { width: 10, height: 10, scaleX: 1, scaleY: 1, antiAliased: true, background: { r: 255, g: 0, b: 0, a: 255 } });
    expect(Array.from(t.subarray((5 * 10 + 5) * 4, (5 * 10 + 5) * 4 + 4))).toEqual([127, 0, 128, 255]);
  });
});

describe('flattenSegments', () => {
  it('keeps lines and ends curves exactly on their end points', () => {
    const segs: Segment[] = [
      { kind: 'line', x: 10, y: 0 },
      { kind: 'quad', cx: 20, cy: 0, x: 20, y: 10 },
      { kind: 'cubic', c1x: 20, c1y: 20, c2x: 0, c2y: 20, x: 0, y: 10 },
    ];
    const p = flattenSegments(0, 0, segs, 0.05);
    expect(Array.from(p.subarray(0, 4))).toEqual([0, 0, 10, 0]);
    expect(Array.from(p.subarray(p.length - 2))).toEqual([0, 10]);
    // Every polyline vertex lies on the curves (distance to a dense sampling is tiny).
    expect(p.length).toBeGreaterThan(12);
  });

  it('stays within tolerance of a cubic', () => {
    const s = { kind: 'cubic' as const, c1x: 0, c1y: 40, c2x: 60, c2y: -30, x: 50, y: 30 };
    const tol = 0.1;
    const p = flattenSegments(0, 0, [s], tol);
    for (let k = 0; k <= 2000; k++) {
      const t = k / 2000;
      const u = 1 - t;
      const x = 3 * u * u * t * s.c1x + 3 * u * t * t * s.c2x + t * t * t * s.x;
      const y = 3 * u * u * t * s.c1y + 3 * u * t * t * s.c2y + t * t * t * s.y;
      expect(distanceToPolyline(p, x, y)).toBeLessThanOrEqual(tol + 1e-9);
    }
  });

  it('flattens a circular arc onto the circle, within tolerance', () => {
    // Full circle of radius 20 round (30, 30) as two half arcs.
    const segs: Segment[] = [
      { kind: 'arc', rx: 20, ry: 20, rotationDeg: 0, largeArc: false, sweep: true, x: 50, y: 30 },
      { kind: 'arc', rx: 20, ry: 20, rotationDeg: 0, largeArc: false, sweep: true, x: 10, y: 30 },
    ];
    const tol = 0.05;
    const p = flattenSegments(10, 30, segs, tol);
    for (let i = 0; i < p.length; i += 2) expect(Math.hypot(p[i]! - 30, p[i + 1]! - 30)).toBeCloseTo(20, 9);
    // Chord midpoints are at most tol inside the circle.
    for (let i = 0; i + 3 < p.length; i += 2) {
      const r = Math.hypot((p[i]! + p[i + 2]!) / 2 - 30, (p[i + 1]! + p[i + 3]!) / 2 - 30);
      expect(20 - r).toBeLessThanOrEqual(tol + 1e-9);
    }
    // sweep = 1 from (10,30) to (50,30) goes through the top (y down, positive angle direction).
    const firstHalf = p.subarray(0, p.length / 2);
    let minY = Infinity;
    for (let i = 1; i < firstHalf.length; i += 2) minY = Math.min(minY, firstHalf[i]!);
    expect(minY).toBeCloseTo(10, 1);
  });

  it('scales radii that are too small up to pass through both ends (SVG F.6.6)', () => {
    const p = flattenSegments(0, 0, [{ kind: 'arc', rx: 1, ry: 1, rotationDeg: 0, largeArc: false, sweep: false, x: 10, y: 0 }], 0.01);
    for (let i = 0; i < p.length; i += 2) expect(Math.hypot(p[i]! - 5, p[i + 1]!)).toBeCloseTo(5, 9);
    let maxY = -Infinity;
    let minY = Infinity;
    for (let i = 1; i < p.length; i += 2) {
      maxY = Math.max(maxY, p[i]!);
      minY = Math.min(minY, p[i]!);
    }
    // sweep = 1 is the positive-angle direction (clockwise on screen, y down) and would pass
    // through y = -5; sweep = 0 passes below, through y = +5.
    expect(maxY).toBeGreaterThanOrEqual(5 - 0.01);
    expect(maxY).toBeLessThanOrEqual(5 + 1e-9);
    expect(minY).toBeCloseTo(0, 9);
  });

  it('rotated ellipse arc ends on its end point and zero radius is a line', () => {
    const p = flattenSegments(0, 0, [{ kind: 'arc', rx: 8, ry: 3, rotationDeg: 30, largeArc: true, sweep: true, x: 6, y: 2 }], 0.05);
    expect(Array.from(p.subarray(p.length - 2))).toEqual([6, 2]);
    expect(p.length).toBeGreaterThan(10);
    const q = flattenSegments(0, 0, [{ kind: 'arc', rx: 0, ry: 3, rotationDeg: 0, largeArc: false, sweep: true, x: 6, y: 2 }], 0.05);
    expect(Array.from(q)).toEqual([0, 0, 6, 2]);
  });
});

function reversePoints(p: Float64Array): Float64Array {
  const out = new Float64Array(p.length);
  const n = p.length >> 1;
  for (let i = 0; i < n; i++) {
    out[2 * i] = p[2 * (n - 1 - i)]!;
    out[2 * i + 1] = p[2 * (n - 1 - i) + 1]!;
  }
  return out;
}

function distanceToPolyline(p: Float64Array, x: number, y: number): number {
  let best = Infinity;
  for (let i = 0; i + 3 < p.length; i += 2) {
    const ax = p[i]!, ay = p[i + 1]!, bx = p[i + 2]!, by = p[i + 3]!;
    const dx = bx - ax, dy = by - ay;
    const l2 = dx * dx + dy * dy;
    const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / l2)) : 0;
    best = Math.min(best, Math.hypot(ax + t * dx - x, ay + t * dy - y));
  }
  return best;
}
