/**
 * Stage 8: shapes. One outer loop plus its holes per region (the reference's §3.9 model), in
 * paint order, with each shape's fill, primitive and containing shape.
 * In: regions, their loops over the shared chain graph (boundary.ts), fills, fitted primitives.
 * Out: Shape[] for the writers, bottom first (larger outer area first). `cutouts` keeps every hole;
 * `stacked` keeps only the holes something transparent shows through, since the shapes stacked
 * above cover the others. Line art on one paper (primitives/paper.ts): the paper's regions make no
 * shapes, and every other shape keeps all its holes (the paper shows through them).
 */
import { DX, DY, type ChainGraph, type RegionLoops } from '../boundary/boundary.js';
import { indicesByKey, sortIndicesByKey } from '../order.js';
import { findRegions, type Regions } from '../regions/regions.js';
import type { ChainUse, EngineParams, Gradient, Loop, Rgba, Shape, ShapePrimitive } from '../types.js';

/** Loop l of the flat loop lists as the writers' chain uses. */
function decodeLoop(loops: RegionLoops, l: number): ChainUse[] {
  const from = loops.useFrom[l]!;
  // Sized once (pushes would grow it by copies); every slot is written below.
  const out = new Array<ChainUse>(loops.useTo[l]! - from);
  for (let k = 0; k < out.length; k++) {
    const use = loops.uses[from + k]!;
    out[k] = { chain: use >> 1, reversed: (use & 1) === 1 };
  }
  return out;
}

/** Transparent points enclosed by the picture (enclosedVoidPoints): where a stacked hole must stay. */
export type EnclosedVoid = readonly (readonly [number, number])[];

/** The shapes of a trace, bottom first; a shape whose outer loop is one primitive chain carries it. */
export function assembleShapes(
  regions: Regions,
  loops: RegionLoops,
  graph: ChainGraph,
  fills: readonly Rgba[],
  params: EngineParams,
  primitives: readonly (ShapePrimitive | undefined)[],
  parentOf: Int32Array,
  enclosedVoid: EnclosedVoid,
  gradientOf: readonly (Gradient | undefined)[] | undefined,
  paperLabel = -1,
): Shape[] {
  const shapes: Shape[] = [];
  const outerAreas: number[] = [];
  const areas = loops.loopArea;
  // Shapes without a hole kept (nearly all of them) share one empty list (Shape.holes is read-only):
  // a list per shape was tens of thousands of empty arrays on pixel art.
  const noHoles: readonly Loop[] = [];
  for (let r = 0; r < regions.count; r++) {
    if (regions.labelOf[r] === paperLabel) continue;
    const first = loops.loopStart[r]!;
    const end = loops.loopStart[r + 1]!;
    let outerIndex = -1;
    for (let i = first; i < end; i++) if (areas[i]! < 0 && (outerIndex < 0 || areas[i]! < areas[outerIndex]!)) outerIndex = i;
    if (outerIndex < 0) continue;
    let holes: Loop[] | undefined;
    for (let i = first; i < end; i++) {
      if (i === outerIndex) continue;
      // Stacked: a hole is drawn only where something transparent shows through it; every other
      // hole is covered by the shapes stacked above.
      if (params.shapeStacking === 'stacked' && paperLabel < 0 && !enclosesVoid(graph, loops, i, enclosedVoid)) continue;
      (holes ??= []).push(decodeLoop(loops, i));
    }
    const outer = decodeLoop(loops, outerIndex);
    const primitive = outer.length === 1 && !holes ? primitives[outer[0]!.chain] : undefined;
    const gradient = gradientOf?.[r];
    const color = fills[regions.labelOf[r]!]!;
    const areaPx = regions.area[r]!;
    const parent = parentOf[r]!;
    // Literals rather than spreads of optional fields: each spread was a throw-away object and a
    // slow copy. Keys in the same order either way (gradient after color, primitive last).
    const shape: Shape = gradient ? { region: r, color, gradient, outer, holes: holes ?? noHoles, areaPx, parent } : { region: r, color, outer, holes: holes ?? noHoles, areaPx, parent };
    shapes.push(primitive ? { ...shape, primitive } : shape);
    outerAreas.push(-areas[outerIndex]!);
  }
  // Bottom first: a region inside another's hole always has a smaller outer area. Shapes were
  // listed by region, so ties by index are ties by region.
  const ordered: Shape[] = [];
  for (const i of indicesByKey(outerAreas, true)) ordered.push(shapes[i]!);
  return ordered;
}

/** True when one of the transparent points (x, y) lies inside loop l. */
function enclosesVoid(graph: ChainGraph, loops: RegionLoops, l: number, points: readonly (readonly [number, number])[]): boolean {
  for (const [x, y] of points) if (loopContains(graph, loops, l, x, y)) return true;
  return false;
}

/**
 * The region whose hole each region lies in (the smallest containing shape), or -1.
 * Containers are taken smallest first; from each of their holes a walk over the region adjacency
 * (shared chains) claims every region inside that no smaller container has claimed yet. A claimed
 * region is not walked through: what lies beyond it is inside one of its own holes.
 */
export function containingRegions(count: number, loops: RegionLoops, graph: ChainGraph): Int32Array {
  const parent = new Int32Array(count).fill(-1);
  const adjacency = regionAdjacency(count, graph);
  const outerArea = new Float64Array(count);
  const containers: number[] = [];
  for (let r = 0; r < count; r++) {
    let outer = 0;
    let holes = 0;
    for (let l = loops.loopStart[r]!; l < loops.loopStart[r + 1]!; l++) {
      const a = loops.loopArea[l]!;
      if (a < outer) outer = a;
      if (a > 0) holes++;
    }
    outerArea[r] = -outer;
    if (holes > 0) containers.push(r);
  }
  sortIndicesByKey(containers, outerArea, false);
  const stack: number[] = [];
  for (const t of containers) {
    for (let l = loops.loopStart[t]!; l < loops.loopStart[t + 1]!; l++) {
      if (!(loops.loopArea[l]! > 0)) continue;
      for (let k = loops.useFrom[l]!; k < loops.useTo[l]!; k++) {
        const c = loops.uses[k]! >> 1;
        const inside = graph.left[c] === t ? graph.right[c]! : graph.left[c]!;
        if (inside >= 0 && inside !== t && parent[inside] === -1) {
          parent[inside] = t;
          stack.push(inside);
        }
      }
    }
    while (stack.length > 0) {
      const r = stack.pop()!;
      for (let k = adjacency.start[r]!; k < adjacency.start[r + 1]!; k++) {
        const n = adjacency.next[k]!;
        if (n === t || parent[n] !== -1 || outerArea[n]! >= outerArea[t]!) continue;
        parent[n] = t;
        stack.push(n);
      }
    }
  }
  return parent;
}

/**
 * Each region's neighbours across the chains (one entry per chain between two regions, in chain
 * order): region r's are next[start[r] .. start[r + 1]). Two passes over the chains (count, then
 * place) instead of an array per region.
 */
function regionAdjacency(count: number, graph: ChainGraph): { readonly start: Int32Array; readonly next: Int32Array } {
  const start = new Int32Array(count + 1);
  for (let c = 0; c < graph.count; c++) {
    const a = graph.left[c]!;
    const b = graph.right[c]!;
    if (a >= 0 && b >= 0 && a !== b) {
      start[a + 1]!++;
      start[b + 1]!++;
    }
  }
  for (let r = 0; r < count; r++) start[r + 1] = start[r + 1]! + start[r]!;
  const next = new Int32Array(start[count]!);
  const slot = start.slice(0, count);
  for (let c = 0; c < graph.count; c++) {
    const a = graph.left[c]!;
    const b = graph.right[c]!;
    if (a >= 0 && b >= 0 && a !== b) {
      next[slot[a]!++] = b;
      next[slot[b]!++] = a;
    }
  }
  return { start, next };
}

/** One pixel centre per transparent component that does not touch the image border. */
export function enclosedVoidPoints(regionOf: Int32Array, width: number, height: number): [number, number][] {
  const mask = new Int32Array(regionOf.length);
  for (let i = 0; i < regionOf.length; i++) mask[i] = regionOf[i]! < 0 ? 0 : -1;
  const voids = findRegions(mask, width, height);
  const touchesBorder = new Uint8Array(voids.count);
  const point: ([number, number] | undefined)[] = new Array(voids.count);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = voids.regionOf[y * width + x]!;
      if (v < 0) continue;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) touchesBorder[v] = 1;
      if (!point[v]) point[v] = [x + 0.5, y + 0.5];
    }
  }
  const out: [number, number][] = [];
  for (let v = 0; v < voids.count; v++) if (!touchesBorder[v]) out.push(point[v]!);
  return out;
}

/** Even-odd point-in-polygon on loop l's lattice polyline. */
function loopContains(graph: ChainGraph, loops: RegionLoops, l: number, px: number, py: number): boolean {
  let inside = false;
  for (let k = loops.useFrom[l]!; k < loops.useTo[l]!; k++) {
    const c = loops.uses[k]! >> 1;
    let x = graph.startX[c]!;
    let y = graph.startY[c]!;
    for (let k = graph.dirStart[c]!; k < graph.dirStart[c + 1]!; k++) {
      const d = graph.dirs[k]!;
      const nx = x + DX[d]!;
      const ny = y + DY[d]!;
      if (ny !== y && (y > py) !== (ny > py) && px < x) inside = !inside;
      x = nx;
      y = ny;
    }
  }
  return inside;
}

