/**
 * PDF and EPS writers, checked with real readers: poppler's pdftoppm/pdfinfo and Ghostscript
 * render the files, and the pixels are compared with our own rasteriser at the same size; pdf-lib
 * reloads the PDF. Fixtures are small images drawn here and traced with the engine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decode } from 'fast-png';
import { unzlibSync } from 'fflate';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { SegmentPath } from '../../src/engine/segment-path.js';
import type { EngineParams, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { writeEps } from '../../src/formats/eps.js';
import { appendPath, formatNumber } from '../../src/formats/ps-path.js';
import { TextSink } from '../../src/formats/text-sink.js';
import { pointsPerUnit } from '../../src/formats/page.js';
import { writePdf } from '../../src/formats/pdf.js';
import { buildPlan, type OutputPlan, type StrokeItem } from '../../src/formats/plan.js';
import { rasterizeShapes } from '../../src/formats/raster.js';
import { DEFAULT_OUTPUT_OPTIONS, outputOptions, type OutputOptions } from '../../src/formats/types.js';
import { meanAbsDiff } from '../helpers/compare.js';
import { disc, drawShape, rect } from '../helpers/raster.js';

/**
 * Mean |ΔRGB| (0–255, both flattened on white) allowed between a reader and our rasteriser.
 * Measured 0.15–0.5 with Debian 12's poppler 22.12 and Ghostscript 10.00: only anti-aliasing
 * along the edges differs. A half-pixel shift or a wrong hole costs several levels.
 */
const TOLERANCE = 1.5;
/** Render resolution: 4 device pixels per point, so a 1 pt = 1 px page is 4× the input. */
const DPI = 288;

const WHITE = [255, 255, 255] as const;
const work = mkdtempSync(join(tmpdir(), 'tracelab-pdf-eps-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let fileCounter = 0;

// ---------------------------------------------------------------------------------------------
// Fixtures

/** A disc partly under a rectangle: curves, a shared straight border and a background. */
function discAndRect(): RgbaImage {
  return drawShape(64, 48, WHITE, [
    { color: [200, 30, 40], inside: disc(24, 24, 16) },
    { color: [20, 90, 160], inside: rect(36, 8, 58, 40) },
  ]);
}

/** A ring: a shape with a hole, and a shape inside the hole. */
function ring(): RgbaImage {
  return drawShape(56, 52, [250, 240, 200], [
    { color: [30, 120, 60], inside: disc(28, 26, 21) },
    { color: [250, 240, 200], inside: disc(28, 26, 11) },
    { color: [90, 40, 150], inside: disc(28, 26, 5.5) },
  ]);
}

function trace(image: RgbaImage, params: EngineParams = DEFAULT_ENGINE_PARAMS): TraceResult {
  return traceImage(image, params);
}

/**
 * A red disc at alpha 128 on nothing: the palette deletes the white background and remaps the
 * red to a translucent red (the engine itself only outputs opaque colours).
 */
function translucentDisc(): TraceResult {
  const image = drawShape(40, 36, WHITE, [{ color: [200, 30, 40], inside: disc(20, 18, 13) }]);
  return trace(image, {
    ...DEFAULT_ENGINE_PARAMS,
    maxColors: 2,
    palette: [
      { color: { r: 255, g: 255, b: 255, a: 0 }, tolerance: 0.3 },
      { color: { r: 200, g: 30, b: 40, a: 255 }, remap: { r: 200, g: 30, b: 40, a: 128 }, tolerance: 2 },
    ],
  });
}

function plan(result: TraceResult, format: 'pdf' | 'eps', overrides: Partial<OutputOptions> = {}): OutputPlan {
  return buildPlan(result, outputOptions({ fileFormat: format, ...overrides }));
}

const NO_GAP_FILLER = { gapFiller: { ...DEFAULT_OUTPUT_OPTIONS.gapFiller, enabled: false } };

// ---------------------------------------------------------------------------------------------
// Readers

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[]): Run {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tempPath(extension: string): string {
  return join(work, `f${fileCounter++}.${extension}`);
}

function decodePng(path: string): RgbaImage {
  const png = decode(readFileSync(path));
  if (png.depth !== 8) throw new Error(`unexpected PNG depth ${png.depth}`);
  const n = png.width * png.height;
  const data = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 4; c++) data[i * 4 + c] = c < png.channels ? png.data[i * png.channels + c]! : 255;
    if (png.channels === 2 || png.channels === 1) {
      // Grey (+ alpha): spread the grey over RGB.
      const g = png.data[i * png.channels]!;
      data[i * 4] = data[i * 4 + 1] = data[i * 4 + 2] = g;
      data[i * 4 + 3] = png.channels === 2 ? png.data[i * 2 + 1]! : 255;
    }
  }
  return { width: png.width, height: png.height, data };
}

/** pdftoppm's rendering (white page) of a PDF at `dpi`. */
function renderPdf(bytes: Uint8Array, dpi = DPI): RgbaImage {
  const file = tempPath('pdf');
  writeFileSync(file, bytes);
  const prefix = tempPath('out');
  const r = run('pdftoppm', ['-png', '-singlefile', '-r', String(dpi), file, prefix]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return decodePng(`${prefix}.png`);
}

/** "Page size: W x H pts" from pdfinfo. */
function pdfPageSize(bytes: Uint8Array): { width: number; height: number } {
  const file = tempPath('pdf');
  writeFileSync(file, bytes);
  const r = run('pdfinfo', [file]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const m = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(r.stdout);
  if (!m) throw new Error(`no page size in pdfinfo output:\n${r.stdout}`);
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** Ghostscript's rendering (transparent page) of an EPS cropped to its bounding box. */
function renderEps(text: string, dpi = DPI): RgbaImage {
  const file = tempPath('eps');
  writeFileSync(file, text, 'latin1');
  const out = tempPath('png');
  const r = run('gs', ['-dSAFER', '-dBATCH', '-dNOPAUSE', '-dQUIET', '-sDEVICE=pngalpha', '-dEPSCrop', `-r${dpi}`, '-dGraphicsAlphaBits=4', `-sOutputFile=${out}`, file]);
  expect(r.stderr).toBe('');
  expect(r.stdout).toBe('');
  expect(r.status).toBe(0);
  return decodePng(out);
}

/** Our rasteriser at the reader's pixel size (the page maps traced units with no offset here). */
function reference(p: OutputPlan, width: number, height: number, dpi = DPI): RgbaImage {
  const devicePerUnit = (pointsPerUnit(p.page) * dpi) / 72;
  const data = rasterizeShapes(p.result, {
    width,
    height,
    scaleX: p.page.scaleX * devicePerUnit,
    scaleY: p.page.scaleY * devicePerUnit,
    antiAliased: true,
  });
  return { width, height, data };
}

function pageInPoints(p: OutputPlan): { width: number; height: number } {
  const k = pointsPerUnit(p.page);
  return { width: p.page.width * k, height: p.page.height * k };
}

/** The page's content stream, inflated when compressed. */
async function contentOf(bytes: Uint8Array): Promise<{ text: string; filtered: boolean }> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  // Read the page dictionary as written (pdf-lib's page API wraps Contents in an array).
  const pages = doc.catalog.Pages();
  expect(pages.Kids().size()).toBe(1);
  const leaf = doc.context.lookup(pages.Kids().get(0), PDFDict);
  const stream = doc.context.lookup(leaf.get(PDFName.of('Contents')));
  if (!(stream instanceof PDFRawStream)) throw new Error('the page has no single content stream');
  const filtered = stream.dict.get(PDFName.of('Filter')) !== undefined;
  const raw = stream.getContents();
  return { text: Buffer.from(filtered ? unzlibSync(raw) : raw).toString('latin1'), filtered };
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('latin1');
}

/** Share of pixels (0–1) darker than `level` in any channel after flattening on white. */
function inkShare(img: RgbaImage, level = 200): number {
  let ink = 0;
  const n = img.width * img.height;
  for (let i = 0; i < n; i++) {
    const a = img.data[i * 4 + 3]! / 255;
    let min = 255;
    for (let c = 0; c < 3; c++) min = Math.min(min, img.data[i * 4 + c]! * a + 255 * (1 - a));
    if (min < level) ink++;
  }
  return ink / n;
}

/** RGB of a pixel flattened on white. */
function pixel(img: RgbaImage, x: number, y: number): [number, number, number] {
  const o = (y * img.width + x) * 4;
  const a = img.data[o + 3]! / 255;
  return [0, 1, 2].map((c) => Math.round(img.data[o + c]! * a + 255 * (1 - a))) as [number, number, number];
}

/**
 * A plan holding only the filler stroke along the disc/rectangle border, 6 px wide, clipped to
 * the rectangle alone: whatever is drawn must lie inside the rectangle (x ≥ 36 input px).
 */
function clipOnlyPlan(format: 'pdf' | 'eps'): OutputPlan {
  const result = trace(discAndRect());
  const p = plan(result, format, { gapFiller: { enabled: true, clip: true, nonScalingStroke: false, strokeWidthPx: 2 } });
  const isRect = (i: number): boolean => result.shapes[i]!.color.b > 120 && result.shapes[i]!.color.r < 60;
  const isDisc = (i: number): boolean => result.shapes[i]!.color.r > 150 && result.shapes[i]!.color.g < 80;
  const filler = p.items.find((it): it is StrokeItem => it.kind === 'stroke' && it.clipShapes !== undefined && it.clipShapes.some(isRect) && it.clipShapes.some(isDisc));
  if (!filler) throw new Error('no filler between the disc and the rectangle');
  const rectShape = filler.clipShapes!.find(isRect)!;
  return { ...p, items: [{ ...filler, widthPx: 6, clipShapes: [rectShape] }] };
}

/** Ink in input-pixel columns [x0, x1) of the rows y 16–32 (the straight border runs at x = 36). */
function inkInColumns(img: RgbaImage, x0: number, x1: number): number {
  let ink = 0;
  for (let y = 16 * 4; y < 32 * 4; y++) {
    for (let x = x0 * 4; x < x1 * 4; x++) if (Math.min(...pixel(img, x, y)) < 230) ink++;
  }
  return ink;
}

const FIXTURES: { name: string; result: () => TraceResult }[] = [
  { name: 'disc and rectangle', result: () => trace(discAndRect()) },
  { name: 'ring with a shape in its hole', result: () => trace(ring()) },
  { name: 'translucent disc', result: translucentDisc },
];

// ---------------------------------------------------------------------------------------------
// PDF

describe('writePdf', () => {
  for (const { name, result } of FIXTURES) {
    for (const gap of [false, true]) {
      it(`${name}${gap ? ' (gap filler)' : ''}: pdftoppm renders it like our rasteriser`, async () => {
        const p = plan(result(), 'pdf', gap ? {} : NO_GAP_FILLER);
        const bytes = await writePdf(p);
        const img = renderPdf(bytes);
        const size = pageInPoints(p);
        expect(img.width).toBe(Math.round((size.width * DPI) / 72));
        expect(img.height).toBe(Math.round((size.height * DPI) / 72));
        const diff = meanAbsDiff(img, reference(p, img.width, img.height));
        console.log(`pdf ${name}${gap ? ' gap' : ''}: mean |ΔRGB| ${diff.toFixed(3)}`);
        expect(diff).toBeLessThanOrEqual(TOLERANCE);
      });
    }
  }

  it('reloads with pdf-lib: PDF 1.4 header, one page of the plan size, no images, no object streams', async () => {
    const p = plan(trace(discAndRect()), 'pdf');
    const bytes = await writePdf(p);
    const text = latin1(bytes);
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text).not.toContain('/Image');
    expect(text).not.toContain('/XObject');
    expect(text).not.toContain('/ObjStm');
    expect(text).not.toContain('/XRef');
    expect(text).not.toMatch(/CreationDate|ModDate|\/ID\b/);
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(doc.getPageCount()).toBe(1);
    const { width, height } = doc.getPage(0).getSize();
    expect(width).toBeCloseTo(64, 4);
    expect(height).toBeCloseTo(48, 4);
    expect(doc.getProducer()).toBe('Tracelab');
  });

  it('compress=false writes the operators in plain text; compress=true deflates the same stream', async () => {
    const result = trace(discAndRect());
    const plain = await writePdf(plan(result, 'pdf', { pdf: { compress: false } }));
    const packed = await writePdf(plan(result, 'pdf', { pdf: { compress: true } }));
    const plainText = latin1(plain);
    expect(plainText).not.toContain('/FlateDecode');
    for (const op of [/^1 0 0 -1 0 48 cm$/m, /^1 J 1 j$/m, / m$/m, / l$/m, / c$/m, /^h$/m, /^f$/m, / rg$/m, / RG$/m, /^S$/m]) expect(plainText).toMatch(op);
    expect(latin1(packed)).toContain('/FlateDecode');
    expect(latin1(packed)).not.toMatch(/^1 J 1 j$/m);
    expect(packed.length).toBeLessThan(plain.length);
    const a = await contentOf(plain);
    const b = await contentOf(packed);
    expect(a.filtered).toBe(false);
    expect(b.filtered).toBe(true);
    expect(b.text).toBe(a.text);
  });

  it('writes numbers fixed-point with at most 4 decimals and no exponent', async () => {
    const result = trace(ring());
    for (const size of [{}, { size: { ...DEFAULT_OUTPUT_OPTIONS.size, unit: 'mm' as const, width: 50 } }, { size: { ...DEFAULT_OUTPUT_OPTIONS.size, unit: 'in' as const, width: 1.3 } }]) {
      const { text } = await contentOf(await writePdf(plan(result, 'pdf', { pdf: { compress: false }, ...size })));
      const numbers = text.match(/-?[\d.]+(?:e[-+]?\d+)?/gi) ?? [];
      expect(numbers.length).toBeGreaterThan(50);
      for (const n of numbers) expect(n).toMatch(/^-?\d+(\.\d{0,3}[1-9])?$/);
    }
  });

  it('output.size: 50 mm wide is 141.732 pt; scale 2 doubles the natural page', async () => {
    const result = trace(discAndRect());
    const mm = plan(result, 'pdf', { size: { ...DEFAULT_OUTPUT_OPTIONS.size, unit: 'mm', width: 50 } });
    const mmBytes = await writePdf(mm);
    const mmSize = pdfPageSize(mmBytes);
    expect(mmSize.width).toBeCloseTo((50 / 25.4) * 72, 2);
    expect(mmSize.height).toBeCloseTo((50 / 25.4) * 72 * (48 / 64), 2);
    const doc = await PDFDocument.load(mmBytes, { updateMetadata: false });
    expect(doc.getPage(0).getWidth()).toBeCloseTo(141.7323, 4);
    // 1 mm per unit → 2.8346 pt (the matrix is written to 4 decimals).
    expect(latin1(mmBytes).length).toBeGreaterThan(0);
    const { text } = await contentOf(await writePdf(plan(result, 'pdf', { pdf: { compress: false }, size: mm.options.size })));
    expect(text).toMatch(/^2\.8346 0 0 -2\.8346 0 106\.2992 cm$/m);

    const scaled = plan(result, 'pdf', { size: { ...DEFAULT_OUTPUT_OPTIONS.size, scale: 2 } });
    const scaledBytes = await writePdf(scaled);
    expect(pdfPageSize(scaledBytes)).toEqual({ width: 128, height: 96 });
    // Rendered at 144 dpi, the doubled page is again 4× the input: same picture as the natural one.
    const img = renderPdf(scaledBytes, DPI / 2);
    expect([img.width, img.height]).toEqual([256, 192]);
    const diff = meanAbsDiff(img, reference(scaled, img.width, img.height, DPI / 2));
    console.log(`pdf scale 2: mean |ΔRGB| ${diff.toFixed(3)}`);
    expect(diff).toBeLessThanOrEqual(TOLERANCE);
  });

  it('a 50 mm page renders like our rasteriser', async () => {
    const p = plan(trace(ring()), 'pdf', { size: { ...DEFAULT_OUTPUT_OPTIONS.size, unit: 'mm', width: 50 } });
    // pdftoppm rounds the page (the MediaBox, written to 4 decimals) up to whole pixels.
    const dpi = 144;
    const img = renderPdf(await writePdf(p), dpi);
    const size = pageInPoints(p);
    expect(img.width).toBe(Math.ceil((Number(formatNumber(size.width)) * dpi) / 72));
    expect(img.height).toBe(Math.ceil((Number(formatNumber(size.height)) * dpi) / 72));
    expect(img.width).toBe(284);
    const diff = meanAbsDiff(img, reference(p, img.width, img.height, dpi));
    console.log(`pdf 50 mm: mean |ΔRGB| ${diff.toFixed(3)}`);
    expect(diff).toBeLessThanOrEqual(TOLERANCE);
  });

  for (const drawStyle of ['stroke_edges', 'stroke_shapes'] as const) {
    it(`${drawStyle}: only strokes, drawn along the edges`, async () => {
      const p = plan(trace(discAndRect()), 'pdf', { drawStyle, pdf: { compress: false }, strokes: { strokeWidthPx: 1, nonScalingStroke: false } });
      const bytes = await writePdf(p);
      const { text } = await contentOf(bytes);
      expect(text).toMatch(/^S$/m);
      expect(text).not.toMatch(/^f$/m);
      expect(text).toMatch(/^1 w$/m);
      const img = renderPdf(bytes);
      const ink = inkShare(img);
      expect(ink).toBeGreaterThan(0.02);
      expect(ink).toBeLessThan(0.3);
      // The rectangle's interior (x 36–58, y 8–40 input px) is empty; its left edge is drawn.
      expect(pixel(img, 47 * 4, 24 * 4)).toEqual([255, 255, 255]);
      expect(Math.min(...pixel(img, 58 * 4, 24 * 4))).toBeLessThan(200);
    });
  }

  it('a non-scaling stroke is 0 w (hairline) and still renders', async () => {
    const p = plan(trace(discAndRect()), 'pdf', { drawStyle: 'stroke_shapes', pdf: { compress: false } });
    const bytes = await writePdf(p);
    const { text } = await contentOf(bytes);
    expect(text).toMatch(/^0 w$/m);
    expect(text).not.toMatch(/^(?!0 w)[\d.]+ w$/m);
    expect(inkShare(renderPdf(bytes), 245)).toBeGreaterThan(0.005);
  });

  it('gap filler clip: strokes inside q … W n … Q, and the picture is unchanged', async () => {
    const result = trace(discAndRect());
    const p = plan(result, 'pdf', { pdf: { compress: false }, gapFiller: { enabled: true, clip: true, nonScalingStroke: false, strokeWidthPx: 2 } });
    const bytes = await writePdf(p);
    const { text } = await contentOf(bytes);
    expect(text).toMatch(/^q\n(?:[^\n]+\n)+W n\n(?:[^\n]+\n)+S\nQ$/m);
    expect(text).toMatch(/^2 w$/m);
    const img = renderPdf(bytes);
    const diff = meanAbsDiff(img, reference(p, img.width, img.height));
    console.log(`pdf clipped gap filler: mean |ΔRGB| ${diff.toFixed(3)}`);
    expect(diff).toBeLessThanOrEqual(TOLERANCE);
  });

  it('the clip confines a stroke to its shapes', async () => {
    const img = renderPdf(await writePdf(clipOnlyPlan('pdf')));
    expect(inkInColumns(img, 36, 39)).toBeGreaterThan(500);
    expect(inkInColumns(img, 33, 36)).toBe(0);
  });

  it('groups (group_by parent, stacked shapes) are drawn like the flat list', async () => {
    const result = trace(ring(), { ...DEFAULT_ENGINE_PARAMS, shapeStacking: 'stacked' });
    const p = plan(result, 'pdf', { ...NO_GAP_FILLER, groupBy: 'parent' });
    expect(p.items.some((it) => it.kind === 'group')).toBe(true);
    const img = renderPdf(await writePdf(p));
    const diff = meanAbsDiff(img, reference(p, img.width, img.height));
    console.log(`pdf stacked, grouped: mean |ΔRGB| ${diff.toFixed(3)}`);
    expect(diff).toBeLessThanOrEqual(TOLERANCE);
  });

  it('a translucent colour uses an ExtGState with /ca, one per alpha', async () => {
    const result = translucentDisc();
    expect(result.shapes.some((s) => s.color.a === 128)).toBe(true);
    const bytes = await writePdf(plan(result, 'pdf', { pdf: { compress: false } }));
    const text = latin1(bytes);
    expect(text).toMatch(/\/ExtGState/);
    expect(text).toMatch(/\/ca 0\.502\b/);
    expect(text.match(/\/Type \/ExtGState/g)?.length).toBe(1);
    expect(text).toMatch(/^q\n\/GS0 gs\n0\.7843 0\.1176 0\.1569 rg$/m);
    // The page centre shows red at half strength over the white page.
    const [r, g, b] = pixel(renderPdf(bytes), 80, 72);
    expect(Math.abs(r - 227)).toBeLessThanOrEqual(3);
    expect(Math.abs(g - 142)).toBeLessThanOrEqual(3);
    expect(Math.abs(b - 147)).toBeLessThanOrEqual(3);
  });

  it('is deterministic: the same plan (and a fresh trace) give identical bytes', async () => {
    for (const compress of [false, true]) {
      const p = plan(trace(ring()), 'pdf', { pdf: { compress } });
      const a = await writePdf(p);
      const b = await writePdf(p);
      const c = await writePdf(plan(trace(ring()), 'pdf', { pdf: { compress } }));
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
      expect(Buffer.from(a).equals(Buffer.from(c))).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// EPS

describe('writeEps', () => {
  it('writes the EPSF-3.0 header, prolog, page and trailer', () => {
    const eps = writeEps(plan(trace(discAndRect()), 'eps'));
    const lines = eps.split('\n');
    expect(lines.slice(0, 8)).toEqual([
      '%!PS-Adobe-3.0 EPSF-3.0',
      '%%Creator: Tracelab',
      '%%BoundingBox: 0 0 64 48',
      '%%HiResBoundingBox: 0 0 64 48',
      '%%LanguageLevel: 3',
      '%%DocumentData: Clean7Bit',
      '%%Pages: 1',
      '%%EndComments',
    ]);
    const at = (line: string): number => lines.indexOf(line);
    expect(at('%%BeginProlog')).toBeGreaterThan(at('%%EndComments'));
    expect(at('%%EndProlog')).toBeGreaterThan(at('%%BeginProlog'));
    expect(at('%%Page: 1 1')).toBeGreaterThan(at('%%EndProlog'));
    expect(at('gsave')).toBeGreaterThan(at('%%Page: 1 1'));
    expect(lines.slice(-6)).toEqual(['grestore', 'end', 'showpage', '%%Trailer', '%%EOF', '']);
    expect(eps).toContain('[1 0 0 -1 0 48] concat');
    expect(eps).toMatch(/^1 setlinecap 1 setlinejoin$/m);
    // 7-bit ASCII throughout.
    expect(/^[\n\x20-\x7e]*$/.test(eps)).toBe(true);
  });

  for (const { name, result } of FIXTURES) {
    for (const gap of [false, true]) {
      it(`${name}${gap ? ' (gap filler)' : ''}: Ghostscript renders it like our rasteriser`, () => {
        const p = plan(result(), 'eps', gap ? {} : NO_GAP_FILLER);
        const img = renderEps(writeEps(p));
        const size = pageInPoints(p);
        expect(img.width).toBe(Math.round((size.width * DPI) / 72));
        expect(img.height).toBe(Math.round((size.height * DPI) / 72));
        const diff = meanAbsDiff(img, reference(p, img.width, img.height));
        console.log(`eps ${name}${gap ? ' gap' : ''}: mean |ΔRGB| ${diff.toFixed(3)}`);
        expect(diff).toBeLessThanOrEqual(TOLERANCE);
      });
    }
  }

  it('output.size: bounding boxes follow the page, and Ghostscript crops to them', () => {
    const result = trace(discAndRect());
    const mm = plan(result, 'eps', { size: { ...DEFAULT_OUTPUT_OPTIONS.size, unit: 'mm', width: 50 } });
    const eps = writeEps(mm);
    const w = (50 / 25.4) * 72;
    const h = w * (48 / 64);
    expect(eps).toContain(`%%BoundingBox: 0 0 ${Math.ceil(w)} ${Math.ceil(h)}`);
    expect(eps).toContain(`%%HiResBoundingBox: 0 0 ${formatNumber(w)} ${formatNumber(h)}`);
    expect(eps).toContain('%%HiResBoundingBox: 0 0 141.7323 106.2992');
    // With -dEPSCrop Ghostscript crops to the HiResBoundingBox, rounded to whole pixels.
    for (const dpi of [72, 144]) {
      const img = renderEps(eps, dpi);
      expect([img.width, img.height]).toEqual([Math.round((141.7323 * dpi) / 72), Math.round((106.2992 * dpi) / 72)]);
    }

    const scaled = plan(result, 'eps', { size: { ...DEFAULT_OUTPUT_OPTIONS.size, scale: 2 } });
    const scaledEps = writeEps(scaled);
    expect(scaledEps).toContain('%%BoundingBox: 0 0 128 96');
    const big = renderEps(scaledEps, DPI / 2);
    expect([big.width, big.height]).toEqual([256, 192]);
    const diff = meanAbsDiff(big, reference(scaled, big.width, big.height, DPI / 2));
    console.log(`eps scale 2: mean |ΔRGB| ${diff.toFixed(3)}`);
    expect(diff).toBeLessThanOrEqual(TOLERANCE);
  });

  for (const drawStyle of ['stroke_edges', 'stroke_shapes'] as const) {
    it(`${drawStyle}: only strokes, drawn along the edges`, () => {
      const eps = writeEps(plan(trace(discAndRect()), 'eps', { drawStyle, strokes: { strokeWidthPx: 1, nonScalingStroke: false } }));
      expect(eps).toMatch(/^s$/m);
      expect(eps).not.toMatch(/^f$/m);
      expect(eps).toMatch(/^1 setlinewidth$/m);
      const img = renderEps(eps);
      const ink = inkShare(img);
      expect(ink).toBeGreaterThan(0.02);
      expect(ink).toBeLessThan(0.3);
      expect(pixel(img, 47 * 4, 24 * 4)).toEqual([255, 255, 255]);
      expect(Math.min(...pixel(img, 58 * 4, 24 * 4))).toBeLessThan(200);
    });
  }

  it('a non-scaling stroke is 0 setlinewidth and still renders', () => {
    const eps = writeEps(plan(trace(discAndRect()), 'eps', { drawStyle: 'stroke_shapes' }));
    expect(eps).toMatch(/^0 setlinewidth$/m);
    expect(eps).not.toMatch(/^(?!0 )[\d.]+ setlinewidth$/m);
    expect(inkShare(renderEps(eps), 245)).toBeGreaterThan(0.005);
  });

  it('gap filler clip: clip newpath inside gsave … grestore, and the picture is unchanged', () => {
    const p = plan(trace(discAndRect()), 'eps', { gapFiller: { enabled: true, clip: true, nonScalingStroke: false, strokeWidthPx: 2 } });
    const eps = writeEps(p);
    expect(eps).toMatch(/^gsave\n(?:[^\n]+\n)+clip newpath\n(?:[^\n]+\n)+s\ngrestore$/m);
    const img = renderEps(eps);
    const diff = meanAbsDiff(img, reference(p, img.width, img.height));
    console.log(`eps clipped gap filler: mean |ΔRGB| ${diff.toFixed(3)}`);
    expect(diff).toBeLessThanOrEqual(TOLERANCE);
  });

  it('the clip confines a stroke to its shapes', () => {
    const img = renderEps(writeEps(clipOnlyPlan('eps')));
    expect(inkInColumns(img, 36, 39)).toBeGreaterThan(500);
    expect(inkInColumns(img, 33, 36)).toBe(0);
  });

  it('groups (group_by parent, stacked shapes) are drawn like the flat list', () => {
    const result = trace(ring(), { ...DEFAULT_ENGINE_PARAMS, shapeStacking: 'stacked' });
    const p = plan(result, 'eps', { ...NO_GAP_FILLER, groupBy: 'parent' });
    expect(p.items.some((it) => it.kind === 'group')).toBe(true);
    const img = renderEps(writeEps(p));
    const diff = meanAbsDiff(img, reference(p, img.width, img.height));
    console.log(`eps stacked, grouped: mean |ΔRGB| ${diff.toFixed(3)}`);
    expect(diff).toBeLessThanOrEqual(TOLERANCE);
  });

  it('a translucent colour is written composited over white, with no transparency operators', () => {
    const eps = writeEps(plan(translucentDisc(), 'eps'));
    // (200, 30, 40) at 128/255 over white = (227.39, 142.06, 147.08) / 255.
    expect(eps).toMatch(/^0\.8917 0\.5571 0\.5768 setrgbcolor$/m);
    expect(eps).not.toMatch(/^0\.7843 0\.1176 0\.1569 setrgbcolor$/m);
    expect(eps).not.toMatch(/\.setopacityalpha|\.setfillconstantalpha|setalpha/);
  });

  it('an alpha-0 colour is not drawn', () => {
    const result = trace(discAndRect());
    const override = { strokeWidthPx: 1, nonScalingStroke: true, overrideColor: { r: 0, g: 0, b: 0, a: 0 } };
    const eps = writeEps(plan(result, 'eps', { drawStyle: 'stroke_edges', strokes: override }));
    expect(eps).not.toMatch(/^s$/m);
    expect(eps).not.toContain('setrgbcolor');
  });

  it('is deterministic: the same plan (and a fresh trace) give identical text', () => {
    const p = plan(trace(ring()), 'eps');
    expect(writeEps(p)).toBe(writeEps(p));
    expect(writeEps(plan(trace(ring()), 'eps'))).toBe(writeEps(p));
  });
});

// ---------------------------------------------------------------------------------------------
// Shared path text

describe('appendPath', () => {
  it('writes lines and cubics as given, elevates quadratics and splits arcs into cubics', () => {
    const sink = new TextSink();
    appendPath(
      sink,
      {
        startX: 0,
        startY: 0,
        segments: SegmentPath.of([
          { kind: 'line', x: 10, y: 0 },
          { kind: 'quad', cx: 16, cy: 0, x: 16, y: 6 },
          { kind: 'cubic', c1x: 16, c1y: 9, c2x: 13, c2y: 12, x: 10, y: 12 },
          { kind: 'arc', rx: 5, ry: 5, rotationDeg: 0, largeArc: false, sweep: true, x: 0, y: 12 },
        ]),
        closed: true,
      },
      4,
    );
    const text = sink.toString();
    expect(text.endsWith('\n')).toBe(true);
    const out = text.slice(0, -1).split('\n');
    expect(out[0]).toBe('0 0 m');
    expect(out[1]).toBe('10 0 l');
    expect(out[2]).toBe('14 0 16 2 16 6 c');
    expect(out[3]).toBe('16 9 13 12 10 12 c');
    // A half circle of radius 5 from (10,12) to (0,12): two quarter cubics, through (5, 17).
    expect(out.slice(4, 6).every((l) => / c$/.test(l))).toBe(true);
    expect(out[4]!.endsWith(' 5 17 c')).toBe(true);
    expect(out[5]!.endsWith(' 0 12 c')).toBe(true);
    expect(out[6]).toBe('h');
    expect(out).toHaveLength(7);
  });

  it('formats numbers fixed-point, trimmed, without -0', () => {
    expect(formatNumber(1.5, 4)).toBe('1.5');
    expect(formatNumber(2, 4)).toBe('2');
    expect(formatNumber(-0.00001, 4)).toBe('0');
    expect(formatNumber(1e-7, 4)).toBe('0');
    expect(formatNumber(123456789.123456, 2)).toBe('123456789.12');
    expect(formatNumber(141.73228346456693)).toBe('141.7323');
    expect(() => formatNumber(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatNumber', () => {
  it('writes fixed-point text without trailing zeros, a bare point or "-0"', () => {
    expect(formatNumber(12.5)).toBe('12.5');
    expect(formatNumber(3)).toBe('3');
    expect(formatNumber(0.10004, 4)).toBe('0.1');
    expect(formatNumber(100, 2)).toBe('100');
    expect(formatNumber(-0.00004)).toBe('0');
    expect(formatNumber(-2.25, 1)).toBe('-2.3');
    expect(formatNumber(1.005, 2)).toBe('1'); // toFixed's rounding of the double 1.00499…
    expect(formatNumber(250, 0)).toBe('250');
    expect(formatNumber(1e21)).toBe('1e+21');
    expect(() => formatNumber(Number.NaN)).toThrow(RangeError);
  });
});
