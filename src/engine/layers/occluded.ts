/**
 * Occluded shapes completed (tracelab.layers, stacked shapes): a shape partly hidden by shapes
 * stacked over it is continued underneath as the circle, ellipse or (rounded) rectangle its visible
 * outline is.
 * In: the stacked shapes (bottom first), the chains, and each pixel's region. Out: the shapes with
 * the completed ones' outer loops replaced by one new closed chain (appended to the chains) that
 * carries its primitive; every other shape unchanged.
 * Algorithm, per shape without holes whose outer loop borders a shape stacked above it:
 * 1. its visible outline is the chains of its outer loop whose other side is not stacked above
 *    it (the background, or shapes below or beside it); sampled about a pixel apart;
 * 2. a circle (Kåsa, then a few Gauss–Newton steps on the distances), else an ellipse (direct
 *    least squares), else a rounded rectangle (Levenberg–Marquardt from the samples' minimum-area
 *    box, primitives/rectangle.ts) is fitted to those samples and kept only when every sample lies within
 *    FIT_MAX_ERROR_PX of it and the visible outline goes at least MIN_VISIBLE_TURN round it;
 * 3. the completed shape must cover nothing it may not: every pixel whose centre lies more than
 *    EDGE_MARGIN_PX inside it belongs to the shape or to a shape stacked above it (never a shape
 *    below or beside it, nor transparency), and the shape's own pixels lie inside it (all but
 *    OUTSIDE_SHARE_MAX of them more than EDGE_MARGIN_PX outside). The picture drawn is then the
 *    same: what was added is hidden by the shapes above.
 */
import { ellipseMaxError, fitCircle, fitEllipse, type Ellipse } from '../fit/ellipse.js';
import { hypot2 } from '../length.js';
import { convexHull, minAreaRect } from '../primitives/geometry.js';
import { emit, type PathNode } from '../primitives/path.js';
import { fitRectangleToOutline } from '../primitives/rectangle.js';
import { PolishScratch } from '../primitives/solver.js';
import { SegmentBuilder, SEGMENT_CUBIC, SEGMENT_LINE, SEGMENT_QUAD, type SegmentPath } from '../segment-path.js';
import type { Chain, ChainUse, Loop, Shape, ShapePrimitive } from '../types.js';

/** Largest distance (px) from a visible outline sample to the fitted circle or ellipse. */
const FIT_MAX_ERROR_PX = 0.8;
/** The visible outline must go this far round the centre (radians): less says too little of the shape. */
const MIN_VISIBLE_TURN = Math.PI;
/** Pixels this close (px) to the completed outline are its anti-aliased edge: not judged. */
const EDGE_MARGIN_PX = 1;
/** Share of the shape's own pixels that may lie outside the completed outline (beyond the margin). */
const OUTSIDE_SHARE_MAX = 0.005;
/** Samples needed on the visible outline for a fit. */
const MIN_SAMPLES = 16;

/** The traced picture's pixels as regions (-1: transparent). */
export interface StackPixels {
  readonly regionOf: Int32Array;
  readonly width: number;
  readonly height: number;
}

/** Shapes with occluded ones completed, and the chains (the trace's, then the completed outlines). */
export interface CompletedShapes {
  readonly shapes: Shape[];
  readonly chains: Chain[];
  /** How many shapes were completed. */
  readonly completed: number;
}

/** A closed outline fitted to a visible outline: its primitive, and whether a point lies inside. */
interface RoundFit {
  readonly primitive: ShapePrimitive;
  /** Signed distance (px, approximate for ellipses) from (x, y) to the outline; negative inside. */
  distance(x: number, y: number): number;
  /** The outline's bounding box: [minX, minY, maxX, maxY]. */
  readonly box: readonly [number, number, number, number];
  /** The outline as path nodes (rectangles; circles and ellipses are written as two half arcs). */
  readonly nodes?: readonly PathNode[];
}

/** `leave`: shapes not to complete (remade by an earlier step). */
export function completeOccludedShapes(shapes: readonly Shape[], chains: readonly Chain[], pixels: StackPixels, leave: ReadonlySet<Shape> = new Set()): CompletedShapes {
  const stackIndexOfRegion = new Map<number, number>();
  for (let i = 0; i < shapes.length; i++) stackIndexOfRegion.set(shapes[i]!.region, i);
  const outChains = chains.slice();
  const outShapes = shapes.slice();
  const builder = new SegmentBuilder(4);
  const scratch = new PolishScratch();
  let completed = 0;
  for (let i = 0; i < shapes.length; i++) {
    const shape = shapes[i]!;
    if (shape.primitive || shape.holes.length > 0 || shape.gradient || shape.color.a < 255 || leave.has(shape)) continue;
    const visible = visibleOutline(shape, i, chains, stackIndexOfRegion);
    if (!visible) continue;
    const fit = roundFit(visible) ?? rectangleFit(visible, pixels, scratch);
    if (!fit || !coversOnlyItsOwnAndAbove(fit, shape.region, shape.areaPx, i, pixels, stackIndexOfRegion)) continue;
    const clockwise = signedArea(loopSamples(shape.outer, chains)) > 0;
    const chain = fit.nodes ? pathChain(fit.nodes, clockwise, shape.region) : outlineChain(fit.primitive, clockwise, shape.region, builder);
    const use: ChainUse = { chain: outChains.length, reversed: false };
    outChains.push(chain);
    const outer: Loop = [use];
    outShapes[i] = { ...shape, outer, primitive: fit.primitive };
    completed++;
  }
  return { shapes: outShapes, chains: outChains, completed };
}

/**
 * Samples of the chains of the shape's outer loop that are not shared with a shape stacked above
 * it, or undefined when none is (nothing is hidden) or too few samples remain.
 */
function visibleOutline(shape: Shape, stackIndex: number, chains: readonly Chain[], stackIndexOfRegion: ReadonlyMap<number, number>): Float64Array | undefined {
  const visible: number[] = [];
  let hidden = false;
  for (const use of shape.outer) {
    const chain = chains[use.chain]!;
    const other = chain.leftRegion === shape.region ? chain.rightRegion : chain.leftRegion;
    const otherIndex = other < 0 ? -1 : (stackIndexOfRegion.get(other) ?? -1);
    if (otherIndex > stackIndex) hidden = true;
    else for (const v of chainSamples(chain, false)) visible.push(v);
  }
  if (!hidden || visible.length / 2 < MIN_SAMPLES) return undefined;
  return Float64Array.from(visible);
}

/** The circle, else the ellipse, that the visible samples lie on, going far enough round it. */
function roundFit(p: Float64Array): RoundFit | undefined {
  const circle = refinedCircle(p);
  if (circle && circle.r > 2 && maxCircleError(p, circle) <= FIT_MAX_ERROR_PX && turnAround(p, circle.cx, circle.cy) >= MIN_VISIBLE_TURN) {
    const { cx, cy, r } = circle;
    return {
      primitive: { family: 'circle', cx, cy, rotationDeg: 0, r },
      distance: (x, y) => hypot2(x - cx, y - cy) - r,
      box: [cx - r, cy - r, cx + r, cy + r],
    };
  }
  const e = fitEllipse(p);
  if (!e || e.b < 2 || ellipseMaxError(p, e) > FIT_MAX_ERROR_PX || turnAround(p, e.cx, e.cy) < MIN_VISIBLE_TURN) return undefined;
  return ellipseFit(e);
}

/**
 * The rounded (or sharp) rectangle the visible samples lie on, polished from their minimum-area
 * box, kept on the same terms as a circle: every sample within FIT_MAX_ERROR_PX, the visible
 * outline going at least MIN_VISIBLE_TURN round its centre.
 */
function rectangleFit(p: Float64Array, pixels: StackPixels, scratch: PolishScratch): RoundFit | undefined {
  const box = minAreaRect(convexHull(p));
  if (!box || Math.min(box[3], box[4]) < MIN_RECTANGLE_SIDE_PX) return undefined;
  const rect = fitRectangleToOutline(scratch, p, box);
  if (!rect || rect.maxError > FIT_MAX_ERROR_PX) return undefined;
  const { cx, cy, width, height, rotationDeg } = rect.primitive;
  // The picture's frame is straight too: only outline seen inside the picture says it is a rectangle.
  const inside = offFrame(p, pixels);
  if (Math.min(width, height) < MIN_RECTANGLE_SIDE_PX || inside.length / 2 < MIN_SAMPLES || !(turnAround(inside, cx, cy) >= MIN_VISIBLE_TURN)) return undefined;
  const theta = (rotationDeg * Math.PI) / 180;
  const halfW = (Math.abs(Math.cos(theta)) * width + Math.abs(Math.sin(theta)) * height) / 2;
  const halfH = (Math.abs(Math.sin(theta)) * width + Math.abs(Math.cos(theta)) * height) / 2;
  return { primitive: rect.primitive, distance: rect.distance, box: [cx - halfW, cy - halfH, cx + halfW, cy + halfH], nodes: rect.path };
}
/** Rectangles narrower than this (px) are strokes or specks, not shapes to complete. */
const MIN_RECTANGLE_SIDE_PX = 8;

/** The samples more than a pixel inside the picture's frame. */
function offFrame(p: Float64Array, { width, height }: StackPixels): Float64Array {
  const out: number[] = [];
  for (let i = 0; i < p.length; i += 2) {
    const x = p[i]!;
    const y = p[i + 1]!;
    if (x > 1 && y > 1 && x < width - 1 && y < height - 1) out.push(x, y);
  }
  return Float64Array.from(out);
}

function ellipseFit(e: Ellipse): RoundFit {
  const cos = Math.cos(e.angle);
  const sin = Math.sin(e.angle);
  const rotationDeg = ((e.angle * 180) / Math.PI + 360) % 180;
  const halfW = Math.sqrt((e.a * cos) ** 2 + (e.b * sin) ** 2);
  const halfH = Math.sqrt((e.a * sin) ** 2 + (e.b * cos) ** 2);
  return {
    primitive: { family: 'ellipse', cx: e.cx, cy: e.cy, rotationDeg, rx: e.a, ry: e.b },
    // Radial distance: along the ray from the centre, as ellipseMaxError measures it.
    distance: (x, y) => {
      const u = (x - e.cx) * cos + (y - e.cy) * sin;
      const v = -(x - e.cx) * sin + (y - e.cy) * cos;
      const rho = hypot2(u, v);
      if (rho < 1e-9) return -e.b;
      return rho * (1 - 1 / Math.sqrt((u * u) / (e.a * e.a) + (v * v) / (e.b * e.b)));
    },
    box: [e.cx - halfW, e.cy - halfH, e.cx + halfW, e.cy + halfH],
  };
}

/** Kåsa's circle moved to the least-squares one in distance (it is biased small on an arc). */
function refinedCircle(p: Float64Array): { cx: number; cy: number; r: number } | undefined {
  const start = fitCircle(p);
  if (!start) return undefined;
  let { cx, cy, r } = start;
  const n = p.length / 2;
  for (let step = 0; step < GAUSS_NEWTON_STEPS; step++) {
    // Normal equations of d_i = |p_i − c| − r in (cx, cy, r).
    const a = new Float64Array(9);
    const b = new Float64Array(3);
    for (let i = 0; i < n; i++) {
      const dx = p[i * 2]! - cx;
      const dy = p[i * 2 + 1]! - cy;
      const rho = hypot2(dx, dy);
      if (rho < 1e-9) return undefined;
      const j = [-dx / rho, -dy / rho, -1];
      const d = rho - r;
      for (let u = 0; u < 3; u++) {
        b[u]! += j[u]! * d;
        for (let v = 0; v < 3; v++) a[u * 3 + v]! += j[u]! * j[v]!;
      }
    }
    const delta = solve3(a, b);
    if (!delta) break;
    cx -= delta[0]!;
    cy -= delta[1]!;
    r -= delta[2]!;
  }
  return { cx, cy, r };
}
const GAUSS_NEWTON_STEPS = 6;

/** x with a·x = b (3 × 3, Cramer's rule), or undefined when a is singular. */
function solve3(a: Float64Array, b: Float64Array): number[] | undefined {
  const det = (m: ArrayLike<number>): number =>
    m[0]! * (m[4]! * m[8]! - m[5]! * m[7]!) - m[1]! * (m[3]! * m[8]! - m[5]! * m[6]!) + m[2]! * (m[3]! * m[7]! - m[4]! * m[6]!);
  const d = det(a);
  if (Math.abs(d) < 1e-12) return undefined;
  const out: number[] = [];
  for (let c = 0; c < 3; c++) {
    const m = Array.from(a);
    for (let r = 0; r < 3; r++) m[r * 3 + c] = b[r]!;
    out.push(det(m) / d);
  }
  return out;
}

function maxCircleError(p: Float64Array, c: { cx: number; cy: number; r: number }): number {
  let worst = 0;
  for (let i = 0; i < p.length / 2; i++) worst = Math.max(worst, Math.abs(hypot2(p[i * 2]! - c.cx, p[i * 2 + 1]! - c.cy) - c.r));
  return worst;
}

/**
 * How far round (cx, cy) the samples reach (radians): 2π less the widest gap between the
 * directions they lie in, so pieces of outline on both sides of an occluder count together.
 */
function turnAround(p: Float64Array, cx: number, cy: number): number {
  const n = p.length / 2;
  const angles = new Float64Array(n);
  for (let i = 0; i < n; i++) angles[i] = Math.atan2(p[i * 2 + 1]! - cy, p[i * 2]! - cx);
  angles.sort();
  let widestGap = angles[0]! + 2 * Math.PI - angles[n - 1]!;
  for (let i = 1; i < n; i++) widestGap = Math.max(widestGap, angles[i]! - angles[i - 1]!);
  return 2 * Math.PI - widestGap;
}

/** Step 3 of the header: what the completed shape covers is its own or hidden by shapes above. */
function coversOnlyItsOwnAndAbove(fit: RoundFit, region: number, ownAreaPx: number, stackIndex: number, pixels: StackPixels, stackIndexOfRegion: ReadonlyMap<number, number>): boolean {
  const { regionOf, width, height } = pixels;
  const [minX, minY, maxX, maxY] = fit.box;
  const x0 = Math.max(0, Math.floor(minX));
  const y0 = Math.max(0, Math.floor(minY));
  const x1 = Math.min(width - 1, Math.ceil(maxX));
  const y1 = Math.min(height - 1, Math.ceil(maxY));
  // The completed shape may not reach past the picture: what is beyond was never seen.
  if (minX < -EDGE_MARGIN_PX || minY < -EDGE_MARGIN_PX || maxX > width + EDGE_MARGIN_PX || maxY > height + EDGE_MARGIN_PX) return false;
  let inside = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const r = regionOf[y * width + x]!;
      const d = fit.distance(x + 0.5, y + 0.5);
      if (r === region) {
        if (d <= EDGE_MARGIN_PX) inside++;
        continue;
      }
      if (d >= -EDGE_MARGIN_PX) continue;
      if (r < 0 || (stackIndexOfRegion.get(r) ?? -1) <= stackIndex) return false;
    }
  }
  return ownAreaPx - inside <= OUTSIDE_SHARE_MAX * ownAreaPx;
}

/** The completed outline as one closed chain of two half arcs, run the way the shape's outer loop ran. */
function outlineChain(primitive: ShapePrimitive, clockwise: boolean, region: number, builder: SegmentBuilder): Chain {
  const { cx, cy } = primitive;
  const [rx, ry, rotationDeg] = primitive.family === 'circle' ? [primitive.r, primitive.r, 0] : primitive.family === 'ellipse' ? [primitive.rx, primitive.ry, primitive.rotationDeg] : [0, 0, 0];
  const theta = (rotationDeg * Math.PI) / 180;
  const ux = Math.cos(theta) * rx;
  const uy = Math.sin(theta) * rx;
  builder.truncate(0);
  // y down: sweep 1 turns clockwise on screen.
  builder.arc(rx, ry, rotationDeg, false, clockwise, cx - ux, cy - uy);
  builder.arc(rx, ry, rotationDeg, false, clockwise, cx + ux, cy + uy);
  const segments = builder.take(0);
  // Walking clockwise on screen (y down), the inside is on the right.
  return { startX: cx + ux, startY: cy + uy, segments, leftRegion: clockwise ? -1 : region, rightRegion: clockwise ? region : -1, closed: true };
}

/** A completed outline given as path nodes, as one closed chain run the way the shape's outer loop ran. */
function pathChain(nodes: readonly PathNode[], clockwise: boolean, region: number): Chain {
  const { startX, startY, segments } = emit(nodes, clockwise);
  return { startX, startY, segments, leftRegion: clockwise ? -1 : region, rightRegion: clockwise ? region : -1, closed: true };
}

/** Points along a loop, in its direction. */
function loopSamples(loop: Loop, chains: readonly Chain[]): number[] {
  const out: number[] = [];
  for (const use of loop) for (const v of chainSamples(chains[use.chain]!, use.reversed)) out.push(v);
  return out;
}

/** Shoelace sum of x, y pairs: positive when the points run clockwise on screen (y down). */
function signedArea(p: readonly number[]): number {
  let area = 0;
  const n = p.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    area += p[i * 2]! * p[j * 2 + 1]! - p[j * 2]! * p[i * 2 + 1]!;
  }
  return area;
}

/**
 * Points about a pixel apart along a chain (its start, then along each segment; arcs by their
 * ends, as they are rare on shared chains), reversed when asked.
 */
function chainSamples(chain: Chain, reversed: boolean): number[] {
  const out: number[] = [chain.startX, chain.startY];
  sampleSegments(chain.segments, chain.startX, chain.startY, out);
  if (!reversed) return out;
  const back: number[] = [];
  for (let i = out.length - 2; i >= 0; i -= 2) back.push(out[i]!, out[i + 1]!);
  return back;
}

function sampleSegments(g: SegmentPath, startX: number, startY: number, out: number[]): void {
  let x = startX;
  let y = startY;
  for (let k = 0; k < g.length; k++) {
    const code = g.code(k);
    const ex = g.x(k);
    const ey = g.y(k);
    // Control points as a cubic (a line's and an arc's at its ends, a quadratic's raised).
    let c1x = x, c1y = y, c2x = ex, c2y = ey;
    if (code === SEGMENT_CUBIC) [c1x, c1y, c2x, c2y] = [g.c1x(k), g.c1y(k), g.c2x(k), g.c2y(k)];
    else if (code === SEGMENT_QUAD) {
      const qx = g.cx(k);
      const qy = g.cy(k);
      [c1x, c1y, c2x, c2y] = [x + (2 / 3) * (qx - x), y + (2 / 3) * (qy - y), ex + (2 / 3) * (qx - ex), ey + (2 / 3) * (qy - ey)];
    }
    const span = code === SEGMENT_LINE || code === SEGMENT_CUBIC || code === SEGMENT_QUAD ? hypot2(c1x - x, c1y - y) + hypot2(c2x - c1x, c2y - c1y) + hypot2(ex - c2x, ey - c2y) : 1;
    const count = Math.max(1, Math.ceil(span));
    for (let s = 1; s <= count; s++) {
      const t = s / count;
      const m = 1 - t;
      out.push(m * m * m * x + 3 * m * m * t * c1x + 3 * m * t * t * c2x + t * t * t * ex, m * m * m * y + 3 * m * m * t * c1y + 3 * m * t * t * c2y + t * t * t * ey);
    }
    x = ex;
    y = ey;
  }
}
