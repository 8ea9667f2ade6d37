/**
 * Stage 4b: smooth shading — find the smoothly shaded areas.
 * In: RGBA pixels, the regions after despeckling and each region's observed colour. Out: the
 * areas (each a group of regions the palette had cut into shades, with the linear, radial or
 * elliptical gradient fitted to its pixels) and the edge specks beside them that join another
 * region. shaded-regions.ts turns them into new regions: one per area with the extension
 * `tracelab.gradients`, a few clean bands per area without it.
 *
 * Groups of softly joined regions (smooth-areas.ts) are fitted (ramp-geometry.ts, ramp-fit.ts);
 * one that is not one gradient is split (smooth-split.ts) and its parts tried in turn; with
 * `tracelab.gradients`, in art, a gradient lying under another that soft seams join to it is first
 * peeled out of the group (fitPeeled). An area is kept only when its gradient explains the pixels
 * at least about as well as the flat shades did (ACCEPT_RATIO), its colours span at least MIN_SPAN_DE, the shades did not already match their
 * pixels (FLAT_FLOOR) and its ramp has no jump (an edge): flat art has no such areas and comes
 * out exactly as without this stage. With `tracelab.gradients`, a photo's smooth field that is
 * not one gradient (a storm sky) has its large shades fitted one by one (shadePieces), neighbours
 * merged while one ramp explains them, and every piece refitted to meet the picture at its seams
 * (seam-fit.ts). Pieces of one gradient share it; specks beside an area join
 * it or, as edge blends, the side that covers most of them.
 */
import { blendResidualSq, blendShare } from '../blend.js';
import { rgbToLab } from '../color.js';
import { hypot2, hypot3 } from '../length.js';
import { MAX_STOPS, rampColorAt, rampError, rampFor, rampStops, toGradient, type FittedRamp } from './ramp-fit.js';
import { findGeometry, SEARCH_SAMPLES } from './ramp-geometry.js';
import { emptySamples, geometryT, joinSamples, lastStopT, RampContext, stopChannel, stopCount, stopT, thinned, type RampSamples } from './ramp-samples.js';
import type { Regions } from '../regions/regions.js';
import { findRoot, groupPixels, isSoftPair, regionPairs, softGroups, type GroupPixels, type RegionPairs } from './smooth-areas.js';
import { fitSeams } from './seam-fit.js';
import { splitSmooth } from './smooth-split.js';
import type { Gradient, Rgba } from '../types.js';
import type { TraceScratch } from '../scratch.js';

/**
 * A gradient must leave at most this share of the flat shades' mean error: a smooth ramp cut into
 * shades loses most of its error to a gradient (an 8-bit render: 6 → 0.5 units; JPEG'd: 7 → 2),
 * noise on a flat colour (paper grain, a scan) none — there the two are alike.
 */
const ACCEPT_RATIO = 0.85;

/**
 * A group fitted without the gate (fitWithoutFlat) must explain its pixels clearly better: at most
 * this share of the flat shades' error. With ACCEPT_RATIO's margin alone, ramps of 7 stops and
 * more that halve no error replaced bands on a speaker's rim (gradient-tango-audio-volume-high:
 * SSIM −0.0034); 0.5 found fewer gradients, all of them also found at 0.7.
 */
const UNGATED_RATIO = 0.7;

/** Colours of an area must span at least this (ΔE76, first stop to the furthest): less is flat. */
const MIN_SPAN_DE = 5;

/**
 * Shades that already match their pixels within this (mean, sRGB units) are flat colours: a
 * gradient would add nothing (two flat colours with a step between them fit a ramp too).
 */
const FLAT_FLOOR = 1;

/**
 * A ramp that changes faster than this (sRGB units per px) by more than STEP_JUMP between two
 * stops has an edge in it, not shading.
 */
const MAX_RAMP_SLOPE = 12;

const STEP_JUMP = 6;

/** Groups whose shades span less than this share of MIN_SPAN_DE are not fitted at all. */
const SHADE_SPAN_SHARE = 0.8;
/** Interior pixels an area needs to be fitted at all … */
const MIN_AREA_SAMPLES = 40;

/** … and in a photo, this share of the picture's pixels. */
const PHOTO_MIN_SHARE = 0.01;

/** A failed group is split only when it has this many times an area's minimum of pixels. */
const SPLIT_MIN_SHARE_OF_AREA = 2;

/**
 * A group is searched for a gradient only when its first guesses already come within this many
 * times its shades' error (RMS against mean, plus GATE_FLOOR sRGB units): a textured group is
 * left before the searches that cost most of this stage's time.
 */
const GATE_RATIO = 2;

const GATE_FLOOR = 2;

/** … and never more than this (sRGB units): a field that noisy is not one smooth shading. */
const GATE_MAX = 10;

/** Samples one fit looks at, at most (larger areas are sampled on a regular stride). */
const MAX_SAMPLES = 5000;

/** Distance (px) between the pixels of a colour slope (a central difference over 2 × this). */
const SLOPE_REACH = 2;

/** One smoothly shaded area. */
export interface SmoothArea {
  /** Regions (of the input Regions) it joins, ascending. */
  readonly members: readonly number[];
  readonly ramp: FittedRamp;
  readonly gradient: Gradient;
  /** Mean colour of its pixels. */
  readonly mean: Rgba;
}

export interface ShadingInput {
  readonly data: Uint8Array | Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
  readonly regions: Regions;
  /** Observed colour per region: r, g, b. */
  readonly regionColor: Float64Array;
  /**
   * A photo: its smooth areas that matter are skies, walls, skin — large; the many small shaded
   * blobs of its texture are left to the shades (PHOTO_MIN_SHARE).
   */
  readonly photo: boolean;
  /**
   * `tracelab.gradients`: a photo's smooth field that is not one gradient becomes gradient pieces
   * (shadePieces); without it the areas found are the same either way.
   */
  readonly gradients?: boolean;
}

/**
 * The smoothly shaded areas of the picture, in order of their first region: each group of softly
 * joined regions that one gradient explains; a group that is not one gradient is split into
 * smooth parts (smooth-split.ts) and each part with two regions or more is tried in turn.
 * `scratch` lends the per-pixel owner array (scratch.ts).
 */
export function findSmoothAreas(input: ShadingInput, scratch: TraceScratch): Shading {
  const { data, width, height, regions } = input;
  const pairs = regionPairs(data, width, height, regions.regionOf, regions.count);
  const { groupOf, members } = softGroups(pairs, regions.count);
  if (members.length === 0) return { areas: [], joinInto: new Int32Array(regions.count).fill(-1) };
  // The group (later: the part of a split group) of every opaque pixel of a group, else −1.
  const owner = scratch.int32('shading.owner', regions.regionOf.length, -1);
  const pixels = groupPixels(regions, groupOf, members.length, data, owner);
  // Soft pairs of each group, as member indices (for the split).
  const memberIndex = new Int32Array(regions.count).fill(-1);
  for (const list of members) for (let i = 0; i < list.length; i++) memberIndex[list[i]!] = i;
  const soft = softPairsByGroup(pairs, groupOf, memberIndex, members.length);
  const areas: Candidate[] = [];
  let nextId = members.length;
  const partOf = new Int32Array(regions.count).fill(-1);
  const localIndex = new Int32Array(regions.count).fill(-1);
  // The ramp fits' and searches' buffers and caches, for this picture's areas.
  const context = new RampContext();
  for (let g = 0; g < members.length; g++) {
    // Shades too close to span a ramp (JPEG noise splitting one flat colour) make no area, whole
    // or split: nothing to fit.
    if (shadeSpanDe(input.regionColor, members[g]!) < SHADE_SPAN_SHARE * MIN_SPAN_DE) continue;
    const groupPx = pixels.pixels.subarray(pixels.start[g]!, pixels.start[g + 1]!);
    const whole = fitGroup(context, input, owner, g, groupPx, members[g]!);
    if (whole) {
      areas.push(whole);
      continue;
    }
    const refit = gradientArt(input) ? fitWithoutFlat(context, input, owner, members[g]!, groupPx, partOf, nextId++) : undefined;
    if (refit) {
      areas.push(refit);
      continue;
    }
    // Two gradients joined where their colours meet: the one under the other peeled out of the group.
    const beforePeel = areas.length;
    if (gradientArt(input)) nextId = fitPeeled(context, input, owner, members[g]!, groupPx, partOf, areas, nextId);
    if (areas.length > beforePeel) continue;
    nextId = fitSplit(context, input, owner, { members: members[g]!, groupPx, soft: soft.pairs.subarray(soft.start[g]! * 2, soft.start[g + 1]! * 2) }, partOf, localIndex, areas, nextId);
  }
  if (gradientArt(input)) nextId = growAreas(context, input, owner, pairs, areas, nextId);
  if (input.photo && input.gradients) shadePieces(context, input, owner, members, pixels, areas, nextId, pairs);
  // Areas in order of their first region (the split's parts come after their group's turn).
  areas.sort((p, q) => p.members[0]! - q.members[0]!);
  shareGradients(context, areas);
  if (input.photo && input.gradients) joinSeams(areas, input, groupOf);
  const absorbed = absorbSpecks(areas.map(toArea), pairs, input);
  return { areas: shareDefinitions(absorbed.areas), joinInto: absorbed.joinInto };
}

/**
 * With the extension, in art: each area tried again with the regions outside every area that it
 * meets along a seam soft in most of its cracks (smooth-areas.ts isSoftPair `mostly`: a stretch of
 * an anti-aliased outline that one side took in outweighs the seam's soft cracks in their mean).
 * The grown area replaces the area when one gradient explains it by fitGroup's rules: the far
 * side of a lens the palette left as one flat region (gradient-magnifying-glass-teudimu-01).
 * Returns the next free part id.
 */
function growAreas(context: RampContext, input: ShadingInput, owner: Int32Array, pairs: RegionPairs, areas: Candidate[], firstId: number): number {
  const { regions, data, width, height } = input;
  const areaOf = new Int32Array(regions.count).fill(-1);
  for (let a = 0; a < areas.length; a++) for (const r of areas[a]!.members) areaOf[r] = a;
  const extra = new Map<number, number[]>();
  const claimed = new Uint8Array(regions.count);
  for (let e = 0; e < pairs.count; e++) {
    if (isSoftPair(pairs, e) || !isSoftPair(pairs, e, true)) continue;
    const [a, r] = areaOf[pairs.a[e]!]! >= 0 ? [areaOf[pairs.a[e]!]!, pairs.b[e]!] : [areaOf[pairs.b[e]!]!, pairs.a[e]!];
    if (a < 0 || areaOf[r]! >= 0 || claimed[r]) continue;
    claimed[r] = 1;
    const list = extra.get(a) ?? [];
    list.push(r);
    extra.set(a, list);
  }
  let id = firstId;
  const inSet = new Uint8Array(regions.count);
  for (const [a, more] of [...extra.entries()].sort((p, q) => p[0] - q[0])) {
    const grown = [...areas[a]!.members, ...more].sort((p, q) => p - q);
    for (const r of grown) inSet[r] = 1;
    let count = 0;
    for (const r of grown) count += regions.area[r]!;
    const pixels = new Int32Array(count);
    let k = 0;
    for (let p = 0; p < width * height; p++) {
      const r = regions.regionOf[p]!;
      if (r < 0 || !inSet[r]) continue;
      pixels[k++] = p;
      owner[p] = data[p * 4 + 3] === 255 ? id : -1;
    }
    for (const r of grown) inSet[r] = 0;
    const area = fitGroup(context, input, owner, id++, pixels.subarray(0, k), grown);
    if (area) areas[a] = area;
  }
  return id;
}

/** One soft group: its regions, their pixels and its soft pairs (member indices, two per pair). */
interface SoftGroup {
  readonly members: readonly number[];
  readonly groupPx: Int32Array;
  readonly soft: Int32Array;
}

/**
 * A group that is not one gradient split into smooth parts (smooth-split.ts), each part with two
 * regions or more fitted in turn; the areas found are pushed to `areas`. A split needs three
 * regions or more, and room for a part of an area's size. Part ids start at `firstId`; returns
 * the next free one.
 */
function fitSplit(context: RampContext, input: ShadingInput, owner: Int32Array, group: SoftGroup, partOf: Int32Array, localIndex: Int32Array, areas: Candidate[], firstId: number): number {
  const { members, groupPx } = group;
  const { regionOf } = input.regions;
  if (members.length < 3 || groupPx.length < SPLIT_MIN_SHARE_OF_AREA * minAreaSamples(input)) return firstId;
  const cluster = splitSmooth(input.data, input.width, regionOf, groupPx, members, group.soft, localIndex);
  let partCount = 0;
  for (let i = 0; i < members.length; i++) {
    partOf[members[i]!] = firstId + cluster[i]!;
    partCount = Math.max(partCount, cluster[i]! + 1);
  }
  const parts = splitParts(groupPx, regionOf, partOf, firstId, partCount, owner);
  for (let c = 0; c < partCount; c++) {
    const partMembers = members.filter((_, i) => cluster[i] === c);
    if (partMembers.length < 2) continue;
    const area = fitGroup(context, input, owner, firstId + c, parts.pixels.subarray(parts.start[c]!, parts.start[c + 1]!), partMembers);
    if (area) areas.push(area);
  }
  return firstId + partCount;
}

/**
 * A region of at least OUTLINE_MIN_PX with fewer than OUTLINE_CORE_SHARE of its pixels inside it
 * (all four neighbours in the same region) is a line, not a band of shading: …
 */
const OUTLINE_CORE_SHARE = 0.2;
/** … smaller regions are left to the specks' rules. */
const OUTLINE_MIN_PX = 16;

/**
 * The members of a group that are outline pieces: thin regions (OUTLINE_CORE_SHARE) such as an
 * icon's outline blends or a 1-px highlight line along a shape's rim, which the soft seams join to
 * the shape's shading but one gradient does not explain (gradient-elementary-internet-chat: the
 * green bubble's rim line pulled its radial fit into a stepped linear one).
 */
export function outlinePieces(input: ShadingInput, members: readonly number[], groupPx: Int32Array): Set<number> {
  const { regionOf, area } = input.regions;
  const width = input.width;
  const core = new Map<number, number>();
  for (const r of members) core.set(r, 0);
  for (let i = 0; i < groupPx.length; i++) {
    const p = groupPx[i]!;
    const r = regionOf[p]!;
    const x = p % width;
    if (x === 0 || x === width - 1 || p < width || p >= regionOf.length - width) continue;
    if (regionOf[p - 1] === r && regionOf[p + 1] === r && regionOf[p - width] === r && regionOf[p + width] === r) core.set(r, core.get(r)! + 1);
  }
  return new Set(members.filter((r) => area[r]! >= OUTLINE_MIN_PX && core.get(r)! < OUTLINE_CORE_SHARE * area[r]!));
}

/** Members that cover at least this many pixels … */
const FLAT_MEMBER_MIN_PX = 400;

/**
 * With the extension, in art: a group that the gated fit turned down fitted once more without its
 * flat members — members of FLAT_MEMBER_MIN_PX or more whose pixels match their colour
 * (FLAT_FLOOR) — when two members or more are left, and without the gate (fitGroup `gated`): a
 * soft shadow fading into the page (its squeezed rings are one elliptical gradient once the page
 * is not asked to be part of it, and far from a circle's or a line's first guess:
 * gradient-8-ball-jarno-vasamaa), a ramp running into a flat colour, a lens's rim whose outline
 * pulls the first guesses off. The flat members stay as they are. Uses part id `id` for the
 * members left (owner renamed to it); undefined when the rest is not one gradient.
 */
function fitWithoutFlat(context: RampContext, input: ShadingInput, owner: Int32Array, members: readonly number[], groupPx: Int32Array, partOf: Int32Array, id: number): Candidate | undefined {
  const rest = shadingMembers(input, members, groupPx, false);
  return rest.length < 2 ? undefined : fitPart(context, input, owner, rest, groupPx, partOf, id);
}

/**
 * The members of a group left once its flat members (FLAT_MEMBER_MIN_PX or more whose pixels match
 * their colour within FLAT_FLOOR) and, with `withoutOutlines`, its outline pieces are left out.
 */
function shadingMembers(input: ShadingInput, members: readonly number[], groupPx: Int32Array, withoutOutlines: boolean): number[] {
  const { data, regions, regionColor } = input;
  const error = new Map<number, number>();
  for (const r of members) if (regions.area[r]! >= FLAT_MEMBER_MIN_PX) error.set(r, 0);
  for (let i = 0; i < groupPx.length; i++) {
    const p = groupPx[i]!;
    const r = regions.regionOf[p]!;
    const sum = error.get(r);
    if (sum === undefined) continue;
    const o = p * 4;
    error.set(r, sum + hypot3(data[o]! - regionColor[r * 3]!, data[o + 1]! - regionColor[r * 3 + 1]!, data[o + 2]! - regionColor[r * 3 + 2]!));
  }
  const outlines = withoutOutlines ? outlinePieces(input, members, groupPx) : new Set<number>();
  return members.filter((r) => !(error.has(r) && error.get(r)! / regions.area[r]! < FLAT_FLOOR) && !outlines.has(r));
}

/**
 * Members `part` of a group (pixels `groupPx`) fitted as one part with id `id` (owner renamed to
 * it), without the gate (fitGroup `gated`); `seen` is given the searched ramp, kept or not.
 */
function fitPart(context: RampContext, input: ShadingInput, owner: Int32Array, part: readonly number[], groupPx: Int32Array, partOf: Int32Array, id: number, seen?: RampSeen): Candidate | undefined {
  for (const r of part) partOf[r] = id;
  const own = splitParts(groupPx, input.regions.regionOf, partOf, id, 1, owner);
  for (const r of part) partOf[r] = -1;
  return fitGroup(context, input, owner, id, own.pixels, part, false, false, seen);
}

/**
 * A member whose samples stray from a failed fit's ramp by more than this many times the ramp's
 * mean error is peeled off (a gradient lying over the group's main one) …
 */
const PEEL_RATIO = 1.5;
/** … in at most this many rounds. */
const PEEL_ROUNDS = 3;

/**
 * With the extension, in art, before the split: a group that gave no area whole or without its flat
 * members may be two gradients or more joined where their colours meet (a speaker's dome over its
 * cone: the dome's rim is the cone's colour at one side, so a soft seam joins their rings; a
 * highlight's gradient over a ball's). The group without its flat members and outline pieces
 * (outlinePieces) is fitted; the members whose samples stray most from its ramp (PEEL_RATIO) are
 * peeled off and the rest fitted again, in up to PEEL_ROUNDS rounds. Once one gradient explains
 * the rest (fitGroup's ungated rules) and is not mostly one colour (mostlyFlat), it is an area and
 * the members peeled off are tried as a part of their own. Pushes the areas found to `areas`;
 * returns the next free part id. The outline pieces and flat members stay as they are.
 */
function fitPeeled(context: RampContext, input: ShadingInput, owner: Int32Array, members: readonly number[], groupPx: Int32Array, partOf: Int32Array, areas: Candidate[], firstId: number): number {
  let id = firstId;
  let rest = shadingMembers(input, members, groupPx, true);
  for (let round = 0; round < PEEL_ROUNDS && rest.length >= 2; round++) {
    let errors: Map<number, number> | undefined;
    let limit = 0;
    const area = fitPart(context, input, owner, rest, groupPx, partOf, id++, (ramp, samples) => {
      errors = memberErrors(input, ramp, samples);
      limit = PEEL_RATIO * ramp.meanError;
    });
    if (area && mostlyFlat(area.ramp)) return id;
    if (area) {
      areas.push(area);
      const peeled = members.filter((r) => !area.members.includes(r));
      const other = peeled.length >= 2 ? fitPart(context, input, owner, peeled, groupPx, partOf, id++) : undefined;
      if (other) areas.push(other);
      return id;
    }
    if (!errors) return id;
    // A member without samples (a small one on a thinned grid) gives no reason to peel it.
    const explained = rest.filter((r) => (errors!.get(r) ?? 0) <= limit);
    if (explained.length === rest.length) return id;
    rest = explained;
  }
  return id;
}

/** A peeled part's ramp may hold one colour (FLAT_STOP_GAP) over at most this share of its length … */
const PEEL_FLAT_SHARE = 0.5;
/** … stops this close (sRGB units) being one colour. */
const FLAT_STOP_GAP = 2;

/**
 * True when the ramp holds one colour over more than PEEL_FLAT_SHARE of its length: a flat colour
 * with a fringe (a page with the soft shadow it takes in), not a gradient under another
 * (gradient-tango-document-new: the page and its floor shadow peeled into a ramp white over 85 %
 * of its length, drawn as a band across the page).
 */
function mostlyFlat(ramp: FittedRamp): boolean {
  const s = ramp.stops;
  const n = stopCount(s);
  const length = stopT(s, n - 1) - stopT(s, 0);
  let from = 0;
  for (let k = 1; k < n; k++) {
    const gap = hypot3(stopChannel(s, k, 0) - stopChannel(s, from, 0), stopChannel(s, k, 1) - stopChannel(s, from, 1), stopChannel(s, k, 2) - stopChannel(s, from, 2));
    if (gap > FLAT_STOP_GAP) from = k;
    else if (stopT(s, k) - stopT(s, from) > PEEL_FLAT_SHARE * length) return true;
  }
  return false;
}

/** Mean distance (sRGB units) of each member's samples from the ramp's colour where they lie. */
function memberErrors(input: ShadingInput, ramp: FittedRamp, samples: RampSamples): Map<number, number> {
  const { regionOf } = input.regions;
  const sums = new Map<number, [number, number]>();
  const colour = new Float64Array(3);
  for (let k = 0; k < samples.count; k++) {
    const x = samples.x[k]!;
    const y = samples.y[k]!;
    rampColorAt(ramp.stops, geometryT(ramp.geometry, x, y), colour);
    const error = hypot3(colour[0]! - samples.rgb[k * 3]!, colour[1]! - samples.rgb[k * 3 + 1]!, colour[2]! - samples.rgb[k * 3 + 2]!);
    const r = regionOf[Math.floor(y) * input.width + Math.floor(x)]!;
    const sum = sums.get(r) ?? [0, 0];
    sum[0] += error;
    sum[1]++;
    sums.set(r, sum);
  }
  return new Map([...sums].map(([r, [total, n]]) => [r, total / n]));
}

/**
 * With the extension, in a photo: the shades of a smooth field that is not one gradient (a cloudy
 * sky, whose iso-lines bend) — the regions of soft groups that no area took in — are fitted one by
 * one, each of at least SHADE_PIECE_SHARE of the picture, so each becomes a gradient across its
 * own band of the field instead of a flat band with a step at each edge. A piece is kept when its
 * gradient leaves less error than its flat shade, spans SHADE_PIECE_SPAN_DE or more and has no
 * step (fitGroup's `piece` rules). Pushes the pieces to `areas`.
 */
function shadePieces(context: RampContext, input: ShadingInput, owner: Int32Array, members: readonly number[][], pixels: GroupPixels, areas: Candidate[], firstId: number, pairs: RegionPairs): void {
  const { regions } = input;
  const taken = new Uint8Array(regions.count);
  for (const a of areas) for (const r of a.members) taken[r] = 1;
  const minPx = shadePieceMinPx(input);
  const partOf = new Int32Array(regions.count).fill(-1);
  let nextId = firstId;
  for (let g = 0; g < members.length; g++) {
    const left = members[g]!.filter((r) => !taken[r] && regions.area[r]! >= minPx);
    if (left.length === 0) continue;
    for (let i = 0; i < left.length; i++) partOf[left[i]!] = nextId + i;
    const groupPx = pixels.pixels.subarray(pixels.start[g]!, pixels.start[g + 1]!);
    // Each piece's pixels (its owner renamed to the piece), in raster order.
    const own = splitParts(groupPx, regions.regionOf, partOf, nextId, left.length, owner);
    const pieces: Candidate[] = [];
    for (let i = 0; i < left.length; i++) {
      const area = fitGroup(context, input, owner, nextId + i, own.pixels.subarray(own.start[i]!, own.start[i + 1]!), [left[i]!], true);
      if (area) pieces.push(area);
    }
    for (const area of mergePieces(context, pairs, pieces)) areas.push(area);
    for (const r of left) partOf[r] = -1;
    nextId += left.length;
  }
}

/** A merged piece's ramp may leave at most this many times its parts' own mean error … */
const PIECE_MERGE_RATIO = 1.3;
/** … plus this (sRGB units). */
const PIECE_MERGE_FLOOR = 0.5;

/** Pieces that touch along fewer cracks than this are not tried (a corner, not a seam). */
const MERGE_MIN_CRACKS = 8;

/**
 * Neighbouring shade pieces of one field joined while one gradient (a ramp with more stops)
 * explains their union nearly as well as each its own: fewer, larger pieces, so fewer seams where
 * two pieces' ramps meet with a step. Tried along the longest seams first (pairs with more
 * cracks), each pair once.
 */
function mergePieces(context: RampContext, pairs: RegionPairs, pieces: Candidate[]): Candidate[] {
  if (pieces.length < 2) return pieces;
  const pieceOf = new Map<number, number>();
  for (let i = 0; i < pieces.length; i++) pieceOf.set(pieces[i]!.members[0]!, i);
  const seams: number[] = [];
  for (let e = 0; e < pairs.count; e++) if (pairs.cracks[e]! >= MERGE_MIN_CRACKS && pieceOf.has(pairs.a[e]!) && pieceOf.has(pairs.b[e]!)) seams.push(e);
  seams.sort((p, q) => pairs.cracks[q]! - pairs.cracks[p]! || p - q);
  const parent = Int32Array.from(pieces, (_, i) => i);
  const merged: (Candidate | undefined)[] = [...pieces];
  // Pairs of pieces already tried and turned down (as they are: a piece that grows is tried again).
  const failed = new Set<string>();
  for (const e of seams) {
    const a = findRoot(parent, pieceOf.get(pairs.a[e]!)!);
    const b = findRoot(parent, pieceOf.get(pairs.b[e]!)!);
    if (a === b) continue;
    const key = `${Math.min(a, b)} ${Math.max(a, b)} ${merged[a]!.members.length} ${merged[b]!.members.length}`;
    if (failed.has(key)) continue;
    const joint = mergedPiece(context, merged[a]!, merged[b]!);
    if (!joint) {
      failed.add(key);
      continue;
    }
    const [keep, drop] = a < b ? [a, b] : [b, a];
    parent[drop] = keep;
    merged[keep] = joint;
    merged[drop] = undefined;
  }
  return merged.filter((c): c is Candidate => c !== undefined);
}

/**
 * The union of two pieces as one, when one ramp explains each part (PIECE_MERGE_RATIO), else undefined.
 * The union's geometry is the larger piece's (no search: a merge is tried per seam, and a
 * field's pieces share its level lines).
 */
function mergedPiece(context: RampContext, a: Candidate, b: Candidate): Candidate | undefined {
  // Tried on the pieces' search subsets (a merge is tried per seam), fitted on all samples once it holds.
  const search = thinned(context, joinSamples([a.search, b.search]), SEARCH_SAMPLES);
  const trial = rampFor(context, search, (a.samples.count >= b.samples.count ? a : b).ramp.geometry);
  if (hasStep(trial) || !designed(trial)) return undefined;
  // Each part is explained nearly as well as by its own ramp (a small piece is not sacrificed to a large one).
  for (const part of [a, b]) {
    if (rampError(context, part.search, trial.geometry, trial.stops) > part.ramp.meanError * PIECE_MERGE_RATIO + PIECE_MERGE_FLOOR) return undefined;
  }
  const samples = thinned(context, joinSamples([a.samples, b.samples]), MAX_SAMPLES);
  const ramp = rampFor(context, samples, trial.geometry);
  const na = a.samples.count;
  const nb = b.samples.count;
  const flatError = (a.flatError * na + b.flatError * nb) / (na + nb);
  if (hasStep(ramp) || !designed(ramp) || ramp.meanError >= flatError) return undefined;
  const w = (x: number, y: number): number => (x * na + y * nb) / (na + nb);
  return {
    members: [...a.members, ...b.members].sort((p, q) => p - q),
    ramp,
    samples,
    search,
    flatError,
    mean: { r: w(a.mean.r, b.mean.r), g: w(a.mean.g, b.mean.g), b: w(a.mean.b, b.mean.b), a: 255 },
    centreX: w(a.centreX, b.centreX),
    centreY: w(a.centreY, b.centreY),
  };
}

/** A shade piece covers at least this share of the picture (a band of a sky, not a pebble) … */
const SHADE_PIECE_SHARE = 0.002;

/** … and its gradient spans at least this (ΔE76): a piece is one band of a field, about one shade step. */
const SHADE_PIECE_SPAN_DE = 2;

function shadePieceMinPx(input: ShadingInput): number {
  return Math.max(MIN_AREA_SAMPLES, SHADE_PIECE_SHARE * input.width * input.height);
}

/**
 * The soft pairs of each group as member-index pairs, in pair order: group g's are pairs[2k],
 * pairs[2k + 1] for k in start[g] .. start[g + 1]. Counted, then placed (no tuple per pair).
 */
function softPairsByGroup(pairs: RegionPairs, groupOf: Int32Array, memberIndex: Int32Array, groups: number): { readonly start: Int32Array; readonly pairs: Int32Array } {
  const start = new Int32Array(groups + 1);
  const soft = new Uint8Array(pairs.count);
  for (let e = 0; e < pairs.count; e++) {
    const g = groupOf[pairs.a[e]!]!;
    if (g >= 0 && isSoftPair(pairs, e)) {
      soft[e] = 1;
      start[g + 1]!++;
    }
  }
  for (let g = 0; g < groups; g++) start[g + 1] = start[g + 1]! + start[g]!;
  const out = new Int32Array(start[groups]! * 2);
  const next = start.slice(0, groups);
  for (let e = 0; e < pairs.count; e++) {
    if (soft[e] === 0) continue;
    const k = next[groupOf[pairs.a[e]!]!]!++;
    out[k * 2] = memberIndex[pairs.a[e]!]!;
    out[k * 2 + 1] = memberIndex[pairs.b[e]!]!;
  }
  return { start, pairs: out };
}

/** The smooth areas of a picture and the edge specks beside them that join another region. */
export interface Shading {
  readonly areas: readonly SmoothArea[];
  /** Per region: the region it joins (an edge blend beside an area that belongs to its other side), or −1. */
  readonly joinInto: Int32Array;
}

/** Regions of at most this many pixels that touch an area join it (see absorbSpecks) … */
const SPECK_PX = 3;

/**
 * … and pieces up to this share of the area (at most PIECE_MAX_PX) when their colour is the area's
 * ramp's where they lie, within SPECK_COLOR_GAP (sRGB units): a shade of the ramp cut off from it
 * by compression noise (the dark rim of a JPEG'd sphere, ringing darker than the ramp's end).
 */
const PIECE_SHARE = 0.03;

const PIECE_MAX_PX = 400;

const SPECK_COLOR_GAP = 24;

/**
 * Specks beside an area — an edge pixel labelled with a shade the area did not take in, a JPEG
 * ringing dot at its rim, a stray shade of the ramp — join the area they share most cracks with:
 * inside an area every pixel takes its colour from the ramp (or its band), so such a speck is
 * only a stray shade. A speck of another colour (a real detail) stays, unless it is tiny.
 */
function absorbSpecks(areas: SmoothArea[], pairs: RegionPairs, input: ShadingInput): Shading {
  const { regions, regionColor } = input;
  const joinInto = new Int32Array(regions.count).fill(-1);
  if (areas.length === 0) return { areas, joinInto };
  const areaOf = new Int32Array(regions.count).fill(-1);
  for (let a = 0; a < areas.length; a++) for (const r of areas[a]!.members) areaOf[r] = a;
  const { bestArea, other } = speckCandidates(areas, areaOf, pairs, regions);
  const sum = candidateMeans(bestArea, input);
  const joined: number[][] = areas.map(() => []);
  const ramp = new Float64Array(3);
  for (let r = 0; r < regions.count; r++) {
    const a = bestArea[r]!;
    if (a < 0) continue;
    const n = regions.area[r]!;
    if (n > SPECK_PX) {
      const fit = areas[a]!.ramp;
      rampColorAt(fit.stops, geometryT(fit.geometry, sum[r * 5]! / n, sum[r * 5 + 1]! / n), ramp);
      const mr = sum[r * 5 + 2]! / n;
      const mg = sum[r * 5 + 3]! / n;
      const mb = sum[r * 5 + 4]! / n;
      if (hypot3(ramp[0]! - mr, ramp[1]! - mg, ramp[2]! - mb) > SPECK_COLOR_GAP) {
        // An edge blend between the area and its other neighbour: it goes to the side that
        // covers most of it (the sub-pixel edge then places the border inside it).
        const o = other[r]!;
        const share = o >= 0 ? shareOfRamp(mr, mg, mb, ramp, regionColor, o) : NaN;
        if (Number.isNaN(share)) continue;
        if (share < 0.5) {
          joinInto[r] = o;
          continue;
        }
      }
    }
    joined[a]!.push(r);
  }
  const grown = areas.map((a, i) => (joined[i]!.length === 0 ? a : { ...a, members: [...a.members, ...joined[i]!].sort((p, q) => p - q) }));
  return { areas: grown, joinInto };
}

/**
 * Per region outside the areas: the area it shares most cracks with among those it is small
 * enough to join (a speck, or a piece within PIECE_SHARE of it), else −1; and its other
 * neighbour (not in an area) with most cracks, else −1.
 */
function speckCandidates(areas: readonly SmoothArea[], areaOf: Int32Array, pairs: RegionPairs, regions: Regions): { bestArea: Int32Array; other: Int32Array } {
  const bestArea = new Int32Array(regions.count).fill(-1);
  const bestCracks = new Float64Array(regions.count);
  const other = new Int32Array(regions.count).fill(-1);
  const otherCracks = new Float64Array(regions.count);
  const areaPx = areas.map((a) => a.members.reduce((sum, r) => sum + regions.area[r]!, 0));
  for (let e = 0; e < pairs.count; e++) {
    for (let side = 0; side < 2; side++) {
      const speck = side === 0 ? pairs.a[e]! : pairs.b[e]!;
      const next = side === 0 ? pairs.b[e]! : pairs.a[e]!;
      if (areaOf[speck]! >= 0) continue;
      const cracks = pairs.cracks[e]!;
      if (areaOf[next]! < 0) {
        if (cracks > otherCracks[speck]!) {
          otherCracks[speck] = cracks;
          other[speck] = next;
        }
        continue;
      }
      const px = regions.area[speck]!;
      if (px > Math.max(SPECK_PX, Math.min(PIECE_MAX_PX, PIECE_SHARE * areaPx[areaOf[next]!]!))) continue;
      if (cracks > bestCracks[speck]! || (cracks === bestCracks[speck] && areaOf[next]! < bestArea[speck]!)) {
        bestCracks[speck] = cracks;
        bestArea[speck] = areaOf[next]!;
      }
    }
  }
  return { bestArea, other };
}

/**
 * Sums of the candidates larger than a speck, for their colour tests: per region x, y (pixel
 * centres) and r, g, b (5 numbers a region).
 */
function candidateMeans(bestArea: Int32Array, input: ShadingInput): Float64Array {
  const { regions, width, data } = input;
  const sum = new Float64Array(regions.count * 5);
  for (let p = 0; p < regions.regionOf.length; p++) {
    const r = regions.regionOf[p]!;
    if (r < 0 || bestArea[r]! < 0 || regions.area[r]! <= SPECK_PX) continue;
    const x = p % width;
    sum[r * 5]! += x + 0.5;
    sum[r * 5 + 1]! += (p - x) / width + 0.5;
    sum[r * 5 + 2]! += data[p * 4]!;
    sum[r * 5 + 3]! += data[p * 4 + 1]!;
    sum[r * 5 + 4]! += data[p * 4 + 2]!;
  }
  return sum;
}

/** Blends further than this (sRGB units) from the line between two colours are not their blend. */
const BLEND_MISS = 14;

/** Colours closer than this have no blend to speak of. */
const BLEND_MIN_CONTRAST = 24;

/**
 * The share of colour A (r, g, b of `a`) in a colour m taken as the blend t·A + (1 − t)·B with
 * region `b`'s colour, or NaN when m is not such a blend.
 */
function shareOfRamp(mr: number, mg: number, mb: number, a: Float64Array, regionColor: Float64Array, b: number): number {
  const br = regionColor[b * 3]!;
  const bg = regionColor[b * 3 + 1]!;
  const bb = regionColor[b * 3 + 2]!;
  const t = blendShare(mr, mg, mb, a[0]!, a[1]!, a[2]!, br, bg, bb, BLEND_MIN_CONTRAST * BLEND_MIN_CONTRAST);
  if (Number.isNaN(t) || t < -0.1 || t > 1.1) return NaN;
  const miss = Math.sqrt(blendResidualSq(mr, mg, mb, a[0]!, a[1]!, a[2]!, br, bg, bb, t));
  return miss <= BLEND_MISS ? t : NaN;
}

/**
 * The pixels of each part of a split group (counting sort, raster order kept), and the owner of
 * their opaque pixels renamed from the group to its part. Pixels of regions in no part
 * (partOf −1: shadePieces' smaller regions) are left out.
 */
function splitParts(groupPx: Int32Array, regionOf: Int32Array, partOf: Int32Array, firstId: number, partCount: number, owner: Int32Array): GroupPixels {
  const start = new Int32Array(partCount + 1);
  for (let i = 0; i < groupPx.length; i++) {
    const part = partOf[regionOf[groupPx[i]!]!]!;
    if (part >= 0) start[part - firstId + 1]!++;
  }
  for (let c = 0; c < partCount; c++) start[c + 1]! += start[c]!;
  const next = start.slice(0, partCount);
  const pixels = new Int32Array(start[partCount]!);
  for (let i = 0; i < groupPx.length; i++) {
    const p = groupPx[i]!;
    const part = partOf[regionOf[p]!]!;
    if (part < 0) continue;
    pixels[next[part - firstId]!++] = p;
    if (owner[p]! >= 0) owner[p] = part;
  }
  return { start, pixels };
}

/** Areas with the same ramp get the same Gradient object (writers define it once). */
function shareDefinitions(areas: readonly SmoothArea[]): SmoothArea[] {
  const byRamp = new Map<FittedRamp, Gradient>();
  return areas.map((a) => {
    const shared = byRamp.get(a.ramp);
    if (shared) return { ...a, gradient: shared };
    byRamp.set(a.ramp, a.gradient);
    return a;
  });
}

/** Told the ramp a fit searched, with the samples it was fitted on, before it is judged. */
type RampSeen = (ramp: FittedRamp, samples: RampSamples) => void;

/** An area as fitted alone, with what a shared fit needs to judge it again. */
interface Candidate {
  readonly members: readonly number[];
  ramp: FittedRamp;
  readonly samples: RampSamples;
  /** The regular subset with colour slopes the geometry was searched on. */
  readonly search: RampSamples;
  /** Mean distance of the samples from their shade's colour (what flat fills give). */
  readonly flatError: number;
  /** Mean colour of all its pixels, and the samples' centroid (a point on a linear axis). */
  readonly mean: Rgba;
  readonly centreX: number;
  readonly centreY: number;
}

/**
 * With the extension, in art (not photos): a group that is not one gradient is tried without its
 * flat members (fitWithoutFlat) before it is split; areas grow across seams soft in most of their
 * cracks (growAreas), so a region may bring an outline along, and slopes steeper than a ramp's (at
 * such an outline) are left out of the geometry's first guesses. Without the extension the areas
 * are the same as before these rules (the default output's bands).
 */
function gradientArt(input: ShadingInput): boolean {
  return input.gradients === true && !input.photo;
}

/** Interior pixels an area needs (more in a photo, see PHOTO_MIN_SHARE). */
function minAreaSamples(input: ShadingInput): number {
  return input.photo ? Math.max(MIN_AREA_SAMPLES, PHOTO_MIN_SHARE * input.width * input.height) : MIN_AREA_SAMPLES;
}

/** True when a ramp with this error is good enough for an area whose shades were this far off. */
function explains(rampError: number, flatError: number): boolean {
  return rampError <= flatError * ACCEPT_RATIO;
}

/** True when pixel q (which must exist) is an opaque pixel of group g. */
function owned(owner: Int32Array, q: number, g: number): boolean {
  return owner[q] === g;
}

/**
 * The area of group g (the pixels whose owner is g) when one gradient explains it, else undefined.
 * @param pixels the group's pixels (any order; all of them, opaque or not, for the mean colour).
 * @param piece a shade piece (shadePieces): its own size floor, no gate before the search, kept
 * when its gradient beats its flat shade at all (one band's ramp is short and its grain large:
 * ACCEPT_RATIO's margin is for whole areas) and it spans SHADE_PIECE_SPAN_DE, whatever its stops.
 * @param gated the geometry is searched only when its first guesses come near (GATE_RATIO) and the
 * best of them has no step; an ungated fit's ramp is checked for steps once searched and must
 * leave at most UNGATED_RATIO of the flat shades' error.
 */
function fitGroup(context: RampContext, input: ShadingInput, owner: Int32Array, g: number, pixels: Int32Array, members: readonly number[], piece = false, gated = !piece, seen?: RampSeen): Candidate | undefined {
  const minSamples = piece ? shadePieceMinPx(input) : minAreaSamples(input);
  const { data, width, height } = input;
  // Interior pixels: opaque, with all four neighbours in the group (edge blends say nothing of the fill).
  let sumR = 0;
  let sumG = 0;
  let sumB = 0;
  let interiorCount = 0;
  const interior = new Int32Array(pixels.length);
  // The current pixel's row (the pixels come in raster order: one division per row).
  let rowStart = 0;
  let rowEnd = 0;
  for (let i = 0; i < pixels.length; i++) {
    const p = pixels[i]!;
    const o = p * 4;
    sumR += data[o]!;
    sumG += data[o + 1]!;
    sumB += data[o + 2]!;
    if (p >= rowEnd || p < rowStart) {
      rowStart = p - (p % width);
      rowEnd = rowStart + width;
    }
    const x = p - rowStart;
    if (x === 0 || x === width - 1 || p < width || p >= (height - 1) * width) continue;
    if (owned(owner, p, g) && owned(owner, p - 1, g) && owned(owner, p + 1, g) && owned(owner, p - width, g) && owned(owner, p + width, g)) interior[interiorCount++] = p;
  }
  if (interiorCount < minSamples) return undefined;
  // The geometry is searched on a regular subset (with colour slopes); only a promising one is
  // fitted on the full sample set.
  const searchStride = Math.ceil(interiorCount / SEARCH_SAMPLES);
  const axis = mainColorAxis(data, interior, interiorCount, searchStride);
  const search = gatherSamples(input, owner, g, interior, interiorCount, searchStride, axis);
  // Shades that match their pixels already are flat colours (checked again on all samples below).
  if (search.flatError < FLAT_FLOOR) return undefined;
  // A first guess whose ramp already jumps (an edge joined in through a soft seam) is not searched.
  const geometry = findGeometry(context, search.samples, !gated ? undefined : Math.min(GATE_MAX, GATE_RATIO * search.flatError + GATE_FLOOR), !gated ? undefined : (first) => !stopsHaveStep(rampStops(context, search.samples, first)));
  if (!geometry) return undefined;
  const full = searchStride === 1 ? search : gatherSamples(input, owner, g, interior, interiorCount, Math.ceil(interiorCount / MAX_SAMPLES), undefined);
  const ramp = rampFor(context, full.samples, geometry);
  const flatError = full.flatError;
  seen?.(ramp, full.samples);
  if (!kept(ramp, flatError, piece) || (!gated && !piece && ramp.meanError > UNGATED_RATIO * flatError)) return undefined;
  const samples = full.samples;
  const centre = samplesCentre(samples);
  const n = pixels.length;
  return {
    members,
    ramp,
    samples,
    search: search.samples,
    flatError,
    mean: { r: sumR / n, g: sumG / n, b: sumB / n, a: 255 },
    centreX: centre.x,
    centreY: centre.y,
  };
}

/** The mean position of a sample set. */
function samplesCentre(samples: { readonly count: number; readonly x: ArrayLike<number>; readonly y: ArrayLike<number> }): { x: number; y: number } {
  let cx = 0;
  let cy = 0;
  for (let k = 0; k < samples.count; k++) {
    cx += samples.x[k]!;
    cy += samples.y[k]!;
  }
  return { x: cx / samples.count, y: cy / samples.count };
}

/** True when a fitted ramp is shading worth a gradient (fitGroup's rules; `piece`: shadePieces'). */
function kept(ramp: FittedRamp, flatError: number, piece: boolean): boolean {
  if (flatError < FLAT_FLOOR || hasStep(ramp)) return false;
  if (piece) return ramp.meanError < flatError && rampSpanDe(ramp) >= SHADE_PIECE_SPAN_DE;
  return explains(ramp.meanError, flatError) && rampSpanDe(ramp) >= MIN_SPAN_DE && designed(ramp);
}

/**
 * Every `stride`-th interior pixel as samples, with their mean distance from their shade's colour;
 * with `axis`, also their colour slopes along it (for the geometry search).
 */
function gatherSamples(
  input: ShadingInput,
  owner: Int32Array,
  g: number,
  interior: Int32Array,
  interiorCount: number,
  stride: number,
  axis: Float64Array | undefined,
): { samples: RampSamples; flatError: number } {
  const { data, width, height, regions, regionColor } = input;
  const { regionOf } = regions;
  const edgeSlopesOut = gradientArt(input);
  const count = Math.ceil(interiorCount / stride);
  const slopes = axis ? count : 0;
  const samples = emptySamples(count, slopes > 0);
  let flatError = 0;
  const d = SLOPE_REACH;
  for (let k = 0; k < count; k++) {
    const p = interior[k * stride]!;
    const x = p % width;
    const y = (p - x) / width;
    const o = p * 4;
    samples.x[k] = x + 0.5;
    samples.y[k] = y + 0.5;
    samples.rgb[k * 3] = data[o]!;
    samples.rgb[k * 3 + 1] = data[o + 1]!;
    samples.rgb[k * 3 + 2] = data[o + 2]!;
    if (axis) {
      samples.slopeX[k] = x >= d && x + d < width && owned(owner, p - d, g) && owned(owner, p + d, g) ? (along(data, axis, p + d) - along(data, axis, p - d)) / (2 * d) : NaN;
      samples.slopeY[k] = y >= d && y + d < height && owned(owner, p - d * width, g) && owned(owner, p + d * width, g) ? (along(data, axis, p + d * width) - along(data, axis, p - d * width)) / (2 * d) : NaN;
      // With the extension, in art: a slope steeper than a ramp's is an edge beside the sample (an
      // outline a region took in), which would turn the direction estimate to the edge's.
      if (edgeSlopesOut && hypot2(samples.slopeX[k]!, samples.slopeY[k]!) > MAX_RAMP_SLOPE) samples.slopeX[k] = samples.slopeY[k] = NaN;
    }
    const r = regionOf[p]!;
    flatError += hypot3(data[o]! - regionColor[r * 3]!, data[o + 1]! - regionColor[r * 3 + 1]!, data[o + 2]! - regionColor[r * 3 + 2]!);
  }
  return { samples, flatError: flatError / count };
}

/** The colour of pixel p projected on a colour axis. */
function along(data: Uint8Array | Uint8ClampedArray, axis: Float64Array, p: number): number {
  return axis[0]! * data[p * 4]! + axis[1]! * data[p * 4 + 1]! + axis[2]! * data[p * 4 + 2]!;
}

/** Areas of one gradient must have axes within this angle (rad) … */
const SHARED_ANGLE_RAD = (3 * Math.PI) / 180;

/** … or centres within this share of the larger ramp's reach (px from the centre) … */
const SHARED_CENTRE_SHARE = 0.06;

/** … (ellipses: axes within SHARED_ANGLE_RAD and ratios within this, as a log) … */
const SHARED_RATIO_LOG = 0.05;

/** … and ramps within this (sRGB units) where both have pixels. */
const SHARED_RAMP_GAP = 14;

/**
 * Areas that look like pieces of one gradient (the petals of a flower, the panes of a window):
 * same kind, near the same axis or centre, ramps alike where they overlap. Each such set is
 * fitted again as one; where the shared ramp still explains every piece nearly as well as its own
 * did, they all take it (one definition in the file, one look across the pieces).
 */
function shareGradients(context: RampContext, candidates: Candidate[]): void {
  const parent = candidates.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i]!;
    return i;
  };
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      if (!alike(candidates[i]!.ramp, candidates[j]!.ramp)) continue;
      const ri = root(i);
      const rj = root(j);
      if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
    }
  }
  const sets = new Map<number, number[]>();
  for (let i = 0; i < candidates.length; i++) {
    const r = root(i);
    let list = sets.get(r);
    if (!list) sets.set(r, (list = []));
    list.push(i);
  }
  for (const set of sets.values()) {
    if (set.length < 2) continue;
    const geometry = findGeometry(context, joinSamples(set.map((i) => candidates[i]!.search)));
    if (!geometry) continue;
    const joint = rampFor(context, joinSamples(set.map((i) => candidates[i]!.samples)), geometry);
    const fitsAll = set.every((i) => {
      const c = candidates[i]!;
      const e = rampError(context, c.samples, joint.geometry, joint.stops);
      return explains(e, c.flatError) && e <= c.ramp.meanError * 1.3 + 0.3;
    });
    if (fitsAll) for (const i of set) candidates[i]!.ramp = joint;
  }
}

/**
 * With the extension, in a photo: the gradient pieces of each smooth field refitted with their
 * seams (seam-fit.ts: ramps reaching out to the seams, matching the picture there) so that
 * neighbouring pieces meet without a step; pieces that share a ramp are one piece.
 */
function joinSeams(candidates: Candidate[], input: ShadingInput, groupOf: Int32Array): void {
  const { regions } = input;
  const index = new Map<FittedRamp, number>();
  const pieces: { ramp: FittedRamp; samples: RampSamples[]; pixelsPerSample: number[] }[] = [];
  const pieceOf = new Int32Array(regions.count).fill(-1);
  for (const c of candidates) {
    let i = index.get(c.ramp);
    if (i === undefined) {
      i = pieces.length;
      index.set(c.ramp, i);
      pieces.push({ ramp: c.ramp, samples: [], pixelsPerSample: [] });
    }
    let px = 0;
    for (const r of c.members) {
      pieceOf[r] = i;
      px += regions.area[r]!;
    }
    pieces[i]!.samples.push(c.samples);
    pieces[i]!.pixelsPerSample.push(px / Math.max(1, c.samples.count));
  }
  if (pieces.length < 2) return;
  const stops = fitSeams(pieces, { data: input.data, width: input.width, height: input.height, regionOf: regions.regionOf, pieceOf, groupOf });
  const joined = pieces.map((p, i) => ({ ...p.ramp, tMin: Math.min(p.ramp.tMin, stopT(stops[i]!, 0)), tMax: Math.max(p.ramp.tMax, lastStopT(stops[i]!)), stops: stops[i]! }));
  for (const c of candidates) c.ramp = joined[index.get(c.ramp)!]!;
}

/** Two fitted ramps of the same kind, nearly the same axis or centre, alike in colour. */
function alike(a: FittedRamp, b: FittedRamp): boolean {
  const ga = a.geometry;
  const gb = b.geometry;
  if (ga.kind !== gb.kind) return false;
  let sign = 1;
  if (ga.kind === 'linear' && gb.kind === 'linear') {
    const dot = ga.ux * gb.ux + ga.uy * gb.uy;
    if (Math.abs(dot) < Math.cos(SHARED_ANGLE_RAD)) return false;
    sign = dot < 0 ? -1 : 1;
  } else if (ga.kind !== 'linear' && gb.kind !== 'linear') {
    const reach = Math.max(a.tMax, b.tMax);
    if (hypot2(ga.cx - gb.cx, ga.cy - gb.cy) > SHARED_CENTRE_SHARE * reach) return false;
    if (ga.kind === 'ellipse' && gb.kind === 'ellipse') {
      if (Math.abs(ga.ux * gb.ux + ga.uy * gb.uy) < Math.cos(SHARED_ANGLE_RAD) || Math.abs(Math.log(ga.ratio / gb.ratio)) > SHARED_RATIO_LOG) return false;
    }
  }
  // Compare the ramps at a few t where both have stops' range (b's t flips with a reversed axis).
  const from = Math.max(stopT(a.stops, 0), sign > 0 ? stopT(b.stops, 0) : -lastStopT(b.stops));
  const to = Math.min(lastStopT(a.stops), sign > 0 ? lastStopT(b.stops) : -stopT(b.stops, 0));
  if (!(to > from)) return false;
  const ca = new Float64Array(3);
  const cb = new Float64Array(3);
  for (let k = 0; k <= 8; k++) {
    const t = from + ((to - from) * k) / 8;
    rampColorAt(a.stops, t, ca);
    rampColorAt(b.stops, sign * t, cb);
    if (hypot3(ca[0]! - cb[0]!, ca[1]! - cb[1]!, ca[2]! - cb[2]!) > SHARED_RAMP_GAP) return false;
  }
  return true;
}

function toArea(c: Candidate): SmoothArea {
  return { members: c.members, ramp: c.ramp, gradient: toGradient(c.ramp, c.centreX, c.centreY), mean: c.mean };
}

/**
 * Unit vector of the main axis of the pixels' colours (power iteration on their covariance, from
 * the grey axis): the colour slope along it is what the direction estimate follows.
 */
function mainColorAxis(data: Uint8Array | Uint8ClampedArray, pixels: Int32Array, count: number, stride: number): Float64Array {
  let m0 = 0;
  let m1 = 0;
  let m2 = 0;
  let used = 0;
  for (let i = 0; i < count; i += stride) {
    used++;
    const o = pixels[i]! * 4;
    m0 += data[o]!;
    m1 += data[o + 1]!;
    m2 += data[o + 2]!;
  }
  const mean = [m0 / used, m1 / used, m2 / used];
  const cov = new Float64Array(9);
  for (let i = 0; i < count; i += stride) {
    const p = pixels[i]!;
    const d0 = data[p * 4]! - mean[0]!;
    const d1 = data[p * 4 + 1]! - mean[1]!;
    const d2 = data[p * 4 + 2]! - mean[2]!;
    cov[0]! += d0 * d0;
    cov[1]! += d0 * d1;
    cov[2]! += d0 * d2;
    cov[4]! += d1 * d1;
    cov[5]! += d1 * d2;
    cov[8]! += d2 * d2;
  }
  cov[3] = cov[1]!;
  cov[6] = cov[2]!;
  cov[7] = cov[5]!;
  const v = new Float64Array([1, 1, 1]);
  for (let k = 0; k < 24; k++) {
    const a = cov[0]! * v[0]! + cov[1]! * v[1]! + cov[2]! * v[2]!;
    const b = cov[3]! * v[0]! + cov[4]! * v[1]! + cov[5]! * v[2]!;
    const c = cov[6]! * v[0]! + cov[7]! * v[1]! + cov[8]! * v[2]!;
    const len = hypot3(a, b, c);
    if (len === 0) break;
    v[0] = a / len;
    v[1] = b / len;
    v[2] = c / len;
  }
  return v;
}

/**
 * False when the ramp took every stop it may have (MAX_STOPS) and still strays: the colour along
 * t is texture or noise that a few designed stops do not describe.
 */
function designed(ramp: FittedRamp): boolean {
  return ramp.stops.length / 4 < MAX_STOPS;
}

/** True when some stretch of the ramp is a jump (steep and visible) rather than shading. */
function hasStep(ramp: FittedRamp): boolean {
  return stopsHaveStep(ramp.stops);
}

/** hasStep of a ramp's stops (t, r, g, b each). */
function stopsHaveStep(s: Float64Array): boolean {
  for (let k = 4; k < s.length; k += 4) {
    const jump = hypot3(s[k + 1]! - s[k - 3]!, s[k + 2]! - s[k - 2]!, s[k + 3]! - s[k - 1]!);
    if (jump > STEP_JUMP && jump > MAX_RAMP_SLOPE * (s[k]! - s[k - 4]!)) return true;
  }
  return false;
}

/** Largest ΔE76 between two of the regions' colours (their shades). */
function shadeSpanDe(regionColor: Float64Array, members: readonly number[]): number {
  const lab = new Float64Array(members.length * 3);
  for (let i = 0; i < members.length; i++) {
    const r = members[i]!;
    rgbToLab(regionColor[r * 3]!, regionColor[r * 3 + 1]!, regionColor[r * 3 + 2]!, lab, i * 3);
  }
  let span = 0;
  // Against the lightest and the darkest shade: the span of a ramp runs between its ends.
  let light = 0;
  let dark = 0;
  for (let i = 1; i < members.length; i++) {
    if (lab[i * 3]! > lab[light * 3]!) light = i;
    if (lab[i * 3]! < lab[dark * 3]!) dark = i;
  }
  for (const e of [light, dark]) {
    for (let i = 0; i < members.length; i++) span = Math.max(span, hypot3(lab[i * 3]! - lab[e * 3]!, lab[i * 3 + 1]! - lab[e * 3 + 1]!, lab[i * 3 + 2]! - lab[e * 3 + 2]!));
  }
  return span;
}

/** Largest ΔE76 between the first stop and any other. */
function rampSpanDe(ramp: FittedRamp): number {
  const lab = new Float64Array(ramp.stops.length / 4 * 3);
  for (let k = 0; k < stopCount(ramp.stops); k++) rgbToLab(stopChannel(ramp.stops, k, 0), stopChannel(ramp.stops, k, 1), stopChannel(ramp.stops, k, 2), lab, k * 3);
  let span = 0;
  for (let k = 1; k < ramp.stops.length / 4; k++) span = Math.max(span, hypot3(lab[k * 3]! - lab[0]!, lab[k * 3 + 1]! - lab[1]!, lab[k * 3 + 2]! - lab[2]!));
  return span;
}

// ---------------------------------------------------------------------------------------------
// New regions
