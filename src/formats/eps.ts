/**
 * EPS writer (path text shared with the PDF writer: src/formats/ps-path.ts).
 * In: an output plan (src/formats/plan.ts) built for `eps`. Out: an Encapsulated PostScript file
 * (7-bit ASCII, LF line ends) following the DSC 3.0 / EPSF 3.0 conventions (Adobe TN 5001 and
 * TN 5002) at LanguageLevel 3: one page whose bounding box is the plan's page in points.
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
 * Numbers are fixed-point with trailing zeros trimmed, so the same plan gives the same bytes, and
 * both shapes along a shared boundary, which walk the same chain points, write the same digits.
 */
import type { Rgba } from '../engine/types.js';
import { fillOnPage, forEachDrawable, pathOnPage, strokeWidthOnPage, type OutputPlan } from './plan.js';
import { appendPath, clipLoops, coordinateDecimals, formatChannel, formatNumber, pageMatrix, pageSizePoints } from './ps-path.js';

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
  const size = pageSizePoints(plan);
  const decimals = coordinateDecimals(plan);
  const out: string[] = [
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
  forEachDrawable(plan.items, (item) => {
    if (item.color.a <= 0) return;
    if (item.kind === 'fill') {
      out.push(`${epsColor(item.color)} setrgbcolor`);
      for (const loop of fillOnPage(plan, item)) appendPath(out, loop, decimals);
      out.push('f');
      return;
    }
    const clip = item.clipShapes ? clipLoops(plan, item) : undefined;
    if (clip && clip.length === 0) return; // confined to nothing
    if (clip) {
      out.push('gsave');
      for (const loop of clip) appendPath(out, loop, decimals);
      out.push('clip newpath');
    }
    out.push(`${epsColor(item.color)} setrgbcolor`);
    out.push(`${item.nonScaling ? '0' : formatNumber(strokeWidthOnPage(plan, item))} setlinewidth`);
    for (const p of item.paths) appendPath(out, pathOnPage(plan, p), decimals);
    out.push('s');
    if (clip) out.push('grestore');
  });
  out.push('grestore', 'end', 'showpage', '%%Trailer', '%%EOF');
  return out.join('\n') + '\n';
}

/**
 * Rounds away float noise before the ceiling, so a page of exactly 141.73228… pt stays 142 but
 * one that is 50.000000000001 pt from arithmetic is 50, not 51.
 */
function roundPoints(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** The colour over white when it is translucent (PostScript has no alpha), as `r g b`. */
function epsColor(c: Rgba): string {
  const a = Math.max(0, Math.min(255, c.a)) / 255;
  const over = (v: number): number => v * a + 255 * (1 - a);
  return `${formatChannel(over(c.r))} ${formatChannel(over(c.g))} ${formatChannel(over(c.b))}`;
}
