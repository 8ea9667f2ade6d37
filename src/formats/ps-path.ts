/**
 * Path text shared by the EPS and PDF writers: fixed-point numbers, the page matrix from page
 * units (y down) to points (y up), and subpaths as `m`/`l`/`c`/`h` operator lines (PDF has these
 * operators; the EPS prolog binds the same names). Lines and cubics only: stray quadratics are
 * degree-elevated and arcs split into ≤ 90° cubics. Numbers are fixed-point with trailing zeros
 * trimmed, so the same plan gives the same bytes, and both shapes along a shared boundary, which
 * walk the same chain points, write the same digits. Paths are written as bytes into a TextSink
 * (src/formats/text-sink.ts), straight from the plan's chains (writePlanPath) or from a typed
 * page path (appendPath): no segment object or string per segment on the way.
 */
import { SEGMENT_ARC, SEGMENT_CUBIC, SEGMENT_LINE, SEGMENT_QUAD } from '../engine/segment-path.js';
import { composeAffine, type Affine } from './affine.js';
import { arcToCubics, elevateQuad, type PieceSink } from './curves.js';
import { pointsPerUnit } from './page.js';
import { strokeWidthOnPage, walkStart, type OutputPlan, type PagePath, type PlanPath, type StrokeItem } from './plan.js';
import { fixedText, type TextSink } from './text-sink.js';


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
  return fixedText(v, decimals);
}

/** A colour channel (0–255) as a 0–1 operand. */
export function formatChannel(v: number): string {
  return formatNumber(channelOperand(v));
}

function channelOperand(v: number): number {
  return Math.max(0, Math.min(255, v)) / 255;
}

/** `r g b` as formatChannel writes each channel, then `operator` (e.g. " rg\n"). */
export function writeRgb(sink: TextSink, r: number, g: number, b: number, operator: string): void {
  sink.fixed(channelOperand(r), MAX_DECIMALS);
  sink.byte(SPACE);
  sink.fixed(channelOperand(g), MAX_DECIMALS);
  sink.byte(SPACE);
  sink.fixed(channelOperand(b), MAX_DECIMALS);
  sink.text(operator);
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
 * Writes one subpath as operator lines: `x y m`, `x y l`, `x1 y1 x2 y2 x y c`, and `h` when
 * closed, each ended by a line feed. PDF has these operators; the EPS prolog binds the same names.
 */
export function appendPath(sink: TextSink, path: PagePath, decimals: number): void {
  writePoint(sink, path.startX, path.startY, decimals, MOVE);
  const segments = path.segments;
  let x0 = path.startX;
  let y0 = path.startY;
  for (let k = 0; k < segments.length; k++) {
    const x = segments.x(k);
    const y = segments.y(k);
    switch (segments.code(k)) {
      case SEGMENT_LINE:
        writePoint(sink, x, y, decimals, LINE);
        break;
      case SEGMENT_CUBIC:
        writeCubic(sink, segments.c1x(k), segments.c1y(k), segments.c2x(k), segments.c2y(k), x, y, decimals);
        break;
      case SEGMENT_QUAD:
        // Not expected (the plan restricts pdf/eps to lines and cubics); exact as a cubic.
        elevateQuad(new PieceWriter(sink, decimals), x0, y0, segments.cx(k), segments.cy(k), x, y);
        break;
      case SEGMENT_ARC:
        // Not expected either; ≤ 90° cubic pieces (a degenerate arc becomes a line).
        arcToCubics(new PieceWriter(sink, decimals), x0, y0, segments.rx(k), segments.ry(k), segments.rotationDeg(k), segments.largeArc(k), segments.sweep(k), x, y);
        break;
    }
    x0 = x;
    y0 = y;
  }
  if (path.closed) sink.text('h\n');
}

/**
 * appendPath(sink, pathOnPage(plan, path), decimals) without building the page path: the chain
 * uses are walked in place (reversed ones backwards) and each point is mapped onto the page as it
 * is written, with the same arithmetic as pathOnPage (ox + sx·x), so the digits are the same.
 * A large picture's PDF or EPS has hundreds of thousands of segments: no object per segment.
 */
export function writePlanPath(sink: TextSink, plan: OutputPlan, path: PlanPath, decimals: number): void {
  const { scaleX: sx, scaleY: sy, offsetX: ox, offsetY: oy } = plan.page;
  const chains = plan.chains;
  const { uses } = path;
  const start = walkStart(chains, uses);
  let x0 = ox + sx * start.x;
  let y0 = oy + sy * start.y;
  writePoint(sink, x0, y0, decimals, MOVE);
  for (const use of uses) {
    const chain = chains[use.chain]!;
    const segments = chain.segments;
    if (!use.reversed) {
      for (let k = 0; k < segments.length; k++) {
        const x = ox + sx * segments.x(k);
        const y = oy + sy * segments.y(k);
        const code = segments.code(k);
        if (code === SEGMENT_LINE) writePoint(sink, x, y, decimals, LINE);
        else if (code === SEGMENT_CUBIC) writeCubic(sink, ox + sx * segments.c1x(k), oy + sy * segments.c1y(k), ox + sx * segments.c2x(k), oy + sy * segments.c2y(k), x, y, decimals);
        else if (code === SEGMENT_QUAD) elevateQuad(new PieceWriter(sink, decimals), x0, y0, ox + sx * segments.cx(k), oy + sy * segments.cy(k), x, y);
        else arcToCubics(new PieceWriter(sink, decimals), x0, y0, segments.rx(k) * Math.abs(sx), segments.ry(k) * Math.abs(sy), segments.rotationDeg(k), segments.largeArc(k), segments.sweep(k), x, y);
        x0 = x;
        y0 = y;
      }
      continue;
    }
    // Backwards: each segment ends where the one before it ended (or at the chain's start); a
    // cubic swaps its handles, an arc flips its sweep (reverseSegments' rules).
    for (let k = segments.length - 1; k >= 0; k--) {
      const endX = k > 0 ? segments.x(k - 1) : chain.startX;
      const endY = k > 0 ? segments.y(k - 1) : chain.startY;
      const x = ox + sx * endX;
      const y = oy + sy * endY;
      const code = segments.code(k);
      if (code === SEGMENT_LINE) writePoint(sink, x, y, decimals, LINE);
      else if (code === SEGMENT_CUBIC) writeCubic(sink, ox + sx * segments.c2x(k), oy + sy * segments.c2y(k), ox + sx * segments.c1x(k), oy + sy * segments.c1y(k), x, y, decimals);
      else if (code === SEGMENT_QUAD) elevateQuad(new PieceWriter(sink, decimals), x0, y0, ox + sx * segments.cx(k), oy + sy * segments.cy(k), x, y);
      else arcToCubics(new PieceWriter(sink, decimals), x0, y0, segments.rx(k) * Math.abs(sx), segments.ry(k) * Math.abs(sy), segments.rotationDeg(k), segments.largeArc(k), !segments.sweep(k), x, y);
      x0 = x;
      y0 = y;
    }
  }
  if (path.closed) sink.text('h\n');
}

/**
 * A stroke item in the PostScript family's operators: its width (0, a hairline, when it does not
 * scale), each of its paths, then the stroke. EPS: ' setlinewidth\n' and 's\n'; PDF: ' w\n' and 'S\n'.
 */
export function writeStrokePaths(sink: TextSink, plan: OutputPlan, item: StrokeItem, decimals: number, ops: StrokeOperators): void {
  if (item.nonScaling) sink.text(`0${ops.width}`);
  else {
    sink.fixed(strokeWidthOnPage(plan, item), MAX_DECIMALS);
    sink.text(ops.width);
  }
  // Round caps and joins are the page's (set once at its start); a pen stroke (tracelab.strokes)
  // with butt caps or miter joins sets its own and puts the round ones back after it.
  const butt = item.cap === 'butt';
  const miter = item.join === 'miter';
  if (butt) sink.text(`0${ops.cap}`);
  if (miter) sink.text(`0${ops.join}`);
  for (const p of item.paths) writePlanPath(sink, plan, p, decimals);
  sink.text(ops.stroke);
  if (butt) sink.text(`1${ops.cap}`);
  if (miter) sink.text(`1${ops.join}`);
}

/** The operators of a stroke: width, line cap, line join (each after its operand), stroke. */
export interface StrokeOperators {
  readonly width: string;
  readonly cap: string;
  readonly join: string;
  readonly stroke: string;
}

const MOVE = 109; // m
const LINE = 108; // l
const SPACE = 32;
const NEWLINE = 10;

/** `x y m` or `x y l` and a line feed. */
function writePoint(sink: TextSink, x: number, y: number, decimals: number, operator: number): void {
  sink.fixed(x, decimals);
  sink.byte(SPACE);
  sink.fixed(y, decimals);
  sink.byte(SPACE);
  sink.byte(operator);
  sink.byte(NEWLINE);
}

/** `x1 y1 x2 y2 x y c` and a line feed. */
function writeCubic(sink: TextSink, x1: number, y1: number, x2: number, y2: number, x: number, y: number, decimals: number): void {
  sink.fixed(x1, decimals);
  sink.byte(SPACE);
  sink.fixed(y1, decimals);
  sink.byte(SPACE);
  sink.fixed(x2, decimals);
  sink.byte(SPACE);
  sink.fixed(y2, decimals);
  sink.byte(SPACE);
  sink.fixed(x, decimals);
  sink.byte(SPACE);
  sink.fixed(y, decimals);
  sink.text(' c\n');
}

/**
 * Writes the cubic (or line) pieces that stand for a quadratic or an arc as operator lines, to
 * the sink at the decimals of the path being written. Made per such segment: the plan restricts
 * PDF and EPS to lines and cubics, so there are none on the usual path.
 */
class PieceWriter implements PieceSink {
  constructor(
    private readonly sink: TextSink,
    private readonly decimals: number,
  ) {}
  line(x: number, y: number): void {
    writePoint(this.sink, x, y, this.decimals, LINE);
  }
  cubic(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void {
    writeCubic(this.sink, c1x, c1y, c2x, c2y, x, y, this.decimals);
  }
}

/**
 * The loops a clipped gap filler is confined to: every loop (outer and holes) of its shapes. Their
 * nonzero union is the clip; it is the same geometry as those shapes' fill items (outer loop +
 * holes), read from the trace so a clip never depends on what else is drawn.
 */
export function clipLoops(plan: OutputPlan, item: StrokeItem): PlanPath[] {
  const loops: PlanPath[] = [];
  for (const index of item.clipShapes ?? []) {
    const shape = plan.result.shapes[index];
    if (!shape) continue;
    loops.push({ uses: shape.outer, closed: true });
    for (const uses of shape.holes) loops.push({ uses, closed: true });
  }
  return loops;
}
