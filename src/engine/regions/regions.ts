/**
 * Stage 4: regions and despeckling.
 * In: a label per pixel (-1 = transparent). Out: a region id per pixel (-1 = transparent),
 * each region a 4-connected set of one label, with its label and pixel area.
 * Despeckle (`processing.shapes.min_area_px`): regions smaller than the minimum merge into the
 * neighbouring region of the nearest colour (longest shared border breaks ties), smallest
 * first; a speck with only transparent neighbours is dropped. A speck never becomes a hole.
 * absorbCrumbs: the last pass, after the shading, for the 1–2-px crumbs its bands leave, the
 * faint dots (a tapering line's tip) of up to 4 px, and the steps that cut a 1-px rim into pieces.
 */

import { blendResidualSq, blendShare } from '../blend.js';
import { sortIndicesByKey } from '../order.js';
import type { TileMask } from '../profile/profile.js';

export interface Regions {
  readonly count: number;
  readonly regionOf: Int32Array;
  readonly labelOf: Int32Array;
  readonly area: Int32Array;
}

/**
 * Connected components of equal labels (4-connected, plus the diagonal pairs that `links` joins,
 * see diagonals.ts), by union-find over horizontal runs rather than pixels: flat art has long
 * runs, so the unions are few. Region ids follow raster order of each region's first pixel.
 * `overwrite`: the labels are the caller's to give up, and become the regions' regionOf (no
 * second whole-picture array; the labels are read into runs before any is written).
 */
export function findRegions(labels: Int32Array, width: number, height: number, links?: Uint8Array, overwrite = false): Regions {
  const runs = findRuns(labels, width, height);
  const parent = unionRuns(runs, width, height, links);
  // Roots are each set's first run, so numbering roots in run order is raster order.
  const runRegion = new Int32Array(runs.count);
  let count = 0;
  for (let k = 0; k < runs.count; k++) {
    if (runs.label[k]! < 0) runRegion[k] = -1;
    else runRegion[k] = parent[k] === k ? count++ : runRegion[parent[k]!]!;
  }
  const regionOf = overwrite ? labels : new Int32Array(labels.length);
  const labelOf = new Int32Array(count);
  const area = new Int32Array(count);
  for (let y = 0; y < height; y++) {
    for (let k = runs.rowStart[y]!; k < runs.rowStart[y + 1]!; k++) {
      const r = runRegion[k]!;
      const from = y * width + runs.x[k]!;
      const to = y * width + (k + 1 < runs.rowStart[y + 1]! ? runs.x[k + 1]! : width);
      // Most runs of art are short: a loop, where fill's call costs more than it writes.
      if (to - from < SHORT_RUN_PX) for (let i = from; i < to; i++) regionOf[i] = r;
      else regionOf.fill(r, from, to);
      if (r < 0) continue;
      labelOf[r] = runs.label[k]!;
      area[r]! += to - from;
    }
  }
  return { count, regionOf, labelOf, area };
}

/** Runs shorter than this are written pixel by pixel rather than by TypedArray.fill. */
const SHORT_RUN_PX = 16;

/** Maximal horizontal runs of one label: start x and label per run, runs of row y at rowStart[y]…. */
interface Runs {
  readonly count: number;
  readonly x: Int32Array;
  readonly label: Int32Array;
  readonly rowStart: Int32Array;
}

function findRuns(labels: Int32Array, width: number, height: number): Runs {
  let capacity = Math.max(16, height * 4);
  let x = new Int32Array(capacity);
  let label = new Int32Array(capacity);
  const rowStart = new Int32Array(height + 1);
  let count = 0;
  for (let y = 0; y < height; y++) {
    rowStart[y] = count;
    const row = y * width;
    let previous = NaN;
    for (let i = 0; i < width; i++) {
      const l = labels[row + i]!;
      if (l === previous) continue;
      previous = l;
      if (count === capacity) {
        capacity *= 2;
        const nx = new Int32Array(capacity);
        nx.set(x);
        x = nx;
        const nl = new Int32Array(capacity);
        nl.set(label);
        label = nl;
      }
      x[count] = i;
      label[count] = l;
      count++;
    }
  }
  rowStart[height] = count;
  return { count, x, label, rowStart };
}

/**
 * parent[k] ≤ k for every run, every set rooted at its smallest run, and fully resolved
 * (parent[k] is the root). Runs join the runs above they overlap (same label), and at a run's
 * ends the diagonal neighbour above when the vertex there is linked for that pair.
 */
function unionRuns(runs: Runs, width: number, height: number, links: Uint8Array | undefined): Int32Array {
  const parent = new Int32Array(runs.count);
  for (let k = 0; k < runs.count; k++) parent[k] = k;
  const { x, label, rowStart } = runs;
  for (let y = 1; y < height; y++) {
    const aboveEnd = rowStart[y]!;
    const rowEnd = rowStart[y + 1]!;
    let j = rowStart[y - 1]!;
    for (let k = aboveEnd; k < rowEnd; k++) {
      const l = label[k]!;
      if (l < 0) continue;
      const from = x[k]!;
      const to = k + 1 < rowEnd ? x[k + 1]! : width;
      // Runs above that end before this one starts are done for this row.
      while (j < aboveEnd && (j + 1 < aboveEnd ? x[j + 1]! : width) <= from) j++;
      // The run above ending exactly at `from` touches this run at the corner (from, y).
      if (links && from > 0 && j > rowStart[y - 1]! && label[j - 1] === l && links[y * (width + 1) + from] === 1) unionSets(parent, k, j - 1);
      let m = j;
      for (; m < aboveEnd && x[m]! < to; m++) if (label[m] === l) unionSets(parent, k, m);
      // The run above starting exactly at `to` touches this run at the corner (to, y).
      if (links && to < width && m < aboveEnd && x[m] === to && label[m] === l && links[y * (width + 1) + to] === 2) unionSets(parent, k, m);
    }
  }
  for (let k = 0; k < runs.count; k++) parent[k] = parent[parent[k]!]!; // parent ≤ k: one pass resolves
  return parent;
}

// Union-find helpers as plain functions, not closures inside the stages: a closure is a new
// function on every call, and V8 optimised such closures afresh for every picture.

/** Root of run k's set, halving the path on the way. */
function findSet(parent: Int32Array, k: number): number {
  while (parent[k] !== k) {
    parent[k] = parent[parent[k]!]!; // path halving
    k = parent[k]!;
  }
  return k;
}

/** Joins two sets; the smaller root becomes the root. */
function unionSets(parent: Int32Array, a: number, b: number): void {
  const ra = findSet(parent, a);
  const rb = findSet(parent, b);
  if (ra < rb) parent[rb] = ra;
  else if (rb < ra) parent[ra] = rb;
}

/**
 * A larger despeckle area for regions that start in flagged tiles: the photo inside a flat
 * picture (profile.ts photoTiles) loses its grain as a photo does, the art around it keeps
 * its small details.
 */
export interface AreaFloor {
  readonly tiles: TileMask;
  readonly minAreaPx: number;
}

/**
 * Merges regions smaller than `minAreaPx` (or, for a region whose first pixel lies in a tile of
 * `floor`, than floor.minAreaPx if larger) into their best neighbour; also regions smaller than
 * `crumbMaxAreaPx` that border two or more regions (edge crumbs; an island stays) — with
 * `crumbsInkward`, an edge crumb only into a neighbour no lighter than itself (ink on paper: a
 * hairline's pale pieces join its darker ones; none becomes paper and breaks the line). `labelLab` holds the Lab
 * colour of each label (3 floats per label) for choosing the nearest-colour neighbour.
 * `owned`: the regions are the caller's to give up: their regionOf is written over and becomes
 * the result's (the stage then holds one whole-picture array instead of three).
 */
export function despeckle(
  regions: Regions,
  width: number,
  height: number,
  minAreaPx: number,
  labelLab: Float64Array,
  links?: Uint8Array,
  floor?: AreaFloor,
  owned = false,
  crumbMaxAreaPx = 0,
  crumbsInkward = false,
): Regions {
  const { count, regionOf, labelOf } = regions;
  const floorArea = floor && floor.minAreaPx > minAreaPx ? floor.minAreaPx : 0;
  if ((minAreaPx <= 1 && floorArea <= 1 && crumbMaxAreaPx <= 1) || count === 0) return regions;
  // Each whole-picture loop lives in a helper of its own: V8 compiles a long function again for
  // each hot loop it reaches, and deoptimises on code after a loop that had not run yet.
  const minAreaOf = floorArea > 0 ? regionFloors(firstPixels(regionOf, count), width, minAreaPx, floor!.tiles, floorArea) : undefined;
  const merge = newSpeckMerge(regions, minAreaOf, minAreaPx, crumbMaxAreaPx);
  for (const r of smallestFirst(merge.isSmall, merge.area)) {
    const speckArea = minAreaOf ? minAreaOf[r]! : minAreaPx;
    if (findRegionRoot(merge.parent, r) !== r || merge.area[r]! >= Math.max(speckArea, crumbMaxAreaPx)) continue;
    merge.neighbourCount = tallySpeckNeighbours(merge, r, regionOf, width, height);
    // Above the speck area only an edge crumb goes: a sliver between two or more regions (the
    // anti-aliasing of their edge taken for a colour), not an island (a dot, an eye's highlight).
    const crumb = merge.area[r]! >= speckArea;
    if (crumb && merge.neighbourCount < 2) continue;
    const into = nearestNeighbour(merge, labelOf[r]!, labelOf, labelLab, crumb && crumbsInkward);
    // An inkward crumb with no darker neighbour stays (it is the ink).
    if (crumb && crumbsInkward && into < 0) continue;
    mergeInto(merge, r, into);
  }
  return findRegions(mergedLabels(regionOf, labelOf, merge.parent, owned ? regionOf : new Int32Array(regionOf.length)), width, height, links, true);
}

/** Regions after absorbCrumbs, and per new region the region it was (it has its pixels and those absorbed). */
export interface AbsorbedCrumbs {
  readonly regions: Regions;
  readonly fromRegion: Int32Array;
}

/**
 * The last crumb pass, after the smooth shading has cut its bands (so it does not change what the
 * shading finds): every region under `maxAreaPx` pixels that lies between two or more regions, or
 * inside one (a fill) but touching its own colour at a corner or within DOT_SHADE_DE of the fill's,
 * joins its nearest-colour neighbour (longest shared border breaks ties). A region that small is
 * traced smaller than a pixel's area (its sub-pixel edges sit inside it): a crumb left behind by an
 * edge, not a shape. A dot on its own (an eye's highlight) stays, and so does one with only
 * transparency around; given the `pixels`, a faint dot (faintDotInto) joins the region around
 * it. A rim's step under RIM_STEP_MAX_AREA_PX between pieces of one line beside the shading's bands
 * (labels from `firstBandLabel` on) joins the line first (rimStepInto), and a region that joins one piece joins every piece of that label it touches
 * (they are one region through it). An outline's fringe — a 1-px run between two fills whose
 * colour is a blend of theirs — joins the nearer fill (fringeInto), and an island of a shade
 * of every fill around it joins the nearest (shadeIslandInto). With `inkward` (line art traced as flat, see
 * despeckle), a region joins only a neighbour no lighter than itself, and none of those four rules
 * applies (a
 * hairline's dashes and dither stay: stroke-hairline-pavement lost 0.0027 SSIM). Region ids keep raster order of each region's first
 * pixel; `labelLab` holds 3 floats (Lab) per label. Returns the regions themselves when none is
 * absorbed.
 */
export function absorbCrumbs(regions: Regions, width: number, height: number, maxAreaPx: number, labelLab: Float64Array, inkward = false, pixels?: DotPixels, firstBandLabel = Infinity): AbsorbedCrumbs {
  const { count, regionOf } = regions;
  const merge = newSpeckMerge(regions, undefined, maxAreaPx, RIM_STEP_MAX_AREA_PX);
  const crumbAreaPx = Math.max(maxAreaPx, BLEND_CRUMB_AREA_PX);
  let absorbed = 0;
  for (const r of smallestFirst(merge.isSmall, merge.area)) {
    if (findRegionRoot(merge.parent, r) !== r || merge.area[r]! >= RIM_STEP_MAX_AREA_PX) continue;
    merge.neighbourCount = tallySpeckNeighbours(merge, r, regionOf, width, height);
    const tiny = merge.area[r]! < maxAreaPx;
    // A rim's step keeps the rim whole before a blend crumb joins the fill beside it (not in line
    // art traced as flat: there the steps are a hairline's dither and dashes, and its pieces stay).
    let into = tiny || inkward ? -1 : rimStepInto(merge, r, regions.labelOf, labelLab, firstBandLabel);
    if (into < 0 && merge.area[r]! < crumbAreaPx) into = absorbedInto(merge, r, tiny, regions, crumbAreaPx, width, height, labelLab, inkward);
    if (into < 0 && !inkward) into = fringeInto(merge, r, regions.labelOf, labelLab, width);
    if (into < 0 && !inkward) into = shadeIslandInto(merge, r, regions.labelOf, labelLab);
    if (into < 0 && pixels) into = faintDotInto(merge, r, regions.labelOf, labelLab, inkward, pixels);
    if (into < 0) continue;
    mergeInto(merge, r, into);
    absorbed += 1 + (inkward ? 0 : joinedPiecesOfLabel(merge, into, regions.labelOf));
  }
  if (absorbed === 0) return { regions, fromRegion: Int32Array.from({ length: count }, (_, r) => r) };
  return renumberedRoots(regions, merge.parent);
}

/**
 * The region root r (its neighbours tallied) joins, or −1: between two or more regions, its
 * nearest-colour neighbour when r is `tiny`, or when its colour is a blend of two of them (an
 * edge's anti-aliasing) and that neighbour is a fill; inside one, that one when r is tiny and a
 * shade or a cut-off piece (below).
 */
function absorbedInto(merge: SpeckMerge, r: number, tiny: boolean, regions: Regions, crumbAreaPx: number, width: number, height: number, labelLab: Float64Array, inkward: boolean): number {
  const { labelOf } = regions;
  if (merge.neighbourCount === 0) return -1;
  if (merge.neighbourCount > 1) {
    if (tiny) return nearestNeighbour(merge, labelOf[r]!, labelOf, labelLab, inkward);
    if (!blendsNeighbours(merge, labelOf[r]!, labelOf, labelLab)) return -1;
    // A blend joins a fill, not a line's piece (a dithered line keeps its texture).
    const nearest = nearestNeighbour(merge, labelOf[r]!, labelOf, labelLab, inkward);
    return nearest >= 0 && merge.area[nearest]! >= DOT_FILL_MIN_PX ? nearest : -1;
  }
  if (!tiny) return -1;
  const into = merge.neighbours[0]!;
  if (inkward && lighterThan(labelLab, labelOf[into]!, labelOf[r]!)) return -1;
  // A dot inside one region is a feature (an eye's highlight) unless it is a shade of the colour
  // around it (a step of a shaded band's rim) or, inside a fill, touches its own colour at a
  // corner (a piece of that colour's edge cut off at a diagonal step; inside a line it is a gap
  // of the line's dither, and the line keeps it).
  const shade = isShadeOf(labelLab, labelOf[r]!, labelOf[into]!);
  const cutOff = merge.area[into]! >= DOT_FILL_MIN_PX && touchesOwnLabelDiagonally(merge, r, regions, crumbAreaPx, width, height);
  return shade || cutOff ? into : -1;
}

/**
 * A rim's step: a region of under RIM_STEP_MAX_AREA_PX between two or more pieces of one other
 * label (a 1-px outline's pixels where the line steps from one pixel column or row to the next,
 * half covered on either side, or where what lies under a translucent rim changes), whose colour
 * is a shade of that label's (within RIM_STEP_MAX_DE) or a blend of it and another neighbour's
 * (the line partly covering what lies beside it). Labelled apart, the steps cut the rim into a
 * piece per step (a folder's 1-px side rim came back as 16 pieces of 9–16 px²); joined, the step
 * and the pieces it touches are one region (joinedPiecesOfLabel). Only beside a band of the
 * smooth shading (labels from `firstBandLabel` on): elsewhere such pieces are also a line drawn as
 * a dither of a grey and its blend with the paper, which keeps its texture (spain-provinces lost
 * 0.0017 SSIM). Not between two fills of that
 * label (DOT_FILL_MIN_PX): there it is a piece of a hairline between them (a white line between
 * two black wedges). Returns the piece with the longest shared border, or −1.
 */
function rimStepInto(merge: SpeckMerge, r: number, labelOf: Int32Array, labelLab: Float64Array, firstBandLabel: number): number {
  const { neighbours, neighbourCount, sharedLength } = merge;
  const own = labelOf[r]!;
  if (!touchesBand(merge, labelOf, firstBandLabel)) return -1;
  for (let i = 0; i < neighbourCount; i++) {
    const line = labelOf[neighbours[i]!]!;
    if (line === own || !isFirstOfLabel(merge, i, labelOf)) continue;
    let longest = -1;
    let pieces = 0;
    let fills = 0;
    for (let k = i; k < neighbourCount; k++) {
      const q = neighbours[k]!;
      if (labelOf[q] !== line) continue;
      pieces++;
      if (merge.area[q]! >= DOT_FILL_MIN_PX) fills++;
      if (longest < 0 || sharedLength[q]! > sharedLength[longest]!) longest = q;
    }
    // Two fills of one colour on either side of it: a hairline between them, not a rim's step.
    if (pieces >= 2 && fills < 2 && isRimStep(merge, own, line, labelOf, labelLab)) return longest;
  }
  return -1;
}

/**
 * After a region joined root `into`, the other tallied neighbours of into's label touch it through
 * that region: they are one region now and join it too (a crumb or a rim's step between two pieces
 * of one line reconnects them). Returns how many joined.
 */
function joinedPiecesOfLabel(merge: SpeckMerge, into: number, labelOf: Int32Array): number {
  let joined = 0;
  for (let k = 0; k < merge.neighbourCount; k++) {
    const q = merge.neighbours[k]!;
    if (q === into || labelOf[q] !== labelOf[into] || findRegionRoot(merge.parent, q) !== q) continue;
    mergeInto(merge, q, into);
    joined++;
  }
  return joined;
}

/**
 * An outline's fringe: a run one pixel wide of under RIM_STEP_MAX_AREA_PX between two fills
 * (DOT_FILL_MIN_PX) whose colour is a blend of theirs (isLabBlend) — the anti-aliasing along a
 * slanted outline beside the paper, one coverage level per step of the line. Where those levels
 * are exactly colours of the palette (greys are all blends of white and a darker grey: a grey
 * outline's fringe matches the greys of the art's other fills) the label stage keeps them, and
 * each step became a piece (a folder's side: 28 pieces of 6–14 px). It joins the nearer fill
 * (Lab), as a blend crumb does; the outline's edge then lies where the coverage puts it.
 * Returns that fill, or −1.
 */
function fringeInto(merge: SpeckMerge, r: number, labelOf: Int32Array, labelLab: Float64Array, width: number): number {
  const { neighbours, neighbourCount, area } = merge;
  if (neighbourCount < 2 || !isOnePixelWide(merge, r, width)) return -1;
  const own = labelOf[r]!;
  let best = -1;
  for (let i = 0; i < neighbourCount; i++) {
    const a = neighbours[i]!;
    if (area[a]! < DOT_FILL_MIN_PX) continue;
    for (let j = i + 1; j < neighbourCount; j++) {
      const b = neighbours[j]!;
      if (area[b]! < DOT_FILL_MIN_PX || !isLabBlend(labelLab, own, labelOf[a]!, labelOf[b]!)) continue;
      const nearer = labDistanceSq(labelLab, own, labelOf[a]!) <= labDistanceSq(labelLab, own, labelOf[b]!) ? a : b;
      if (best < 0 || labDistanceSq(labelLab, own, labelOf[nearer]!) < labDistanceSq(labelLab, own, labelOf[best]!)) best = nearer;
    }
  }
  return best;
}

/**
 * A shade's island: a region of under RIM_STEP_MAX_AREA_PX whose every neighbour is a fill
 * (DOT_FILL_MIN_PX) it is a shade of (isShadeOf) — where a soft ramp the shading found no area for
 * (a noto emoji's hair lit at its rim) crosses between two or three palette shades, the borders
 * wander and leave islands of one in another (a hair's 4–15-px dashes, 3–5 ΔE76 from the colours
 * around them). Joins the nearest of them, or −1.
 */
function shadeIslandInto(merge: SpeckMerge, r: number, labelOf: Int32Array, labelLab: Float64Array): number {
  const { neighbours, neighbourCount, area } = merge;
  if (neighbourCount === 0) return -1;
  for (let k = 0; k < neighbourCount; k++) {
    const q = neighbours[k]!;
    if (area[q]! < DOT_FILL_MIN_PX || !isShadeOf(labelLab, labelOf[r]!, labelOf[q]!)) return -1;
  }
  return nearestNeighbour(merge, labelOf[r]!, labelOf, labelLab);
}

/** Whether label `own` is a shade of label `around`: within DOT_SHADE_DE (ΔE76). */
function isShadeOf(labelLab: Float64Array, own: number, around: number): boolean {
  return labDistanceSq(labelLab, own, around) < DOT_SHADE_DE * DOT_SHADE_DE;
}

/** Whether root r's pixels (all its members') lie in one column or one row. */
function isOnePixelWide(merge: SpeckMerge, r: number, width: number): boolean {
  const first = merge.pixels[merge.start[r]!]!;
  const x0 = first % width;
  const y0 = (first - x0) / width;
  let column = true;
  let row = true;
  for (let m = r; m >= 0; m = merge.nextMember[m]!) {
    for (let p = merge.start[m]!; p < merge.start[m + 1]!; p++) {
      const i = merge.pixels[p]!;
      if (i % width !== x0) column = false;
      if (Math.floor(i / width) !== y0) row = false;
    }
  }
  return column || row;
}

/** Whether a tallied neighbour is a band of the smooth shading (its label from firstBandLabel on). */
function touchesBand(merge: SpeckMerge, labelOf: Int32Array, firstBandLabel: number): boolean {
  for (let k = 0; k < merge.neighbourCount; k++) if (labelOf[merge.neighbours[k]!]! >= firstBandLabel) return true;
  return false;
}

/** Whether tallied neighbour i is the first with its label. */
function isFirstOfLabel(merge: SpeckMerge, i: number, labelOf: Int32Array): boolean {
  const label = labelOf[merge.neighbours[i]!]!;
  for (let k = 0; k < i; k++) if (labelOf[merge.neighbours[k]!] === label) return false;
  return true;
}

/** Whether label `own` is a shade of label `line` (RIM_STEP_MAX_DE) or a blend of it and a tallied neighbour's label. */
function isRimStep(merge: SpeckMerge, own: number, line: number, labelOf: Int32Array, labelLab: Float64Array): boolean {
  if (labDistanceSq(labelLab, own, line) < RIM_STEP_MAX_DE * RIM_STEP_MAX_DE) return true;
  for (let k = 0; k < merge.neighbourCount; k++) {
    const other = labelOf[merge.neighbours[k]!]!;
    if (other !== line && other !== own && isLabBlend(labelLab, own, line, other)) return true;
  }
  return false;
}

/** Whether label a's L* is above label b's (3 floats of Lab per label). */
function lighterThan(labelLab: Float64Array, a: number, b: number): boolean {
  return labelLab[a * 3]! > labelLab[b * 3]!;
}

/** The picture's pixels (RGBA) and each label's colour (r, g, b), for the coverage of a dot's pixels. */
export interface DotPixels {
  readonly data: Uint8Array | Uint8ClampedArray;
  readonly labelColor: Float64Array;
}

/**
 * A region of at most this area (px: a 2×2 square) inside one other is a dot: a faint one joins it
 * (below), the others are written as their pixels where their sub-pixel edges would make them
 * smaller (jobs.ts fitOneChain).
 */
export const DOT_MAX_AREA_PX = 4;
/**
 * A dot whose pixels are on average less than this share its own colour (the rest the colour
 * around it) is the faint tip of a tapering line or a speck of anti-aliasing, and joins the region
 * around it: fitted to its coverage it was a shape under a pixel's area, and written as its pixels
 * it would be further from them (each pixel off by 1 − share) than none (off by the share). At 0.75
 * clipart-acquila's feather tips went too (SSIM −0.0023 against −0.0011).
 */
const DOT_MIN_COVERAGE = 0.5;
/** Two colours closer than this (RGB units²) have no coverage between them. */
const DOT_MIN_SPAN_SQ = 1;

/**
 * The region root r (its neighbours tallied) joins as a faint dot (DOT_MIN_COVERAGE): the one
 * region around it, or −1 (no dot, not faint, or with `inkward` a lighter region around it).
 */
function faintDotInto(merge: SpeckMerge, r: number, labelOf: Int32Array, labelLab: Float64Array, inkward: boolean, pixels: DotPixels): number {
  if (merge.neighbourCount !== 1 || merge.area[r]! > DOT_MAX_AREA_PX) return -1;
  const around = merge.neighbours[0]!;
  if (inkward && lighterThan(labelLab, labelOf[around]!, labelOf[r]!)) return -1;
  return dotCoverage(merge, r, labelOf[r]!, labelOf[around]!, pixels) < DOT_MIN_COVERAGE * merge.area[r]! ? around : -1;
}

/** The summed share (0–1 each) of label `own`'s colour in root r's pixels, blended with label `around`'s. */
function dotCoverage(merge: SpeckMerge, r: number, own: number, around: number, pixels: DotPixels): number {
  const { data, labelColor } = pixels;
  let covered = 0;
  for (let m = r; m >= 0; m = merge.nextMember[m]!) {
    for (let p = merge.start[m]!; p < merge.start[m + 1]!; p++) covered += dotPixelShare(data, merge.pixels[p]! * 4, labelColor, own, around);
  }
  return covered;
}

/**
 * The share (0–1) of colour `own` in the pixel at byte offset o, as a blend of colours `own` and
 * `around` (r, g, b each in `colors`): how much of a dot's pixel its colour covers. Two colours
 * without a span between them cover it fully (one colour with its neighbour).
 */
export function dotPixelShare(data: Uint8Array | Uint8ClampedArray, o: number, colors: Float64Array, own: number, around: number): number {
  const a = own * 3;
  const b = around * 3;
  const t = blendShare(data[o]!, data[o + 1]!, data[o + 2]!, colors[a]!, colors[a + 1]!, colors[a + 2]!, colors[b]!, colors[b + 1]!, colors[b + 2]!, DOT_MIN_SPAN_SQ);
  return Number.isNaN(t) ? 1 : Math.max(0, Math.min(1, t));
}

/**
 * Regions under this area (px) between two or more others whose colour is a blend of two of them
 * are an edge's anti-aliasing (the grey beads at a dashed outline's dash tips), and join too.
 */
const BLEND_CRUMB_AREA_PX = 8;
/**
 * A rim's step (rimStepInto) is under this area (px): the steps of the validation set's 1-px rims
 * are 4–15 px (a line turned 2–8° from the lattice steps every 7–28 px, its half-covered pixels
 * in two columns).
 */
const RIM_STEP_MAX_AREA_PX = 16;
/**
 * … and within this (ΔE76) of the rim's colour, unless a blend of it and a neighbour's: a
 * translucent outline over the next band of a gradient (9–12 in the validation set), or a rim's
 * colour drifting between two palette entries (12). A colour of its own on a line is further.
 */
const RIM_STEP_MAX_DE = 16;
/** A blend: its share of either colour at least this … */
const BLEND_CRUMB_MIN_SHARE = 0.1;
/** … and its colour at most this far (ΔE76) from the mix. */
const BLEND_CRUMB_MAX_MISS_DE = 6;

/** Whether label `own`'s colour is a blend of two of the tallied neighbours' (in Lab). */
function blendsNeighbours(merge: SpeckMerge, own: number, labelOf: Int32Array, labelLab: Float64Array): boolean {
  const { neighbours, neighbourCount } = merge;
  for (let i = 0; i < neighbourCount; i++) {
    for (let j = i + 1; j < neighbourCount; j++) {
      if (isLabBlend(labelLab, own, labelOf[neighbours[i]!]!, labelOf[neighbours[j]!]!)) return true;
    }
  }
  return false;
}

/**
 * Whether label `own`'s colour is a blend of labels a's and b's (3 floats of Lab per label): at
 * least BLEND_CRUMB_MIN_SHARE of either, within BLEND_CRUMB_MAX_MISS_DE of the mix.
 */
function isLabBlend(labelLab: Float64Array, own: number, a: number, b: number): boolean {
  const o = own * 3;
  const p = a * 3;
  const q = b * 3;
  const t = blendShare(labelLab[o]!, labelLab[o + 1]!, labelLab[o + 2]!, labelLab[p]!, labelLab[p + 1]!, labelLab[p + 2]!, labelLab[q]!, labelLab[q + 1]!, labelLab[q + 2]!, 4 * BLEND_CRUMB_MAX_MISS_DE * BLEND_CRUMB_MAX_MISS_DE);
  if (!(t >= BLEND_CRUMB_MIN_SHARE && t <= 1 - BLEND_CRUMB_MIN_SHARE)) return false;
  const miss = blendResidualSq(labelLab[o]!, labelLab[o + 1]!, labelLab[o + 2]!, labelLab[p]!, labelLab[p + 1]!, labelLab[p + 2]!, labelLab[q]!, labelLab[q + 1]!, labelLab[q + 2]!, t);
  return miss <= BLEND_CRUMB_MAX_MISS_DE * BLEND_CRUMB_MAX_MISS_DE;
}

/**
 * A dot closer than this (ΔE76) to the colour around it is a shade of it (a band rim's step: 3–7
 * in the validation set), not a feature; a line drawn as a dither of two greys 8.3 apart keeps its
 * texture.
 */
const DOT_SHADE_DE = 8;

/** Squared Lab distance between labels a and b (3 floats per label in labelLab). */
function labDistanceSq(labelLab: Float64Array, a: number, b: number): number {
  return (labelLab[a * 3]! - labelLab[b * 3]!) ** 2 + (labelLab[a * 3 + 1]! - labelLab[b * 3 + 1]!) ** 2 + (labelLab[a * 3 + 2]! - labelLab[b * 3 + 2]!) ** 2;
}

/**
 * A region this large (px) around a dot is a fill; a smaller one a line's piece (the dithered grey
 * lines of spain-provinces are 12–56 px pieces: their white gaps filled, SSIM fell by 0.0016).
 */
const DOT_FILL_MIN_PX = 64;

/**
 * Whether root r's pixels touch, at a corner, a region of r's label that is no crumb itself (roots
 * as merged so far): dots of a dither touch one another so, and keep the texture.
 */
function touchesOwnLabelDiagonally(merge: SpeckMerge, r: number, regions: Regions, crumbAreaPx: number, width: number, height: number): boolean {
  const { parent, nextMember, start, pixels } = merge;
  const { regionOf, labelOf } = regions;
  const label = labelOf[r]!;
  for (let m = r; m >= 0; m = nextMember[m]!) {
    for (let p = start[m]!; p < start[m + 1]!; p++) {
      const i = pixels[p]!;
      const x = i % width;
      const y = (i - x) / width;
      for (const [dx, dy] of CORNERS) {
        if (x + dx < 0 || x + dx >= width || y + dy < 0 || y + dy >= height) continue;
        const q = regionOf[i + dy * width + dx]!;
        if (q < 0) continue;
        const root = findRegionRoot(parent, q);
        if (root >= 0 && root !== r && labelOf[root] === label && regions.area[root]! >= crumbAreaPx) return true;
      }
    }
  }
  return false;
}

const CORNERS = [
  [-1, -1],
  [1, -1],
  [-1, 1],
  [1, 1],
] as const;

/** Each pixel's region replaced by its root, roots numbered in raster order of their first pixel. */
function renumberedRoots(regions: Regions, parent: Int32Array): AbsorbedCrumbs {
  const { count, regionOf, labelOf } = regions;
  const idOfRoot = new Int32Array(count).fill(-1);
  const newRegionOf = new Int32Array(regionOf.length);
  const fromRegion: number[] = [];
  const newArea: number[] = [];
  for (let i = 0; i < regionOf.length; i++) {
    const r = regionOf[i]!;
    if (r < 0) {
      newRegionOf[i] = -1;
      continue;
    }
    const root = findRegionRoot(parent, r);
    let id = idOfRoot[root]!;
    if (id < 0) {
      id = idOfRoot[root] = fromRegion.length;
      fromRegion.push(root);
      newArea.push(0);
    }
    newRegionOf[i] = id;
    newArea[id]!++;
  }
  const newLabelOf = Int32Array.from(fromRegion, (r) => labelOf[r]!);
  return { regions: { count: fromRegion.length, regionOf: newRegionOf, labelOf: newLabelOf, area: Int32Array.from(newArea) }, fromRegion: Int32Array.from(fromRegion) };
}

/**
 * Despeckle's state: the regions' areas as merged so far and the union-find of merges; the small
 * regions' pixels (only the specks' pixels are ever scanned: a region merged into a speck was a
 * speck itself, and the large regions, most of the picture, are not listed); and the tally of
 * the current speck's neighbouring roots.
 */
interface SpeckMerge {
  readonly area: Int32Array;
  /** The region each was merged into (itself: a root; −1: dropped). */
  readonly parent: Int32Array;
  /** Members of a merged region form a linked list so its whole pixel set can be scanned. */
  readonly nextMember: Int32Array;
  readonly lastMember: Int32Array;
  readonly isSmall: Uint8Array;
  /** Region r's pixels are pixels[start[r] … start[r + 1]) (small regions only). */
  readonly start: Int32Array;
  readonly pixels: Int32Array;
  /**
   * Border length shared with each neighbouring root, and those roots in first-seen order (a
   * typed-array tally instead of a Map: it visits every pixel of every small region).
   */
  readonly sharedLength: Int32Array;
  readonly neighbours: Int32Array;
  neighbourCount: number;
}

function newSpeckMerge(regions: Regions, minAreaOf: Float64Array | undefined, minAreaPx: number, crumbMaxAreaPx: number): SpeckMerge {
  const { count, regionOf } = regions;
  const area = Int32Array.from(regions.area);
  const isSmall = new Uint8Array(count);
  for (let r = 0; r < count; r++) if (area[r]! < Math.max(minAreaOf ? minAreaOf[r]! : minAreaPx, crumbMaxAreaPx)) isSmall[r] = 1;
  const { start, pixels } = pixelsByRegion(regionOf, count, isSmall);
  const parent = new Int32Array(count);
  for (let r = 0; r < count; r++) parent[r] = r;
  const lastMember = new Int32Array(count);
  for (let r = 0; r < count; r++) lastMember[r] = r;
  const nextMember = new Int32Array(count).fill(-1);
  return { area, parent, nextMember, lastMember, isSmall, start, pixels, sharedLength: new Int32Array(count), neighbours: new Int32Array(count), neighbourCount: 0 };
}

/** The small regions, smallest first (ties by index). */
function smallestFirst(isSmall: Uint8Array, area: Int32Array): number[] {
  const small: number[] = [];
  for (let r = 0; r < isSmall.length; r++) if (isSmall[r] === 1) small.push(r);
  sortIndicesByKey(small, area, false);
  return small;
}

/**
 * The roots bordering root r's pixels (all its members'), with the border length shared with
 * each, into merge.neighbours and merge.sharedLength (the last speck's tally cleared first);
 * returns their count.
 */
function tallySpeckNeighbours(merge: SpeckMerge, r: number, regionOf: Int32Array, width: number, height: number): number {
  const { parent, nextMember, start, pixels, sharedLength, neighbours } = merge;
  for (let k = 0; k < merge.neighbourCount; k++) sharedLength[neighbours[k]!] = 0;
  let neighbourCount = 0;
  for (let m = r; m >= 0; m = nextMember[m]!) {
    for (let p = start[m]!; p < start[m + 1]!; p++) {
      const i = pixels[p]!;
      const x = i % width;
      const y = (i - x) / width;
      if (x > 0) neighbourCount = tallyNeighbour(regionOf[i - 1]!, parent, r, sharedLength, neighbours, neighbourCount);
      if (x < width - 1) neighbourCount = tallyNeighbour(regionOf[i + 1]!, parent, r, sharedLength, neighbours, neighbourCount);
      if (y > 0) neighbourCount = tallyNeighbour(regionOf[i - width]!, parent, r, sharedLength, neighbours, neighbourCount);
      if (y < height - 1) neighbourCount = tallyNeighbour(regionOf[i + width]!, parent, r, sharedLength, neighbours, neighbourCount);
    }
  }
  return neighbourCount;
}

/**
 * The tallied neighbour nearest in Lab to label `own` (ties within 1e-9: the longest shared
 * border, then the lowest index) — with `noLighter`, among those whose L* is not above its own —
 * or −1 when there is none.
 */
function nearestNeighbour(merge: SpeckMerge, own: number, labelOf: Int32Array, labelLab: Float64Array, noLighter = false): number {
  const { sharedLength, neighbours, neighbourCount } = merge;
  let best = -1;
  let bestDistance = Infinity;
  let bestShared = -1;
  for (let k = 0; k < neighbourCount; k++) {
    const neighbour = neighbours[k]!;
    const length = sharedLength[neighbour]!;
    const l = labelOf[neighbour]!;
    if (noLighter && labelLab[l * 3]! > labelLab[own * 3]!) continue;
    const d =
      (labelLab[own * 3]! - labelLab[l * 3]!) ** 2 +
      (labelLab[own * 3 + 1]! - labelLab[l * 3 + 1]!) ** 2 +
      (labelLab[own * 3 + 2]! - labelLab[l * 3 + 2]!) ** 2;
    if (d < bestDistance - 1e-9 || (Math.abs(d - bestDistance) <= 1e-9 && (length > bestShared || (length === bestShared && neighbour < best)))) {
      best = neighbour;
      bestDistance = d;
      bestShared = length;
    }
  }
  return best;
}

/** Merges root r into root best (its area and members), or drops it when best < 0 (only transparency around it). */
function mergeInto(merge: SpeckMerge, r: number, best: number): void {
  const { parent, area, nextMember, lastMember } = merge;
  if (best < 0) {
    parent[r] = -1;
    return;
  }
  parent[r] = best;
  area[best]! += area[r]!;
  nextMember[lastMember[best]!] = r;
  lastMember[best] = lastMember[r]!;
}

/** Each region's first pixel in raster order (−1 for a region without pixels). */
function firstPixels(regionOf: Int32Array, count: number): Int32Array {
  const first = new Int32Array(count).fill(-1);
  for (let i = 0; i < regionOf.length; i++) {
    const r = regionOf[i]!;
    if (r >= 0 && first[r]! < 0) first[r] = i;
  }
  return first;
}

/** Each region's despeckle area: the floor's when its first pixel lies in a flagged tile. */
function regionFloors(first: Int32Array, width: number, minAreaPx: number, tiles: TileMask, floorArea: number): Float64Array {
  const count = first.length;
  const out = new Float64Array(count).fill(minAreaPx);
  for (let r = 0; r < count; r++) {
    const i = first[r]!;
    if (i < 0) continue;
    const x = i % width;
    const y = (i - x) / width;
    if (tiles.set[Math.floor(y / tiles.tilePx) * tiles.columns + Math.floor(x / tiles.tilePx)] === 1) out[r] = floorArea;
  }
  return out;
}

/**
 * Pixels of the regions marked in `listed`, grouped by region (a counting sort): region r's pixels
 * are pixels[start[r] … start[r + 1]), in raster order (none for a region not listed).
 */
export function pixelsByRegion(regionOf: Int32Array, count: number, listed: Uint8Array): { start: Int32Array; pixels: Int32Array } {
  const start = new Int32Array(count + 1);
  for (let i = 0; i < regionOf.length; i++) {
    const r = regionOf[i]!;
    if (r >= 0 && listed[r] === 1) start[r + 1]!++;
  }
  for (let r = 0; r < count; r++) start[r + 1]! += start[r]!;
  const pixels = new Int32Array(start[count]!);
  const fillPos = start.slice(0, count);
  for (let i = 0; i < regionOf.length; i++) {
    const r = regionOf[i]!;
    if (r >= 0 && listed[r] === 1) pixels[fillPos[r]!++] = i;
  }
  return { start, pixels };
}

/**
 * Each pixel's label after the merges, into `labels`: its region's root's label (−1 transparent or
 * dropped). `labels` may be `regionOf` itself (each pixel is read before it is written).
 */
function mergedLabels(regionOf: Int32Array, labelOf: Int32Array, parent: Int32Array, labels: Int32Array): Int32Array {
  for (let i = 0; i < regionOf.length; i++) {
    const r = regionOf[i]!;
    const root = r < 0 ? -1 : findRegionRoot(parent, r);
    labels[i] = root < 0 ? -1 : labelOf[root]!;
  }
  return labels;
}

/** Root of region r after the merges so far (parent −1: dropped), compressing as it goes. */
function findRegionRoot(parent: Int32Array, r: number): number {
  while (parent[r] !== r && parent[r]! >= 0) {
    const p = parent[r]!;
    if (parent[p] !== p && parent[p]! >= 0) parent[r] = parent[p]!;
    r = parent[r]!;
  }
  return parent[r]! < 0 ? -1 : r;
}

/**
 * Counts one pixel of border between the region being merged (`current`) and the region `q`
 * across it: adds to the shared length of q's root, listing the root when first seen. Returns
 * the new number of listed roots.
 */
function tallyNeighbour(q: number, parent: Int32Array, current: number, sharedLength: Int32Array, neighbours: Int32Array, neighbourCount: number): number {
  if (q < 0) return neighbourCount;
  const root = findRegionRoot(parent, q);
  if (root < 0 || root === current) return neighbourCount;
  if (sharedLength[root]++ === 0) neighbours[neighbourCount++] = root;
  return neighbourCount;
}
