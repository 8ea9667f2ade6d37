/**
 * PDF writer.
 * In: an output plan (src/formats/plan.ts) built for `pdf`. Out: a PDF 1.4 file (Adobe PDF
 * Reference, third edition: transparency yes, object and cross-reference streams no) with one page
 * whose MediaBox is the plan's page in points, drawn with vector paths only (no images).
 *
 * The content stream is written here operator by operator into a reused byte buffer
 * (src/formats/text-sink.ts), with the same path text as the EPS writer (src/formats/ps-path.ts):
 * one `cm` from page units (y down) to points (y up), then m/l/c/h subpaths, nonzero `f` fills,
 * `S` strokes with round caps and joins (`1 J 1 j`), and `rg`/`RG` colours. A non-scaling stroke is `0 w`, PDF's thinnest-line hairline. Colours with
 * alpha < 255 use an ExtGState (/ca for fills, /CA for strokes; one per distinct alpha) inside
 * q … Q; alpha 0 draws nothing. A gap filler with clip is stroked inside q … W n … Q after
 * clipping to the union of its shapes (nonzero W). Detected primitives are not used: PDF has
 * none, and the fill's loops are the same shape.
 *
 * A gradient paint (tracelab.gradients) is a shading pattern (PatternType 2) per distinct
 * gradient, /P0, /P1… in first-use order in the page's /Pattern resources: the shading of
 * src/formats/shading.ts in traced coordinates, with a /Matrix that maps traced coordinates to
 * the page's default space exactly as `cm` and the page map place the paths (so a stretched page
 * stretches a radial gradient into an ellipse, with its shape). An elliptical gradient's shading
 * is its circle (Coords [cx cy 0 cx cy r]) and its /Matrix first maps that circle onto the
 * ellipse (src/formats/gradient.ts: ellipseMap), then on through the page map. Fills select it with
 * `/Pattern cs /Pn scn`, strokes with `/Pattern CS /Pn SCN`; the item's alpha applies as for flat
 * colours (ExtGState).
 *
 * With an embedded colour profile (TraceResult.colorProfile, processing.color_profile.output = preserve) the page's
 * /ColorSpace resources name it /DefaultRGB, an ICCBased space: every DeviceRGB colour is then read through it.
 *
 * pdf-lib assembles the file (objects, xref, trailer). Byte-identical for the same plan: no
 * dates, no document ID, Producer and Creator fixed to "Tracelab", deflate (pako) at its fixed
 * default level.
 */
import { PDFDocument, PDFHeader, PDFName, type PDFDict, type PDFRef } from 'pdf-lib';
import type { Gradient, Rgba } from '../engine/types.js';
import { ellipseMap, GradientIds } from './gradient.js';
import { clipLoops, coordinateDecimals, formatNumber, pageMatrix, pageSizePoints, tracedToPointsMatrix, writePlanPath, writeRgb, writeStrokePaths } from './ps-path.js';
import { forEachDrawable, type OutputPlan } from './plan.js';
import { shadingLiteral } from './shading.js';
import { TextSink } from './text-sink.js';

/** Stroke width and stroke operators (writeStrokePaths). */
const PDF_STROKE = { width: ' w\n', cap: ' J\n', join: ' j\n', stroke: 'S\n' } as const;

/** A content stream's buffer to start with (64 KiB), doubled as it grows: one per file. */
const FIRST_BUFFER_BYTES = 1 << 16;

export async function writePdf(plan: OutputPlan): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const context = doc.context;
  // Kept for pdf-lib versions that honour it; withHeaderVersion below makes sure either way.
  context.header = PDFHeader.forVersion(1, 4);
  doc.setProducer('Tracelab');
  doc.setCreator('Tracelab');
  const size = pageSizePoints(plan);
  // MediaBox rounded like every other number we write (≤ 4 decimals).
  const page = doc.addPage([Number(formatNumber(size.width)), Number(formatNumber(size.height))]);
  // The content stream's own buffer (one per file, so files written at once never share one):
  // deflate reads it at once, and an uncompressed stream, which keeps its bytes until save, gets
  // a copy of exactly its length.
  const contentSink = new TextSink(FIRST_BUFFER_BYTES);
  const { alphas, gradients } = writeContentStream(contentSink, plan);
  const stream = plan.options.pdf.compress ? context.flateStream(contentSink.view()) : context.stream(contentSink.toBytes());
  page.node.set(PDFName.of('Contents'), context.register(stream));
  const profile = plan.result.colorProfile;
  if (alphas.length > 0 || gradients.length > 0 || profile) {
    const resources: Record<string, PDFDict> = {};
    if (profile) {
      // processing.color_profile.output = preserve: DeviceRGB on this page means the profile's RGB (PDF 1.4 §4.5.4,
      // default colour spaces), so every rg/RG colour and shading is read through it without a new operator.
      const iccStream = context.register(context.flateStream(profile, { N: 3, Alternate: 'DeviceRGB' }));
      resources['ColorSpace'] = context.obj({ DefaultRGB: context.obj([PDFName.of('ICCBased'), iccStream]) });
    }
    if (alphas.length > 0) {
      const states: Record<string, PDFDict> = {};
      alphas.forEach((a, i) => {
        const value = Number(formatNumber(a / 255));
        states[stateName(i)] = context.obj({ Type: 'ExtGState', ca: value, CA: value });
      });
      resources['ExtGState'] = context.obj(states);
    }
    if (gradients.length > 0) {
      const pageMatrix = [...tracedToPointsMatrix(plan)];
      const patterns: Record<string, PDFRef> = {};
      gradients.forEach((g, i) => {
        const ellipse = ellipseMap(g);
        const matrix = ellipse ? [...tracedToPointsMatrix(plan, ellipse)] : pageMatrix;
        patterns[patternName(i)] = context.register(context.obj({ PatternType: 2, Shading: shadingLiteral(g), Matrix: matrix }));
      });
      resources['Pattern'] = context.obj(patterns);
    }
    page.node.set(PDFName.of('Resources'), context.obj(resources));
  }
  const bytes = await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
  return withHeaderVersion(bytes, '1.4');
}

/**
 * pdf-lib 1.17's writer always starts the file with `%PDF-1.7` whatever context.header says. The
 * version digits have the same length, so overwriting them moves no byte offset (xref stays
 * valid); the file uses no feature newer than 1.4 (no object or xref streams).
 */
function withHeaderVersion(bytes: Uint8Array, version: string): Uint8Array {
  const prefix = '%PDF-';
  for (let i = 0; i < prefix.length; i++) {
    if (bytes[i] !== prefix.charCodeAt(i)) throw new Error('pdf-lib wrote no %PDF- header');
  }
  const old = String.fromCharCode(...bytes.subarray(prefix.length, prefix.length + version.length));
  if (!/^\d\.\d$/.test(old)) throw new Error(`unexpected PDF header version ${old}`);
  for (let i = 0; i < version.length; i++) bytes[prefix.length + i] = version.charCodeAt(i);
  return bytes;
}

/** Pattern resource name of the i-th distinct gradient. */
function patternName(i: number): string {
  return `P${i}`;
}

/** ExtGState resource name of the i-th distinct alpha. */
function stateName(i: number): string {
  return `GS${i}`;
}

/**
 * Writes the page's content stream (ASCII) into `sink` and returns the distinct alphas (< 255) its
 * ExtGStates must carry and the distinct gradients its patterns must carry, each in first-use
 * order (their index is the resource name's number).
 */
export function writeContentStream(sink: TextSink, plan: OutputPlan): { alphas: number[]; gradients: Gradient[] } {
  const decimals = coordinateDecimals(plan);
  const alphas: number[] = [];
  const gradientIds = new GradientIds();
  // Translucent items get their own q … Q so the ExtGState does not leak into later items.
  const alphaState = (c: Rgba): string | undefined => {
    const a = Math.max(0, Math.min(255, Math.round(c.a)));
    if (a >= 255) return undefined;
    let i = alphas.indexOf(a);
    if (i < 0) i = alphas.push(a) - 1;
    return `/${stateName(i)} gs\n`;
  };
  sink.text(`q\n${pageMatrix(plan).map((v) => formatNumber(v)).join(' ')} cm\n1 J 1 j\n`);
  forEachDrawable(plan.items, (item) => {
    if (item.color.a <= 0) return;
    if (item.kind === 'fill') {
      const gs = alphaState(item.color);
      if (gs) sink.text(`q\n${gs}`);
      if (item.gradient) sink.text(`/Pattern cs /${patternName(gradientIds.id(item.gradient))} scn\n`);
      else writeRgb(sink, item.color.r, item.color.g, item.color.b, ' rg\n');
      for (const uses of item.loops) writePlanPath(sink, plan, { uses, closed: true }, decimals);
      sink.text('f\n');
      if (gs) sink.text('Q\n');
      return;
    }
    const clip = item.clipShapes ? clipLoops(plan, item) : undefined;
    if (clip && clip.length === 0) return; // confined to nothing
    const gs = alphaState(item.color);
    const isolated = clip !== undefined || gs !== undefined;
    if (isolated) sink.text('q\n');
    if (clip) {
      for (const loop of clip) writePlanPath(sink, plan, loop, decimals);
      sink.text('W n\n');
    }
    if (gs) sink.text(gs);
    if (item.gradient) sink.text(`/Pattern CS /${patternName(gradientIds.id(item.gradient))} SCN\n`);
    else writeRgb(sink, item.color.r, item.color.g, item.color.b, ' RG\n');
    writeStrokePaths(sink, plan, item, decimals, PDF_STROKE);
    if (isolated) sink.text('Q\n');
  });
  sink.text('Q\n');
  return { alphas, gradients: gradientIds.list };
}

/** The content stream as text (tests and tools; writePdf takes the bytes). */
export function contentStream(plan: OutputPlan): { content: string; alphas: number[]; gradients: Gradient[] } {
  const sink = new TextSink();
  const { alphas, gradients } = writeContentStream(sink, plan);
  return { content: sink.toString(), alphas, gradients };
}
