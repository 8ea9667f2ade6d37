/**
 * Stage 2: choose the palette.
 * In: RGBA pixels, the image profile, max_colors (0 = automatic) and the parsed
 * `processing.palette` rules. Out: clusters with their observed mean colour (used for edge
 * coverage) and their fill colour after the palette rules (used for output), or deleted.
 *
 * Method: a histogram of *flat* pixels only (pixels equal to their 4-neighbours), so that
 * anti-aliased edge blends never claim palette slots (the halo problem); leader clustering in
 * Lab (ΔE76 radius), three k-means passes over the histogram bins, a minimum population, then
 * Ward merging down to max_colors. Deterministic: bins are visited in a fixed order.
 * Pixel-art images keep their exact colours; line art from a scan keeps its paper and ink only
 * (paperAndInk).
 */
import { blendResidualSq, blendResidualSqFromB, blendShare } from '../blend.js';
import { deltaE2000, labDistanceSq, rgbToLab } from '../color.js';
import { ColorTable } from './color-table.js';
import { indicesByKey, sortIndicesByKey } from '../order.js';
import { pixelWords } from '../pixel-words.js';
import { OPAQUE_ALPHA_MIN } from '../profile/profile.js';
import type { TraceScratch } from '../scratch.js';
import type { ImageProfile, PaletteRule, Rgba } from '../types.js';

/** Two cluster colours closer than this (RGB units²) are one colour: no blend of them is measured. */
const CLUSTER_BLEND_MIN_SPAN_SQ = 1;
/** A cluster colour within this (RGB units², 10 units) of the segment between two others is their blend. */
const CLUSTER_BLEND_MAX_RESIDUAL_SQ = 100;
/** An ink shade is measured only against paper at least this far (RGB units², 48 units) from the ink … */
const INK_SHADE_MIN_SPAN_SQ = 48 * 48;
/** … and lies within this (RGB units², 8 units) of the line from the ink to the paper. */
const INK_SHADE_MAX_RESIDUAL_SQ = 8 * 8;

export interface Palette {
  /** Number of clusters. */
  readonly size: number;
  /** Observed mean colour per cluster: r, g, b floats. */
  readonly observed: Float64Array;
  /** Lab of the observed colour per cluster. */
  readonly lab: Float64Array;
  /** Output colour per cluster after palette rules; null = the colour is deleted. */
  readonly fill: readonly (Rgba | null)[];
}

const BIN_BITS = 5;
const BIN_SHIFT = 8 - BIN_BITS;

/**
 * The arrays every histogram of one palette is counted in (5 × 32,768 doubles, zeroed once a
 * palette, not once a histogram; borrowed from the trace's scratch) and the bins the last
 * histogram used, which the next one clears: a histogram is read only until the next one is built.
 */
interface HistogramScratch {
  readonly count: Float64Array;
  readonly sumR: Float64Array;
  readonly sumG: Float64Array;
  readonly sumB: Float64Array;
  readonly sumSquares: Float64Array;
  used: Int32Array;
}

function histogramScratch(scratch: TraceScratch): HistogramScratch {
  const binCount = 1 << (3 * BIN_BITS);
  return {
    count: scratch.float64('palette.histogramCount', binCount, 0),
    sumR: scratch.float64('palette.histogramSumR', binCount, 0),
    sumG: scratch.float64('palette.histogramSumG', binCount, 0),
    sumB: scratch.float64('palette.histogramSumB', binCount, 0),
    sumSquares: scratch.float64('palette.histogramSumSquares', binCount, 0),
    used: new Int32Array(0),
  };
}

interface Histogram {
  /** Bin index per used bin, ordered by count desc then index. */
  readonly bins: Int32Array;
  readonly count: Float64Array;
  readonly sumR: Float64Array;
  readonly sumG: Float64Array;
  readonly sumB: Float64Array;
  /** Sum of r² + g² + b² per bin: with the sums, how far a bin's pixels spread around its mean. */
  readonly sumSquares: Float64Array;
}

export interface PaletteOptions {
  readonly profile: ImageProfile;
  /** JPEG-damaged or scanned: wider merge radius, no thin-colour pass (ringing is not a colour). */
  readonly noisy: boolean;
  /** Line art from a scan: only its paper and its ink (profile.ts inInkAndPaper). */
  readonly inkAndPaper?: boolean;
  /** Profiled line art (whatever it is traced as): a palette of the paper alone lacks its ink (withFaintInk). */
  readonly lineArt?: boolean;
  /** neighbourSpread() of the image. */
  readonly spread: Uint8Array;
  readonly maxColors: number;
  readonly rules: readonly PaletteRule[];
}

/** ΔE76 radius under which two colours count as one, per profile. */
const MERGE_RADIUS: Record<ImageProfile, number> = { pixel: 0, flat: 6, photo: 8, lineart: 6 };
const NOISY_MERGE_RADIUS = 6;
/** ΔE76 radius that folds the JPEG-shifted colours of pixel-art cells back into one. */
const NOISY_PIXEL_RADIUS = 4;
/**
 * Colours of fewer than this share of the cells are JPEG's: chroma subsampling smears a colour
 * across the border cells of another. They join their nearest common colour.
 */
const RARE_CELL_SHARE = 0.004;
/** After k-means, noisy images merge clusters closer than this (JPEG tints flat areas). */
const NOISY_FINAL_RADIUS = 8;
/** Upper bound on the automatic colour count, per profile. */
const AUTO_MAX_COLORS: Record<ImageProfile, number> = { pixel: 256, flat: 96, photo: 96, lineart: 96 };

/** The palette of a picture; `scratch` lends its histograms' and per-pixel arrays (scratch.ts). */
export function buildPalette(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  options: PaletteOptions,
  scratch: TraceScratch,
): Palette {
  const exact = options.profile === 'pixel';
  let clusters = exact ? exactColorClusters(data, width * height) : clusterHistogram(scratch, data, width, height, options.profile, options.noisy, options.spread);
  if (options.inkAndPaper && !exact) clusters = paperAndInk(clusters);
  if (options.lineArt && !exact && !options.noisy && clusters.count.length === 1) clusters = withFaintInk(clusters, data);
  // Pixel art read through JPEG: each art colour arrives as a cloud of near colours.
  if (exact && options.noisy) clusters = foldRareColors(leaderFold(clusters, NOISY_PIXEL_RADIUS, Infinity), RARE_CELL_SHARE);
  const limit = options.maxColors > 0 ? options.maxColors : AUTO_MAX_COLORS[options.profile];
  // Ward merging is cubic in the colour count: first fold near-identical colours together.
  if (clusters.count.length > WARD_MAX_INPUT) clusters = leaderFold(clusters, PRE_MERGE_RADIUS, WARD_MAX_INPUT);
  if (clusters.count.length > limit) clusters = wardMerge(clusters, limit);
  return finishPalette(clusters, options.rules);
}

/**
 * The paper (the most populous cluster) and the ink (the cluster farthest from it in Lab), in
 * their palette order; every other cluster is a shade of the scanner's (a halo, a second paper
 * tone from grain or uneven light) and its pixels take the nearer of the two when labelled.
 */
function paperAndInk(c: Clusters): Clusters {
  if (c.count.length <= 2) return c;
  let paper = 0;
  for (let i = 1; i < c.count.length; i++) if (c.count[i]! > c.count[paper]!) paper = i;
  const lab = new Float64Array(c.count.length * 3);
  for (let i = 0; i < c.count.length; i++) rgbToLab(c.r[i]!, c.g[i]!, c.b[i]!, lab, i * 3);
  let ink = paper === 0 ? 1 : 0;
  for (let i = 0; i < c.count.length; i++) if (i !== paper && labDistanceSq(lab, i, paper) > labDistanceSq(lab, ink, paper)) ink = i;
  return keepClusters(c, (i) => i === paper || i === ink);
}

interface Clusters {
  count: number[];
  r: number[];
  g: number[];
  b: number[];
}

function noClusters(): Clusters {
  return { count: [], r: [], g: [], b: [] };
}

/** Appends a cluster of n pixels with mean colour (r, g, b); returns its index. */
function pushCluster(out: Clusters, n: number, r: number, g: number, b: number): number {
  out.count.push(n);
  out.r.push(r);
  out.g.push(g);
  out.b.push(b);
  return out.count.length - 1;
}

/** Appends cluster i of `from` to `out`; returns its index there. */
function copyCluster(out: Clusters, from: Clusters, i: number): number {
  return pushCluster(out, from.count[i]!, from.r[i]!, from.g[i]!, from.b[i]!);
}

/** The clusters for which keep(i) holds, in order. */
function keepClusters(c: Clusters, keep: (i: number) => boolean): Clusters {
  const out = noClusters();
  for (let i = 0; i < c.count.length; i++) if (keep(i)) copyCluster(out, c, i);
  return out;
}

function cloneClusters(c: Clusters): Clusters {
  return { count: [...c.count], r: [...c.r], g: [...c.g], b: [...c.b] };
}

function exactColorClusters(data: Uint8Array | Uint8ClampedArray, pixelCount: number): Clusters {
  const counts = new ColorTable();
  // A run of one colour (art repeats the pixel before) is added once.
  let runKey = -1;
  let runLength = 0;
  for (let i = 0; i < pixelCount; i++) {
    const o = i * 4;
    if (data[o + 3]! < OPAQUE_ALPHA_MIN) continue;
    const key = (data[o]! << 16) | (data[o + 1]! << 8) | data[o + 2]!;
    if (key !== runKey) {
      if (runLength > 0) counts.add(runKey, runLength);
      runKey = key;
      runLength = 0;
    }
    runLength++;
  }
  if (runLength > 0) counts.add(runKey, runLength);
  // Most frequent first, equal counts by colour value: colours in ascending order, then a stable
  // index sort by count.
  const colors = counts.keyList().sort();
  const colorCounts = new Float64Array(colors.length);
  for (let i = 0; i < colors.length; i++) colorCounts[i] = counts.get(colors[i]!, 0);
  const out = noClusters();
  for (const i of indicesByKey(colorCounts, true)) {
    const key = colors[i]!;
    pushCluster(out, colorCounts[i]!, (key >> 16) & 255, (key >> 8) & 255, key & 255);
  }
  return out;
}

/**
 * Which pixels a histogram counts, by their neighbour spread (profile.ts neighbourSpread): all of
 * them, the flat ones (spread ≤ tolerance: the colours of areas), or the unflat ones (spread >
 * tolerance: candidates for thin strokes, which have no flat pixels).
 */
type SpreadFilter =
  | { readonly keep: 'all' }
  | { readonly keep: 'flat' | 'unflat'; readonly spread: Uint8Array; readonly tolerance: number };

const ALL_PIXELS: SpreadFilter = { keep: 'all' };

function buildHistogram(
  scratch: HistogramScratch,
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  filter: SpreadFilter,
  accept?: (x: number, y: number) => boolean,
): Histogram {
  const { count, sumR, sumG, sumB, sumSquares } = scratch;
  for (const bin of scratch.used) count[bin] = sumR[bin] = sumG[bin] = sumB[bin] = sumSquares[bin] = 0;
  // The bins counted, as they are first met (no pass over all 32,768 bins to find them).
  const used: number[] = [];
  // The spread test as one integer range [lowest, highest] (spreads are whole numbers 0–255).
  const spread = filter.keep === 'all' ? undefined : filter.spread;
  const lowest = filter.keep === 'unflat' ? Math.floor(filter.tolerance) + 1 : 0;
  const highest = filter.keep === 'flat' ? Math.floor(filter.tolerance) : 255;
  // Pixels of the colour counted last are only counted (flat art repeats it along a row); the run
  // is added when the colour changes. Sums of whole numbers are exact in doubles, so the totals
  // do not depend on the order.
  let runKey = -1;
  let runLength = 0;
  const flushRun = (): void => {
    if (runLength === 0) return;
    const r = runKey >>> 16;
    const g = (runKey >>> 8) & 255;
    const b = runKey & 255;
    const bin = ((r >> BIN_SHIFT) << (2 * BIN_BITS)) | ((g >> BIN_SHIFT) << BIN_BITS) | (b >> BIN_SHIFT);
    if (count[bin] === 0) used.push(bin);
    count[bin]! += runLength;
    sumR[bin]! += r * runLength;
    sumG[bin]! += g * runLength;
    sumB[bin]! += b * runLength;
    sumSquares[bin]! += (r * r + g * g + b * b) * runLength;
    runLength = 0;
  };
  // The word (colour and alpha) of the run's pixels: a pixel of that word is opaque and of the
  // run's colour, one comparison instead of four byte reads.
  const words = pixelWords(data);
  let runWord = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (spread && (spread[i]! < lowest || spread[i]! > highest)) continue;
      const word = words[i]!;
      if (word !== runWord && data[i * 4 + 3]! < OPAQUE_ALPHA_MIN) continue;
      if (accept && !accept(x, y)) continue;
      if (word !== runWord) {
        const o = i * 4;
        const key = (data[o]! << 16) | (data[o + 1]! << 8) | data[o + 2]!;
        if (key !== runKey) {
          flushRun();
          runKey = key;
        }
        runWord = word;
      }
      runLength++;
    }
  }
  flushRun();
  // By bin first, so that equal counts stay in bin order through the stable sort by count.
  const bins = Int32Array.from(used).sort();
  scratch.used = bins;
  const byCount = sortIndicesByKey(Array.from(bins), count, true);
  return { bins: Int32Array.from(byCount), count, sumR, sumG, sumB, sumSquares };
}

/**
 * Neighbour spread up to which a pixel is flat (its colour is an area's): JPEG noise and a photo's
 * grain need more room than clean art.
 */
const FLAT_SPREAD_CLEAN = 6;
const FLAT_SPREAD_GRAINY = 10;
/** Below this share of flat pixels (noise, dithering, photos) every pixel is counted instead. */
const MIN_FLAT_SAMPLE_SHARE = 0.05;
/**
 * Smallest cluster that is a colour of the picture, not a stray: MIN_POPULATION_PX pixels and this
 * share of the picture (photos and noisy art have many near colours of few pixels each).
 */
const MIN_POPULATION_PX = 6;
const MIN_POPULATION_SHARE = { photo: 0.0008, noisy: 0.0004, clean: 0.00008 } as const;
/** Thin-stroke pixels match two neighbours within this (per channel); JPEG needs more. */
const THIN_STROKE_TOLERANCE = { clean: 8, noisy: 28 } as const;

function clusterHistogram(scratch: TraceScratch, data: Uint8Array | Uint8ClampedArray, width: number, height: number, profile: ImageProfile, noisy: boolean, spread: Uint8Array): Clusters {
  const pixelCount = width * height;
  const histograms = histogramScratch(scratch);
  const hist = sampledHistogram(histograms, data, width, height, profile, noisy, spread);
  const binLab = binColoursLab(hist);
  const radius = noisy ? Math.max(MERGE_RADIUS[profile], NOISY_MERGE_RADIUS) : MERGE_RADIUS[profile];
  const pinned = profile === 'flat' && !noisy ? distinctFlatBins(hist, data, width, height, scratch) : new Uint8Array(hist.bins.length);
  const leaders = leaderClusters(binLab, pinned, radius ** 2);
  const clusters = polishClusters(hist, binLab, leaders, pinned);
  // Drop clusters too small to be a real colour of the picture; their pixels go to neighbours.
  const minPopulation = Math.max(MIN_POPULATION_PX, pixelCount * (profile === 'photo' ? MIN_POPULATION_SHARE.photo : noisy ? MIN_POPULATION_SHARE.noisy : MIN_POPULATION_SHARE.clean));
  const keep = keepClusters(clusters, (c) => !(clusters.count[c]! < minPopulation && clusters.count.length > 1));
  const kept = keep.count.length > 0 ? keep : clusters;
  const base = noisy ? mergeCloserThan(kept, NOISY_FINAL_RADIUS) : kept;
  const withThin = addThinColors(histograms, data, width, height, spread, base, minPopulation, radius, noisy);
  if (profile === 'photo') return addUnexplainedColors(histograms, data, width, height, withThin, minPopulation);
  return mergeShades(withThin, data, width, height, leaders.distinctFlatLab, scratch);
}

/**
 * Line art whose palette is the paper alone: its ink is all edge (a hairline under a pixel wide
 * never reaches its full colour and has no flat pixel, so the histogram of flat pixels never saw
 * it), and one colour would trace a blank page. The ink is the mean of the opaque pixels at least
 * FAINT_INK_REACH of the way to the one farthest from the paper; none far enough: the paper alone.
 */
function withFaintInk(paper: Clusters, data: Uint8Array | Uint8ClampedArray): Clusters {
  const [pr, pg, pb] = [paper.r[0]!, paper.g[0]!, paper.b[0]!];
  const distanceSq = (i: number): number => (data[i]! - pr) ** 2 + (data[i + 1]! - pg) ** 2 + (data[i + 2]! - pb) ** 2;
  let farthest = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i + 3]! >= 128) farthest = Math.max(farthest, distanceSq(i));
  if (farthest < FAINT_INK_MIN_DISTANCE ** 2) return paper;
  const sum = [0, 0, 0];
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3]! < 128 || distanceSq(i) < FAINT_INK_REACH ** 2 * farthest) continue;
    sum[0]! += data[i]!;
    sum[1]! += data[i + 1]!;
    sum[2]! += data[i + 2]!;
    n++;
  }
  const out = noClusters();
  copyCluster(out, paper, 0);
  pushCluster(out, n, sum[0]! / n, sum[1]! / n, sum[2]! / n);
  return out;
}
/** Share of the way to the farthest pixel from the paper that counts as ink. */
const FAINT_INK_REACH = 0.9;
/** An ink closer than this (RGB distance) to the paper is none (paper grain). */
const FAINT_INK_MIN_DISTANCE = 48;

/** The histogram of flat pixels, or of every pixel when too few are flat (noise, dithering, photos). */
function sampledHistogram(scratch: HistogramScratch, data: Uint8Array | Uint8ClampedArray, width: number, height: number, profile: ImageProfile, noisy: boolean, spread: Uint8Array): Histogram {
  const flatTolerance = profile === 'photo' || noisy ? FLAT_SPREAD_GRAINY : FLAT_SPREAD_CLEAN;
  const hist = buildHistogram(scratch, data, width, height, { keep: 'flat', spread, tolerance: flatTolerance });
  let sampled = 0;
  for (const bin of hist.bins) sampled += hist.count[bin]!;
  return sampled < width * height * MIN_FLAT_SAMPLE_SHARE ? buildHistogram(scratch, data, width, height, ALL_PIXELS) : hist;
}

/** The Lab colour of each listed bin's mean (3 numbers per bin, in hist.bins' order). */
function binColoursLab(hist: Histogram): Float64Array {
  const bins = hist.bins;
  const binLab = new Float64Array(bins.length * 3);
  for (let i = 0; i < bins.length; i++) {
    const bin = bins[i]!;
    const n = hist.count[bin]!;
    rgbToLab(hist.sumR[bin]! / n, hist.sumG[bin]! / n, hist.sumB[bin]! / n, binLab, i * 3);
  }
  return binLab;
}

/** Leader clustering's answer: each bin's leader, the leaders' Lab colours and the distinct flat colours' (3 numbers each). */
interface Leaders {
  readonly assign: Int32Array;
  readonly leaderLab: number[];
  readonly distinctFlatLab: number[];
}

/**
 * Leader clustering: the most populous bins found clusters, the rest join the nearest leader
 * within radiusSq (Lab units²). A bin that is one exact colour over a large flat area (pinned:
 * the artist's shadow tone beside the body colour) joins a leader only where a person could not
 * tell the two apart: it is a colour of the picture, however close to its neighbour.
 */
function leaderClusters(binLab: Float64Array, pinned: Uint8Array, radiusSq: number): Leaders {
  const count = binLab.length / 3;
  const leaderLab: number[] = [];
  const distinctFlatLab: number[] = [];
  const assign = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    let best = -1;
    if (pinned[i]) distinctFlatLab.push(binLab[i * 3]!, binLab[i * 3 + 1]!, binLab[i * 3 + 2]!);
    let bestD = radiusSq;
    for (let k = 0; k < leaderLab.length / 3; k++) {
      const d = sq(binLab[i * 3]! - leaderLab[k * 3]!) + sq(binLab[i * 3 + 1]! - leaderLab[k * 3 + 1]!) + sq(binLab[i * 3 + 2]! - leaderLab[k * 3 + 2]!);
      if (d < bestD) {
        bestD = d;
        best = k;
      }
    }
    // A distinct flat colour a person tells from its leader founds a cluster of its own.
    if (best >= 0 && pinned[i] && deltaE2000(binLab, i, leaderLab, best) >= DISTINCT_FLAT_MIN_DELTA_E00) best = -1;
    if (best < 0) {
      best = leaderLab.length / 3;
      leaderLab.push(binLab[i * 3]!, binLab[i * 3 + 1]!, binLab[i * 3 + 2]!);
    }
    assign[i] = best;
  }
  return { assign, leaderLab, distinctFlatLab };
}

/**
 * k-means polish over bins (weights = counts) from the leaders; empty clusters vanish. A distinct
 * flat colour stays with its leader: a drifting centre must not hand it to a neighbouring colour.
 * leaders.assign is reused (written over).
 */
function polishClusters(hist: Histogram, binLab: Float64Array, leaders: Leaders, pinned: Uint8Array): Clusters {
  const { bins } = hist;
  const assign = leaders.assign;
  let k = leaders.leaderLab.length / 3;
  let centers = Float64Array.from(leaders.leaderLab);
  let clusters = noClusters();
  for (let pass = 0; pass < 3; pass++) {
    if (pass > 0) {
      for (let i = 0; i < bins.length; i++) if (!pinned[i]) assign[i] = nearestCenter(binLab, i, centers, k);
    }
    clusters = accumulate(hist, bins, assign, k, pinned);
    centers = new Float64Array(clusters.count.length * 3);
    for (let c = 0; c < clusters.count.length; c++) rgbToLab(clusters.r[c]!, clusters.g[c]!, clusters.b[c]!, centers, c * 3);
    k = clusters.count.length;
  }
  return clusters;
}

/**
 * A flat colour of at least this share of the picture keeps a cluster of its own (issue 39: the
 * lemon's shadow, 13 % of the picture, was merged into the body colour 3 ΔE00 away).
 */
const FLAT_COLOR_KEEP_SHARE = 0.005;
/**
 * Largest spread of a bin's pixels around their mean (mean of squared RGB distances, in RGB
 * units²) for the bin to be one exact colour: a flat tone with a few anti-aliasing stragglers,
 * not a gradient's steps, which spread over the whole 8-unit bin (≥ 5 units² on one channel).
 */
const EXACT_BIN_MAX_SPREAD_SQ = 2;
/** Largest step (RGB units, any channel) from one tone of a rendered gradient to the next. */
const SOFT_STEP = 3;
/** Distinct flat colours looked for (the most populous bins first). */
const MAX_DISTINCT_FLAT_COLORS = 64;
/**
 * CIEDE2000 from which a distinct flat colour is not merged with its neighbour: the lemon's
 * shadow is 3.0 from its body, the glove's leather tones 3.1; JPEG's two tones of one blue 1.0.
 */
const DISTINCT_FLAT_MIN_DELTA_E00 = 1.5;
/** True when Lab colour i of `lab` is one a person cannot tell from a colour of `distinctLab`. */
function isDistinctFlatColor(lab: Float64Array, i: number, distinctLab: readonly number[]): boolean {
  for (let k = 0; k < distinctLab.length / 3; k++) if (deltaE2000(lab, i, distinctLab, k) < DISTINCT_FLAT_MIN_DELTA_E00) return true;
  return false;
}

/**
 * Per bin of the histogram (in `hist.bins` order), 1 where the bin is a distinct flat colour of
 * the art: one exact colour (its pixels spread at most EXACT_BIN_MAX_SPREAD_SQ around their mean)
 * over at least FLAT_COLOR_KEEP_SHARE of the picture, whose area is bounded by hard edges. A
 * rendered gradient's tones are flat and exact too, but each borders the next tone one or two
 * units away: a colour with mostly soft borders is a gradient step, not a colour of its own.
 */
function distinctFlatBins(hist: Histogram, data: Uint8Array | Uint8ClampedArray, width: number, height: number, scratch: TraceScratch): Uint8Array {
  const bins = hist.bins;
  const pinned = new Uint8Array(bins.length);
  const minCount = width * height * FLAT_COLOR_KEEP_SHARE;
  const candidateOfBin = scratch.int16('palette.candidateOfBin', 1 << (3 * BIN_BITS), -1);
  const candidates: number[] = [];
  const means: number[] = [];
  for (let i = 0; i < bins.length && candidates.length < MAX_DISTINCT_FLAT_COLORS; i++) {
    const bin = bins[i]!;
    const n = hist.count[bin]!;
    if (n < minCount) break; // bins are sorted by count
    const meanR = hist.sumR[bin]! / n;
    const meanG = hist.sumG[bin]! / n;
    const meanB = hist.sumB[bin]! / n;
    if (hist.sumSquares[bin]! / n - (meanR * meanR + meanG * meanG + meanB * meanB) > EXACT_BIN_MAX_SPREAD_SQ) continue;
    candidateOfBin[bin] = candidates.length;
    candidates.push(i);
    means.push(meanR, meanG, meanB);
  }
  if (candidates.length === 0) return pinned;
  const soft = new Float64Array(candidates.length);
  const hard = new Float64Array(candidates.length);
  countBorderSteps(data, width, height, candidateOfBin, means, soft, hard);
  for (let c = 0; c < candidates.length; c++) if (hard[c]! > soft[c]!) pinned[candidates[c]!] = 1;
  return pinned;
}

/**
 * For the pixels of each candidate colour (in the candidate's bin, within half a unit plus one of
 * its mean on every channel), counts the 4-neighbours of another colour: `soft` where the step is
 * at most SOFT_STEP on every channel, `hard` otherwise.
 */
function countBorderSteps(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  candidateOfBin: Int16Array,
  means: readonly number[],
  soft: Float64Array,
  hard: Float64Array,
): void {
  // Art repeats a pixel along a row and across rows: a pixel equal to the one before it (one word
  // compare) has the same candidate, and an equal neighbour is no step at all.
  const words = pixelWords(data);
  let lastWord = -1;
  let lastCandidate = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const word = words[i]!;
      if (word !== lastWord) {
        lastWord = word;
        lastCandidate = borderCandidate(data, i * 4, candidateOfBin, means);
      }
      const c = lastCandidate;
      if (c < 0) continue;
      const o = i * 4;
      if (x > 0 && words[i - 1] !== word) countStep(data, o, o - 4, c, soft, hard);
      if (x < width - 1 && words[i + 1] !== word) countStep(data, o, o + 4, c, soft, hard);
      if (y > 0 && words[i - width] !== word) countStep(data, o, o - width * 4, c, soft, hard);
      if (y < height - 1 && words[i + width] !== word) countStep(data, o, o + width * 4, c, soft, hard);
    }
  }
}

/** The candidate colour of the pixel at byte o (opaque, in a candidate's bin, near its mean), or −1. */
function borderCandidate(data: Uint8Array | Uint8ClampedArray, o: number, candidateOfBin: Int16Array, means: readonly number[]): number {
  if (data[o + 3]! < OPAQUE_ALPHA_MIN) return -1;
  const r = data[o]!;
  const g = data[o + 1]!;
  const b = data[o + 2]!;
  const c = candidateOfBin[((r >> BIN_SHIFT) << (2 * BIN_BITS)) | ((g >> BIN_SHIFT) << BIN_BITS) | (b >> BIN_SHIFT)]!;
  if (c < 0 || Math.abs(r - means[c * 3]!) > 1.5 || Math.abs(g - means[c * 3 + 1]!) > 1.5 || Math.abs(b - means[c * 3 + 2]!) > 1.5) return -1;
  return c;
}

function countStep(data: Uint8Array | Uint8ClampedArray, o: number, p: number, c: number, soft: Float64Array, hard: Float64Array): void {
  const dr = Math.abs(data[o]! - data[p]!);
  const dg = Math.abs(data[o + 1]! - data[p + 1]!);
  const db = Math.abs(data[o + 2]! - data[p + 2]!);
  const step = Math.max(dr, dg, db);
  if (step === 0) return;
  if (step <= SOFT_STEP) soft[c]!++;
  else hard[c]!++;
}

/** ΔE76 from every palette colour beyond which a photo's pixel is not explained by the palette. */
const UNEXPLAINED_RADIUS = 16;

/**
 * A photo's palette comes from its flat pixels, and a small photo has few: a white rocket 5 px
 * wide or a street light is all edge, so its colour never reaches the histogram and its pixels
 * take the nearest colour left (an orange flare for the rocket). Every pixel counts here: colours
 * farther than UNEXPLAINED_RADIUS from the whole palette are clustered (leader clustering, most
 * populous first) and a cluster with minPopulation pixels or more joins the palette.
 */
function addUnexplainedColors(scratch: HistogramScratch, data: Uint8Array | Uint8ClampedArray, width: number, height: number, clusters: Clusters, minPopulation: number): Clusters {
  const hist = buildHistogram(scratch, data, width, height, ALL_PIXELS);
  const known: number[] = [];
  const lab = new Float64Array(3);
  for (let c = 0; c < clusters.count.length; c++) {
    rgbToLab(clusters.r[c]!, clusters.g[c]!, clusters.b[c]!, lab, 0);
    known.push(lab[0]!, lab[1]!, lab[2]!);
  }
  const farSq = UNEXPLAINED_RADIUS ** 2;
  const leaderLab: number[] = [];
  const added = noClusters();
  for (const bin of hist.bins) {
    const n = hist.count[bin]!;
    rgbToLab(hist.sumR[bin]! / n, hist.sumG[bin]! / n, hist.sumB[bin]! / n, lab, 0);
    let explained = false;
    for (let c = 0; c < known.length / 3 && !explained; c++) explained = sq(lab[0]! - known[c * 3]!) + sq(lab[1]! - known[c * 3 + 1]!) + sq(lab[2]! - known[c * 3 + 2]!) < farSq;
    if (explained) continue;
    let leader = -1;
    let bestSq = farSq;
    for (let k = 0; k < leaderLab.length / 3; k++) {
      const d = sq(lab[0]! - leaderLab[k * 3]!) + sq(lab[1]! - leaderLab[k * 3 + 1]!) + sq(lab[2]! - leaderLab[k * 3 + 2]!);
      if (d < bestSq) {
        bestSq = d;
        leader = k;
      }
    }
    if (leader < 0) {
      leader = leaderLab.length / 3;
      leaderLab.push(lab[0]!, lab[1]!, lab[2]!);
      pushCluster(added, 0, 0, 0, 0);
    }
    added.count[leader]! += n;
    added.r[leader]! += hist.sumR[bin]!;
    added.g[leader]! += hist.sumG[bin]!;
    added.b[leader]! += hist.sumB[bin]!;
  }
  const out = cloneClusters(clusters);
  for (let k = 0; k < added.count.length; k++) {
    const n = added.count[k]!;
    if (n >= minPopulation) pushCluster(out, n, added.r[k]! / n, added.g[k]! / n, added.b[k]! / n);
  }
  return out;
}

/**
 * Thin strokes (1–2 px lines, small text) have no flat pixels, so the histogram above never sees
 * their colour. Pixels that match at least two of their 4-neighbours are collected as well; a
 * colour among them that is far from every cluster and is not a two-colour blend of existing
 * clusters (anti-aliasing) becomes a cluster of its own.
 */
function addThinColors(
  scratch: HistogramScratch,
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  spread: Uint8Array,
  clusters: Clusters,
  minPopulation: number,
  radius: number,
  noisy: boolean,
): Clusters {
  const tolerance = noisy ? THIN_STROKE_TOLERANCE.noisy : THIN_STROKE_TOLERANCE.clean;
  // Pixels within tolerance of all four neighbours are flat, not thin: skipped by the spread test.
  const hist = buildHistogram(scratch, data, width, height, { keep: 'unflat', spread, tolerance }, (x, y) => isThinStrokePixel(data, width, height, x, y, tolerance));
  const out = cloneClusters(clusters);
  const lab = new Float64Array(3);
  const clusterLab: number[] = [];
  for (let c = 0; c < out.count.length; c++) {
    rgbToLab(out.r[c]!, out.g[c]!, out.b[c]!, lab, 0);
    clusterLab.push(lab[0]!, lab[1]!, lab[2]!);
  }
  const radiusSq = Math.max(radius, 6) ** 2;
  for (const bin of hist.bins) {
    const n = hist.count[bin]!;
    if (n < minPopulation) break; // bins are sorted by count
    const r = hist.sumR[bin]! / n;
    const g = hist.sumG[bin]! / n;
    const b = hist.sumB[bin]! / n;
    rgbToLab(r, g, b, lab, 0);
    let near = false;
    for (let c = 0; c < clusterLab.length / 3 && !near; c++) {
      near = sq(lab[0]! - clusterLab[c * 3]!) + sq(lab[1]! - clusterLab[c * 3 + 1]!) + sq(lab[2]! - clusterLab[c * 3 + 2]!) < radiusSq;
    }
    if (near || isBlendOfClusters(out, r, g, b, noisy)) continue;
    pushCluster(out, n, r, g, b);
    clusterLab.push(lab[0]!, lab[1]!, lab[2]!);
  }
  return dropThinBlends(out, clusters.count.length, noisy);
}

/**
 * A thin line's partly covered pixels are blends of the line and what lies under it; when such a
 * blend was common enough to be taken before the line's own colour (JPEG smears a dark line into
 * a wide band of dark reds), it is dropped now that the line's colour is there: a thin colour that
 * is a blend of another thin colour and any cluster.
 */
function dropThinBlends(c: Clusters, baseCount: number, noisy: boolean): Clusters {
  // In clean art only a near copy of the line diluted a little by what lies under it (a 1 px
  // outline's half-covered pixels): shading ramps (skin tones between a highlight and a shadow)
  // are blends of their neighbours too, but a good way along, and are the art's own colours.
  const lab = new Float64Array(c.count.length * 3);
  for (let i = 0; i < c.count.length; i++) rgbToLab(c.r[i]!, c.g[i]!, c.b[i]!, lab, i * 3);
  const dropped = new Uint8Array(c.count.length);
  for (let i = baseCount; i < c.count.length; i++) {
    for (let j = baseCount; j < c.count.length && !dropped[i]; j++) {
      if (j === i || dropped[j]) continue;
      if (!noisy && labDistanceSq(lab, i, j) > CLEAN_THIN_BLEND_DELTA_E ** 2) continue;
      for (let k = 0; k < c.count.length && !dropped[i]; k++) {
        if (k === i || k === j || dropped[k]) continue;
        if (noisy) {
          const pair: Clusters = { count: [1, 1], r: [c.r[j]!, c.r[k]!], g: [c.g[j]!, c.g[k]!], b: [c.b[j]!, c.b[k]!] };
          if (isBlendOfClusters(pair, c.r[i]!, c.g[i]!, c.b[i]!, noisy, 0)) dropped[i] = 1;
        } else if (shareOfSecond(c, i, j, k) <= CLEAN_THIN_BLEND_SHARE) dropped[i] = 1;
      }
    }
  }
  return keepClusters(c, (i) => !dropped[i]);
}

const CLEAN_THIN_BLEND_DELTA_E = 15;
const CLEAN_THIN_BLEND_SHARE = 0.2;

/**
 * When colour i is a blend of j and k (within 10 RGB units of the segment between them, strictly
 * inside it), the share of k in it; else Infinity.
 */
function shareOfSecond(c: Clusters, i: number, j: number, k: number): number {
  const t = blendShare(c.r[i]!, c.g[i]!, c.b[i]!, c.r[k]!, c.g[k]!, c.b[k]!, c.r[j]!, c.g[j]!, c.b[j]!, CLUSTER_BLEND_MIN_SPAN_SQ);
  // (NaN, one colour, fails both comparisons: checked apart.)
  if (Number.isNaN(t) || t <= 0 || t >= 1) return Infinity;
  return blendResidualSqFromB(c.r[i]!, c.g[i]!, c.b[i]!, c.r[k]!, c.g[k]!, c.b[k]!, c.r[j]!, c.g[j]!, c.b[j]!, t) < CLUSTER_BLEND_MAX_RESIDUAL_SQ ? t : Infinity;
}

function isThinStrokePixel(data: Uint8Array | Uint8ClampedArray, width: number, height: number, x: number, y: number, tol: number): boolean {
  const o = (y * width + x) * 4;
  // No closure over a counter here: it was a context allocation per pixel.
  let same = 0;
  if (x > 0 && sameColor(data, o, o - 4, tol)) same++;
  if (x < width - 1 && sameColor(data, o, o + 4, tol)) same++;
  if (y > 0 && sameColor(data, o, o - width * 4, tol)) same++;
  if (y < height - 1 && sameColor(data, o, o + width * 4, tol)) same++;
  return same >= 2 && same < 4;
}

/** Every RGB channel of the pixels at byte offsets o and p within `tol`. */
function sameColor(data: Uint8Array | Uint8ClampedArray, o: number, p: number, tol: number): boolean {
  return Math.abs(data[o]! - data[p]!) <= tol && Math.abs(data[o + 1]! - data[p + 1]!) <= tol && Math.abs(data[o + 2]! - data[p + 2]!) <= tol;
}

/**
 * True when the colour lies (within 10 RGB units) on a segment between two clusters. Noisy
 * images also count ringing — JPEG's overshoot a little past either end — as a blend.
 */
function isBlendOfClusters(c: Clusters, r: number, g: number, b: number, noisy: boolean, overshoot = noisy ? 0.2 : 0): boolean {
  // JPEG subsamples chroma: a blend next to a dark line drifts in hue by 20–30 units.
  const maxResidualSq = noisy ? 35 * 35 : 100;
  for (let i = 0; i < c.count.length; i++) {
    for (let j = i + 1; j < c.count.length; j++) {
      const t = blendShare(r, g, b, c.r[i]!, c.g[i]!, c.b[i]!, c.r[j]!, c.g[j]!, c.b[j]!, CLUSTER_BLEND_MIN_SPAN_SQ);
      if (Number.isNaN(t) || t < -overshoot || t > 1 + overshoot) continue;
      if (blendResidualSq(r, g, b, c.r[i]!, c.g[i]!, c.b[i]!, c.r[j]!, c.g[j]!, c.b[j]!, t) < maxResidualSq) return true;
    }
  }
  return false;
}

/**
 * Cluster means of the bins assigned to each cluster; empty clusters vanish (assign is renumbered).
 * A cluster that holds pinned bins (distinct flat colours) and whose mean drifted visibly from
 * them (other bins pulled it: the calculator's light bezel became a grey that is no colour of the
 * art) takes the pinned bins' colour: the others add their pixels, not their colour.
 */
function accumulate(hist: Histogram, bins: Int32Array, assign: Int32Array, k: number, pinned: Uint8Array): Clusters {
  const n = new Float64Array(k);
  const sums = new Float64Array(k * 3);
  const pinnedN = new Float64Array(k);
  const pinnedSums = new Float64Array(k * 3);
  for (let i = 0; i < bins.length; i++) {
    const bin = bins[i]!;
    const c = assign[i]!;
    n[c]! += hist.count[bin]!;
    sums[c * 3]! += hist.sumR[bin]!;
    sums[c * 3 + 1]! += hist.sumG[bin]!;
    sums[c * 3 + 2]! += hist.sumB[bin]!;
    if (!pinned[i]) continue;
    pinnedN[c]! += hist.count[bin]!;
    pinnedSums[c * 3]! += hist.sumR[bin]!;
    pinnedSums[c * 3 + 1]! += hist.sumG[bin]!;
    pinnedSums[c * 3 + 2]! += hist.sumB[bin]!;
  }
  const out = noClusters();
  const remap = new Int32Array(k).fill(-1);
  const lab = new Float64Array(6);
  for (let c = 0; c < k; c++) {
    if (n[c] === 0) continue;
    for (let ch = 0; ch < 3; ch++) sums[c * 3 + ch]! /= n[c]!;
    if (pinnedN[c]! > 0) {
      for (let ch = 0; ch < 3; ch++) pinnedSums[c * 3 + ch]! /= pinnedN[c]!;
      rgbToLab(sums[c * 3]!, sums[c * 3 + 1]!, sums[c * 3 + 2]!, lab, 0);
      rgbToLab(pinnedSums[c * 3]!, pinnedSums[c * 3 + 1]!, pinnedSums[c * 3 + 2]!, lab, 3);
      if (deltaE2000(lab, 0, lab, 1) >= DISTINCT_FLAT_MIN_DELTA_E00) for (let ch = 0; ch < 3; ch++) sums[c * 3 + ch] = pinnedSums[c * 3 + ch]!;
    }
    remap[c] = pushCluster(out, n[c]!, sums[c * 3]!, sums[c * 3 + 1]!, sums[c * 3 + 2]!);
  }
  for (let i = 0; i < assign.length; i++) assign[i] = remap[assign[i]!]!;
  return out;
}

function nearestCenter(lab: Float64Array, i: number, centers: Float64Array, k: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let c = 0; c < k; c++) {
    const d = sq(lab[i * 3]! - centers[c * 3]!) + sq(lab[i * 3 + 1]! - centers[c * 3 + 1]!) + sq(lab[i * 3 + 2]! - centers[c * 3 + 2]!);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

const WARD_MAX_INPUT = 400;
const PRE_MERGE_RADIUS = 3;

/**
 * Leader clustering of clusters (most populous first): each joins the first leader within
 * `radius` ΔE76. The radius grows until at most `maxCount` leaders remain.
 */
function leaderFold(input: Clusters, radius: number, maxCount: number): Clusters {
  const order = indicesByKey(input.count, true);
  const lab = new Float64Array(input.count.length * 3);
  for (let i = 0; i < input.count.length; i++) rgbToLab(input.r[i]!, input.g[i]!, input.b[i]!, lab, i * 3);
  for (let r = radius; ; r *= 1.5) {
    const leaders: number[] = [];
    const sums = noClusters();
    for (const i of order) {
      let home = -1;
      for (let k = 0; k < leaders.length && home < 0; k++) if (labDistanceSq(lab, i, leaders[k]!) < r * r) home = k;
      const n = input.count[i]!;
      if (home < 0) {
        leaders.push(i);
        pushCluster(sums, n, input.r[i]! * n, input.g[i]! * n, input.b[i]! * n);
      } else {
        sums.count[home]! += n;
        sums.r[home]! += input.r[i]! * n;
        sums.g[home]! += input.g[i]! * n;
        sums.b[home]! += input.b[i]! * n;
      }
    }
    if (leaders.length <= maxCount) {
      const out: Clusters = { count: sums.count, r: [], g: [], b: [] };
      for (let k = 0; k < sums.count.length; k++) {
        out.r.push(sums.r[k]! / sums.count[k]!);
        out.g.push(sums.g[k]! / sums.count[k]!);
        out.b.push(sums.b[k]! / sums.count[k]!);
      }
      return out;
    }
  }
}

/**
 * Every cluster holding less than `share` of the pixels joins its nearest (ΔE76) cluster that
 * holds more; the common ones keep their own colour (they are the art's), the rare ones only add
 * their count.
 */
function foldRareColors(input: Clusters, share: number): Clusters {
  let total = 0;
  for (const n of input.count) total += n;
  const minCount = Math.max(2, total * share);
  const common: number[] = [];
  for (let i = 0; i < input.count.length; i++) if (input.count[i]! >= minCount) common.push(i);
  if (common.length === 0 || common.length === input.count.length) return input;
  const lab = new Float64Array(input.count.length * 3);
  for (let i = 0; i < input.count.length; i++) rgbToLab(input.r[i]!, input.g[i]!, input.b[i]!, lab, i * 3);
  const out = noClusters();
  for (const i of common) copyCluster(out, input, i);
  for (let i = 0; i < input.count.length; i++) {
    if (input.count[i]! >= minCount) continue;
    let best = 0;
    for (let k = 1; k < common.length; k++) if (labDistanceSq(lab, i, common[k]!) < labDistanceSq(lab, i, common[best]!)) best = k;
    out.count[best]! += input.count[i]!;
  }
  return out;
}

/**
 * A cluster that is a slightly diluted copy of another — on the straight line from it towards a
 * third cluster, a little way along (blurred ink: the core and a rim a few per cent towards the
 * paper) — is that cluster's edge, not a colour: it joins it. Art's own close shades are rarely
 * on such a line (a shade of yellow is not yellow mixed with white), so they stay.
 */
function mergeShades(input: Clusters, data: Uint8Array | Uint8ClampedArray, width: number, height: number, distinctFlatLab: readonly number[], scratch: TraceScratch): Clusters {
  const c: Clusters = { count: [...input.count], r: [...input.r], g: [...input.g], b: [...input.b] };
  let interior: Float64Array | undefined;
  const lab = new Float64Array(c.count.length * 3);
  for (let i = 0; i < c.count.length; i++) rgbToLab(c.r[i]!, c.g[i]!, c.b[i]!, lab, i * 3);
  const into = new Int32Array(c.count.length).fill(-1);
  let paper = 0;
  for (let i = 1; i < c.count.length; i++) if (c.count[i]! > c.count[paper]!) paper = i;
  for (let s = 0; s < c.count.length; s++) {
    // A large flat area of one exact colour is the art's, not a rim (a bezel's light edge).
    if (s === paper || isDistinctFlatColor(lab, s, distinctFlatLab)) continue;
    for (let a = 0; a < c.count.length && into[s]! < 0; a++) {
      if (a === s || into[a]! >= 0 || labDistanceSq(lab, s, a) > SHADE_MAX_DELTA_E ** 2) continue;
      // Only a shade towards the picture's most common colour (the paper a scan's ink bleeds
      // into): shades between two inks are the art's shading.
      for (const b of [paper]) {
        if (b === s || b === a) continue;
        // s as a blend of the paper b into the ink a: a little paper (t up to 0.15), close to the line.
        const t = blendShare(c.r[s]!, c.g[s]!, c.b[s]!, c.r[b]!, c.g[b]!, c.b[b]!, c.r[a]!, c.g[a]!, c.b[a]!, INK_SHADE_MIN_SPAN_SQ);
        if (Number.isNaN(t) || t <= 0 || t > 0.15) continue;
        if (blendResidualSqFromB(c.r[s]!, c.g[s]!, c.b[s]!, c.r[b]!, c.g[b]!, c.b[b]!, c.r[a]!, c.g[a]!, c.b[a]!, t) >= INK_SHADE_MAX_RESIDUAL_SQ) continue;
        // An edge shade is a rim: few of its pixels are surrounded by their own colour.
        interior ??= interiorShares(c, data, width, height, scratch);
        if (interior[s]! < SHADE_MAX_INTERIOR && !isExactArea(c, s, interior[s]!, data, width * height)) {
          into[s] = a;
          break;
        }
      }
    }
  }
  const out = noClusters();
  const index = new Int32Array(c.count.length).fill(-1);
  for (let i = 0; i < c.count.length; i++) if (into[i]! < 0) index[i] = copyCluster(out, c, i);
  // The shade adds its pixels, not its colour: the cluster keeps its own (purer) colour.
  for (let i = 0; i < c.count.length; i++) {
    let root = i;
    for (let hops = 0; into[root]! >= 0 && hops < c.count.length; hops++) root = into[root]!;
    if (root !== i && index[root]! >= 0) out.count[index[root]!]! += c.count[i]!;
  }
  return out;
}
const SHADE_MAX_DELTA_E = 9;
/**
 * A shade with at least this share of its pixels inside its own colour is a body, not a 1-px rim,
 * when it is also one exact colour over FLAT_COLOR_KEEP_SHARE of the picture: a grey icon's third
 * tone, a thin wedge 10 px wide (issue 39: 0.8 % of the picture, 26 % inside, merged into the ink).
 */
const EXACT_SHADE_MIN_INTERIOR = 0.15;

/**
 * True when cluster s is an area of one exact colour: its interior share at least
 * EXACT_SHADE_MIN_INTERIOR and FLAT_COLOR_KEEP_SHARE of the picture's pixels within 1.5 units
 * of its colour on every channel.
 */
function isExactArea(c: Clusters, s: number, interior: number, data: Uint8Array | Uint8ClampedArray, pixelCount: number): boolean {
  if (interior < EXACT_SHADE_MIN_INTERIOR) return false;
  let n = 0;
  for (let o = 0; o < pixelCount * 4; o += 4) {
    if (data[o + 3]! >= OPAQUE_ALPHA_MIN && Math.abs(data[o]! - c.r[s]!) <= 1.5 && Math.abs(data[o + 1]! - c.g[s]!) <= 1.5 && Math.abs(data[o + 2]! - c.b[s]!) <= 1.5) n++;
  }
  return n >= pixelCount * FLAT_COLOR_KEEP_SHARE;
}
const SHADE_MAX_INTERIOR = 0.35;
const INTERIOR_CACHE_BITS = 12;
const INTERIOR_CACHE_SIZE = 1 << INTERIOR_CACHE_BITS;

/**
 * Per cluster, the share of its pixels (nearest cluster by RGB distance) whose four neighbours
 * are nearest to it too.
 */
function interiorShares(c: Clusters, data: Uint8Array | Uint8ClampedArray, width: number, height: number, scratch: TraceScratch): Float64Array {
  const k = c.count.length;
  const nearest = scratch.int16('palette.interiorNearest', width * height, -1);
  // The nearest cluster depends on the colour alone: a small direct-mapped cache of exact colours
  // spares the k-cluster scan for the colours art repeats (flat areas, anti-aliasing ramps).
  const cachedKey = new Int32Array(INTERIOR_CACHE_SIZE).fill(-1);
  const cachedNearest = new Int16Array(INTERIOR_CACHE_SIZE);
  for (let i = 0; i < width * height; i++) {
    const o = i * 4;
    if (data[o + 3]! < OPAQUE_ALPHA_MIN) continue;
    const key = (data[o]! << 16) | (data[o + 1]! << 8) | data[o + 2]!;
    const slot = Math.imul(key, 0x9e3779b1) >>> (32 - INTERIOR_CACHE_BITS);
    if (cachedKey[slot] === key) {
      nearest[i] = cachedNearest[slot]!;
      continue;
    }
    let best = 0;
    let bestD = Infinity;
    for (let j = 0; j < k; j++) {
      const d = sq(data[o]! - c.r[j]!) + sq(data[o + 1]! - c.g[j]!) + sq(data[o + 2]! - c.b[j]!);
      if (d < bestD) {
        bestD = d;
        best = j;
      }
    }
    nearest[i] = best;
    cachedKey[slot] = key;
    cachedNearest[slot] = best;
  }
  const total = new Float64Array(k);
  const inside = new Float64Array(k);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const own = nearest[i]!;
      if (own < 0) continue;
      total[own]!++;
      if (x > 0 && x < width - 1 && y > 0 && y < height - 1 && nearest[i - 1] === own && nearest[i + 1] === own && nearest[i - width] === own && nearest[i + width] === own) inside[own]!++;
    }
  }
  for (let j = 0; j < k; j++) inside[j] = total[j]! > 0 ? inside[j]! / total[j]! : 0;
  return inside;
}

/** Merges the closest pair (by ΔE76) while it is closer than `radius`. */
function mergeCloserThan(input: Clusters, radius: number): Clusters {
  return mergePairs(input, false, radius * radius, 1);
}

/** Merges the pair with the smallest Ward cost (n1·n2/(n1+n2)·ΔE²) until `limit` remain. */
function wardMerge(input: Clusters, limit: number): Clusters {
  return mergePairs(input, true, Infinity, limit);
}

/** The cost of merging clusters i and j: ΔE76², or with `ward` the Ward cost. */
function pairCost(ward: boolean, c: Clusters, lab: Float64Array, i: number, j: number): number {
  return ward ? ((c.count[i]! * c.count[j]!) / (c.count[i]! + c.count[j]!)) * labDistanceSq(lab, i, j) : labDistanceSq(lab, i, j);
}

/**
 * Greedy agglomeration: repeatedly merges the cheapest pair (count-weighted mean colour) until
 * the cheapest cost reaches `stopCost` or only `stopCount` clusters remain. The cost (pairCost)
 * depends only on clusters i and j. A cost kind rather than a cost callback: callbacks created
 * per call made V8 recompile this loop for every picture.
 *
 * Each cluster keeps its cheapest partner after it (nearest-neighbour cache), so a merge rescans
 * only the clusters whose partner changed: about n² cost evaluations in all instead of n² per
 * merge (n³; a 400-colour pixel-art palette took 60 ms). The pair chosen is the one the plain
 * scan (i ascending, then j ascending, first strictly cheaper pair) chooses, so results are equal.
 */
function mergePairs(input: Clusters, ward: boolean, stopCost: number, stopCount: number): Clusters {
  const c: Clusters = { count: [...input.count], r: [...input.r], g: [...input.g], b: [...input.b] };
  const size = c.count.length;
  const lab = new Float64Array(size * 3);
  for (let i = 0; i < size; i++) rgbToLab(c.r[i]!, c.g[i]!, c.b[i]!, lab, i * 3);
  const alive = new Uint8Array(size).fill(1);
  // partner[i]: the first j > i with the cheapest cost(i, j), −1 when none; partnerCost[i] that cost.
  const partner = new Int32Array(size).fill(-1);
  const partnerCost = new Float64Array(size).fill(Infinity);
  for (let i = 0; i < size; i++) findPartner(i, ward, c, lab, alive, partner, partnerCost);
  let remaining = size;
  while (remaining > 1) {
    let bi = -1;
    let best = Infinity;
    for (let i = 0; i < size; i++) {
      if (alive[i] && partner[i] >= 0 && partnerCost[i]! < best) {
        best = partnerCost[i]!;
        bi = i;
      }
    }
    if (best >= stopCost || remaining <= stopCount) break;
    const bj = partner[bi]!;
    const n = c.count[bi]! + c.count[bj]!;
    c.r[bi] = (c.r[bi]! * c.count[bi]! + c.r[bj]! * c.count[bj]!) / n;
    c.g[bi] = (c.g[bi]! * c.count[bi]! + c.g[bj]! * c.count[bj]!) / n;
    c.b[bi] = (c.b[bi]! * c.count[bi]! + c.b[bj]! * c.count[bj]!) / n;
    c.count[bi] = n;
    rgbToLab(c.r[bi]!, c.g[bi]!, c.b[bi]!, lab, bi * 3);
    alive[bj] = 0;
    remaining--;
    findPartner(bi, ward, c, lab, alive, partner, partnerCost);
    for (let i = 0; i < size; i++) {
      if (!alive[i] || i === bi) continue;
      if (partner[i] === bj || partner[i] === bi) {
        // Its partner is gone or changed: scan again.
        findPartner(i, ward, c, lab, alive, partner, partnerCost);
      } else if (i < bi) {
        // Only its cost to the merged cluster changed: keep the plain scan's choice (cheaper, or
        // as cheap and earlier).
        const k = pairCost(ward, c, lab, i, bi);
        if (k < partnerCost[i]! || (k === partnerCost[i]! && bi < partner[i]!)) {
          partner[i] = bi;
          partnerCost[i] = k;
        }
      }
    }
  }
  return keepClusters(c, (i) => alive[i] === 1);
}

/** mergePairs' cache entry for cluster i: its cheapest live partner after it, and that cost. */
function findPartner(i: number, ward: boolean, c: Clusters, lab: Float64Array, alive: Uint8Array, partner: Int32Array, partnerCost: Float64Array): void {
  const size = alive.length;
  let best = Infinity;
  let bj = -1;
  for (let j = i + 1; j < size; j++) {
    if (!alive[j]) continue;
    const k = pairCost(ward, c, lab, i, j);
    if (k < best) {
      best = k;
      bj = j;
    }
  }
  partner[i] = bj;
  partnerCost[i] = best;
}

function finishPalette(clusters: Clusters, rules: readonly PaletteRule[]): Palette {
  const size = clusters.count.length;
  const observed = new Float64Array(size * 3);
  const lab = new Float64Array(size * 3);
  const fill: (Rgba | null)[] = [];
  for (let i = 0; i < size; i++) {
    observed[i * 3] = clusters.r[i]!;
    observed[i * 3 + 1] = clusters.g[i]!;
    observed[i * 3 + 2] = clusters.b[i]!;
    rgbToLab(clusters.r[i]!, clusters.g[i]!, clusters.b[i]!, lab, i * 3);
    const detected: Rgba = {
      r: Math.round(clusters.r[i]!),
      g: Math.round(clusters.g[i]!),
      b: Math.round(clusters.b[i]!),
      a: 255,
    };
    const out = applyPaletteRules(detected, rules);
    fill.push(out.a === 0 ? null : out);
  }
  return { size, observed, lab, fill };
}

/**
 * Reference §3.2: a detected colour snaps to the nearest rule colour within that rule's
 * tolerance (fractional ARGB distance, 1.0 = opaque red to opaque black), then takes the rule's
 * remap colour if it has one. A colour no rule matches is kept. An output alpha of 0 deletes.
 */
export function applyPaletteRules(color: Rgba, rules: readonly PaletteRule[]): Rgba {
  let best: PaletteRule | undefined;
  let bestDistance = Infinity;
  for (const rule of rules) {
    // A fully transparent entry names the colour to delete by its RGB: `#FFFFFF00 ~ 0.1;`
    // deletes near-white. Its alpha says "omit", it is not part of the match.
    const target = rule.color.a === 0 ? { ...rule.color, a: color.a } : rule.color;
    const d = argbDistance(color, target);
    if (d <= rule.tolerance && d < bestDistance) {
      bestDistance = d;
      best = rule;
    }
  }
  if (!best) return color;
  return best.remap ?? best.color;
}

/** Euclidean distance over A, R, G, B scaled to 0–1 (so the maximum is 2). */
export function argbDistance(p: Rgba, q: Rgba): number {
  return Math.sqrt(sq(p.a - q.a) + sq(p.r - q.r) + sq(p.g - q.g) + sq(p.b - q.b)) / 255;
}

function sq(v: number): number {
  return v * v;
}
