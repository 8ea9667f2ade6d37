/**
 * Gradient paints (tracelab.gradients) in the output plan and the writers, on the hand-built
 * trace of tests/helpers/gradients.ts: the plan's rules per draw style, gap filler, group_by and
 * stacking; the SVG's shared <defs>, the PDF's shading patterns, the EPS's LanguageLevel 3
 * patterns and the DXF's gradient HATCH (read back with ezdxf). What readers draw from these
 * files is checked in tests/render/gradients.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Gradient, TraceResult } from '../../src/engine/types.js';
import { writeDxf } from '../../src/formats/dxf.js';
import { writeEps } from '../../src/formats/eps.js';
import { writePdf } from '../../src/formats/pdf.js';
import { createHash } from 'node:crypto';
import { rasterizeShapes } from '../../src/formats/raster.js';
import { renderPlan } from '../../src/formats/raster-plan.js';
import { writePlanPng } from '../../src/formats/png.js';
import { psLiteral, shadingLiteral } from '../../src/formats/shading.js';
import { gradientKey, gradientT, isDrawableGradient, mapGradient, rampColor } from '../../src/formats/gradient.js';
import { buildPlan, forEachDrawable, type FillItem, type GroupItem, type PlanItem, type StrokeItem } from '../../src/formats/plan.js';
import { writeSvg } from '../../src/formats/svg.js';
import { outputOptions, type OutputOptions } from '../../src/formats/types.js';
import {
  BLUE,
  ELLIPTICAL,
  GREEN,
  LINEAR_X,
  LINEAR_Y,
  ORANGE,
  PURPLE,
  RADIAL,
  RED,
  SHAPE,
  WHITE,
  expectedColor,
  expectedT,
  gradientTrace,
  onAxes,
  withGradient,
  withoutGradients,
} from '../helpers/gradients.js';

const cutouts = gradientTrace();
const stacked = gradientTrace('stacked');

function drawables(items: readonly PlanItem[]): (FillItem | StrokeItem)[] {
  const out: (FillItem | StrokeItem)[] = [];
  forEachDrawable(items, (item) => out.push(item));
  return out;
}

function plan(result: TraceResult, more: Partial<OutputOptions> = {}) {
  return buildPlan(result, outputOptions(more));
}

/** The chain a single-chain stroke path walks. */
function chainsOf(item: StrokeItem): number[] {
  return item.paths.flatMap((p) => p.uses.map((u) => u.chain));
}

const fills = (items: readonly PlanItem[]): FillItem[] => drawables(items).filter((d): d is FillItem => d.kind === 'fill');
const strokes = (items: readonly PlanItem[]): StrokeItem[] => drawables(items).filter((d): d is StrokeItem => d.kind === 'stroke');
const fillOf = (items: readonly PlanItem[], shape: number): FillItem => fills(items).find((f) => f.shape === shape)!;
/** Chain indices of the fixture (tests/helpers/gradients.ts). */
const CHAIN = { aWithoutShared: 1, aB: 2, bWithoutShared: 3, c: 4, e: 5, d: 6 } as const;

describe('plan: gradient paints', () => {
  it('fill_shapes: gradient shapes carry their gradient, equal gradients are one object, flat shapes none', () => {
    const items = plan(cutouts, { gapFiller: { enabled: false, nonScalingStroke: true, clip: false, strokeWidthPx: 2 } }).items;
    expect(fillOf(items, SHAPE.A).gradient).toEqual(LINEAR_X);
    expect(fillOf(items, SHAPE.B).gradient).toBe(LINEAR_Y);
    expect(fillOf(items, SHAPE.C).gradient).toBe(RADIAL);
    // E's gradient is a separate object with the same value: the plan shares A's.
    expect(cutouts.shapes[SHAPE.E]!.gradient).not.toBe(cutouts.shapes[SHAPE.A]!.gradient);
    expect(fillOf(items, SHAPE.E).gradient).toBe(fillOf(items, SHAPE.A).gradient);
    expect(fillOf(items, SHAPE.D).gradient).toBeUndefined();
    expect(fillOf(items, SHAPE.background).gradient).toBeUndefined();
    // Colour stays the mean colour.
    expect(fillOf(items, SHAPE.A).color).toEqual(cutouts.shapes[SHAPE.A]!.color);
  });

  it('fill_shapes: primitives are still detected on gradient shapes (SVG)', () => {
    const items = plan(cutouts).items;
    expect(fillOf(items, SHAPE.A).primitive?.kind).toBe('rect');
    expect(fillOf(items, SHAPE.C).primitive?.kind).toBe('circle');
  });

  it('a gradient that cannot be drawn (zero-length axis) leaves the shape flat', () => {
    const degenerate: Gradient = { ...LINEAR_X, x2: LINEAR_X.x1, y2: LINEAR_X.y1 };
    const result = { ...cutouts, shapes: cutouts.shapes.map((s, i) => (i === SHAPE.A ? { ...s, gradient: degenerate } : s)) };
    expect(fillOf(plan(result).items, SHAPE.A).gradient).toBeUndefined();
  });

  it('stroke_shapes: outlines take their shape gradient; the override colour wins', () => {
    const outlines = strokes(plan(cutouts, { drawStyle: 'stroke_shapes' }).items);
    const of = (chain: number) => outlines.find((s) => chainsOf(s).includes(chain) && s.gradient !== undefined);
    expect(of(CHAIN.aWithoutShared)?.gradient).toEqual(LINEAR_X);
    expect(of(CHAIN.c)?.gradient).toBe(RADIAL);
    // A and B have the same mean colour but different gradients: their outlines are not merged.
    const a = outlines.find((s) => s.gradient && s.gradient.kind === 'linear' && s.gradient.x2 === 60)!;
    const b = outlines.find((s) => s.gradient === LINEAR_Y)!;
    expect(a).not.toBe(b);
    expect(a.color).toEqual(b.color);
    const red = { r: 255, g: 0, b: 0, a: 255 };
    const overridden = strokes(plan(cutouts, { drawStyle: 'stroke_shapes', strokes: { strokeWidthPx: 1, nonScalingStroke: true, overrideColor: red } }).items);
    expect(overridden.every((s) => s.gradient === undefined && s.color === red)).toBe(true);
    // One colour, no gradients: consecutive outlines merge as before.
    expect(overridden).toHaveLength(1);
  });

  it('stroke_edges: the owner’s gradient, else the other side’s, else flat; the override colour wins', () => {
    const edges = strokes(plan(cutouts, { drawStyle: 'stroke_edges' }).items);
    const edge = (chain: number) => edges.find((s) => chainsOf(s).includes(chain))!;
    // A | B: B is painted later and owns the edge.
    expect(edge(CHAIN.aB).gradient).toBe(LINEAR_Y);
    expect(edge(CHAIN.aWithoutShared).gradient).toEqual(LINEAR_X);
    // E | D: D (flat) owns it; E's gradient paints it.
    expect(edge(CHAIN.d).gradient).toEqual(LINEAR_X);
    // The outer border has only the background (flat): the average rule, no gradient.
    expect(edge(0).gradient).toBeUndefined();
    const red = { r: 255, g: 0, b: 0, a: 255 };
    const overridden = strokes(plan(cutouts, { drawStyle: 'stroke_edges', strokes: { strokeWidthPx: 1, nonScalingStroke: true, overrideColor: red } }).items);
    expect(overridden.every((s) => s.gradient === undefined)).toBe(true);
  });

  it('gap filler: painted with the gradient side (both: the one painted first), grouped by paint', () => {
    for (const clip of [false, true]) {
      const fillers = strokes(plan(cutouts, { gapFiller: { enabled: true, nonScalingStroke: true, clip, strokeWidthPx: 2 } }).items).filter((s) => s.role === 'gap_filler');
      const filler = (chain: number) => fillers.find((s) => chainsOf(s).includes(chain))!;
      // A | B: both gradients, A is painted first.
      expect(filler(CHAIN.aB).gradient).toEqual(LINEAR_X);
      expect(filler(CHAIN.bWithoutShared).gradient).toBe(LINEAR_Y);
      expect(filler(CHAIN.c).gradient).toBe(RADIAL);
      expect(filler(CHAIN.d).gradient).toEqual(LINEAR_X);
      // One filler per paint: LINEAR_X (A's border, A | B, E's border, E | D), LINEAR_Y, RADIAL.
      expect(fillers).toHaveLength(3);
      expect(filler(CHAIN.aB)).toBe(filler(CHAIN.e));
      expect(new Set(fillers.map((f) => f.gradient)).size).toBe(3);
      if (clip) expect(filler(CHAIN.aB).clipShapes).toEqual([0, 1, 2, 4, 5]);
    }
    // Without gradients the same boundaries group by colour as before (A and B have one colour).
    const flat = strokes(plan(withoutGradients(cutouts)).items).filter((s) => s.role === 'gap_filler');
    expect(flat.every((s) => s.gradient === undefined)).toBe(true);
  });

  it('gap filler, stacked: only borders between shapes that do not lie on each other, in the gradient', () => {
    const fillers = strokes(plan(stacked).items).filter((s) => s.role === 'gap_filler');
    expect(fillers).toHaveLength(1);
    expect(chainsOf(fillers[0]!)).toEqual([CHAIN.aB]);
    expect(fillers[0]!.gradient).toEqual(LINEAR_X);
  });

  it('group_by=color: gradient shapes grouped by gradient identity, numbered in paint order', () => {
    const groups = plan(cutouts, { groupBy: 'color' }).items.filter((i): i is GroupItem => i.kind === 'group');
    expect(groups.map((g) => g.id)).toEqual(['color-f0f0f0', 'gradient-0', 'gradient-1', 'gradient-2', 'color-282828']);
    expect(fills(groups.find((g) => g.id === 'gradient-0')!.items).map((f) => f.shape)).toEqual([SHAPE.A, SHAPE.E]);
    const layered = plan(stacked, { groupBy: 'color' }).items.filter((i): i is GroupItem => i.kind === 'group');
    expect(layered.map((g) => g.id)).toEqual(['layer-0-color-f0f0f0', 'layer-1-gradient-0', 'layer-1-gradient-1', 'layer-1-gradient-2', 'layer-2-color-282828']);
    // Flat pictures keep their colour groups.
    expect(plan(withoutGradients(cutouts), { groupBy: 'color' }).items.filter((i) => i.kind === 'group').map((g) => g.id)).toEqual(['color-f0f0f0', 'color-7d1e7d', 'color-f0c828', 'color-1e1edc', 'color-282828']);
  });
});

describe('SVG: gradient definitions', () => {
  const svg = writeSvg(cutouts);
  const defs = /<defs>\n([\s\S]*?)<\/defs>\n/.exec(svg);

  it('one <defs> right after <svg>, before the first use, one element per distinct gradient', () => {
    expect(defs).not.toBeNull();
    expect(svg.split('<defs>').length - 1).toBe(1);
    expect(svg.indexOf('<defs>')).toBe(svg.indexOf('>', svg.indexOf('<svg')) + 2);
    expect(svg.indexOf('<defs>')).toBeLessThan(svg.indexOf('url(#'));
    expect(defs![1]!.match(/<linearGradient /g)).toHaveLength(2);
    expect(defs![1]!.match(/<radialGradient /g)).toHaveLength(1);
    expect(defs![1]).toMatch(/gradientUnits="userSpaceOnUse"/);
  });

  it('ids g0, g1, g2 in first-use order; every url() points at a definition of the right geometry', () => {
    const ids = [...defs![1]!.matchAll(/ id="(g\d+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(['g0', 'g1', 'g2']);
    const uses = [...svg.matchAll(/url\(#(g\d+)\)/g)].map((m) => m[1]!);
    expect([...new Set(uses)]).toEqual(['g0', 'g1', 'g2']);
    const def = (id: string) => new RegExp(`<(linear|radial)Gradient id="${id}"[^>]*>`).exec(defs![1]!)![0];
    const paintOf = (element: RegExp) => /(?:fill|stroke)="url\(#(g\d+)\)"/.exec(element.exec(svg)![0])![1]!;
    expect(def(paintOf(/<rect fill="url\(#g\d+\)" x="10" y="10"[^>]*>/))).toContain('x1="10" y1="25" x2="60" y2="25"');
    expect(def(paintOf(/<rect fill="url\(#g\d+\)" x="10" y="40"[^>]*>/))).toContain('x1="35" y1="40" x2="35" y2="70"');
    expect(def(paintOf(/<circle fill="url\(#g\d+\)"[^>]*>/))).toContain('<radialGradient id="g2" gradientUnits="userSpaceOnUse" cx="100" cy="40" r="25"');
    // A and E share one definition.
    const e = /<path fill="url\(#(g\d+)\)" d="m125 50[^"]*"\/>/.exec(svg);
    expect(e?.[1]).toBe(paintOf(/<rect fill="url\(#g\d+\)" x="10" y="10"[^>]*>/));
  });

  it('stops: offsets and hex colours', () => {
    expect(defs![1]).toContain('<stop offset="0" stop-color="#fff"/><stop offset="0.5" stop-color="#f0c828"/><stop offset="1" stop-color="#1e8c3c"/>');
  });

  it('strokes reference the gradient with stroke="url(…)"; a translucent shape keeps its opacity', () => {
    const outlines = writeSvg(cutouts, outputOptions({ drawStyle: 'stroke_shapes' }));
    expect(outlines).toMatch(/<path fill="none" stroke="url\(#g\d\)"/);
    const translucent = { ...cutouts, shapes: cutouts.shapes.map((s, i) => (i === SHAPE.C ? { ...s, color: { ...s.color, a: 128 } } : s)) };
    expect(writeSvg(translucent)).toMatch(/<circle fill="url\(#g2\)" fill-opacity="0.502"/);
  });

  it('every SVG version and Adobe mode carry the definitions; Adobe mode paints paths', () => {
    for (const version of ['svg_1_0', 'svg_1_1', 'svg_tiny_1_2'] as const) {
      for (const adobe of [false, true]) {
        const text = writeSvg(cutouts, outputOptions({ svg: { version, fixedSize: false, adobeCompatibilityMode: adobe } }));
        expect(text).toContain('<radialGradient id="g2"');
        if (adobe) expect(text).not.toMatch(/<(circle|rect) /);
      }
    }
  });

  it('coordinates are input pixels rounded like the paths (a trace at half the input size)', () => {
    const half = { ...cutouts, inputWidth: 320, inputHeight: 160 };
    const text = writeSvg(half);
    expect(text).toContain('x1="20" y1="50" x2="120" y2="50"');
    expect(text).toContain('cx="200" cy="80" r="50"');
  });

  it('no gradients: no <defs>, no url()', () => {
    const text = writeSvg(withoutGradients(cutouts));
    expect(text).not.toContain('<defs>');
    expect(text).not.toContain('url(');
  });
});

describe('PDF: shading patterns', () => {
  async function pdfText(result: TraceResult, more: Partial<OutputOptions> = {}): Promise<string> {
    const bytes = await writePdf(buildPlan(result, outputOptions({ fileFormat: 'pdf', pdf: { compress: false }, ...more })));
    return Buffer.from(bytes).toString('latin1');
  }

  it('one axial (ShadingType 2) or radial (ShadingType 3) pattern per distinct gradient, in the page resources', async () => {
    const text = await pdfText(cutouts);
    expect(text.match(/\/PatternType 2/g)).toHaveLength(3);
    expect(text.match(/\/ShadingType 2/g)).toHaveLength(2);
    expect(text.match(/\/ShadingType 3/g)).toHaveLength(1);
    expect(text).toMatch(/\/Pattern <<\n\/P0 \d+ 0 R\n\/P1 \d+ 0 R\n\/P2 \d+ 0 R\n>>/);
    expect(text).toContain('/Coords [ 100 40 0 100 40 25 ]');
    expect(text).toContain('/Extend [ true true ]');
    expect(text).toContain('/ColorSpace /DeviceRGB');
  });

  it('two stops: one type 2 function; three: a type 3 stitching function with Bounds and Encode', async () => {
    const text = await pdfText(cutouts);
    expect(text).toMatch(/\/Coords \[ 10 25 60 25 \]\n\/Function <<\n\/FunctionType 2\n\/Domain \[ 0 1 \]\n\/C0 \[ 0\.8627 0\.1176 0\.1176 \]\n\/C1 \[ 0\.1176 0\.1176 0\.8627 \]\n\/N 1/);
    expect(text).toMatch(/\/FunctionType 3\n\/Domain \[ 0 1 \]\n\/Functions \[ <</);
    expect(text).toContain('/Bounds [ 0.5 ]');
    expect(text).toContain('/Encode [ 0 1 0 1 ]');
  });

  it('fills use /Pattern cs … scn, strokes /Pattern CS … SCN; the matrix maps traced coordinates like the paths', async () => {
    const text = await pdfText(cutouts);
    expect(text).toMatch(/\/Pattern cs \/P\d scn/);
    expect(text).toMatch(/\/Pattern CS \/P\d SCN/);
    expect(text).toContain('/Matrix [ 1 0 0 -1 0 80 ]');
    // A stretched page (2 × wide): the same stretch in the pattern matrix.
    const stretched = await pdfText(cutouts, { size: { unit: 'pt', width: 320, height: 80, aspectRatio: 'stretch', alignX: 0.5, alignY: 0.5 } });
    expect(stretched).toContain('/Matrix [ 2 0 0 -1 0 80 ]');
  });

  it('no gradients: no patterns', async () => {
    const text = await pdfText(withoutGradients(cutouts));
    expect(text).not.toContain('/Pattern');
  });
});

describe('EPS: LanguageLevel 3 shading patterns', () => {
  const eps = writeEps(buildPlan(cutouts, outputOptions({ fileFormat: 'eps' })));

  it('declares LanguageLevel 3 and EPSF-3.0; one makepattern per distinct gradient, after the page concat', () => {
    expect(eps.startsWith('%!PS-Adobe-3.0 EPSF-3.0\n')).toBe(true);
    expect(eps).toContain('\n%%LanguageLevel: 3\n');
    expect(eps.match(/makepattern def/g)).toHaveLength(3);
    expect(eps.indexOf('makepattern')).toBeGreaterThan(eps.indexOf('] concat'));
    expect(eps).toContain('/P2 << /PatternType 2 /Shading << /ShadingType 3 /ColorSpace /DeviceRGB /Coords [100 40 0 100 40 25] /Function << /FunctionType 3');
    expect(eps.match(/\/ShadingType 2/g)).toHaveLength(2);
    expect(eps).toContain('/Extend [true true]');
    expect(eps).toMatch(/>> \[1 0 0 1 0 0\] makepattern def\n/);
  });

  it('fills and strokes select the pattern; translucent stops are composited over white', () => {
    expect(eps).toMatch(/\nP\d setpattern\n[^\n]* m\n/);
    const outlines = writeEps(buildPlan(cutouts, outputOptions({ fileFormat: 'eps', drawStyle: 'stroke_shapes' })));
    expect(outlines).toMatch(/\nP\d setpattern\n0 setlinewidth\n/);
    const translucent = { ...cutouts, shapes: cutouts.shapes.map((s, i) => (i === SHAPE.C ? { ...s, color: { ...s.color, a: 0 } } : s)) };
    expect(writeEps(buildPlan(translucent, outputOptions({ fileFormat: 'eps' })))).not.toContain('/ShadingType 3');
    const half = { ...cutouts, shapes: cutouts.shapes.map((s, i) => (i === SHAPE.C ? { ...s, color: { ...s.color, a: 51 } } : s)) };
    // Green (30, 140, 60) at alpha 0.2 over white: (210, 232, 216).
    expect(writeEps(buildPlan(half, outputOptions({ fileFormat: 'eps' })))).toContain('/C1 [0.8235 0.9098 0.8471]');
  });

  it('no gradients: no patterns', () => {
    const flat = writeEps(buildPlan(withoutGradients(cutouts), outputOptions({ fileFormat: 'eps' })));
    expect(flat).not.toContain('makepattern');
    expect(flat).not.toContain('setpattern');
  });
});

/** DXF files read back with ezdxf (tests/helpers/read-dxf.py): audit, structure and entities. */
const dxfDir = mkdtempSync(join(tmpdir(), 'tracelab-gradient-dxf-'));
const READ_DXF = join(import.meta.dirname, '..', 'helpers', 'read-dxf.py');
let dxfFiles = 0;
interface Hatch {
  dxftype: string;
  layer: string;
  true_color: number | null;
  boundary_paths?: number;
  solid_fill?: number;
  gradient?: { name: string; rotation: number; centered: number; number_of_colors: number; one_color: number; color1: number[]; color2: number[] } | null;
}
function readDxf(text: string): { audit: { errors: number; fixes: number }; structure: string[]; entities: Hatch[] } {
  const file = join(dxfDir, `g${dxfFiles++}.dxf`);
  writeFileSync(file, text);
  return JSON.parse(execFileSync('/usr/bin/python3', [READ_DXF, file], { encoding: 'utf8', maxBuffer: 64 << 20 }));
}

describe('DXF: gradient HATCH', () => {
  const rgb = (c: { r: number; g: number; b: number }) => [c.r, c.g, c.b];

  it('raw tags: HATCH, solid, with gradient group codes 450 … 470', () => {
    const text = writeDxf(buildPlan(cutouts, outputOptions({ fileFormat: 'dxf' })));
    expect(text.match(/\r\n {2}0\r\nHATCH\r\n/g)).toHaveLength(4);
    expect(text).toContain('\r\n  2\r\nSOLID\r\n 70\r\n1\r\n');
    expect(text).toMatch(/\r\n450\r\n1\r\n451\r\n0\r\n460\r\n[\d.]+\r\n461\r\n0\.0\r\n452\r\n0\r\n462\r\n1\.0\r\n453\r\n2\r\n463\r\n0\.0\r\n 63\r\n\d+\r\n421\r\n\d+\r\n463\r\n1\.0\r\n 63\r\n\d+\r\n421\r\n\d+\r\n470\r\nLINEAR\r\n/);
    expect(text).toContain('\r\n470\r\nSPHERICAL\r\n');
    expect(writeDxf(buildPlan(withoutGradients(cutouts), outputOptions({ fileFormat: 'dxf' })))).not.toContain('HATCH');
  });

  for (const compatibility of ['lines_only', 'lines_and_arcs', 'lines_arcs_and_splines'] as const) {
    it(`ezdxf reads the gradients (${compatibility}): type, angle, the colours where DXF puts them; outlines kept`, () => {
      const report = readDxf(writeDxf(buildPlan(cutouts, outputOptions({ fileFormat: 'dxf', dxf: { compatibility } }))));
      expect(report.audit).toMatchObject({ errors: 0, fixes: 0 });
      expect(report.structure).toEqual([]);
      const hatches = report.entities.filter((e) => e.dxftype === 'HATCH');
      expect(hatches.map((h) => h.gradient?.name)).toEqual(['LINEAR', 'LINEAR', 'SPHERICAL', 'LINEAR']);
      const [a, b, c, e] = hatches.map((h) => h.gradient!);
      // A: left to right, red at its left side, blue at its right.
      expect(a!.rotation).toBeCloseTo(0, 4);
      expect([a!.color1, a!.color2]).toEqual([rgb(RED), rgb(BLUE)]);
      // B: its ramp grows down the page, which is 270° with y up.
      expect(b!.rotation).toBeCloseTo(270, 4);
      expect([b!.color1, b!.color2]).toEqual([rgb(ORANGE), rgb(PURPLE)]);
      // C: centred sphere; the highlight (second colour) is the colour at the centre, the first at the rim.
      expect(c!.centered).toBe(0);
      expect([c!.color1, c!.color2]).toEqual([rgb(GREEN), rgb(WHITE)]);
      // E: beyond the axis end, padded blue both ways; its hole (D) is a second boundary path.
      expect([e!.color1, e!.color2]).toEqual([rgb(BLUE), rgb(BLUE)]);
      expect(hatches.map((h) => h.boundary_paths)).toEqual([1, 1, 1, 2]);
      expect(hatches.every((h) => h.solid_fill === 1 && h.gradient!.number_of_colors === 2 && h.gradient!.one_color === 0)).toBe(true);
      // Every fill still has its outline entities (contours): background 4 loops, A, B, C, E 2, D.
      expect(report.entities.filter((x) => x.dxftype !== 'HATCH')).toHaveLength(10);
    });
  }

  it('a stretched page turns the linear angle with the page (its isolines stay put)', () => {
    const diagonal: Gradient = { ...LINEAR_X, x1: 10, y1: 10, x2: 60, y2: 40 };
    const result = { ...cutouts, shapes: cutouts.shapes.map((s, i) => (i === SHAPE.A ? { ...s, gradient: diagonal } : s)) };
    const report = readDxf(writeDxf(buildPlan(result, outputOptions({ fileFormat: 'dxf', size: { unit: 'none', width: 320, height: 80, aspectRatio: 'stretch', alignX: 0.5, alignY: 0.5 } }))));
    const a = report.entities.find((h) => h.dxftype === 'HATCH')!.gradient!;
    // t grows along (dx/sx, dy/sy) = (50/2, 30): on the y-up page atan2(−30, 25).
    expect(a.rotation).toBeCloseTo(((Math.atan2(-30, 25) * 180) / Math.PI + 360) % 360, 4);
  });
});

/**
 * rasterizeShapes at 2 px per traced px across and 3 down: the largest channel difference from
 * the formula at the centres of the pixels holding the traced samples (gradient, x, y).
 */
function worstRasterized(result: TraceResult, samples: readonly (readonly [Gradient, number, number])[]): number {
  const [sx, sy] = [2, 3];
  const width = 160 * sx;
  const data = rasterizeShapes(result, { width, height: 80 * sy, scaleX: sx, scaleY: sy, antiAliased: true });
  let worst = 0;
  for (const [g, x, y] of samples) {
    const px = Math.floor(x * sx);
    const py = Math.floor(y * sy);
    const want = expectedColor(g, (px + 0.5) / sx, (py + 0.5) / sy);
    for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(data[(py * width + px) * 4 + k]! - want[k]!));
  }
  return worst;
}

describe('rasterizeShapes: gradient shapes', () => {
  it('paints each pixel with the gradient at its centre (2 px per traced px, stretched 3:2 on the other axis)', () => {
    const samples = [[LINEAR_X, 20, 20], [LINEAR_X, 50, 30], [LINEAR_Y, 30, 45], [LINEAR_Y, 30, 65], [RADIAL, 110, 40], [RADIAL, 100, 20], [LINEAR_X, 130, 70]] as const;
    expect(worstRasterized(cutouts, samples)).toBeLessThanOrEqual(0.5);
  });
});

describe('hard stops (two stops at one offset)', () => {
  const hard: Gradient = {
    kind: 'linear',
    x1: 0,
    y1: 0,
    x2: 10,
    y2: 0,
    stops: [{ offset: 0, color: RED }, { offset: 0.5, color: RED }, { offset: 0.5, color: BLUE }, { offset: 1, color: BLUE }],
  };

  it('the ramp jumps at the offset, which takes the later stop', () => {
    expect(rampColor(hard.stops, 0.4999)).toMatchObject({ r: RED.r, g: RED.g, b: RED.b });
    expect(rampColor(hard.stops, 0.5)).toMatchObject({ r: BLUE.r, g: BLUE.g, b: BLUE.b });
  });

  it('the stitching function skips the zero-length piece: Bounds stay increasing', () => {
    expect(psLiteral(shadingLiteral(hard))).toBe(
      '<< /ShadingType 2 /ColorSpace /DeviceRGB /Coords [0 0 10 0] /Function << /FunctionType 3 /Domain [0 1] /Functions [' +
        '<< /FunctionType 2 /Domain [0 1] /C0 [0.8627 0.1176 0.1176] /C1 [0.8627 0.1176 0.1176] /N 1 >> ' +
        '<< /FunctionType 2 /Domain [0 1] /C0 [0.1176 0.1176 0.8627] /C1 [0.1176 0.1176 0.8627] /N 1 >>] /Bounds [0.5] /Encode [0 1 0 1] >> /Extend [true true] >>',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Elliptical radial gradients (ry = r / 2, rotated 30°): ELLIPTICAL on C (tests/helpers/gradients.ts)

const elliptical = withGradient(cutouts, SHAPE.C, ELLIPTICAL);
type Radial = Extract<Gradient, { kind: 'radial' }>;
type Matrix = [number, number, number, number, number, number];
const apply = (m: Matrix, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
/** Angles around an ellipse, to check that a written map puts its circle on t = 1. */
const AROUND = Array.from({ length: 12 }, (_, i) => (i * Math.PI) / 6 + 0.1);
/** Traced points on both axes, off them and outside the ellipse. */
const SAMPLES: readonly (readonly [number, number])[] = [
  onAxes(ELLIPTICAL, 0.5, 0),
  onAxes(ELLIPTICAL, -1, 0),
  onAxes(ELLIPTICAL, 0, 0.5),
  onAxes(ELLIPTICAL, 0, -1),
  onAxes(ELLIPTICAL, 0.6, 0.8),
  [112, 31],
  [87, 55],
  [150, 10],
];

describe('elliptical radial gradients: src/formats/gradient.ts', () => {
  it('gradientT is the formula: 1 on the ellipse along both axes and off them', () => {
    for (const [x, y] of SAMPLES) expect(gradientT(ELLIPTICAL, x, y)).toBeCloseTo(expectedT(ELLIPTICAL, x, y), 12);
    expect(gradientT(ELLIPTICAL, ...onAxes(ELLIPTICAL, 1, 0))).toBeCloseTo(1, 12);
    expect(gradientT(ELLIPTICAL, ...onAxes(ELLIPTICAL, 0, 1))).toBeCloseTo(1, 12);
    // Along the second axis, 20 px from the centre, where a circle of radius 40 would say 0.5.
    expect(gradientT(ELLIPTICAL, ...onAxes(ELLIPTICAL, 0, 1))).not.toBeCloseTo(0.5, 2);
  });

  it('drawable only with a finite positive ry and a finite rotation', () => {
    expect(isDrawableGradient(ELLIPTICAL)).toBe(true);
    for (const bad of [{ ry: 0 }, { ry: -3 }, { ry: Number.NaN }, { ry: Infinity }, { rotationDeg: Number.NaN }]) {
      expect(isDrawableGradient({ ...ELLIPTICAL, ...bad } as Gradient)).toBe(false);
    }
  });

  it('gradientKey: ry and rotation tell gradients apart; a circle ignores its rotation', () => {
    expect(gradientKey(ELLIPTICAL)).not.toBe(gradientKey({ ...ELLIPTICAL, ry: undefined, rotationDeg: undefined } as Gradient));
    expect(gradientKey(ELLIPTICAL)).not.toBe(gradientKey({ ...ELLIPTICAL, rotationDeg: 31 } as Gradient));
    expect(gradientKey(ELLIPTICAL)).not.toBe(gradientKey({ ...ELLIPTICAL, ry: 21 } as Gradient));
    expect(gradientKey({ ...ELLIPTICAL, rotationDeg: 30 } as Gradient)).toBe(gradientKey(ELLIPTICAL));
    expect(gradientKey({ ...RADIAL, rotationDeg: 30 } as Gradient)).toBe(gradientKey(RADIAL));
    expect(gradientKey({ ...RADIAL, ry: 25 } as Gradient)).toBe(gradientKey(RADIAL));
  });

  it('mapGradient is exact under any axis map: t at a mapped point is t at the original', () => {
    for (const [sx, sy, ox, oy] of [[2, 0.5, 3, -7], [1, 3, 0, 0], [-1.5, 2.5, 10, 4], [2, 2, 1, 1], [-2, -2, 0, 0]] as const) {
      const mapped = mapGradient(ELLIPTICAL, sx, sy, ox, oy);
      for (const [x, y] of SAMPLES) expect(gradientT(mapped, ox + sx * x, oy + sy * y), `${sx},${sy} at ${x},${y}`).toBeCloseTo(expectedT(ELLIPTICAL, x, y), 9);
    }
    // A uniform map keeps the rotation as given; a circle stays a circle (no ry) at the mean scale.
    expect(mapGradient(ELLIPTICAL, 2, 2, 0, 0)).toMatchObject({ cx: 200, cy: 80, r: 80, ry: 40, rotationDeg: 30 });
    const circle = mapGradient(RADIAL, 2, 1, 0, 0);
    expect(circle).toEqual({ ...RADIAL, cx: 200, cy: 40, r: 37.5 });
  });
});

/** The gradientTransform's matrix (translate, optional rotate, scale: what the writer emits). */
function svgTransform(text: string): Matrix {
  const m = /^translate\(([-\d.]+) ([-\d.]+)\)(?: rotate\(([-\d.]+)\))? scale\(([-\d.]+) ([-\d.]+)\)$/.exec(text);
  if (!m) throw new Error(`unexpected gradientTransform ${text}`);
  const [tx, ty, deg, sx, sy] = [m[1], m[2], m[3] ?? '0', m[4], m[5]].map(Number) as [number, number, number, number, number];
  const th = (deg * Math.PI) / 180;
  return [Math.cos(th) * sx, Math.sin(th) * sx, -Math.sin(th) * sy, Math.cos(th) * sy, tx, ty];
}

describe('SVG: elliptical gradient', () => {
  const radialDef = (svg: string, id = 'g2') => new RegExp(`<radialGradient id="${id}"[^>]*>`).exec(svg)?.[0] ?? '';

  it('the unit circle at the origin, placed by translate(c) rotate(θ) scale(r ry)', () => {
    expect(radialDef(writeSvg(elliptical))).toBe('<radialGradient id="g2" gradientUnits="userSpaceOnUse" cx="0" cy="0" r="1" gradientTransform="translate(100 40) rotate(30) scale(40 20)">');
  });

  it('its circle lands on t = 1 in input pixels: at 2× and when the two axes scale differently', () => {
    for (const [iw, ih] of [[320, 160], [320, 80], [160, 240]] as const) {
      const svg = writeSvg({ ...elliptical, inputWidth: iw, inputHeight: ih });
      const m = svgTransform(/gradientTransform="([^"]*)"/.exec(radialDef(svg))![1]!);
      for (const phi of AROUND) {
        const [x, y] = apply(m, Math.cos(phi), Math.sin(phi));
        // Rounded like coordinates (0.1 px at this size): t within 1 %.
        expect(expectedT(ELLIPTICAL, (x * 160) / iw, (y * 80) / ih), `${iw}×${ih} at ${phi}`).toBeCloseTo(1, 2);
      }
    }
  });

  it('shared definitions are keyed by the whole gradient: ry and rotation included', () => {
    const copy: Gradient = { ...ELLIPTICAL, stops: ELLIPTICAL.stops.map((s) => ({ ...s })) };
    const same = withGradient(elliptical, SHAPE.E, copy);
    expect(writeSvg(same).match(/<radialGradient /g)).toHaveLength(1);
    for (const other of [{ ...ELLIPTICAL, rotationDeg: -30 }, { ...ELLIPTICAL, ry: 10 }, RADIAL] as Gradient[]) {
      expect(writeSvg(withGradient(elliptical, SHAPE.E, other)).match(/<radialGradient /g)).toHaveLength(2);
    }
  });

  it('the shortest exact form: no rotate() at 0°, swapped radii at a quarter turn, a circle when the radii round to one', () => {
    const at = (g: Partial<Radial>) => radialDef(writeSvg(withGradient(cutouts, SHAPE.C, { ...ELLIPTICAL, ...g } as Gradient)));
    expect(at({ rotationDeg: 0 })).toContain('gradientTransform="translate(100 40) scale(40 20)"');
    expect(at({ rotationDeg: undefined })).toContain('gradientTransform="translate(100 40) scale(40 20)"');
    expect(at({ rotationDeg: 90 })).toContain('gradientTransform="translate(100 40) scale(20 40)"');
    expect(at({ rotationDeg: 210 })).toContain('gradientTransform="translate(100 40) rotate(30) scale(40 20)"');
    // The shapes' rule (writtenTurn): a turn that moves the 40-px rim by at most half a written step
    // (0.01 px here) is no turn: 0.005° moves it 0.0035 px, 0.01° 0.007 px.
    expect(at({ rotationDeg: 89.995 })).toContain('gradientTransform="translate(100 40) scale(20 40)"');
    expect(at({ rotationDeg: -0.005 })).toContain('gradientTransform="translate(100 40) scale(40 20)"');
    expect(at({ rotationDeg: 89.99 })).toContain('gradientTransform="translate(100 40) rotate(89.99) scale(40 20)"');
    expect(at({ ry: 40.001 })).toBe('<radialGradient id="g2" gradientUnits="userSpaceOnUse" cx="100" cy="40" r="40">');
  });
});

/** The /Matrix of the PDF pattern whose shading is radial. */
function pdfRadialMatrix(text: string): Matrix {
  const m = /\/ShadingType 3\n[\s\S]*?\/Matrix \[ ([^\]]*) \]/.exec(text);
  return m![1]!.split(' ').map(Number) as Matrix;
}

describe('PDF and EPS: elliptical gradient', () => {
  async function pdfText(result: TraceResult, more: Partial<OutputOptions> = {}): Promise<string> {
    return Buffer.from(await writePdf(buildPlan(result, outputOptions({ fileFormat: 'pdf', pdf: { compress: false }, ...more })))).toString('latin1');
  }
  const STRETCH = { size: { unit: 'pt', width: 320, height: 240, aspectRatio: 'stretch', alignX: 0.5, alignY: 0.5 } } as const;

  it('PDF: the shading stays the circle; /Matrix maps it onto the ellipse and the page (natural and stretched 2 × 3)', async () => {
    for (const [more, sx, sy, height] of [[{}, 1, 1, 80], [STRETCH, 2, 3, 240]] as const) {
      const text = await pdfText(elliptical, more);
      expect(text).toContain('/Coords [ 100 40 0 100 40 40 ]');
      const m = pdfRadialMatrix(text);
      for (const phi of AROUND) {
        // Pattern space is the shading's: the circle of radius 40 about (100, 40); points are y up.
        const [x, y] = apply(m, 100 + 40 * Math.cos(phi), 40 + 40 * Math.sin(phi));
        expect(expectedT(ELLIPTICAL, x / sx, (height - y) / sy), `${sx}×${sy} at ${phi}`).toBeCloseTo(1, 6);
      }
      // The linear patterns keep the plain page map.
      expect(text).toContain(`/Matrix [ ${sx} 0 0 -${sy} 0 ${height} ]`);
    }
  });

  it('EPS: the makepattern matrix maps the circle onto the ellipse in page units (natural and stretched 2 × 3)', () => {
    for (const [more, sx, sy] of [[{}, 1, 1], [STRETCH, 2, 3]] as const) {
      const eps = writeEps(buildPlan(elliptical, outputOptions({ fileFormat: 'eps', ...more })));
      const line = eps.split('\n').find((l) => l.includes('/ShadingType 3'))!;
      expect(line).toContain('/Coords [100 40 0 100 40 40]');
      const m = /\[([^\]]*)\] makepattern def$/.exec(line)![1]!.split(' ').map(Number) as Matrix;
      for (const phi of AROUND) {
        const [x, y] = apply(m, 100 + 40 * Math.cos(phi), 40 + 40 * Math.sin(phi));
        expect(expectedT(ELLIPTICAL, x / sx, y / sy), `${sx}×${sy} at ${phi}`).toBeCloseTo(1, 6);
      }
    }
  });
});

describe('DXF: elliptical gradient', () => {
  const rgb = (c: { r: number; g: number; b: number }) => [c.r, c.g, c.b];
  /** Direction (degrees, y up, in [0, 180)) of the longest radius of the ellipse on a page stretched sx × sy. */
  function longAxisDeg(sx: number, sy: number): number {
    let best = { d: -1, deg: 0 };
    for (let i = 0; i < 36000; i++) {
      const phi = (i * Math.PI) / 18000;
      const [x, y] = onAxes(ELLIPTICAL, Math.cos(phi), Math.sin(phi));
      const dx = sx * (x - 100);
      const dy = sy * (y - 40);
      const d = Math.hypot(dx, dy);
      if (d > best.d) best = { d, deg: ((((Math.atan2(-dy, dx) * 180) / Math.PI) % 180) + 180) % 180 };
    }
    return best.deg;
  }

  it('ezdxf reads a SPHERICAL gradient: white at the centre, the rim colour where the elliptical t is largest, the long axis as angle', () => {
    const report = readDxf(writeDxf(buildPlan(elliptical, outputOptions({ fileFormat: 'dxf' }))));
    expect(report.audit).toMatchObject({ errors: 0, fixes: 0 });
    const c = report.entities.filter((e) => e.dxftype === 'HATCH')[2]!.gradient!;
    expect(c.name).toBe('SPHERICAL');
    expect(c.centered).toBe(0);
    // The disc (radius 25) reaches t = 25 / 20 = 1.25 across the ellipse: padded green, not the
    // mix at 25 / 40 a circle of radius r would give; the centre is t = 0.
    expect([c.color1, c.color2]).toEqual([rgb(GREEN), rgb(WHITE)]);
    // 30° clockwise on the y-down page is 150° counter-clockwise with y up (an axis: modulo 180°).
    expect(c.rotation).toBeCloseTo(150, 4);
    expect(longAxisDeg(1, 1)).toBeCloseTo(150, 1);
  });

  it('a stretched page: the angle follows the stretched ellipse’s long axis', () => {
    const size = { unit: 'none', width: 320, height: 80, aspectRatio: 'stretch', alignX: 0.5, alignY: 0.5 } as const;
    const report = readDxf(writeDxf(buildPlan(elliptical, outputOptions({ fileFormat: 'dxf', size }))));
    const c = report.entities.filter((e) => e.dxftype === 'HATCH')[2]!.gradient!;
    expect(c.rotation).toBeCloseTo(longAxisDeg(2, 1), 1);
  });
});

describe('rasterizeShapes: elliptical gradient', () => {
  it('paints each pixel with the formula at its centre, along both axes and off them (stretched 2 × 3)', () => {
    const inside = SAMPLES.filter(([x, y]) => Math.hypot(x - 100, y - 40) < 23);
    expect(inside.length).toBeGreaterThanOrEqual(5);
    expect(worstRasterized(elliptical, inside.map(([x, y]) => [ELLIPTICAL, x, y] as const))).toBeLessThanOrEqual(0.5);
  });
});

describe('circles (no ry, no rotationDeg) are unchanged byte for byte', () => {
  const sha = (b: string | Uint8Array) => createHash('sha256').update(b).digest('hex');
  const STRETCHED: Partial<OutputOptions> = { size: { unit: 'px', width: 640, height: 160, aspectRatio: 'stretch', alignX: 0.5, alignY: 0.5 } };
  async function hashes(result: TraceResult, more: Partial<OutputOptions>): Promise<Record<string, string>> {
    const o = (fileFormat: OutputOptions['fileFormat']) => outputOptions({ ...more, fileFormat });
    return {
      svg: sha(writeSvg(result, o('svg'))),
      pdf: sha(await writePdf(buildPlan(result, o('pdf')))),
      eps: sha(writeEps(buildPlan(result, o('eps')))),
      dxf: sha(writeDxf(buildPlan(result, o('dxf')))),
      png: sha(writePlanPng(buildPlan(result, o('png')))),
    };
  }
  /**
   * SHA-256 of the fixture's files as written before elliptical gradients existed (commit 504e6fe;
   * the SVGs since loops that mostly run backwards are written forwards under fill-rule="evenodd").
   * A deliberate change to a writer updates these; an ellipse feature never should.
   */
  const BEFORE_ELLIPSES: Record<string, Record<string, string>> = {
    natural: {
      svg: 'aa2b4f7384237d75fbb39420c5a7fa8f39d617fc09e73d88d7ba5b73d54ab5f7',
      pdf: '7bb412a72b0bbe52326c1ed656972b25b44ec06c62496a8225cf21c4df33c431',
      eps: 'a00ad2f16e78d551e2302af870bde75ab2cf6add7888d58682c2d9fbd208208b',
      dxf: '52e89407b0ba233ed6008a855fcdce5d66efff31fcbc895659100b110570dea0',
      png: 'e7e69d8636ecd0f17b2395c3961c1e6c1122a063c1a6e8df75568d13854ace9b',
    },
    stretched: {
      svg: 'cda945f149e67f9625ded488e0d397a2bd3bfb7ce7b0682747f008d1ed8d4aa6',
      pdf: '7a04f2f7eef86aacca50432c882b33b3613359718431293c80ba3080aad4d1b1',
      eps: '4489e692606d66536f32e254010e9fb427e4970ecb6524ca32ad919815fd76ee',
      dxf: '1b299a36d76f5da8f97c88b287bf9e1fbbf18c43126fa2770848a764c2b6db07',
      png: 'c7d8db0efe0a03dd43b13c47ff1fb5f6e2db43ec3191fddb512247c32c5ca915',
    },
    strokes: {
      svg: '0cfed55781cd05f42d7284458027daf3aca4628bf949082170775a3a1c487fc4',
      pdf: '7969496a896f34ca019bbce43e17710aeec76c20b5d0e689e6cbea7996697ca7',
      eps: '0174d61bb1035333130b2fbd1e579d999ae9370ce28e97c9dad20b8cfc5c5275',
      dxf: '7a64fe3eb4a7386960628b72a4be677f3b615e8ba526ec18156bd4526c65bc82',
      png: '13c538ededc9aa981ef645a2f25f003c9e4135155a7920a87c480085f9e9ed3f',
    },
  };
  const VARIANTS: Record<string, Partial<OutputOptions>> = { natural: {}, stretched: STRETCHED, strokes: { drawStyle: 'stroke_shapes' } };

  it('SVG, PDF, EPS, DXF and PNG of the fixture hash as before ellipses (natural, stretched page, stroke_shapes)', async () => {
    for (const [name, more] of Object.entries(VARIANTS)) expect(await hashes(cutouts, more), name).toEqual(BEFORE_ELLIPSES[name]);
  });

  it('rasterizeShapes and a zoomed window of the PNG renderer hash as before', () => {
    expect(sha(rasterizeShapes(cutouts, { width: 320, height: 240, scaleX: 2, scaleY: 3, antiAliased: true }))).toBe('3fb02779e1a024088ef517bfa0206d8dbdcd2623ee714293e8065d2f4a7a004c');
    const window = { left: 300, top: 60, width: 150, height: 120, zoom: 3 };
    expect(sha(renderPlan(buildPlan(cutouts, outputOptions({ fileFormat: 'png' })), { window }).rgba)).toBe('1cdccf7c47e7b2f18937f96b1b6eae94a7de0f6e9afbc19ca48e7c4ca6ffeb1d');
  });

  it('a circle given with ry = r, or with a rotation, writes the same bytes as one without', async () => {
    for (const circle of [{ ...RADIAL, ry: 25 }, { ...RADIAL, rotationDeg: 30 }, { ...RADIAL, ry: 25, rotationDeg: -75 }] as Gradient[]) {
      const result = withGradient(cutouts, SHAPE.C, circle);
      for (const [name, more] of Object.entries(VARIANTS)) expect(await hashes(result, more), name).toEqual(BEFORE_ELLIPSES[name]);
    }
  });
});
