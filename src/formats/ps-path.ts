/**
 * Path text shared by the EPS and PDF writers: fixed-point numbers, the page matrix from page
 * units (y down) to points (y up), and subpaths as `m`/`l`/`c`/`h` operator lines (PDF has these
 * operators; the EPS prolog binds the same names). Lines and cubics only: stray quadratics are
 * degree-elevated and arcs split into ≤ 90° cubics. Numbers are fixed-point with trailing zeros
 * trimmed, so the same plan gives the same bytes, and both shapes along a shared boundary, which
 * walk the same chain points, write the same digits.
 */
import type { Segment } from '../engine/types.js';
import { composeAffine, type Affine } from './affine.js';
import { arcToCubics, elevateQuad } from './curves.js';
import { pointsPerUnit } from './page.js';
import { pathOnPage, type OutputPlan, type PagePath, type StrokeItem } from './plan.js';


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
  if (s.indexOf('.') >= 0) {
    // Trailing zeros, then a bare point (a scan, not two regular expressions: this runs for
    // every coordinate of a PDF or EPS file).
    let end = s.length;
    while (s.charCodeAt(end - 1) === 48 /* 0 */) end--;
    if (s.charCodeAt(end - 1) === 46 /* . */) end--;
    s = s.slice(0, end);
  }
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

/**
 * The matrix from traced coordinates to points (y up): the plan's page map, then pageMatrix as
 * written (its numbers rounded like every other), so a gradient pattern lands exactly where the
 * paths drawn through the page map and the written `cm` / `concat` do. Rounded to
 * MATRIX_DECIMALS: its scales can be small (a large trace on a small page). `inner`, when given,
 * is applied first (an elliptical gradient's circle → ellipse map), before the rounding.
 */
export function tracedToPointsMatrix(plan: OutputPlan, inner?: Affine): readonly number[] {
  const [k, , , negK, , top] = pageMatrix(plan).map((v) => Number(formatNumber(v))) as [number, number, number, number, number, number];
  const { scaleX, scaleY, offsetX, offsetY } = plan.page;
  const outer: Affine = [k * scaleX, 0, 0, negK * scaleY, k * offsetX, top + negK * offsetY];
  return (inner ? composeAffine(outer, inner) : outer).map((v) => Number(formatNumber(v, MATRIX_DECIMALS)));
}

/** Decimals of a gradient pattern's matrix. */
export const MATRIX_DECIMALS = 9;

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
