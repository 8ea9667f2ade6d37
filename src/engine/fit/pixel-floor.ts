/**
 * No shape under a pixel's area (issue 39 item 2), after the fit.
 * In: the fitted chains, the chain graph, each region's loops and pixel area. Out: the chains, with
 * those of every small region whose written outline (its loops' fitted area less its holes') is
 * under 1 px² written as its pixels' outline instead (lattice steps, as pixel art is written).
 * Why: sub-pixel edges sit inside a region's border pixels by their coverage, so a piece of one
 * to a few pixels — a band's rim piece in a photo, a line's darker core pixel, a glyph's dot —
 * fitted on every side comes out a sliver or a speck no renderer shows (down to 0 px²). Written as
 * its pixels it is at least a pixel; a dot (a closed chain, no hole) is then shrunk about its
 * centre to just over 1 px² (its fitted outline said less). Its neighbours share the same chains,
 * so no gap opens. Areas: exact for lines and Béziers (Gauss–Legendre, exact for their degree),
 * arcs from their chords (strokes/fitted-points.ts).
 */

import type { ChainGraph, RegionLoops } from '../boundary/boundary.js';
import { areaCentroid } from '../primitives/geometry.js';
import { SEGMENT_ARC, SEGMENT_LINE, SEGMENT_QUAD, type SegmentPath } from '../segment-path.js';
import { fittedPoints } from '../strokes/fitted-points.js';
import type { Chain, ShapePrimitive } from '../types.js';
import { fitLatticeSteps, type FitScratch, type FittedChain } from './fit.js';

/**
 * Regions of at most this many pixels are checked: a crumb, a dot or a short hairline piece (the
 * written area of a larger region is no crumb's; a long faint hairline stays as fitted).
 */
const FLOOR_MAX_REGION_PX = 64;
/** The least area (px²) a written shape has. */
const MIN_SHAPE_AREA_PX2 = 1;
/**
 * A dot written as its pixels is shrunk to this area (px²): 1 px² and what the writers' rounding
 * to 0.1 px may take off a pixel-sized square.
 */
const DOT_FLOOR_AREA_PX2 = 1.25;
/** Passes: a region written as its pixels changes its neighbours' shared chains. */
const MAX_PASSES = 3;

/** Fitted chains and the primitive each closed chain was fitted as. */
export interface FittedChainSet {
  readonly chains: Chain[];
  readonly primitives: (ShapePrimitive | undefined)[];
}

/** The region picture the floor reads: graph, loops, pixel area per region. */
export interface FloorRegions {
  readonly graph: ChainGraph;
  readonly loops: RegionLoops;
  readonly area: Int32Array;
}

/**
 * The chain set with every small region written under MIN_SHAPE_AREA_PX2 written as its pixels
 * (a new set; the given one, which a memo may hold, is not changed), or the set itself when none is.
 */
export function withPixelFloor(fitted: FittedChainSet, regions: FloorRegions, s: FitScratch): FittedChainSet {
  let chains = fitted.chains;
  let primitives = fitted.primitives;
  const twiceArea = new Float64Array(chains.length).fill(NaN);
  const onLattice = new Uint8Array(chains.length);
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const under = regionsUnderFloor(chains, regions, twiceArea, onLattice);
    if (under.length === 0) break;
    if (chains === fitted.chains) {
      chains = chains.slice();
      primitives = primitives.slice();
    }
    for (const r of under) writeAsPixels(chains, primitives, regions, r, s, twiceArea, onLattice);
  }
  return chains === fitted.chains ? fitted : { chains, primitives };
}

/** The regions of at most FLOOR_MAX_REGION_PX pixels written under the floor, not yet on the lattice. */
function regionsUnderFloor(chains: readonly Chain[], regions: FloorRegions, twiceArea: Float64Array, onLattice: Uint8Array): number[] {
  const { loops, area } = regions;
  const under: number[] = [];
  for (let r = 0; r < area.length; r++) {
    if (area[r]! > FLOOR_MAX_REGION_PX) continue;
    let twice = 0;
    let lattice = true;
    for (let l = loops.loopStart[r]!; l < loops.loopStart[r + 1]!; l++) {
      twice += loopTwiceArea(chains, loops, l, twiceArea);
      for (let u = loops.useFrom[l]!; u < loops.useTo[l]!; u++) if (!onLattice[loops.uses[u]! >> 1]) lattice = false;
    }
    // Outer loops and holes run opposite ways: the sum is the area less the holes'.
    if (!lattice && Math.abs(twice) < 2 * MIN_SHAPE_AREA_PX2) under.push(r);
  }
  return under;
}

/**
 * Twice loop l's signed area as the writers draw it: its chains (each cached in twiceArea), each
 * drawn on from where the one before it ended. A chain whose start differs from that end (an end
 * moved into a pinched vertex's unlinked pixel, boundary/subpixel.ts pinchEnd) has its first
 * segment drawn from there instead (its triangle with the skipped start taken off; exact for a
 * line, near for a curve), and the last chain's end is joined straight to the loop's start.
 */
function loopTwiceArea(chains: readonly Chain[], loops: RegionLoops, l: number, twiceArea: Float64Array): number {
  let twice = 0;
  let endX = NaN;
  let endY = NaN;
  let firstX = NaN;
  let firstY = NaN;
  for (let u = loops.useFrom[l]!; u < loops.useTo[l]!; u++) {
    const use = loops.uses[u]!;
    const reversed = (use & 1) === 1;
    const chain = chains[use >> 1]!;
    const path = chain.segments;
    if (path.length === 0) continue;
    if (Number.isNaN(twiceArea[use >> 1]!)) twiceArea[use >> 1] = chainTwiceArea(chain);
    twice += reversed ? -twiceArea[use >> 1]! : twiceArea[use >> 1]!;
    const n = path.length;
    const fromX = reversed ? path.x(n - 1) : chain.startX;
    const fromY = reversed ? path.y(n - 1) : chain.startY;
    // The use's second point: its first segment's other end.
    const nextX = reversed ? (n > 1 ? path.x(n - 2) : chain.startX) : path.x(0);
    const nextY = reversed ? (n > 1 ? path.y(n - 2) : chain.startY) : path.y(0);
    if (Number.isNaN(firstX)) {
      firstX = fromX;
      firstY = fromY;
    } else if (fromX !== endX || fromY !== endY) twice += endX * nextY - nextX * endY - (fromX * nextY - nextX * fromY);
    endX = reversed ? chain.startX : path.x(n - 1);
    endY = reversed ? chain.startY : path.y(n - 1);
  }
  return Number.isNaN(firstX) ? 0 : twice + endX * firstY - firstX * endY;
}

/** Region r's chains written as lattice steps; a dot (one closed chain) shrunk to DOT_FLOOR_AREA_PX2. */
function writeAsPixels(chains: Chain[], primitives: (ShapePrimitive | undefined)[], regions: FloorRegions, r: number, s: FitScratch, twiceArea: Float64Array, onLattice: Uint8Array): void {
  const { graph, loops, area } = regions;
  for (let l = loops.loopStart[r]!; l < loops.loopStart[r + 1]!; l++) {
    for (let u = loops.useFrom[l]!; u < loops.useTo[l]!; u++) {
      const c = loops.uses[u]! >> 1;
      if (onLattice[c]) continue;
      const closed = graph.closed[c] === 1;
      let pixels = fitLatticeSteps(s, graph.startX[c]!, graph.startY[c]!, graph.dirs, graph.dirStart[c]!, graph.dirStart[c + 1]!, closed);
      const dot = closed && loops.loopStart[r + 1]! - loops.loopStart[r]! === 1;
      if (dot) pixels = shrunkToInk(s, pixels, area[r]!, DOT_FLOOR_AREA_PX2);
      chains[c] = { ...chains[c]!, startX: pixels.startX, startY: pixels.startY, segments: pixels.segments };
      primitives[c] = undefined;
      twiceArea[c] = chainTwiceArea(chains[c]!);
      onLattice[c] = 1;
    }
  }
}

/**
 * A dot written as its pixels, shrunk about its centre to the area its colour covers (a thin
 * hairline's 3-px piece, half covered, is a 1.5-px² dash, not a 3-px one), never under 1 px².
 */
export function shrunkToInk(s: FitScratch, pixels: FittedChain, dotAreaPx: number, inkPx: number): FittedChain {
  const target = Math.max(1, inkPx);
  if (target >= dotAreaPx) return pixels;
  const g = pixels.segments;
  const corners = new Float64Array(g.length * 2);
  for (let k = 0; k < g.length; k++) {
    corners[k * 2] = g.x(k);
    corners[k * 2 + 1] = g.y(k);
  }
  const [cx, cy] = areaCentroid(corners);
  const scale = Math.sqrt(target / dotAreaPx);
  const out = s.chainOut;
  out.truncate(0);
  for (let k = 0; k < g.length; k++) out.line(cx + (g.x(k) - cx) * scale, cy + (g.y(k) - cy) * scale);
  return { startX: cx + (pixels.startX - cx) * scale, startY: cy + (pixels.startY - cy) * scale, segments: out.take(0) };
}

/** Gauss–Legendre nodes and weights on [0, 1], 3 points: exact for polynomials up to degree 5. */
const GL_T = [0.5 - 0.5 * Math.sqrt(0.6), 0.5, 0.5 + 0.5 * Math.sqrt(0.6)];
const GL_W = [5 / 18, 8 / 18, 5 / 18];

/** ∫ x dy − y dx along a chain (twice the signed area it adds to a loop). */
export function chainTwiceArea(chain: Chain): number {
  const path = chain.segments;
  if (path.hasKind(SEGMENT_ARC)) return polylineTwiceArea(fittedPoints(chain.startX, chain.startY, path));
  let x0 = chain.startX;
  let y0 = chain.startY;
  let twice = 0;
  for (let k = 0; k < path.length; k++) {
    const x = path.x(k);
    const y = path.y(k);
    const code = path.code(k);
    if (code === SEGMENT_LINE) twice += x0 * y - x * y0;
    else twice += bezierTwiceArea(path, k, code, x0, y0);
    x0 = x;
    y0 = y;
  }
  return twice;
}

/** ∫ x dy − y dx over Bézier k from (x0, y0) (a quadratic raised to a cubic). */
function bezierTwiceArea(path: SegmentPath, k: number, code: number, x0: number, y0: number): number {
  const x3 = path.x(k);
  const y3 = path.y(k);
  const quad = code === SEGMENT_QUAD;
  const x1 = quad ? x0 + (2 / 3) * (path.cx(k) - x0) : path.c1x(k);
  const y1 = quad ? y0 + (2 / 3) * (path.cy(k) - y0) : path.c1y(k);
  const x2 = quad ? x3 + (2 / 3) * (path.cx(k) - x3) : path.c2x(k);
  const y2 = quad ? y3 + (2 / 3) * (path.cy(k) - y3) : path.c2y(k);
  let sum = 0;
  for (let i = 0; i < 3; i++) {
    const t = GL_T[i]!;
    const u = 1 - t;
    const x = u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3;
    const y = u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3;
    const dx = 3 * (u * u * (x1 - x0) + 2 * u * t * (x2 - x1) + t * t * (x3 - x2));
    const dy = 3 * (u * u * (y1 - y0) + 2 * u * t * (y2 - y1) + t * t * (y3 - y2));
    sum += GL_W[i]! * (x * dy - y * dx);
  }
  return sum;
}

/** Shoelace sum of an open polyline (x, y pairs). */
function polylineTwiceArea(p: Float64Array): number {
  let twice = 0;
  for (let i = 2; i < p.length; i += 2) twice += p[i - 2]! * p[i + 1]! - p[i]! * p[i - 1]!;
  return twice;
}
