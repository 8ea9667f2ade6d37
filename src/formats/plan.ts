/**
 * The output plan every format writer draws from.
 * In: a TraceResult and OutputOptions. Out: the page (src/formats/page.ts), the chains restricted
 * to the curve kinds the format and the options allow (src/formats/curves.ts), and a tree of
 * items in paint order: fills, strokes (outlines, edges, gap fillers) and groups.
 *
 * Rules from the reference: draw styles §3.3, stacking §3.4, group_by §3.5, gap filler §3.6,
 * curves §3.8, parameterized shapes written as primitives unless flattened §3.8.
 * - A layer is a set of shapes that can be drawn in any order: under cutouts nothing overlaps, so
 *   everything is one layer; under stacked, a shape lies on the shape whose hole it fills, so the
 *   layer is the nesting depth and shapes are painted layer by layer.
 * - Gap filler (fill_shapes only): one stroke under every boundary between two drawn shapes, in
 *   their average colour. Under cutouts all filler goes first; under stacked a shape's border with
 *   the shape it lies on needs none (that shape is painted underneath), and the other borders are
 *   filled at the start of the layer of their shapes, after everything below.
 * - stroke_edges strokes each chain exactly once; stroke_shapes strokes every loop of every shape.
 * All geometry stays in traced coordinates; `pathOnPage` maps it onto the page for the writers
 * that need absolute page coordinates, as one typed path per loop (no object per segment).
 *
 * Gradients (Tracelab extension `tracelab.gradients`, src/formats/gradient.ts): an item's paint is
 * its `gradient` when it has one, else its flat `color`; `color` is always set (the shape's mean
 * colour, or the average / override colour below) for writers and readers that only know flat
 * colours. Equal gradients are one object in the plan (their identity; writers key their shared
 * definitions by gradientKey). A gradient that cannot be drawn (zero axis or radius) is dropped:
 * the shape is flat. The rules:
 * - fill_shapes: a gradient shape's fill carries its gradient; primitives are detected as for any
 *   shape (a <circle> or <rect> painted with the gradient).
 * - stroke_shapes: the outline of a gradient shape is painted with its gradient, unless
 *   output.strokes.use_override_color asks for the flat override colour.
 * - stroke_edges: a chain is painted with the gradient of its owner (the later-painted side), else
 *   with the other side's, else flat in the average colour as before; the override colour wins.
 * - gap filler: a boundary where one side has a gradient is filled with that gradient (both
 *   sides: the side painted first, the one the filler shows through); fillers are merged by paint
 *   (flat colour or gradient identity).
 * - group_by=color: gradient shapes are grouped by gradient identity, `gradient-<n>` with n
 *   counted in paint order over the shapes (`layer-<d>-gradient-<n>` when stacked); flat shapes
 *   as before.
 * - Consecutive outlines are merged only when colour and gradient are both the same.
 */
import type { Chain, ChainUse, Gradient, Loop, Rgba, Shape, ShapePrimitive, StrokeLine, TraceResult } from '../engine/types.js';
import { ALL_CURVES, LINES_AND_CUBICS, ScaleMap, UNMAPPED, appendWalked, intersectCurves, isCircularArc, restrictChains, type AllowedCurves, type PointMap } from './curves.js';
import { arcCenter } from './flatten.js';
import { gradientKey, isDrawableGradient } from './gradient.js';
import { computePage, isUniform, type Page } from './page.js';
import type { OutputOptions } from './types.js';
import { hypot2 } from '../engine/length.js';
import { SEGMENT_ARC, SEGMENT_LINE, SegmentBuilder, type SegmentPath } from '../engine/segment-path.js';

/** Chain uses drawn as one subpath (a loop, or a single chain). */
export interface PlanPath {
  readonly uses: readonly ChainUse[];
  readonly closed: boolean;
}

/** A detected primitive in traced coordinates (rect: centre, size, rotation of the width side). */
export type Primitive =
  | { readonly kind: 'circle'; readonly cx: number; readonly cy: number; readonly r: number }
  | { readonly kind: 'ellipse'; readonly cx: number; readonly cy: number; readonly rx: number; readonly ry: number; readonly rotationDeg: number }
  | {
      readonly kind: 'rect';
      readonly cx: number;
      readonly cy: number;
      readonly width: number;
      readonly height: number;
      readonly rotationDeg: number;
      /** Rounded corners (the engine's rectangle primitive); absent = sharp. */
      readonly cornerRadius?: number;
    };

export interface FillItem {
  readonly kind: 'fill';
  /** Index into result.shapes. */
  readonly shape: number;
  /** The flat colour: the paint when there is no gradient, else the shape's mean colour. */
  readonly color: Rgba;
  /** Painted with this gradient (shared by every item with an equal one) instead of `color`. */
  readonly gradient?: Gradient;
  /** Outer loop first, then holes (nonzero: holes run the other way). */
  readonly loops: readonly Loop[];
  readonly primitive?: Primitive;
}

export interface StrokeItem {
  readonly kind: 'stroke';
  /** `pen`: the trace's own strokes (tracelab.strokes; TraceResult.strokes), their width part of the drawing. */
  readonly role: 'gap_filler' | 'outline' | 'pen';
  /** The flat colour: the paint when there is no gradient, else the fallback (see the header). */
  readonly color: Rgba;
  /** Painted with this gradient (shared by every item with an equal one) instead of `color`. */
  readonly gradient?: Gradient;
  /** Stroke width in input pixels. */
  readonly widthPx: number;
  readonly nonScaling: boolean;
  readonly paths: readonly PlanPath[];
  /** Gap filler with clip: drawn only inside the union of these shapes (indices into result.shapes). */
  readonly clipShapes?: readonly number[];
  /** Line ends and corners; absent = round (every stroke but a pen stroke's). */
  readonly cap?: 'butt' | 'round';
  readonly join?: 'miter' | 'round';
  /** A gap filler's `paths`, each one chain use, as flat lists (see SingleUsePaths); `paths` is built from them when read. */
  readonly singleUses?: SingleUsePaths;
}

/**
 * Paths of one chain use each (a gap filler's borders): the uses (as codes, chainUseCode) and
 * whether each is closed, entries `from` .. `to` − 1 of two typed lists that every filler of the
 * plan shares, instead of a PlanPath and a one-use array per path. Pixel art has tens of thousands
 * of borders, all alive until the file is written: those objects were copied by every collection
 * on the way. Writers that read `paths` get the PlanPath objects, built on first read.
 */
export interface SingleUsePaths {
  readonly useCodes: Int32Array;
  /** Per path: 1 when it is closed. */
  readonly closed: Uint8Array;
  readonly from: number;
  readonly to: number;
}

export interface GroupItem {
  readonly kind: 'group';
  /** Unique, usable as an XML id and a DXF layer name. */
  readonly id: string;
  readonly items: readonly PlanItem[];
}

export type PlanItem = FillItem | StrokeItem | GroupItem;

export interface OutputPlan {
  readonly result: TraceResult;
  readonly options: OutputOptions;
  readonly page: Page;
  /** result.chains restricted to `allowed` (traced coordinates). */
  readonly chains: readonly Chain[];
  readonly allowed: AllowedCurves;
  readonly items: readonly PlanItem[];
}

/**
 * A path with its chain uses resolved: on the page (page units, y down) from pathOnPage and
 * fillOnPage, in traced units from loopPath. Its segments are one typed path (no object per
 * segment), read through SegmentPath's accessors.
 */
export interface PagePath {
  readonly startX: number;
  readonly startY: number;
  readonly segments: SegmentPath;
  readonly closed: boolean;
}

/** Curve kinds a format can carry with these options (reference §3.1, §3.8). */
export function formatCurves(options: OutputOptions): AllowedCurves {
  const user: AllowedCurves = {
    quadratic: options.curves.quadraticBezier,
    cubic: options.curves.cubicBezier,
    circularArc: options.curves.circularArc,
    ellipticalArc: options.curves.ellipticalArc,
  };
  switch (options.fileFormat) {
    case 'svg':
      return intersectCurves(user, options.svg.adobeCompatibilityMode ? LINES_AND_CUBICS : ALL_CURVES);
    case 'pdf':
    case 'eps':
      return intersectCurves(user, LINES_AND_CUBICS);
    case 'png':
      return user;
    case 'dxf':
      switch (options.dxf.compatibility) {
        case 'lines_only':
          return { quadratic: false, cubic: false, circularArc: false, ellipticalArc: false };
        case 'lines_and_arcs':
          return intersectCurves(user, { quadratic: false, cubic: false, circularArc: true, ellipticalArc: true });
        case 'lines_arcs_and_splines':
          return user;
      }
  }
}

export function buildPlan(result: TraceResult, options: OutputOptions): OutputPlan {
  const page = computePage(result, options.size, options.fileFormat);
  let allowed = formatCurves(options);
  // Arcs do not survive a non-uniform page map; they fall back like disallowed arcs.
  if (!isUniform(page)) allowed = { ...allowed, circularArc: false, ellipticalArc: false };
  const tracedPerInputPx = result.width / result.inputWidth;
  const chains = restrictChains(result.chains, allowed, options.curves.lineFitTolerancePx * tracedPerInputPx);
  const items = buildItems(result, options, chains, allowed, isUniform(page));
  const pens = result.strokes && result.strokes.length > 0 ? penItems(result.strokes, result.inputWidth / result.width) : undefined;
  return { result, options, page, chains, allowed, items: pens ? [...items, ...pens] : items };
}

/**
 * The trace's pen strokes (tracelab.strokes), after the shapes, in pen order: one group per colour
 * (`pen-<rrggbb>`, whatever output.group_by says: a colour is a pen, a layer, a machine operation),
 * in it consecutive strokes of one width, cap and join as one item. Their width scales with the
 * page (it is the drawing's, not a hairline's).
 */
function penItems(strokes: readonly StrokeLine[], inputPerTracedPx: number): GroupItem[] {
  const groups: GroupItem[] = [];
  const byColor = new Map<string, StrokeItem[]>();
  for (const stroke of strokes) {
    const key = colorKey(stroke.color);
    let list = byColor.get(key);
    if (!list) {
      byColor.set(key, (list = []));
      groups.push({ kind: 'group', id: `pen-${key}`, items: list });
    }
    const path: PlanPath = { uses: stroke.uses, closed: stroke.closed };
    const widthPx = Math.round(stroke.widthPx * inputPerTracedPx * 100) / 100;
    const last = list[list.length - 1];
    if (last && last.widthPx === widthPx && last.cap === stroke.cap && last.join === stroke.join) {
      (last.paths as PlanPath[]).push(path);
      continue;
    }
    list.push({ kind: 'stroke', role: 'pen', color: stroke.color, widthPx, nonScaling: false, paths: [path], cap: stroke.cap, join: stroke.join });
  }
  return groups;
}

// ---------------------------------------------------------------------------------------------
// Items
//
// Written as top-level functions over one ShapeTable, without closures or callbacks: a closure is
// a new function on every call, and V8 optimised buildItems' closures afresh for every picture (a
// batch of varied pictures kept recompiling them, on the same cores that trace).

/** What the item builders need to know about the shapes, derived once per plan. */
interface ShapeTable {
  readonly shapes: readonly Shape[];
  readonly stacked: boolean;
  /** Shape index per region; −1 when the region has no shape (or lies beyond the table). */
  readonly shapeIndexOfRegion: Int32Array;
  /** Shape index of each shape's parent; −1 for none. */
  readonly parentShape: Int32Array;
  /** Nesting depth of each shape (0 = top level). */
  readonly depth: Int32Array;
  /** Shape indices in paint order: by index, or by depth then index when stacked. */
  readonly order: Int32Array;
  /** Position of each shape in `order`. */
  readonly paintIndex: Int32Array;
  /** Per drawn shape, its drawable gradient (one object per distinct gradient); absent when none has one. */
  readonly gradients: ShapeGradients | undefined;
  /**
   * Per shape, its colour's alpha (as it is): read per chain side by the edge and filler builders
   * from one typed array rather than through each shape's colour object (tens of thousands of
   * shapes on pixel art, read in chain order: a cache miss each).
   */
  readonly alpha: Float64Array;
  /** Per shape, its colour's r, g, b (as they are), three numbers a shape: the filler's key per border (fillerEntry), for the same reason. */
  readonly rgb: Float64Array;
}

/** The gradients of the shapes (see shapeGradients). */
interface ShapeGradients {
  /** Per shape: its gradient, shared by every shape with an equal one, or undefined. */
  readonly of: readonly (Gradient | undefined)[];
  /** Per shape: its gradient's number (distinct gradients counted in paint order), or −1. */
  readonly number: Int32Array;
}

function shapeTable(result: TraceResult): ShapeTable {
  const shapes = result.shapes;
  const n = shapes.length;
  const stacked = (result.shapeStacking ?? 'cutouts') === 'stacked';
  let regionCount = 0;
  for (let i = 0; i < n; i++) regionCount = Math.max(regionCount, shapes[i]!.region + 1, shapes[i]!.parent + 1);
  const shapeIndexOfRegion = new Int32Array(regionCount).fill(-1);
  for (let i = 0; i < n; i++) shapeIndexOfRegion[shapes[i]!.region] = i;
  const parentShape = new Int32Array(n);
  for (let i = 0; i < n; i++) parentShape[i] = shapeOfRegion(shapeIndexOfRegion, shapes[i]!.parent);
  const depth = new Int32Array(n);
  // Parents are larger, so they come first in result.shapes; a second pass covers anything else.
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < n; i++) depth[i] = parentShape[i]! >= 0 ? depth[parentShape[i]!]! + 1 : 0;
  }
  const order = new Int32Array(n);
  if (stacked) {
    // By depth, ties by index (a counting sort: depths are small whole numbers).
    let maxDepth = 0;
    for (let i = 0; i < n; i++) maxDepth = Math.max(maxDepth, depth[i]!);
    const next = new Int32Array(maxDepth + 2);
    for (let i = 0; i < n; i++) next[depth[i]! + 1]!++;
    for (let d = 1; d <= maxDepth + 1; d++) next[d]! += next[d - 1]!;
    for (let i = 0; i < n; i++) order[next[depth[i]!]!++] = i;
  } else {
    for (let i = 0; i < n; i++) order[i] = i;
  }
  const paintIndex = new Int32Array(n);
  for (let k = 0; k < n; k++) paintIndex[order[k]!] = k;
  const alpha = new Float64Array(n);
  const rgb = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const color = shapes[i]!.color;
    alpha[i] = color.a;
    rgb[3 * i] = color.r;
    rgb[3 * i + 1] = color.g;
    rgb[3 * i + 2] = color.b;
  }
  return { shapes, stacked, shapeIndexOfRegion, parentShape, depth, order, paintIndex, gradients: shapeGradients(shapes, order), alpha, rgb };
}

/**
 * The drawn shapes' drawable gradients, equal ones as one object, numbered in paint order; undefined
 * when no drawn shape has one (so pictures without gradients allocate nothing).
 */
function shapeGradients(shapes: readonly Shape[], order: Int32Array): ShapeGradients | undefined {
  let of: (Gradient | undefined)[] | undefined;
  let number: Int32Array | undefined;
  const byKey = new Map<string, { gradient: Gradient; number: number }>();
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const s = shapes[i]!;
    if (!s.gradient || s.color.a <= 0 || !isDrawableGradient(s.gradient)) continue;
    if (!of || !number) {
      of = new Array<Gradient | undefined>(shapes.length).fill(undefined);
      number = new Int32Array(shapes.length).fill(-1);
    }
    const key = gradientKey(s.gradient);
    let entry = byKey.get(key);
    if (!entry) byKey.set(key, (entry = { gradient: s.gradient, number: byKey.size }));
    of[i] = entry.gradient;
    number[i] = entry.number;
  }
  return of && number ? { of, number } : undefined;
}

/** A shape's gradient, or undefined (also for −1). */
function gradientOf(table: ShapeTable, shape: number): Gradient | undefined {
  return shape >= 0 && table.gradients ? table.gradients.of[shape] : undefined;
}

/** The shape of a region, or −1. */
function shapeOfRegion(shapeIndexOfRegion: Int32Array, region: number): number {
  return region >= 0 && region < shapeIndexOfRegion.length ? shapeIndexOfRegion[region]! : -1;
}

/** The shape of a region when it is drawn (not fully transparent), else −1. */
function drawnShapeOfRegion(table: ShapeTable, region: number): number {
  const i = shapeOfRegion(table.shapeIndexOfRegion, region);
  return i >= 0 && table.alpha[i]! > 0 ? i : -1;
}

/**
 * Every chain of a drawn shape once, in the order (and direction) the shapes first use it, with
 * the drawn shapes on its two sides (−1 = nothing drawn there) and the shape that used it.
 */
interface ChainVisits {
  readonly count: number;
  /** The visited chain uses as codes (chainUseCode); the first `count` entries are set. */
  readonly useCodes: Int32Array;
  readonly sideA: Int32Array;
  readonly sideB: Int32Array;
  readonly user: Int32Array;
  /** 1 when the visited chain is closed. */
  readonly closed: Uint8Array;
}

/**
 * A chain use as one number, chain · 2 + 1 when reversed: what the plan keeps of a use it reads
 * many times (a gap filler's borders), rather than a reference to the shape's use object
 * (following those across the heap, in paint order, was most of the filler's time on pixel art).
 */
export function chainUseCode(use: ChainUse): number {
  return use.chain * 2 + (use.reversed ? 1 : 0);
}

/** The chain of a use code (chainUseCode). */
export function codeChain(code: number): number {
  return code >> 1;
}

/** Whether a use code (chainUseCode) walks its chain backwards. */
export function codeReversed(code: number): boolean {
  return (code & 1) === 1;
}

/** The chain use a code (chainUseCode) stands for, as a new object. */
export function chainUseOfCode(code: number): ChainUse {
  return { chain: codeChain(code), reversed: codeReversed(code) };
}

function visitChainsOnce(table: ShapeTable, chains: readonly Chain[]): ChainVisits {
  const sides = chainSides(table, chains);
  const seen = new Uint8Array(chains.length);
  let count = 0;
  const useCodes = new Int32Array(chains.length);
  const sideA = new Int32Array(chains.length);
  const sideB = new Int32Array(chains.length);
  const user = new Int32Array(chains.length);
  const closed = new Uint8Array(chains.length);
  const { shapes, order, alpha } = table;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    if (alpha[i]! <= 0) continue;
    const s = shapes[i]!;
    for (let l = -1; l < s.holes.length; l++) {
      const loop = l < 0 ? s.outer : s.holes[l]!;
      for (let u = 0; u < loop.length; u++) {
        const use = loop[u]!;
        const c = use.chain;
        if (seen[c]) continue;
        seen[c] = 1;
        const v = count++;
        useCodes[v] = chainUseCode(use);
        sideA[v] = sides.left[c]!;
        sideB[v] = sides.right[c]!;
        user[v] = i;
        closed[v] = sides.closed[c]!;
      }
    }
  }
  return { count, useCodes, sideA, sideB, user, closed };
}

/**
 * Per chain, the drawn shapes on its left and right (−1 = nothing drawn there) and whether it is
 * closed: read from the chain objects in chain order, one pass in the order they were made,
 * rather than in paint order (a jump across the heap per chain: tens of thousands on pixel art).
 */
function chainSides(table: ShapeTable, chains: readonly Chain[]): { left: Int32Array; right: Int32Array; closed: Uint8Array } {
  const left = new Int32Array(chains.length);
  const right = new Int32Array(chains.length);
  const closed = new Uint8Array(chains.length);
  for (let c = 0; c < chains.length; c++) {
    const chain = chains[c]!;
    left[c] = drawnShapeOfRegion(table, chain.leftRegion);
    right[c] = drawnShapeOfRegion(table, chain.rightRegion);
    closed[c] = chain.closed ? 1 : 0;
  }
  return { left, right, closed };
}

function buildItems(result: TraceResult, options: OutputOptions, chains: readonly Chain[], allowed: AllowedCurves, uniform: boolean): PlanItem[] {
  const table = shapeTable(result);
  // A photo's regions are blobs of grain: one that happens to be a block of whole pixels is not a
  // rectangle of the picture, and is written as a path like the others. The engine's own
  // primitives (circles and ellipses, the only ones it fits in photos) stay.
  const units = shapeUnits(table, options, chains, allowed, uniform, result.stats.profile !== 'photo');
  const visits = options.drawStyle === 'stroke_edges' || (options.drawStyle === 'fill_shapes' && options.gapFiller.enabled) ? visitChainsOnce(table, chains) : undefined;
  if (visits && options.drawStyle === 'stroke_edges') addEdgeStrokes(table, options, visits, units);
  const fillers = visits && options.drawStyle === 'fill_shapes' ? gapFillers(table, options, visits, chains, result) : new Map<string, StrokeItem[]>();
  return groupItems(table, options, units, fillers);
}

/**
 * Per shape, its own drawables in paint order: one item (a fill, or an outline) under fill_shapes
 * and stroke_shapes, kept in `one` without a list per shape (tens of thousands of shapes on pixel
 * art, alive until the file is written: garbage the collector copied); under stroke_edges a list
 * per drawn shape, `edges`, that addEdgeStrokes fills.
 */
interface ShapeUnits {
  /** Per shape: its one item; undefined when it is not drawn or under stroke_edges. */
  readonly one: (FillItem | StrokeItem | undefined)[];
  /** stroke_edges: per shape, its edge strokes; undefined under the other draw styles. */
  readonly edges: StrokeItem[][] | undefined;
}

/** Appends shape i's drawables to `into`. */
function appendUnits(into: PlanItem[], units: ShapeUnits, i: number): void {
  const one = units.one[i];
  if (one) into.push(one);
  else if (units.edges) for (const item of units.edges[i]!) into.push(item);
}

function shapeUnits(table: ShapeTable, options: OutputOptions, chains: readonly Chain[], allowed: AllowedCurves, uniform: boolean, rectangles: boolean): ShapeUnits {
  const { shapes, order } = table;
  // (Filled by pushes: packed arrays, where new Array(n) made holey ones.)
  const one: (FillItem | StrokeItem | undefined)[] = [];
  for (let i = 0; i < shapes.length; i++) one.push(undefined);
  // A shape not drawn shares one empty list (addEdgeStrokes adds to drawn shapes only).
  const undrawn: StrokeItem[] = [];
  const edges: StrokeItem[][] | undefined = options.drawStyle === 'stroke_edges' ? [] : undefined;
  if (edges) for (let i = 0; i < shapes.length; i++) edges.push(undrawn);
  const primitivesOk = primitiveFormat(options, allowed);
  const walker = primitivesOk && options.drawStyle === 'fill_shapes' ? new LoopWalker(chains) : undefined;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    if (table.alpha[i]! <= 0) continue;
    const s = shapes[i]!;
    const loops: Loop[] = s.holes.length === 0 ? [s.outer] : [s.outer, ...s.holes];
    if (options.drawStyle === 'fill_shapes') {
      let primitive = primitivesOk && s.holes.length === 0 ? (roundedRect(s.primitive, allowed) ?? detectPrimitive(chains, s.outer, allowed, walker)) : undefined;
      if (!rectangles && primitive?.kind === 'rect') primitive = undefined;
      // A turned rectangle is no longer one under a non-uniform page map.
      if (primitive?.kind === 'rect' && primitive.rotationDeg !== 0 && !uniform) primitive = undefined;
      // Two literals rather than a spread of a temporary object (one fill per shape).
      const gradient = gradientOf(table, i);
      if (gradient) one[i] = { kind: 'fill', shape: i, color: s.color, gradient, loops, ...(primitive ? { primitive } : {}) };
      else one[i] = primitive ? { kind: 'fill', shape: i, color: s.color, loops, primitive } : { kind: 'fill', shape: i, color: s.color, loops };
    } else if (options.drawStyle === 'stroke_shapes') {
      const paths: PlanPath[] = [];
      for (const l of loops) paths.push({ uses: l, closed: true });
      const override = options.strokes.overrideColor;
      one[i] = outline(override ?? s.color, options, paths, override ? undefined : gradientOf(table, i));
    } else {
      // stroke_edges: addEdgeStrokes fills the drawn shapes' own lists.
      edges![i] = [];
    }
  }
  return { one, edges };
}

/** stroke_edges: every chain once, owned by the later-painted of its two shapes (paint: see the header). */
function addEdgeStrokes(table: ShapeTable, options: OutputOptions, visits: ChainVisits, units: ShapeUnits): void {
  const { shapes, paintIndex } = table;
  for (let v = 0; v < visits.count; v++) {
    const a = visits.sideA[v]!;
    const b = visits.sideB[v]!;
    const user = visits.user[v]!;
    const use = chainUseOfCode(visits.useCodes[v]!);
    const both = a >= 0 && b >= 0;
    const owner = both ? (paintIndex[a]! > paintIndex[b]! ? a : b) : user;
    const color = both ? averageColor(shapes[a]!.color, shapes[b]!.color) : shapes[user]!.color;
    const override = options.strokes.overrideColor;
    const gradient = override ? undefined : (gradientOf(table, owner) ?? (both ? gradientOf(table, owner === a ? b : a) : undefined));
    units.edges![owner]!.push(outline(override ?? color, options, [{ uses: [use], closed: visits.closed[v] === 1 }], gradient));
  }
}

/**
 * Whether the gap filler is clipped to the shapes it serves (output.gap_filler.clip): everywhere but SVG Tiny 1.2,
 * which has no clipping paths — there the filler is written unclipped, as with clip=false (it reaches at most half
 * its stroke width past the two shapes, where their shared border meets a third shape or the picture's edge).
 */
export function clipsGapFiller(options: OutputOptions): boolean {
  return options.gapFiller.clip && !(options.fileFormat === 'svg' && options.svg.version === 'svg_tiny_1_2');
}

/** One gap filler's paint and paths under construction. */
interface FillerEntry {
  /** Position in the plan's list of entries (fillerEntry). */
  readonly index: number;
  color: Rgba;
  gradient: Gradient | undefined;
  /** Its borders (counted first, then placed by fillerBorders from `from` on). */
  count: number;
  from: number;
  /** The shapes the filler is clipped to; only with output.gap_filler.clip (clipsGapFiller). */
  clip: Set<number> | undefined;
}

/**
 * Per anchor, the fillers by paint: a flat colour as one number (0xRRGGBB; the filler is opaque)
 * rather than a hex string per chain, a gradient by its number as a string (never equal to a
 * number key); a Map keeps first-seen order either way.
 */
type FillersByAnchor = Map<string, Map<number | string, FillerEntry>>;

/**
 * Gap filler strokes (fill_shapes), keyed by where they go: 'root', 'layer:d' or 'parent:i'. None
 * along a chain under a stroke (tracelab.strokes=auto): the stroke hides the seam. None, in
 * stacked output, beside a shape thinner than the filler that is not drawn under everything
 * (thinnerThanFiller).
 */
function gapFillers(table: ShapeTable, options: OutputOptions, visits: ChainVisits, chains: readonly Chain[], result: TraceResult): Map<string, StrokeItem[]> {
  const { alpha } = table;
  const underStrokes = result.chainsUnderStrokes;
  const byAnchor: FillersByAnchor = new Map();
  const anchorNames = new Map<number, string>();
  const hidden = underStrokes && underStrokes.length > 0 ? new Set(underStrokes) : undefined;
  // The shapes a filler is clipped to are only needed with output.gap_filler.clip.
  const clips = clipsGapFiller(options);
  const thin = table.stacked && !clips && THIN_SIBLINGS_UNFILLED.has(result.stats.profile) ? thinnerThanFiller(table, chains, options.gapFiller.strokeWidthPx) : undefined;
  const entries: FillerEntry[] = [];
  const entryOf = new Int32Array(visits.count).fill(-1);
  for (let v = 0; v < visits.count; v++) {
    const a = visits.sideA[v]!;
    const b = visits.sideB[v]!;
    if (a < 0 || b < 0) continue;
    if (hidden?.has(codeChain(visits.useCodes[v]!))) continue;
    // An opaque filler under a translucent shape would show through it as a line along the border.
    if (alpha[a]! < 255 || alpha[b]! < 255) continue;
    const anchor = fillerAnchor(table, options, anchorNames, a, b);
    if (anchor === undefined) continue;
    if (thin && anchor !== 'root' && (thin(a) || thin(b))) continue;
    let colors = byAnchor.get(anchor);
    if (!colors) byAnchor.set(anchor, (colors = new Map()));
    const entry = fillerEntry(table, colors, a, b, clips, entries);
    entryOf[v] = entry.index;
    entry.count++;
    if (entry.clip) {
      entry.clip.add(a);
      entry.clip.add(b);
    }
  }
  return fillerStrokes(byAnchor, fillerBorders(visits, entryOf, entries), options);
}

/** The lists SingleUsePaths read from. */
type FillerBorders = Pick<SingleUsePaths, 'useCodes' | 'closed'>;

/**
 * Every filler's borders in one pair of typed lists, each filler's a run in visit order: counted
 * per filler, then placed (a counting sort), with no list per filler grown push by push.
 */
function fillerBorders(visits: ChainVisits, entryOf: Int32Array, entries: readonly FillerEntry[]): FillerBorders {
  let total = 0;
  const next = new Int32Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    entries[i]!.from = next[i] = total;
    total += entries[i]!.count;
  }
  const useCodes = new Int32Array(total);
  const closed = new Uint8Array(total);
  for (let v = 0; v < visits.count; v++) {
    const e = entryOf[v]!;
    if (e < 0) continue;
    const at = next[e]!++;
    useCodes[at] = visits.useCodes[v]!;
    closed[at] = visits.closed[v]!;
  }
  return { useCodes, closed };
}

/**
 * The profiles whose thin shapes get no filler beside them in stacked output (thinnerThanFiller):
 * pixel art and line art, whose neighbours differ in colour, so a filler poking past a thin shape
 * shows, and whose hard or two-tone edges leave little seam to hide. Measured on the validation
 * set and the corpus (stacked): pixel art +0.005 to +0.16 SSIM (pingus-bridger 0.78 → 0.95) at
 * 0.37–0.87× the bytes, the hairline pavement under strokes=auto +0.019; in photos, JPEG'd and
 * flat art, whose grain and bands are thin shapes of near colours, the fillers are what hide the
 * seams (photos lost up to 0.16 without them), so they keep them.
 */
const THIN_SIBLINGS_UNFILLED: ReadonlySet<string> = new Set(['pixel', 'lineart']);

/**
 * Per shape (memoised), whether it is thinner than the gap filler: its mean width, twice its area
 * over its outer loop's length (the chords of its fitted segments), under `fillerWidthPx`. In
 * stacked output a filler between two shapes over a third is drawn over that third, and half its
 * width pokes past a shape thinner than it: a hairline drawing traced with
 * tracelab.strokes=auto came back with dark knots along its lines (SSIM 0.9759 against 0.9949 in
 * cutouts, where the same fillers lie under every shape).
 */
function thinnerThanFiller(table: ShapeTable, chains: readonly Chain[], fillerWidthPx: number): (shape: number) => boolean {
  const known = new Int8Array(table.shapes.length);
  return (shape) => {
    if (known[shape] === 0) {
      const s = table.shapes[shape]!;
      let lengthPx = 0;
      for (const use of s.outer) lengthPx += chordLengthPx(chains[use.chain]!);
      known[shape] = lengthPx > 0 && (2 * s.areaPx) / lengthPx < fillerWidthPx ? 1 : -1;
    }
    return known[shape] === 1;
  };
}

/** A chain's length along the chords of its segments (px). */
function chordLengthPx(chain: Chain): number {
  const { segments } = chain;
  let [x, y] = [chain.startX, chain.startY];
  let length = 0;
  for (let k = 0; k < segments.length; k++) {
    length += Math.hypot(segments.x(k) - x, segments.y(k) - y);
    [x, y] = [segments.x(k), segments.y(k)];
  }
  return length;
}

/**
 * Where the filler between shapes a and b goes ('root', 'layer:d' or 'parent:i'; names made once
 * per id in anchorNames), or undefined when it needs none: in stacked output a shape lying on its
 * parent, which is painted underneath.
 */
function fillerAnchor(table: ShapeTable, options: OutputOptions, anchorNames: Map<number, string>, a: number, b: number): string | undefined {
  const { stacked, parentShape, depth } = table;
  if (!stacked) return 'root';
  if (parentShape[a] === b || parentShape[b] === a) return undefined;
  const deeper = depth[a]! >= depth[b]! ? a : b;
  const parent = parentShape[deeper]!;
  const id = options.groupBy === 'parent' ? parent : depth[deeper]!;
  if (options.groupBy === 'parent' && parent < 0) return 'root';
  let name = anchorNames.get(id);
  if (name === undefined) anchorNames.set(id, (name = options.groupBy === 'parent' ? `parent:${id}` : `layer:${id}`));
  return name;
}

/**
 * The filler entry (made on first use) for the border of shapes a and b: a gradient side paints
 * the filler — with two, the side painted first (the filler shows through it) — else the mean of
 * their colours.
 */
function fillerEntry(table: ShapeTable, colors: Map<number | string, FillerEntry>, a: number, b: number, clips: boolean, entries: FillerEntry[]): FillerEntry {
  const { shapes, paintIndex, rgb } = table;
  const first = paintIndex[a]! <= paintIndex[b]! ? a : b;
  const second = first === a ? b : a;
  const painter = gradientOf(table, first) ? first : gradientOf(table, second) ? second : -1;
  const gradient = gradientOf(table, painter);
  // averageColor's channels, from the table (the shapes' colour objects are read for a new entry only).
  const key = gradient
    ? `g${table.gradients!.number[painter]!}`
    : (((rgb[3 * a]! + rgb[3 * b]!) >> 1) << 16) | (((rgb[3 * a + 1]! + rgb[3 * b + 1]!) >> 1) << 8) | ((rgb[3 * a + 2]! + rgb[3 * b + 2]!) >> 1);
  let entry = colors.get(key);
  if (!entry) {
    entry = { index: entries.length, color: averageColor(shapes[a]!.color, shapes[b]!.color, true), gradient, count: 0, from: 0, clip: clips ? new Set() : undefined };
    colors.set(key, entry);
    entries.push(entry);
  }
  return entry;
}

/** The filler entries as stroke items, per anchor, in first-seen order. */
function fillerStrokes(byAnchor: FillersByAnchor, borders: FillerBorders, options: OutputOptions): Map<string, StrokeItem[]> {
  const fillers = new Map<string, StrokeItem[]>();
  for (const [anchor, colors] of byAnchor) {
    const strokes: StrokeItem[] = [];
    for (const e of colors.values()) strokes.push(fillerStroke(e, borders, options));
    fillers.set(anchor, strokes);
  }
  return fillers;
}

/** A filler entry's stroke item: its paths kept as SingleUsePaths, the PlanPath list built when `paths` is first read. */
function fillerStroke(e: FillerEntry, borders: FillerBorders, options: OutputOptions): StrokeItem {
  const singleUses: SingleUsePaths = { useCodes: borders.useCodes, closed: borders.closed, from: e.from, to: e.from + e.count };
  return new FillerStroke(e.color, e.gradient, options, e.clip ? [...e.clip].sort(ascending) : undefined, singleUses);
}

/**
 * A gap filler's stroke item. A class, where an object literal with a `paths` getter was built in
 * dictionary mode (about 800 bytes each, thousands on pixel art); its fields are always present
 * (gradient and clipShapes undefined when it has none), so every filler has one hidden class.
 * `paths` stays an own, enumerable getter (one function for all: FILLER_PATHS), so that a copy of
 * the item (`{ ...filler, widthPx }`) still has its paths.
 */
class FillerStroke implements StrokeItem {
  readonly kind = 'stroke';
  readonly role = 'gap_filler';
  readonly widthPx: number;
  readonly nonScaling: boolean;
  /** What `paths` gives, once built. */
  builtPaths: PlanPath[] | undefined = undefined;
  declare readonly paths: readonly PlanPath[];

  constructor(
    readonly color: Rgba,
    readonly gradient: Gradient | undefined,
    options: OutputOptions,
    readonly clipShapes: readonly number[] | undefined,
    readonly singleUses: SingleUsePaths,
  ) {
    this.widthPx = options.gapFiller.strokeWidthPx;
    this.nonScaling = options.gapFiller.nonScalingStroke;
    Object.defineProperty(this, 'paths', FILLER_PATHS);
  }
}

/** FillerStroke's `paths`: its SingleUsePaths as PlanPath objects, built on first read. */
const FILLER_PATHS: PropertyDescriptor = Object.freeze({
  get(this: FillerStroke): readonly PlanPath[] {
    return (this.builtPaths ??= singleUsePlanPaths(this.singleUses));
  },
  enumerable: true,
  configurable: true,
});

/** SingleUsePaths as PlanPath objects (a one-use list each). */
function singleUsePlanPaths({ useCodes, closed, from, to }: SingleUsePaths): PlanPath[] {
  const paths: PlanPath[] = [];
  for (let k = from; k < to; k++) paths.push({ uses: [chainUseOfCode(useCodes[k]!)], closed: closed[k] === 1 });
  return paths;
}

function ascending(a: number, b: number): number {
  return a - b;
}

function fillersAt(fillers: ReadonlyMap<string, StrokeItem[]>, anchor: string): StrokeItem[] {
  return fillers.get(anchor) ?? [];
}

/** Paint-ordered items grouped as output.group_by asks (reference §3.5). */
function groupItems(table: ShapeTable, options: OutputOptions, units: ShapeUnits, fillers: ReadonlyMap<string, StrokeItem[]>): PlanItem[] {
  const layers = paintLayers(table);
  switch (options.groupBy) {
    case 'none':
      return mergeStrokes(ungroupedItems(table, layers, units, fillers));
    case 'layer':
      return mergeStrokes(itemsByLayer(table, layers, units, fillers));
    case 'color':
      return mergeStrokes(itemsByColor(table, layers, units, fillers));
    case 'parent':
      return mergeStrokes(itemsByParent(table, units, fillers));
  }
}

/**
 * The paint layers as runs of table.order: layer d is order[start[d]] .. order[start[d + 1] − 1]
 * (the shapes of stacking depth d, or every shape in layer 0 under cutouts; order is by depth when
 * stacked), so no list of shape indices is built per layer. Empty runs are skipped.
 */
function paintLayers(table: ShapeTable): Int32Array {
  const { stacked, order, depth } = table;
  const n = order.length;
  if (n === 0) return new Int32Array(1);
  if (!stacked) return Int32Array.of(0, n);
  const layerCount = depth[order[n - 1]!]! + 1;
  const start = new Int32Array(layerCount + 1).fill(n);
  for (let k = n - 1; k >= 0; k--) start[depth[order[k]!]!] = k;
  // A depth without shapes (none: a shape's parent is one level up) would be an empty run.
  for (let d = layerCount - 1; d >= 0; d--) start[d] = Math.min(start[d]!, start[d + 1]!);
  return start;
}

/** The fillers for the whole picture (cutouts; stacked output anchors them per layer). */
function rootFillersOf(table: ShapeTable, fillers: ReadonlyMap<string, StrokeItem[]>): StrokeItem[] {
  return table.stacked ? [] : fillersAt(fillers, 'root');
}

/** group_by=none: every item in paint order, each layer's fillers before its shapes. */
function ungroupedItems(table: ShapeTable, layers: Int32Array, units: ShapeUnits, fillers: ReadonlyMap<string, StrokeItem[]>): PlanItem[] {
  const items: PlanItem[] = [...rootFillersOf(table, fillers)];
  for (let d = 0; d + 1 < layers.length; d++) {
    if (layers[d] === layers[d + 1]) continue;
    if (table.stacked) items.push(...fillersAt(fillers, `layer:${d}`));
    // An item at a time: a spread call per shape was most of this function's time on pixel art.
    for (let k = layers[d]!; k < layers[d + 1]!; k++) appendUnits(items, units, table.order[k]!);
  }
  return items;
}

/** group_by=layer: one group per stacking depth. */
function itemsByLayer(table: ShapeTable, layers: Int32Array, units: ShapeUnits, fillers: ReadonlyMap<string, StrokeItem[]>): PlanItem[] {
  const items: PlanItem[] = [...rootFillersOf(table, fillers)];
  for (let d = 0; d + 1 < layers.length; d++) {
    if (layers[d] === layers[d + 1]) continue;
    const inner: PlanItem[] = table.stacked ? [...fillersAt(fillers, `layer:${d}`)] : [];
    for (let k = layers[d]!; k < layers[d + 1]!; k++) appendUnits(inner, units, table.order[k]!);
    if (inner.length > 0) items.push({ kind: 'group', id: `layer-${d}`, items: mergeStrokes(inner) });
  }
  return items;
}

/** group_by=color: per layer, one group per paint (`color-<rrggbb>` flat, `gradient-<n>` gradient). */
function itemsByColor(table: ShapeTable, layers: Int32Array, units: ShapeUnits, fillers: ReadonlyMap<string, StrokeItem[]>): PlanItem[] {
  const { shapes, stacked } = table;
  const items: PlanItem[] = [...rootFillersOf(table, fillers)];
  for (let d = 0; d + 1 < layers.length; d++) {
    if (layers[d] === layers[d + 1]) continue;
    if (stacked) items.push(...fillersAt(fillers, `layer:${d}`));
    const byPaint = new Map<string, PlanItem[]>();
    for (let k = layers[d]!; k < layers[d + 1]!; k++) {
      const i = table.order[k]!;
      const key = gradientOf(table, i) ? `gradient-${table.gradients!.number[i]!}` : `color-${colorKey(shapes[i]!.color)}`;
      let list = byPaint.get(key);
      if (!list) byPaint.set(key, (list = []));
      appendUnits(list, units, i);
    }
    for (const [key, list] of byPaint) {
      if (list.length === 0) continue;
      items.push({ kind: 'group', id: stacked ? `layer-${d}-${key}` : key, items: mergeStrokes(list) });
    }
  }
  return items;
}

/** group_by=parent: shapes nested in the shapes whose holes they lie in. */
function itemsByParent(table: ShapeTable, units: ShapeUnits, fillers: ReadonlyMap<string, StrokeItem[]>): PlanItem[] {
  const { shapes, stacked, order } = table;
  const children: number[][] = [];
  for (let i = 0; i < shapes.length; i++) children.push([]);
  const top: number[] = [];
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    (table.parentShape[i]! >= 0 ? children[table.parentShape[i]!]! : top).push(i);
  }
  const items: PlanItem[] = [...rootFillersOf(table, fillers), ...(stacked ? fillersAt(fillers, 'root') : [])];
  for (const i of top) items.push(...parentGroup(i, children, units, fillers, stacked));
  return items;
}

/** group_by=parent: a shape with children becomes a group of itself, its fillers and its children. */
function parentGroup(i: number, children: readonly number[][], units: ShapeUnits, fillers: ReadonlyMap<string, StrokeItem[]>, stacked: boolean): PlanItem[] {
  const own: PlanItem[] = [];
  appendUnits(own, units, i);
  if (children[i]!.length === 0) return own;
  const inner: PlanItem[] = [...own, ...(stacked ? fillersAt(fillers, `parent:${i}`) : [])];
  for (const c of children[i]!) inner.push(...parentGroup(c, children, units, fillers, stacked));
  return [{ kind: 'group', id: `shape-${i}`, items: mergeStrokes(inner) }];
}

function outline(color: Rgba, options: OutputOptions, paths: PlanPath[], gradient?: Gradient): StrokeItem {
  const item: StrokeItem = { kind: 'stroke', role: 'outline', color, widthPx: options.strokes.strokeWidthPx, nonScaling: options.strokes.nonScalingStroke, paths };
  return gradient ? { ...item, gradient } : item;
}

/**
 * Consecutive outline strokes of one paint become one item (one path element): the same colour
 * and the same gradient (or none; the plan shares one object per distinct gradient).
 */
function mergeStrokes(items: PlanItem[]): PlanItem[] {
  // Without two outlines in a row (fill_shapes: tens of thousands of fills) the list is as it is.
  if (!hasOutlinePair(items)) return items;
  const out: PlanItem[] = [];
  for (const item of items) {
    const prev = out[out.length - 1];
    if (
      item.kind === 'stroke' &&
      item.role === 'outline' &&
      prev?.kind === 'stroke' &&
      prev.role === 'outline' &&
      colorKey(prev.color) === colorKey(item.color) &&
      prev.gradient === item.gradient
    ) {
      out[out.length - 1] = { ...prev, paths: [...prev.paths, ...item.paths] };
    } else {
      out.push(item);
    }
  }
  return out;
}

/** Whether two outline strokes follow each other somewhere in `items` (mergeStrokes' only candidates). */
function hasOutlinePair(items: readonly PlanItem[]): boolean {
  let previousIsOutline = false;
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    const isOutline = item.kind === 'stroke' && item.role === 'outline';
    if (isOutline && previousIsOutline) return true;
    previousIsOutline = isOutline;
  }
  return false;
}

/** Mean of two colours; the gap filler is always opaque (reference §3.6). */
export function averageColor(a: Rgba, b: Rgba, opaque = false): Rgba {
  return { r: (a.r + b.r) >> 1, g: (a.g + b.g) >> 1, b: (a.b + b.b) >> 1, a: opaque ? 255 : (a.a + b.a) >> 1 };
}

/** rrggbb (and aa when not opaque), lower case. */
export function colorKey(c: Rgba): string {
  return `${hexByte(c.r)}${hexByte(c.g)}${hexByte(c.b)}${c.a >= 255 ? '' : hexByte(c.a)}`;
}

/** A colour channel as two lower-case hex digits (rounded, clamped to 0–255). */
export function hexByte(v: number): string {
  return HEX_BYTE[channelByte(v)]!;
}

/** A colour channel rounded and clamped to 0–255. */
export function channelByte(v: number): number {
  return Math.max(0, Math.min(255, Math.round(v)));
}

/** Two hex digits per byte value: colours are written per element, thousands per file. */
const HEX_BYTE: readonly string[] = Array.from({ length: 256 }, (_, v) => v.toString(16).padStart(2, '0'));

// ---------------------------------------------------------------------------------------------
// Primitives

/** Formats with native primitives: SVG (not in Adobe mode) and DXF above lines_only. */
function primitiveFormat(options: OutputOptions, _allowed: AllowedCurves): boolean {
  if (options.flattenPrimitives) return false;
  if (options.fileFormat === 'svg') return !options.svg.adobeCompatibilityMode;
  if (options.fileFormat === 'dxf') return options.dxf.compatibility !== 'lines_only';
  return false;
}

/**
 * The engine's rounded-rectangle annotation as a primitive (sharp rectangles are found from the
 * geometry by detectPrimitive). Its corners are circular arcs, so arcs must be allowed.
 */
function roundedRect(p: ShapePrimitive | undefined, allowed: AllowedCurves): Primitive | undefined {
  if (p?.family !== 'rectangle' || !(p.cornerRadius > 0) || !(allowed.circularArc || allowed.ellipticalArc)) return undefined;
  // A fitted angle within a millionth of a degree of axis-aligned is axis-aligned (no transform).
  const rotationDeg = Math.abs(p.rotationDeg) < 1e-6 ? 0 : p.rotationDeg;
  return { kind: 'rect', cx: p.cx, cy: p.cy, width: p.width, height: p.height, rotationDeg, cornerRadius: p.cornerRadius };
}

/**
 * A loop that is exactly a circle, an ellipse or a rectangle: all arcs of one ellipse covering a
 * full turn, or four straight sides at right angles (collinear pieces joined). `walker` holds the
 * chains' points; build one per plan (new LoopWalker(chains)) to look at many loops.
 */
export function detectPrimitive(chains: readonly Chain[], loop: Loop, allowed: AllowedCurves, walker: LoopWalker = new LoopWalker(chains)): Primitive | undefined {
  // Most loops are neither: the walk rejects them, and decides the all-line ones (pixel art: most
  // shapes), without building their path.
  switch (walker.walk(loop)) {
    case ALL_LINES:
      return walker.rectangle();
    case ARC_FIRST: {
      // An ellipse is all arcs; only the whole path tells.
      const path = loopPath(chains, loop);
      return path.segments.allOfKind(SEGMENT_ARC) ? detectEllipse(path, allowed) : undefined;
    }
    default:
      return undefined;
  }
}

/** What LoopWalker.walk found: surely no primitive; all lines (its corners decide); an arc first (the path decides). */
const NO_PRIMITIVE = 0;
const ALL_LINES = 1;
const ARC_FIRST = 2;

/** A chain's class in the walk: all lines (or no segment), first an arc, or anything else. */
const CHAIN_LINES = 0;
const CHAIN_ARC_FIRST = 1;
/** Starts with a quadratic or cubic, or mixes lines with anything else: in no primitive. */
const CHAIN_NO_PRIMITIVE = 2;

/**
 * The rectangle detector.
 * In: the plan's chains (once), then loops of them, one at a time (walk). Out: per loop, whether
 * it can be no primitive, is all lines or starts with an arc; for an all-line loop, the rectangle
 * its corners make, if any (rectangle).
 *
 * A loop's vertices are those of the path loopPath builds: its start, then the end of every
 * segment, a point that repeats the one before it being the same vertex. A vertex is a corner
 * when the direction turns there (turns; the step back to the start and the turn at the start
 * count like any other). Exactly four corners that are a rectangle's in loop order
 * (rectFromCorners) make the loop a rectangle.
 *
 * Why it walks flat arrays: most loops of pixel art are all lines and most are no rectangles. The
 * chains' classes and points are copied once, in chain order, into typed arrays, and a loop is
 * walked over them, stopping at its fifth corner, without building its path or chasing each
 * shape's chains, segment lists and segment objects across the heap (those cache misses were most
 * of the plan's time on pixel art). The walk keeps its state in this object's fields, so a loop
 * costs no allocation.
 */
export class LoopWalker {
  /** Per chain: CHAIN_LINES, CHAIN_ARC_FIRST or CHAIN_NO_PRIMITIVE. */
  private readonly kind: Uint8Array;
  /** Chain c's points (its start, then each segment's end) are firstPoint[c] .. firstPoint[c + 1] − 1. */
  private readonly firstPoint: Int32Array;
  /** Points as x, y pairs. */
  private readonly xy: Float64Array;

  // The walk of one loop: where it started and stands, its first and latest step (after `steps`
  // steps of non-zero length), and the corners passed (the first four kept, as x, y pairs).
  private started = false;
  private startX = 0;
  private startY = 0;
  private x = 0;
  private y = 0;
  private steps = 0;
  private firstDx = 0;
  private firstDy = 0;
  private dx = 0;
  private dy = 0;
  private corners = 0;
  private readonly cornerXY = new Float64Array(8);
  private startIsCorner = false;

  constructor(chains: readonly Chain[]) {
    let total = 0;
    for (let c = 0; c < chains.length; c++) total += chains[c]!.segments.length + 1;
    this.kind = new Uint8Array(chains.length);
    this.firstPoint = new Int32Array(chains.length + 1);
    this.xy = new Float64Array(total * 2);
    let p = 0;
    for (let c = 0; c < chains.length; c++) {
      const chain = chains[c]!;
      const segs = chain.segments;
      this.firstPoint[c] = p;
      this.xy[2 * p] = chain.startX;
      this.xy[2 * p + 1] = chain.startY;
      p++;
      let k: number = segs.length === 0 || segs.code(0) === SEGMENT_LINE ? CHAIN_LINES : segs.code(0) === SEGMENT_ARC ? CHAIN_ARC_FIRST : CHAIN_NO_PRIMITIVE;
      for (let i = 0; i < segs.length; i++) {
        if (segs.code(i) !== SEGMENT_LINE && k === CHAIN_LINES) k = CHAIN_NO_PRIMITIVE;
        this.xy[2 * p] = segs.x(i);
        this.xy[2 * p + 1] = segs.y(i);
        p++;
      }
      this.kind[c] = k;
    }
    this.firstPoint[chains.length] = p;
  }

  /**
   * Walks the loop's vertices, chain use by chain use as loopPath joins them: NO_PRIMITIVE as soon
   * as a chain can be in no primitive or the fifth corner is passed, ARC_FIRST at a chain that
   * starts with an arc, else ALL_LINES with the corners kept for rectangle().
   */
  walk(loop: Loop): number {
    this.started = false;
    this.steps = 0;
    this.corners = 0;
    this.startIsCorner = false;
    const { kind, firstPoint, xy } = this;
    for (let u = 0; u < loop.length; u++) {
      const use = loop[u]!;
      const c = use.chain;
      const k = kind[c]!;
      if (k === CHAIN_ARC_FIRST) return ARC_FIRST;
      if (k === CHAIN_NO_PRIMITIVE) return NO_PRIMITIVE;
      // A use starts where the one before it ended: only the loop's first point is the start of a
      // chain (even of one without segments), the rest are segment ends.
      const p0 = firstPoint[c]!;
      const last = firstPoint[c + 1]! - 1;
      if (use.reversed) {
        if (!this.started) this.visit(xy[2 * last]!, xy[2 * last + 1]!);
        for (let p = last - 1; p >= p0 && this.corners <= 4; p--) this.visit(xy[2 * p]!, xy[2 * p + 1]!);
      } else {
        if (!this.started) this.visit(xy[2 * p0]!, xy[2 * p0 + 1]!);
        for (let p = p0 + 1; p <= last && this.corners <= 4; p++) this.visit(xy[2 * p]!, xy[2 * p + 1]!);
      }
      if (this.corners > 4) return NO_PRIMITIVE;
    }
    // Close the loop: the step back to the start (unless it ends there), then the turn into the first step.
    if (this.steps === 0) return ALL_LINES;
    if (this.x !== this.startX || this.y !== this.startY) this.visit(this.startX, this.startY);
    this.startIsCorner = turns(this.dx, this.dy, this.firstDx, this.firstDy);
    return ALL_LINES;
  }

  /** After walk gave ALL_LINES: the rectangle of the loop's corners (the start first when it is one), or undefined. */
  rectangle(): Primitive | undefined {
    const c = this.cornerXY;
    if (this.startIsCorner) return this.corners === 3 ? rectFromCorners(this.startX, this.startY, c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!) : undefined;
    return this.corners === 4 ? rectFromCorners(c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, c[7]!) : undefined;
  }

  /** One step of the walk to (x, y), none when it is where the walk stands; counts a turn at the vertex left. */
  private visit(x: number, y: number): void {
    if (!this.started) {
      this.started = true;
      this.startX = this.x = x;
      this.startY = this.y = y;
      return;
    }
    const ex = x - this.x;
    const ey = y - this.y;
    if (ex === 0 && ey === 0) return;
    if (this.steps === 0) {
      this.firstDx = ex;
      this.firstDy = ey;
    } else if (turns(this.dx, this.dy, ex, ey)) {
      const k = this.corners;
      if (k < 4) {
        this.cornerXY[2 * k] = this.x;
        this.cornerXY[2 * k + 1] = this.y;
      }
      this.corners = k + 1;
    }
    this.steps++;
    this.x = x;
    this.y = y;
    this.dx = ex;
    this.dy = ey;
  }
}

/** Whether two non-zero steps turn at the vertex between them (beyond rounding). */
function turns(ax: number, ay: number, bx: number, by: number): boolean {
  return Math.abs(ax * by - ay * bx) > 1e-9 * hypot2(ax, ay) * hypot2(bx, by);
}

function detectEllipse(path: PagePath, allowed: AllowedCurves): Primitive | undefined {
  let x = path.startX;
  let y = path.startY;
  let first: ReturnType<typeof arcCenter>;
  let turn = 0;
  const segs = path.segments;
  for (let k = 0; k < segs.length; k++) {
    if (segs.code(k) !== SEGMENT_ARC) return undefined;
    const a = arcCenter(x, y, segs.rx(k), segs.ry(k), segs.rotationDeg(k), segs.largeArc(k), segs.sweep(k), segs.x(k), segs.y(k));
    if (!a) return undefined;
    if (!first) first = a;
    const scale = Math.max(first.rx, first.ry);
    const sameAxes =
      (Math.abs(a.rx - first.rx) <= 1e-6 * scale && Math.abs(a.ry - first.ry) <= 1e-6 * scale) ||
      (isCircularArc(first) && Math.abs(a.rx - first.rx) <= 1e-6 * scale);
    if (!sameAxes || hypot2(a.cx - first.cx, a.cy - first.cy) > 1e-6 * scale) return undefined;
    turn += a.delta;
    x = segs.x(k);
    y = segs.y(k);
  }
  if (!first || Math.abs(Math.abs(turn) - 2 * Math.PI) > 1e-6) return undefined;
  if (isCircularArc(first)) {
    return allowed.circularArc || allowed.ellipticalArc ? { kind: 'circle', cx: first.cx, cy: first.cy, r: first.rx } : undefined;
  }
  if (!allowed.ellipticalArc) return undefined;
  let rotationDeg = (first.phi * 180) / Math.PI;
  rotationDeg = ((rotationDeg % 180) + 180) % 180;
  return { kind: 'ellipse', cx: first.cx, cy: first.cy, rx: first.rx, ry: first.ry, rotationDeg };
}

/** The rectangle with these four corners in order, or undefined when they are not one. */
function rectFromCorners(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): Primitive | undefined {
  // Sides a→b, b→c, c→d, d→a.
  const s0x = bx - ax;
  const s0y = by - ay;
  const s1x = cx - bx;
  const s1y = cy - by;
  const s2x = dx - cx;
  const s2y = dy - cy;
  const s3x = ax - dx;
  const s3y = ay - dy;
  const l0 = hypot2(s0x, s0y);
  const l1 = hypot2(s1x, s1y);
  const tol = 1e-9 * Math.max(l0, l1);
  if (Math.abs(s0x * s1x + s0y * s1y) > tol * Math.max(l0, l1) || Math.abs(s1x * s2x + s1y * s2y) > tol * Math.max(l0, l1)) return undefined;
  if (Math.abs(s0x + s2x) > tol || Math.abs(s0y + s2y) > tol || Math.abs(s1x + s3x) > tol || Math.abs(s1y + s3y) > tol) return undefined;
  const centreX = (ax + cx) / 2;
  const centreY = (ay + cy) / 2;
  let rotationDeg = (Math.atan2(s0y, s0x) * 180) / Math.PI;
  let width = l0;
  let height = l1;
  // Normalise to a rotation in [0, 90): swap the sides for quarter turns.
  rotationDeg = ((rotationDeg % 360) + 360) % 360;
  while (rotationDeg >= 90) {
    rotationDeg -= 90;
    // A swap through a temporary, not a destructured pair (an array per step when not optimised).
    const side = width;
    width = height;
    height = side;
  }
  if (rotationDeg > 90 - 1e-9) rotationDeg = 0;
  return { kind: 'rect', cx: centreX, cy: centreY, width, height, rotationDeg: rotationDeg < 1e-9 ? 0 : rotationDeg };
}

// ---------------------------------------------------------------------------------------------
// Geometry for the writers

/**
 * A loop's segments, chain uses resolved (reversed chains walked backwards), in traced units.
 * `walked`: where the path is built; pass one to reuse when walking many loops, so that walking a
 * loop allocates only the path it takes (its numbers go to the builder's arena, segment-path.ts).
 */
export function loopPath(chains: readonly Chain[], uses: readonly ChainUse[], closed = true, walked = new SegmentBuilder()): PagePath {
  return walkUses(chains, uses, closed, UNMAPPED, walked);
}

/** A plan path in page units (y down); `walked` as for loopPath. */
export function pathOnPage(plan: OutputPlan, path: PlanPath, walked = new SegmentBuilder()): PagePath {
  const { scaleX, scaleY, offsetX, offsetY } = plan.page;
  return walkUses(plan.chains, path.uses, path.closed, new ScaleMap(scaleX, scaleY, offsetX, offsetY), walked);
}

/**
 * The chain uses one after another, each walked in its direction (appendWalked) and every point
 * through `map`: what reversing each chain's segments, then transforming each, gave, without
 * building them as objects. Starts where the first use starts (0, 0 without uses).
 */
function walkUses(chains: readonly Chain[], uses: readonly ChainUse[], closed: boolean, map: PointMap, walked: SegmentBuilder): PagePath {
  const start = walkStart(chains, uses);
  walked.truncate(0);
  for (const use of uses) {
    const c = chains[use.chain]!;
    appendWalked(walked, c.startX, c.startY, c.segments, use.reversed, map);
  }
  return { startX: map.x(start.x), startY: map.y(start.y), segments: walked.take(0), closed };
}

/**
 * Where a walk of the chain uses starts, in traced units: the first chain's start, or its end
 * when it is walked backwards; (0, 0) without uses. One rule for loopPath and the PDF/EPS writer.
 */
export function walkStart(chains: readonly Chain[], uses: readonly ChainUse[]): { x: number; y: number } {
  if (uses.length === 0) return { x: 0, y: 0 };
  const first = chains[uses[0]!.chain]!;
  const n = first.segments.length;
  if (!uses[0]!.reversed || n === 0) return { x: first.startX, y: first.startY };
  return { x: first.segments.x(n - 1), y: first.segments.y(n - 1) };
}

/** The loops of a fill item in page units. */
export function fillOnPage(plan: OutputPlan, item: FillItem): PagePath[] {
  const walked = new SegmentBuilder();
  return item.loops.map((uses) => pathOnPage(plan, { uses, closed: true }, walked));
}

/** A primitive in page units (uniform page maps only keep primitives with arcs). */
export function primitiveOnPage(plan: OutputPlan, p: Primitive): Primitive {
  const { scaleX: sx, scaleY: sy, offsetX: ox, offsetY: oy } = plan.page;
  const k = (sx + sy) / 2;
  switch (p.kind) {
    case 'circle':
      return { kind: 'circle', cx: ox + sx * p.cx, cy: oy + sy * p.cy, r: p.r * k };
    case 'ellipse':
      return { ...p, cx: ox + sx * p.cx, cy: oy + sy * p.cy, rx: p.rx * k, ry: p.ry * k };
    case 'rect':
      // Axis-aligned rectangles follow each axis; turned ones only survive uniform maps.
      return p.rotationDeg === 0
        ? { ...p, cx: ox + sx * p.cx, cy: oy + sy * p.cy, width: p.width * sx, height: p.height * sy, ...(p.cornerRadius ? { cornerRadius: p.cornerRadius * k } : {}) }
        : { ...p, cx: ox + sx * p.cx, cy: oy + sy * p.cy, width: p.width * k, height: p.height * k, ...(p.cornerRadius ? { cornerRadius: p.cornerRadius * k } : {}) };
  }
}

/** Calls `visit` for every fill and stroke in paint order, with the ids of the enclosing groups. */
export function forEachDrawable(items: readonly PlanItem[], visit: (item: FillItem | StrokeItem, groups: readonly string[]) => void, groups: readonly string[] = []): void {
  for (const item of items) {
    if (item.kind === 'group') forEachDrawable(item.items, visit, [...groups, item.id]);
    else visit(item, groups);
  }
}

/** Stroke width in page units for a stroke item. */
export function strokeWidthOnPage(plan: OutputPlan, item: StrokeItem): number {
  return item.widthPx * plan.page.unitsPerInputPx;
}
