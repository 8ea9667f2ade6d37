/**
 * EPS writer (path text shared with the PDF writer: src/formats/ps-path.ts).
 * In: an output plan (src/formats/plan.ts) built for `eps`. Out: an Encapsulated PostScript file
 * (7-bit ASCII, LF line ends) following the DSC 3.0 / EPSF 3.0 conventions (Adobe TN 5001 and
 * TN 5002) at LanguageLevel 3: one page whose bounding box is the plan's page in points; as text
 * (writeEps) or bytes (writeEpsBytes), written into a reused byte buffer (src/formats/text-sink.ts).
 *
 * Drawing model, the same as the PDF writer's:
 * - One `concat` maps page units (origin top left, y down) to PostScript points (origin bottom
 *   left, y up), so path coordinates and stroke widths are written in page units.
 * - Paths use lines and cubics only (the plan restricts pdf/eps to them; stray quadratics are
 *   degree-elevated and arcs split into cubics). Fills use the nonzero rule: holes already run
 *   the other way. Strokes have round caps and joins. A non-scaling stroke is width 0, the
 *   thinnest line the device can draw, which is what "minimal non-scaling stroke" means here.
 * - A gap filler with clip is stroked inside gsave … grestore after clipping to the union of
 *   its shapes (nonzero `clip`).
 * - PostScript has no transparency: a colour with alpha < 255 is written as that colour
 *   composited over white (what it would look like on a blank page, not over the shapes below
 *   it), and a colour with alpha 0 is not drawn at all.
 * - A gradient paint (tracelab.gradients, the reason for LanguageLevel 3) is a shading pattern:
 *   after the page `concat`, `/Pn << /PatternType 2 /Shading … >> [page map] makepattern def`
 *   once per distinct gradient (and alpha: translucent stops are composited over white like flat
 *   colours), with the shading of src/formats/shading.ts in traced coordinates and the page map
 *   (traced → page units) as its matrix, so it sits exactly under the paths (an elliptical
 *   gradient's shading is its circle, and the matrix first maps that circle onto the ellipse);
 *   fills and strokes select it with `Pn setpattern`.
 * Numbers are fixed-point with trailing zeros trimmed, so the same plan gives the same bytes, and
 * both shapes along a shared boundary, which walk the same chain points, write the same digits.
 */
import type { Gradient, Rgba } from '../engine/types.js';
import { composeAffine, type Affine } from './affine.js';
import { ellipseMap, gradientKey } from './gradient.js';
import { forEachDrawable, type OutputPlan } from './plan.js';
import { clipLoops, coordinateDecimals, formatNumber, MATRIX_DECIMALS, pageMatrix, pageSizePoints, writePlanPath, writeRgb, writeStrokePaths } from './ps-path.js';
import { psLiteral, shadingLiteral } from './shading.js';
import { TextSink } from './text-sink.js';

/** Stroke width and stroke operators (writeStrokePaths). */
const EPS_STROKE = { width: ' setlinewidth\n', cap: ' setlinecap\n', join: ' setlinejoin\n', stroke: 's\n' } as const;

/** Short names for the operators every path repeats, kept in a private dictionary. */
const PROLOG = [
  '%%BeginProlog',
  '/Tracelab 8 dict def',
  'Tracelab begin',
  '/m {moveto} bind def',
  '/l {lineto} bind def',
  '/c {curveto} bind def',
  '/h {closepath} bind def',
  '/f {fill} bind def',
  '/s {stroke} bind def',
  'end',
  '%%EndProlog',
];

export function writeEps(plan: OutputPlan): string {
  return writeEpsInto(new TextSink(FIRST_BUFFER_BYTES), plan).toString();
}

/** writeEps's text as bytes (ASCII), for callers that want the file. */
export function writeEpsBytes(plan: OutputPlan): Uint8Array {
  return writeEpsInto(new TextSink(FIRST_BUFFER_BYTES), plan).toBytes();
}

/** A file's buffer to start with (64 KiB), doubled as the file grows: one per file. */
const FIRST_BUFFER_BYTES = 1 << 16;

function writeEpsInto(out: TextSink, plan: OutputPlan): TextSink {
  const size = pageSizePoints(plan);
  const decimals = coordinateDecimals(plan);
  const header = [
    '%!PS-Adobe-3.0 EPSF-3.0',
    '%%Creator: Tracelab',
    `%%BoundingBox: 0 0 ${Math.ceil(roundPoints(size.width))} ${Math.ceil(roundPoints(size.height))}`,
    `%%HiResBoundingBox: 0 0 ${formatNumber(size.width)} ${formatNumber(size.height)}`,
    '%%LanguageLevel: 3',
    '%%DocumentData: Clean7Bit',
    '%%Pages: 1',
    '%%EndComments',
    ...PROLOG,
    '%%Page: 1 1',
    'Tracelab begin',
    'gsave',
    `[${pageMatrix(plan).map((v) => formatNumber(v)).join(' ')}] concat`,
    '1 setlinecap 1 setlinejoin',
  ];
  for (const text of header) {
    writeLine(out, text);
    if (text === '%%EndComments' && plan.result.colorProfile) writeIccComment(out, plan.result.colorProfile);
  }
  // Pattern definitions go here once the drawing has named them all.
  const patternsAt = out.length;
  const patterns = new Patterns();
  forEachDrawable(plan.items, (item) => {
    if (item.color.a <= 0) return;
    const paint = (): void => {
      if (item.gradient) writeLine(out, `${patterns.name(item.gradient, item.color.a)} setpattern`);
      else writeColor(out, item.color);
    };
    if (item.kind === 'fill') {
      paint();
      for (const uses of item.loops) writePlanPath(out, plan, { uses, closed: true }, decimals);
      out.text('f\n');
      return;
    }
    const clip = item.clipShapes ? clipLoops(plan, item) : undefined;
    if (clip && clip.length === 0) return; // confined to nothing
    if (clip) {
      out.text('gsave\n');
      for (const loop of clip) writePlanPath(out, plan, loop, decimals);
      out.text('clip newpath\n');
    }
    paint();
    writeStrokePaths(out, plan, item, decimals, EPS_STROKE);
    if (clip) out.text('grestore\n');
  });
  const definitions = patterns.definitions(plan);
  if (definitions.length > 0) out.insertText(patternsAt, definitions.map((d) => `${d}\n`).join(''));
  out.text('grestore\nend\nshowpage\n%%Trailer\n%%EOF\n');
  return out;
}

/** Profile bytes per hex line of the ICC comment block (64 hex digits: DSC lines stay under 255 characters). */
const ICC_BYTES_PER_LINE = 32;

/**
 * The ICC profile as DSC comments after the header (processing.color_profile.output = preserve), as Photoshop's
 * EPS writer carries one: `%%BeginICCProfile: (name) lines Hex`, each line `%` and hex digits, `%%EndICCProfile`.
 * Layout programs that manage colour read it; a PostScript interpreter skips comments, so the drawing is unchanged
 * (DeviceRGB).
 */
function writeIccComment(out: TextSink, profile: Uint8Array): void {
  const lines = Math.ceil(profile.length / ICC_BYTES_PER_LINE);
  writeLine(out, `%%BeginICCProfile: (Embedded) ${lines} Hex`);
  for (let at = 0; at < profile.length; at += ICC_BYTES_PER_LINE) {
    let hex = '%';
    for (const byte of profile.subarray(at, at + ICC_BYTES_PER_LINE)) hex += byte.toString(16).padStart(2, '0');
    writeLine(out, hex);
  }
  writeLine(out, '%%EndICCProfile');
}

/** One line of text and its line feed. */
function writeLine(out: TextSink, text: string): void {
  out.text(text);
  out.byte(10);
}

/** The shading patterns a page uses: one per distinct gradient and alpha, P0, P1… in first-use order. */
class Patterns {
  private readonly names = new Map<string, string>();
  private readonly used: { gradient: Gradient; alpha: number }[] = [];

  name(gradient: Gradient, alpha: number): string {
    const key = `${gradientKey(gradient)}|${alpha}`;
    let name = this.names.get(key);
    if (name === undefined) {
      name = `P${this.used.push({ gradient, alpha }) - 1}`;
      this.names.set(key, name);
    }
    return name;
  }

  /**
   * One `makepattern def` line per pattern, made after the page concat: the pattern matrix is
   * then the page map from traced coordinates to page units, the same map the paths go through
   * (after the circle → ellipse map of an elliptical gradient).
   */
  definitions(plan: OutputPlan): string[] {
    const { scaleX, scaleY, offsetX, offsetY } = plan.page;
    const pageMap: Affine = [scaleX, 0, 0, scaleY, offsetX, offsetY];
    const written = (m: Affine): string => `[${m.map((v) => formatNumber(v, MATRIX_DECIMALS)).join(' ')}]`;
    const pageMatrix = written(pageMap);
    return this.used.map(({ gradient, alpha }, i) => {
      const shading = psLiteral(shadingLiteral(gradient, (c) => overWhite(c, alpha)));
      const ellipse = ellipseMap(gradient);
      const matrix = ellipse ? written(composeAffine(pageMap, ellipse)) : pageMatrix;
      return `/P${i} << /PatternType 2 /Shading ${shading} >> ${matrix} makepattern def`;
    });
  }
}

/**
 * Rounds away float noise before the ceiling, so a page of exactly 141.73228… pt stays 142 but
 * one that is 50.000000000001 pt from arithmetic is 50, not 51.
 */
function roundPoints(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** The colour over white when it is translucent (PostScript has no alpha): `r g b setrgbcolor`. */
function writeColor(out: TextSink, c: Rgba): void {
  const o = overWhite(c, c.a);
  writeRgb(out, o.r, o.g, o.b, ' setrgbcolor\n');
}

/** An RGB colour drawn with `alpha` (0–255) over white, as an opaque colour. */
function overWhite(c: Rgba, alpha: number): Rgba {
  const a = Math.max(0, Math.min(255, alpha)) / 255;
  const over = (v: number): number => v * a + 255 * (1 - a);
  return { r: over(c.r), g: over(c.g), b: over(c.b), a: 255 };
}
