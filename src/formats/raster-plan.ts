/**
 * Renders an output plan (src/formats/plan.ts) to pixels for the PNG writer.
 * In: an OutputPlan (page, curve-restricted chains, fill / stroke / group items in paint order).
 * Out: straight-alpha RGBA bytes, rows top to bottom, transparent where nothing is drawn unless a
 * background is given.
 *
 * Device size (pngSize): page units × pixelsPerUnit(page), so traced → device is
 * x' = (page.offsetX + page.scaleX·x)·ppu. A size the user asked for that exceeds
 * MAX_RESULT_PIXELS is error 1023; the default 4× size instead shrinks to the largest size with
 * the same aspect ratio that fits, so big inputs still render.
 *
 * Drawing reuses the cell-buffer rasteriser of src/formats/raster.ts: every plan chain is
 * flattened once in device pixels (neighbours share points), each item accumulates its edges in
 * one cell buffer over its bounding box (nonzero winding), and is composited source-over in
 * paint order. Groups are containers only. Fill items draw their loops (a detected primitive is
 * the same outline, so it is ignored). A gradient paint colours each pixel with the gradient at
 * the pixel's centre, mapped back through the device map (exact under any stretch of the page),
 * times the pixel's coverage, at the item colour's alpha.
 *
 * Strokes (round joins, round caps; a pen stroke of tracelab.strokes may have butt ends, and its
 * miter joins are drawn round) are filled as a set of polygons that tile the stroke, all
 * with positive orientation, so nonzero gives the union and, where pieces only touch, exact-area
 * anti-aliasing: per edge a rectangle ±r around it; per join an outer circular sector between
 * the two edges' normals; per open end a half disc. Plain rectangles overlap on the inside of a
 * turn, and the cell method sums overlaps before clamping, which would darken the boundary pixel
 * where the inner offsets cross. So where the edges are long enough, both rectangles are cut at
 * the join's bisector (along the segment vertex → inner offset crossing X): the two cut pieces
 * then share that segment exactly and nothing overlaps. Elsewhere (very short edges or hairpin
 * turns relative to the width) the uncut rectangles keep the union correct and only the pixel
 * around X can be slightly too dark. Shared corners are computed by one expression, so shared
 * edges cancel bit-exactly.
 *
 * A gap filler with clipShapes is multiplied by the coverage of the union of those shapes' fill
 * loops, accumulated in a second cell buffer over the same box (each shape's winding normalised
 * to the same sign so neighbours' shared edges cancel).
 *
 * A window (RenderPlanOptions.window) renders one rectangle of the page at a zoom instead — the
 * playground's sharp view of a zoomed large result: the same map, scaled by the zoom and shifted
 * so the window's corner is device (0, 0); geometry outside it is clipped by the cell buffer.
 *
 * Memory: the output, the flattened chains, and one reused cell buffer the size of the largest
 * item's bounding box (two for clipped gap fillers); stroke scratch lives in typed arrays reused
 * across paths. Plain doubles in a fixed order: the same plan gives the same bytes on every run.
 */
import { MAX_RESULT_PIXELS, outputTooLargeError } from '../engine/errors.js';
import type { ChainUse, Rgba } from '../engine/types.js';
import { pixelsPerUnit } from './page.js';
import { DeviceGradient } from './gradient.js';
import type { FillItem, OutputPlan, PlanItem, PlanPath, StrokeItem } from './plan.js';
import { addLoop, CellBuffer, ChainCache, loopArea2, paintBackground } from './raster.js';
import { hypot2 } from '../engine/length.js';

/** Largest distance between a curve and its flattened polyline, in device pixels. */
const CURVE_TOLERANCE_PX = 0.1;
/** Largest distance between a round join or cap and its polygon, in device pixels. */
const ARC_TOLERANCE_PX = 0.05;
/** Largest angle of one polygon step along a round join or cap (keeps tiny dots round). */
const MAX_ARC_STEP = Math.PI / 8;

export interface PngSize {
  /** Device size in pixels. */
  readonly width: number;
  readonly height: number;
  /** Traced coordinates → device pixels: x' = offsetX + scaleX·x, y' = offsetY + scaleY·y. */
  readonly scaleX: number;
  readonly scaleY: number;
  readonly offsetX: number;
  readonly offsetY: number;
  /** Device pixels per page unit (after any shrink; mean of both axes). */
  readonly pixelsPerUnit: number;
}

/** The device size of a plan's PNG and the traced → device map (see the module header). */
export function pngSize(plan: OutputPlan): PngSize {
  const page = plan.page;
  const ppu = pixelsPerUnit(page);
  const w = page.width * ppu;
  const h = page.height * ppu;
  if (!Number.isFinite(w) || !Number.isFinite(h) || !(w >= 0) || !(h >= 0)) {
    if (page.explicitSize && w > 0 && h > 0) throw outputTooLargeError(Math.round(w), Math.round(h));
    throw new RangeError(`PNG page size must be finite and positive, got ${w}×${h} px`);
  }
  let width = Math.max(1, Math.round(w));
  let height = Math.max(1, Math.round(h));
  let kx = 1;
  let ky = 1;
  if (width * height > MAX_RESULT_PIXELS) {
    // The user asked for this size: say so rather than silently deliver something else.
    if (page.explicitSize) throw outputTooLargeError(width, height);
    // The default 4× size: the largest size with the same aspect ratio that fits. Each axis then
    // maps onto its rounded size, so the picture still fills the image exactly.
    const k = Math.sqrt(MAX_RESULT_PIXELS / (w * h));
    width = Math.max(1, Math.floor(w * k));
    height = Math.max(1, Math.min(Math.floor(h * k), Math.floor(MAX_RESULT_PIXELS / width)));
    width = Math.min(width, Math.floor(MAX_RESULT_PIXELS / height));
    kx = width / w;
    ky = height / h;
  }
  return {
    width,
    height,
    scaleX: page.scaleX * ppu * kx,
    scaleY: page.scaleY * ppu * ky,
    offsetX: page.offsetX * ppu * kx,
    offsetY: page.offsetY * ppu * ky,
    pixelsPerUnit: (ppu * (kx + ky)) / 2,
  };
}

/** A rectangle of the plan's PNG (its device pixels at zoom 1), rendered `zoom` times larger. */
export interface RenderWindow {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
  /** Output pixels per device pixel of the plan's own PNG. */
  readonly zoom: number;
}

export interface RenderPlanOptions {
  /** Painted under everything; absent = transparent. */
  readonly background?: Rgba;
  /** Only this rectangle, zoomed (see the module header); absent = the whole page. */
  readonly window?: RenderWindow;
}

/** The device size and map of `window` over a plan whose whole PNG is `base`. */
export function windowSize(base: PngSize, window: RenderWindow): PngSize {
  const { left, top, zoom } = window;
  const width = Math.round(window.width * zoom);
  const height = Math.round(window.height * zoom);
  if (![left, top, zoom].every(Number.isFinite) || !(zoom > 0) || !(width >= 1 && height >= 1) || width * height > MAX_RESULT_PIXELS) {
    throw new RangeError(`render window must be finite, at least 1 px and at most ${MAX_RESULT_PIXELS} px, got ${width}×${height} at zoom ${zoom}`);
  }
  return {
    width,
    height,
    scaleX: base.scaleX * zoom,
    scaleY: base.scaleY * zoom,
    offsetX: (base.offsetX - left) * zoom,
    offsetY: (base.offsetY - top) * zoom,
    pixelsPerUnit: base.pixelsPerUnit * zoom,
  };
}

export function renderPlan(plan: OutputPlan, opts: RenderPlanOptions = {}): { rgba: Uint8Array; width: number; height: number } {
  const size = opts.window ? windowSize(pngSize(plan), opts.window) : pngSize(plan);
  const { width, height } = size;
  const rgba = new Uint8Array(width * height * 4);
  if (opts.background) paintBackground(rgba, opts.background);
  const antiAliased = plan.options.bitmap.antiAliased;
  const ctx: DrawContext = {
    plan,
    out: rgba,
    chains: new ChainCache(plan.chains, size.scaleX, size.scaleY, CURVE_TOLERANCE_PX, size.offsetX, size.offsetY),
    cells: new CellBuffer(width, height, antiAliased),
    mask: undefined,
    antiAliased,
    width,
    height,
    strokeScale: plan.page.unitsPerInputPx * size.pixelsPerUnit,
    fills: fillsByShape(plan.items),
    stroker: new Stroker(),
    size,
  };
  drawItems(ctx, plan.items);
  return { rgba, width, height };
}

// ---------------------------------------------------------------------------------------------
// Items

interface DrawContext {
  readonly plan: OutputPlan;
  readonly out: Uint8Array;
  readonly chains: ChainCache;
  readonly cells: CellBuffer;
  /** Created on the first clipped stroke. */
  mask: CellBuffer | undefined;
  readonly antiAliased: boolean;
  readonly width: number;
  readonly height: number;
  /** Device pixels per input pixel, for scaling stroke widths. */
  readonly strokeScale: number;
  /** Shape index → its fill item (the clip of a gap filler is the union of these). */
  readonly fills: ReadonlyMap<number, FillItem>;
  readonly stroker: Stroker;
  /** The traced → device map (for gradients). */
  readonly size: PngSize;
}

/** A gradient item's paint on this device. */
function deviceGradient(ctx: DrawContext, item: FillItem | StrokeItem): DeviceGradient | undefined {
  const { scaleX, scaleY, offsetX, offsetY } = ctx.size;
  return item.gradient ? new DeviceGradient(item.gradient, scaleX, scaleY, offsetX, offsetY) : undefined;
}

function drawItems(ctx: DrawContext, items: readonly PlanItem[]): void {
  for (const item of items) {
    if (item.kind === 'group') drawItems(ctx, item.items);
    else if (item.kind === 'fill') drawFill(ctx, item);
    else drawStroke(ctx, item);
  }
}

function fillsByShape(items: readonly PlanItem[], into = new Map<number, FillItem>()): Map<number, FillItem> {
  for (const item of items) {
    if (item.kind === 'group') fillsByShape(item.items, into);
    else if (item.kind === 'fill' && !into.has(item.shape)) into.set(item.shape, item);
  }
  return into;
}

/** Bounding box [minX, minY, maxX, maxY] accumulator over chain uses, in device pixels. */
function extendBox(box: Float64Array, chains: ChainCache, uses: readonly ChainUse[]): void {
  for (const use of uses) {
    const b = chains.bounds(use.chain);
    if (b[0] < box[0]!) box[0] = b[0];
    if (b[1] < box[1]!) box[1] = b[1];
    if (b[2] > box[2]!) box[2] = b[2];
    if (b[3] > box[3]!) box[3] = b[3];
  }
}

function emptyBox(): Float64Array {
  return new Float64Array([Infinity, Infinity, -Infinity, -Infinity]);
}

function drawFill(ctx: DrawContext, item: FillItem): void {
  if (item.color.a <= 0) return;
  const box = emptyBox();
  for (const loop of item.loops) extendBox(box, ctx.chains, loop);
  if (!ctx.cells.begin(box[0]!, box[1]!, box[2]!, box[3]!)) return;
  for (const loop of item.loops) addLoop(ctx.cells, ctx.chains, loop);
  const gradient = deviceGradient(ctx, item);
  if (gradient) ctx.cells.compositeEach(ctx.out, item.color, undefined, gradient);
  else ctx.cells.composite(ctx.out, item.color);
}

/** The loops of a clip shape: its fill item's, else the shape's own (same outline). */
function clipLoops(ctx: DrawContext, shape: number): readonly (readonly ChainUse[])[] {
  const fill = ctx.fills.get(shape);
  if (fill) return fill.loops;
  const s = ctx.plan.result.shapes[shape];
  return s ? [s.outer, ...s.holes] : [];
}

function drawStroke(ctx: DrawContext, item: StrokeItem): void {
  const widthDevice = item.nonScaling ? item.widthPx : item.widthPx * ctx.strokeScale;
  if (!(widthDevice > 0) || !Number.isFinite(widthDevice) || item.color.a <= 0 || item.paths.length === 0) return;
  const r = widthDevice / 2;
  const box = emptyBox();
  for (const path of item.paths) extendBox(box, ctx.chains, path.uses);
  box[0] = box[0]! - r;
  box[1] = box[1]! - r;
  box[2] = box[2]! + r;
  box[3] = box[3]! + r;
  const clip = item.clipShapes;
  if (clip) {
    // Nothing is drawn outside the clip shapes, so the box shrinks to their box.
    const clipBox = emptyBox();
    for (const s of clip) for (const loop of clipLoops(ctx, s)) extendBox(clipBox, ctx.chains, loop);
    box[0] = Math.max(box[0]!, clipBox[0]!);
    box[1] = Math.max(box[1]!, clipBox[1]!);
    box[2] = Math.min(box[2]!, clipBox[2]!);
    box[3] = Math.min(box[3]!, clipBox[3]!);
  }
  const cells = ctx.cells;
  if (!cells.begin(box[0]!, box[1]!, box[2]!, box[3]!)) return;
  const stroker = ctx.stroker;
  stroker.reset(cells, r, item.cap === 'butt');
  for (const path of item.paths) strokePath(stroker, ctx.chains, path);
  const gradient = deviceGradient(ctx, item);
  if (!clip) {
    if (gradient) cells.compositeEach(ctx.out, item.color, undefined, gradient);
    else cells.composite(ctx.out, item.color);
    return;
  }
  const mask = (ctx.mask ??= new CellBuffer(ctx.width, ctx.height, ctx.antiAliased));
  mask.begin(box[0]!, box[1]!, box[2]!, box[3]!);
  for (const s of clip) {
    const loops = clipLoops(ctx, s);
    if (loops.length === 0) continue;
    // Every shape positive, so shared borders between neighbouring clip shapes cancel exactly.
    const flip = loopArea2(ctx.chains, loops[0]!) < 0;
    for (const loop of loops) addLoop(mask, ctx.chains, loop, flip);
  }
  cells.compositeEach(ctx.out, item.color, mask, gradient);
}

/** Feeds one plan path's flattened polyline (chain uses joined, reversed ones walked back). */
function strokePath(stroker: Stroker, chains: ChainCache, path: PlanPath): void {
  stroker.beginPath();
  for (const use of path.uses) {
    const p = chains.points(use.chain);
    const n = p.length >> 1;
    for (let k = 0; k < n; k++) {
      const i = use.reversed ? n - 1 - k : k;
      stroker.point(p[2 * i]!, p[2 * i + 1]!);
    }
  }
  stroker.endPath(path.closed);
}

// ---------------------------------------------------------------------------------------------
// Stroking

/** A growable Float64Array. */
function grow(a: Float64Array, need: number): Float64Array {
  if (a.length >= need) return a;
  const next = new Float64Array(Math.max(need, a.length * 2));
  next.set(a);
  return next;
}

/**
 * Turns polylines into positively oriented stroke pieces (see the module header) added to a cell
 * buffer. Scratch arrays are reused from path to path.
 */
class Stroker {
  private cells: CellBuffer | undefined;
  private r = 0;
  /** Polyline points without consecutive duplicates: x, y pairs. */
  private pts: Float64Array = new Float64Array(256);
  private n = 0;
  /** Per edge: unit direction x, y and length. */
  private edge: Float64Array = new Float64Array(384);
  /** Per vertex: 1 when both neighbouring pieces are cut at the bisector, and X there (x, y). */
  private cut = new Uint8Array(128);
  private inner: Float64Array = new Float64Array(256);
  /** Per vertex: tan(θ/2) of a join that may be cut (0 for none), θ the turn angle. */
  private tanHalf: Float64Array = new Float64Array(128);
  /** One piece polygon. */
  private poly: Float64Array = new Float64Array(64);
  private polyLen = 0;

  /** Open ends get no cap (a pen stroke with butt ends, tracelab.strokes); else round caps. */
  private butt = false;

  reset(cells: CellBuffer, r: number, butt = false): void {
    this.cells = cells;
    this.r = r;
    this.butt = butt;
  }

  beginPath(): void {
    this.n = 0;
  }

  point(x: number, y: number): void {
    const n = this.n;
    if (n > 0 && this.pts[2 * n - 2] === x && this.pts[2 * n - 1] === y) return;
    this.pts = grow(this.pts, 2 * n + 2);
    this.pts[2 * n] = x;
    this.pts[2 * n + 1] = y;
    this.n = n + 1;
  }

  endPath(closed: boolean): void {
    let n = this.n;
    // A closed path's final point repeats its first.
    if (closed && n > 1 && this.pts[0] === this.pts[2 * n - 2] && this.pts[1] === this.pts[2 * n - 1]) n--;
    if (n === 0) return;
    const pts = this.pts;
    const r = this.r;
    if (n === 1) {
      // A zero-length path with round caps is a dot; with butt ends, nothing.
      if (this.butt) return;
      this.fan(pts[0]!, pts[1]!, pts[0]! + r, pts[1]!, pts[0]! + r, pts[1]!, 2 * Math.PI, true);
      return;
    }
    const edges = closed ? n : n - 1;
    this.edge = grow(this.edge, 3 * edges);
    const e = this.edge;
    for (let i = 0; i < edges; i++) {
      const j = (i + 1) % n;
      const dx = pts[2 * j]! - pts[2 * i]!;
      const dy = pts[2 * j + 1]! - pts[2 * i + 1]!;
      const len = hypot2(dx, dy);
      e[3 * i] = dx / len;
      e[3 * i + 1] = dy / len;
      e[3 * i + 2] = len;
    }
    // Joins: vertex v sits between edge v − 1 (incoming) and edge v (outgoing).
    if (this.cut.length < n) this.cut = new Uint8Array(Math.max(n, this.cut.length * 2));
    this.inner = grow(this.inner, 2 * n);
    this.tanHalf = grow(this.tanHalf, n);
    const first = closed ? 0 : 1;
    const last = closed ? n - 1 : n - 2;
    for (let v = 0; v < n; v++) {
      this.cut[v] = 0;
      this.tanHalf[v] = 0;
    }
    for (let v = first; v <= last; v++) {
      const a = (v + edges - 1) % edges;
      const cross = e[3 * a]! * e[3 * v + 1]! - e[3 * a + 1]! * e[3 * v]!;
      const dot = e[3 * a]! * e[3 * v]! + e[3 * a + 1]! * e[3 * v + 1]!;
      // Straight on needs no cut; a hairpin never gets one.
      if (cross !== 0 && 1 + dot > 1e-12) this.tanHalf[v] = Math.abs(cross) / (1 + dot);
    }
    for (let v = first; v <= last; v++) this.join(v, (v + edges - 1) % edges, v, (v + n - 1) % n, (v + 1) % n);
    for (let i = 0; i < edges; i++) this.edgePiece(i, (i + 1) % n, closed || i > 0, closed || i < edges - 1);
    if (!closed && !this.butt) {
      // Round caps: half discs behind the first point and beyond the last.
      const ax = pts[0]!, ay = pts[1]!;
      const nx0 = -e[1]!, ny0 = e[0]!;
      this.fan(ax, ay, ax + nx0 * r, ay + ny0 * r, ax - nx0 * r, ay - ny0 * r, Math.PI, false);
      const k = edges - 1;
      const bx = pts[2 * n - 2]!, by = pts[2 * n - 1]!;
      const nx1 = -e[3 * k + 1]!, ny1 = e[3 * k]!;
      this.fan(bx, by, bx - nx1 * r, by - ny1 * r, bx + nx1 * r, by + ny1 * r, Math.PI, false);
    }
  }

  /**
   * The outer sector at vertex v (edges a in, b out; neighbouring vertices prev, next), and
   * whether the neighbouring pieces can be cut (sets X).
   */
  private join(v: number, a: number, b: number, prev: number, next: number): void {
    const e = this.edge;
    const r = this.r;
    const ax = e[3 * a]!, ay = e[3 * a + 1]!, la = e[3 * a + 2]!;
    const bx = e[3 * b]!, by = e[3 * b + 1]!, lb = e[3 * b + 2]!;
    const cross = ax * by - ay * bx;
    const dot = ax * bx + ay * by;
    if (cross === 0 && dot > 0) return; // straight on: the rectangles abut, nothing to add
    const px = this.pts[2 * v]!, py = this.pts[2 * v + 1]!;
    // Normals n = (−dy, dx). Turning towards +n puts the inner side on +n, the outer on −n.
    const out = cross > 0 ? -1 : 1;
    const nax = -ay * out, nay = ax * out;
    const nbx = -by * out, nby = bx * out;
    // Sweep through the outer side: from the outer corner of edge a towards d_a. Rotating −n by
    // a positive angle heads for +d, so the sign is −out (a hairpin, cross = ±0, then sweeps −π
    // from +n whatever the zero's sign).
    const sweep = -out * Math.abs(Math.atan2(cross, dot));
    this.fan(px, py, px + nax * r, py + nay * r, px + nbx * r, py + nby * r, sweep, false);
    // Cutting at the bisector removes from each rectangle the wedge (vertex, its inner corner, X)
    // beyond the bisector; that wedge lies in the other rectangle, reaching r·sin θ (the corner)
    // or r·tan(θ/2) (X) along it. The cut is safe when that reach plus the reach of the wedge the
    // edge's far end may lose (r·tan(θ'/2) there, counted whether or not that end is cut) fits
    // in the edge: the piece stays a simple polygon and keeps the wedge it must cover.
    const tanHalf = this.tanHalf[v]!;
    if (tanHalf === 0) return;
    const reach = r * Math.max(Math.abs(cross), tanHalf);
    if (!(reach + r * this.tanHalf[prev]! <= la && reach + r * this.tanHalf[next]! <= lb)) return;
    // X: the inner offsets' crossing, on the bisector at r / cos(θ/2) from the vertex.
    const k = (-out * r) / (1 + dot);
    this.cut[v] = 1;
    this.inner[2 * v] = px + (-ay - by) * k;
    this.inner[2 * v + 1] = py + (ax + bx) * k;
  }

  /**
   * The piece of edge i (from vertex i to vertex j): the rectangle ±r around it, cut at each end
   * whose join allowed it. `joinedStart`/`joinedEnd`: that end has a join (else a cap or nothing).
   */
  private edgePiece(i: number, j: number, joinedStart: boolean, joinedEnd: boolean): void {
    const e = this.edge;
    const r = this.r;
    const dx = e[3 * i]!, dy = e[3 * i + 1]!;
    const nx = -dy, ny = dx;
    const pts = this.pts;
    const ax = pts[2 * i]!, ay = pts[2 * i + 1]!;
    const bx = pts[2 * j]!, by = pts[2 * j + 1]!;
    // Corners computed exactly as join() and the caps compute them, so shared edges cancel.
    let slx = ax + nx * r, sly = ay + ny * r;
    let srx = ax - nx * r, sry = ay - ny * r;
    let elx = bx + nx * r, ely = by + ny * r;
    let erx = bx - nx * r, ery = by - ny * r;
    if (joinedStart && this.cut[i]) {
      // The inner side is where X lies: +n when X is on the +n side of the edge.
      const xx = this.inner[2 * i]!, xy = this.inner[2 * i + 1]!;
      if ((xx - ax) * nx + (xy - ay) * ny > 0) {
        slx = xx;
        sly = xy;
      } else {
        srx = xx;
        sry = xy;
      }
    }
    if (joinedEnd && this.cut[j]) {
      const xx = this.inner[2 * j]!, xy = this.inner[2 * j + 1]!;
      if ((xx - bx) * nx + (xy - by) * ny > 0) {
        elx = xx;
        ely = xy;
      } else {
        erx = xx;
        ery = xy;
      }
    }
    // Left side forwards, through the end vertex, right side back, through the start vertex.
    this.polyLen = 0;
    this.vertex(slx, sly);
    this.vertex(elx, ely);
    this.vertex(bx, by);
    this.vertex(erx, ery);
    this.vertex(srx, sry);
    this.vertex(ax, ay);
    this.emit();
  }

  /**
   * A circular fan around (cx, cy): from the exact point (x0, y0) sweeping `sweep` radians to the
   * exact point (x1, y1), then back to the centre (or, when `full`, the whole circle).
   */
  private fan(cx: number, cy: number, x0: number, y0: number, x1: number, y1: number, sweep: number, full: boolean): void {
    const r = this.r;
    const step = ARC_TOLERANCE_PX >= r ? MAX_ARC_STEP : Math.min(MAX_ARC_STEP, 2 * Math.acos(1 - ARC_TOLERANCE_PX / r));
    const steps = Math.max(1, Math.ceil(Math.abs(sweep) / step - 1e-9));
    const vx = x0 - cx, vy = y0 - cy;
    this.polyLen = 0;
    if (!full) this.vertex(cx, cy);
    this.vertex(x0, y0);
    for (let k = 1; k < steps; k++) {
      const t = (sweep * k) / steps;
      const c = Math.cos(t), s = Math.sin(t);
      this.vertex(cx + vx * c - vy * s, cy + vx * s + vy * c);
    }
    if (!full) this.vertex(x1, y1);
    this.emit();
  }

  private vertex(x: number, y: number): void {
    this.poly = grow(this.poly, this.polyLen + 2);
    this.poly[this.polyLen++] = x;
    this.poly[this.polyLen++] = y;
  }

  /** Adds the current polygon's edges, walked so that its signed area is positive. */
  private emit(): void {
    const p = this.poly;
    const n = this.polyLen >> 1;
    const cells = this.cells!;
    let area2 = 0;
    for (let i = 0; i < n; i++) {
      const j = i + 1 < n ? i + 1 : 0;
      area2 += p[2 * i]! * p[2 * j + 1]! - p[2 * j]! * p[2 * i + 1]!;
    }
    for (let i = 0; i < n; i++) {
      const j = i + 1 < n ? i + 1 : 0;
      if (area2 >= 0) cells.addLine(p[2 * i]!, p[2 * i + 1]!, p[2 * j]!, p[2 * j + 1]!);
      else cells.addLine(p[2 * j]!, p[2 * j + 1]!, p[2 * i]!, p[2 * i + 1]!);
    }
  }
}
