/**
 * Every output format × the output options, end to end, checked by third-party readers.
 *
 * Driven by API fields exactly as users send them (planVectorize → traceBytes → writeFile, the
 * path runVectorize takes; one trace per fixture and stacking is reused for all formats), for
 * four small pictures: flat anti-aliased clipart, ×4 pixel art and a logo on a transparent
 * background drawn here, and the playground's photo sample (public/samples/photo.png: gradients,
 * a soft-edged sun, film grain). Each file must open cleanly in its reader(s) — exit 0, nothing on
 * stderr, ezdxf with no audit errors or fixes — and each reader's picture must look like
 *   - the input picture, drawn on the same device pixel grid (fill styles: outlines have no inside
 *     to compare), within a tolerance per picture — so a mistake our renderer shares with the
 *     writers (a lost shape, a wrong colour or place in the output plan) fails too; and
 *   - our own rendering of the same output plan (renderPlan, mean |ΔRGB| on white, on the same
 *     device pixel grid), within a tight tolerance per reader:
 *   SVG  resvg (and Chromium for the size cases) at our device size; width/height/viewBox
 *        against the page (computePage).
 *   PDF  pdftoppm at the resolution giving our device size; pdfinfo page size in points;
 *        pdf-lib reloads it.
 *   EPS  Ghostscript (-dEPSCrop) at the matching resolution; %%HiResBoundingBox in points.
 *   DXF  ezdxf (tests/helpers/read-dxf.py, one interpreter for every file): entity types of the
 *        compatibility level, $EXTMIN/$EXTMAX = the page; fills rasterised back from ezdxf's
 *        flattened points (the writer leaves gap fillers out, so our reference does too);
 *        stroke styles: one entity per stroke path.
 *   PNG  decoded with fast-png at pngSize(plan); since it is our render, it is cross-checked
 *        against resvg's rendering of the SVG of the same fields (Chromium's where that SVG
 *        has non-scaling outlines: resvg ignores vector-effect).
 * Also: the same fields and image give byte-identical files, and a PNG too large is error 1023
 * with nothing written. Tables of the measured differences are printed at the end.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { decode as decodePng } from 'fast-png';
import { PDFDocument } from 'pdf-lib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planVectorize, runVectorize, traceBytes, type VectorizePlan } from '../../src/api/pipeline.js';
import { writeFile } from '../../src/api/write-file.js';
import { main } from '../../src/cli/main.js';
import { TracelabError } from '../../src/engine/errors.js';
import type { RgbaImage, TraceResult } from '../../src/engine/types.js';
import { computePage, pixelsPerUnit, pointsPerUnit, svgUnitSuffix } from '../../src/formats/page.js';
import { buildPlan, forEachDrawable, type OutputPlan, type PlanItem } from '../../src/formats/plan.js';
import { pngSize, renderPlan, type PngSize } from '../../src/formats/png.js';
import type { FileFormat, OutputOptions } from '../../src/formats/types.js';
import { launchChromium } from '../helpers/chromium.js';
import { encodePng } from '../helpers/encode.js';
import { drawCells, drawShape, disc, rect, type Rgb } from '../helpers/raster.js';
import {
  ChromiumSvgRenderer,
  decodePngRgba,
  diffOnCommonArea,
  grossShareOnCommonArea,
  onDeviceGrid,
  parseXmlFiles,
  pdfInfo,
  rasterizeDxf,
  readDxfFiles,
  renderEpsWithGhostscript,
  renderPdfWithPoppler,
  renderSvgResvg,
  svgRootAttributes,
  WorkDir,
  type DxfRead,
  type ToolRun,
  type XmlRead,
} from '../helpers/readers.js';

// ---------------------------------------------------------------------------------------------
// Tolerances. Two measures between a reader's pixels and ours (both flattened on white, same
// device grid): the mean |ΔRGB| (0–255), and the share of pixels off by more than GROSS_LEVELS
// in some channel, which ignores anti-aliasing but catches a missing or misplaced small shape
// that the mean dilutes (leaving out the smallest shape of these pictures moved the mean by only
// 0.5–0.8 against resvg, the gross share by 0.2–0.5 %). Each limit is about 2–3× the worst value measured over the whole
// matrix (Debian 12: resvg-js 2.6, Chromium, poppler 22.12, Ghostscript 10.00, ezdxf 0.18; the
// table printed at the end), with a floor of 0.1 % (~10 pixels) for a gross share measured 0.
// For scale: a half-pixel shift of these pictures at 1 px per unit costs a mean of 2–3.6.

interface Tolerance {
  /** Mean |ΔRGB| (0–255). */
  readonly mean: number;
  /** Share (0–1) of pixels off by more than GROSS_LEVELS in some channel. */
  readonly gross: number;
}
const GROSS_LEVELS = 96;

/** resvg, fills and scaling strokes. Worst measured 0.60 (pixel art, 50 mm page) / 0.04 % (logo, stretch). */
const SVG_RESVG_TOLERANCE: Tolerance = { mean: 1.5, gross: 0.001 };
/**
 * resvg with 1-px non-scaling outlines (stroke_shapes at 1 px per unit): tiny-skia anti-aliases
 * thin strokes its own way. Worst measured 1.39 (logo) / 0 %.
 */
const SVG_RESVG_THIN_STROKE_TOLERANCE: Tolerance = { mean: 3.5, gross: 0.001 };
/** Chromium (default and size cases). Worst measured 0.54 (logo, default) / 0 %. */
const SVG_CHROMIUM_TOLERANCE: Tolerance = { mean: 1.5, gross: 0.001 };
/** pdftoppm, fills and scaling strokes. Worst measured 0.98 (logo, stroke_edges 2 px) / 0.08 % (pixel art, overflow). */
const PDF_TOLERANCE: Tolerance = { mean: 2.5, gross: 0.002 };
/**
 * Ghostscript, fills and scaling strokes. Worst measured 2.47 / 1.49 % (pixel art on the 50 mm
 * page: edges at fractions of a pixel, where gs's 4-bit alpha and fill adjustment differ most;
 * elsewhere ≤ 1.9 / 0.3 %).
 */
const EPS_TOLERANCE: Tolerance = { mean: 6, gross: 0.035 };
/**
 * PDF/EPS with non-scaling outlines, which they write as hairlines (`0 w`: one device pixel
 * drawn the reader's way, against our exact 1-px line). Compared at HAIRLINE_RESOLUTION× our
 * usual device resolution, where the lines cover a quarter of the pixels they would at 1×.
 * Worst measured 2.95 / 2.78 % (poppler, pixel art: lattice lines that we spread over two
 * pixels and poppler puts on one); Ghostscript 1.37 / 0.22 %. The stroke_shapes set keeps
 * non_scaling_stroke=true (the default) on purpose, under this looser limit; the stroke_edges
 * set (non_scaling_stroke=false, 2 px) is held to PDF_TOLERANCE / EPS_TOLERANCE.
 */
const HAIRLINE_TOLERANCE: Tolerance = { mean: 6, gross: 0.06 };
const HAIRLINE_RESOLUTION = 4;
/** ezdxf's flattened entities rasterised per colour run. Worst measured 0.38 (logo, stacked) / 0 %. */
const DXF_TOLERANCE: Tolerance = { mean: 1, gross: 0.001 };
/** Our PNG against resvg drawing the same fields' SVG. Worst measured 0.60 (pixel art, 50 mm) / 0.16 % (logo, aliased). */
const PNG_RESVG_TOLERANCE: Tolerance = { mean: 1.5, gross: 0.004 };
/** Our PNG against Chromium (non-scaling outlines, which resvg ignores). Worst measured 0.39 (logo) / 0 %. */
const PNG_CHROMIUM_TOLERANCE: Tolerance = { mean: 1, gross: 0.001 };
/** Points: pdfinfo prints two decimals, our MediaBox / bounding box four. */
const PAGE_POINTS_TOLERANCE = 0.01;
/**
 * The photo against our render: several hundred small shapes, so many times the edge pixels of
 * the drawn fixtures, and on each edge the readers' anti-aliasing of thin strokes, hairlines and
 * seams differs from ours. Where its worst measured value is above the limit for the drawn
 * fixtures, its own limit, about 1.5× that value: resvg thin strokes 5.98 / 0.45 %, resvg
 * 2-px edges 1.90 / 0.28 %, poppler hairlines 6.46 / 2.43 %, poppler 2-px edges 2.30 / 0.34 %
 * and without gap filler 2.94 / 0 %, Chromium against our PNG's thin strokes 1.86 / 0.01 %.
 */
const PHOTO_TOLERANCE = new Map<Tolerance, Tolerance>([
  [SVG_RESVG_THIN_STROKE_TOLERANCE, { mean: 9, gross: 0.007 }],
  [SVG_RESVG_TOLERANCE, { mean: 3, gross: 0.005 }],
  [HAIRLINE_TOLERANCE, { mean: 10, gross: 0.06 }],
  [PDF_TOLERANCE, { mean: 4.5, gross: 0.005 }],
  [PNG_CHROMIUM_TOLERANCE, { mean: 3, gross: 0.001 }],
]);

/**
 * A reader's picture against the input picture on the same grid (fill styles), per fixture: what
 * tracing itself changes (anti-aliased edges become exact curves; the photo's grain and gradients
 * become flat colours) plus the reader's own way of drawing. Each limit is about 1.5× the worst
 * value measured over the fixture's readers and option sets (the second table printed at the end):
 * clipart 2.68 / 0.68 % (Ghostscript, 50 mm page), pixel art 2.72 / 1.32 % (Ghostscript, 50 mm),
 * logo 4.18 / 1.23 % (our aliased PNG), photo 5.02 / 0.01 % (Ghostscript). Drawn without the gap
 * filler (DXF fills; output.gap_filler.enabled=false) the photo has a seam between each two of its
 * many shapes: worst 8.50 / 0.01 % (ezdxf), its own limit (`seams`). At the default size the SVG,
 * PDF and EPS readers measure 0–1.5 (drawn fixtures) and 4.6–5.0 (photo). Changing the plan's
 * fills for every reader (red and blue swapped, or the second shape left out) fails every one of
 * these comparisons, while the comparisons with our render still pass.
 */
const INPUT_TOLERANCE: Readonly<Record<string, Tolerance & { readonly seams?: Tolerance }>> = {
  clipart: { mean: 4, gross: 0.01 },
  'pixel-art': { mean: 4, gross: 0.02 },
  logo: { mean: 6, gross: 0.02 },
  photo: { mean: 7.5, gross: 0.002, seams: { mean: 12.5, gross: 0.002 } },
};

// ---------------------------------------------------------------------------------------------
// Fixtures

const ellipse = (cx: number, cy: number, rx: number, ry: number, deg: number) => (x: number, y: number) => {
  const t = (deg * Math.PI) / 180;
  const u = (x - cx) * Math.cos(t) + (y - cy) * Math.sin(t);
  const v = -(x - cx) * Math.sin(t) + (y - cy) * Math.cos(t);
  return (u / rx) ** 2 + (v / ry) ** 2 <= 1;
};
const ring = (cx: number, cy: number, outer: number, inner: number) => (x: number, y: number) => {
  const d = (x - cx) ** 2 + (y - cy) ** 2;
  return d <= outer * outer && d >= inner * inner;
};

/** 120×80 flat clipart on a light background: a square holding a disc, a ring, a turned ellipse. */
function clipart(): RgbaImage {
  return drawShape(120, 80, [246, 242, 230], [
    { color: [40, 90, 170], inside: rect(8, 10, 50, 52) },
    { color: [235, 190, 40], inside: disc(29, 31, 12.5) },
    { color: [200, 50, 50], inside: ring(84, 24, 16, 8) },
    { color: [40, 150, 90], inside: ellipse(84, 60, 24, 10, 20) },
  ]);
}

/** A 24×16 sprite in four colours (a framed window with a hole, a heart, steps), cells ×4. */
function pixelArt(): RgbaImage {
  const rows = [
    '........................',
    '.####.........22.22.....',
    '.#..#........2222222....',
    '.#..#........2222222....',
    '.####.........22222.....',
    '...............222......',
    '................2.......',
    '........................',
    '..333333................',
    '..3....3.........1......',
    '..3.11.3........11......',
    '..3.11.3.......111......',
    '..3....3......1111......',
    '..333333.....11111......',
    '............111111......',
    '........................',
  ];
  const index: Record<string, number> = { '.': 0, '#': 1, '2': 2, '3': 3, '1': 4 };
  const palette: Rgb[] = [[250, 250, 245], [30, 30, 30], [220, 40, 80], [40, 110, 200], [60, 170, 60]];
  return drawCells(rows.map((r) => [...r].map((c) => index[c]!)), palette, 4);
}

/**
 * 100×70 logo on nothing: alpha 0 outside the shapes (anti-aliased edges carry coverage as
 * alpha), a ring whose hole is transparent, a bar with a disc over its end and an ellipse with
 * a lighter ellipse inside (shapes touching each other with anti-aliased borders).
 */
function logo(): RgbaImage {
  const width = 100;
  const height = 70;
  const layers: { color: Rgb; inside: (x: number, y: number) => boolean }[] = [
    { color: [210, 60, 40], inside: ring(28, 35, 23, 10.5) },
    { color: [30, 60, 140], inside: rect(56, 10.5, 86, 24.5) },
    { color: [245, 200, 40], inside: disc(86, 17.5, 9.3) },
    { color: [30, 140, 120], inside: ellipse(74, 50, 20, 10, -20) },
    { color: [190, 235, 220], inside: ellipse(74, 50, 11, 4.5, -20) },
  ];
  const data = new Uint8Array(width * height * 4);
  const ss = 8;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0, g = 0, b = 0, n = 0;
      for (let sy = 0; sy < ss; sy++) {
        for (let sx = 0; sx < ss; sx++) {
          let c: Rgb | undefined;
          for (const layer of layers) if (layer.inside(x + (sx + 0.5) / ss, y + (sy + 0.5) / ss)) c = layer.color;
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          n++;
        }
      }
      // Straight alpha: the covered samples' mean colour, their share as alpha.
      if (n > 0) data.set([Math.round(r / n), Math.round(g / n), Math.round(b / n), Math.round((255 * n) / (ss * ss))], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** A fixture: the input picture and the PNG file of it the tests trace. */
interface Fixture {
  readonly name: string;
  readonly image: RgbaImage;
  readonly png: Uint8Array;
  /**
   * How its pixels are drawn larger (device pixels smaller than input pixels) when comparing with
   * a reader: 'hard' as blocks (pixel art, traced onto the pixel grid), 'smooth' interpolated
   * (anti-aliased and photographic pictures, whose traced edges are smooth curves, not the blocks
   * of their edge pixels).
   */
  readonly edges: 'hard' | 'smooth';
}
const drawn = (name: string, image: RgbaImage, edges: Fixture['edges'] = 'smooth'): Fixture => ({ name, image, png: encodePng(image), edges });
const photoPng = new Uint8Array(readFileSync(new URL('../../public/samples/photo.png', import.meta.url)));

const FIXTURES: readonly Fixture[] = [
  drawn('clipart', clipart()),
  drawn('pixel-art', pixelArt(), 'hard'),
  drawn('logo', logo()),
  { name: 'photo', image: decodePngRgba(photoPng), png: photoPng, edges: 'smooth' },
];

// ---------------------------------------------------------------------------------------------
// Option sets (API fields) and formats

interface OptionSet {
  readonly name: string;
  readonly fields: readonly (readonly [string, string])[];
  /** Also rendered in Chromium (SVG). */
  readonly chromium?: boolean;
}

const BOX = [['output.size.width', '300'], ['output.size.height', '300'], ['output.size.align_x', '0'], ['output.size.align_y', '1']] as const;
const OPTION_SETS: readonly OptionSet[] = [
  { name: 'default', fields: [], chromium: true },
  { name: 'stroke_shapes', fields: [['output.draw_style', 'stroke_shapes']] },
  {
    name: 'stroke_edges override',
    fields: [
      ['output.draw_style', 'stroke_edges'],
      ['output.strokes.use_override_color', 'true'],
      ['output.strokes.override_color', '#FF00FF'],
      ['output.strokes.non_scaling_stroke', 'false'],
      ['output.strokes.stroke_width', '2'],
    ],
  },
  { name: 'stacked clip', fields: [['output.shape_stacking', 'stacked'], ['output.gap_filler.clip', 'true']] },
  { name: 'group color', fields: [['output.group_by', 'color']] },
  { name: 'group parent stacked', fields: [['output.group_by', 'parent'], ['output.shape_stacking', 'stacked']] },
  { name: 'group layer stacked', fields: [['output.group_by', 'layer'], ['output.shape_stacking', 'stacked']] },
  {
    name: 'lines only 0.03',
    fields: [
      ['output.curves.allowed.quadratic_bezier', 'false'],
      ['output.curves.allowed.cubic_bezier', 'false'],
      ['output.curves.allowed.circular_arc', 'false'],
      ['output.curves.allowed.elliptical_arc', 'false'],
      ['output.curves.line_fit_tolerance', '0.03'],
    ],
  },
  { name: 'flatten', fields: [['output.parameterized_shapes.flatten', 'true']] },
  { name: 'scale 2', fields: [['output.size.scale', '2']], chromium: true },
  { name: 'width 50 mm', fields: [['output.size.width', '50'], ['output.size.unit', 'mm']], chromium: true },
  { name: 'box inset', fields: [...BOX, ['output.size.aspect_ratio', 'preserve_inset']], chromium: true },
  { name: 'box overflow', fields: [...BOX, ['output.size.aspect_ratio', 'preserve_overflow']], chromium: true },
  { name: 'box stretch', fields: [...BOX, ['output.size.aspect_ratio', 'stretch']], chromium: true },
  { name: 'svg 1.0', fields: [['output.svg.version', 'svg_1_0']] },
  { name: 'svg tiny 1.2', fields: [['output.svg.version', 'svg_tiny_1_2']] },
  { name: 'svg fixed size', fields: [['output.svg.fixed_size', 'true']] },
  { name: 'svg adobe', fields: [['output.svg.adobe_compatibility_mode', 'true']] },
  { name: 'pdf uncompressed', fields: [['output.pdf.compression_mode', 'None']] },
  { name: 'dxf lines_only', fields: [['output.dxf.compatibility_level', 'lines_only']] },
  { name: 'dxf lines_and_arcs', fields: [['output.dxf.compatibility_level', 'lines_and_arcs']] },
  { name: 'dxf lines_arcs_and_splines', fields: [['output.dxf.compatibility_level', 'lines_arcs_and_splines']] },
  { name: 'aliased', fields: [['output.bitmap.anti_aliasing_mode', 'aliased']] },
  { name: 'no gap filler', fields: [['output.gap_filler.enabled', 'false']] },
];

const FORMATS: readonly FileFormat[] = ['svg', 'pdf', 'eps', 'dxf', 'png'];

const DXF_ALLOWED: Record<OutputOptions['dxf']['compatibility'], readonly string[]> = {
  lines_only: ['LWPOLYLINE', 'LINE'],
  lines_and_arcs: ['LWPOLYLINE', 'LINE', 'CIRCLE', 'ARC', 'ELLIPSE'],
  lines_arcs_and_splines: ['LWPOLYLINE', 'LINE', 'CIRCLE', 'ARC', 'ELLIPSE', 'SPLINE'],
};

// ---------------------------------------------------------------------------------------------
// One trace per fixture and stacking; files written the way runVectorize writes them

const traces = new Map<string, Promise<TraceResult>>();

function traceFor(fixture: Fixture, plan: VectorizePlan): Promise<TraceResult> {
  const key = `${fixture.name} ${JSON.stringify(plan.engineParams)}`;
  let t = traces.get(key);
  if (!t) traces.set(key, (t = traceBytes(plan, fixture.png).then((r) => r.result)));
  return t;
}

interface Made {
  readonly plan: VectorizePlan;
  readonly result: TraceResult;
  readonly outputPlan: OutputPlan;
  readonly bytes: Uint8Array;
}

async function make(fixture: Fixture, set: OptionSet, format: FileFormat): Promise<Made> {
  const plan = planVectorize([...set.fields, ['output.file_format', format]]);
  const result = await traceFor(fixture, plan);
  const bytes = await writeFile(result, plan.outputOptions);
  return { plan, result, outputPlan: buildPlan(result, { ...plan.outputOptions, fileFormat: format }), bytes };
}

function isStrokeStyle(plan: OutputPlan): boolean {
  return plan.options.drawStyle !== 'fill_shapes';
}

/** Our render of a plan for a vector reader: the readers anti-alias whatever output.bitmap says. */
function ourRender(plan: OutputPlan): RgbaImage {
  const { rgba, width, height } = renderPlan({ ...plan, options: { ...plan.options, bitmap: { antiAliased: true } } });
  return { width, height, data: rgba };
}

function withoutGapFiller(items: readonly PlanItem[]): PlanItem[] {
  const out: PlanItem[] = [];
  for (const item of items) {
    if (item.kind === 'group') out.push({ ...item, items: withoutGapFiller(item.items) });
    else if (!(item.kind === 'stroke' && item.role === 'gap_filler')) out.push(item);
  }
  return out;
}

function strokePathCount(plan: OutputPlan): number {
  let n = 0;
  forEachDrawable(plan.items, (item) => {
    if (item.kind === 'stroke' && item.role === 'outline') n += item.paths.length;
  });
  return n;
}

/** Device pixels per point when our render of `plan` is matched by a reader of points. */
function matchingDpi(plan: OutputPlan): number {
  return (72 * pixelsPerUnit(plan.page)) / pointsPerUnit(plan.page);
}

/** A reader's measures against our render of the same plan, and the fixture they were taken on. */
interface Measure {
  readonly mean: number;
  readonly gross: number;
  readonly fixture: Fixture;
}

function expectWithin(m: Measure, tolerance: Tolerance): void {
  const t = (m.fixture.name === 'photo' ? PHOTO_TOLERANCE.get(tolerance) : undefined) ?? tolerance;
  expect(m.mean, 'mean |ΔRGB|').toBeLessThanOrEqual(t.mean);
  expect(m.gross, `share of pixels off by > ${GROSS_LEVELS}`).toBeLessThanOrEqual(t.gross);
}

function expectCleanRun(run: ToolRun, what: string): void {
  expect(run.stderr, `${what} stderr`).toBe('');
  expect(run.status, `${what} exit status`).toBe(0);
}

function sha(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Measurements, printed at the end

const measured = new Map<string, Map<string, { mean: number; gross: number }>>();
const COLUMNS = ['svg·resvg', 'svg·chromium', 'pdf·poppler', 'eps·gs', 'dxf·ezdxf', 'png~resvg', 'png~chromium'] as const;
type Column = (typeof COLUMNS)[number];

const measuredInput = new Map<string, Map<string, { mean: number; gross: number }>>();
const INPUT_COLUMNS = ['svg·resvg', 'svg·chromium', 'pdf·poppler', 'eps·gs', 'dxf·ezdxf', 'png'] as const;
type InputColumn = (typeof INPUT_COLUMNS)[number];

/**
 * The input picture on a plan's device grid (`size`): each device pixel the mean of 4×4 samples,
 * each sample the input pixel under it, or — drawn larger than 1:1, 'smooth' edges — interpolated
 * between the four nearest pixel centres; premultiplied, straight alpha out; transparent off the
 * picture.
 */
const inputGrids = new Map<string, RgbaImage>();
function inputOnGrid(fixture: Fixture, result: TraceResult, size: PngSize): RgbaImage {
  const key = `${fixture.name} ${size.width} ${size.height} ${size.scaleX} ${size.scaleY} ${size.offsetX} ${size.offsetY}`;
  const cached = inputGrids.get(key);
  if (cached) return cached;
  const input = fixture.image;
  const { width, height } = size;
  // Device pixels → input pixels (traced coordinates are input pixels × result.width / inputWidth).
  const kx = result.inputWidth / result.width / size.scaleX;
  const ky = result.inputHeight / result.height / size.scaleY;
  const S = 4;
  const interpolate = fixture.edges === 'smooth' && Math.min(kx, ky) < 1;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < S; sy++) {
        const fy = (y + (sy + 0.5) / S - size.offsetY) * ky;
        if (fy < 0 || fy >= input.height) continue;
        for (let sx = 0; sx < S; sx++) {
          const fx = (x + (sx + 0.5) / S - size.offsetX) * kx;
          if (fx < 0 || fx >= input.width) continue;
          const add = (ix: number, iy: number, weight: number): void => {
            const o = (Math.min(input.height - 1, Math.max(0, iy)) * input.width + Math.min(input.width - 1, Math.max(0, ix))) * 4;
            const alpha = input.data[o + 3]! * weight;
            r += input.data[o]! * alpha;
            g += input.data[o + 1]! * alpha;
            b += input.data[o + 2]! * alpha;
            a += alpha;
          };
          if (!interpolate) {
            add(Math.floor(fx), Math.floor(fy), 1);
            continue;
          }
          const u = fx - 0.5;
          const v = fy - 0.5;
          const ix = Math.floor(u);
          const iy = Math.floor(v);
          const tx = u - ix;
          const ty = v - iy;
          add(ix, iy, (1 - tx) * (1 - ty));
          add(ix + 1, iy, tx * (1 - ty));
          add(ix, iy + 1, (1 - tx) * ty);
          add(ix + 1, iy + 1, tx * ty);
        }
      }
      if (a > 0) data.set([Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round(a / (S * S))], (y * width + x) * 4);
    }
  }
  const grid = { width, height, data };
  inputGrids.set(key, grid);
  return grid;
}

/** Compares a reader's pixels with the input picture on the same grid, records the measures, and checks the fixture's tolerance. */
function expectLikeInput(fixture: Fixture, set: OptionSet, column: InputColumn, theirs: RgbaImage, result: TraceResult, size: PngSize): void {
  const input = inputOnGrid(fixture, result, size);
  const m = { mean: diffOnCommonArea(input, theirs), gross: grossShareOnCommonArea(input, theirs, GROSS_LEVELS) };
  const row = `${fixture.name} / ${set.name}`;
  let r = measuredInput.get(row);
  if (!r) measuredInput.set(row, (r = new Map()));
  r.set(column, m);
  const seams = column === 'dxf·ezdxf' || set.fields.some(([n, v]) => n === 'output.gap_filler.enabled' && v === 'false');
  const limits = INPUT_TOLERANCE[fixture.name]!;
  const tolerance = (seams ? limits.seams : undefined) ?? limits;
  expect(m.mean, `${column} against the input: mean |ΔRGB|`).toBeLessThanOrEqual(tolerance.mean);
  expect(m.gross, `${column} against the input: share of pixels off by > ${GROSS_LEVELS}`).toBeLessThanOrEqual(tolerance.gross);
}

/** Compares a reader's pixels with ours, records both measures, and returns them. */
function compare(fixture: Fixture, set: OptionSet, column: Column, ours: RgbaImage, theirs: RgbaImage): Measure {
  const m = { mean: diffOnCommonArea(ours, theirs), gross: grossShareOnCommonArea(ours, theirs, GROSS_LEVELS), fixture };
  const row = `${fixture.name} / ${set.name}`;
  let r = measured.get(row);
  if (!r) measured.set(row, (r = new Map()));
  r.set(column, m);
  return m;
}

const dir = new WorkDir();
let browser: Browser | undefined;
let chromium: ChromiumSvgRenderer | undefined;
/** One Chromium for the whole file, started on first use. */
async function renderInChromium(svg: string, width: number, height: number): Promise<RgbaImage> {
  browser ??= await launchChromium();
  chromium ??= new ChromiumSvgRenderer(browser);
  return chromium.render(svg, width, height);
}
const started = Date.now();

afterAll(async () => {
  await browser?.close();
  dir.remove();
  const pad = (s: string, n: number): string => s.padEnd(n);
  const lines = [
    `Reader vs our render (${((Date.now() - started) / 1000).toFixed(1)} s): mean |ΔRGB| on white / % of pixels off by > ${GROSS_LEVELS}. ` +
      'png~X: our PNG vs X drawing the SVG of the same fields. -: not compared.',
  ];
  lines.push(`${pad('fixture / option set', 38)}${COLUMNS.map((c) => c.padStart(14)).join('')}`);
  const worst = new Map<string, { mean: number; gross: number }>();
  for (const [row, m] of measured) {
    const cell = (c: Column): string => {
      const v = m.get(c);
      return (v ? `${v.mean.toFixed(2)}/${(v.gross * 100).toFixed(2)}` : '-').padStart(14);
    };
    lines.push(`${pad(row, 38)}${COLUMNS.map(cell).join('')}`);
    const kind = /stroke_shapes/.test(row) ? ' (thin/hairline)' : '';
    for (const [c, v] of m) {
      const w = worst.get(c + kind) ?? { mean: 0, gross: 0 };
      worst.set(c + kind, { mean: Math.max(w.mean, v.mean), gross: Math.max(w.gross, v.gross) });
    }
  }
  lines.push(`worst: ${[...worst].map(([c, v]) => `${c} ${v.mean.toFixed(3)}/${(v.gross * 100).toFixed(2)}%`).join(', ')}`);
  lines.push('', 'Reader vs the input picture (fill styles), same measures:');
  lines.push(`${pad('fixture / option set', 38)}${INPUT_COLUMNS.map((c) => c.padStart(14)).join('')}`);
  const worstInput = new Map<string, { mean: number; gross: number }>();
  for (const [row, m] of measuredInput) {
    const cell = (c: InputColumn): string => {
      const v = m.get(c);
      return (v ? `${v.mean.toFixed(2)}/${(v.gross * 100).toFixed(2)}` : '-').padStart(14);
    };
    lines.push(`${pad(row, 38)}${INPUT_COLUMNS.map(cell).join('')}`);
    const fixture = row.split(' / ')[0]!;
    for (const v of m.values()) {
      const w = worstInput.get(fixture) ?? { mean: 0, gross: 0 };
      worstInput.set(fixture, { mean: Math.max(w.mean, v.mean), gross: Math.max(w.gross, v.gross) });
    }
  }
  lines.push(`worst against the input: ${[...worstInput].map(([f, v]) => `${f} ${v.mean.toFixed(3)}/${(v.gross * 100).toFixed(2)}%`).join(', ')}`);
  console.log(lines.join('\n'));
});

// ---------------------------------------------------------------------------------------------
// Readers that are Python programs read every file in one batch (one interpreter start; ezdxf
// alone takes a third of a second to import) before the tests that check the results.

const dxfReads = new Map<string, DxfRead>();
const xmlReads = new Map<string, XmlRead>();
const batchRuns: { name: string; run: ToolRun }[] = [];

async function writeDistinct(format: FileFormat): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const fixture of FIXTURES) {
    for (const set of OPTION_SETS) {
      const { bytes } = await make(fixture, set, format);
      const key = sha(bytes);
      if (!files.has(key)) files.set(key, dir.file(format, bytes));
    }
  }
  return files;
}

beforeAll(async () => {
  const dxf = await writeDistinct('dxf');
  const dxfBatch = readDxfFiles([...dxf.values()]);
  batchRuns.push({ name: 'python3 read-dxf.py (ezdxf)', run: dxfBatch.run });
  [...dxf.keys()].forEach((key, i) => dxfReads.set(key, dxfBatch.reads[i]!));
  const svg = await writeDistinct('svg');
  const xmlBatch = parseXmlFiles([...svg.values()]);
  batchRuns.push({ name: 'python3 xml.dom.minidom', run: xmlBatch.run });
  [...svg.keys()].forEach((key, i) => xmlReads.set(key, xmlBatch.reads[i]!));
}, 60_000);

function expectBatchRunsClean(): void {
  expect(batchRuns.length).toBe(2);
  for (const { name, run } of batchRuns) expectCleanRun(run, name);
}

// ---------------------------------------------------------------------------------------------
// Per-format checks

/**
 * Reader results by file content: several option sets give the same bytes in formats they do
 * not concern (output.svg.* in a PDF, …), and a reader's answer depends on the bytes alone.
 */
const readerCache = new Map<string, Promise<unknown>>();
function cachedRead<T>(key: string, read: () => Promise<T>): Promise<T> {
  let r = readerCache.get(key) as Promise<T> | undefined;
  if (!r) readerCache.set(key, (r = read()));
  return r;
}

/** Non-scaling outline strokes: PDF and EPS write them as hairlines (`0 w`). */
function hasNonScalingOutline(plan: OutputPlan): boolean {
  let found = false;
  forEachDrawable(plan.items, (item) => {
    if (item.kind === 'stroke' && item.role === 'outline' && item.nonScaling) found = true;
  });
  return found;
}

/**
 * The plan drawn `factor` times finer (output DPI only; the PDF/EPS bytes do not depend on it).
 * Only for physical page units, whose device pixels follow the output DPI.
 */
function finer(plan: OutputPlan, factor: number): OutputPlan {
  if (plan.page.unit === 'none' || plan.page.unit === 'px') throw new Error('finer() needs a physical page unit');
  return { ...plan, page: { ...plan.page, outputDpi: plan.page.outputDpi * factor } };
}

async function checkSvg(fixture: Fixture, set: OptionSet, made: Made): Promise<void> {
  const { outputPlan: plan, result } = made;
  const svg = new TextDecoder().decode(made.bytes);
  // Well-formed XML (expat), an <svg> root in the SVG namespace.
  expectBatchRunsClean();
  expect(xmlReads.get(sha(made.bytes))).toEqual({ error: '', root: 'svg', namespace: 'http://www.w3.org/2000/svg' });
  // Size attributes against the page.
  const page = computePage(result, plan.options.size, 'svg');
  expect(plan.page).toEqual(page);
  const attrs = svgRootAttributes(svg);
  const numbers = (s: string | undefined): number[] => (s ?? '').trim().split(/[\s,]+/).map(Number);
  if (!page.explicitSize) {
    expect(numbers(attrs.viewBox)).toEqual([0, 0, result.inputWidth, result.inputHeight]);
    if (plan.options.svg.fixedSize) {
      expect([attrs.width, attrs.height]).toEqual([String(result.inputWidth), String(result.inputHeight)]);
    } else {
      expect(attrs.width).toBeUndefined();
      expect(attrs.height).toBeUndefined();
    }
  } else {
    const suffix = svgUnitSuffix(page.unit);
    for (const [name, value] of [['width', page.width], ['height', page.height]] as const) {
      const text = attrs[name]!;
      expect(text.endsWith(suffix)).toBe(true);
      expect(Number(text.slice(0, text.length - suffix.length))).toBeCloseTo(value, 5);
    }
    const fitX = (page.scaleX * result.width) / result.inputWidth;
    const fitY = (page.scaleY * result.height) / result.inputHeight;
    const box = numbers(attrs.viewBox);
    [-page.offsetX / fitX, -page.offsetY / fitY, page.width / fitX, page.height / fitY].forEach((v, i) => expect(box[i]).toBeCloseTo(v, 5));
    expect(attrs.preserveAspectRatio).toBe(plan.options.size.aspectRatio === 'stretch' ? 'none' : undefined);
  }
  // Pixels, on our device grid.
  const ours = ourRender(plan);
  const ppu = pixelsPerUnit(page);
  const device = onDeviceGrid(svg, page.width * ppu, page.height * ppu);
  const byResvg = renderSvgResvg(device);
  const resvg = compare(fixture, set, 'svg·resvg', ours, byResvg);
  expectWithin(resvg, hasNonScalingOutline(plan) ? SVG_RESVG_THIN_STROKE_TOLERANCE : SVG_RESVG_TOLERANCE);
  const fills = !isStrokeStyle(plan);
  if (fills) expectLikeInput(fixture, set, 'svg·resvg', byResvg, result, pngSize(plan));
  if (set.chromium) {
    const byChromium = await renderInChromium(device, ours.width, ours.height);
    expectWithin(compare(fixture, set, 'svg·chromium', ours, byChromium), SVG_CHROMIUM_TOLERANCE);
    if (fills) expectLikeInput(fixture, set, 'svg·chromium', byChromium, result, pngSize(plan));
  }
}

async function checkPdf(fixture: Fixture, set: OptionSet, made: Made): Promise<void> {
  const plan = made.outputPlan;
  const k = pointsPerUnit(plan.page);
  const hairline = hasNonScalingOutline(plan);
  const reference = hairline ? finer(plan, HAIRLINE_RESOLUTION) : plan;
  const key = `${sha(made.bytes)} ${matchingDpi(reference)}`;
  const [info, rendered, pages] = await Promise.all([
    cachedRead(`pdfinfo ${key}`, () => pdfInfo(dir, made.bytes)),
    cachedRead(`pdftoppm ${key}`, () => renderPdfWithPoppler(dir, made.bytes, matchingDpi(reference))),
    cachedRead(`pdf-lib ${key}`, async () => (await PDFDocument.load(made.bytes, { updateMetadata: false, throwOnInvalidObject: true })).getPageCount()),
  ]);
  expectCleanRun(info.run, 'pdfinfo');
  expectCleanRun(rendered.run, 'pdftoppm');
  expect(Math.abs(info.width - plan.page.width * k)).toBeLessThanOrEqual(PAGE_POINTS_TOLERANCE);
  expect(Math.abs(info.height - plan.page.height * k)).toBeLessThanOrEqual(PAGE_POINTS_TOLERANCE);
  expect(pages).toBe(1);
  expectWithin(compare(fixture, set, 'pdf·poppler', ourRender(reference), rendered.image!), hairline ? HAIRLINE_TOLERANCE : PDF_TOLERANCE);
  if (!isStrokeStyle(plan)) expectLikeInput(fixture, set, 'pdf·poppler', rendered.image!, made.result, pngSize(reference));
}

async function checkEps(fixture: Fixture, set: OptionSet, made: Made): Promise<void> {
  const plan = made.outputPlan;
  const k = pointsPerUnit(plan.page);
  const text = new TextDecoder().decode(made.bytes);
  const m = /^%%HiResBoundingBox: 0 0 ([\d.]+) ([\d.]+)$/m.exec(text);
  expect(m).not.toBeNull();
  expect(Math.abs(Number(m![1]) - plan.page.width * k)).toBeLessThanOrEqual(PAGE_POINTS_TOLERANCE);
  expect(Math.abs(Number(m![2]) - plan.page.height * k)).toBeLessThanOrEqual(PAGE_POINTS_TOLERANCE);
  const hairline = hasNonScalingOutline(plan);
  const reference = hairline ? finer(plan, HAIRLINE_RESOLUTION) : plan;
  const dpi = matchingDpi(reference);
  const rendered = await cachedRead(`gs ${sha(made.bytes)} ${dpi}`, () => renderEpsWithGhostscript(dir, made.bytes, dpi));
  expectCleanRun(rendered.run, 'gs');
  expect(rendered.run.stdout).toBe('');
  expectWithin(compare(fixture, set, 'eps·gs', ourRender(reference), rendered.image!), hairline ? HAIRLINE_TOLERANCE : EPS_TOLERANCE);
  if (!isStrokeStyle(plan)) expectLikeInput(fixture, set, 'eps·gs', rendered.image!, made.result, pngSize(reference));
}

function checkDxf(fixture: Fixture, set: OptionSet, made: Made): void {
  const plan = made.outputPlan;
  expectBatchRunsClean();
  const read = dxfReads.get(sha(made.bytes));
  expect(read, 'the batch read this file').toBeDefined();
  expect(read!.error).toBe('');
  expect(read!.stderr).toBe('');
  const report = read!.report!;
  expect(report.dxfversion).toBe('AC1021');
  expect(report.audit).toEqual({ errors: 0, fixes: 0, messages: [] });
  expect(report.structure).toEqual([]);
  // ezdxf logs (INFO) the default dictionaries it adds to every document it loads; nothing else.
  for (const message of report.load_messages) expect(message).toMatch(/^INFO: creating ACAD_\w+ dictionary$/);
  expect(report.extmin.slice(0, 2)).toEqual([0, 0]);
  expect(report.extmax[0]).toBeCloseTo(plan.page.width, 6);
  expect(report.extmax[1]).toBeCloseTo(plan.page.height, 6);
  const allowed = DXF_ALLOWED[plan.options.dxf.compatibility];
  expect(report.entities.length).toBeGreaterThan(0);
  for (const e of report.entities) {
    expect(allowed).toContain(e.dxftype);
    expect(report.layers).toContain(e.layer);
    if (plan.options.dxf.compatibility === 'lines_only') expect(e.has_bulges).toBe(false);
  }
  if (isStrokeStyle(plan)) {
    // Outlines have no inside to compare: one entity per stroke path, and there are some.
    expect(report.entities.length).toBe(strokePathCount(plan));
    return;
  }
  const size = pngSize(plan);
  const ours = ourRender({ ...plan, items: withoutGapFiller(plan.items) });
  const theirs = rasterizeDxf(report, plan.page.height, size.pixelsPerUnit, size.width, size.height);
  expectWithin(compare(fixture, set, 'dxf·ezdxf', ours, theirs), DXF_TOLERANCE);
  expectLikeInput(fixture, set, 'dxf·ezdxf', theirs, made.result, size);
}

async function checkPng(fixture: Fixture, set: OptionSet, made: Made): Promise<void> {
  const plan = made.outputPlan;
  const png = decodePng(made.bytes);
  const size = pngSize(plan);
  expect([png.width, png.height, png.depth, png.channels]).toEqual([size.width, size.height, 8, 4]);
  const image: RgbaImage = { width: png.width, height: png.height, data: png.data as Uint8Array };
  if (!isStrokeStyle(plan)) expectLikeInput(fixture, set, 'png', image, made.result, size);
  // The SVG of the same fields, drawn on the PNG's pixel grid.
  const svgMade = await make(fixture, set, 'svg');
  const svgPage = svgMade.outputPlan.page;
  expect(svgPage.width / svgPage.height).toBeCloseTo(plan.page.width / plan.page.height, 9);
  const crisp = plan.options.bitmap.antiAliased ? '' : ' shape-rendering="crispEdges"';
  const ppu = pixelsPerUnit(plan.page);
  const device = onDeviceGrid(new TextDecoder().decode(svgMade.bytes), plan.page.width * ppu, plan.page.height * ppu, crisp);
  if (hasNonScalingOutline(plan)) {
    // resvg ignores vector-effect="non-scaling-stroke" (its strokes would be 4× wider): Chromium.
    expectWithin(compare(fixture, set, 'png~chromium', image, await renderInChromium(device, image.width, image.height)), PNG_CHROMIUM_TOLERANCE);
    return;
  }
  expectWithin(compare(fixture, set, 'png~resvg', image, renderSvgResvg(device)), PNG_RESVG_TOLERANCE);
}

// ---------------------------------------------------------------------------------------------

describe.each(FIXTURES)('$name', (fixture) => {
  describe.each(OPTION_SETS)('$name', (set) => {
    it.each(FORMATS)('%s opens cleanly and matches our render', async (format) => {
      const made = await make(fixture, set, format);
      switch (format) {
        case 'svg':
          return checkSvg(fixture, set, made);
        case 'pdf':
          return checkPdf(fixture, set, made);
        case 'eps':
          return checkEps(fixture, set, made);
        case 'dxf':
          return checkDxf(fixture, set, made);
        case 'png':
          return checkPng(fixture, set, made);
      }
    });
  });

  describe('determinism', () => {
    const FIELD_SETS = OPTION_SETS.filter((s) => s.name === 'default' || s.name === 'group parent stacked');
    it.each(FORMATS)('%s: the same fields and image twice give the same bytes', async (format) => {
      for (const set of FIELD_SETS) {
        const plan = planVectorize([...set.fields, ['output.file_format', format]]);
        const a = await runVectorize(plan, fixture.png);
        const b = await runVectorize(planVectorize([...set.fields, ['output.file_format', format]]), fixture.png);
        expect(sha(b.body)).toBe(sha(a.body));
        // The shortcut this file takes (one trace reused, writeFile) gives those very bytes.
        expect(sha((await make(fixture, set, format)).bytes)).toBe(sha(a.body));
      }
    });
  });
});

describe('PNG larger than the maximum result size', () => {
  it('output.size.scale=1000 is TracelabError 1023 and nothing is written', async () => {
    const fields: [string, string][] = [['output.file_format', 'png'], ['output.size.scale', '1000']];
    const error = await runVectorize(planVectorize(fields), FIXTURES[0].png).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TracelabError);
    expect((error as TracelabError).code).toBe(1023);
    // The CLI, as users run it: exit status 2, error 1023 on stderr, no output file, no stdout.
    const input = dir.file('png', FIXTURES[0].png);
    const output = dir.file('png');
    let stdout = 0;
    let stderr = '';
    const saved = process.env.VECTORIZER_API_URL;
    delete process.env.VECTORIZER_API_URL;
    try {
      const status = await main(['vectorize', input, '-o', output, ...fields.flatMap(([n, v]) => ['--param', `${n}=${v}`])], {
        readStdin: async () => new Uint8Array(0),
        writeStdout: async (d) => void (stdout += d.length),
        writeStderr: (t) => void (stderr += t),
      });
      expect(status).toBe(2);
    } finally {
      if (saved !== undefined) process.env.VECTORIZER_API_URL = saved;
    }
    expect(stderr).toMatch(/^tracelab: error 1023: /);
    expect(stdout).toBe(0);
    // Neither the file nor a temporary file beside it.
    expect(readdirSync(dir.path).filter((name) => name.startsWith(basename(output, '.png')))).toEqual([]);
  });
});
