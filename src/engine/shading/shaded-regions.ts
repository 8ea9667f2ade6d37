/**
 * Stage 4b: smooth shading — the new regions of the shaded areas.
 * In: the areas shading.ts found, the regions and pixels, and `tracelab.gradients`. Out: new
 * regions (ids in raster order of their first pixel, like findRegions), their colours and fills,
 * each region's gradient (with the extension), and the areas' ramps packed in typed arrays for the
 * sub-pixel stage:
 *  - gradients on: each area is one region, filled with its gradient (Shape.gradient);
 *  - gradients off (the API's flat fills): each area is recut into a few flat bands along its
 *    ramp — band edges are iso-lines of the ramp (straight lines, circles, ellipses), so they come
 *    out as clean curves instead of the palette's ragged shade borders — at most MAX_BANDS, about
 *    one per BAND_STEP_DE of colour (photos: PHOTO_MAX_BANDS, PHOTO_BAND_STEP_DE), cut at equal
 *    colour length; a band piece of at most PIECE_MIN_PX cut off where a threshold grazes a ragged
 *    rim joins its neighbouring band.
 */
import { rgbToLab } from '../color.js';
import { hypot3 } from '../length.js';
import { rampColorAt, rampColorOf, type FittedRamp } from './ramp-fit.js';
import { GEOMETRY_STRIDE, lastStopT, packedT, packGeometry, STOP_STRIDE, stopT } from './ramp-samples.js';
import type { Regions } from '../regions/regions.js';
import type { Shading, ShadingInput, SmoothArea } from './shading.js';
import { findRoot } from './smooth-areas.js';
import type { Gradient, Rgba } from '../types.js';
import type { TraceScratch } from '../scratch.js';

/** Gradients off: about one band per this much colour (ΔE76 along the ramp) … */
const BAND_STEP_DE = 14;
/** … and in a photo (whose skies and skin show bands more than drawn art does) about one per this … */
const PHOTO_BAND_STEP_DE = 4;

/** … and at most this many bands per area. */
const MAX_BANDS = 6;
/** … at most this many in a photo. */
const PHOTO_MAX_BANDS = 16;

/**
 * The ramps of the areas, packed in typed arrays (so they cross to other threads as they are),
 * with which area and band each new region belongs to. Sub-pixel edges use them: the colour of a
 * shaded region next to an edge is its ramp's colour there, and the edge between two bands lies
 * where the ramp crosses their threshold.
 */
export interface AreaRamps {
  /** Per region: its area, or −1. */
  readonly areaOfRegion: Int32Array;
  /** Per region: its band within the area (gradients off), or −1. */
  readonly bandOfRegion: Int32Array;
  /** Per area, its ramp's geometry packed (ramp-samples.ts packGeometry: GEOMETRY_STRIDE numbers). */
  readonly geometry: Float64Array;
  /** Per area: its stops at stops[stopStart[a] … stopStart[a + 1]) (4 numbers each: t, r, g, b). */
  readonly stopStart: Int32Array;
  readonly stops: Float64Array;
  /** Per area: band thresholds in t at thresholds[thresholdStart[a] … thresholdStart[a + 1]). */
  readonly thresholdStart: Int32Array;
  readonly thresholds: Float64Array;
}

/** The new regions of shaded areas and what the later stages need to know about them. */
export interface Shaded {
  readonly regions: Regions;
  /** Labels the new regions use beyond the palette's: their colours (observed, r, g, b) and fills. */
  readonly extraColor: Float64Array;
  readonly extraFill: readonly Rgba[];
  /** Per new region: its gradient (gradients on), else undefined. */
  readonly gradientOf: readonly (Gradient | undefined)[];
  readonly ramps: AreaRamps;
}

/** t of point (x, y) for area a of the packed ramps. */
export function rampT(ramps: AreaRamps, a: number, x: number, y: number): number {
  return packedT(ramps.geometry, a * GEOMETRY_STRIDE, x, y);
}

/** The colour of area a's ramp at point (x, y) into out[0..2]. */
export function rampColorOfArea(ramps: AreaRamps, a: number, x: number, y: number, out: Float64Array): void {
  rampColorOf(ramps.stops, ramps.stopStart[a]!, ramps.stopStart[a + 1]! - ramps.stopStart[a]!, rampT(ramps, a, x, y), out);
}

/**
 * New regions for the areas: with `gradients`, each area becomes one region; without, each is
 * recut into bands along its ramp (4-connected pieces of one band are regions). Region ids
 * follow raster order of each region's first pixel, as findRegions numbers them.
 * @param labelCount labels in use so far: the new regions' labels come after them.
 */
export function applyShading(input: ShadingInput, shading: Shading, gradients: boolean, labelCount: number, scratch: TraceScratch): Shaded {
  const { regions } = input;
  const { areas, joinInto } = shading;
  // Edge specks that join another region are that region from here on.
  const regionOf = joinedRegions(regions.regionOf, joinInto);
  const areaOfOld = new Int32Array(regions.count).fill(-1);
  for (let a = 0; a < areas.length; a++) for (const r of areas[a]!.members) areaOfOld[r] = a;
  const packed = packRamps(areas, gradients, input.photo);
  // Per pixel, a key: its old region, or (count + k) for the k-th new piece of an area.
  const keyOf = scratch.int32('shading.keyOf', regionOf.length, 0);
  const pieceArea: number[] = [];
  const pieceBand: number[] = [];
  if (gradients) areaKeys(regions.count, regionOf, areaOfOld, areas.length, keyOf, pieceArea, pieceBand);
  else cutBands(input, regionOf, areaOfOld, packed, keyOf, pieceArea, pieceBand, scratch);
  const numbered = numberKeys(regionOf, keyOf, regions.count + pieceArea.length);
  const labels = pieceLabels(areas, packed, gradients, pieceArea, pieceBand, labelCount);
  const { count, keys } = numbered;
  const labelOf = new Int32Array(count);
  const areaOfRegion = new Int32Array(count).fill(-1);
  const bandOfRegion = new Int32Array(count).fill(-1);
  const gradientOf: (Gradient | undefined)[] = new Array(count).fill(undefined);
  for (let id = 0; id < count; id++) {
    const key = keys[id]!;
    if (key < regions.count) {
      labelOf[id] = regions.labelOf[key]!;
      continue;
    }
    const k = key - regions.count;
    labelOf[id] = labels.labelOfPiece[k]!;
    areaOfRegion[id] = pieceArea[k]!;
    bandOfRegion[id] = pieceBand[k]!;
    if (gradients) gradientOf[id] = areas[pieceArea[k]!]!.gradient;
  }
  return {
    regions: { count, regionOf: numbered.regionOf, labelOf, area: numbered.pixelCount.slice(0, count) },
    extraColor: Float64Array.from(labels.extraColor),
    extraFill: labels.extraFill,
    gradientOf,
    ramps: areaRamps(packed, areaOfRegion, bandOfRegion),
  };
}

/**
 * The shaded areas with their regions renumbered (a later pass merged some, or handed pixels
 * over): `fromRegion` gives, per new region, the region it was (−1: none); its ramp area, band
 * and gradient go with it.
 */
export function withRegionsRenumbered(shaded: Shaded, regions: Regions, fromRegion: Int32Array): Shaded {
  const { ramps } = shaded;
  const areaOfRegion = Int32Array.from(fromRegion, (r) => (r >= 0 ? ramps.areaOfRegion[r]! : -1));
  const bandOfRegion = Int32Array.from(fromRegion, (r) => (r >= 0 ? ramps.bandOfRegion[r]! : -1));
  const gradientOf = Array.from(fromRegion, (r) => (r >= 0 ? shaded.gradientOf[r] : undefined));
  return { regions, extraColor: shaded.extraColor, extraFill: shaded.extraFill, gradientOf, ramps: areaRamps(ramps, areaOfRegion, bandOfRegion) };
}

/** Gradients on: every pixel of area a gets key count + a (one piece per area). */
function areaKeys(regionCount: number, regionOf: Int32Array, areaOfOld: Int32Array, areaCount: number, keyOf: Int32Array, pieceArea: number[], pieceBand: number[]): void {
  for (let a = 0; a < areaCount; a++) {
    pieceArea.push(a);
    pieceBand.push(-1);
  }
  for (let p = 0; p < regionOf.length; p++) {
    const r = regionOf[p]!;
    keyOf[p] = r >= 0 && areaOfOld[r]! >= 0 ? regionCount + areaOfOld[r]! : r;
  }
}

/**
 * The pixels' keys renumbered as region ids in raster order of each key's first pixel (as
 * findRegions numbers regions): the id per pixel (−1 where regionOf is), the key of each id, and
 * the pixels per id (counted as they are numbered; entries past `count` are 0).
 */
function numberKeys(regionOf: Int32Array, keyOf: Int32Array, keyCount: number): { regionOf: Int32Array; count: number; keys: number[]; pixelCount: Int32Array } {
  const idOfKey = new Int32Array(keyCount).fill(-1);
  const newRegionOf = new Int32Array(regionOf.length);
  let count = 0;
  const keys: number[] = [];
  const pixelCount = new Int32Array(idOfKey.length);
  for (let p = 0; p < regionOf.length; p++) {
    const key = regionOf[p]! < 0 ? -1 : keyOf[p]!;
    if (key < 0) {
      newRegionOf[p] = -1;
      continue;
    }
    let id = idOfKey[key]!;
    if (id < 0) {
      id = idOfKey[key] = count++;
      keys.push(key);
    }
    newRegionOf[p] = id;
    pixelCount[id]!++;
  }
  return { regionOf: newRegionOf, count, keys, pixelCount };
}

/**
 * One new label per area (gradients: its mean colour) or per area band (its band colour), after
 * the `labelCount` labels in use: each piece's label, and the new labels' colours and fills.
 */
function pieceLabels(
  areas: readonly SmoothArea[],
  packed: Omit<AreaRamps, 'areaOfRegion' | 'bandOfRegion'>,
  gradients: boolean,
  pieceArea: readonly number[],
  pieceBand: readonly number[],
  labelCount: number,
): { labelOfPiece: Int32Array; extraColor: number[]; extraFill: Rgba[] } {
  const extraColor: number[] = [];
  const extraFill: Rgba[] = [];
  const labelOfPiece = new Int32Array(pieceArea.length);
  const bandLabel = new Map<number, number>();
  for (let k = 0; k < pieceArea.length; k++) {
    const a = pieceArea[k]!;
    const bandKey = gradients ? a : a * (PHOTO_MAX_BANDS + 1) + pieceBand[k]!;
    let label = bandLabel.get(bandKey);
    if (label === undefined) {
      label = labelCount + extraFill.length;
      bandLabel.set(bandKey, label);
      const c = gradients ? areas[a]!.mean : bandColor(packed, a, pieceBand[k]!);
      extraColor.push(c.r, c.g, c.b);
      extraFill.push({ r: Math.round(c.r), g: Math.round(c.g), b: Math.round(c.b), a: 255 });
    }
    labelOfPiece[k] = label;
  }
  return { labelOfPiece, extraColor, extraFill };
}

/** regionOf with every region that joins another replaced by it (the same array when none does). */
function joinedRegions(regionOf: Int32Array, joinInto: Int32Array): Int32Array {
  if (!joinInto.some((t) => t >= 0)) return regionOf;
  const out = new Int32Array(regionOf.length);
  for (let p = 0; p < regionOf.length; p++) {
    const r = regionOf[p]!;
    out[p] = r >= 0 && joinInto[r]! >= 0 ? joinInto[r]! : r;
  }
  return out;
}

/** The areas' ramps and (gradients off) band thresholds, packed. */
function packRamps(areas: readonly SmoothArea[], gradients: boolean, photo: boolean): AreaRamps {
  const geometry = new Float64Array(areas.length * GEOMETRY_STRIDE);
  const stopStart = new Int32Array(areas.length + 1);
  const thresholdStart = new Int32Array(areas.length + 1);
  const stops: number[] = [];
  const thresholds: number[] = [];
  // Areas of one shared gradient have the same ramp object: its thresholds are cut once.
  const cut = new Map<FittedRamp, number[]>();
  for (let a = 0; a < areas.length; a++) {
    const ramp = areas[a]!.ramp;
    packGeometry(ramp.geometry, geometry, a * GEOMETRY_STRIDE);
    for (const v of ramp.stops) stops.push(v);
    stopStart[a + 1] = stops.length / STOP_STRIDE;
    if (!gradients) {
      let ts = cut.get(ramp);
      if (!ts) cut.set(ramp, (ts = bandThresholds(ramp, photo)));
      for (const t of ts) thresholds.push(t);
    }
    thresholdStart[a + 1] = thresholds.length;
  }
  return areaRamps({ geometry, stopStart, stops: Float64Array.from(stops), thresholdStart, thresholds: Float64Array.from(thresholds) }, new Int32Array(0), new Int32Array(0));
}

/**
 * The ramps with their regions' areas and bands, built in one place with every field in one order:
 * one hidden class, so rampT and the sub-pixel sampler stay monomorphic from picture to picture
 * (spreads made objects of several shapes and V8 deoptimised their readers).
 */
function areaRamps(packed: Omit<AreaRamps, 'areaOfRegion' | 'bandOfRegion'>, areaOfRegion: Int32Array, bandOfRegion: Int32Array): AreaRamps {
  const { geometry, stopStart, stops, thresholdStart, thresholds } = packed;
  return { areaOfRegion, bandOfRegion, geometry, stopStart, stops, thresholdStart, thresholds };
}

/**
 * Band thresholds (t) of a ramp: cuts at equal colour distance (ΔE76 along the ramp, sampled
 * per px of t), about one band per BAND_STEP_DE, 2 to MAX_BANDS bands.
 */
function bandThresholds(ramp: FittedRamp, photo: boolean): number[] {
  const t0 = stopT(ramp.stops, 0);
  const t1 = lastStopT(ramp.stops);
  const steps = Math.max(2, Math.min(2048, Math.ceil(t1 - t0)));
  const lengths = new Float64Array(steps + 1);
  const rgb = new Float64Array(3);
  const lab = new Float64Array(6);
  rampColorAt(ramp.stops, t0, rgb);
  rgbToLab(rgb[0]!, rgb[1]!, rgb[2]!, lab, 0);
  for (let i = 1; i <= steps; i++) {
    rampColorAt(ramp.stops, t0 + ((t1 - t0) * i) / steps, rgb);
    rgbToLab(rgb[0]!, rgb[1]!, rgb[2]!, lab, 3);
    lengths[i] = lengths[i - 1]! + hypot3(lab[3]! - lab[0]!, lab[4]! - lab[1]!, lab[5]! - lab[2]!);
    lab[0] = lab[3]!;
    lab[1] = lab[4]!;
    lab[2] = lab[5]!;
  }
  const total = lengths[steps]!;
  const bands = Math.max(2, Math.min(photo ? PHOTO_MAX_BANDS : MAX_BANDS, Math.round(total / (photo ? PHOTO_BAND_STEP_DE : BAND_STEP_DE))));
  const out: number[] = [];
  let i = 0;
  for (let k = 1; k < bands; k++) {
    const target = (total * k) / bands;
    while (i < steps && lengths[i + 1]! < target) i++;
    const f = lengths[i + 1]! > lengths[i]! ? (target - lengths[i]!) / (lengths[i + 1]! - lengths[i]!) : 0;
    out.push(t0 + ((t1 - t0) * (i + f)) / steps);
  }
  return out;
}

/** Band b's colour: the ramp's colour halfway (in t) between its thresholds (the ends: the ramp's ends). */
function bandColor(packed: Omit<AreaRamps, 'areaOfRegion' | 'bandOfRegion'>, a: number, b: number): Rgba {
  const from = packed.thresholdStart[a]!;
  const to = packed.thresholdStart[a + 1]!;
  const stops = packed.stops.subarray(packed.stopStart[a]! * STOP_STRIDE, packed.stopStart[a + 1]! * STOP_STRIDE);
  const lo = b === 0 ? stopT(stops, 0) : packed.thresholds[from + b - 1]!;
  const hi = from + b < to ? packed.thresholds[from + b]! : lastStopT(stops);
  const rgb = new Float64Array(3);
  rampColorAt(stops, (lo + hi) / 2, rgb);
  return { r: rgb[0]!, g: rgb[1]!, b: rgb[2]!, a: 255 };
}

/** Band of t among sorted thresholds [from, to). */
function bandOf(thresholds: Float64Array, from: number, to: number, t: number): number {
  let b = 0;
  while (from + b < to && t >= thresholds[from + b]!) b++;
  return b;
}

/**
 * Gradients off: every pixel of an area gets the band of its t; 4-connected pieces of one band
 * (within one area) get keys count + k, with their area and band in pieceArea / pieceBand.
 */
function cutBands(
  input: ShadingInput,
  regionOf: Int32Array,
  areaOfOld: Int32Array,
  packed: AreaRamps,
  keyOf: Int32Array,
  pieceArea: number[],
  pieceBand: number[],
  scratch: TraceScratch,
): void {
  const { width, regions } = input;
  const { areaBand, parent } = bandPixels(width, regionOf, areaOfOld, packed, keyOf, scratch);
  const pieces = bandPieces(regionOf, areaOfOld, areaBand, parent);
  const target = mergeSmallPieces(pieces.pieceOf, pieces.size, pieces.area, width);
  // Surviving pieces numbered in order; merged pixels take their target's key.
  const number = new Int32Array(pieces.size.length).fill(-1);
  for (let k = 0; k < pieces.size.length; k++) {
    if (target[k] !== k) continue;
    number[k] = pieceArea.length;
    pieceArea.push(pieces.area[k]!);
    pieceBand.push(pieces.bandOfPiece[k]!);
  }
  // Each piece's key, looked up once per piece rather than through two tables per pixel.
  const keyOfPiece = new Int32Array(pieces.size.length);
  for (let k = 0; k < keyOfPiece.length; k++) keyOfPiece[k] = regions.count + number[target[k]!]!;
  const { pieceOf } = pieces;
  for (let p = 0; p < regionOf.length; p++) {
    const k = pieceOf[p]!;
    if (k >= 0) keyOf[p] = keyOfPiece[k]!;
  }
}

/**
 * Area and band per pixel as one key, area · AREA_BAND_KEYS + band (−1 outside areas, whose
 * keyOf is set to their region here; at most PHOTO_MAX_BANDS bands), and a union-find forest
 * joining left/up neighbours of one key (roots the smaller index).
 */
function bandPixels(
  width: number,
  regionOf: Int32Array,
  areaOfOld: Int32Array,
  packed: AreaRamps,
  keyOf: Int32Array,
  scratch: TraceScratch,
): { areaBand: Int32Array; parent: Int32Array } {
  // Every element of both is written before it is read (raster order): borrowed without a fill.
  const areaBand = scratch.int32('shading.areaBand', regionOf.length);
  const parent = scratch.int32('shading.bandParent', regionOf.length);
  const height = regionOf.length / width;
  for (let y = 0; y < height; y++) {
    for (let x = 0, p = y * width; x < width; x++, p++) {
      const r = regionOf[p]!;
      const a = r >= 0 ? areaOfOld[r]! : -1;
      parent[p] = p;
      if (a < 0) {
        keyOf[p] = r;
        areaBand[p] = -1;
        continue;
      }
      const b = bandOf(packed.thresholds, packed.thresholdStart[a]!, packed.thresholdStart[a + 1]!, rampT(packed, a, x + 0.5, y + 0.5));
      const key = a * AREA_BAND_KEYS + b;
      areaBand[p] = key;
      // p is still its own root here: joining its left neighbour is making that one's root its parent.
      if (x > 0 && areaBand[p - 1] === key) parent[p] = findRoot(parent, p - 1);
      if (y > 0 && areaBand[p - width] === key) union(parent, p, p - width);
    }
  }
  return { areaBand, parent };
}

/**
 * Band pieces: one per union-find root, in raster order of their first pixel (a root is its
 * piece's first pixel: unions keep the smaller index). The union-find array becomes the piece per
 * pixel (−1 outside areas); with each piece's size, area and band.
 */
function bandPieces(regionOf: Int32Array, areaOfOld: Int32Array, areaBand: Int32Array, parent: Int32Array): { pieceOf: Int32Array; size: number[]; area: number[]; bandOfPiece: number[] } {
  resolveRoots(parent);
  const pieceOf = parent;
  const size: number[] = [];
  const area: number[] = [];
  const bandOfPiece: number[] = [];
  for (let p = 0; p < regionOf.length; p++) {
    const key = areaBand[p]!;
    if (key < 0) {
      pieceOf[p] = -1;
      continue;
    }
    const root = parent[p]!;
    let k: number;
    if (root === p) {
      k = size.length;
      size.push(0);
      area.push(areaOfOld[regionOf[p]!]!);
      bandOfPiece.push(key % AREA_BAND_KEYS);
    } else k = pieceOf[root]!; // root < p: already its piece
    pieceOf[p] = k;
    size[k]!++;
  }
  return { pieceOf, size, area, bandOfPiece };
}

/** Keys per area in cutBands' area-band keys (more than PHOTO_MAX_BANDS). */
const AREA_BAND_KEYS = 32;

/** Band pieces of at most this many pixels join a neighbouring band of their area. */
const PIECE_MIN_PX = 16;

/**
 * Where a band threshold grazes an area's ragged rim it cuts off a few pixels of a band apart from
 * the rest: such a piece joins the neighbouring piece of the same area it shares most cracks with
 * (the next band), rather than become a shape of a few pixels. Returns each piece's final piece.
 */
function mergeSmallPieces(pieceOf: Int32Array, size: number[], area: number[], width: number): Int32Array {
  const target = Int32Array.from(size.keys());
  const small = new Set<number>();
  for (let k = 0; k < size.length; k++) if (size[k]! <= PIECE_MIN_PX) small.add(k);
  if (small.size === 0) return target;
  // Cracks between each small piece and its neighbours of the same area.
  const shared = new Map<number, Map<number, number>>();
  const isSmall = new Uint8Array(size.length);
  for (const k of small) isSmall[k] = 1;
  for (let rowEnd = width; rowEnd <= pieceOf.length; rowEnd += width) {
    for (let p = rowEnd - width; p < rowEnd; p++) {
      const a = pieceOf[p]!;
      if (a < 0) continue;
      // Inside a piece (most pixels) there is no crack to count.
      if (p + 1 < rowEnd && pieceOf[p + 1] !== a) countPieceCrack(shared, isSmall, area, a, pieceOf[p + 1]!);
      if (p + width < pieceOf.length && pieceOf[p + width] !== a) countPieceCrack(shared, isSmall, area, a, pieceOf[p + width]!);
    }
  }
  // Smallest pieces first (ties by index); a piece joins the final piece of its best neighbour.
  const order = [...small].sort((p, q) => size[p]! - size[q]! || p - q);
  const resolve = (k: number): number => {
    while (target[k] !== k) k = target[k]!;
    return k;
  };
  for (const k of order) {
    const m = shared.get(k);
    if (!m) continue;
    let best = -1;
    let bestCracks = 0;
    for (const [n, cracks] of m) {
      if (resolve(n) === k) continue;
      if (cracks > bestCracks || (cracks === bestCracks && n < best)) {
        best = n;
        bestCracks = cracks;
      }
    }
    if (best >= 0) {
      target[k] = resolve(best);
      size[target[k]!]! += size[k]!;
    }
  }
  for (let k = 0; k < target.length; k++) target[k] = resolve(k);
  return target;
}

/** One crack between pieces a and b, counted for whichever of them is small (same area only). */
function countPieceCrack(shared: Map<number, Map<number, number>>, isSmall: Uint8Array, area: readonly number[], a: number, b: number): void {
  if (b < 0 || b === a || area[b] !== area[a]) return;
  if (isSmall[a]) addCrack(shared, a, b);
  if (isSmall[b]) addCrack(shared, b, a);
}

function addCrack(shared: Map<number, Map<number, number>>, from: number, to: number): void {
  let m = shared.get(from);
  if (!m) shared.set(from, (m = new Map()));
  m.set(to, (m.get(to) ?? 0) + 1);
}

/**
 * Every entry of a union-find array whose parents never exceed their index (union keeps the
 * smaller root) set to its root: one pass in index order, each parent being resolved already.
 */
function resolveRoots(parent: Int32Array): void {
  for (let p = 0; p < parent.length; p++) parent[p] = parent[parent[p]!]!;
}

function union(parent: Int32Array, p: number, q: number): void {
  const a = findRoot(parent, p);
  const b = findRoot(parent, q);
  if (a < b) parent[b] = a;
  else if (b < a) parent[a] = b;
}
