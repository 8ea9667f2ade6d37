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
 * Where two lines touch edge to edge (no fill between them), the pixels nearer their shared edge
 * than any other region keep the first line's colour as a fill of their own, so no paper shows
 * between the two strokes' anti-aliased edges. Regions of one colour that now touch (the paper
 * inside and outside a ring) become one region, and the diagonal links are read again from the
 * new labels.
 */
import { diagonalLinkRows } from '../regions/diagonals.js';
import { findRegions, pixelsByRegion, type Regions } from '../regions/regions.js';
import type { Chain, Rgba } from '../types.js';
import { centerPathLengthPx, regionCenterlines, type CenterPath, type PixelBox } from './centerline.js';
import { regionWidthsPx, type InkPicture } from './coverage.js';
import { checkedAsInk, InkCheckScratch, PEN_LINE_CHECK } from './drawn-as-ink.js';
import { fittedPoints } from './fitted-points.js';
import { inkGroups, type InkGroups } from './ink-groups.js';
import { backgroundLabel, paperColor, type ColoredLine } from './index.js';

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
  const found = findLineUnits(input);
  const { units, unitOf } = found;
  if (units.length === 0) return { lines: [], regions, links: undefined, fromRegion: undefined, underLines: undefined };
  const handed = handOver(picture.width, picture.height, regions.regionOf, unitOf);
  const { owner, reached } = handed;
  // A line with no region beside it (the picture is nothing but lines) keeps its pixels, as a fill.
  const dropped = new Uint8Array(units.length);
  for (let i = 0; i < owner.length; i++) if (unitOf[i]! >= 0 && !reached[i]) dropped[unitOf[i]!] = 1;
  const lines: ColoredLine[] = [];
  const listed = unitsInOrder(units).filter((u) => !dropped[u]);
  for (const u of listed) for (const path of units[u]!.paths) lines.push({ path, color: fills[units[u]!.label]! });
  if (listed.length > 1) handSeamsUnder(handed, unitOf, seamRanks(units, listed, fills), units.map((unit) => unit.region));
  const labels = new Int32Array(owner.length);
  const underLines = new Uint8Array(owner.length);
  for (let i = 0; i < owner.length; i++) {
    labels[i] = owner[i]! < 0 ? -1 : regions.labelOf[owner[i]!]!;
    const u = unitOf[i]!;
    if (u >= 0 && !dropped[u] && fills[units[u]!.label]!.a === 255) underLines[i] = 1;
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

/** Ink read as lines: the centre-lines, their colour's label, and the pixels each unit takes. */
interface LineUnit {
  /** Order key: the region (a group's: its darkest member), then the piece within it. */
  readonly region: number;
  readonly piece: number;
  readonly label: number;
  readonly paths: readonly CenterPath[];
}

interface FoundLines {
  readonly units: LineUnit[];
  /** Per pixel, the unit whose line covers it (−1: none). */
  readonly unitOf: Int32Array;
}

/**
 * The ink that is lines of near-constant width. Shades of one ink (an anti-aliased hairline
 * quantised into greys that alternate along it, ink-groups.ts) are first read together, as one
 * line in the darkest shade's colour: read one region at a time each shade is a broken piece
 * beside a faint neighbour and none is a line. Then each region not in such a group, alone.
 */
function findLineUnits(input: AutoStrokeInput): FoundLines {
  const { picture, regions } = input;
  const background = backgroundLabel(picture, regions.labelOf);
  const found: FoundLines = { units: [], unitOf: new Int32Array(picture.width * picture.height).fill(-1) };
  const taken = new Uint8Array(regions.count);
  // The regions' widths, measured once: they tell the shades' groups which regions are thin and the single regions which are too wide to read.
  const widthsPx = regionWidthsPx(picture, regions.count);
  const groups = inkGroups(picture, regions.labelOf, regions.count, paperColor(picture, regions.labelOf, regions.count, background), widthsPx);
  if (groups.count < regions.count) readShadeGroups(input, groups, background, found, taken);
  const single: LineUnits = { picture, labelOf: regions.labelOf, count: regions.count, background, read: (r) => !taken[r] && !input.keepFill?.(r), widthsPx };
  const read = readLines(input, single, false);
  addUnits(found, picture.regionOf, new Map([...read.lines].map(([r, paths]) => [r, { region: r, piece: 0, label: regions.labelOf[r]!, paths }])));
  return found;
}

/**
 * The groups of several shades that are lines, as a whole or, where their strokes miss the ink
 * only locally (two hairlines running side by side read as one), in pieces: the group's pixels
 * in the tiles missed (and CUT_MARGIN_PX around them) stay fills and each piece left is read alone.
 */
function readShadeGroups(input: AutoStrokeInput, groups: InkGroups, background: number, found: FoundLines, taken: Uint8Array): void {
  const several = (g: number): boolean => groups.members[g]!.length > 1 && !groups.members[g]!.some((r) => input.keepFill?.(r));
  const units: LineUnits = { picture: groups.picture, labelOf: groups.labelOf, count: groups.count, background, read: several, maxSpanPx: SHADE_GROUP_MAX_SPAN_PX };
  const read = readLines(input, units, true);
  const darkestOf = (g: number): number => groups.members[g]!.find((r) => input.regions.labelOf[r] === groups.labelOf[g])!;
  addUnits(found, groups.picture.regionOf, new Map([...read.lines].map(([g, paths]) => [g, { region: darkestOf(g), piece: 0, label: groups.labelOf[g]!, paths }])));
  for (const g of read.lines.keys()) for (const r of groups.members[g]!) taken[r] = 1;
  for (const [g, missed] of read.missedTiles) {
    const pieces = groupPieces(groups.picture, groups.labelOf, groups.count, g, missed);
    const pieceUnits: LineUnits = { picture: pieces.picture, labelOf: pieces.labelOf, count: pieces.count, background, read: (p) => p >= groups.count };
    const pieceLines = readLines(input, pieceUnits, false).lines;
    addUnits(found, pieces.picture.regionOf, new Map([...pieceLines].map(([p, paths]) => [p, { region: darkestOf(g), piece: p - groups.count + 1, label: groups.labelOf[g]!, paths }])));
    if (pieceLines.size > 0) for (const r of groups.members[g]!) taken[r] = 1;
  }
}

/** Adds units, each with the pixels of its id in `regionOf` (one pass over the pixels). */
function addUnits(found: FoundLines, regionOf: Int32Array, byId: ReadonlyMap<number, LineUnit>): void {
  if (byId.size === 0) return;
  let ids = 0;
  for (const id of byId.keys()) ids = Math.max(ids, id + 1);
  const unitOfId = new Int32Array(ids).fill(-1);
  for (const [id, unit] of byId) {
    unitOfId[id] = found.units.length;
    found.units.push(unit);
  }
  for (let i = 0; i < regionOf.length; i++) {
    const id = regionOf[i]!;
    if (id >= 0 && id < ids && unitOfId[id]! >= 0) found.unitOf[i] = unitOfId[id]!;
  }
}

/** The units by region, then piece (as the regions were read before groups: lines in region order). */
function unitsInOrder(units: readonly LineUnit[]): number[] {
  return units.map((_, u) => u).sort((a, b) => units[a]!.region - units[b]!.region || units[a]!.piece - units[b]!.piece);
}

/**
 * Shade groups are read for hairlines up to this span (px): a wider line's shades are its
 * anti-aliased edges, a fringe its darkest region read alone already covers (kasteroids' 15-px
 * outlines), and reading them twice, as a group and alone, doubled auto's centre-line work.
 */
const SHADE_GROUP_MAX_SPAN_PX = 3;
/** Pixels (picture px) around a missed tile that stay with the fills too. */
const CUT_MARGIN_PX = 1;
/** A group whose missed tiles hold more than this share of its ink is no line, not even in pieces. */
const MAX_MISSED_INK_SHARE = 0.2;

interface GroupPieces {
  /** The picture with the group's cut pixels transparent and its other pixels numbered by piece (from `count`). */
  readonly picture: InkPicture;
  readonly count: number;
  /** Label per group and piece (a piece's is its group's). */
  readonly labelOf: Int32Array;
}

/** Group g cut at the missed tiles: its pixels there set to −1, the rest numbered by 8-connected piece. */
function groupPieces(picture: InkPicture, groupLabels: Int32Array, groupCount: number, g: number, missed: readonly PixelBox[]): GroupPieces {
  const { width, height } = picture;
  const regionOf = picture.regionOf.slice();
  for (const box of missed) {
    for (let y = Math.max(0, box.y0 - CUT_MARGIN_PX); y < Math.min(height, box.y1 + CUT_MARGIN_PX); y++) {
      for (let x = Math.max(0, box.x0 - CUT_MARGIN_PX); x < Math.min(width, box.x1 + CUT_MARGIN_PX); x++) if (regionOf[y * width + x] === g) regionOf[y * width + x] = -1;
    }
  }
  let next = groupCount;
  const stack: number[] = [];
  for (let start = 0; start < regionOf.length; start++) {
    if (regionOf[start] !== g) continue;
    regionOf[start] = next;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      const x = i % width;
      const y = (i - x) / width;
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) {
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          const j = ny * width + nx;
          if (regionOf[j] !== g) continue;
          regionOf[j] = next;
          stack.push(j);
        }
      }
    }
    next++;
  }
  const regionColor = new Float64Array(next * 3);
  regionColor.set(picture.regionColor.subarray(0, groupCount * 3));
  for (let p = groupCount; p < next; p++) regionColor.set(picture.regionColor.subarray(g * 3, g * 3 + 3), p * 3);
  const labelOf = new Int32Array(next);
  labelOf.set(groupLabels.subarray(0, groupCount));
  labelOf.fill(groupLabels[g]!, groupCount);
  return { picture: { ...picture, regionOf, regionColor }, count: next, labelOf };
}

/** What readLines reads: regions (or groups of them) of a picture, and which of them to try. */
interface LineUnits {
  readonly picture: InkPicture;
  readonly labelOf: Int32Array;
  readonly count: number;
  readonly background: number;
  readonly read: (unit: number) => boolean;
  /** Units wider than this (their area over half their border, px) are not read (default: the widest line's limit). */
  readonly maxSpanPx?: number;
  /** Each unit's area over half its border (coverage.ts regionWidthsPx), when the caller has it. */
  readonly widthsPx?: Float64Array;
}

interface ReadLines {
  /** The centre-lines of each unit that is a line. */
  readonly lines: Map<number, CenterPath[]>;
  /** With cutMisses: per unit whose strokes hold its ink overall but miss it in a few tiles, those tiles. */
  readonly missedTiles: Map<number, readonly PixelBox[]>;
}

/** The centre-lines of each unit that is a line of near-constant width, by unit. */
function readLines(input: AutoStrokeInput, units: LineUnits, cutMisses: boolean): ReadLines {
  const { picture } = units;
  const toRead = unitsToRead(input, units);
  // Each unit's pixels, listed once: the reader visits them, not their boxes (a thin outline's box is most of the picture).
  const listed = pixelsByRegion(picture.regionOf, units.count, toRead);
  const scratch = new InkCheckScratch();
  const read: ReadLines = { lines: new Map(), missedTiles: new Map() };
  for (let r = 0; r < units.count; r++) {
    if (!toRead[r] || listed.start[r + 1] === listed.start[r]) continue;
    const pixels = listed.pixels.subarray(listed.start[r]!, listed.start[r + 1]!);
    if (faintBorderShare(picture, r, pixels) > MAX_FAINT_BORDER_SHARE) continue;
    const box = pixelBox(pixels, picture.width);
    const found = regionCenterlines(picture, r, box, input.maxWidthPx, { pixels, mergedBeside: true });
    if (found.kind !== 'lines' || found.paths.length === 0 || !isPenDrawn(found.paths, found.inkAreaPx)) continue;
    const checked = checkedAsInk(picture, r, box, found.paths, scratch, PEN_LINE_CHECK, found.coverage);
    if (checked.kind === 'drawn') read.lines.set(r, checked.paths);
    else if (cutMisses && checked.kind === 'missed' && checked.inkShare <= MAX_MISSED_INK_SHARE) read.missedTiles.set(r, checked.tiles);
  }
  return read;
}

/**
 * Per unit, 1 when it is read: asked for, not the paper's colour, with a visible fill, and no
 * wider than a line (a line's area over half its border is at most its width). Decided before
 * its pixels are listed: the paper and the wide fills, most of a picture, are never listed.
 */
function unitsToRead(input: AutoStrokeInput, units: LineUnits): Uint8Array {
  const { fills, maxWidthPx } = input;
  const { labelOf, count, background } = units;
  const span = units.widthsPx ?? regionWidthsPx(units.picture, count);
  const maxSpanPx = Math.min(maxWidthPx * SPAN_SLACK, units.maxSpanPx ?? Infinity);
  const toRead = new Uint8Array(count);
  for (let r = 0; r < count; r++) {
    const label = labelOf[r]!;
    const fill = fills[label];
    toRead[r] = label !== background && fill && fill.a !== 0 && span[r]! <= maxSpanPx && units.read(r) ? 1 : 0;
  }
  return toRead;
}

/** The pixel box of a region's pixels (picture indices, ascending, at least one). */
function pixelBox(pixels: Int32Array, width: number): PixelBox {
  let x0 = width;
  let x1 = -1;
  for (let k = 0; k < pixels.length; k++) {
    const x = pixels[k]! % width;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
  }
  return { x0, y0: Math.floor(pixels[0]! / width), x1: x1 + 1, y1: Math.floor(pixels[pixels.length - 1]! / width) + 1 };
}

/**
 * The share of region r's border (4-neighbour pixel pairs with another region) across which the
 * colour differs by less than MIN_LINE_CONTRAST (RGB distance); 0 beside transparency only. Read
 * from the region's own pixels (listed, picture indices).
 */
function faintBorderShare(picture: InkPicture, r: number, pixels: Int32Array): number {
  const { width, height, regionOf } = picture;
  let faint = 0;
  let count = 0;
  // Each pair as the picture's raster sees it: a, the pixel left or above; b, right or below.
  const add = (a: number, b: number): void => {
    if (a === b || a < 0 || b < 0) return;
    count++;
    if (colorDistance(picture.regionColor, a, b) < MIN_LINE_CONTRAST) faint++;
  };
  for (let k = 0; k < pixels.length; k++) {
    const i = pixels[k]!;
    const x = i % width;
    if (x > 0) add(regionOf[i - 1]!, r);
    if (x + 1 < width) add(r, regionOf[i + 1]!);
    if (i >= width) add(regionOf[i - width]!, r);
    if (i + width < width * height) add(r, regionOf[i + width]!);
  }
  return count > 0 ? faint / count : 0;
}

function colorDistance(color: Float64Array, a: number, b: number): number {
  return Math.hypot(color[a * 3]! - color[b * 3]!, color[a * 3 + 1]! - color[b * 3 + 1]!, color[a * 3 + 2]! - color[b * 3 + 2]!);
}

/** Every line of near-constant width, and together as much ink as the region has (its coverage's area). */
function isPenDrawn(paths: readonly CenterPath[], inkAreaPx: number): boolean {
  let drawnArea = 0;
  for (const path of paths) {
    if (path.widthSpread > PEN_SPREAD + PEN_SPREAD_PX / path.widthPx) return false;
    drawnArea += path.widthPx * centerPathLengthPx(path) + (path.closed || path.cap === 'butt' ? 0 : (Math.PI / 4) * path.widthPx * path.widthPx);
  }
  const ratio = drawnArea / Math.max(1, inkAreaPx);
  return ratio >= AREA_RATIO_MIN && ratio <= AREA_RATIO_MAX;
}

/** The hand-over's result: per pixel its region, its chamfer distance from it, and whether it was reached. */
interface HandedOver {
  /** Region per pixel (−1: transparency). */
  readonly owner: Int32Array;
  /** Per line pixel, chamfer steps to the source its region came from (0 on the sources, −1: not reached). */
  readonly distance: Int32Array;
  /** Per pixel, 1 where a line pixel was reached (or it is no line pixel). */
  readonly reached: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** Per pixel, 1 on a line. */
  readonly onLine: Uint8Array;
}

/**
 * Region per pixel once every line pixel (unitOf ≥ 0) belongs to the nearest region that is not
 * a line (−1: transparency, which continues under a line as the paper does), and per pixel 1 where
 * a line pixel was reached (or is no line pixel). Multi-source shortest paths
 * with chamfer steps over a bucket queue, sources every non-line pixel beside a line; ties go to
 * the source reached first in raster order. Line pixels no source reaches keep their region.
 */
function handOver(width: number, height: number, regionOf: Int32Array, unitOf: Int32Array): HandedOver {
  const owner = regionOf.slice();
  const distance = new Int32Array(owner.length).fill(-1);
  // Per pixel, 1 on a line (one read where the search tests a pixel up to nine times).
  const onLine = new Uint8Array(owner.length);
  for (let i = 0; i < owner.length; i++) onLine[i] = unitOf[i]! >= 0 ? 1 : 0;
  const besideLine = lineNeighbours(width, height, onLine);
  const sources: number[] = [];
  for (let i = 0; i < owner.length; i++) {
    if (besideLine[i] && !onLine[i]) {
      distance[i] = 0;
      sources.push(i);
    }
  }
  const handed = { owner, distance, reached: new Uint8Array(owner.length), width, height, onLine };
  spreadOverLines(handed, [sources]);
  for (let i = 0; i < owner.length; i++) handed.reached[i] = distance[i]! >= 0 ? 1 : 0;
  return handed;
}

/**
 * Carries the owners of the queued pixels (bucketed by distance) over the line pixels, each step
 * 3 straight or 4 diagonal, where it shortens a pixel's distance (a pixel not yet reached: any).
 */
function spreadOverLines(handed: HandedOver, buckets: number[][]): void {
  const { owner, distance, width, height, onLine } = handed;
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
          (buckets[nd] ??= []).push(j);
        }
      }
    }
    buckets[d] = [];
  }
}

/**
 * Per unit, its place among the opaque lines kept (in the order they are listed), −1 for the
 * others: of two lines that touch, the one listed first lends its colour to the seam between them.
 */
function seamRanks(units: readonly LineUnit[], listed: readonly number[], fills: readonly Rgba[]): Int32Array {
  const rank = new Int32Array(units.length).fill(-1);
  listed.forEach((u, k) => {
    if (fills[units[u]!.label]!.a === 255) rank[u] = k;
  });
  return rank;
}

/**
 * Where two opaque lines touch edge to edge (a grey bar inside a black outline, with no fill
 * between), each stroke's anti-aliased edge covers part of the same pixels, and painted one over
 * the other they let through what lies under them: handed to the paper, that is a light seam.
 * So the seam is ink: the pixels of the line listed first (rank: its pen is painted first) beside
 * a pixel of the other line, neither of them beside a region that is no line, keep the first
 * line's region (its colour, as a fill), and the search goes on from them at SEAM_SEED_STEPS: the
 * pixels of both lines nearer the seam than any other region (by more than that) go to it. The
 * fill then reaches from the first line's centre-line under the other line to its centre-line
 * (under all of it, inside an outline), and no pixel beside the paper joins it, so it stays under
 * the strokes. Whichever pen is painted last, both edges lie over ink. A hairline fringe along a
 * line's edge (its pixels all beside a fill) makes no seam: nothing shows there but that fill, and
 * each such fringe had added a shape (OpenMoji bubble tea: 5, for nothing seen).
 */
function handSeamsUnder(handed: HandedOver, unitOf: Int32Array, rank: Int32Array, regionOfUnit: readonly number[]): void {
  const { owner, distance, width, height } = handed;
  const seeds: number[] = [];
  for (let i = 0; i < owner.length; i++) {
    const u = unitOf[i]!;
    // Reached and more than a diagonal step from its source: no pixel beside it is off the lines.
    if (u < 0 || rank[u]! < 0 || distance[i]! <= DIAGONAL_STEP) continue;
    const x = i % width;
    const y = (i - x) / width;
    let seam = false;
    for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1) && !seam; ny++) {
      for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
        const j = ny * width + nx;
        const v = unitOf[j]!;
        if (v >= 0 && v !== u && rank[v]! > rank[u]! && distance[j]! > DIAGONAL_STEP) seam = true;
      }
    }
    if (seam) seeds.push(i);
  }
  if (seeds.length === 0) return;
  for (const i of seeds) {
    distance[i] = SEAM_SEED_STEPS;
    owner[i] = regionOfUnit[unitOf[i]!]!;
  }
  const buckets: number[][] = [];
  buckets[SEAM_SEED_STEPS] = seeds;
  spreadOverLines(handed, buckets);
}

/**
 * The distance (chamfer steps) the seam's search starts at: a pixel as near the paper as the seam
 * goes to the paper, and the seam's fill keeps a pixel's margin from the strokes' outer edges.
 */
const SEAM_SEED_STEPS = 1;

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
