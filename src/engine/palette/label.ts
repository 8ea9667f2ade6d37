/**
 * Stage 3: give every pixel a palette label.
 * In: RGBA pixels and the palette. Out: Int32Array label per pixel (-1 = transparent).
 * Flat pixels take the nearest palette colour (Lab, through a 6-bit-per-channel cache). An edge
 * pixel is first explained as a blend p ≈ t·A + (1−t)·B of two labels found around it and takes
 * the side that covers at least half of it, so anti-aliasing between red and white never becomes
 * a sliver of some unrelated pink that happens to be in the palette.
 */
import { blendResidualSq, blendShare } from '../blend.js';
import { rgbToLab } from '../color.js';
import { ColorTable } from './color-table.js';
import type { Palette } from './palette.js';
import { OPAQUE_ALPHA_MIN } from '../profile/profile.js';
import type { TraceScratch } from '../scratch.js';

const CACHE_BITS = 6;
const CACHE_SHIFT = 8 - CACHE_BITS;

/**
 * Labels of rows [rowFrom, rowTo) (a band). An edge pixel looks at the nearest colours up to two rows
 * beyond the band, so those rows are labelled too: bands computed apart give the same labels.
 * `spread` covers the whole image. The result is an array of its own; its scratch comes from `scratch`.
 */
export function labelRows(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  palette: Palette,
  exactColors: boolean,
  spread: Uint8Array,
  rowFrom: number,
  rowTo: number,
  edgeShades: boolean,
  scratch: TraceScratch,
): Int32Array {
  // Edge pixels look two rows around them (flatNeighbour's 5 × 5): those rows are labelled too.
  const haloFrom = exactColors ? rowFrom : Math.max(0, rowFrom - 2);
  const haloTo = exactColors ? rowTo : Math.min(height, rowTo + 2);
  const n = (haloTo - haloFrom) * width;
  // Exact colours' nearest labels are the result; otherwise the edge blends' copy is.
  const into = exactColors ? new Int32Array(n) : scratch.int32('label.nearest', n);
  const nearest = nearestLabels(data, width, palette, exactColors, haloFrom, into, scratch);
  if (exactColors) return nearest;
  return resolveEdgeBlends(data, width, height, palette, nearest, haloFrom, spread, rowFrom, rowTo, edgeShades);
}

/**
 * Nearest palette label of every pixel from row rowFrom on, -1 when transparent, written into
 * `nearest` (every element; its length sets the rows) and returned.
 */
function nearestLabels(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  palette: Palette,
  exactColors: boolean,
  rowFrom: number,
  nearest: Int32Array,
  scratch: TraceScratch,
): Int32Array {
  const first = rowFrom * width;
  const n = nearest.length;
  // Label + 1 per cache bin, 0 while not looked up (512 KB a part, 16 bits: a palette holds
  // hundreds of colours at most), taken when a colour is first looked up (pixel art's exact
  // colours need none).
  let cachePlusOne: Uint16Array | undefined;
  const lab = new Float64Array(3);
  const exactIndex = exactColors ? exactColorIndex(palette) : undefined;
  // A pixel of the colour before it (most pixels of art) takes that pixel's label.
  let lastKey = -1;
  let lastLabel = -1;
  for (let i = 0; i < n; i++) {
    const o = (first + i) * 4;
    if (data[o + 3]! < OPAQUE_ALPHA_MIN) {
      nearest[i] = -1;
      continue;
    }
    const r = data[o]!;
    const g = data[o + 1]!;
    const b = data[o + 2]!;
    const rgb = (r << 16) | (g << 8) | b;
    if (rgb === lastKey) {
      nearest[i] = lastLabel;
      continue;
    }
    lastKey = rgb;
    const exact = exactIndex ? exactIndex.get(rgb, -1) : -1;
    if (exact >= 0) {
      nearest[i] = lastLabel = exact;
      continue;
    }
    const key = ((r >> CACHE_SHIFT) << (2 * CACHE_BITS)) | ((g >> CACHE_SHIFT) << CACHE_BITS) | (b >> CACHE_SHIFT);
    cachePlusOne ??= scratch.uint16('label.colourCache', 1 << (3 * CACHE_BITS), 0);
    let label = cachePlusOne[key]! - 1;
    if (label < 0) {
      // Cache by the bin's centre so the result does not depend on which pixel came first.
      const half = 1 << (CACHE_SHIFT - 1);
      rgbToLab(((r >> CACHE_SHIFT) << CACHE_SHIFT) + half, ((g >> CACHE_SHIFT) << CACHE_SHIFT) + half, ((b >> CACHE_SHIFT) << CACHE_SHIFT) + half, lab, 0);
      label = nearestLab(palette, lab);
      cachePlusOne[key] = label + 1;
    }
    nearest[i] = lastLabel = label;
  }
  return nearest;
}

function exactColorIndex(palette: Palette): ColorTable {
  const index = new ColorTable();
  for (let k = 0; k < palette.size; k++) {
    const r = palette.observed[k * 3]!;
    const g = palette.observed[k * 3 + 1]!;
    const b = palette.observed[k * 3 + 2]!;
    if (Number.isInteger(r) && Number.isInteger(g) && Number.isInteger(b)) index.set((r << 16) | (g << 8) | b, k);
  }
  return index;
}

function nearestLab(palette: Palette, lab: Float64Array): number {
  let best = 0;
  let bestD = Infinity;
  for (let k = 0; k < palette.size; k++) {
    const dl = lab[0]! - palette.lab[k * 3]!;
    const da = lab[1]! - palette.lab[k * 3 + 1]!;
    const db = lab[2]! - palette.lab[k * 3 + 2]!;
    const d = dl * dl + da * da + db * db;
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best;
}

/**
 * Relabels non-flat pixels by the best two-colour blend among the labels around them. Per pixel,
 * four rules in turn: gather the labels around it (gatherCandidates); the nearest single colour
 * (bestSingleColour); a blend of two that explains it clearly better, kept on the side that
 * covers at least half of it unless it is a thin line's ridge (edgePixelLabel, isRidge); and an
 * edge shade between two flat colours that matches a third colour stays their edge
 * (isCrispEdge, edgeShadeRule).
 */
function resolveEdgeBlends(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  palette: Palette,
  nearest: Int32Array,
  nearestFrom: number,
  spread: Uint8Array,
  rowFrom: number,
  rowTo: number,
  edgeShades: boolean,
): Int32Array {
  // `nearest` holds rows [nearestFrom, …); the result holds rows [rowFrom, rowTo).
  const labels = nearest.slice((rowFrom - nearestFrom) * width, (rowTo - nearestFrom) * width);
  const pass = new EdgeBlendPass(data, width, height, palette.observed, nearest, nearestFrom * width, spread, edgeShades);
  for (let y = rowFrom; y < rowTo; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const own = nearest[i - pass.nearestBase]!;
      // Transparent and flat pixels keep their nearest colour.
      if (own < 0 || spread[i]! <= 4) continue;
      if (gatherCandidates(pass, x, y, own) < 2) continue;
      labels[i - rowFrom * width] = edgePixelLabel(pass, x, y, i);
    }
  }
  return labels;
}

/**
 * One band's edge-blend pass: its inputs and the scratch its steps share (one per labelRows call,
 * reused from pixel to pixel), with the current pixel's nearest single colour, which
 * bestSingleColour leaves here rather than return (a pair of numbers per call was garbage).
 */
class EdgeBlendPass {
  /** The pixel's own label, then each other label around it once (candidateCount of them). */
  readonly candidates = new Int32Array(9);
  candidateCount = 0;
  /** sharesAround's answers: left, right, above, below. */
  readonly around = new Float64Array(4);
  /** The current pixel's nearest single candidate colour and its RGB residual² (bestSingleColour). */
  singleLabel = -1;
  singleResidual = 0;

  constructor(
    readonly data: Uint8Array | Uint8ClampedArray,
    readonly width: number,
    readonly height: number,
    /** The palette's observed colours, r, g, b per label. */
    readonly obs: Float64Array,
    readonly nearest: Int32Array,
    /** Pixel index of nearest[0]. */
    readonly nearestBase: number,
    readonly spread: Uint8Array,
    readonly edgeShades: boolean,
  ) {}
}

/** The pixel's own label, then each other label of its 3 × 3 once, in scan order; returns their count. */
function gatherCandidates(pass: EdgeBlendPass, x: number, y: number, own: number): number {
  const { candidates, nearest, nearestBase, width, height } = pass;
  let m = 0;
  candidates[m++] = own;
  for (let dy = -1; dy <= 1; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= height) continue;
    const rowBase = yy * width - nearestBase;
    for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx;
      if (xx < 0 || xx >= width) continue;
      const l = nearest[rowBase + xx]!;
      // Most neighbours share the pixel's label (this also skips the pixel itself).
      if (l === own || l < 0) continue;
      let c = 1;
      while (c < m && candidates[c] !== l) c++;
      if (c === m) candidates[m++] = l;
    }
  }
  pass.candidateCount = m;
  return m;
}

/**
 * The label of edge pixel i at (x, y) among its candidates: the nearest single colour first; then
 * each pair as a blend t·A + (1 − t)·B, kept as a crisp edge of two flat colours (isCrispEdge) and
 * taken as the label when it explains the pixel clearly better than any single colour (the side
 * covering at least half, or the minor side on a thin line's ridge); last the edge-shade rule.
 * The best explanations so far stay in locals (this loop runs per pair of every edge pixel).
 */
function edgePixelLabel(pass: EdgeBlendPass, x: number, y: number, i: number): number {
  const { obs, candidates, data } = pass;
  const o = i * 4;
  const pr = data[o]!;
  const pg = data[o + 1]!;
  const pb = data[o + 2]!;
  bestSingleColour(pass, pr, pg, pb);
  const singleLabel = pass.singleLabel;
  let bestLabel = singleLabel;
  let bestResidual = pass.singleResidual;
  let pairLabel = -1;
  let pairResidual = Infinity;
  const m = pass.candidateCount;
  for (let a = 0; a < m; a++) {
    const la = candidates[a]!;
    const ar = obs[la * 3]!;
    const ag = obs[la * 3 + 1]!;
    const ab = obs[la * 3 + 2]!;
    for (let b = a + 1; b < m; b++) {
      const lb = candidates[b]!;
      const br = obs[lb * 3]!;
      const bg = obs[lb * 3 + 1]!;
      const bb = obs[lb * 3 + 2]!;
      // t = share of A in the pixel.
      let t = blendShare(pr, pg, pb, ar, ag, ab, br, bg, bb, EDGE_BLEND_MIN_SPAN_SQ);
      if (Number.isNaN(t)) continue;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const residual = blendResidualSq(pr, pg, pb, ar, ag, ab, br, bg, bb, t);
      if (pass.edgeShades && la !== singleLabel && lb !== singleLabel && t > 0.12 && t < 0.88 && residual < pairResidual && isCrispEdge(pass, x, y, la, lb)) {
        pairResidual = residual;
        pairLabel = t >= 0.5 ? la : lb;
      }
      // A blend must explain the pixel clearly better than any single colour.
      if (residual < bestResidual * 0.5 - 1e-9) {
        bestResidual = residual;
        bestLabel = isRidge(pass, x, y, t, la, lb) ? (t < 0.5 ? la : lb) : t >= 0.5 ? la : lb;
      }
    }
  }
  return edgeShadeRule(pass, x, y, bestLabel, pass.singleResidual, pairLabel, pairResidual) ? pairLabel : bestLabel;
}

/** The nearest candidate colour to the pixel (own label wins ties), left in pass.singleLabel and singleResidual. */
function bestSingleColour(pass: EdgeBlendPass, pr: number, pg: number, pb: number): void {
  const { candidates, candidateCount: m, obs } = pass;
  let bestLabel = candidates[0]!;
  let bestResidual = residualSingle(obs, bestLabel, pr, pg, pb);
  for (let c = 1; c < m; c++) {
    const r = residualSingle(obs, candidates[c]!, pr, pg, pb);
    if (r < bestResidual - 1e-9) {
      bestResidual = r;
      bestLabel = candidates[c]!;
    }
  }
  pass.singleLabel = bestLabel;
  pass.singleResidual = bestResidual;
}

/**
 * Only a crisp edge: both colours lie flat right beside the pixel (a gradient's or a blur's
 * in-between shades are steps of their own, not an edge of two colours).
 */
function isCrispEdge(pass: EdgeBlendPass, x: number, y: number, la: number, lb: number): boolean {
  return flatNeighbour(pass.nearest, pass.nearestBase, pass.spread, pass.width, pass.height, x, y, la, 2) && flatNeighbour(pass.nearest, pass.nearestBase, pass.spread, pass.width, pass.height, x, y, lb, 2);
}

/**
 * A thin line (less than a pixel wide) is still a line: true when the pixel is a ridge of the
 * minor colour's coverage across one axis, even under half coverage (then it keeps the minor
 * colour).
 */
function isRidge(pass: EdgeBlendPass, x: number, y: number, t: number, la: number, lb: number): boolean {
  // The minor side's share, min(t, 1 − t) (1 − t is exact for t in [0.5, 1]); not `t < 0.5 ? t : 1 − t`,
  // which V8 kept as a tagged value when this function was not inlined (1 − t a new heap number).
  const share = Math.min(t, 1 - t);
  if (share < RIDGE_MIN_COVERAGE) return false;
  const minor = t < 0.5 ? la : lb;
  sharesAround(pass.data, pass.width, pass.height, x, y, pass.obs, minor, t < 0.5 ? lb : la, pass.around);
  const below = share - RIDGE_MARGIN;
  const around = pass.around;
  return (around[0]! < below && around[1]! < below) || (around[2]! < below && around[3]! < below);
}

/**
 * An edge shade between A and B that happens to match a third palette colour C (a highlight
 * halfway between them) is still the edge of A and B: labelled C it would become a sliver of C
 * along the edge. C is really here only where C has flat pixels next to it. True when the pixel
 * takes the edge's label (pairLabel) instead of bestLabel.
 */
function edgeShadeRule(pass: EdgeBlendPass, x: number, y: number, bestLabel: number, singleResidual: number, pairLabel: number, pairResidual: number): boolean {
  return (
    pass.edgeShades &&
    bestLabel === pass.singleLabel &&
    pairLabel >= 0 &&
    singleResidual > 0.5 &&
    pairResidual < MAX_EDGE_BLEND_RESIDUAL &&
    !flatNeighbour(pass.nearest, pass.nearestBase, pass.spread, pass.width, pass.height, x, y, pass.singleLabel)
  );
}

/** Two palette colours closer than this (RGB units²) are one colour: no blend of them is measured. */
const EDGE_BLEND_MIN_SPAN_SQ = 1;

/** RGB residual² within which a pixel counts as a two-colour edge blend whatever else it matches. */
const MAX_EDGE_BLEND_RESIDUAL = 7 * 7;

/**
 * True when a pixel within `reach` (1: the 3 × 3, 2: the 5 × 5) of (x, y) is flat (spread ≤ 4) and
 * nearest to `label`. labelRows labels two rows beyond its band, so a band sees the same 5 × 5
 * as the whole image does (same labels for any split).
 */
function flatNeighbour(nearest: Int32Array, nearestBase: number, spread: Uint8Array, width: number, height: number, x: number, y: number, label: number, reach = 1): boolean {
  for (let dy = -reach; dy <= reach; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= height) continue;
    for (let dx = -reach; dx <= reach; dx++) {
      const xx = x + dx;
      if (xx < 0 || xx >= width) continue;
      const j = yy * width + xx;
      if (spread[j]! <= 4 && nearest[j - nearestBase] === label) return true;
    }
  }
  return false;
}

const RIDGE_MIN_COVERAGE = 0.22;

/** A ridge's neighbours on an axis have at least this much less of its colour. */
const RIDGE_MARGIN = 0.08;

/**
 * Share (0–1) of colour a in the pixels left, right, above and below (x, y), each seen as a blend
 * of palette colours a and b (0 outside the picture), for the ridge test. Written to `out` in
 * that order: computed in one loop and stored, not returned one by one, since a fractional number
 * returned from a call V8 does not inline is a new heap number.
 */
function sharesAround(data: Uint8Array | Uint8ClampedArray, width: number, height: number, x: number, y: number, obs: Float64Array, a: number, b: number, out: Float64Array): void {
  for (let k = 0; k < 4; k++) {
    const nx = x + AROUND_DX[k]!;
    const ny = y + AROUND_DY[k]!;
    // Outside the picture, or a and b one colour: no share. (Not `outside ? NaN : blendShare(…)`:
    // V8 kept that choice of the NaN constant and a computed share as a tagged value, a heap number
    // per neighbour.)
    let share = 0;
    if (nx >= 0 && ny >= 0 && nx < width && ny < height) {
      const o = (ny * width + nx) * 4;
      const t = blendShare(data[o]!, data[o + 1]!, data[o + 2]!, obs[a * 3]!, obs[a * 3 + 1]!, obs[a * 3 + 2]!, obs[b * 3]!, obs[b * 3 + 1]!, obs[b * 3 + 2]!, EDGE_BLEND_MIN_SPAN_SQ);
      if (!Number.isNaN(t)) share = t < 0 ? 0 : t > 1 ? 1 : t;
    }
    out[k] = share;
  }
}

/** Left, right, above, below. */
const AROUND_DX = Int8Array.from([-1, 1, 0, 0]);
const AROUND_DY = Int8Array.from([0, 0, -1, 1]);

function residualSingle(obs: Float64Array, label: number, r: number, g: number, b: number): number {
  const dr = r - obs[label * 3]!;
  const dg = g - obs[label * 3 + 1]!;
  const db = b - obs[label * 3 + 2]!;
  return dr * dr + dg * dg + db * db;
}
