/**
 * tracelab.strokes=auto: lines and outlines of near-constant width as strokes over the fills.
 * Runs after the regions and shading stages, before the boundary stage.
 * In: the picture (coverage.ts: pixels, region map, region colours), the regions, their labels'
 * fills, the widest line (traced px), whether regions join diagonal pairs (links), and the regions
 * to keep as fills whatever their shape (gradients).
 * Out: the centre-lines of the regions that are lines (with their colours), and new regions in
 * which those lines' pixels belong to the regions beside them.
 * Algorithm: each region of ink (not the background's colour) is read as centre-lines
 * (centerline.ts); it is a line when every centre-line's width is near-constant (the spread of its
 * cross-sections' widths, relative to their median) and the lines account for its area. A line's
 * pixels then go to the nearest region that is not a line (a chamfer-distance Voronoi split of
 * the line, from its borders inwards), so the fill on each side of a line reaches its centre-line
 * and the stroke drawn over it leaves no gap; on the paper, the paper simply continues under it.
 * Regions of one colour that now touch (the paper inside and outside a ring) become one region,
 * and the diagonal links are read again from the new labels.
 */
import { diagonalLinkRows } from '../regions/diagonals.js';
import { findRegions, pixelsByRegion, type Regions } from '../regions/regions.js';
import type { Chain, Rgba } from '../types.js';
import { regionCenterlines, type CenterPath } from './centerline.js';
import { regionWidthsPx, type InkPicture } from './coverage.js';
import { drawnAsInk, InkCheckScratch, PEN_LINE_CHECK } from './drawn-as-ink.js';
import { fittedPoints } from './fitted-points.js';
import { backgroundLabel, regionBoxes, type ColoredLine } from './index.js';

export interface AutoStrokeInput {
  readonly picture: InkPicture;
  readonly regions: Regions;
  /** Output colour per label. */
  readonly fills: readonly Rgba[];
  readonly maxWidthPx: number;
  /** The regions join diagonal pairs of one label (every profile but pixel art). */
  readonly diagonalLinks: boolean;
  /** Regions kept as fills whatever their shape (a gradient's). */
  readonly keepFill?: (region: number) => boolean;
}

export interface AutoStrokeSplit {
  readonly lines: readonly ColoredLine[];
  /** The regions with the lines' pixels handed over (the input's when no region is a line). */
  readonly regions: Regions;
  /** Diagonal links of the new labels (undefined without diagonal links, or when nothing changed). */
  readonly links: Uint8Array | undefined;
  /** Per new region, one input region whose pixels it holds (for what is kept per region, a gradient). */
  readonly fromRegion: Int32Array | undefined;
  /** Per pixel, 1 where an opaque line was drawn and its pixels were handed over (undefined: no line). */
  readonly underLines: Uint8Array | undefined;
}

/**
 * The relative spread (15th–85th percentile over the median) a line's widths may have: a constant
 * pen measures within ±10 % anti-aliased, a little more on a 1-bit staircase and in JPEG noise, and
 * the thinner the line the larger a pixel's error is against its width (PEN_SPREAD_PX). A brush
 * stroke tapering to a point spreads by ~1.4, a leaf by more.
 */
const PEN_SPREAD = 0.35;
const PEN_SPREAD_PX = 0.5;
/**
 * The lines' area (width × length, round caps) against the region's ink: a region whose
 * centre-lines leave much of it uncovered (a blob with a tail) or count it twice is no line.
 */
const AREA_RATIO_MIN = 0.65;
const AREA_RATIO_MAX = 1.5;
/**
 * A line stands out from what it borders: an artist's line or outline differs from the colours on
 * both its sides (black on a fill: an RGB distance of 150 and more). A thin band of a shade beside
 * a neighbour shade (an icon's bevel highlight, 20–50 from the grey beside it) is shading, whose
 * blended edges give no steady width: it stays a fill when over a quarter of its border is faint.
 */
const MIN_LINE_CONTRAST = 64;
const MAX_FAINT_BORDER_SHARE = 0.25;
/** A line's area over half its border is its width less its ends' share: this over the widest line is no line. */
const SPAN_SLACK = 1.1;
/** Chamfer steps of the hand-over (3–4: within 8 % of Euclidean distance). */
const STRAIGHT_STEP = 3;
const DIAGONAL_STEP = 4;

export function splitStrokeRegions(input: AutoStrokeInput): AutoStrokeSplit {
  const { picture, regions, fills } = input;
  const lineOf = findLineRegions(input);
  const lines: ColoredLine[] = [];
  const isLine = new Uint8Array(regions.count);
  for (const r of lineOf.keys()) isLine[r] = 1;
  if (lineOf.size === 0) return { lines, regions, links: undefined, fromRegion: undefined, underLines: undefined };
  const owner = handOver(picture.width, picture.height, regions.regionOf, isLine);
  // A line with no region beside it (the picture is nothing but lines) keeps its pixels, as a fill.
  for (let i = 0; i < owner.length; i++) {
    const r = owner[i]!;
    if (r >= 0 && isLine[r]) lineOf.delete(r);
  }
  for (const [r, paths] of [...lineOf].sort((a, b) => a[0] - b[0])) {
    for (const path of paths) lines.push({ path, color: fills[regions.labelOf[r]!]! });
  }
  const labels = new Int32Array(owner.length);
  const underLines = new Uint8Array(owner.length);
  for (let i = 0; i < owner.length; i++) {
    labels[i] = owner[i]! < 0 ? -1 : regions.labelOf[owner[i]!]!;
    const r = regions.regionOf[i]!;
    if (r >= 0 && lineOf.has(r) && fills[regions.labelOf[r]!]!.a === 255) underLines[i] = 1;
  }
  const links = input.diagonalLinks ? diagonalLinkRows(labels, picture.width, picture.height, 0, picture.height + 1) : undefined;
  const split = findRegions(labels, picture.width, picture.height, links);
  return { lines, regions: split, links, fromRegion: firstRegionOf(split, owner), underLines };
}

/**
 * The chains (ascending) that run under an opaque line: every point of them (the fitted curve as
 * fittedPoints' polyline, each chord sampled at most SEAM_SAMPLE_PX apart; traced px) touches a
 * pixel of it, where the line's stroke covers them (the fills beside a line meet near its
 * centre-line, within half its width). Segment ends alone are not enough: a band seam inside a
 * calculator key runs straight from its outline on one side to the other, both ends under the
 * outline, and without its gap filler showed as a light hairline across the key.
 */
export function chainsUnderLines(chains: readonly Chain[], underLines: Uint8Array, width: number, height: number): number[] {
  const touches = (x: number, y: number): boolean => {
    const x0 = Math.max(0, Math.floor(x - 0.5));
    const y0 = Math.max(0, Math.floor(y - 0.5));
    const x1 = Math.min(width - 1, Math.floor(x + 0.5));
    const y1 = Math.min(height - 1, Math.floor(y + 0.5));
    for (let py = y0; py <= y1; py++) for (let px = x0; px <= x1; px++) if (underLines[py * width + px]) return true;
    return false;
  };
  const endsUnder = (c: Chain): boolean => {
    if (!touches(c.startX, c.startY)) return false;
    for (let j = 0; j < c.segments.length; j++) if (!touches(c.segments.x(j), c.segments.y(j))) return false;
    return true;
  };
  const curveUnder = (c: Chain): boolean => {
    const points = fittedPoints(c.startX, c.startY, c.segments);
    for (let i = 2; i < points.length; i += 2) {
      const [ax, ay, bx, by] = [points[i - 2]!, points[i - 1]!, points[i]!, points[i + 1]!];
      const steps = Math.ceil(Math.hypot(bx - ax, by - ay) / SEAM_SAMPLE_PX);
      for (let k = 1; k <= steps; k++) if (!touches(ax + ((bx - ax) * k) / steps, ay + ((by - ay) * k) / steps)) return false;
    }
    return true;
  };
  const under: number[] = [];
  chains.forEach((c, k) => {
    if (endsUnder(c) && curveUnder(c)) under.push(k);
  });
  return under;
}

/** Spacing (traced px) of the points chainsUnderLines tests along a chain. */
const SEAM_SAMPLE_PX = 1;

/** The centre-lines of each region that is a line of near-constant width, by region. */
function findLineRegions(input: AutoStrokeInput): Map<number, CenterPath[]> {
  const { picture, regions, fills, maxWidthPx, keepFill } = input;
  const background = backgroundLabel(picture, regions.labelOf);
  const boxes = regionBoxes(picture, regions.count);
  const faintShare = faintBorderShare(picture, regions.count);
  const span = regionWidthsPx(picture, regions.count);
  const scratch = new InkCheckScratch();
  // Each region's pixels, listed once: the reader visits them, not their boxes (a thin outline's box is most of the picture).
  const listed = pixelsByRegion(picture.regionOf, regions.count, new Uint8Array(regions.count).fill(1));
  const lineOf = new Map<number, CenterPath[]>();
  for (let r = 0; r < regions.count; r++) {
    const label = regions.labelOf[r]!;
    const box = boxes[r];
    if (label === background || !box || !fills[label] || fills[label]!.a === 0 || keepFill?.(r)) continue;
    if (faintShare[r]! > MAX_FAINT_BORDER_SHARE) continue;
    // A line's area over half its border is at most its width: wider ink is no line (not read).
    if (span[r]! > maxWidthPx * SPAN_SLACK) continue;
    const found = regionCenterlines(picture, r, box, maxWidthPx, listed.pixels.subarray(listed.start[r]!, listed.start[r + 1]!));
    if (found.kind !== 'lines' || found.paths.length === 0 || !isPenDrawn(found.paths, found.inkAreaPx)) continue;
    const drawn = drawnAsInk(picture, r, box, found.paths, scratch, PEN_LINE_CHECK, found.coverage);
    if (drawn) lineOf.set(r, drawn);
  }
  return lineOf;
}

/**
 * Per region: the share of its border (4-neighbour pixel pairs with another region) across which
 * the colour differs by less than MIN_LINE_CONTRAST (RGB distance); 0 beside transparency only.
 */
function faintBorderShare(picture: InkPicture, regionCount: number): Float64Array {
  const { width, height, regionOf, regionColor } = picture;
  const faint = new Float64Array(regionCount);
  const count = new Float64Array(regionCount);
  const add = (a: number, b: number): void => {
    if (a === b || a < 0 || b < 0) return;
    const d = Math.hypot(regionColor[a * 3]! - regionColor[b * 3]!, regionColor[a * 3 + 1]! - regionColor[b * 3 + 1]!, regionColor[a * 3 + 2]! - regionColor[b * 3 + 2]!);
    count[a]!++;
    count[b]!++;
    if (d >= MIN_LINE_CONTRAST) return;
    faint[a]!++;
    faint[b]!++;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (x + 1 < width) add(regionOf[i]!, regionOf[i + 1]!);
      if (y + 1 < height) add(regionOf[i]!, regionOf[i + width]!);
    }
  }
  for (let r = 0; r < regionCount; r++) faint[r] = count[r]! > 0 ? faint[r]! / count[r]! : 0;
  return faint;
}

/** Every line of near-constant width, and together as much ink as the region has (its coverage's area). */
function isPenDrawn(paths: readonly CenterPath[], inkAreaPx: number): boolean {
  let drawnArea = 0;
  for (const path of paths) {
    if (path.widthSpread > PEN_SPREAD + PEN_SPREAD_PX / path.widthPx) return false;
    drawnArea += path.widthPx * pathLength(path) + (path.closed || path.cap === 'butt' ? 0 : (Math.PI / 4) * path.widthPx * path.widthPx);
  }
  const ratio = drawnArea / Math.max(1, inkAreaPx);
  return ratio >= AREA_RATIO_MIN && ratio <= AREA_RATIO_MAX;
}

function pathLength(path: CenterPath): number {
  const p = path.points;
  let length = 0;
  for (let k = 2; k < p.length; k += 2) length += Math.hypot(p[k]! - p[k - 2]!, p[k + 1]! - p[k - 1]!);
  if (path.closed && p.length > 2) length += Math.hypot(p[0]! - p[p.length - 2]!, p[1]! - p[p.length - 1]!);
  return length;
}

/**
 * Region per pixel once every line pixel belongs to the nearest region that is not a line (−1:
 * transparency, which continues under a line as the paper does). Multi-source shortest paths
 * with chamfer steps over a bucket queue, sources every non-line pixel beside a line; ties go to
 * the source reached first in raster order. Line pixels no source reaches keep their region.
 */
function handOver(width: number, height: number, regionOf: Int32Array, isLine: Uint8Array): Int32Array {
  const owner = Int32Array.from(regionOf);
  const distance = new Int32Array(owner.length).fill(-1);
  const buckets: number[][] = [];
  const push = (i: number, d: number): void => {
    (buckets[d] ??= []).push(i);
  };
  // Per pixel, 1 on a line (one read where the search tests a pixel up to nine times).
  const onLine = new Uint8Array(owner.length);
  for (let i = 0; i < owner.length; i++) onLine[i] = regionOf[i]! >= 0 && isLine[regionOf[i]!] === 1 ? 1 : 0;
  const besideLine = lineNeighbours(width, height, onLine);
  for (let i = 0; i < owner.length; i++) {
    if (besideLine[i] && !onLine[i]) {
      distance[i] = 0;
      push(i, 0);
    }
  }
  for (let d = 0; d < buckets.length; d++) {
    const bucket = buckets[d];
    if (!bucket) continue;
    for (let b = 0; b < bucket.length; b++) {
      const i = bucket[b]!;
      if (distance[i] !== d) continue;
      const x = i % width;
      const y = (i - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if ((dx === 0 && dy === 0) || nx < 0 || nx >= width) continue;
          const j = ny * width + nx;
          if (!onLine[j]) continue;
          const nd = d + (dx === 0 || dy === 0 ? STRAIGHT_STEP : DIAGONAL_STEP);
          if (distance[j]! >= 0 && distance[j]! <= nd) continue;
          distance[j] = nd;
          owner[j] = owner[i]!;
          push(j, nd);
        }
      }
    }
    buckets[d] = [];
  }
  return owner;
}

/** Per pixel, 1 beside (8 neighbours) a pixel on a line: marked from the line pixels, which are few. */
function lineNeighbours(width: number, height: number, onLine: Uint8Array): Uint8Array {
  const beside = new Uint8Array(onLine.length);
  for (let i = 0; i < onLine.length; i++) {
    if (!onLine[i]) continue;
    const x = i % width;
    const y = (i - x) / width;
    for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) {
      for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) if (nx !== x || ny !== y) beside[ny * width + nx] = 1;
    }
  }
  return beside;
}

/** Per region of `split`, the region of `owner` its first pixel (raster order) had. */
function firstRegionOf(split: Regions, owner: Int32Array): Int32Array {
  const from = new Int32Array(split.count).fill(-1);
  for (let i = 0; i < owner.length; i++) {
    const r = split.regionOf[i]!;
    if (r >= 0 && from[r]! < 0) from[r] = owner[i]!;
  }
  return from;
}
