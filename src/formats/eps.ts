/**
 * EPS writer, and the path text it shares with the PDF writer (src/formats/pdf.ts).
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
import type { Rgba, Segment } from '../engine/types.js';
import { arcToCubics, elevateQuad } from './curves.js';
import { pointsPerUnit } from './page.js';
import { fillOnPage, forEachDrawable, pathOnPage, strokeWidthOnPage, type OutputPlan, type PagePath, type StrokeItem } from './plan.js';

// ---------------------------------------------------------------------------------------------
// Shared with the PDF writer: numbers, the page matrix and path construction (m l c h).

/** Most decimals any number is written with. */
export const MAX_DECIMALS = 4;

/**
 * Decimals for path coordinates: enough that one rounding step is at most 1/100 of an input
 * pixel on the page (the tracer's own fit tolerance is 1/10 px), between 2 and MAX_DECIMALS.
 */
export function coordinateDecimals(plan: OutputPlan): number {
  const step = plan.page.unitsPerInputPx / 100;
  let d = 2;
  while (d < MAX_DECIMALS && Math.pow(10, -d) > step) d++;
  return d;
}

/** Fixed-point, no exponent, trailing zeros (and a bare point) removed, never "-0". */
export function formatNumber(v: number, decimals: number = MAX_DECIMALS): string {
  if (!Number.isFinite(v)) throw new RangeError(`cannot write the number ${v}`);
  let s = v.toFixed(decimals);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

/** A colour channel (0–255) as a 0–1 operand. */
export function formatChannel(v: number): string {
  return formatNumber(Math.max(0, Math.min(255, v)) / 255);
}

/**
 * The matrix a b c d e f from page units (y down) to points (y up): x·k, (height − y)·k. The
 * six numbers are written by the caller (PDF `cm`, PostScript `concat`).
 */
export function pageMatrix(plan: OutputPlan): readonly number[] {
  const k = pointsPerUnit(plan.page);
  return [k, 0, 0, -k, 0, plan.page.height * k];
}

/** The page size in points. */
export function pageSizePoints(plan: OutputPlan): { width: number; height: number } {
  const k = pointsPerUnit(plan.page);
  return { width: plan.page.width * k, height: plan.page.height * k };
}

/**
 * Appends one subpath as operator lines: `x y m`, `x y l`, `x1 y1 x2 y2 x y c`, and `h` when
 * closed. PDF has these operators; the EPS prolog binds the same names.
 */
export function appendPath(out: string[], path: PagePath, decimals: number): void {
  const n = (v: number): string => formatNumber(v, decimals);
  out.push(`${n(path.startX)} ${n(path.startY)} m`);
  let x0 = path.startX;
  let y0 = path.startY;
  const cubics: Segment[] = [];
  for (const s of path.segments) {
    switch (s.kind) {
      case 'line':
        out.push(`${n(s.x)} ${n(s.y)} l`);
        break;
      case 'cubic':
        out.push(`${n(s.c1x)} ${n(s.c1y)} ${n(s.c2x)} ${n(s.c2y)} ${n(s.x)} ${n(s.y)} c`);
        break;
      case 'quad': {
        // Not expected (the plan restricts pdf/eps to lines and cubics); exact as a cubic.
        const e = elevateQuad(x0, y0, s);
        if (e.kind === 'cubic') out.push(`${n(e.c1x)} ${n(e.c1y)} ${n(e.c2x)} ${n(e.c2y)} ${n(e.x)} ${n(e.y)} c`);
        break;
      }
      case 'arc':
        // Not expected either; ≤ 90° cubic pieces (a degenerate arc becomes a line).
        cubics.length = 0;
        arcToCubics(cubics, x0, y0, s);
        for (const c of cubics) {
          if (c.kind === 'cubic') out.push(`${n(c.c1x)} ${n(c.c1y)} ${n(c.c2x)} ${n(c.c2y)} ${n(c.x)} ${n(c.y)} c`);
          else out.push(`${n(c.x)} ${n(c.y)} l`);
        }
        break;
    }
    x0 = s.x;
    y0 = s.y;
  }
  if (path.closed) out.push('h');
}

/**
 * The loops a clipped gap filler is confined to: every loop (outer and holes) of its shapes, in
 * page units. Their nonzero union is the clip; it is the same geometry as those shapes' fill
 * items (outer loop + holes), read from the trace so a clip never depends on what else is drawn.
 */
export function clipLoops(plan: OutputPlan, item: StrokeItem): PagePath[] {
  const loops: PagePath[] = [];
  for (const index of item.clipShapes ?? []) {
    const shape = plan.result.shapes[index];
    if (!shape) continue;
    for (const uses of [shape.outer, ...shape.holes]) loops.push(pathOnPage(plan, { uses, closed: true }));
  }
  return loops;
}

// ---------------------------------------------------------------------------------------------
// EPS

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
