/**
 * Translucent layers (tracelab.layers, stacked shapes): an area whose colour is one colour H at one
 * opacity α over what lies beneath — flat, possibly across several shapes beneath — becomes one
 * translucent shape over the shapes below, which continue unbroken under it.
 * In: the stacked shapes (bottom first), the chains, each region's observed colour, each pixel's
 * region. Out: the shapes
 * with each found layer's pieces removed, the shapes beneath extended under it (their outer loops
 * the outline of their pixels and the pieces'), and the layer as one shape of colour H, alpha α
 * (its holes where other shapes lie inside it), on top.
 * Algorithm (peeling, the topmost layer first): for two neighbouring regions X and Y over bases
 * Bx ≠ By (a neighbour of each), "over" gives X − Y = (1 − α)(Bx − By): α from the least-squares
 * ratio, H = (X − (1 − α)Bx) / α; kept when both pieces are within COLOR_TOLERANCE of αH + (1 − α)B
 * per channel, α in [ALPHA_MIN, ALPHA_MAX], H a colour, the bases far enough apart and H off the
 * line through them (else α is not determined). Neighbours Z of the layer with a base Bz that αH + (1 − α)Bz explains join it.
 * Each piece then joins its base (the picture without the layer), and the search runs again, so
 * overlapping layers peel one by one. A layer over one flat colour only is indistinguishable from
 * an opaque shape of the blend and stays one. A layer is kept only when the stack with it, painted
 * region by region in the writers' order, draws every region as the stack without it did
 * (drawsAsBefore): the colour rule alone took bases that, extended, paint over their neighbours.
 */
import { SEGMENT_ARC } from '../segment-path.js';
import type { Chain, ChainUse, Loop, Rgba, Shape } from '../types.js';
import type { StackPixels } from './occluded.js';

/** Largest difference per channel (0–255) between a piece's colour and the layer over its base. */
const COLOR_TOLERANCE = 5;
/** Bases closer than this (RGB distance) do not determine α. */
const MIN_BASE_CONTRAST = 40;
const ALPHA_MIN = 0.15;
const ALPHA_MAX = 0.92;
/** The layer's colour must lie this far (RGB) off the line through its two bases (see solveOver). */
const MIN_PAINT_OFF_LINE = 40;
/** Layers peeled at most (each pass is a search over the neighbours). */
const MAX_LAYERS = 8;
/** Pictures with more shapes are left as they are (the pair search grows with neighbours²). */
const MAX_SHAPES = 1_500;

export interface TranslucentInput {
  readonly shapes: readonly Shape[];
  readonly chains: readonly Chain[];
  /** Observed r, g, b per region. */
  readonly regionColor: Float64Array;
  readonly regionCount: number;
  /** Each traced pixel's region: what an extended base's outline encloses. */
  readonly pixels: StackPixels;
}

export interface TranslucentLayers {
  readonly shapes: Shape[];
  /** Shapes made or remade here (completion leaves them alone). */
  readonly remade: ReadonlySet<Shape>;
  readonly layers: number;
}

/** One layer peeled: its pieces (regions, at the time it was peeled) and its paint. */
interface Layer {
  readonly regions: number[];
  readonly color: readonly [number, number, number];
  readonly alpha: number;
}

export function findTranslucentLayers(input: TranslucentInput): TranslucentLayers {
  const { shapes, chains, regionColor, regionCount, pixels } = input;
  const unchanged: TranslucentLayers = { shapes: shapes.slice(), remade: new Set(), layers: 0 };
  if (shapes.length > MAX_SHAPES) return unchanged;
  const shapeOfRegion = new Int32Array(regionCount).fill(-1);
  for (let i = 0; i < shapes.length; i++) shapeOfRegion[shapes[i]!.region] = i;
  // Regions whose stacked shape keeps holes (transparency shows through) are left alone.
  const eligible = (r: number): boolean => r >= 0 && shapeOfRegion[r]! >= 0 && shapes[shapeOfRegion[r]!]!.holes.length === 0 && !shapes[shapeOfRegion[r]!]!.gradient && shapes[shapeOfRegion[r]!]!.color.a === 255;
  // A piece and its base lie in the same shape's hole (or both at the top): the base extended under
  // the piece then takes the piece's place in the stack, under everything that lay over the piece.
  // The base is flat and opaque too: its colour is what the pieces were measured against.
  const sameLevel = (piece: number, base: number): boolean => eligible(base) && shapes[shapeOfRegion[piece]!]!.parent === shapes[shapeOfRegion[base]!]!.parent;
  const root = new Int32Array(regionCount);
  for (let r = 0; r < regionCount; r++) root[r] = r;
  const find = (r: number): number => {
    while (root[r] !== r) r = root[r] = root[root[r]!]!;
    return r;
  };
  const layers: Layer[] = [];
  let stack: StackItem[] = [];
  // Extended bases by their members (a base extended in one pass is the same in the next).
  const extendedCache = new Map<string, StackItem>();
  // The picture the stack without layers draws, made when a first layer is tried.
  let drawnBefore: Float64Array | undefined;
  const enclosure: EnclosurePixels = { pixels, regionCount };
  for (let pass = 0; pass < MAX_LAYERS; pass++) {
    const layer = peelOne(chains, regionColor, regionCount, find, eligible, sameLevel);
    if (!layer) break;
    const members = new Set(layer.pieces.map((p) => p.piece));
    const regions: number[] = [];
    for (let r = 0; r < regionCount; r++) if (members.has(find(r))) regions.push(r);
    // The footprint, and each base with the pieces it extends under, must be one shape (one outer
    // loop, every loop closed): else the picture is not this layer over these bases.
    if (!isOneShape(unionLoops(chains, new Set(regions)))) break;
    const baseRoots = new Set(layer.pieces.map((p) => find(p.base)));
    const extendsOne = (baseRoot: number): boolean => isOneShape(unionLoops(chains, regionsOfRoots(new Set([baseRoot, ...layer.pieces.filter((p) => find(p.base) === baseRoot).map((p) => p.piece)]), regionCount, find)));
    if (![...baseRoots].every(extendsOne)) break;
    const rootBefore = root.slice();
    for (const { piece, base } of layer.pieces) root[piece] = find(base);
    const tried = [...layers, { regions, color: layer.color, alpha: layer.alpha }];
    // The stack with this layer must draw every region as before (within the tolerance): a base
    // whose outline, extended, encloses a region that lay beside it, or a shape now painted in
    // another order, shows where it must not (a folder's white back painted grey).
    drawnBefore ??= drawnColors(shapes.map((shape) => ({ shape, members: new Set([shape.region]), withInside: shape.holes.length === 0, remade: false })), shapes, regionColor, regionCount);
    const triedStack = rebuildStack(shapes, chains, tried, find, enclosure, extendedCache);
    if (!drawsAsBefore(triedStack, drawnBefore, shapes, regionColor, regionCount)) {
      root.set(rootBefore);
      break;
    }
    layers.push(tried[tried.length - 1]!);
    stack = triedStack;
  }
  if (layers.length === 0) return unchanged;
  return { shapes: stack.map((item) => item.shape), remade: new Set(stack.filter((item) => item.remade).map((item) => item.shape)), layers: layers.length };
}

function isOneShape(loops: { outers: number; closed: boolean }): boolean {
  return loops.outers === 1 && loops.closed;
}

/** The regions whose current root is in `roots`. */
function regionsOfRoots(roots: ReadonlySet<number>, regionCount: number, find: (r: number) => number): Set<number> {
  const out = new Set<number>();
  for (let r = 0; r < regionCount; r++) if (roots.has(find(r))) out.add(r);
  return out;
}

interface Piece {
  readonly piece: number;
  readonly base: number;
}

/**
 * The topmost layer still in the picture (regions as their current roots), or undefined: of the
 * layers that pairs of neighbours start, the one that explains the most pieces (the fewest shapes
 * left), then the one that explains them best.
 */
function peelOne(
  chains: readonly Chain[],
  regionColor: Float64Array,
  regionCount: number,
  find: (r: number) => number,
  eligible: (r: number) => boolean,
  sameLevel: (piece: number, base: number) => boolean,
): { pieces: Piece[]; color: [number, number, number]; alpha: number } | undefined {
  const neighbours = rootNeighbours(chains, regionCount, find);
  const colors = regionColors(regionColor, regionCount);
  const color = (r: number): Float64Array => colors[r]!;
  let best: { pieces: Piece[]; color: [number, number, number]; alpha: number; misfit: number } | undefined;
  let tried = 0;
  for (let x = 0; x < regionCount && tried < MAX_CANDIDATES; x++) {
    if (find(x) !== x || !eligible(x)) continue;
    for (const y of neighbours[x]!) {
      if (y <= x || !eligible(y)) continue;
      for (const bx of neighbours[x]!) {
        if (bx === y || bx < 0 || !sameLevel(x, bx)) continue;
        for (const by of neighbours[y]!) {
          if (by === x || by === bx || by < 0 || !sameLevel(y, by)) continue;
          const paint = solveOver(color(x), color(y), color(bx), color(by));
          if (!paint) continue;
          tried++;
          const pieces: Piece[] = [
            { piece: x, base: bx },
            { piece: y, base: by },
          ];
          growLayer(pieces, paint, neighbours, color, (z, b) => eligible(z) && sameLevel(z, b));
          if (pieces.length < 2) continue;
          let misfit = 0;
          for (const p of pieces) misfit += overError(paint, color(p.piece), color(p.base));
          if (!best || pieces.length > best.pieces.length || (pieces.length === best.pieces.length && misfit < best.misfit)) best = { pieces, ...paint, misfit };
        }
      }
    }
  }
  return best;
}

/** Each region's observed r, g, b as a view (made once per pass: the pair search reads them often). */
function regionColors(regionColor: Float64Array, regionCount: number): Float64Array[] {
  const out: Float64Array[] = [];
  for (let r = 0; r < regionCount; r++) out.push(regionColor.subarray(r * 3, r * 3 + 3));
  return out;
}
/** Candidate layers grown per pass at most. */
const MAX_CANDIDATES = 400;

/** Largest difference per channel between a piece and the paint over its base. */
function overError(paint: { color: ArrayLike<number>; alpha: number }, piece: ArrayLike<number>, base: ArrayLike<number>): number {
  let worst = 0;
  for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(paint.alpha * paint.color[c]! + (1 - paint.alpha) * base[c]! - piece[c]!));
  return worst;
}

/** α and H with X = αH + (1 − α)Bx and Y = αH + (1 − α)By, or undefined when none fits. */
function solveOver(x: ArrayLike<number>, y: ArrayLike<number>, bx: ArrayLike<number>, by: ArrayLike<number>): { color: [number, number, number]; alpha: number } | undefined {
  let dot = 0;
  let norm = 0;
  for (let c = 0; c < 3; c++) {
    dot += (x[c]! - y[c]!) * (bx[c]! - by[c]!);
    norm += (bx[c]! - by[c]!) ** 2;
  }
  if (norm < MIN_BASE_CONTRAST ** 2) return undefined;
  const alpha = 1 - dot / norm;
  if (!(alpha >= ALPHA_MIN && alpha <= ALPHA_MAX)) return undefined;
  const h: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    // H from both pieces' mean: each piece's residual then shows the fit.
    h[c] = ((x[c]! + y[c]!) / 2 - (1 - alpha) * ((bx[c]! + by[c]!) / 2)) / alpha;
    if (h[c]! < -COLOR_TOLERANCE || h[c]! > 255 + COLOR_TOLERANCE) return undefined;
  }
  // H on the line through the two bases (greys over greys, a shade over its own hue) fits any α:
  // such pieces are opaque shades, not a layer.
  if (offLine(h, bx, by) < MIN_PAINT_OFF_LINE) return undefined;
  const paint = { color: h, alpha };
  return explains(paint, x, bx) && explains(paint, y, by) ? paint : undefined;
}

/** Distance (RGB) from p to the line through a and b. */
function offLine(p: ArrayLike<number>, a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let norm = 0;
  for (let c = 0; c < 3; c++) {
    dot += (p[c]! - a[c]!) * (b[c]! - a[c]!);
    norm += (b[c]! - a[c]!) ** 2;
  }
  const t = norm > 0 ? dot / norm : 0;
  let d2 = 0;
  for (let c = 0; c < 3; c++) d2 += (p[c]! - a[c]! - t * (b[c]! - a[c]!)) ** 2;
  return Math.sqrt(d2);
}

function explains(paint: { color: ArrayLike<number>; alpha: number }, piece: ArrayLike<number>, base: ArrayLike<number>): boolean {
  return overError(paint, piece, base) <= COLOR_TOLERANCE;
}

/** Neighbours of the layer that the same paint over one of their neighbours explains join it. */
function growLayer(pieces: Piece[], paint: { color: ArrayLike<number>; alpha: number }, neighbours: readonly number[][], color: (r: number) => ArrayLike<number>, canJoin: (piece: number, base: number) => boolean): void {
  const inLayer = new Set(pieces.map((p) => p.piece));
  for (let k = 0; k < pieces.length; k++) {
    for (const z of neighbours[pieces[k]!.piece]!) {
      if (z < 0 || inLayer.has(z)) continue;
      const base = neighbours[z]!.find((b) => b >= 0 && !inLayer.has(b) && canJoin(z, b) && explains(paint, color(z), color(b)));
      if (base === undefined) continue;
      inLayer.add(z);
      pieces.push({ piece: z, base });
    }
  }
  // A base that is itself a piece of the layer would leave a hole under it.
  for (let k = pieces.length - 1; k >= 0; k--) if (inLayer.has(pieces[k]!.base)) pieces.splice(k, 1);
}

/** Each current root's neighbouring roots (−1: transparency), in ascending order. */
function rootNeighbours(chains: readonly Chain[], regionCount: number, find: (r: number) => number): number[][] {
  const sets: Set<number>[] = [];
  for (let r = 0; r < regionCount; r++) sets.push(new Set());
  for (const chain of chains) {
    const a = chain.leftRegion < 0 ? -1 : find(chain.leftRegion);
    const b = chain.rightRegion < 0 ? -1 : find(chain.rightRegion);
    if (a === b) continue;
    if (a >= 0) sets[a]!.add(b);
    if (b >= 0) sets[b]!.add(a);
  }
  return sets.map((s) => [...s].sort((p, q) => p - q));
}

/** A shape of a stack, with the regions it paints: its members, and with `withInside` every region inside them. */
interface StackItem {
  readonly shape: Shape;
  readonly members: ReadonlySet<number>;
  readonly withInside: boolean;
  /** Made here (an extended base or a layer). */
  readonly remade: boolean;
}

/** The shapes with the layers applied: pieces gone, bases extended under them, layers on top. */
function rebuildStack(shapes: readonly Shape[], chains: readonly Chain[], layers: readonly Layer[], find: (r: number) => number, enclosure: EnclosurePixels, extendedCache: Map<string, StackItem>): StackItem[] {
  const { regionCount } = enclosure;
  const membersOf = new Map<number, number[]>();
  for (let r = 0; r < regionCount; r++) {
    const root = find(r);
    if (root === r) continue;
    const list = membersOf.get(root) ?? [root];
    list.push(r);
    membersOf.set(root, list);
  }
  const areaOf = new Float64Array(regionCount);
  for (const shape of shapes) areaOf[shape.region] = shape.areaPx;
  const areaOfAll = (regions: readonly number[]): number => regions.reduce((sum, r) => sum + areaOf[r]!, 0);
  // An extended base is drawn where the lowest of its pieces (or itself) was.
  const placeOf = new Map<number, number>();
  shapes.forEach((shape, i) => {
    const root = find(shape.region);
    if (membersOf.has(root) && !placeOf.has(root)) placeOf.set(root, i);
  });
  // A shape inside a piece now lies inside the base the piece joined.
  const parentNow = (parent: number): number => (parent >= 0 ? find(parent) : parent);
  const out: StackItem[] = [];
  for (let i = 0; i < shapes.length; i++) {
    const shape = shapes[i]!;
    const root = find(shape.region);
    const members = membersOf.get(root);
    if (!members) {
      const moved = parentNow(shape.parent) === shape.parent ? shape : { ...shape, parent: parentNow(shape.parent) };
      if (root === shape.region) out.push({ shape: moved, members: new Set([root]), withInside: shape.holes.length === 0, remade: false });
      continue;
    }
    if (placeOf.get(root) !== i) continue; // drawn at its place, by its base and the layer
    const parent = parentNow(shapes.find((s) => s.region === root)!.parent);
    const key = `${members.join(',')}|${parent}`;
    const cached = extendedCache.get(key) ?? extendedBase(shapes, chains, members, parent, areaOfAll(members), enclosure);
    extendedCache.set(key, cached);
    out.push(cached);
  }
  const depthOf = stackDepths(out.map((item) => item.shape));
  const regionDepth = new Map(out.map((item, k) => [item.shape.region, depthOf[k]!]));
  // Layers bottom first: the last peeled lies lowest.
  for (let k = layers.length - 1; k >= 0; k--) {
    const layer = layers[k]!;
    const union = unionLoops(chains, new Set(layer.regions));
    const [r, g, b] = layer.color.map((v) => Math.round(Math.min(255, Math.max(0, v))));
    const color: Rgba = { r: r!, g: g!, b: b!, a: Math.round(layer.alpha * 255) };
    // Painted after every shape its pieces lay in (writers paint stacked shapes by depth, then
    // order): its parent is the deepest of its pieces' parents.
    let parent = -1;
    for (const region of layer.regions) {
      const candidate = parentNow(shapes.find((s) => s.region === region)?.parent ?? -1);
      if (candidate >= 0 && (parent < 0 || (regionDepth.get(candidate) ?? -1) > (regionDepth.get(parent) ?? -1))) parent = candidate;
    }
    // Its holes stay: the shapes inside it were drawn below it and must not be tinted.
    const shape: Shape = { region: layer.regions[0]!, color, outer: union.outer, holes: union.holes, areaPx: areaOfAll(layer.regions), parent };
    out.push({ shape, members: new Set(layer.regions), withInside: false, remade: true });
  }
  return out;
}

/** A base extended under its pieces (`members`, the base first), with the regions its outline paints. */
function extendedBase(shapes: readonly Shape[], chains: readonly Chain[], members: readonly number[], parent: number, areaPx: number, enclosure: EnclosurePixels): StackItem {
  const root = members[0]!;
  const rootShape = shapes.find((s) => s.region === root)!;
  const union = unionLoops(chains, new Set(members));
  // Stacked: the shapes inside it are drawn over it, so its holes go (as shapes.ts does).
  const extended: Shape = { region: root, color: rootShape.color, outer: union.outer, holes: [], areaPx, parent };
  // What its outline now encloses is painted too: regions that lay beside it, not in a hole of it, may be among them.
  return { shape: extended, members: new Set([...members, ...enclosedRegions(new Set(members), enclosure)]), withInside: true, remade: true };
}

/**
 * Each stacked shape's depth (how many shapes' holes it lies in, by `parent`): the writers paint
 * stacked shapes by depth, then by their order (formats/plan.ts; the engine cannot import it).
 */
function stackDepths(shapes: readonly Shape[]): Int32Array {
  const indexOfRegion = new Map(shapes.map((shape, i) => [shape.region, i]));
  const depth = new Int32Array(shapes.length);
  shapes.forEach((shape, i) => {
    let d = 0;
    for (let p = indexOfRegion.get(shape.parent); p !== undefined && d < shapes.length; p = indexOfRegion.get(shapes[p]!.parent)) d++;
    depth[i] = d;
  });
  return depth;
}

/**
 * The traced pixels with each region's pixel box, made on the first enclosure asked for (most
 * pictures never extend a base) and kept for the stage: a base's box is then the union of its
 * members' boxes, not a scan of the whole picture.
 */
interface EnclosurePixels {
  readonly pixels: StackPixels;
  readonly regionCount: number;
  /** x0, y0, x1, y1 per region (x1 < 0: no pixel). */
  boxes?: Int32Array;
}

function regionBoxes(at: EnclosurePixels): Int32Array {
  if (at.boxes) return at.boxes;
  const { regionOf, width, height } = at.pixels;
  const boxes = new Int32Array(at.regionCount * 4);
  for (let r = 0; r < at.regionCount; r++) boxes.set([width, height, -1, -1], r * 4);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      const r = regionOf[i]!;
      if (r < 0) continue;
      const k = r * 4;
      if (x < boxes[k]!) boxes[k] = x;
      if (y < boxes[k + 1]!) boxes[k + 1] = y;
      if (x > boxes[k + 2]!) boxes[k + 2] = x;
      if (y > boxes[k + 3]!) boxes[k + 3] = y;
    }
  }
  return (at.boxes = boxes);
}

/**
 * The regions with a pixel enclosed by the members' outline: not reached from the border of the
 * members' box (one pixel wider, so it runs round them) without crossing a member.
 */
function enclosedRegions(members: ReadonlySet<number>, at: EnclosurePixels): Set<number> {
  const { regionOf, width, height } = at.pixels;
  const boxes = regionBoxes(at);
  const isMember = new Uint8Array(at.regionCount);
  let [x0, y0, x1, y1] = [width, height, -1, -1];
  for (const r of members) {
    if (r < 0 || r >= at.regionCount) continue;
    isMember[r] = 1;
    if (boxes[r * 4 + 2]! < 0) continue;
    [x0, y0, x1, y1] = [Math.min(x0, boxes[r * 4]!), Math.min(y0, boxes[r * 4 + 1]!), Math.max(x1, boxes[r * 4 + 2]!), Math.max(y1, boxes[r * 4 + 3]!)];
  }
  const enclosed = new Set<number>();
  if (x1 < 0) return enclosed;
  [x0, y0, x1, y1] = [Math.max(0, x0 - 1), Math.max(0, y0 - 1), Math.min(width - 1, x1 + 1), Math.min(height - 1, y1 + 1)];
  const memberAt = (i: number): boolean => {
    const r = regionOf[i]!;
    return r >= 0 && isMember[r] === 1;
  };
  const boxWidth = x1 - x0 + 1;
  const boxHeight = y1 - y0 + 1;
  const reached = new Uint8Array(boxWidth * boxHeight);
  const queue = new Int32Array(boxWidth * boxHeight);
  let queued = 0;
  const visit = (bx: number, by: number): void => {
    const k = by * boxWidth + bx;
    if (reached[k] || memberAt((y0 + by) * width + x0 + bx)) return;
    reached[k] = 1;
    queue[queued++] = k;
  };
  for (let bx = 0; bx < boxWidth; bx++) [visit(bx, 0), visit(bx, boxHeight - 1)];
  for (let by = 0; by < boxHeight; by++) [visit(0, by), visit(boxWidth - 1, by)];
  while (queued > 0) {
    const k = queue[--queued]!;
    const bx = k % boxWidth;
    const by = (k - bx) / boxWidth;
    if (bx > 0) visit(bx - 1, by);
    if (bx < boxWidth - 1) visit(bx + 1, by);
    if (by > 0) visit(bx, by - 1);
    if (by < boxHeight - 1) visit(bx, by + 1);
  }
  for (let k = 0; k < boxWidth * boxHeight; k++) {
    const i = (y0 + Math.floor(k / boxWidth)) * width + x0 + (k % boxWidth);
    const region = regionOf[i]!;
    if (!reached[k] && region >= 0 && !isMember[region]) enclosed.add(region);
  }
  return enclosed;
}

/**
 * The colour a stack draws over each traced region (r, g, b per region; NaN where no shape is):
 * its items painted bottom first over white, each over the regions it paints (a region inside an
 * item is one whose chain of enclosing shapes, `parent`, reaches a member). A gradient shape
 * paints its own region in the region's observed colour, others in its mean colour.
 */
function drawnColors(stack: readonly StackItem[], shapes: readonly Shape[], regionColor: Float64Array, regionCount: number): Float64Array {
  const parentOf = new Int32Array(regionCount).fill(-1);
  const hasShape = new Uint8Array(regionCount);
  for (const shape of shapes) {
    parentOf[shape.region] = shape.parent;
    hasShape[shape.region] = 1;
  }
  const depth = stackDepths(stack.map((item) => item.shape));
  const painted = stack.map((item, k) => ({ item, k })).sort((a, b) => depth[a.k]! - depth[b.k]! || a.k - b.k).map(({ item }) => item);
  const drawn = new Float64Array(regionCount * 3).fill(Number.NaN);
  for (let r = 0; r < regionCount; r++) {
    if (!hasShape[r]) continue;
    const enclosing: number[] = [];
    for (let p = r, depth = 0; p >= 0 && depth < regionCount; p = parentOf[p]!, depth++) enclosing.push(p);
    const c = [255, 255, 255];
    for (const { shape, members, withInside } of painted) {
      if (!(members.has(r) || (withInside && enclosing.some((p) => members.has(p))))) continue;
      const own = shape.gradient && members.has(r);
      const paint = own ? [regionColor[r * 3]!, regionColor[r * 3 + 1]!, regionColor[r * 3 + 2]!] : [shape.color.r, shape.color.g, shape.color.b];
      const alpha = shape.color.a / 255;
      for (let k = 0; k < 3; k++) c[k] = alpha * paint[k]! + (1 - alpha) * c[k]!;
    }
    drawn.set(c, r * 3);
  }
  return drawn;
}

/**
 * Whether the stack draws each region as the stack without layers did, within COLOR_TOLERANCE
 * per channel of the region's observed colour (or no further from it than before).
 */
function drawsAsBefore(stack: readonly StackItem[], before: Float64Array, shapes: readonly Shape[], regionColor: Float64Array, regionCount: number): boolean {
  const after = drawnColors(stack, shapes, regionColor, regionCount);
  for (let i = 0; i < regionCount * 3; i++) {
    if (Number.isNaN(before[i]!)) continue;
    const errorBefore = Math.abs(before[i]! - regionColor[i]!);
    if (Math.abs(after[i]! - regionColor[i]!) > Math.max(COLOR_TOLERANCE, errorBefore) + 0.5) {
      return false;
    }
  }
  return true;
}

/**
 * The outline of a set of regions: every chain with the set on one side only, run with the set
 * on its right (clockwise on screen, y down: outer loops clockwise, holes anticlockwise), joined
 * end to start into loops. The outer loop is the one of largest area.
 */
function unionLoops(chains: readonly Chain[], set: ReadonlySet<number>): { outer: Loop; holes: Loop[]; outers: number; closed: boolean } {
  const uses: ChainUse[] = [];
  for (let c = 0; c < chains.length; c++) {
    const chain = chains[c]!;
    const left = set.has(chain.leftRegion);
    const right = set.has(chain.rightRegion);
    if (left !== right) uses.push({ chain: c, reversed: left });
  }
  const chainStart = (chain: Chain): [number, number] => [chain.startX, chain.startY];
  const startKey = (u: ChainUse): string => pointKey(u.reversed ? chainEnd(chains[u.chain]!) : chainStart(chains[u.chain]!));
  const endKey = (u: ChainUse): string => pointKey(u.reversed ? chainStart(chains[u.chain]!) : chainEnd(chains[u.chain]!));
  const byStart = new Map<string, number[]>();
  uses.forEach((u, k) => {
    const key = startKey(u);
    const list = byStart.get(key) ?? [];
    list.push(k);
    byStart.set(key, list);
  });
  const used = new Uint8Array(uses.length);
  const loops: { loop: ChainUse[]; area: number }[] = [];
  let closed = true;
  for (let k = 0; k < uses.length; k++) {
    if (used[k]) continue;
    const loop: ChainUse[] = [];
    let at = k;
    const first = startKey(uses[k]!);
    let back = false;
    while (at >= 0 && !used[at]) {
      used[at] = 1;
      loop.push(uses[at]!);
      const key = endKey(uses[at]!);
      if (key === first) {
        back = true;
        break;
      }
      at = (byStart.get(key) ?? []).find((j) => !used[j]) ?? -1;
    }
    if (!back) closed = false;
    loops.push({ loop, area: loopArea(loop, chains) });
  }
  let outerIndex = 0;
  for (let i = 1; i < loops.length; i++) if (Math.abs(loops[i]!.area) > Math.abs(loops[outerIndex]!.area)) outerIndex = i;
  // Outer loops turn the way the largest does; holes the other way.
  const outerSign = Math.sign(loops[outerIndex]?.area ?? 0);
  const outers = loops.filter((l) => Math.sign(l.area) === outerSign).length;
  return { outer: loops[outerIndex]?.loop ?? [], holes: loops.filter((_, i) => i !== outerIndex).map((l) => l.loop), outers, closed: closed && loops.length > 0 };
}

function chainEnd(chain: Chain): [number, number] {
  const g = chain.segments;
  return g.length === 0 ? [chain.startX, chain.startY] : [g.x(g.length - 1), g.y(g.length - 1)];
}

/** Chain ends meet at the same junction point: keyed to a thousandth of a pixel. */
function pointKey([x, y]: [number, number]): string {
  return `${Math.round(x * 1000)},${Math.round(y * 1000)}`;
}

/** Shoelace area of a loop through its chains' ends and segment ends (positive: clockwise on screen). */
function loopArea(loop: readonly ChainUse[], chains: readonly Chain[]): number {
  const p: number[] = [];
  for (const use of loop) {
    const chain = chains[use.chain]!;
    const points = cornerPoints(chain);
    if (use.reversed) for (let i = points.length - 2; i >= 0; i -= 2) p.push(points[i]!, points[i + 1]!);
    else p.push(...points);
  }
  let area = 0;
  const n = p.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    area += p[i * 2]! * p[j * 2 + 1]! - p[j * 2]! * p[i * 2 + 1]!;
  }
  return area / 2;
}

/**
 * A chain's start and segment ends, with the middle of each arc (its bulge off the chord: the
 * minor radius for the half ellipses of round loops, a circle's sagitta otherwise), enough for
 * the sign and rough size of a loop's area.
 */
function cornerPoints(chain: Chain): number[] {
  const g = chain.segments;
  const points: number[] = [chain.startX, chain.startY];
  let x = chain.startX;
  let y = chain.startY;
  for (let k = 0; k < g.length; k++) {
    const ex = g.x(k);
    const ey = g.y(k);
    if (g.code(k) === SEGMENT_ARC) {
      const chord = Math.hypot(ex - x, ey - y);
      if (chord > 1e-9) {
        const rx = g.rx(k);
        const ry = g.ry(k);
        const half = chord / 2;
        const bulge = Math.abs(half - rx) < 0.01 * rx ? ry : rx - Math.sqrt(Math.max(0, rx * rx - half * half)) + (g.largeArc(k) ? 2 * Math.sqrt(Math.max(0, rx * rx - half * half)) : 0);
        // Clockwise on screen (sweep 1, y down) keeps the centre on the right: the arc bulges left.
        const side = g.sweep(k) ? 1 : -1;
        points.push((x + ex) / 2 + (side * bulge * (ey - y)) / chord, (y + ey) / 2 - (side * bulge * (ex - x)) / chord);
      }
    }
    points.push(ex, ey);
    x = ex;
    y = ey;
  }
  return points;
}
