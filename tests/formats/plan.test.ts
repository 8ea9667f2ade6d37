/**
 * The output plan: page geometry from output.size, the curve fallback chain, draw styles,
 * group_by, gap-filler placement and primitives — the rules every writer shares.
 */
import { describe, expect, it } from 'vitest';
import { planVectorize } from '../../src/api/pipeline.js';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { Segment, TraceResult } from '../../src/engine/types.js';
import { ScaleMap, UNMAPPED, appendWalked, restrictSegments, reverseSegments, transformSegment, type AllowedCurves } from '../../src/formats/curves.js';
import { flattenSegments } from '../../src/formats/flatten.js';
import { computePage, pointsPerUnit } from '../../src/formats/page.js';
import { buildPlan, chainUseCode, chainUseOfCode, detectPrimitive, forEachDrawable, loopPath, type FillItem, type PlanItem, type StrokeItem } from '../../src/formats/plan.js';
import { writeSvg } from '../../src/formats/svg.js';
import { DEFAULT_OUTPUT_OPTIONS, outputOptions, type SizeOptions } from '../../src/formats/types.js';
import { disc, drawShape, rect, type Rgb } from '../helpers/raster.js';
import { SegmentBuilder, SegmentPath } from '../../src/engine/segment-path.js';

const WHITE: Rgb = [255, 255, 255];
const RED: Rgb = [220, 30, 40];
const BLUE: Rgb = [30, 60, 200];
const GREEN: Rgb = [20, 160, 60];

/** White page; a red square holding a blue disc; a green disc beside it. */
function nested(stacking: 'cutouts' | 'stacked' = 'cutouts'): TraceResult {
  const image = drawShape(120, 80, WHITE, [
    { color: RED, inside: rect(10, 10, 70, 70) },
    { color: BLUE, inside: disc(40, 40, 18) },
    { color: GREEN, inside: disc(95, 40, 15) },
  ]);
  return traceImage(image, { ...DEFAULT_ENGINE_PARAMS, shapeStacking: stacking });
}

const size = (over: Partial<SizeOptions>): SizeOptions => ({ ...DEFAULT_OUTPUT_OPTIONS.size, ...over });
const input = { width: 100, height: 50, inputWidth: 200, inputHeight: 100 };

function drawables(items: readonly PlanItem[]): (FillItem | StrokeItem)[] {
  const out: (FillItem | StrokeItem)[] = [];
  forEachDrawable(items, (item) => out.push(item));
  return out;
}

/** Largest distance from points of `b` (densely flattened) to the polyline of `a`. */
function maxDeviation(x0: number, y0: number, original: readonly Segment[], replaced: readonly Segment[]): number {
  const dense = flattenSegments(x0, y0, original, 0.001);
  const poly = flattenSegments(x0, y0, replaced, 0.001);
  let worst = 0;
  for (let i = 0; i < dense.length; i += 2) {
    let best = Infinity;
    for (let j = 0; j + 3 < poly.length; j += 2) {
      best = Math.min(best, distToSegment(dense[i]!, dense[i + 1]!, poly[j]!, poly[j + 1]!, poly[j + 2]!, poly[j + 3]!));
    }
    worst = Math.max(worst, best);
  }
  return worst;
}

function distToSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

describe('page geometry (output.size)', () => {
  it('natural size: input pixels for SVG, points at 72 dpi for PDF, 4× for PNG', () => {
    const svg = computePage(input, size({}), 'svg');
    expect([svg.width, svg.height, svg.explicitSize]).toEqual([200, 100, false]);
    expect(svg.scaleX).toBe(2);
    const pdf = computePage({ ...input, inputDpi: 144 }, size({}), 'pdf');
    expect([pdf.width, pdf.height, pdf.unit]).toEqual([100, 50, 'pt']);
    const png = computePage(input, size({}), 'png');
    expect([png.width, png.height]).toEqual([800, 400]);
  });

  it('scale wins over width/height; one side keeps the aspect ratio', () => {
    expect(computePage(input, size({ scale: 0.5, width: 999 }), 'svg').width).toBe(100);
    const w = computePage(input, size({ width: 50, unit: 'mm' }), 'pdf');
    expect([w.width, w.height, w.unit]).toEqual([50, 25, 'mm']);
    expect(w.width * pointsPerUnit(w)).toBeCloseTo((50 / 25.4) * 72, 9);
    const h = computePage(input, size({ height: 10, unit: 'in' }), 'svg');
    expect([h.width, h.height]).toEqual([20, 10]);
  });

  it('a box: inset fits and aligns, overflow covers, stretch fills', () => {
    const inset = computePage(input, size({ width: 100, height: 100, alignX: 0, alignY: 1 }), 'svg');
    expect([inset.width, inset.height, inset.scaleX, inset.scaleY, inset.offsetX, inset.offsetY]).toEqual([100, 100, 1, 1, 0, 50]);
    const over = computePage(input, size({ width: 100, height: 100, aspectRatio: 'preserve_overflow' }), 'svg');
    expect([over.scaleX, over.offsetX, over.offsetY]).toEqual([2, -50, 0]);
    const stretch = computePage(input, size({ width: 100, height: 100, aspectRatio: 'stretch' }), 'svg');
    expect([stretch.scaleX, stretch.scaleY, stretch.offsetX, stretch.offsetY]).toEqual([1, 2, 0, 0]);
  });

  it('writes width/height with the unit and a viewBox of the page in input pixels', () => {
    const result = nested();
    const svg = writeSvg(result, outputOptions({ size: size({ width: 240, height: 100, alignX: 0 }) }));
    expect(svg).toContain('width="240" height="100" viewBox="0 0 192 80"');
    const mm = writeSvg(result, outputOptions({ size: size({ width: 60, unit: 'mm' }) }));
    expect(mm).toContain('width="60mm" height="40mm" viewBox="0 0 120 80"');
    const stretched = writeSvg(result, outputOptions({ size: size({ width: 50, height: 50, aspectRatio: 'stretch' }) }));
    expect(stretched).toContain('preserveAspectRatio="none"');
  });
});

describe('curve fallback chain (reference §3.8)', () => {
  const quad: Segment = { kind: 'quad', cx: 10, cy: 20, x: 20, y: 0 };
  const cubic: Segment = { kind: 'cubic', c1x: 0, c1y: 15, c2x: 25, c2y: 15, x: 20, y: 0 };
  const arc: Segment = { kind: 'arc', rx: 12, ry: 7, rotationDeg: 20, largeArc: true, sweep: true, x: 20, y: 0 };
  const only = (over: Partial<AllowedCurves>): AllowedCurves => ({ quadratic: false, cubic: false, circularArc: false, ellipticalArc: false, ...over });

  it('quadratic → exact cubic when cubics are allowed', () => {
    const out = restrictSegments(0, 0, [quad], only({ cubic: true }), 0.1);
    expect(out.map((s) => s.kind)).toEqual(['cubic']);
    expect(maxDeviation(0, 0, [quad], out)).toBeLessThan(1e-6);
  });

  it('quadratic → circular arcs within the tolerance when only arcs are allowed (DXF lines_and_arcs)', () => {
    const out = restrictSegments(0, 0, [quad], only({ circularArc: true, ellipticalArc: true }), 0.05);
    expect(out.every((s) => s.kind === 'arc' || s.kind === 'line')).toBe(true);
    expect(out.some((s) => s.kind === 'arc')).toBe(true);
    expect(maxDeviation(0, 0, [quad], out)).toBeLessThan(0.05 + 1e-3);
  });

  it('cubic and arcs → lines within output.curves.line_fit_tolerance', () => {
    for (const tol of [0.3, 0.03]) {
      for (const seg of [cubic, arc, quad]) {
        const out = restrictSegments(0, 0, [seg], only({}), tol);
        expect(out.every((s) => s.kind === 'line')).toBe(true);
        expect(maxDeviation(0, 0, [seg], out)).toBeLessThan(tol + 1e-3);
        expect(out[out.length - 1]).toMatchObject({ x: 20, y: 0 });
      }
    }
    expect(restrictSegments(0, 0, [cubic], only({}), 0.01).length).toBeGreaterThan(restrictSegments(0, 0, [cubic], only({}), 0.3).length);
  });

  it('elliptical arc → cubics (≤ 90° each) when arcs are not allowed', () => {
    const out = restrictSegments(0, 0, [arc], only({ cubic: true }), 0.1);
    expect(out.every((s) => s.kind === 'cubic')).toBe(true);
    expect(maxDeviation(0, 0, [arc], out)).toBeLessThan(0.02);
  });

  it('PDF, EPS and Adobe-mode SVG carry lines and cubics only; DXF lines_only carries lines', () => {
    const result = nested();
    for (const options of [
      outputOptions({ fileFormat: 'pdf' }),
      outputOptions({ fileFormat: 'eps' }),
      outputOptions({ svg: { ...DEFAULT_OUTPUT_OPTIONS.svg, adobeCompatibilityMode: true } }),
    ]) {
      const kinds = new Set(buildPlan(result, options).chains.flatMap((c) => c.segments.toSegments().map((s) => s.kind)));
      expect([...kinds].every((k) => k === 'line' || k === 'cubic')).toBe(true);
    }
    const dxf = buildPlan(result, outputOptions({ fileFormat: 'dxf', dxf: { compatibility: 'lines_only' } }));
    expect(new Set(dxf.chains.flatMap((c) => c.segments.toSegments().map((s) => s.kind)))).toEqual(new Set(['line']));
    const adobe = writeSvg(result, outputOptions({ svg: { ...DEFAULT_OUTPUT_OPTIONS.svg, adobeCompatibilityMode: true } }));
    expect(adobe).not.toMatch(/ d="[^"]*[aAqQtT]/);
    expect(adobe).not.toContain('<circle');
  });
});

describe('chains walked onto the page (appendWalked)', () => {
  const chain = SegmentPath.of([
    { kind: 'line', x: 10, y: -0 },
    { kind: 'quad', cx: 16, cy: 0.1, x: 16, y: 6 },
    { kind: 'cubic', c1x: 16.3, c1y: 9, c2x: 13, c2y: 12.7, x: 10, y: 12 },
    { kind: 'arc', rx: 5, ry: 4, rotationDeg: 30, largeArc: false, sweep: true, x: 0.1, y: 12 },
    { kind: 'arc', rx: 5, ry: 5, rotationDeg: 0, largeArc: true, sweep: false, x: -0.3, y: 1 / 3 },
  ]);
  const builder = new SegmentBuilder();

  it('gives the numbers of reverseSegments, then transformSegment, bit for bit', () => {
    for (const reversed of [false, true]) {
      const objects = reversed ? reverseSegments(-0, 0.7, chain).segments : chain.toSegments();
      appendWalked(builder, -0, 0.7, chain, reversed, UNMAPPED);
      expect(builder.take(0).toSegments()).toEqual(objects);
      for (const [sx, sy, ox, oy] of [
        [0.75, 0.75, 3.1, -2],
        [1.3, -0.6, 0, 100.25],
      ] as const) {
        appendWalked(builder, -0, 0.7, chain, reversed, new ScaleMap(sx, sy, ox, oy));
        expect(builder.take(0).toSegments()).toEqual(objects.map((s) => transformSegment(s, sx, sy, ox, oy)));
      }
    }
  });
});

describe('draw styles, groups, gap filler', () => {
  it('fill_shapes under cutouts: the gap filler comes first, one stroke per border', () => {
    const plan = buildPlan(nested(), outputOptions());
    const items = drawables(plan.items);
    const firstFill = items.findIndex((i) => i.kind === 'fill');
    expect(items.slice(0, firstFill).every((i) => i.kind === 'stroke' && i.role === 'gap_filler')).toBe(true);
    const fillerChains = items.filter((i): i is StrokeItem => i.kind === 'stroke').flatMap((i) => i.paths.map((p) => p.uses[0]!.chain));
    expect(new Set(fillerChains).size).toBe(fillerChains.length);
  });

  it('a gap filler read through `paths` (PDF, EPS, DXF, PNG) has the borders the SVG writer reads from singleUses, one chain use each', () => {
    const result = nested();
    const plan = buildPlan(result, outputOptions());
    const fillers = drawables(plan.items).filter((i): i is StrokeItem => i.kind === 'stroke' && i.role === 'gap_filler');
    expect(fillers.length).toBeGreaterThan(0);
    for (const filler of fillers) {
      const { useCodes, closed, from, to } = filler.singleUses!;
      const codes = [...useCodes.subarray(from, to)];
      const uses = codes.map(chainUseOfCode);
      expect(uses.map(chainUseCode)).toEqual(codes);
      expect(filler.paths).toEqual(uses.map((use, k) => ({ uses: [use], closed: closed[from + k] === 1 })));
      expect(filler.paths.map((p) => p.closed)).toEqual(uses.map((use) => result.chains[use.chain]!.closed));
      // Built once: every reader gets the same list.
      expect(filler.paths).toBe(filler.paths);
    }
  });

  it('stacked: no filler between a shape and the shape it lies on', () => {
    const result = nested('stacked');
    const plan = buildPlan(result, outputOptions());
    const regionToShape = new Map(result.shapes.map((s, i) => [s.region, i]));
    for (const item of drawables(plan.items)) {
      if (item.kind !== 'stroke') continue;
      for (const p of item.paths) {
        const chain = result.chains[p.uses[0]!.chain]!;
        const a = result.shapes[regionToShape.get(chain.leftRegion)!]!;
        const b = result.shapes[regionToShape.get(chain.rightRegion)!]!;
        expect(a.parent === b.region || b.parent === a.region).toBe(false);
      }
    }
  });

  it('engine parents: the blue disc lies in the red square, which lies in the white page', () => {
    const result = nested();
    const byColor = (rgb: Rgb) => result.shapes.find((s) => Math.abs(s.color.r - rgb[0]) + Math.abs(s.color.b - rgb[2]) < 30)!;
    expect(byColor(BLUE).parent).toBe(byColor(RED).region);
    expect(byColor(RED).parent).toBe(byColor(WHITE).region);
    expect(byColor(GREEN).parent).toBe(byColor(WHITE).region);
    expect(byColor(WHITE).parent).toBe(-1);
  });

  it('group_by color / parent / layer', () => {
    const result = nested('stacked');
    const color = buildPlan(result, outputOptions({ groupBy: 'color' }));
    const colorGroups = color.items.filter((i) => i.kind === 'group');
    // One group per colour per layer: white (0), red and green (1), blue (2).
    expect(colorGroups.map((g) => g.kind === 'group' && g.id)).toEqual(['layer-0-color-ffffff', expect.stringMatching(/^layer-1-color-/), expect.stringMatching(/^layer-1-color-/), expect.stringMatching(/^layer-2-color-/)]);
    const layer = buildPlan(result, outputOptions({ groupBy: 'layer' }));
    expect(layer.items.filter((i) => i.kind === 'group').map((g) => g.kind === 'group' && g.id)).toEqual(['layer-0', 'layer-1', 'layer-2']);
    const parent = buildPlan(result, outputOptions({ groupBy: 'parent' }));
    const svg = writeSvg(result, outputOptions({ groupBy: 'parent' }));
    // white page group → red square group → blue disc.
    expect(svg.match(/<g id="shape-\d+">/g)).toHaveLength(2);
    expect(parent.items.some((i) => i.kind === 'group')).toBe(true);
    const cutouts = buildPlan(nested(), outputOptions({ groupBy: 'layer' }));
    expect(cutouts.items.filter((i) => i.kind === 'group')).toHaveLength(1);
  });

  it('stroke_edges strokes every border once; stroke_shapes strokes every loop', () => {
    const result = nested();
    const edges = drawables(buildPlan(result, outputOptions({ drawStyle: 'stroke_edges' })).items);
    expect(edges.every((i) => i.kind === 'stroke')).toBe(true);
    const chainsUsed = edges.flatMap((i) => (i as StrokeItem).paths.flatMap((p) => p.uses.map((u) => u.chain)));
    expect(new Set(chainsUsed).size).toBe(chainsUsed.length);
    expect(new Set(chainsUsed).size).toBe(result.chains.length);
    const shapes = drawables(buildPlan(result, outputOptions({ drawStyle: 'stroke_shapes' })).items);
    const loops = shapes.flatMap((i) => (i as StrokeItem).paths);
    expect(loops).toHaveLength(result.shapes.reduce((n, s) => n + 1 + s.holes.length, 0));
    const override = writeSvg(result, outputOptions({ drawStyle: 'stroke_edges', strokes: { strokeWidthPx: 1.5, nonScalingStroke: false, overrideColor: { r: 255, g: 0, b: 255, a: 255 } } }));
    expect(override).toContain('stroke="#f0f" stroke-width="1.5"');
    expect(override).not.toContain('vector-effect');
    expect(override).not.toMatch(/fill="#/);
  });

  it('gap filler clip: SVG clip paths reference the shapes the filler serves', () => {
    const svg = writeSvg(nested(), outputOptions({ gapFiller: { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, clip: true } }));
    expect(svg).toMatch(/<clipPath id="c0"><use xlink:href="#s\d+"\/>/);
    const ids = [...svg.matchAll(/xlink:href="#(s\d+)"/g)].map((m) => m[1]);
    for (const id of ids) expect(svg).toContain(`id="${id}"`);
  });

  it('gap filler clip in SVG Tiny 1.2 (no clipPath there): the filler is written unclipped, as with clip=false (issue 41)', () => {
    const tiny = { ...DEFAULT_OUTPUT_OPTIONS.svg, version: 'svg_tiny_1_2' as const };
    const clipped = writeSvg(nested(), outputOptions({ svg: tiny, gapFiller: { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, clip: true } }));
    const unclipped = writeSvg(nested(), outputOptions({ svg: tiny, gapFiller: { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, clip: false } }));
    expect(clipped).toContain('baseProfile="tiny"');
    expect(clipped).not.toContain('clipPath');
    expect(clipped).not.toContain('clip-path');
    expect(clipped).toBe(unclipped);
    // The plan the other formats get keeps the clip (PDF and EPS clip, SVG 1.1 has clip paths).
    expect(writeSvg(nested(), outputOptions({ gapFiller: { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, clip: true } }))).toContain('<clipPath');
  });
});

describe('primitives (output.parameterized_shapes.flatten)', () => {
  it('a traced disc is written as <circle> unless flattened', () => {
    const result = traceImage(drawShape(80, 80, WHITE, [{ color: RED, inside: disc(40.3, 38.7, 25.2) }]), DEFAULT_ENGINE_PARAMS);
    const svg = writeSvg(result);
    const m = /<circle[^>]* cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"/.exec(svg);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBeCloseTo(40.3, 0);
    expect(Math.abs(Number(m![3]) - 25.2) / 25.2).toBeLessThan(0.01);
    expect(writeSvg(result, outputOptions({ flattenPrimitives: true }))).not.toContain('<circle');
  });

  it("the engine's rounded rectangle is a <rect rx> that renders like its path", () => {
    const rounded = (x: number, y: number) => {
      const [x0, y0, x1, y1, r] = [12, 10, 88, 60, 12];
      const cx = Math.min(Math.max(x, x0 + r), x1 - r);
      const cy = Math.min(Math.max(y, y0 + r), y1 - r);
      return x >= x0 && x <= x1 && y >= y0 && y <= y1 && (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
    };
    const result = traceImage(drawShape(100, 70, WHITE, [{ color: GREEN, inside: rounded }]), DEFAULT_ENGINE_PARAMS);
    const svg = writeSvg(result);
    const m = /<rect fill="#14a03c" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" rx="([\d.]+)"\/>/.exec(svg);
    expect(m).not.toBeNull();
    expect(Number(m![3])).toBeCloseTo(76, 0);
    expect(Number(m![5])).toBeCloseTo(12, 0);
    expect(writeSvg(result, outputOptions({ flattenPrimitives: true }))).not.toContain('<rect');
  });

  it("a photo's block of whole pixels is written as a path, not as a <rect> (the same block in flat art is one)", () => {
    const result = traceImage(drawShape(60, 60, WHITE, [{ color: BLUE, inside: rect(10, 12, 40, 50) }]), DEFAULT_ENGINE_PARAMS);
    // The same trace as a photo's: the profile is the only difference the writer sees.
    const asPhoto: TraceResult = { ...result, stats: { ...result.stats, profile: 'photo' } };
    const svg = writeSvg(asPhoto);
    expect(svg).not.toContain('<rect');
    expect(svg).toMatch(/<path fill="#1e3cc8" d="M10 12/i);
    expect(writeSvg(result)).toContain('<rect fill="#1e3cc8"');
    // A photo's round blob keeps the circle the engine fitted (ellipses and circles stay).
    const round = traceImage(drawShape(80, 80, WHITE, [{ color: RED, inside: disc(40.3, 38.7, 25.2) }]), DEFAULT_ENGINE_PARAMS);
    expect(writeSvg({ ...round, stats: { ...round.stats, profile: 'photo' } })).toContain('<circle');
  });

  it('a square region is a <rect>', () => {
    const result = traceImage(drawShape(60, 60, WHITE, [{ color: BLUE, inside: rect(10, 12, 40, 50) }]), DEFAULT_ENGINE_PARAMS);
    const svg = writeSvg(result);
    expect(svg).toMatch(/<rect fill="#1e3cc8" x="10" y="12" width="30" height="38"\/>/);
    const plan = buildPlan(result, outputOptions());
    const blue = drawables(plan.items).find((i): i is FillItem => i.kind === 'fill' && i.color.b > 150)!;
    expect(loopPath(plan.chains, blue.loops[0]!).segments.length).toBeGreaterThanOrEqual(4);
  });
});

describe('a primitive turned by a hair is written as drawn', () => {
  /** A traced rounded rectangle (76 × 50 px, corners 12 px, centre 50, 35) refitted at `rotationDeg`, its sides swapped for a quarter turn. */
  function turnedRectangle(rotationDeg: number, quarter: boolean): TraceResult {
    const rounded = (x: number, y: number): boolean => {
      const [x0, y0, x1, y1, r] = [12, 10, 88, 60, 12];
      const cx = Math.min(Math.max(x, x0 + r), x1 - r);
      const cy = Math.min(Math.max(y, y0 + r), y1 - r);
      return x >= x0 && x <= x1 && y >= y0 && y <= y1 && (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
    };
    const result = traceImage(drawShape(100, 70, WHITE, [{ color: GREEN, inside: rounded }]), DEFAULT_ENGINE_PARAMS);
    const shapes = result.shapes.map((shape) => {
      const p = shape.primitive;
      if (p?.family !== 'rectangle') return shape;
      return { ...shape, primitive: { ...p, cx: 50, cy: 35, rotationDeg, width: quarter ? 50 : 76, height: quarter ? 76 : 50, cornerRadius: 12 } };
    });
    expect(shapes.some((s) => s.primitive?.family === 'rectangle')).toBe(true);
    return { ...result, shapes };
  }
  const AXIS_ALIGNED = '<rect fill="#14a03c" x="12" y="10" width="76" height="50" rx="12"/>';

  it('within half a written coordinate step of a quarter turn: no transform, sides swapped', () => {
    // A picture under 200 px is written to two decimals; half the diagonal is 45.5 px: turned by
    // 0.005° the corners move 0.004 px, under half of 0.01 px.
    expect(writeSvg(turnedRectangle(89.995, true))).toContain(AXIS_ALIGNED);
    expect(writeSvg(turnedRectangle(0.003, false))).toContain(AXIS_ALIGNED);
    expect(writeSvg(turnedRectangle(0, false))).toContain(AXIS_ALIGNED);
  });

  it('a turn the written coordinates can show is kept', () => {
    expect(writeSvg(turnedRectangle(30, false))).toMatch(/<rect fill="#14a03c" [^>]*rx="12" transform="rotate\(30 50 35\)"\/>/);
    // 0.02° moves the corners by 0.016 px: kept, with the sides as fitted.
    expect(writeSvg(turnedRectangle(89.98, true))).toMatch(/width="50" height="76" rx="12" transform="rotate\(89.98 50 35\)"/);
  });
});

describe('primitive detection on chains that meet other shapes', () => {
  it('a rectangle whose outline is several chains (neighbours on two sides) is still a <rect>; an L is not', () => {
    const layers = [
      { color: BLUE, inside: rect(10, 12, 40, 50) },
      { color: RED, inside: rect(40, 20, 55, 30) },
      { color: GREEN, inside: rect(20, 50, 30, 58) },
    ];
    const result = traceImage(drawShape(60, 60, WHITE, layers), DEFAULT_ENGINE_PARAMS);
    const plan = buildPlan(result, outputOptions());
    const blue = drawables(plan.items).find((i): i is FillItem => i.kind === 'fill' && i.color.b > 150 && i.color.r < 100)!;
    expect(blue.loops[0]!.length).toBeGreaterThan(1);
    expect(writeSvg(result)).toMatch(/<rect fill="#1e3cc8" x="10" y="12" width="30" height="38"\/>/);
    const ell = (x: number, y: number) => rect(10, 12, 40, 50)(x, y) && !rect(25, 12, 40, 30)(x, y);
    const lShape = traceImage(drawShape(60, 60, WHITE, [{ color: BLUE, inside: ell }]), DEFAULT_ENGINE_PARAMS);
    expect(writeSvg(lShape)).not.toContain('<rect');
  });
});

describe('rectangles from line loops (detectPrimitive)', () => {
  const ALL: AllowedCurves = { quadratic: true, cubic: true, circularArc: true, ellipticalArc: true };
  /** A closed polyline as one chain per piece (`cuts` = vertex indices where a new chain starts). */
  const chainsOf = (points: [number, number][], cuts: number[]) => {
    const ring = [...points, points[0]!];
    const starts = [0, ...cuts, points.length];
    return starts.slice(0, -1).map((from, k) => ({
      startX: ring[from]![0],
      startY: ring[from]![1],
      segments: SegmentPath.of(ring.slice(from + 1, starts[k + 1]! + 1).map(([x, y]): Segment => ({ kind: 'line', x, y }))),
      leftRegion: 0,
      rightRegion: -1,
      closed: cuts.length === 0,
    }));
  };
  // A 40 × 20 rectangle turned by 30° about (50, 40), with extra points on two sides.
  const turned = (u: number, v: number): [number, number] => {
    const a = Math.PI / 6;
    return [50 + u * Math.cos(a) - v * Math.sin(a), 40 + u * Math.sin(a) + v * Math.cos(a)];
  };
  const outline: [number, number][] = [turned(0, -10), turned(20, -10), turned(20, 10), turned(5, 10), turned(-20, 10), turned(-20, -10)];

  it('finds the same rectangle from any start, split into chains walked either way', () => {
    for (let shift = 0; shift < outline.length; shift++) {
      const points = [...outline.slice(shift), ...outline.slice(0, shift)];
      const chains = chainsOf(points, [2, 4]);
      const forwards = chains.map((_, chain) => ({ chain, reversed: false }));
      // The same loop the other way round: each chain reversed, in reverse order.
      const backwards = chains.map((_, chain) => ({ chain: chains.length - 1 - chain, reversed: true }));
      for (const loop of [forwards, backwards]) {
        const found = detectPrimitive(chains, loop, ALL);
        expect(found?.kind, `start ${shift}`).toBe('rect');
        if (found?.kind !== 'rect') continue;
        expect(found.cx).toBeCloseTo(50, 9);
        expect(found.cy).toBeCloseTo(40, 9);
        expect([found.width, found.height].sort((a, b) => a - b)).toEqual([expect.closeTo(20, 9), expect.closeTo(40, 9)]);
        expect(found.rotationDeg % 90).toBeCloseTo(30, 6);
      }
    }
  });

  it('a trapezoid, a triangle and a pentagon are not rectangles; a repeated point is one vertex', () => {
    const shapes: [number, number][][] = [
      [[0, 0], [40, 0], [30, 20], [10, 20]],
      [[0, 0], [40, 0], [20, 30]],
      [[0, 0], [40, 0], [40, 20], [20, 30], [0, 20]],
    ];
    for (const points of shapes) {
      const chains = chainsOf(points, []);
      expect(detectPrimitive(chains, [{ chain: 0, reversed: false }], ALL)).toBeUndefined();
    }
    const repeated = chainsOf([[0, 0], [20, 0], [20, 0], [40, 0], [40, 20], [0, 20]], []);
    expect(detectPrimitive(repeated, [{ chain: 0, reversed: false }], ALL)).toMatchObject({ kind: 'rect', cx: 20, cy: 10, width: 40, height: 20, rotationDeg: 0 });
    // Repeated at a corner (and at the start), walked either way: still that corner.
    const atCorner = chainsOf([[0, 0], [0, 0], [40, 0], [40, 20], [40, 20], [0, 20]], [3]);
    for (const loop of [
      [{ chain: 0, reversed: false }, { chain: 1, reversed: false }],
      [{ chain: 1, reversed: true }, { chain: 0, reversed: true }],
    ]) {
      expect(detectPrimitive(atCorner, loop, ALL)).toMatchObject({ kind: 'rect', cx: 20, cy: 10, width: 40, height: 20, rotationDeg: 0 });
    }
    // A pentagon whose fifth corner is repeated keeps it: four of its corners make no rectangle of it.
    const pentagon = chainsOf([[0, 0], [40, 0], [40, 20], [0, 20], [-10, 10], [-10, 10]], []);
    expect(detectPrimitive(pentagon, [{ chain: 0, reversed: false }], ALL)).toBeUndefined();
    // A chain without segments adds no vertex, first in the loop or later.
    const square = chainsOf([[0, 0], [20, 0], [20, 20], [0, 20]], []);
    const withEmpty = [{ startX: 0, startY: 0, segments: SegmentPath.of([]), leftRegion: 0, rightRegion: -1, closed: false }, square[0]!];
    for (const loop of [
      [{ chain: 0, reversed: false }, { chain: 1, reversed: false }],
      [{ chain: 1, reversed: false }, { chain: 0, reversed: true }],
    ]) {
      expect(detectPrimitive(withEmpty, loop, ALL)).toMatchObject({ kind: 'rect', cx: 10, cy: 10, width: 20, height: 20, rotationDeg: 0 });
    }
  });

  it('a rectangle with one side bent into a curve is none; two half-circle arcs are a circle, in either chain order and direction', () => {
    // A 40 × 20 rectangle whose last side is a cubic that runs straight: lines and a cubic mix.
    const bent = chainsOf([[0, 0], [40, 0], [40, 20], [0, 20]], [3]);
    const side = bent[1]!;
    const curved = [bent[0]!, { ...side, segments: SegmentPath.of([{ kind: 'cubic', c1x: 0, c1y: 14, c2x: 0, c2y: 7, x: 0, y: 0 } as Segment]) }];
    for (const loop of [
      [{ chain: 0, reversed: false }, { chain: 1, reversed: false }],
      [{ chain: 1, reversed: true }, { chain: 0, reversed: true }],
    ]) {
      expect(detectPrimitive(curved, loop, ALL)).toBeUndefined();
    }
    // A circle of radius 10 about (30, 20) as two arc chains.
    const arc = (toX: number): Segment => ({ kind: 'arc', rx: 10, ry: 10, rotationDeg: 0, largeArc: false, sweep: true, x: toX, y: 20 }) as Segment;
    const halves = [
      { startX: 20, startY: 20, segments: SegmentPath.of([arc(40)]), leftRegion: 0, rightRegion: -1, closed: false },
      { startX: 40, startY: 20, segments: SegmentPath.of([arc(20)]), leftRegion: 0, rightRegion: -1, closed: false },
    ];
    for (const loop of [
      [{ chain: 0, reversed: false }, { chain: 1, reversed: false }],
      [{ chain: 1, reversed: false }, { chain: 0, reversed: false }],
    ]) {
      expect(detectPrimitive(halves, loop, ALL)).toMatchObject({ kind: 'circle', cx: expect.closeTo(30, 9), cy: expect.closeTo(20, 9), r: expect.closeTo(10, 9) });
    }
  });
});

describe('contradictory options (400 / 1019)', () => {
  it('names the field', () => {
    expect(() => planVectorize([['output.size.width', '0']])).toThrow(/output\.size\.width must be greater than 0/);
    expect(() => planVectorize([['output.file_format', 'dxf'], ['output.size.scale', '2']])).not.toThrow();
  });
});
