/**
 * DXF writer against ezdxf: pictures drawn here are traced, planned and written as DXF, and
 * Debian's python3-ezdxf (tests/helpers/read-dxf.py, run with /usr/bin/python3) reads every file
 * strictly and audits it. Checked: the file is a clean AC1021 drawing (no audit errors or fixes,
 * every handle unique and every pointer resolved), entity types per compatibility level, closed
 * loops, the geometry (ezdxf's flattening rasterised per colour against our own renderer of the
 * trace), layers, units and extents, stroke counts and determinism.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { Chain, Rgba, RgbaImage, Segment, Shape, TraceResult } from '../../src/engine/types.js';
import { writeDxf } from '../../src/formats/dxf.js';
import { buildPlan, forEachDrawable, type OutputPlan } from '../../src/formats/plan.js';
import { rasterizeShapes } from '../../src/formats/raster.js';
import { DEFAULT_OUTPUT_OPTIONS, outputOptions, type DxfCompatibility, type OutputOptions } from '../../src/formats/types.js';
import { meanAbsDiff } from '../helpers/compare.js';
import { disc, drawShape, rect } from '../helpers/raster.js';
import { rasterizeDxf } from '../helpers/readers.js';
import { SegmentPath } from '../../src/engine/segment-path.js';

const SCRIPT = join(import.meta.dirname, '..', 'helpers', 'read-dxf.py');
const dir = mkdtempSync(join(tmpdir(), 'tracelab-dxf-'));
const LEVELS: readonly DxfCompatibility[] = ['lines_only', 'lines_and_arcs', 'lines_arcs_and_splines'];
/** Raster comparison scale (output pixels per page unit) and the tolerance it is held to. */
const SCALE = 4;
const MAX_MEAN_DIFF = 0.5;

interface DxfEntity {
  dxftype: string;
  layer: string;
  true_color: number | null;
  aci: number;
  lineweight: number;
  transparency: number | null;
  closed: boolean | null;
  has_bulges: boolean;
  repeats_first?: boolean;
  ends_meet?: boolean;
  sweep?: number;
  points: [number, number][];
}

interface DxfReport {
  dxfversion: string;
  acadver: string;
  insunits: number;
  extmin: number[];
  extmax: number[];
  line_endings: string;
  audit: { errors: number; fixes: number; messages: string[] };
  structure: string[];
  created_on_load: { dxftype: string; name: string | null }[];
  load_messages: string[];
  layers: string[];
  palette: number[];
  entities: DxfEntity[];
}

let fileCount = 0;
function readDxf(text: string, distance = 0.01): DxfReport {
  const file = join(dir, `out-${fileCount++}.dxf`);
  writeFileSync(file, text);
  return JSON.parse(execFileSync('/usr/bin/python3', [SCRIPT, file, String(distance)], { encoding: 'utf8', maxBuffer: 256 << 20 })) as DxfReport;
}

// ---------------------------------------------------------------------------------------------
// Fixtures

const ellipse = (cx: number, cy: number, rx: number, ry: number, deg: number) => (x: number, y: number) => {
  const t = (deg * Math.PI) / 180;
  const dx = x - cx;
  const dy = y - cy;
  const u = dx * Math.cos(t) + dy * Math.sin(t);
  const v = -dx * Math.sin(t) + dy * Math.cos(t);
  return (u / rx) ** 2 + (v / ry) ** 2 <= 1;
};
const ring = (cx: number, cy: number, outer: number, inner: number) => (x: number, y: number) => {
  const d = (x - cx) ** 2 + (y - cy) ** 2;
  return d <= outer * outer && d >= inner * inner;
};
/** A three-lobed blob: no circle, line or ellipse fits it, so it is traced with Béziers. */
const blob = (cx: number, cy: number, r: number) => (x: number, y: number) =>
  Math.hypot(x - cx, y - cy) <= r * (1 + 0.3 * Math.sin(3 * Math.atan2(y - cy, x - cx)));

/** Disc, rotated ellipse, two squares, a ring (hole) and a blob on white: six colours. */
function picture(): RgbaImage {
  return drawShape(120, 90, [255, 255, 255], [
    { color: [200, 30, 40], inside: disc(25.3, 24.7, 15.4) },
    { color: [30, 60, 200], inside: ellipse(80, 25, 24, 12, 30) },
    { color: [20, 150, 70], inside: rect(10, 55, 30, 75) },
    { color: [20, 150, 70], inside: rect(40, 58, 55, 73) },
    { color: [240, 160, 20], inside: ring(90, 65, 18, 9) },
    { color: [120, 40, 160], inside: blob(62, 42, 9) },
  ]);
}

const traced = traceImage(picture(), DEFAULT_ENGINE_PARAMS);

/**
 * A hand-made trace with the curves the engine rarely produces on its own: partial circular arcs
 * (a 270° "pac-man" with sweep 1 and a 106° arch with sweep 0, so a bulge on the wrong side of
 * its chord shows) and a quadratic (an arc fit under lines_and_arcs, a SPLINE under
 * lines_arcs_and_splines). Every loop runs clockwise on the y-down page; holes are reversed.
 */
function handMadeTrace(): TraceResult {
  const a = (deg: number): [number, number] => [28 + 20 * Math.cos((deg * Math.PI) / 180), 30 + 20 * Math.sin((deg * Math.PI) / 180)];
  const [p1x, p1y] = a(45);
  const [p2x, p2y] = a(315);
  const chain = (startX: number, startY: number, segments: Segment[], right: number, left: number): Chain => ({
    startX,
    startY,
    segments: SegmentPath.of(segments),
    leftRegion: left,
    rightRegion: right,
    closed: true,
  });
  const chains: Chain[] = [
    chain(0, 0, [{ kind: 'line', x: 80, y: 0 }, { kind: 'line', x: 80, y: 60 }, { kind: 'line', x: 0, y: 60 }, { kind: 'line', x: 0, y: 0 }], 0, -1),
    chain(p1x, p1y, [{ kind: 'arc', rx: 20, ry: 20, rotationDeg: 0, largeArc: true, sweep: true, x: p2x, y: p2y }, { kind: 'line', x: 28, y: 30 }, { kind: 'line', x: p1x, y: p1y }], 1, 0),
    chain(56, 52, [{ kind: 'line', x: 56, y: 40 }, { kind: 'quad', cx: 64, cy: 26, x: 72, y: 40 }, { kind: 'line', x: 72, y: 52 }, { kind: 'line', x: 56, y: 52 }], 2, 0),
    chain(56, 30, [{ kind: 'line', x: 56, y: 16 }, { kind: 'arc', rx: 10, ry: 10, rotationDeg: 0, largeArc: false, sweep: true, x: 72, y: 16 }, { kind: 'line', x: 72, y: 30 }, { kind: 'line', x: 56, y: 30 }], 3, 0),
  ];
  const shape = (region: number, color: Rgba, outer: number, holes: number[] = []): Shape => ({
    region,
    color,
    outer: [{ chain: outer, reversed: false }],
    holes: holes.map((c) => [{ chain: c, reversed: true }]),
    areaPx: 0,
    parent: -1,
  });
  return {
    width: 80,
    height: 60,
    inputWidth: 80,
    inputHeight: 60,
    shapeStacking: 'cutouts',
    chains,
    shapes: [
      shape(0, { r: 255, g: 255, b: 255, a: 255 }, 0, [1, 2, 3]),
      shape(1, { r: 220, g: 40, b: 30, a: 255 }, 1),
      shape(2, { r: 30, g: 70, b: 210, a: 255 }, 2),
      shape(3, { r: 30, g: 160, b: 60, a: 255 }, 3),
    ],
    stats: { colors: 4, regions: 4, chains: 4, profile: 'flat', stageMs: {} },
  };
}

function dxfOptions(compatibility: DxfCompatibility, more: Partial<OutputOptions> = {}): OutputOptions {
  return outputOptions({ fileFormat: 'dxf', dxf: { compatibility }, ...more });
}

function planAndRead(options: OutputOptions, result: TraceResult = traced): { plan: OutputPlan; text: string; report: DxfReport } {
  const plan = buildPlan(result, options);
  const text = writeDxf(plan);
  return { plan, text, report: readDxf(text) };
}

// ---------------------------------------------------------------------------------------------
// Checks shared by the tests

/** What ezdxf adds to every document it loads (its own defaults; AutoCAD creates them itself). */
const EZDXF_DEFAULTS = new Set(['DICTIONARY:', 'MATERIAL:ByBlock', 'MATERIAL:ByLayer', 'MATERIAL:Global', 'LAYER:Defpoints', 'MLEADERSTYLE:Standard']);
const EZDXF_CREATED_DICTS = /^INFO: creating ACAD_(MATERIAL|MLEADERSTYLE|SCALELIST|TABLESTYLE|VISUALSTYLE) dictionary$/;

function expectCleanFile(report: DxfReport): void {
  expect(report.dxfversion).toBe('AC1021');
  expect(report.acadver).toBe('AC1021');
  expect(report.line_endings).toBe('crlf');
  expect(report.audit).toEqual({ errors: 0, fixes: 0, messages: [] });
  expect(report.structure).toEqual([]);
  for (const c of report.created_on_load) expect(EZDXF_DEFAULTS.has(`${c.dxftype}:${c.name ?? ''}`), JSON.stringify(c)).toBe(true);
  for (const m of report.load_messages) expect(m).toMatch(EZDXF_CREATED_DICTS);
  // Every layer an entity uses is in the LAYER table.
  for (const e of report.entities) expect(report.layers).toContain(e.layer);
}

const ALLOWED: Record<DxfCompatibility, readonly string[]> = {
  lines_only: ['LWPOLYLINE', 'LINE'],
  lines_and_arcs: ['LWPOLYLINE', 'LINE', 'CIRCLE', 'ARC', 'ELLIPSE'],
  lines_arcs_and_splines: ['LWPOLYLINE', 'LINE', 'CIRCLE', 'ARC', 'ELLIPSE', 'SPLINE'],
};

function typeCounts(report: DxfReport): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of report.entities) counts[e.dxftype] = (counts[e.dxftype] ?? 0) + 1;
  return counts;
}

function hexColor(c: Rgba): number {
  return (c.r << 16) | (c.g << 8) | c.b;
}

/** Squared RGB distance between two 0xRRGGBB colours. */
function colorDistance(a: number, b: number): number {
  return ((a >> 16) - (b >> 16)) ** 2 + (((a >> 8) & 255) - ((b >> 8) & 255)) ** 2 + ((a & 255) - (b & 255)) ** 2;
}

// ---------------------------------------------------------------------------------------------
// Rendering the DXF back

/** Paints the closed entities colour by colour over white, each colour's loops filled even-odd. */
function renderDxf(report: DxfReport, plan: OutputPlan, scale: number): RgbaImage {
  const width = Math.round(plan.page.width * scale);
  const height = Math.round(plan.page.height * scale);
  return rasterizeDxf(report, plan.page.height, scale, width, height, 'colour');
}

/** Our own rendering of the trace at the same size (page units = input pixels here). */
function renderTrace(result: TraceResult, plan: OutputPlan, scale: number): RgbaImage {
  const width = Math.round(plan.page.width * scale);
  const height = Math.round(plan.page.height * scale);
  const data = rasterizeShapes(result, {
    width,
    height,
    scaleX: plan.page.scaleX * scale,
    scaleY: plan.page.scaleY * scale,
    antiAliased: true,
  });
  return { width, height, data };
}

/** Every double in the file is plain decimal text ("12.5", never "1.25e+1"). */
function expectPlainNumbers(text: string): void {
  const lines = text.split('\r\n');
  const isFloat = (c: number): boolean => (c >= 10 && c <= 59) || (c >= 110 && c <= 149) || (c >= 210 && c <= 239);
  let checked = 0;
  for (let i = 0; i + 1 < lines.length; i += 2) {
    if (!isFloat(Number(lines[i]))) continue;
    expect(lines[i + 1]).toMatch(/^-?\d+\.\d+$/);
    checked++;
  }
  expect(checked).toBeGreaterThan(100);
}

function pathLength(points: readonly [number, number][], closed: boolean): number {
  let len = 0;
  for (let i = 1; i < points.length; i++) len += Math.hypot(points[i]![0] - points[i - 1]![0], points[i]![1] - points[i - 1]![1]);
  if (closed && points.length > 1) len += Math.hypot(points[0]![0] - points[points.length - 1]![0], points[0]![1] - points[points.length - 1]![1]);
  return len;
}

// ---------------------------------------------------------------------------------------------

describe('DXF writer, read back by ezdxf', () => {
  for (const level of LEVELS) {
    describe(level, () => {
      const { plan, report } = planAndRead(dxfOptions(level));

      it('is a clean AC1021 file: no audit errors or fixes, handles and pointers sound', () => {
        expectCleanFile(report);
      });

      it(`uses only ${ALLOWED[level].join(', ')}`, () => {
        for (const e of report.entities) expect(ALLOWED[level]).toContain(e.dxftype);
        if (level === 'lines_only') for (const e of report.entities) expect(e.has_bulges).toBe(false);
        const counts = typeCounts(report);
        if (level === 'lines_and_arcs') {
          // The disc comes back as a CIRCLE, the rotated ellipse as an ELLIPSE, the ring with bulges.
          expect(counts.CIRCLE ?? 0).toBeGreaterThan(0);
          expect(counts.ELLIPSE ?? 0).toBeGreaterThan(0);
          expect(report.entities.some((e) => e.has_bulges)).toBe(true);
        }
        if (level === 'lines_arcs_and_splines') expect(counts.SPLINE ?? 0).toBeGreaterThan(0);
      });

      it('writes every fill loop as one closed entity', () => {
        let loops = 0;
        forEachDrawable(plan.items, (item) => {
          if (item.kind === 'fill') loops += item.primitive && level !== 'lines_only' && item.primitive.kind !== 'rect' ? 1 : item.loops.length;
        });
        // Gap-filler strokes are not written, so every entity is a fill loop.
        expect(report.entities.length).toBe(loops);
        for (const e of report.entities) {
          if (e.dxftype === 'LWPOLYLINE') {
            // Closed by the flag, not by repeating the first vertex.
            expect(e.closed).toBe(true);
            expect(e.repeats_first).toBe(false);
          }
          // A closed loop as SPLINE: clamped, ending on its first control point (the writer leaves
          // the "closed" bit off, which LibreCAD 2.2 misreads as periodic).
          if (e.dxftype === 'SPLINE') {
            expect(e.ends_meet).toBe(true);
            expect(e.closed).toBe(false);
          }
          if (e.dxftype === 'ELLIPSE') expect(e.sweep).toBeCloseTo(2 * Math.PI, 9);
          expect(['LWPOLYLINE', 'SPLINE', 'CIRCLE', 'ELLIPSE']).toContain(e.dxftype);
        }
      });

      it(`draws the trace: mean |ΔRGB| against our renderer < ${MAX_MEAN_DIFF}, all points on the page`, () => {
        const diff = meanAbsDiff(renderDxf(report, plan, SCALE), renderTrace(traced, plan, SCALE));
        expect(diff).toBeLessThan(MAX_MEAN_DIFF);
        for (const e of report.entities) {
          for (const [x, y] of e.points) {
            expect(x).toBeGreaterThanOrEqual(-1e-6);
            expect(y).toBeGreaterThanOrEqual(-1e-6);
            expect(x).toBeLessThanOrEqual(plan.page.width + 1e-6);
            expect(y).toBeLessThanOrEqual(plan.page.height + 1e-6);
          }
        }
        expect(report.extmin.slice(0, 2)).toEqual([0, 0]);
        expect(report.extmax.slice(0, 2)).toEqual([plan.page.width, plan.page.height]);
        expect(report.insunits).toBe(0);
      });

      it('colours: true colour of the item and the nearest ACI of the palette', () => {
        const colors = new Set<number>();
        forEachDrawable(plan.items, (item) => {
          if (item.kind === 'fill') colors.add(hexColor(item.color));
        });
        expect(new Set(report.entities.map((e) => e.true_color))).toEqual(colors);
        expect(colors.size).toBeGreaterThanOrEqual(3);
        for (const e of report.entities) {
          const c = e.true_color!;
          // ezdxf's palette (AutoCAD 2020) and ours differ by a unit here and there: allow 3 per channel.
          let best = Infinity;
          for (let i = 1; i < 256; i++) if (i !== 7) best = Math.min(best, colorDistance(report.palette[i]!, c));
          expect(e.aci).toBeGreaterThanOrEqual(1);
          expect(e.aci).toBeLessThanOrEqual(255);
          expect(e.aci).not.toBe(7);
          expect(Math.sqrt(colorDistance(report.palette[e.aci]!, c))).toBeLessThanOrEqual(Math.sqrt(best) + 3 * Math.sqrt(3));
        }
      });
    });
  }

  it('partial arcs and quadratics keep their shape at every level (bulge signs, splines)', () => {
    const trace = handMadeTrace();
    for (const level of LEVELS) {
      const { plan, report } = planAndRead(dxfOptions(level), trace);
      expectCleanFile(report);
      const counts = typeCounts(report);
      expect(report.entities.some((e) => e.has_bulges)).toBe(level !== 'lines_only');
      expect(counts.SPLINE ?? 0).toBe(level === 'lines_arcs_and_splines' ? 2 : 0);
      expect(meanAbsDiff(renderDxf(report, plan, SCALE), renderTrace(trace, plan, SCALE))).toBeLessThan(MAX_MEAN_DIFF);
    }
  });

  it('a translucent colour carries its alpha as transparency (440), opaque ones none', () => {
    const trace = handMadeTrace();
    const shapes = trace.shapes.map((s, i) => (i === 3 ? { ...s, color: { ...s.color, a: 128 } } : s));
    const { report } = planAndRead(dxfOptions('lines_and_arcs'), { ...trace, shapes });
    expectCleanFile(report);
    const green = 0x1ea03c;
    for (const e of report.entities) expect(e.transparency).toBe(e.true_color === green ? 0x02000000 | 128 : null);
    expect(report.entities.filter((e) => e.true_color === green)).toHaveLength(1);
  });

  it('flatten=true writes no CIRCLE or ELLIPSE, and still draws the trace', () => {
    for (const level of ['lines_and_arcs', 'lines_arcs_and_splines'] as const) {
      const { plan, report } = planAndRead(dxfOptions(level, { flattenPrimitives: true }));
      expectCleanFile(report);
      const counts = typeCounts(report);
      expect(counts.CIRCLE ?? 0).toBe(0);
      expect(counts.ELLIPSE ?? 0).toBe(0);
      expect(report.entities.some((e) => e.has_bulges)).toBe(true);
      expect(meanAbsDiff(renderDxf(report, plan, SCALE), renderTrace(traced, plan, SCALE))).toBeLessThan(MAX_MEAN_DIFF);
    }
  });

  it('group_by=color: one layer per colour, in the LAYER table and used by the entities', () => {
    const { plan, report } = planAndRead(dxfOptions('lines_and_arcs', { groupBy: 'color' }));
    expectCleanFile(report);
    const groups = new Set<string>();
    const layerColors = new Map<string, Set<number>>();
    forEachDrawable(plan.items, (item, ids) => {
      // Gap fillers stay outside the colour groups; the DXF writer leaves them out anyway.
      if (item.kind !== 'fill') return;
      expect(ids.length).toBeGreaterThan(0);
      groups.add(ids[0]!);
    });
    for (const e of report.entities) {
      expect(e.layer).not.toBe('0');
      let set = layerColors.get(e.layer);
      if (!set) layerColors.set(e.layer, (set = new Set()));
      set.add(e.true_color!);
    }
    expect(new Set(layerColors.keys())).toEqual(groups);
    for (const set of layerColors.values()) expect(set.size).toBe(1);
    expect(new Set(report.layers)).toEqual(new Set(['0', ...groups]));
    expect(groups.size).toBe(new Set(report.entities.map((e) => e.true_color)).size);
  });

  it('group_by=none: everything on layer "0"', () => {
    const { report } = planAndRead(dxfOptions('lines_and_arcs', { groupBy: 'none' }));
    expect(report.layers).toEqual(['0']);
    for (const e of report.entities) expect(e.layer).toBe('0');
  });

  it('output.size 100 mm wide: $INSUNITS 4 (mm), extents 100 × 75, geometry scaled', () => {
    const size = { ...DEFAULT_OUTPUT_OPTIONS.size, unit: 'mm' as const, width: 100 };
    const { plan, report } = planAndRead(dxfOptions('lines_and_arcs', { size }));
    expectCleanFile(report);
    expect(report.insunits).toBe(4);
    expect(report.extmax[0]).toBe(100);
    expect(report.extmax[1]).toBeCloseTo(75, 9);
    let maxX = 0;
    for (const e of report.entities) for (const [x] of e.points) maxX = Math.max(maxX, x);
    expect(maxX).toBeGreaterThan(99.9);
    expect(maxX).toBeLessThanOrEqual(100 + 1e-6);
    expect(meanAbsDiff(renderDxf(report, plan, 4.8), renderTrace(traced, plan, 4.8))).toBeLessThan(MAX_MEAN_DIFF);
  });

  it('inches: $INSUNITS 1; strokes carry the nearest DXF lineweight', () => {
    const size = { ...DEFAULT_OUTPUT_OPTIONS.size, unit: 'in' as const, width: 4 };
    const { report } = planAndRead(dxfOptions('lines_and_arcs', { size, drawStyle: 'stroke_shapes' }));
    expectCleanFile(report);
    expect(report.insunits).toBe(1);
    // 1 px stroke on a 4 in wide page of 120 px: 4 × 25.4 / 120 = 0.847 mm → lineweight 0.80 mm.
    for (const e of report.entities) expect(e.lineweight).toBe(80);
  });

  it('stroke_shapes strokes every loop, stroke_edges every chain once', () => {
    const shapes = planAndRead(dxfOptions('lines_and_arcs', { drawStyle: 'stroke_shapes' }));
    const edges = planAndRead(dxfOptions('lines_and_arcs', { drawStyle: 'stroke_edges' }));
    for (const { plan, report } of [shapes, edges]) {
      expectCleanFile(report);
      let paths = 0;
      forEachDrawable(plan.items, (item) => {
        if (item.kind === 'stroke') paths += item.paths.length;
      });
      expect(report.entities.length).toBe(paths);
      for (const e of report.entities) expect(e.lineweight).toBe(-1);
    }
    // Every chain between two shapes is drawn twice by stroke_shapes and once by stroke_edges;
    // the chains on the picture's border (the background's outer loop) once by both.
    const total = (r: DxfReport): number => r.entities.reduce((sum, e) => sum + pathLength(e.points, e.closed ?? e.dxftype !== 'LWPOLYLINE'), 0);
    const border = 2 * (edges.plan.page.width + edges.plan.page.height);
    const shapesLength = total(shapes.report);
    const edgesLength = total(edges.report);
    expect(Math.abs(shapesLength - (2 * edgesLength - border)) / shapesLength).toBeLessThan(1e-3);
    // Each chain once: no two stroke_edges entities trace the same points.
    const keys = edges.report.entities.map((e) => JSON.stringify(e.points.map(([x, y]) => [x.toFixed(3), y.toFixed(3)]).sort()));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is deterministic: the same plan, and a new trace of the same picture, give the same text', () => {
    for (const level of LEVELS) {
      const options = dxfOptions(level, { groupBy: 'color' });
      const plan = buildPlan(traced, options);
      const a = writeDxf(plan);
      expect(writeDxf(plan)).toBe(a);
      expect(writeDxf(buildPlan(traceImage(picture(), DEFAULT_ENGINE_PARAMS), options))).toBe(a);
      expectPlainNumbers(a);
    }
  });
});
