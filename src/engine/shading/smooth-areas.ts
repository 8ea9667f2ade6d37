/**
 * Stage 4b, first half: find the smoothly shaded areas of a picture.
 * In: RGBA pixels and the regions after despeckling. Out: groups of neighbouring regions with no
 * edge between them (a smooth colour field the palette cut into shades), each with its pixels'
 * samples for fitting a gradient (ramp-fit.ts).
 *
 * An edge between two regions is told from the seam between two shades of one ramp by the
 * "excess step" across their shared cracks: the colour step across a crack minus the mean of the
 * steps just before and after it on the same row or column. Along a ramp every step is alike, so
 * the excess is nil — whatever the ramp's slope, and on average also under JPEG noise or
 * texture, whose steps are alike too; at an edge, even an anti-aliased one, most of the contrast
 * is in the one step (≈ 0.6 × the contrast on average over sub-pixel positions). Regions joined
 * by soft boundaries form candidate groups (union-find); whether a group is one gradient is for
 * the fit to say (shading.ts).
 */
import { hypot3 } from '../length.js';
import type { Regions } from '../regions/regions.js';

/** A boundary is soft when its mean excess step is at most this (sRGB units) … */
const EDGE_FLOOR = 2;
/** … plus this share of its mean step (a ramp's own steps are part of its noise). */
const EDGE_RATIO = 0.3;
/**
 * A soft boundary's mean step is at most this (sRGB units per px): steeper is an edge blurred over
 * a few pixels (JPEG, a soft brush), which has no excess step either. A black-to-white ramp needs
 * 16 px or more to stay under it.
 */
const MAX_SOFT_STEP = 16;

/**
 * With `tracelab.gradients`, in art (not photos), a pair is also soft when at least this share of
 * its cracks are soft one by one … (a seam along a ramp where one side also holds a stretch of an
 * anti-aliased outline, whose few hard cracks outweigh the many soft ones in the mean: the lens of
 * a magnifying glass cut in two, gradient-magnifying-glass-teudimu-01).
 */
const MOSTLY_SOFT_SHARE = 0.75;
/** … and at least this many of them (a seam, not a corner). */
const MOSTLY_SOFT_MIN_CRACKS = 24;

/** Pixels that count: fully opaque (anti-aliasing against transparency is an edge, not shading). */
const OPAQUE = 255;

/** Every pair of regions that share cracks, with the sums of their crack steps. */
export interface RegionPairs {
  readonly count: number;
  readonly a: Int32Array;
  readonly b: Int32Array;
  /** Cracks measured (both sides opaque, a neighbour step on at least one side). */
  readonly cracks: Float64Array;
  /** Σ excess step over the cracks (sRGB units). */
  readonly excess: Float64Array;
  /** Σ step across the cracks (sRGB units). */
  readonly step: Float64Array;
  /** Cracks that are soft one by one (softStep). */
  readonly softCracks: Float64Array;
}

/** Open-addressing table of region pairs (a < b) with their crack sums. */
class PairTable {
  private mask = 0;
  private slot = new Int32Array(0);
  count = 0;
  a = new Int32Array(0);
  b = new Int32Array(0);
  cracks = new Float64Array(0);
  excess = new Float64Array(0);
  step = new Float64Array(0);
  softCracks = new Float64Array(0);

  constructor(expected: number) {
    let capacity = 64;
    while (capacity < expected * 2) capacity *= 2;
    this.allocate(capacity);
  }

  /** Empty arrays for `capacity` slots (half of them usable: the table stays at most half full). */
  private allocate(capacity: number): void {
    this.mask = capacity - 1;
    this.slot = new Int32Array(capacity).fill(-1);
    this.a = new Int32Array(capacity >> 1);
    this.b = new Int32Array(capacity >> 1);
    this.cracks = new Float64Array(capacity >> 1);
    this.excess = new Float64Array(capacity >> 1);
    this.step = new Float64Array(capacity >> 1);
    this.softCracks = new Float64Array(capacity >> 1);
    this.count = 0;
  }

  /** The slot of pair (a, b): its entry's, or the empty one where it would go. */
  private slotOf(a: number, b: number): number {
    let h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) & this.mask;
    for (;;) {
      const e = this.slot[h]!;
      if (e < 0 || (this.a[e] === a && this.b[e] === b)) return h;
      h = (h + 1) & this.mask;
    }
  }

  add(r1: number, r2: number, excess: number, step: number): void {
    const a = r1 < r2 ? r1 : r2;
    const b = r1 < r2 ? r2 : r1;
    const h = this.slotOf(a, b);
    const found = this.slot[h]!;
    const soft = softStep(step, excess) ? 1 : 0;
    if (found >= 0) {
      this.cracks[found]!++;
      this.excess[found]! += excess;
      this.step[found]! += step;
      this.softCracks[found]! += soft;
      return;
    }
    if (this.count === this.a.length) {
      this.grow();
      this.add(a, b, excess, step);
      return;
    }
    this.put(h, a, b, 1, excess, step, soft);
  }

  private put(h: number, a: number, b: number, cracks: number, excess: number, step: number, softCracks: number): void {
    const e = this.count++;
    this.slot[h] = e;
    this.a[e] = a;
    this.b[e] = b;
    this.cracks[e] = cracks;
    this.excess[e] = excess;
    this.step[e] = step;
    this.softCracks[e] = softCracks;
  }

  private grow(): void {
    const old = { a: this.a, b: this.b, cracks: this.cracks, excess: this.excess, step: this.step, softCracks: this.softCracks, count: this.count };
    this.allocate((this.mask + 1) * 2);
    for (let e = 0; e < old.count; e++) this.put(this.slotOf(old.a[e]!, old.b[e]!), old.a[e]!, old.b[e]!, old.cracks[e]!, old.excess[e]!, old.step[e]!, old.softCracks[e]!);
  }
}

/** Colour distance (sRGB units) between the pixels at byte offsets o and q. */
function pixelStep(data: Uint8Array | Uint8ClampedArray, o: number, q: number): number {
  return hypot3(data[o]! - data[q]!, data[o + 1]! - data[q + 1]!, data[o + 2]! - data[q + 2]!);
}

/**
 * Crack sums of every pair of neighbouring regions. A crack between pixels p | q (in that order
 * along a row or a column) measures |q − p| and, where the pixels exist and are opaque, the
 * steps p′ → p before it and q → q′ after it.
 */
export function regionPairs(data: Uint8Array | Uint8ClampedArray, width: number, height: number, regionOf: Int32Array, regionCount: number): RegionPairs {
  const table = new PairTable(regionCount * 3);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const p = row + x;
      const a = regionOf[p]!;
      if (a < 0 || data[p * 4 + 3]! < OPAQUE) continue;
      if (x + 1 < width) {
        const b = regionOf[p + 1]!;
        if (b !== a && b >= 0) measureCrack(table, data, a, b, p, 1, x > 0, x + 2 < width);
      }
      if (y + 1 < height) {
        const b = regionOf[p + width]!;
        if (b !== a && b >= 0) measureCrack(table, data, a, b, p, width, y > 0, y + 2 < height);
      }
    }
  }
  return table;
}

function measureCrack(table: PairTable, data: Uint8Array | Uint8ClampedArray, a: number, b: number, p: number, stride: number, hasBefore: boolean, hasAfter: boolean): void {
  const o = p * 4;
  const q = (p + stride) * 4;
  if (data[q + 3]! < OPAQUE) return;
  const step = pixelStep(data, o, q);
  let around = 0;
  let sides = 0;
  if (hasBefore && data[o - stride * 4 + 3]! >= OPAQUE) {
    around += pixelStep(data, o - stride * 4, o);
    sides++;
  }
  if (hasAfter && data[q + stride * 4 + 3]! >= OPAQUE) {
    around += pixelStep(data, q, q + stride * 4);
    sides++;
  }
  if (sides === 0) return;
  table.add(a, b, step - around / sides, step);
}

/** True when a step (sRGB units) with this excess over its neighbours' shows no edge. */
function softStep(step: number, excess: number): boolean {
  return step <= MAX_SOFT_STEP && excess <= EDGE_FLOOR + EDGE_RATIO * step;
}

/**
 * True when the pair's boundary shows no edge: on average over its cracks or, with `mostly`, in
 * most of its cracks one by one (MOSTLY_SOFT_SHARE).
 */
export function isSoftPair(pairs: RegionPairs, e: number, mostly = false): boolean {
  const n = pairs.cracks[e]!;
  if (softStep(pairs.step[e]! / n, pairs.excess[e]! / n)) return true;
  const soft = pairs.softCracks[e]!;
  return mostly && soft >= MOSTLY_SOFT_MIN_CRACKS && soft >= MOSTLY_SOFT_SHARE * n;
}

/**
 * Groups of regions joined by soft boundaries (union-find), as a group id per region (−1 for a
 * region alone) and the member lists, in order of each group's smallest region id.
 */
export function softGroups(pairs: RegionPairs, regionCount: number, mostly = false): { groupOf: Int32Array; members: number[][] } {
  const parent = new Int32Array(regionCount);
  for (let r = 0; r < regionCount; r++) parent[r] = r;
  for (let e = 0; e < pairs.count; e++) {
    if (!isSoftPair(pairs, e, mostly)) continue;
    const ra = findRoot(parent, pairs.a[e]!);
    const rb = findRoot(parent, pairs.b[e]!);
    // The smaller id is the root, so roots are each group's first region.
    if (ra < rb) parent[rb] = ra;
    else if (rb < ra) parent[ra] = rb;
  }
  const size = new Int32Array(regionCount);
  for (let r = 0; r < regionCount; r++) size[findRoot(parent, r)]!++;
  const groupOf = new Int32Array(regionCount).fill(-1);
  const members: number[][] = [];
  for (let r = 0; r < regionCount; r++) {
    const root = parent[r]!;
    if (size[root]! < 2) continue;
    if (root === r) {
      groupOf[r] = members.length;
      members.push([r]);
    } else {
      groupOf[r] = groupOf[root]!;
      members[groupOf[r]!]!.push(r);
    }
  }
  return { groupOf, members };
}

/** Root of r in a union-find forest (path compression on the way). */
export function findRoot(parent: Int32Array, r: number): number {
  let root = r;
  while (parent[root] !== root) root = parent[root]!;
  while (parent[r] !== root) {
    const next = parent[r]!;
    parent[r] = root;
    r = next;
  }
  return root;
}

/** Region ids per group, one pass: the pixels of every group, in raster order. */
export interface GroupPixels {
  /** Pixel indices of group g at start[g] … start[g + 1]. */
  readonly start: Int32Array;
  readonly pixels: Int32Array;
}

/**
 * @param owner set here, for every opaque pixel of a group, to its group (other entries untouched).
 */
export function groupPixels(regions: Regions, groupOf: Int32Array, groupCount: number, data: Uint8Array | Uint8ClampedArray, owner: Int32Array): GroupPixels {
  const start = new Int32Array(groupCount + 1);
  const { regionOf } = regions;
  for (let p = 0; p < regionOf.length; p++) {
    const r = regionOf[p]!;
    if (r >= 0 && groupOf[r]! >= 0) start[groupOf[r]! + 1]!++;
  }
  for (let g = 0; g < groupCount; g++) start[g + 1]! += start[g]!;
  const next = start.slice(0, groupCount);
  const pixels = new Int32Array(start[groupCount]!);
  for (let p = 0; p < regionOf.length; p++) {
    const r = regionOf[p]!;
    if (r < 0) continue;
    const g = groupOf[r]!;
    if (g < 0) continue;
    pixels[next[g]!++] = p;
    if (data[p * 4 + 3] === 255) owner[p] = g;
  }
  return { start, pixels };
}
