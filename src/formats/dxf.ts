/**
 * DXF writer: AutoCAD 2007 (AC1021) ASCII DXF.
 * In: an OutputPlan (src/formats/plan.ts). Out: the whole DXF file as one string (writeDxf) or
 * its bytes (writeDxfBytes), written into a reused byte buffer (src/formats/text-sink.ts).
 * Spec: Autodesk "DXF Reference" (AutoCAD 2007+) for the group codes of the HEADER variables,
 * symbol tables, BLOCK/ENDBLK, LWPOLYLINE, CIRCLE, ELLIPSE, SPLINE, DICTIONARY and LAYOUT; the
 * minimal R2000+ content (required tables, blocks and root dictionary) as ezdxf documents it
 * ("DXF Internals: Minimal DXF Content").
 *
 * File: HEADER, CLASSES, TABLES, BLOCKS, ENTITIES, OBJECTS, EOF. Every object has a unique hex
 * handle (5, DIMSTYLE 105), an owner (330) and its subclass markers (100); $HANDSEED is the next
 * free handle. Lines end in CRLF, as AutoCAD writes them (AutoCAD, ezdxf and LibreCAD read CRLF
 * and LF alike); group codes are right-aligned in three columns like AutoCAD's own files. R2007
 * files are UTF-8; every name written here is ASCII anyway.
 *
 * Geometry: page units (plan.page), y up: y_dxf = page.height − y_page. $INSUNITS follows the
 * page unit: in → 1, mm → 4, cm → 5; none, px and pt → 0 (unitless: DXF has no pixel or point
 * unit, so such a drawing is in page units that CAD programs treat as plain numbers).
 * $EXTMIN/$EXTMAX are the page (0,0)–(width,height). Paths come from the plan as typed page paths
 * (pathOnPage / fillOnPage) read through SegmentPath's accessors: the only objects per point are
 * the entities' own vertices and spline control points.
 *
 * Entities by output.dxf.compatibility_level (reference §3.1.2):
 *   lines_only             every loop/path is one LWPOLYLINE without bulges (closed flag for
 *                          closed paths); the plan has turned curves into lines already, anything
 *                          else is flattened within line_fit_tolerance.
 *   lines_and_arcs         one LWPOLYLINE per loop, circular arcs as bulges; elliptical arcs are
 *                          flattened into the same polyline so a closed loop stays one closed
 *                          entity. Circle primitives → CIRCLE, ellipse primitives → ELLIPSE.
 *   lines_arcs_and_splines as above; a loop with Béziers becomes one cubic SPLINE (each piece a
 *                          Bézier: knots of multiplicity 3 at the joints, clamped ends; a closed
 *                          loop ends on its first control point).
 * Fills are written as their outline loops (no HATCH: CAD and cutter users want the contours);
 * strokes as their paths. A gradient fill (tracelab.gradients) adds, before its outline, a HATCH
 * with DXF gradient data (see gradientHatch for what DXF can and cannot say); strokes stay flat
 * in their colour (a gradient stroke in its fallback colour). Gap-filler strokes are not written: they hide seams between filled
 * areas in renderers, and DXF outlines have no fill, so they would only duplicate every shared
 * boundary (a double cut on a laser).
 *
 * Layers: the outermost group of an item (group_by) names its layer, else "0". Colour: true
 * colour (420) plus the nearest ACI (62) for readers that only know the 255 indexed colours;
 * alpha below 255 as transparency (440). Strokes get a lineweight (370) when the page unit is a
 * length. Numbers are plain decimals (never exponent notation), so the same plan gives the same
 * bytes everywhere.
 */
import { SEGMENT_ARC, SEGMENT_CUBIC, SEGMENT_LINE, SEGMENT_QUAD, SegmentBuilder, type SegmentPath } from '../engine/segment-path.js';
import type { Gradient, Rgba } from '../engine/types.js';
import { arcToCubics, elevateQuad, type PieceSink } from './curves.js';
import { arcCenter, arcPoint, flattenPath } from './flatten.js';
import { gradientT, isElliptical, mapGradient, rampColor } from './gradient.js';
import { isUniform } from './page.js';
import {
  fillOnPage,
  forEachDrawable,
  pathOnPage,
  primitiveOnPage,
  strokeWidthOnPage,
  type FillItem,
  type OutputPlan,
  type PagePath,
  type StrokeItem,
} from './plan.js';
import { decimalText, roundedSteps, TextSink } from './text-sink.js';
import type { DxfCompatibility, SizeUnit } from './types.js';

export function writeDxf(plan: OutputPlan): string {
  return writeDxfInto(new TextSink(FIRST_BUFFER_BYTES), plan).toString();
}

/** writeDxf's text as UTF-8 bytes (what a file holds), without the string in between. */
export function writeDxfBytes(plan: OutputPlan): Uint8Array {
  return writeDxfInto(new TextSink(FIRST_BUFFER_BYTES), plan).toBytes();
}

function writeDxfInto(sink: TextSink, plan: OutputPlan): TextSink {
  const entities = collectEntities(plan);
  const layers = collectLayers(entities);
  const handles = allocateHandles(layers.length, entities.length);
  const out = new TagWriter(sink);
  writeHeader(out, plan, handles.seed);
  writeClasses(out);
  writeTables(out, plan, layers, handles);
  writeBlocks(out, handles);
  writeEntities(out, entities, handles);
  writeObjects(out, plan, handles);
  out.add(0, 'EOF');
  return sink;
}

// ---------------------------------------------------------------------------------------------
// Geometry in the DXF frame (page units, y up)

interface Vertex {
  x: number;
  y: number;
  /** tan(sweep/4) of the arc to the next vertex; positive = counter-clockwise (y up). */
  bulge: number;
}

type Geometry =
  | { readonly kind: 'lwpolyline'; readonly vertices: readonly Vertex[]; readonly closed: boolean }
  | { readonly kind: 'circle'; readonly cx: number; readonly cy: number; readonly r: number }
  /** Major axis (mx, my) relative to the centre; ratio = minor/major ≤ 1. */
  | { readonly kind: 'ellipse'; readonly cx: number; readonly cy: number; readonly mx: number; readonly my: number; readonly ratio: number }
  /** Cubic, clamped; a closed loop ends on its first control point. */
  | { readonly kind: 'spline'; readonly points: readonly (readonly [number, number])[]; readonly knots: readonly number[] }
  /** A gradient-filled HATCH: closed polyline boundaries (outer first), odd-parity fill. */
  | { readonly kind: 'hatch'; readonly loops: readonly (readonly Vertex[])[]; readonly gradient: DxfGradient };

/** DXF's gradient: a named pattern, a rotation and two colours, laid over the boundary's extents. */
interface DxfGradient {
  readonly name: 'LINEAR' | 'SPHERICAL';
  /** Counter-clockwise from +x, radians (group 460). */
  readonly angle: number;
  readonly color1: Rgba;
  readonly color2: Rgba;
}

interface Entity {
  readonly geometry: Geometry;
  readonly layer: string;
  readonly color: Rgba;
  /** Hundredths of a millimetre, one of the DXF lineweights. */
  readonly lineweight?: number;
}

/** What the geometry conversion needs from the plan. */
interface Frame {
  readonly mode: DxfCompatibility;
  /** Page height: y_dxf = height − y_page. */
  readonly height: number;
  /** Line-fit tolerance in page units (for curves DXF cannot carry at this level). */
  readonly tolerance: number;
}

function collectEntities(plan: OutputPlan): Entity[] {
  const frame: Frame = {
    mode: plan.options.dxf.compatibility,
    height: plan.page.height,
    tolerance: plan.options.curves.lineFitTolerancePx * plan.page.unitsPerInputPx,
  };
  const entities: Entity[] = [];
  // Where every stroke path is walked (the paths taken keep their numbers in its arena).
  const walked = new SegmentBuilder();
  forEachDrawable(plan.items, (item, groups) => {
    const layer = groups.length > 0 ? layerName(groups[0]!) : '0';
    if (item.kind === 'fill') {
      const hatch = item.gradient ? gradientHatch(plan, item, frame) : undefined;
      if (hatch) entities.push({ geometry: hatch, layer, color: item.color });
      for (const geometry of fillGeometry(plan, item, frame)) entities.push({ geometry, layer, color: item.color });
    } else {
      if (item.role === 'gap_filler') return;
      const lineweight = strokeLineweight(plan, item);
      for (const path of item.paths) {
        const geometry = pathGeometry(pathOnPage(plan, path, walked), frame);
        if (geometry) entities.push({ geometry, layer, color: item.color, ...(lineweight !== undefined ? { lineweight } : {}) });
      }
    }
  });
  return entities;
}

function fillGeometry(plan: OutputPlan, item: FillItem, frame: Frame): Geometry[] {
  if (item.primitive && frame.mode !== 'lines_only' && isUniform(plan.page)) {
    const p = primitiveOnPage(plan, item.primitive);
    if (p.kind === 'circle' && p.r > 0) return [{ kind: 'circle', cx: p.cx, cy: frame.height - p.cy, r: p.r }];
    if (p.kind === 'ellipse' && p.rx > 0 && p.ry > 0) return [ellipseGeometry(p.cx, frame.height - p.cy, p.rx, p.ry, p.rotationDeg)];
    // Rectangles stay polylines: a closed LWPOLYLINE is the CAD rectangle.
  }
  const out: Geometry[] = [];
  for (const loop of fillOnPage(plan, item)) {
    const g = pathGeometry(loop, frame);
    if (g) out.push(g);
  }
  return out;
}

/**
 * The HATCH of a gradient fill: its loops as closed polylines (bulges for circular arcs unless
 * lines_only; everything else flattened within the tolerance) and the closest DXF gradient.
 * DXF gradients have two colours and lay them over the boundary's extents, so:
 * - linear → LINEAR at the angle in which our ramp grows on the page (exact under a stretched
 *   page, whose map turns the axis); its colours are our colours at the boundary's two extreme
 *   points along that direction (the first stop and the last when the axis spans the shape).
 *   Stops in between are lost: DXF blends straight from one colour to the other.
 * - radial → SPHERICAL, centred (461 = 0) on the boundary's extents, the only centre DXF can
 *   name (its "shifted" variant moves it up-left by an amount of its own). Its second colour, the
 *   highlight at that centre, is our colour there, its first our colour at the boundary point
 *   farthest from our centre (in t: for an ellipse, the point with the largest elliptical t).
 *   DXF's sphere has no axis ratio: an elliptical gradient keeps only its long axis's direction
 *   on the page as the angle (460, in [0, π)); a circle's angle stays 0.
 */
function gradientHatch(plan: OutputPlan, item: FillItem, frame: Frame): Geometry | undefined {
  const g = item.gradient!;
  const boundaryFrame: Frame = { ...frame, mode: frame.mode === 'lines_only' ? 'lines_only' : 'lines_and_arcs' };
  const loops: Vertex[][] = [];
  for (const loop of fillOnPage(plan, item)) {
    const p = polylineGeometry(loop, boundaryFrame);
    // Two vertices still enclose an area when bulges join them (a circle is two half-circles).
    if (p?.kind === 'lwpolyline' && (p.vertices.length >= 3 || p.vertices.some((v) => v.bulge !== 0))) loops.push([...p.vertices]);
  }
  if (loops.length === 0) return undefined;
  // Boundary points back in traced coordinates, where the gradient is defined.
  const { scaleX, scaleY, offsetX, offsetY } = plan.page;
  const traced = (x: number, y: number): [number, number] => [(x - offsetX) / scaleX, (frame.height - y - offsetY) / scaleY];
  let tMin = Infinity;
  let tMax = -Infinity;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const loop of isElliptical(g) ? flattenedOutline(plan, item, frame) : loops) {
    for (const v of loop) {
      const t = gradientT(g, ...traced(v.x, v.y));
      tMin = Math.min(tMin, t);
      tMax = Math.max(tMax, t);
      minX = Math.min(minX, v.x);
      minY = Math.min(minY, v.y);
      maxX = Math.max(maxX, v.x);
      maxY = Math.max(maxY, v.y);
    }
  }
  if (g.kind === 'linear') {
    // The direction of steepest growth of t on the page (y down), then flipped to y up.
    const dx = (g.x2 - g.x1) / scaleX;
    const dy = (g.y2 - g.y1) / scaleY;
    const angle = Math.atan2(-dy, dx);
    const gradient: DxfGradient = { name: 'LINEAR', angle: angle < 0 ? angle + 2 * Math.PI : angle, color1: rampColor(g.stops, tMin), color2: rampColor(g.stops, tMax) };
    return { kind: 'hatch', loops, gradient };
  }
  const centre = rampColor(g.stops, gradientT(g, ...traced((minX + maxX) / 2, (minY + maxY) / 2)));
  return { kind: 'hatch', loops, gradient: { name: 'SPHERICAL', angle: longAxisAngle(plan, g), color1: rampColor(g.stops, tMax), color2: centre } };
}

/**
 * A fill's outline flattened within the tolerance, in the DXF frame (y up). An elliptical ramp
 * peaks inside arcs (a circle's two half-arcs give the hatch only two vertices), so its colours
 * and extents are taken along the whole outline; linear and circular ramps keep the hatch's
 * vertices, as before ellipses existed.
 */
function flattenedOutline(plan: OutputPlan, item: FillItem, frame: Frame): { x: number; y: number }[][] {
  return fillOnPage(plan, item).map((loop) => {
    const p = flattenPath(loop.startX, loop.startY, loop.segments, frame.tolerance);
    const points: { x: number; y: number }[] = [];
    for (let i = 0; i < p.length; i += 2) points.push({ x: p[i]!, y: frame.height - p[i + 1]! });
    return points;
  });
}

/**
 * The direction of an elliptical gradient's long axis on the page, counter-clockwise from +x
 * with y up, in [0, π) (an axis has no sign); 0 for a circle. The page map may stretch the
 * ellipse, so the axes are taken after it (mapGradient: exact for ellipses).
 */
function longAxisAngle(plan: OutputPlan, g: Gradient): number {
  if (!isElliptical(g)) return 0;
  const { scaleX, scaleY, offsetX, offsetY } = plan.page;
  const onPage = mapGradient(g, scaleX, scaleY, offsetX, offsetY);
  if (!isElliptical(onPage)) return 0;
  // rotationDeg turns clockwise on the y-down page: counter-clockwise with y up is its negative.
  const longDeg = (onPage.rotationDeg ?? 0) + (onPage.ry > onPage.r ? 90 : 0);
  const angle = (-longDeg * Math.PI) / 180;
  return angle - Math.PI * Math.floor(angle / Math.PI);
}

/**
 * A full ellipse given on the page (y down, x radius turned by `rotationDeg`). The y flip mirrors
 * the axis directions: (cos φ, sin φ) becomes (cos φ, −sin φ). DXF wants the longer axis as the
 * major one, so a taller-than-wide ellipse takes the y radius's direction (−sin φ, cos φ) → flipped.
 */
function ellipseGeometry(cx: number, cy: number, rx: number, ry: number, rotationDeg: number): Geometry {
  const phi = (rotationDeg * Math.PI) / 180;
  const c = Math.cos(phi);
  const s = Math.sin(phi);
  if (rx >= ry) return { kind: 'ellipse', cx, cy, mx: rx * c, my: -rx * s, ratio: ry / rx };
  return { kind: 'ellipse', cx, cy, mx: -ry * s, my: -ry * c, ratio: rx / ry };
}

/** One path (page units, y down) as one entity; undefined when nothing is left to draw. */
function pathGeometry(path: PagePath, frame: Frame): Geometry | undefined {
  const hasBezier = path.segments.hasKind(SEGMENT_QUAD) || path.segments.hasKind(SEGMENT_CUBIC);
  if (frame.mode === 'lines_arcs_and_splines' && hasBezier) return splineGeometry(path, frame);
  return polylineGeometry(path, frame);
}

function polylineGeometry(path: PagePath, frame: Frame): Geometry | undefined {
  // Built on the page (y down) with bulges already in the DXF sense; flipped at the end.
  const pts: Vertex[] = [{ x: path.startX, y: path.startY, bulge: 0 }];
  const segments = path.segments;
  let x0 = path.startX;
  let y0 = path.startY;
  for (let k = 0; k < segments.length; k++) {
    appendSegment(pts, x0, y0, segments, k, frame);
    x0 = segments.x(k);
    y0 = segments.y(k);
  }
  const vertices = dropRepeatedVertices(pts, path.closed);
  if (vertices.length < 2) return undefined;
  for (const v of vertices) v.y = frame.height - v.y;
  return { kind: 'lwpolyline', vertices, closed: path.closed };
}

/** Relative radius difference under which an arc is drawn as a bulge: the isUniform bound. */
const CIRCULAR_TOLERANCE = 1e-3;

/** Adds the vertices after (x0, y0) for segment k; the bulge goes on the segment's start vertex. */
function appendSegment(pts: Vertex[], x0: number, y0: number, segments: SegmentPath, k: number, frame: Frame): void {
  const start = pts[pts.length - 1]!;
  const code = segments.code(k);
  const x = segments.x(k);
  const y = segments.y(k);
  if (code === SEGMENT_LINE) {
    pts.push({ x, y, bulge: 0 });
    return;
  }
  if (code === SEGMENT_ARC && frame.mode !== 'lines_only') {
    const rx = segments.rx(k);
    const ry = segments.ry(k);
    if (Math.abs(rx - ry) <= CIRCULAR_TOLERANCE * Math.max(rx, ry)) {
      const a = arcCenter(x0, y0, rx, ry, segments.rotationDeg(k), segments.largeArc(k), segments.sweep(k), x, y);
      if (!a) {
        pts.push({ x, y, bulge: 0 });
        return;
      }
      // On the y-down page a positive sweep turns clockwise as seen, which is a negative bulge once
      // y points up. Arcs over a half turn are split: the bulge tan(Δ/4) grows without bound as Δ → 2π.
      if (Math.abs(a.delta) <= Math.PI) {
        start.bulge = -Math.tan(a.delta / 4);
      } else {
        const [mx, my] = arcPoint(a, a.theta1 + a.delta / 2);
        start.bulge = -Math.tan(a.delta / 8);
        pts.push({ x: mx, y: my, bulge: -Math.tan(a.delta / 8) });
      }
      pts.push({ x, y, bulge: 0 });
      return;
    }
  }
  // Elliptical arcs (and, defensively, Béziers the plan should have removed) become lines.
  const p = flattenPath(x0, y0, segments, frame.tolerance, k, k + 1);
  for (let i = 2; i < p.length; i += 2) pts.push({ x: p[i]!, y: p[i + 1]!, bulge: 0 });
}

/**
 * Removes zero-length steps (equal once written) and, for closed paths, the final vertex that
 * repeats the first: LWPOLYLINE closes itself, with the last vertex's bulge on the closing piece.
 * Takes over the vertices it keeps (and may change their bulges): `pts` is the caller's scratch.
 */
function dropRepeatedVertices(pts: readonly Vertex[], closed: boolean): Vertex[] {
  const out: Vertex[] = [];
  for (const p of pts) {
    const prev = out[out.length - 1];
    // The piece starting at p now starts at prev (they are the same point).
    if (prev && samePoint(prev, p)) prev.bulge = p.bulge;
    else out.push(p);
  }
  if (closed && out.length > 1 && samePoint(out[0]!, out[out.length - 1]!)) out.pop();
  return out;
}

/** Whether two points are written with the same text (num's six decimals). */
function samePoint(a: { x: number; y: number }, b: { x: number; y: number }): boolean {
  return sameWritten(a.x, b.x) && sameWritten(a.y, b.y);
}

/**
 * num(a) === num(b), mostly without making the strings: the written text is the rounded count of
 * millionths (roundedSteps), unless that cannot be told without toFixed (then the texts decide).
 */
function sameWritten(a: number, b: number): boolean {
  const stepsA = roundedSteps(a, 6);
  const stepsB = roundedSteps(b, 6);
  if (Number.isNaN(stepsA) || Number.isNaN(stepsB)) return num(a) === num(b);
  return stepsA === stepsB;
}

/**
 * A path with Béziers as one cubic B-spline: every piece becomes a cubic Bézier (lines with
 * control points at thirds, quadratics elevated exactly, arcs as ≤ 90° cubics) and a cubic
 * B-spline with knots of multiplicity 3 at each joint (4 at the clamped ends) has exactly those
 * Béziers as its pieces. Control points: P0, then c1, c2, P3 of every piece.
 */
function splineGeometry(path: PagePath, frame: Frame): Geometry | undefined {
  const cubics = toCubics(path);
  if (path.closed) {
    const lastX = cubics.count > 0 ? cubics.endX() : path.startX;
    const lastY = cubics.count > 0 ? cubics.endY() : path.startY;
    if (!sameWritten(lastX, path.startX) || !sameWritten(lastY, path.startY)) cubics.lineFrom(lastX, lastY, path.startX, path.startY);
  }
  const n = cubics.count;
  if (n === 0) return undefined;
  const flip = (x: number, y: number): [number, number] => [x, frame.height - y];
  const points: [number, number][] = [flip(path.startX, path.startY)];
  const xy = cubics.xy;
  for (let i = 0; i < xy.length; i += 2) points.push(flip(xy[i]!, xy[i + 1]!));
  // A closed spline ends exactly on its first control point.
  if (path.closed) points[points.length - 1] = [points[0]![0], points[0]![1]];
  const knots = [0, 0, 0, 0];
  for (let i = 1; i < n; i++) knots.push(i, i, i);
  knots.push(n, n, n, n);
  return { kind: 'spline', points, knots };
}

/**
 * Cubic Bézier pieces in page units as their control points c1, c2 and end, six numbers a piece
 * (the spline's control points after P0). A PieceSink, so quadratics and arcs are converted
 * straight into it; `line` draws from the pen, the end of the piece before (or what the caller
 * set with moveTo).
 */
class CubicPieces implements PieceSink {
  readonly xy: number[] = [];
  private penX = 0;
  private penY = 0;

  get count(): number {
    return this.xy.length / 6;
  }
  endX(): number {
    return this.xy[this.xy.length - 2]!;
  }
  endY(): number {
    return this.xy[this.xy.length - 1]!;
  }
  moveTo(x: number, y: number): void {
    this.penX = x;
    this.penY = y;
  }
  cubic(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void {
    this.xy.push(c1x, c1y, c2x, c2y, x, y);
    this.penX = x;
    this.penY = y;
  }
  line(x: number, y: number): void {
    this.lineFrom(this.penX, this.penY, x, y);
  }
  /** The straight piece from (x0, y0) to (x1, y1), control points at its thirds. */
  lineFrom(x0: number, y0: number, x1: number, y1: number): void {
    const dx = x1 - x0;
    const dy = y1 - y0;
    this.cubic(x0 + dx / 3, y0 + dy / 3, x0 + (2 * dx) / 3, y0 + (2 * dy) / 3, x1, y1);
  }
}

function toCubics(path: PagePath): CubicPieces {
  const out = new CubicPieces();
  const segments = path.segments;
  let x0 = path.startX;
  let y0 = path.startY;
  for (let k = 0; k < segments.length; k++) {
    const x = segments.x(k);
    const y = segments.y(k);
    // Each segment starts at the end of the one before, whatever pieces stood for it.
    out.moveTo(x0, y0);
    switch (segments.code(k)) {
      case SEGMENT_LINE:
        out.line(x, y);
        break;
      case SEGMENT_QUAD:
        elevateQuad(out, x0, y0, segments.cx(k), segments.cy(k), x, y);
        break;
      case SEGMENT_CUBIC:
        out.cubic(segments.c1x(k), segments.c1y(k), segments.c2x(k), segments.c2y(k), x, y);
        break;
      case SEGMENT_ARC:
        arcToCubics(out, x0, y0, segments.rx(k), segments.ry(k), segments.rotationDeg(k), segments.largeArc(k), segments.sweep(k), x, y);
        break;
    }
    x0 = x;
    y0 = y;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Layers, colours, lineweights

/** Characters AutoCAD refuses in symbol table names. Group ids never contain them; kept safe. */
function layerName(id: string): string {
  const name = id.replace(/[<>/\\":;?*|=`,]/g, '_').trim();
  return name === '' ? '0' : name;
}

interface Layer {
  readonly name: string;
  /** The one colour of everything on the layer, if there is one (shown as the layer's colour). */
  readonly color?: Rgba;
}

/** Layer "0" first (it always exists), then the others in the order entities first use them. */
function collectLayers(entities: readonly Entity[]): Layer[] {
  // Per layer: its one colour so far, or null once two colours meet on it.
  const colors = new Map<string, Rgba | null | undefined>([['0', undefined]]);
  for (const e of entities) {
    const seen = colors.get(e.layer);
    if (seen === undefined) colors.set(e.layer, e.color);
    else if (seen !== null && trueColor(seen) !== trueColor(e.color)) colors.set(e.layer, null);
  }
  return [...colors].map(([name, color]) => (color ? { name, color } : { name }));
}

function trueColor(c: Rgba): number {
  const byte = (v: number): number => Math.max(0, Math.min(255, Math.round(v)));
  return (byte(c.r) << 16) | (byte(c.g) << 8) | byte(c.b);
}

/**
 * The AutoCAD Color Index palette (index 0 unused): 1–9 the named colours, 10–249 24 hues in
 * 15° steps × 5 brightness levels × full/half saturation, 250–255 greys. Built from that rule (the
 * AutoCAD 2020 levels 255/165/127/76/38); published tables differ from it by a unit here and
 * there, which does not matter for a nearest-colour fallback.
 */
const ACI_PALETTE: readonly (readonly [number, number, number])[] = buildAciPalette();

function buildAciPalette(): [number, number, number][] {
  const out: [number, number, number][] = [[0, 0, 0]];
  out.push([255, 0, 0], [255, 255, 0], [0, 255, 0], [0, 255, 255], [0, 0, 255], [255, 0, 255], [255, 255, 255], [128, 128, 128], [192, 192, 192]);
  const levels = [255, 165, 127, 76, 38];
  for (let i = 10; i < 250; i++) {
    const hue = (Math.floor(i / 10) - 1) * 15;
    const v = levels[(i % 10) >> 1]!;
    const lo = i % 2 === 1 ? Math.floor(v / 2) : 0;
    const sector = Math.floor(hue / 60);
    const f = (hue - sector * 60) / 60;
    const up = Math.floor(lo + (v - lo) * f);
    const down = Math.floor(v - (v - lo) * f);
    const rgb: [number, number, number][] = [[v, up, lo], [down, v, lo], [lo, v, up], [lo, down, v], [up, lo, v], [v, lo, down]];
    out.push(rgb[sector]!);
  }
  out.push([0, 0, 0], [101, 101, 101], [102, 102, 102], [153, 153, 153], [204, 204, 204], [255, 255, 255]);
  return out;
}

/**
 * The palette index closest to a colour (squared RGB distance, lowest index on ties). Index 7 is
 * left out: it is drawn white on dark screens and black on paper, never a fixed colour.
 */
export function nearestAci(c: Rgba): number {
  const t = trueColor(c);
  const r = (t >> 16) & 255;
  const g = (t >> 8) & 255;
  const b = t & 255;
  let best = 1;
  let bestD = Infinity;
  for (let i = 1; i < ACI_PALETTE.length; i++) {
    if (i === 7) continue;
    const p = ACI_PALETTE[i]!;
    const d = (p[0] - r) ** 2 + (p[1] - g) ** 2 + (p[2] - b) ** 2;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** The lineweights DXF allows (hundredths of a millimetre). */
const LINEWEIGHTS = [0, 5, 9, 13, 15, 18, 20, 25, 30, 35, 40, 50, 53, 60, 70, 80, 90, 100, 106, 120, 140, 158, 200, 211];

const MM_PER_UNIT: Partial<Record<SizeUnit, number>> = { in: 25.4, mm: 1, cm: 10 };

/** The nearest allowed lineweight to the stroke width, when the page unit is a length. */
function strokeLineweight(plan: OutputPlan, item: StrokeItem): number | undefined {
  const mmPerUnit = MM_PER_UNIT[plan.page.unit];
  if (mmPerUnit === undefined) return undefined;
  const hundredths = strokeWidthOnPage(plan, item) * mmPerUnit * 100;
  let best = LINEWEIGHTS[0]!;
  for (const w of LINEWEIGHTS) if (Math.abs(w - hundredths) < Math.abs(best - hundredths)) best = w;
  return best;
}

/** DXF $INSUNITS codes; pixels and points have none, so those drawings are unitless (0). */
const INSUNITS: Record<SizeUnit, number> = { none: 0, px: 0, pt: 0, in: 1, mm: 4, cm: 5 };

// ---------------------------------------------------------------------------------------------
// Handles

interface Handles {
  readonly tables: Readonly<Record<TableName, string>>;
  readonly vport: string;
  readonly ltypes: readonly [string, string, string];
  readonly layers: readonly string[];
  readonly style: string;
  readonly appid: string;
  readonly dimstyle: string;
  readonly modelRecord: string;
  readonly paperRecord: string;
  readonly modelBlock: readonly [string, string];
  readonly paperBlock: readonly [string, string];
  readonly rootDict: string;
  readonly colorDict: string;
  readonly groupDict: string;
  readonly layoutDict: string;
  readonly mlineDict: string;
  readonly plotSettingsDict: string;
  readonly plotStyleDict: string;
  readonly plotStyleNormal: string;
  readonly mlineStandard: string;
  readonly modelLayout: string;
  readonly paperLayout: string;
  readonly entities: readonly string[];
  /** $HANDSEED: larger than every handle in the file. */
  readonly seed: string;
}

type TableName = 'VPORT' | 'LTYPE' | 'LAYER' | 'STYLE' | 'VIEW' | 'UCS' | 'APPID' | 'DIMSTYLE' | 'BLOCK_RECORD';
const TABLE_ORDER: readonly TableName[] = ['VPORT', 'LTYPE', 'LAYER', 'STYLE', 'VIEW', 'UCS', 'APPID', 'DIMSTYLE', 'BLOCK_RECORD'];

/** Sequential handles from 1 (0 means "no owner"), in a fixed order: deterministic files. */
function allocateHandles(layerCount: number, entityCount: number): Handles {
  let next = 1;
  const h = (): string => (next++).toString(16).toUpperCase();
  const tables = {} as Record<TableName, string>;
  for (const t of TABLE_ORDER) tables[t] = h();
  return {
    tables,
    vport: h(),
    ltypes: [h(), h(), h()],
    layers: Array.from({ length: layerCount }, h),
    style: h(),
    appid: h(),
    dimstyle: h(),
    modelRecord: h(),
    paperRecord: h(),
    modelBlock: [h(), h()],
    paperBlock: [h(), h()],
    rootDict: h(),
    colorDict: h(),
    groupDict: h(),
    layoutDict: h(),
    mlineDict: h(),
    plotSettingsDict: h(),
    plotStyleDict: h(),
    plotStyleNormal: h(),
    mlineStandard: h(),
    modelLayout: h(),
    paperLayout: h(),
    entities: Array.from({ length: entityCount }, h),
    seed: h(),
  };
}

// ---------------------------------------------------------------------------------------------
// Tag output

/** Group codes whose values are doubles (the rest written here are integers or strings). */
function isFloatCode(code: number): boolean {
  return (code >= 10 && code <= 59) || (code >= 110 && code <= 149) || (code >= 210 && code <= 239) || (code >= 460 && code <= 469) || (code >= 1010 && code <= 1059);
}

/**
 * A double as plain decimal text: at most `decimals` decimals, trailing zeros trimmed but one
 * digit kept after the point ("12.0"), never exponent notation, never "-0".
 */
export function num(v: number, decimals = 6): string {
  return decimalText(v, decimals);
}

/**
 * Group code / value pairs, each on its own CRLF line, written as bytes into a reused TextSink
 * (a large picture's DXF has millions of lines: no string per number or line, no join).
 */
class TagWriter {
  constructor(private readonly sink: TextSink) {}

  /** One group: numbers are formatted by the code's type (doubles vs integers). */
  add(code: number, value: string | number): void {
    const sink = this.sink;
    this.code(code);
    if (typeof value === 'string') sink.text(value);
    else if (isFloatCode(code)) sink.decimal(value, 6);
    else writeRounded(sink, value);
    sink.byte(CR);
    sink.byte(LF);
  }

  point(code: number, x: number, y: number, z?: number): void {
    this.add(code, x);
    this.add(code + 10, y);
    if (z !== undefined) this.add(code + 20, z);
  }

  /** The group code right-aligned in three columns (`String(code).padStart(3)`), and its line end. */
  private code(code: number): void {
    const sink = this.sink;
    if (code >= 0 && code < 100) {
      sink.byte(SPACE);
      if (code < 10) sink.byte(SPACE);
    }
    sink.integer(code);
    sink.byte(CR);
    sink.byte(LF);
  }
}

/** `String(Math.round(v))`, the text of an integer group value. */
function writeRounded(sink: TextSink, v: number): void {
  const r = Math.round(v);
  if (Number.isSafeInteger(r) && !Object.is(r, -0)) sink.integer(r);
  else sink.text(String(r));
}

const SPACE = 32;
const CR = 13;
const LF = 10;

/** A file's buffer to start with (64 KiB), doubled as the file grows: one per file. */
const FIRST_BUFFER_BYTES = 1 << 16;

// ---------------------------------------------------------------------------------------------
// Sections

function writeHeader(out: TagWriter, plan: OutputPlan, seed: string): void {
  const { width, height, unit } = plan.page;
  out.add(0, 'SECTION');
  out.add(2, 'HEADER');
  out.add(9, '$ACADVER');
  out.add(1, 'AC1021');
  out.add(9, '$DWGCODEPAGE');
  out.add(3, 'ANSI_1252');
  out.add(9, '$INSBASE');
  out.point(10, 0, 0, 0);
  out.add(9, '$EXTMIN');
  out.point(10, 0, 0, 0);
  out.add(9, '$EXTMAX');
  out.point(10, width, height, 0);
  out.add(9, '$LIMMIN');
  out.point(10, 0, 0);
  out.add(9, '$LIMMAX');
  out.point(10, width, height);
  out.add(9, '$CLAYER');
  out.add(8, '0');
  out.add(9, '$LUNITS');
  out.add(70, 2);
  out.add(9, '$LUPREC');
  out.add(70, 4);
  out.add(9, '$INSUNITS');
  out.add(70, INSUNITS[unit]);
  // Imperial hatch patterns and linetypes for inch drawings, metric for everything else.
  out.add(9, '$MEASUREMENT');
  out.add(70, unit === 'in' ? 0 : 1);
  out.add(9, '$HANDSEED');
  out.add(5, seed);
  out.add(0, 'ENDSEC');
}

/** Class definitions for the non-fixed object types written in OBJECTS. */
function writeClasses(out: TagWriter): void {
  out.add(0, 'SECTION');
  out.add(2, 'CLASSES');
  for (const [dxfName, cppName] of [
    ['ACDBDICTIONARYWDFLT', 'AcDbDictionaryWithDefault'],
    ['ACDBPLACEHOLDER', 'AcDbPlaceHolder'],
    ['LAYOUT', 'AcDbLayout'],
  ] as const) {
    out.add(0, 'CLASS');
    out.add(1, dxfName);
    out.add(2, cppName);
    out.add(3, 'ObjectDBX Classes');
    out.add(90, 0);
    out.add(91, 0);
    out.add(280, 0);
    out.add(281, 0);
  }
  out.add(0, 'ENDSEC');
}

function tableStart(out: TagWriter, name: TableName, handle: string, count: number): void {
  out.add(0, 'TABLE');
  out.add(2, name);
  out.add(5, handle);
  out.add(330, '0');
  out.add(100, 'AcDbSymbolTable');
  out.add(70, count);
}

function recordStart(out: TagWriter, type: string, handle: string, owner: string, subclass: string): void {
  out.add(0, type);
  // DIMSTYLE is the one record whose handle has group code 105.
  out.add(type === 'DIMSTYLE' ? 105 : 5, handle);
  out.add(330, owner);
  out.add(100, 'AcDbSymbolTableRecord');
  out.add(100, subclass);
}

function writeTables(out: TagWriter, plan: OutputPlan, layers: readonly Layer[], h: Handles): void {
  out.add(0, 'SECTION');
  out.add(2, 'TABLES');
  writeViewportTable(out, plan, h);
  writeLinetypeTable(out, h);
  writeLayerTable(out, layers, h);
  writeStyleTable(out, h);
  writeEmptyTables(out, h);
  writeAppidTable(out, h);
  writeDimstyleTable(out, h);
  writeBlockRecordTable(out, plan, h);
  out.add(0, 'ENDSEC');
}

/** The active viewport looks at the whole page. */
function writeViewportTable(out: TagWriter, plan: OutputPlan, h: Handles): void {
  const t = h.tables;
  const { width, height } = plan.page;
  tableStart(out, 'VPORT', t.VPORT, 1);
  recordStart(out, 'VPORT', h.vport, t.VPORT, 'AcDbViewportTableRecord');
  out.add(2, '*Active');
  out.add(70, 0);
  out.point(10, 0, 0);
  out.point(11, 1, 1);
  out.point(12, width / 2, height / 2);
  out.point(13, 0, 0);
  out.point(14, 1, 1);
  out.point(15, 10, 10);
  out.point(16, 0, 0, 1);
  out.point(17, 0, 0, 0);
  out.add(40, Math.max(height, width / 1.5) * 1.05 || 1);
  out.add(41, 1.5);
  out.add(42, 50);
  out.add(43, 0);
  out.add(44, 0);
  out.add(50, 0);
  out.add(51, 0);
  out.add(71, 0);
  out.add(72, 1000);
  out.add(73, 1);
  out.add(74, 3);
  out.add(75, 0);
  out.add(76, 0);
  out.add(77, 0);
  out.add(78, 0);
  out.add(281, 0);
  out.add(65, 1);
  out.point(110, 0, 0, 0);
  out.point(111, 1, 0, 0);
  out.point(112, 0, 1, 0);
  out.add(79, 0);
  out.add(146, 0);
  out.add(0, 'ENDTAB');
}

function writeLinetypeTable(out: TagWriter, h: Handles): void {
  const t = h.tables;
  tableStart(out, 'LTYPE', t.LTYPE, 3);
  (['ByBlock', 'ByLayer', 'Continuous'] as const).forEach((name, i) => {
    recordStart(out, 'LTYPE', h.ltypes[i]!, t.LTYPE, 'AcDbLinetypeTableRecord');
    out.add(2, name);
    out.add(70, 0);
    out.add(3, name === 'Continuous' ? 'Solid line' : '');
    out.add(72, 65);
    out.add(73, 0);
    out.add(40, 0);
  });
  out.add(0, 'ENDTAB');
}

function writeLayerTable(out: TagWriter, layers: readonly Layer[], h: Handles): void {
  const t = h.tables;
  tableStart(out, 'LAYER', t.LAYER, layers.length);
  layers.forEach((layer, i) => {
    recordStart(out, 'LAYER', h.layers[i]!, t.LAYER, 'AcDbLayerTableRecord');
    out.add(2, layer.name);
    out.add(70, 0);
    out.add(62, layer.color ? nearestAci(layer.color) : 7);
    if (layer.color) out.add(420, trueColor(layer.color));
    out.add(6, 'Continuous');
    out.add(370, -3);
    out.add(390, h.plotStyleNormal);
  });
  out.add(0, 'ENDTAB');
}

function writeStyleTable(out: TagWriter, h: Handles): void {
  const t = h.tables;
  tableStart(out, 'STYLE', t.STYLE, 1);
  recordStart(out, 'STYLE', h.style, t.STYLE, 'AcDbTextStyleTableRecord');
  out.add(2, 'Standard');
  out.add(70, 0);
  out.add(40, 0);
  out.add(41, 1);
  out.add(50, 0);
  out.add(71, 0);
  out.add(42, 2.5);
  out.add(3, 'txt');
  out.add(4, '');
  out.add(0, 'ENDTAB');
}

/** VIEW and UCS: present, with no records. */
function writeEmptyTables(out: TagWriter, h: Handles): void {
  tableStart(out, 'VIEW', h.tables.VIEW, 0);
  out.add(0, 'ENDTAB');
  tableStart(out, 'UCS', h.tables.UCS, 0);
  out.add(0, 'ENDTAB');
}

function writeAppidTable(out: TagWriter, h: Handles): void {
  const t = h.tables;
  tableStart(out, 'APPID', t.APPID, 1);
  recordStart(out, 'APPID', h.appid, t.APPID, 'AcDbRegAppTableRecord');
  out.add(2, 'ACAD');
  out.add(70, 0);
  out.add(0, 'ENDTAB');
}

/** Every dimension variable is optional: readers use AutoCAD's defaults. */
function writeDimstyleTable(out: TagWriter, h: Handles): void {
  const t = h.tables;
  tableStart(out, 'DIMSTYLE', t.DIMSTYLE, 1);
  out.add(100, 'AcDbDimStyleTable');
  recordStart(out, 'DIMSTYLE', h.dimstyle, t.DIMSTYLE, 'AcDbDimStyleTableRecord');
  out.add(2, 'Standard');
  out.add(70, 0);
  out.add(0, 'ENDTAB');
}

function writeBlockRecordTable(out: TagWriter, plan: OutputPlan, h: Handles): void {
  const t = h.tables;
  tableStart(out, 'BLOCK_RECORD', t.BLOCK_RECORD, 2);
  for (const [handle, name, layout] of [
    [h.modelRecord, '*Model_Space', h.modelLayout],
    [h.paperRecord, '*Paper_Space', h.paperLayout],
  ] as const) {
    recordStart(out, 'BLOCK_RECORD', handle, t.BLOCK_RECORD, 'AcDbBlockTableRecord');
    out.add(2, name);
    out.add(340, layout);
    out.add(70, INSUNITS[plan.page.unit]);
    out.add(280, 1);
    out.add(281, 0);
  }
  out.add(0, 'ENDTAB');
}

/** The two layout blocks; both stay empty (model space entities live in ENTITIES). */
function writeBlocks(out: TagWriter, h: Handles): void {
  out.add(0, 'SECTION');
  out.add(2, 'BLOCKS');
  for (const [record, [begin, end], name, paper] of [
    [h.modelRecord, h.modelBlock, '*Model_Space', false],
    [h.paperRecord, h.paperBlock, '*Paper_Space', true],
  ] as const) {
    out.add(0, 'BLOCK');
    out.add(5, begin);
    out.add(330, record);
    out.add(100, 'AcDbEntity');
    if (paper) out.add(67, 1);
    out.add(8, '0');
    out.add(100, 'AcDbBlockBegin');
    out.add(2, name);
    out.add(70, 0);
    out.point(10, 0, 0, 0);
    out.add(3, name);
    out.add(1, '');
    out.add(0, 'ENDBLK');
    out.add(5, end);
    out.add(330, record);
    out.add(100, 'AcDbEntity');
    if (paper) out.add(67, 1);
    out.add(8, '0');
    out.add(100, 'AcDbBlockEnd');
  }
  out.add(0, 'ENDSEC');
}

function writeEntities(out: TagWriter, entities: readonly Entity[], h: Handles): void {
  out.add(0, 'SECTION');
  out.add(2, 'ENTITIES');
  entities.forEach((e, i) => writeEntity(out, e, h.entities[i]!, h.modelRecord));
  out.add(0, 'ENDSEC');
}

const DXF_TYPE: Record<Geometry['kind'], string> = { lwpolyline: 'LWPOLYLINE', circle: 'CIRCLE', ellipse: 'ELLIPSE', spline: 'SPLINE', hatch: 'HATCH' };

function writeEntity(out: TagWriter, e: Entity, handle: string, owner: string): void {
  const g = e.geometry;
  out.add(0, DXF_TYPE[g.kind]);
  out.add(5, handle);
  out.add(330, owner);
  out.add(100, 'AcDbEntity');
  out.add(8, e.layer);
  out.add(62, nearestAci(e.color));
  if (e.lineweight !== undefined) out.add(370, e.lineweight);
  out.add(420, trueColor(e.color));
  // Transparency: 0x02000000 flags "by value", the low byte is the alpha (255 = opaque).
  if (e.color.a < 255) out.add(440, 0x02000000 | Math.max(0, Math.round(e.color.a)));
  switch (g.kind) {
    case 'lwpolyline':
      out.add(100, 'AcDbPolyline');
      out.add(90, g.vertices.length);
      out.add(70, g.closed ? 1 : 0);
      out.add(43, 0);
      for (const v of g.vertices) {
        out.point(10, v.x, v.y);
        if (v.bulge !== 0 && num(v.bulge, 9) !== '0.0') out.add(42, num(v.bulge, 9));
      }
      return;
    case 'circle':
      out.add(100, 'AcDbCircle');
      out.point(10, g.cx, g.cy, 0);
      out.add(40, g.r);
      return;
    case 'ellipse':
      out.add(100, 'AcDbEllipse');
      out.point(10, g.cx, g.cy, 0);
      out.point(11, g.mx, g.my, 0);
      out.point(210, 0, 0, 1);
      out.add(40, num(g.ratio, 9));
      out.add(41, '0.0');
      out.add(42, num(2 * Math.PI, 15));
      return;
    case 'spline':
      out.add(100, 'AcDbSpline');
      out.point(210, 0, 0, 1);
      // 8 = planar. A closed loop is a clamped spline whose ends meet, without the "closed" bit:
      // LibreCAD (2.2.0, issue #863) reads that bit as "periodic", drops the knot vector and draws
      // another curve; every reader draws a clamped spline whose ends meet as the closed curve.
      out.add(70, 8);
      out.add(71, 3);
      out.add(72, g.knots.length);
      out.add(73, g.points.length);
      out.add(74, 0);
      out.add(42, '0.0000000001');
      out.add(43, '0.0000000001');
      for (const k of g.knots) out.add(40, k);
      for (const [x, y] of g.points) out.point(10, x, y, 0);
      return;
    case 'hatch':
      writeHatch(out, g.loops, g.gradient);
      return;
  }
}

/**
 * The AcDbHatch part of a gradient HATCH, in the DXF reference's order: elevation and normal,
 * "SOLID" (gradients are solid fills), not associative, the boundary paths (polyline paths: 72
 * has-bulge, 73 closed, 93 count, vertices with a 42 bulge each when any has one, 97 no source
 * objects; the outer loop flagged external), odd-parity style, predefined type, no seed points,
 * then the gradient: 450 gradient, 451 reserved, 460 angle, 461 shift (0 = centred), 452 two
 * colours, 462 tint, 453 colour count, per colour 463 its index, 63 nearest ACI and 421 true
 * colour, and 470 the pattern name.
 */
function writeHatch(out: TagWriter, loops: readonly (readonly Vertex[])[], gradient: DxfGradient): void {
  out.add(100, 'AcDbHatch');
  out.point(10, 0, 0, 0);
  out.point(210, 0, 0, 1);
  out.add(2, 'SOLID');
  out.add(70, 1);
  out.add(71, 0);
  out.add(91, loops.length);
  loops.forEach((loop, i) => {
    const bulged = loop.some((v) => num(v.bulge, 9) !== '0.0');
    // 2 = polyline path; 1 = external (the outer loop).
    out.add(92, i === 0 ? 3 : 2);
    out.add(72, bulged ? 1 : 0);
    out.add(73, 1);
    out.add(93, loop.length);
    for (const v of loop) {
      out.point(10, v.x, v.y);
      if (bulged) out.add(42, num(v.bulge, 9));
    }
    out.add(97, 0);
  });
  out.add(75, 0);
  out.add(76, 1);
  out.add(98, 0);
  out.add(450, 1);
  out.add(451, 0);
  out.add(460, gradient.angle);
  out.add(461, 0);
  out.add(452, 0);
  out.add(462, 1);
  out.add(453, 2);
  [gradient.color1, gradient.color2].forEach((c, i) => {
    out.add(463, i);
    out.add(63, nearestAci(c));
    out.add(421, trueColor(c));
  });
  out.add(470, gradient.name);
}

/** Start of an object owned by a dictionary: AutoCAD lists the owner as a reactor too. */
function objectStart(out: TagWriter, type: string, handle: string, owner: string): void {
  out.add(0, type);
  out.add(5, handle);
  if (owner !== '0') {
    out.add(102, '{ACAD_REACTORS');
    out.add(330, owner);
    out.add(102, '}');
  }
  out.add(330, owner);
}

function dictionary(out: TagWriter, handle: string, owner: string, entries: readonly (readonly [string, string])[]): void {
  objectStart(out, 'DICTIONARY', handle, owner);
  out.add(100, 'AcDbDictionary');
  out.add(281, 1);
  for (const [name, target] of entries) {
    out.add(3, name);
    out.add(350, target);
  }
}

function writeObjects(out: TagWriter, plan: OutputPlan, h: Handles): void {
  out.add(0, 'SECTION');
  out.add(2, 'OBJECTS');
  // Root dictionary, entries sorted by name as AutoCAD keeps them.
  dictionary(out, h.rootDict, '0', [
    ['ACAD_COLOR', h.colorDict],
    ['ACAD_GROUP', h.groupDict],
    ['ACAD_LAYOUT', h.layoutDict],
    ['ACAD_MLINESTYLE', h.mlineDict],
    ['ACAD_PLOTSETTINGS', h.plotSettingsDict],
    ['ACAD_PLOTSTYLENAME', h.plotStyleDict],
  ]);
  // Colour books and groups: none, but readers look the dictionaries up.
  dictionary(out, h.colorDict, h.rootDict, []);
  dictionary(out, h.groupDict, h.rootDict, []);
  dictionary(out, h.layoutDict, h.rootDict, [
    ['Layout1', h.paperLayout],
    ['Model', h.modelLayout],
  ]);
  dictionary(out, h.mlineDict, h.rootDict, [['Standard', h.mlineStandard]]);
  dictionary(out, h.plotSettingsDict, h.rootDict, []);

  // Plot style names (layers point at "Normal"): a dictionary with a default entry.
  objectStart(out, 'ACDBDICTIONARYWDFLT', h.plotStyleDict, h.rootDict);
  out.add(100, 'AcDbDictionary');
  out.add(281, 1);
  out.add(3, 'Normal');
  out.add(350, h.plotStyleNormal);
  out.add(100, 'AcDbDictionaryWithDefault');
  out.add(340, h.plotStyleNormal);
  objectStart(out, 'ACDBPLACEHOLDER', h.plotStyleNormal, h.plotStyleDict);

  objectStart(out, 'MLINESTYLE', h.mlineStandard, h.mlineDict);
  out.add(100, 'AcDbMlineStyle');
  out.add(2, 'Standard');
  out.add(70, 0);
  out.add(3, '');
  out.add(62, 256);
  out.add(51, 90);
  out.add(52, 90);
  out.add(71, 2);
  for (const offset of [0.5, -0.5]) {
    out.add(49, offset);
    out.add(62, 256);
    out.add(6, 'BYLAYER');
  }

  writeLayout(out, h.modelLayout, h.layoutDict, h.modelRecord, 'Model', 0, plan.page.width, plan.page.height);
  writeLayout(out, h.paperLayout, h.layoutDict, h.paperRecord, 'Layout1', 1, 0, 0);
  out.add(0, 'ENDSEC');
}

/**
 * A LAYOUT (plot settings + layout data). Model gets the page as limits and extents; the empty
 * paper layout gets an A4 sheet and the "no extents" marker (min > max) AutoCAD itself writes.
 */
function writeLayout(out: TagWriter, handle: string, owner: string, record: string, name: string, tab: number, width: number, height: number): void {
  const model = tab === 0;
  objectStart(out, 'LAYOUT', handle, owner);
  out.add(100, 'AcDbPlotSettings');
  out.add(1, '');
  out.add(2, 'none_device');
  out.add(4, 'ISO_A4_(210.00_x_297.00_MM)');
  out.add(6, '');
  for (const code of [40, 41, 42, 43]) out.add(code, 0);
  out.add(44, 210);
  out.add(45, 297);
  for (const code of [46, 47, 48, 49, 140, 141]) out.add(code, 0);
  out.add(142, 1);
  out.add(143, 1);
  // 1024 = model type; 16 = use standard scale (scale type 16 = 1:1).
  out.add(70, model ? 1024 | 16 : 16);
  out.add(72, 1);
  out.add(73, 0);
  out.add(74, model ? 1 : 5);
  out.add(7, '');
  out.add(75, 16);
  out.add(76, 0);
  out.add(77, 2);
  out.add(78, 300);
  out.add(147, 1);
  out.add(148, 0);
  out.add(149, 0);
  out.add(100, 'AcDbLayout');
  out.add(1, name);
  out.add(70, 1);
  out.add(71, tab);
  out.point(10, 0, 0);
  out.point(11, model ? width : 297, model ? height : 210);
  out.point(12, 0, 0, 0);
  if (model) {
    out.point(14, 0, 0, 0);
    out.point(15, width, height, 0);
  } else {
    out.point(14, 1e20, 1e20, 1e20);
    out.point(15, -1e20, -1e20, -1e20);
  }
  out.add(146, 0);
  out.point(13, 0, 0, 0);
  out.point(16, 1, 0, 0);
  out.point(17, 0, 1, 0);
  out.add(76, 0);
  out.add(330, record);
}
