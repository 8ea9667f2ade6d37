/**
 * Centre-lines of one region of ink (tracelab.strokes).
 * In: the picture (coverage.ts), a region, its pixel box, the widest line (px).
 * Out: the region's lines — each a polyline of sub-pixel centre points, open or closed, with its
 * width and its end caps — or `wide` when the ink is wider than a line.
 * Algorithm: the region's mask is thinned to a skeleton graph (skeleton.ts; spurs shorter than the
 * line's width pruned, nearby junctions merged). Each skeleton pixel is moved across the line to
 * the centre of the ink's coverage on the cross-section through it, whose integral is the width
 * there (sub-pixel, from the anti-aliasing). At a junction the two branches that continue each
 * other best (within 50° of straight) are one line through it; the others end at the junction's
 * centre, the least-squares meeting point of its branches, so lines meet without a gap or a spur.
 * A free end is carried on to where the ink ends; a butt end keeps its square corners in the ink,
 * a round one does not (lines under 6 px are given round ends: too few pixels to tell).
 */
import { coverageAt, coverageGrid, coverageSum, inkCells, type CoverageGrid, type InkPicture } from './coverage.js';
import { edgeLength, skeletonGraph, thin, type LineEndTest, type SkeletonGraph, type SkeletonNode } from './skeleton.js';

export type LineCap = 'butt' | 'round';

/** One centre-line, in traced pixels (pixel (x, y) covers [x, x + 1] × [y, y + 1]). */
export interface CenterPath {
  /** x, y pairs; a closed path does not repeat its first point. */
  readonly points: Float64Array;
  readonly closed: boolean;
  readonly widthPx: number;
  /**
   * How much the width varies along the line: the spread of its cross-sections' widths between
   * the 15th and 85th percentiles, over their median (0 for a dot or a line too short to tell).
   * tracelab.strokes=auto keeps as strokes only lines of near-constant width.
   */
  readonly widthSpread: number;
  readonly cap: LineCap;
}

/**
 * A region's lines, its ink's area (px, the sum of its coverage) and its coverage grid (over its
 * box and a margin: for the render check, drawn-as-ink.ts, to crop rather than read again); or `wide`.
 */
export type RegionLines = { readonly kind: 'lines'; readonly paths: CenterPath[]; readonly inkAreaPx: number; readonly coverage: CoverageGrid } | { readonly kind: 'wide' };

/** Pixel box of a region: [x0, x1) × [y0, y1). */
export interface PixelBox {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** Step (px) of the cross-section and end samples. */
const SAMPLE_STEP_PX = 0.25;
/** Coverage below which a cross-section has left the line. */
const EDGE_COVERAGE = 0.05;
/**
 * A line measures within ±5 % of its width (the fixtures' bound): one drawn exactly at the widest
 * a line may be (a 2-unit icon stroke at 4 px per unit, max_stroke_width 8) still counts as one.
 */
const WIDTH_SLACK = 1.05;
/**
 * Ink at least this wide (area over half its border) is thinned keeping the ends of lines two
 * pixels thick on a diagonal (skeleton.ts, Lü–Wang): a wide line takes many rounds to thin, and
 * each ate a pixel off such an end (a 16-px check mark lost its short arm). Glyph-size lines (1–3
 * px) take a round or two, and there the kept ends are a serif's corners, read as extra strokes
 * (a 15-px serif text: 267 → 336 strokes).
 */
const KEEP_DIAGONAL_ENDS_PX = 4;
/** Narrower lines get round ends: a 1-bit staircase under 6 px squares a round end off. */
const MIN_CAP_TEST_WIDTH_PX = 6;
/** A line through a junction that turns by more than this gets its corner (addCorner). */
const CORNER_COS = Math.cos((15 * Math.PI) / 180);
/** Branches within this angle of straight are near-parallel (sideBySide). */
const PARALLEL_COS = Math.cos((20 * Math.PI) / 180);
/** Branches within this angle of straight continue through a junction. */
const STRAIGHT_THROUGH_COS = Math.cos((50 * Math.PI) / 180);

/**
 * The lines of `region`, or `wide` when its ink is wider than maxWidthPx. `pixels`: the region's
 * pixels (picture indices), when the caller has them listed (its box is then not scanned for
 * them). With `linesBeside` (centerline mode), lines merged side by side are read as two
 * (linesBeside, bendInto); with `mergedBeside` (auto) only at an acute Y whose merged run is wide
 * (mergedY), and never bent into each other (measured in docs/strokes.md, Junctions: the bend
 * turned a leg into a ring on held-out icons, SSIM −0.009).
 */
export function regionCenterlines(picture: InkPicture, region: number, box: PixelBox, maxWidthPx: number, how: CenterlineRead = {}): RegionLines {
  const { pixels, linesBeside = false, mergedBeside = false } = how;
  // The mask, with a one-pixel empty border for the thinning.
  const mw = box.x1 - box.x0 + 2;
  const mh = box.y1 - box.y0 + 2;
  // The mask and its ink pixels listed (mask indices, raster order): the scans below visit the
  // ink, not its box (a thin outline's box is most of the picture).
  const { mask, ink } = regionMask(picture, region, box, pixels);
  const area = ink.length;
  // A line is about twice as long as its perimeter's half: ink whose area over half its perimeter
  // is far wider than a line is no line (and is neither measured nor thinned: see thin).
  const inkWidthPx = (2 * area) / Math.max(1, borderLength(mask, mw, ink));
  if (inkWidthPx > maxWidthPx * 2) return { kind: 'wide' };
  if (!thin(mask, mw, mh, Math.ceil(maxWidthPx * 2), inkWidthPx >= KEEP_DIAGONAL_ENDS_PX ? 3 : 2, ink)) return { kind: 'wide' };
  // Zhang–Suen erases a 2 × 2 block whole: a small dot keeps its middle pixel (of the mask as it was).
  const centre = mask.includes(1) ? -1 : centrePixel(regionMask(picture, region, box, pixels).mask, mw);
  if (centre >= 0) mask[centre] = 1;
  // The skeleton's pixels, in raster order (the ink's that the thinning left).
  const skeleton = setPixels(mask, ink);
  // A first width from the pixels alone: area over skeleton length (diagonal steps √2 long: a
  // 45° line counted by its pixels measured √2 too wide, and a thick check mark was called wide).
  // Too wide for a line is judged with the round ends' half discs beyond the skeleton's free ends
  // taken out (a dot's whole disc): a sun's ray 21 × 53 px, a third of it its caps, measured 32 px
  // without them, a 21-px dot 346 px, and were called wide. (The spur, merge and trim lengths
  // below keep the plain ratio they were set with: on it, a lucide arrow's head got a kink.)
  const skeletonPx = skeletonLengthPx(mask, mw, skeleton);
  const roughWidth = Math.max(1, area / Math.max(1, skeletonPx));
  if (widthFromArea(area, skeletonPx, freeEnds(mask, mw, skeleton)) > maxWidthPx * 1.5) return { kind: 'wide' };
  // The coverage, once the thinning has not found the ink too wide.
  const reach = Math.ceil(maxWidthPx / 2) + 3;
  const grid = coverageGrid(picture, region, box.x0 - reach, box.y0 - reach, box.x1 - box.x0 + 2 * reach, box.y1 - box.y0 + 2 * reach, box, pixels);
  const coveredArea = coverageSum(grid, box);
  // Spurs: shorter than ~the width (a boundary's noise); at glyph size (1–2 px lines) a real
  // terminal is 2–3 px long, so the floor is 1.5 px.
  // A wide line's short branch that runs straight on from another through their junction is a
  // stub the artist drew past it (a scale's post above its beam), kept (skeleton.ts).
  const lineEnds = linesBeside && roughWidth >= MIN_CAP_TEST_WIDTH_PX ? reachingPastJunction(() => regionMask(picture, region, box, pixels).mask, mw, mh, roughWidth) : undefined;
  const graph = skeletonGraph(mask, mw, mh, spurLengthPx(roughWidth), Math.max(2, roughWidth), roughWidth >= MIN_CAP_TEST_WIDTH_PX ? roughWidth : 0, skeleton, lineEnds);
  const frame: Frame = { grid, mw, ox: box.x0 - 1, oy: box.y0 - 1, reachPx: reach - 1, maxWidthPx, hardEdged: isHardEdged(grid, box) };
  if (graph.edges.length === 0) return dots(graph, frame, coveredArea);
  const edges = graph.edges.map((e) => measureEdge(e.pixels, frame, roughWidth));
  let saturated = 0;
  let samples = 0;
  for (const e of edges) {
    for (let k = 0; k < e.width.length; k++) {
      samples++;
      if (e.width[k]! < 0) saturated++;
    }
  }
  if (samples > 0 && saturated > samples / 2) return { kind: 'wide' };
  const read = linesBeside ? withoutDoubledBranches(graph, edges, roughWidth) : { graph, edges };
  const { paths, pointedJoins } = assemblePaths(read.graph, read.edges, frame, roughWidth, linesBeside ? 'besideOrBend' : mergedBeside ? 'beside' : 'one');
  if (tooWideOnceWidthsSet(paths, pointedJoins === 0 ? coveredArea : undefined, linesBeside, maxWidthPx)) return { kind: 'wide' };
  return { kind: 'lines', paths, inkAreaPx: coveredArea, coverage: grid };
}

/**
 * Gives a region that is one line its width from its ink's area `areaPx` (withAreaWidth; none
 * given through a V's point: the arms' inner overlap there is ink counted once for two, and the
 * width read from the area came short, 20.96 px for a 21.3-px pen at a 25° point); then says
 * whether the paths' median width is over the widest line. In centerline mode (`byCrossSections`)
 * a line is too wide by its cross-sections where its area says wider: a centre-line that falls
 * short of its ink (a check mark's corner cut 5 px, an end 6 px short) read 22.9 px from the
 * area for a 21.3-px pen, and the mark became an outline; the render check (groupCenterlines)
 * still judges the lines drawn.
 */
function tooWideOnceWidthsSet(paths: CenterPath[], areaPx: number | undefined, byCrossSections: boolean, maxWidthPx: number): boolean {
  const acrossPx = paths.map((p) => p.widthPx);
  if (paths.length === 1 && areaPx !== undefined) paths[0] = withAreaWidth(paths[0]!, areaPx);
  const widths = paths.map((p, k) => (byCrossSections ? Math.min(p.widthPx, acrossPx[k]!) : p.widthPx)).sort(ascending);
  return widths.length > 0 && widths[widths.length >> 1]! > maxWidthPx * WIDTH_SLACK;
}

/**
 * A short branch is a line when the ink around its free end reaches this many line widths past
 * the junction's own ink (reachingPastJunction). A boundary's bump reaches out by its height; the
 * spurs the thinning sends into a butt end's square corners by ~0.2 widths (the corner √½ width
 * from the junction, which is ½ width from the ink's edge); the lines the spur rule cut at 256 px
 * reach out 0.6–1.1 widths: a magnifier's handle (a third of it inside its ring), a crescent's
 * pointed tips, the V where a gem's four lines meet.
 */
const LINE_END_REACH_WIDTHS = 0.5;

/**
 * centerline mode's LineEndTest for lines `widthPx` wide: the ink reaches past the junction's
 * inscribed disc by LINE_END_REACH_WIDTHS or more — the end pixel's distance from the junction's
 * centre plus its own distance to the paper (the thinning leaves a wide line's end at the middle
 * of its round end), less the junction's distance to the paper. `inkMask`: the region's mask
 * before thinning, read on the first short branch.
 */
function reachingPastJunction(inkMask: () => Uint8Array, mw: number, mh: number, widthPx: number): LineEndTest {
  let mask: Uint8Array | undefined;
  const searchPx = Math.ceil(widthPx);
  return (end: SkeletonNode, junction: SkeletonNode) => {
    mask ??= inkMask();
    const reachPx = Math.hypot(end.x - junction.x, end.y - junction.y) + paperDistancePx(mask, mw, mh, end.x, end.y, searchPx) - paperDistancePx(mask, mw, mh, junction.x, junction.y, searchPx);
    return reachPx >= LINE_END_REACH_WIDTHS * widthPx;
  };
}

/** Distance (px) from (x, y) (mask px) to the nearest pixel of paper, at most `searchPx` (none nearer). */
function paperDistancePx(mask: Uint8Array, mw: number, mh: number, x: number, y: number, searchPx: number): number {
  let nearest = searchPx;
  const [cx, cy] = [Math.round(x), Math.round(y)];
  for (let py = Math.max(0, cy - searchPx); py <= Math.min(mh - 1, cy + searchPx); py++) {
    for (let px = Math.max(0, cx - searchPx); px <= Math.min(mw - 1, cx + searchPx); px++) {
      if (mask[py * mw + px] === 0) nearest = Math.min(nearest, Math.hypot(px - x, py - y));
    }
  }
  return nearest;
}

/** Branches from a free end to a junction shorter than this are spurs (skeletonGraph) unless kept as lines. */
function spurLengthPx(roughWidth: number): number {
  return Math.max(1.5, roughWidth * 1.2);
}

/** How regionCenterlines reads a region: its listed pixels, and whether it is read for centerline mode. */
export interface CenterlineRead {
  readonly pixels?: Int32Array;
  /**
   * centerline mode: lines merged side by side are two (linesBeside, bendInto), a line drawn
   * twice along itself is one (withoutDoubledBranches), and a short branch whose ink reaches well
   * past its junction's is a line, not a spur (reachingPastJunction).
   */
  readonly linesBeside?: boolean;
  /** auto: at an acute Y whose merged run is wide, the two lines are read side by side (mergedY); no bend (bendInto). */
  readonly mergedBeside?: boolean;
}

/** The two branches of a line drawn twice are about as long (pixels) as each other: within this ratio, plus 2 px. */
const DOUBLED_LENGTH_RATIO = 1.5;

/**
 * A line drawn twice side by side (a map's border between two provinces, each outlined by the
 * artist: two hairlines a pixel or two apart, a sliver of paper between them) is thinned around
 * the sliver into two branches between the same two junctions; each branch's cross-sections reach
 * over both hairlines, so both are moved onto the same centre-line, and the line was written
 * twice, one stroke on the other (the validation map: 7.5 % of its strokes' ink doubled). Of two
 * such branches, about as long as each other (a short branch beside a long one round a counter
 * is no double), the shorter is dropped when every one of its points lies within half the line's
 * width of the other's (away from the junctions, where the thinning bends both towards them and
 * the paths are cut: assemblePaths' trim): its stroke would lie inside the other's. Their
 * junctions lose an edge each.
 */
function withoutDoubledBranches(graph: SkeletonGraph, edges: readonly MeasuredEdge[], roughWidth: number): { graph: SkeletonGraph; edges: readonly MeasuredEdge[] } {
  const halfWidthPx = lineWidthOf(edges) / 2;
  const dropped = new Uint8Array(graph.edges.length);
  const degree = graph.nodes.map((node) => node.degree);
  for (let i = 0; i < graph.edges.length; i++) {
    for (let j = i + 1; j < graph.edges.length && !dropped[i]; j++) {
      if (dropped[j] || !sameNodes(graph.edges[i]!, graph.edges[j]!)) continue;
      const [short, long] = edges[i]!.x.length <= edges[j]!.x.length ? [i, j] : [j, i];
      if (edges[long]!.x.length > DOUBLED_LENGTH_RATIO * edges[short]!.x.length + 2) continue;
      if (farthestFromLine(edges[short]!, edges[long]!, roughWidth + 1) > halfWidthPx) continue;
      dropped[short] = 1;
      degree[graph.edges[short]!.from]!--;
      degree[graph.edges[short]!.to]!--;
    }
  }
  if (!dropped.includes(1)) return { graph, edges };
  const kept = graph.edges.map((_, k) => k).filter((k) => !dropped[k]);
  return {
    graph: { ...graph, nodes: graph.nodes.map((node, n) => ({ ...node, degree: degree[n]! })), edges: kept.map((k) => graph.edges[k]!) },
    edges: kept.map((k) => edges[k]!),
  };
}

/** Two edges between the same two distinct nodes. */
function sameNodes(a: { from: number; to: number }, b: { from: number; to: number }): boolean {
  if (a.from < 0 || b.from < 0 || a.from === a.to || b.from === b.to) return false;
  return (a.from === b.from && a.to === b.to) || (a.from === b.to && a.to === b.from);
}

/**
 * The farthest (px) any centre point of `m` lies from the nearest centre point of `line`, of its
 * points at least `trimPx` from its ends (a third of its chord at most: the middle of a short
 * branch round a pinhole is read); Infinity when none is that far.
 */
function farthestFromLine(m: MeasuredEdge, line: MeasuredEdge, trimPx: number): number {
  const n = m.x.length;
  const reachPx = Math.min(trimPx, Math.hypot(m.x[n - 1]! - m.x[0]!, m.y[n - 1]! - m.y[0]!) / 3);
  let far = -1;
  for (let k = 0; k < n; k++) {
    if (!farFromNodes(m, k, reachPx)) continue;
    let near = Infinity;
    for (let j = 0; j < line.x.length; j++) near = Math.min(near, Math.hypot(m.x[k]! - line.x[j]!, m.y[k]! - line.y[j]!));
    far = Math.max(far, near);
  }
  return far < 0 ? Infinity : far;
}

/**
 * The region's pixels (read from its box, or from their list) over its box, with a one-pixel
 * empty border (for the thinning), and the same pixels listed as mask indices in raster order.
 */
function regionMask(picture: InkPicture, region: number, box: PixelBox, pixels: Int32Array | undefined): { mask: Uint8Array; ink: Int32Array } {
  const mw = box.x1 - box.x0 + 2;
  const mask = new Uint8Array(mw * (box.y1 - box.y0 + 2));
  if (pixels) {
    const ink = new Int32Array(pixels.length);
    for (let k = 0; k < pixels.length; k++) {
      const x = pixels[k]! % picture.width;
      const y = (pixels[k]! - x) / picture.width;
      ink[k] = (y - box.y0 + 1) * mw + (x - box.x0 + 1);
      mask[ink[k]!] = 1;
    }
    return { mask, ink };
  }
  const listed: number[] = [];
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      if (picture.regionOf[y * picture.width + x] !== region) continue;
      const i = (y - box.y0 + 1) * mw + (x - box.x0 + 1);
      mask[i] = 1;
      listed.push(i);
    }
  }
  return { mask, ink: Int32Array.from(listed) };
}

/** The pixels of `listed` (mask indices) still set in the mask, in their order (a loop: TypedArray.filter's callback per pixel is slow). */
function setPixels(mask: Uint8Array, listed: Int32Array): Int32Array {
  let n = 0;
  for (let k = 0; k < listed.length; k++) n += mask[listed[k]!]!;
  const set = new Int32Array(n);
  for (let k = 0, j = 0; k < listed.length; k++) if (mask[listed[k]!]) set[j++] = listed[k]!;
  return set;
}

/** Pixel sides between the mask and the rest (its perimeter on the lattice); `ink`: the mask's pixels. */
function borderLength(mask: Uint8Array, mw: number, ink: Int32Array): number {
  let n = 0;
  for (let k = 0; k < ink.length; k++) {
    const i = ink[k]!;
    n += (mask[i - 1] ? 0 : 1) + (mask[i + 1] ? 0 : 1) + (mask[i - mw] ? 0 : 1) + (mask[i + mw] ? 0 : 1);
  }
  return n;
}

/**
 * Length of a thinned mask (px): its 4-links 1 each, its diagonal links not bridged by a 4-path √2
 * each; `skeleton`: its pixels in raster order (the sum's order).
 */
function skeletonLengthPx(mask: Uint8Array, mw: number, skeleton: Int32Array): number {
  let length = 0;
  for (let k = 0; k < skeleton.length; k++) {
    const i = skeleton[k]!;
    if (mask[i + 1]) length += 1;
    if (mask[i + mw]) length += 1;
    if (mask[i + mw + 1] && !mask[i + 1] && !mask[i + mw]) length += Math.SQRT2;
    if (mask[i + mw - 1] && !mask[i - 1] && !mask[i + mw]) length += Math.SQRT2;
  }
  return length;
}

/** The free ends of a thinned mask's lines: its pixels with one neighbour, two for a pixel alone (a dot); `skeleton`: its pixels. */
function freeEnds(mask: Uint8Array, mw: number, skeleton: Int32Array): number {
  let ends = 0;
  for (let k = 0; k < skeleton.length; k++) {
    const i = skeleton[k]!;
    const around = mask[i - mw - 1]! + mask[i - mw]! + mask[i - mw + 1]! + mask[i - 1]! + mask[i + 1]! + mask[i + mw - 1]! + mask[i + mw]! + mask[i + mw + 1]!;
    if (around <= 1) ends += 2 - around;
  }
  return ends;
}

/** Under 5 % as many partly covered pixels as fully covered ones: no anti-aliasing (the grid read with the ink's box `inkBox`). */
export function isHardEdged(grid: CoverageGrid, inkBox: PixelBox): boolean {
  const cells = inkCells(grid, inkBox);
  let partial = 0;
  let full = 0;
  for (let y = cells.y0; y < cells.y1; y++) {
    for (let k = y * grid.width + cells.x0, end = y * grid.width + cells.x1; k < end; k++) {
      const c = grid.value[k]!;
      if (c >= 0.85) full++;
      else if (c > 0.15) partial++;
    }
  }
  return partial < 0.05 * full;
}

/** The mask pixel nearest the mask's centroid (−1 for an empty mask). */
function centrePixel(mask: Uint8Array, mw: number): number {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    sx += i % mw;
    sy += Math.floor(i / mw);
    n++;
  }
  if (n === 0) return -1;
  let best = -1;
  let bestDistance = Infinity;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const d = Math.hypot((i % mw) - sx / n, Math.floor(i / mw) - sy / n);
    if (d < bestDistance) [best, bestDistance] = [i, d];
  }
  return best;
}

/** Where the region's mask lies in the picture, and its coverage. */
interface Frame {
  readonly grid: CoverageGrid;
  /** Mask width (mask pixel i is picture pixel (i % mw + ox, ⌊i / mw⌋ + oy)). */
  readonly mw: number;
  readonly ox: number;
  readonly oy: number;
  /** Farthest a cross-section looks from the skeleton. */
  readonly reachPx: number;
  /** The ink has no anti-aliasing (1-bit): its centres step with the staircase and are smoothed. */
  readonly hardEdged: boolean;
  readonly maxWidthPx: number;
}

/** An edge's pixels as picture points (pixel centres) moved to the ink's centre, with the width there (−1: wider than the reach). */
interface MeasuredEdge {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly width: Float64Array;
}

function pixelX(frame: Frame, p: number): number {
  return (p % frame.mw) + frame.ox + 0.5;
}
function pixelY(frame: Frame, p: number): number {
  return Math.floor(p / frame.mw) + frame.oy + 0.5;
}

function measureEdge(pixels: readonly number[], frame: Frame, roughWidth: number): MeasuredEdge {
  const n = pixels.length;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const width = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    x[k] = pixelX(frame, pixels[k]!);
    y[k] = pixelY(frame, pixels[k]!);
  }
  const half = Math.max(2, Math.round(roughWidth / 2));
  const cx = new Float64Array(n);
  const cy = new Float64Array(n);
  const across: Across = { nx: new Float64Array(n), ny: new Float64Array(n), offset: new Float64Array(n) };
  for (let k = 0; k < n; k++) {
    const a = Math.max(0, k - half);
    const b = Math.min(n - 1, k + half);
    let tx = x[b]! - x[a]!;
    let ty = y[b]! - y[a]!;
    const len = Math.hypot(tx, ty);
    if (len === 0) {
      cx[k] = x[k]!;
      cy[k] = y[k]!;
      width[k] = 0;
      continue;
    }
    tx /= len;
    ty /= len;
    const section = crossSection(frame, x[k]!, y[k]!, -ty, tx);
    cx[k] = x[k]! - ty * section.offset;
    cy[k] = y[k]! + tx * section.offset;
    width[k] = section.width;
    [across.nx[k], across.ny[k], across.offset[k]] = [-ty, tx, section.offset];
  }
  centreUnread(x, y, cx, cy, width, across);
  return { x: cx, y: cy, width };
}

/** Each cross-section's unit normal and the offset of the ink's centre along it. */
interface Across {
  readonly nx: Float64Array;
  readonly ny: Float64Array;
  readonly offset: Float64Array;
}

/**
 * Moves the points whose cross-section ran out of reach (width −1) across the line by the offset
 * of the nearest read points on either side (interpolated along the edge); not those next to the
 * edge's ends, where the ink out of reach is a junction's (the other lines'). Left at their pixel, a
 * skeleton pulled 1.3 px off the centre at a rounded corner of a line as wide as the limit (its far
 * edge, anti-aliased, past the reach) put a 1.5-px nub in the stroke.
 */
function centreUnread(x: Float64Array, y: Float64Array, cx: Float64Array, cy: Float64Array, width: Float64Array, across: Across): void {
  const n = x.length;
  let before = -1;
  for (let k = 0; k < n; k++) {
    if (width[k]! >= 0) {
      before = k;
      continue;
    }
    let after = k + 1;
    while (after < n && width[after]! < 0) after++;
    if (before < 0 || after >= n) continue;
    const t = (k - before) / (after - before);
    const offset = (1 - t) * across.offset[before]! + t * across.offset[after]!;
    cx[k] = x[k]! + across.nx[k]! * offset;
    cy[k] = y[k]! + across.ny[k]! * offset;
  }
}

/** The ink across (x, y) along the unit normal (nx, ny): its width and the offset of its centre (−1 width: still ink at the reach). */
function crossSection(frame: Frame, x: number, y: number, nx: number, ny: number): { width: number; offset: number } {
  let sum = coverageAt(frame.grid, x, y) * SAMPLE_STEP_PX;
  let moment = 0;
  let saturated = false;
  for (const side of [1, -1]) {
    for (let s = SAMPLE_STEP_PX; ; s += SAMPLE_STEP_PX) {
      if (s > frame.reachPx) {
        saturated = true;
        break;
      }
      const c = coverageAt(frame.grid, x + side * s * nx, y + side * s * ny);
      if (c < EDGE_COVERAGE) break;
      sum += c * SAMPLE_STEP_PX;
      moment += side * s * c * SAMPLE_STEP_PX;
    }
  }
  if (saturated) return { width: -1, offset: 0 };
  return { width: sum, offset: sum > 0 ? moment / sum : 0 };
}

/** A region thinned to single pixels (dots): a zero-length round line each, as wide as the dot. */
function dots(graph: SkeletonGraph, frame: Frame, coveredArea: number): RegionLines {
  const nodes = graph.nodes;
  if (nodes.length === 0) return { kind: 'lines', paths: [], inkAreaPx: coveredArea, coverage: frame.grid };
  const widthPx = 2 * Math.sqrt(coveredArea / nodes.length / Math.PI);
  if (widthPx > frame.maxWidthPx * WIDTH_SLACK) return { kind: 'wide' };
  return {
    kind: 'lines',
    inkAreaPx: coveredArea,
    coverage: frame.grid,
    paths: nodes.map((node) => {
      // One dot: at the centre of its ink (coverage-weighted), not of its middle pixel.
      const centre = nodes.length === 1 ? coverageCentroid(frame.grid) : undefined;
      const x = centre ? centre.x : node.x + frame.ox + 0.5;
      const y = centre ? centre.y : node.y + frame.oy + 0.5;
      return { points: Float64Array.of(x, y, x, y), closed: false, widthPx, widthSpread: 0, cap: 'round' as const };
    }),
  };
}

function coverageCentroid(grid: CoverageGrid): { x: number; y: number } | undefined {
  let sx = 0;
  let sy = 0;
  let sum = 0;
  for (let y = 0; y < grid.height; y++) {
    for (let x = 0; x < grid.width; x++) {
      const c = grid.value[y * grid.width + x]!;
      sx += c * (grid.x0 + x + 0.5);
      sy += c * (grid.y0 + y + 0.5);
      sum += c;
    }
  }
  return sum > 0 ? { x: sx / sum, y: sy / sum } : undefined;
}

/** One end of an edge at a node: which edge, and whether it is the edge's start. */
interface EdgeEnd {
  readonly edge: number;
  readonly atStart: boolean;
}

/**
 * The edges joined into paths: through each junction the straightest pairs continue; unpaired
 * ends stop at the junction's centre, free ends at the ink's end; and how many junctions were
 * a V's point (apexJoins).
 */
function assemblePaths(graph: SkeletonGraph, edges: readonly MeasuredEdge[], frame: Frame, roughWidth: number, merged: MergedLines): { paths: CenterPath[]; pointedJoins: number } {
  const joints = junctionJoints(graph, edges, frame, roughWidth, merged === 'beside');
  const wide = roughWidth >= MIN_CAP_TEST_WIDTH_PX;
  // centerline mode ('besideOrBend') reads Vs' points (apexJoins); both draw pens' corners
  // (addCorner) and drop the points bent towards the thinning's junction pixel (PathWalk.trimsAtPixel).
  const { apexOf, dropped } = merged === 'besideOrBend' && wide ? apexJoins(graph, edges, joints, frame, roughWidth) : { apexOf: [], dropped: new Uint8Array(graph.edges.length) };
  const read = merged !== 'one' && wide ? linesBeside(graph, edges, joints, frame, merged === 'besideOrBend') : { besideOf: [], kept: [], anchored: new Uint8Array(0) };
  const lineWidthPx = wide ? lineWidthOf(edges) : roughWidth;
  const trimsAtPixel = graph.nodes.map((_, n) => merged !== 'besideOrBend' || (wide && meetsAtTip(graph, n, joints.centre[n]!, frame, roughWidth)));
  const walk: PathWalk = { graph, edges, frame, roughWidth, trimsAtPixel, lineWidthPx, ...joints, ...read, apexOf, used: dropped, paths: [] };
  // Paths from their unpaired ends first, then what is left: rings and cycles of paired ends.
  for (let n = 0; n < graph.nodes.length; n++) {
    for (const end of joints.ends[n]!) {
      if (walk.used[end.edge] || joints.partner[endCode(end)]! >= 0) continue;
      walkPath(walk, end, false);
    }
  }
  for (let k = 0; k < graph.edges.length; k++) if (!walk.used[k]) walkPath(walk, { edge: k, atStart: true }, true);
  return { paths: walk.paths, pointedJoins: apexOf.filter((apex) => apex !== undefined).length };
}

/**
 * The points of Vs (centerline mode, lines of 6 px and more): where two lines meet at a sharp
 * angle with a round join, the thinning leaves a branch from their junction out into the point
 * (the ink's tip), its free end at the point's centre-line vertex (½ width from the tip); it
 * continued one of the lines and the other stopped at the junction, so the join bulged past the
 * tip or the point came out bent. At a junction of three where one branch runs to a free end, no
 * longer than a spur (kept by reachingPastJunction) or than the other two stay merged (a 30° V:
 * 41 px at 21 px), and the other two each leave it within 50° of straight on (a V's arms), the
 * arms are one line whose corner is the point's vertex (pointOfV), and the branch is dropped
 * (`dropped`, per edge).
 */
function apexJoins(graph: SkeletonGraph, edges: readonly MeasuredEdge[], joints: Joints, frame: Frame, roughWidth: number): { apexOf: ({ x: number; y: number } | undefined)[]; dropped: Uint8Array } {
  const apexOf: ({ x: number; y: number } | undefined)[] = graph.nodes.map(() => undefined);
  const dropped = new Uint8Array(graph.edges.length);
  const { ends, partner } = joints;
  for (let n = 0; n < graph.nodes.length; n++) {
    const tips = ends[n]!.length === 3 ? ends[n]!.filter((end) => isPointOfV(graph, joints, end, n, frame.mw, roughWidth)) : [];
    if (tips.length !== 1) continue;
    const arms = ends[n]!.filter((end) => end !== tips[0]);
    for (const end of ends[n]!) {
      const was = partner[endCode(end)]!;
      if (was >= 0) partner[was] = -1;
      partner[endCode(end)] = -1;
    }
    partner[endCode(arms[0]!)] = endCode(arms[1]!);
    partner[endCode(arms[1]!)] = endCode(arms[0]!);
    dropped[tips[0]!.edge] = 1;
    apexOf[n] = pointOfV(joints.lineOf[endCode(tips[0]!)]!, lineWidthOf(arms.map((end) => edges[end.edge]!)), frame);
  }
  return { apexOf, dropped };
}

/**
 * The centre-line vertex of a V's point whose branch leaves the junction along `tip`: half the
 * arms' width `widthPx` back from where the ink ends along it (a round join's tip), sub-pixel.
 */
function pointOfV(tip: BranchLine, widthPx: number, frame: Frame): { x: number; y: number } {
  const back = inkEdgePx(frame, tip.x, tip.y, tip.dx, tip.dy, frame.reachPx + widthPx) - widthPx / 2;
  return { x: tip.x + back * tip.dx, y: tip.y + back * tip.dy };
}

/** Is the branch leaving junction `n` (of three) at `end` the point of a V (apexJoins)? */
function isPointOfV(graph: SkeletonGraph, joints: Joints, end: EdgeEnd, n: number, mw: number, roughWidth: number): boolean {
  const tip = joints.lineOf[endCode(end)];
  const arms = joints.ends[n]!.filter((other) => other !== end).map((other) => joints.lineOf[endCode(other)]);
  if (freeEndOf(graph, end, n) < 0 || !tip || !arms[0] || !arms[1]) return false;
  if (arms.some((a) => -(a!.dx * tip.dx + a!.dy * tip.dy) < STRAIGHT_THROUGH_COS)) return false;
  return edgeLength(graph.edges[end.edge]!.pixels, mw) <= Math.max(spurLengthPx(roughWidth), mergedLengthPx(roughWidth, [arms[0], arms[1]]));
}

/** The free end (node) the branch leaving node `n` at `end` runs to, or −1 (a junction, a ring). */
function freeEndOf(graph: SkeletonGraph, end: EdgeEnd, n: number): number {
  const e = graph.edges[end.edge]!;
  const other = end.atStart ? e.to : e.from;
  return other >= 0 && other !== n && graph.nodes[other]!.degree === 1 ? other : -1;
}

/** How lines merged side by side at a junction are read: as one line, as two side by side (linesBeside), or also bending into each other (bendInto). */
type MergedLines = 'one' | 'beside' | 'besideOrBend';

/** An edge end coded as edge * 2 + (atStart ? 0 : 1). */
function endCode(end: EdgeEnd): number {
  return end.edge * 2 + (end.atStart ? 0 : 1);
}

/** How the edges meet at the nodes: the ends at each node, each end's partner, each junction's centre. */
interface Joints {
  readonly ends: EdgeEnd[][];
  /** Per edge end (endCode): the partner end it continues into (−1: none). */
  readonly partner: Int32Array;
  /** Per node: its centre (a junction's: the branches' meeting point). */
  readonly centre: { x: number; y: number }[];
  /** Per node: points of its edges this near its centre are dropped (the thinning bends them towards it). */
  readonly trimOf: Float64Array;
  /** Per edge end (endCode) at a junction: the line it leaves along, clear of the junction. */
  readonly lineOf: (BranchLine | undefined)[];
}

/** A branch's line near a junction: a point on it and its unit direction away from the junction. */
interface BranchLine {
  readonly x: number;
  readonly y: number;
  readonly dx: number;
  readonly dy: number;
}

/** Each node's edge ends, and at each junction its meeting point and the straightest pairs through it. */
function junctionJoints(graph: SkeletonGraph, edges: readonly MeasuredEdge[], frame: Frame, roughWidth: number, stemsAcrossTrim: boolean): Joints {
  const ends: EdgeEnd[][] = graph.nodes.map(() => []);
  graph.edges.forEach((e, k) => {
    if (e.from < 0) return;
    ends[e.from]!.push({ edge: k, atStart: true });
    ends[e.to]!.push({ edge: k, atStart: false });
  });
  const partner = new Int32Array(graph.edges.length * 2).fill(-1);
  const centre: { x: number; y: number }[] = graph.nodes.map((node) => ({ x: node.x + frame.ox + 0.5, y: node.y + frame.oy + 0.5 }));
  const trimOf = new Float64Array(graph.nodes.length).fill(roughWidth + 1);
  const lineOf: (BranchLine | undefined)[] = new Array(graph.edges.length * 2).fill(undefined);
  for (let n = 0; n < graph.nodes.length; n++) {
    const list = ends[n]!;
    if (list.length < 2) continue;
    // No branch of a wide line is cut away whole: a small ring on a junction (a USB sign's) lies
    // all within a width of it, and was gone. (Glyph-size lines keep their trim: there a branch
    // a few pixels long is a serif's or a blot's, better gone than one more stroke.)
    const keepHalf = roughWidth >= MIN_CAP_TEST_WIDTH_PX ? Math.min(...list.map((end) => farthestFrom(edges[end.edge]!, centre[n]!) / 2)) : Infinity;
    trimOf[n] = Math.min(trimOf[n]!, keepHalf);
    let dirs = list.map((end) => leavingDirection(edges[end.edge]!, end.atStart, centre[n]!, trimOf[n]!, roughWidth));
    // Branches at a sharp angle stay merged in the thinning for longer: half a width over the sine
    // of half their angle (an arrow's head and shaft at 45°: 1.3 widths), so they are measured and
    // cut farther out. Not on thin lines (text): their branches are a few pixels long, and cut
    // farther out little is left to measure.
    const wider = mergedLengthPx(roughWidth, dirs);
    if (roughWidth >= MIN_CAP_TEST_WIDTH_PX && Math.min(wider, keepHalf) > trimOf[n]!) {
      trimOf[n] = Math.min(wider, keepHalf);
      dirs = list.map((end) => leavingDirection(edges[end.edge]!, end.atStart, centre[n]!, trimOf[n]!, roughWidth));
    }
    const nodeCentre = centre[n]!;
    centre[n] = meetingPoint(dirs, nodeCentre, Math.max(3 + dirs.length, roughWidth), frame);
    // Not where the trim was lengthened for branches merged at a sharp angle: there the line
    // through is drawn on the merged ink's points (mergedY, linesBeside), not across the trim.
    const crossesPaper = roughWidth >= MIN_CAP_TEST_WIDTH_PX && trimOf[n]! <= roughWidth + 1 ? (a: BranchLine, b: BranchLine): boolean => bendCrossesPaper(a, b, centre[n]!, trimOf[n]!, frame) : undefined;
    pairStraightest(list, dirs, partner, roughWidth, nodeCentre, crossesPaper);
    if (roughWidth >= MIN_CAP_TEST_WIDTH_PX) pairTurnBeside(list, dirs, partner, roughWidth, crossesPaper);
    const onThrough = roughWidth >= MIN_CAP_TEST_WIDTH_PX && list.length === 3 ? endOnThroughLine(list, dirs, partner, centre[n]!, trimOf[n]!, frame) : undefined;
    // auto: a T's stem ends on the line through wherever that lies within the junction's trim (a
    // T beside a rounded corner: the corner's branch, read across the bend, pulls the meeting point
    // a width towards it, and the stem was drawn slanting to it); centerline mode within half a width.
    const onThroughPx = stemsAcrossTrim ? trimOf[n]! : roughWidth / 2;
    if (onThrough && Math.hypot(onThrough.x - centre[n]!.x, onThrough.y - centre[n]!.y) <= onThroughPx) centre[n] = onThrough;
    list.forEach((end, k) => (lineOf[endCode(end)] = dirs[k]));
  }
  return { ends, partner, centre, trimOf, lineOf };
}

/**
 * Two lines side by side, merged in the thinning (a spiral's turns where they touch, a document's
 * fold running into its outline): at a junction of three where one branch ends and two go through,
 * the ink beside the through line's branch that turns most from the ending one — the line the
 * ending one runs into — is wider than one line for a while. There the through line keeps to its
 * own side (its far edge on the ink's edge) and the ending line goes on along the other side,
 * until the ink is one line wide again: each line its own centre-line, no wedge of ink left out
 * (a centre-line in the middle of the merged ink covered neither edge). Moves the through
 * branch's points; returns per edge end the ending line's points on, from the junction out.
 */
function linesBeside(graph: SkeletonGraph, edges: readonly MeasuredEdge[], joints: Joints, frame: Frame, bend: boolean): MergedRead {
  const out: (Float64Array | undefined)[] = new Array(graph.edges.length * 2).fill(undefined);
  const read: MergedRead = { besideOf: out, kept: edges.map((m) => new Uint8Array(m.x.length)), anchored: new Uint8Array(graph.nodes.length) };
  const widthPx = lineWidthOf(edges);
  for (let n = 0; n < graph.nodes.length; n++) {
    const list = joints.ends[n]!;
    if (list.length !== 3) continue;
    const ending = list.filter((e) => joints.partner[endCode(e)]! < 0);
    if (ending.length !== 1) continue;
    const u = joints.lineOf[endCode(ending[0]!)];
    const through = list.filter((e) => joints.partner[endCode(e)]! >= 0);
    if (!u || through.length !== 2 || through[0]!.edge === through[1]!.edge) continue;
    const turn = (e: EdgeEnd): number => {
      const l = joints.lineOf[endCode(e)]!;
      return l ? u.dx * l.dx + u.dy * l.dy : Infinity;
    };
    const trunk = turn(through[0]!) <= turn(through[1]!) ? through[0]! : through[1]!;
    const t = joints.lineOf[endCode(trunk)];
    if (!t) continue;
    const centre = joints.centre[n]!;
    // The ending branch's side of the trunk: + is the trunk's left normal (−dy, dx).
    const side = Math.sign(-t.dy * (u.x - centre.x) + t.dx * (u.y - centre.y));
    if (!bend) {
      const merged = mergedY(edges, { ending: ending[0]!, through: [through[0]!, through[1]!] }, joints.lineOf, centre, joints.trimOf[n]!, widthPx, frame, read.kept);
      if (merged) [out[endCode(ending[0]!)], read.anchored[n]] = [merged, 1];
      continue;
    }
    if (side === 0) continue;
    const beside = besideTrunk(edges[trunk.edge]!, trunk.atStart, centre, joints.trimOf[n]!, side, widthPx, frame);
    // Where it runs on beside the trunk it needs no bend (a spiral's turns: measured, the bend
    // only added a kink there).
    const bent = beside || !bend ? undefined : bendInto(u, t, centre, joints.trimOf[n]!, widthPx, frame);
    if (beside) out[endCode(ending[0]!)] = beside;
    else if (bent) out[endCode(ending[0]!)] = Float64Array.from([...bent, t.x, t.y]);
  }
  return read;
}

/** Lines merged side by side, read (linesBeside). */
interface MergedRead {
  /** Per edge end (endCode) that ends at a junction: its line on along the merged ink beside the line through, from the junction out. */
  readonly besideOf: (Float64Array | undefined)[];
  /** Per edge, per point: 1 where the point was moved across the merged ink and is kept, though near its junction (mergedY). */
  readonly kept: Uint8Array[];
  /** Per node: 1 at a Y read by mergedY (its through line runs on its kept points: no bend drawn). */
  readonly anchored: Uint8Array;
}

/**
 * The merged run of a Y is a line's drawing only when it is this much wider than one line: a
 * narrower widening is a junction's own fill (a T's, a bend's), not two lines side by side.
 */
const MERGED_Y_WIDER = 1.5;
/** At a Y the ending line runs on into the trunk within this angle (from the junction's centre to their lines' points past its trim). */
const MERGED_Y_COS = Math.cos((45 * Math.PI) / 180);

/** The three branches of a Y: the one that ends there and the two that go through. */
interface YBranches {
  readonly ending: EdgeEnd;
  readonly through: readonly [EdgeEnd, EdgeEnd];
}

/**
 * auto: a Y where a line runs into another at an acute angle (a hair line into a face's outline)
 * and the two run on side by side, merged, over MERGED_Y_WIDER lines wide. Within the junction's
 * trim the thinning pulls all three branches into the middle of the merged ink, and a line drawn
 * to the junction's centre cuts across both lines' edges. Instead each branch's points near the
 * junction keep their own far edge (half a width in from the ink's edge on the side away from the
 * other lines; the centre of the ink where it is one line wide) and are kept, and the ending line
 * goes on beside the trunk (besideTrunk, from the junction out) to where they part. Returns the
 * ending line's points beside the trunk, or undefined where the ink is not that wide (nothing moved).
 */
function mergedY(edges: readonly MeasuredEdge[], y: YBranches, lineOf: readonly (BranchLine | undefined)[], centre: { x: number; y: number }, trimPx: number, widthPx: number, frame: Frame, kept: Uint8Array[]): Float64Array | undefined {
  const [u, a, b] = [lineOf[endCode(y.ending)], lineOf[endCode(y.through[0])], lineOf[endCode(y.through[1])]];
  if (!u || !a || !b) return undefined;
  // Each branch's way from the junction, its centre to its line's point past the trim: the
  // direction of its line there can be past a bend (a hair line's corner just past a Y).
  const way = (l: BranchLine): { x: number; y: number } => {
    const len = Math.hypot(l.x - centre.x, l.y - centre.y) || 1;
    return { x: (l.x - centre.x) / len, y: (l.y - centre.y) / len };
  };
  const [wu, wa, wb] = [way(u), way(a), way(b)];
  // The trunk is the through branch that turns most from the ending one: the line it runs into.
  const trunkFirst = wu.x * wa.x + wu.y * wa.y <= wu.x * wb.x + wu.y * wb.y;
  const [trunkEnd, otherEnd] = trunkFirst ? y.through : [y.through[1], y.through[0]];
  const [wt, wo] = trunkFirst ? [wa, wb] : [wb, wa];
  // Sides (+: a branch's left normal, walked from the junction): the ending line's of the trunk
  // and of the other through branch, and the other's of the ending line.
  const sideOf = (w: { x: number; y: number }, p: { x: number; y: number }): number => Math.sign(-w.y * p.x + w.x * p.y);
  const [trunkSide, otherSide, endingSide] = [sideOf(wt, wu), sideOf(wo, wu), sideOf(wu, wo)];
  if (trunkSide === 0 || otherSide === 0 || endingSide === 0) return undefined;
  // Acute: the ending line runs on into the trunk (a Y), not across it (a T, an arm on a bar).
  if (-(wu.x * wt.x + wu.y * wt.y) < MERGED_Y_COS) return undefined;
  const trunk = edges[trunkEnd.edge]!;
  if (mergedWidthPx(trunk, trunkEnd.atStart, centre, trimPx, trunkSide, widthPx, frame) < MERGED_Y_WIDER * widthPx) return undefined;
  const beside = besideTrunk(trunk, trunkEnd.atStart, centre, trimPx, trunkSide, widthPx, frame, kept[trunkEnd.edge]);
  if (!beside) return undefined;
  keepFarEdge(edges[otherEnd.edge]!, otherEnd.atStart, centre, trimPx, otherSide, widthPx, frame, kept[otherEnd.edge]!);
  keepFarEdge(edges[y.ending.edge]!, y.ending.atStart, centre, trimPx, endingSide, widthPx, frame, kept[y.ending.edge]!);
  return beside;
}

/** The widest the ink is across a branch (px, both edges read from its points), from its junction out to its trim plus BESIDE_REACH_WIDTHS widths. */
function mergedWidthPx(m: MeasuredEdge, atStart: boolean, centre: { x: number; y: number }, trimPx: number, side: number, widthPx: number, frame: Frame): number {
  let widest = 0;
  const scanPx = Math.min(2 * widthPx, frame.reachPx);
  forBranchPoints(m, atStart, centre, trimPx + BESIDE_REACH_WIDTHS * widthPx, side, widthPx, (k, nx, ny) => {
    const near = inkEdgePx(frame, m.x[k]!, m.y[k]!, nx, ny, scanPx);
    const far = inkEdgePx(frame, m.x[k]!, m.y[k]!, -nx, -ny, scanPx);
    // Where either side runs out of the scan, the ink across is another line's along it (a T's stem), not two side by side.
    if (near < scanPx && far < scanPx) widest = Math.max(widest, near + far);
  });
  return widest;
}

/**
 * A branch's points within trimPx of its junction, moved across the line to keep its far edge
 * (the side away from `side`): half a width in from the ink's edge where the ink is over
 * BESIDE_WIDER lines wide, to the ink's centre where it is one line; each moved point is kept.
 */
function keepFarEdge(m: MeasuredEdge, atStart: boolean, centre: { x: number; y: number }, trimPx: number, side: number, widthPx: number, frame: Frame, kept: Uint8Array): void {
  const scanPx = Math.min(1.5 * widthPx, frame.reachPx);
  forBranchPoints(m, atStart, centre, trimPx, side, widthPx, (k, nx, ny) => {
    const near = inkEdgePx(frame, m.x[k]!, m.y[k]!, nx, ny, scanPx);
    const far = inkEdgePx(frame, m.x[k]!, m.y[k]!, -nx, -ny, scanPx);
    if (far >= scanPx) return;
    const shift = near + far > BESIDE_WIDER * widthPx ? far - widthPx / 2 : (far - near) / 2;
    m.x[k] = m.x[k]! - nx * shift;
    m.y[k] = m.y[k]! - ny * shift;
    kept[k] = 1;
  });
}

/**
 * Calls visit(k, nx, ny) for a branch's points from its junction out to `reachPx` from its centre,
 * with the unit normal towards `side` (+: the branch's left, walked from the junction), read from
 * the chord a width long through the point.
 */
function forBranchPoints(m: MeasuredEdge, atStart: boolean, centre: { x: number; y: number }, reachPx: number, side: number, widthPx: number, visit: (k: number, nx: number, ny: number) => void): void {
  const n = m.x.length;
  const half = Math.max(2, Math.round(widthPx / 2));
  const dir = atStart ? 1 : -1;
  for (let j = 0; j < n; j++) {
    const k = atStart ? j : n - 1 - j;
    if (Math.hypot(m.x[k]! - centre.x, m.y[k]! - centre.y) > reachPx) break;
    const a = Math.max(0, k - half);
    const b = Math.min(n - 1, k + half);
    const len = Math.hypot(m.x[b]! - m.x[a]!, m.y[b]! - m.y[a]!);
    if (len === 0) continue;
    visit(k, (side * -(m.y[b]! - m.y[a]!) * dir) / len, (side * (m.x[b]! - m.x[a]!) * dir) / len);
  }
}

/**
 * Where the ending line bends into the line it meets (a document's fold curving into its top
 * edge), the inner corner of the bend is ink; at a T it is paper. Returns the bend's points from
 * the ending branch towards the trunk (its quarter points: the quadratic addCorner draws), or
 * undefined where the corner is paper or the lines run straight on.
 */
function bendInto(u: BranchLine, t: BranchLine, centre: { x: number; y: number }, trimPx: number, widthPx: number, frame: Frame): number[] | undefined {
  const control = bendControl(u, t, centre, trimPx, frame);
  if (!control) return undefined;
  const at = (s: number): [number, number] => bendPointAt(u, control, t, s);
  const [mx, my] = at(0.5);
  const ix = (u.x + t.x) / 2 - mx;
  const iy = (u.y + t.y) / 2 - my;
  const len = Math.hypot(ix, iy);
  if (len === 0) return undefined;
  // A point a little inside the stroke's inner edge at the middle of the bend.
  const inset = widthPx / 2 - 1;
  if (coverageAt(frame.grid, mx + (ix / len) * inset, my + (iy / len) * inset) < 0.5) return undefined;
  return [...at(0.25), mx, my, ...at(0.75)];
}

/** Merged ink is two lines while it is this much wider than one. */
const BESIDE_WIDER = 1.15;
/** The ending line goes on beside the through line at most this many widths. */
const BESIDE_REACH_WIDTHS = 5;

/**
 * Along the trunk edge from its junction: while the ink across it is over BESIDE_WIDER lines
 * wide, the trunk's point moves to keep its far side's edge, and the ending line's point is put a
 * half width in from the ending side's edge. Returns the ending line's points (undefined: fewer
 * than two, the ink was one line wide).
 */
function besideTrunk(m: MeasuredEdge, atStart: boolean, centre: { x: number; y: number }, trimPx: number, side: number, widthPx: number, frame: Frame, kept?: Uint8Array): Float64Array | undefined {
  const n = m.x.length;
  const half = Math.max(2, Math.round(widthPx / 2));
  const scanPx = Math.min(1.5 * widthPx, frame.reachPx);
  const points: number[] = [];
  const moves: number[] = [];
  for (let j = 0; j < n; j++) {
    const k = atStart ? j : n - 1 - j;
    const fromCentre = Math.hypot(m.x[k]! - centre.x, m.y[k]! - centre.y);
    if (fromCentre < trimPx && !kept) continue;
    if (fromCentre > trimPx + BESIDE_REACH_WIDTHS * widthPx) break;
    const a = Math.max(0, k - half);
    const b = Math.min(n - 1, k + half);
    const len = Math.hypot(m.x[b]! - m.x[a]!, m.y[b]! - m.y[a]!);
    if (len === 0) break;
    // The unit normal towards the ending line (the trunk's left normal, walked from the junction).
    const dir = atStart ? 1 : -1;
    const nx = (side * -(m.y[b]! - m.y[a]!) * dir) / len;
    const ny = (side * (m.x[b]! - m.x[a]!) * dir) / len;
    const near = inkEdgePx(frame, m.x[k]!, m.y[k]!, nx, ny, scanPx);
    const far = inkEdgePx(frame, m.x[k]!, m.y[k]!, -nx, -ny, scanPx);
    if (near >= scanPx || far >= scanPx || near + far <= BESIDE_WIDER * widthPx) {
      // From the junction (kept points): the merged run starts a little out, where the branches' ink has joined.
      if (kept && points.length === 0 && fromCentre < trimPx) continue;
      break;
    }
    points.push(m.x[k]! + nx * (near - widthPx / 2), m.y[k]! + ny * (near - widthPx / 2));
    moves.push(k, nx, ny, far - widthPx / 2);
  }
  if (points.length < 4) return undefined;
  // The through line's points: their far edges where the ink's are.
  for (let i = 0; i < moves.length; i += 4) {
    const k = moves[i]!;
    m.x[k] = m.x[k]! - moves[i + 1]! * moves[i + 3]!;
    m.y[k] = m.y[k]! - moves[i + 2]! * moves[i + 3]!;
    if (kept) kept[k] = 1;
  }
  return Float64Array.from(points);
}

/** How far (px) the ink reaches from (x, y) along the unit direction (nx, ny), coverage ≥ ½, up to maxPx. */
function inkEdgePx(frame: Frame, x: number, y: number, nx: number, ny: number, maxPx: number): number {
  let s = 0;
  while (s < maxPx && coverageAt(frame.grid, x + (s + SAMPLE_STEP_PX) * nx, y + (s + SAMPLE_STEP_PX) * ny) >= 0.5) s += SAMPLE_STEP_PX;
  return s >= maxPx ? maxPx : s + SAMPLE_STEP_PX / 2;
}

/**
 * Is junction `n`'s meeting point `centre` the ink's tip, as at an arrow's apex: at least
 * MIN_TIP_OFFSET_PX from the thinning's junction pixel, and the ink ends within half a width
 * (plus TIP_MARGIN_PX) beyond it, on from the pixel through it? Elsewhere (a T's meeting point
 * moved along the line through, a crescent's horn) the pixel's bent points lie on lines that
 * run on, and dropping them too let the fitted line drift (tabler photo-x, lucide sun-moon).
 */
function meetsAtTip(graph: SkeletonGraph, n: number, centre: { x: number; y: number }, frame: Frame, roughWidth: number): boolean {
  const node = graph.nodes[n]!;
  if (node.degree < 3) return false;
  const [dx, dy] = [centre.x - (node.x + frame.ox + 0.5), centre.y - (node.y + frame.oy + 0.5)];
  const offsetPx = Math.hypot(dx, dy);
  if (offsetPx < MIN_TIP_OFFSET_PX) return false;
  const limitPx = roughWidth / 2 + TIP_MARGIN_PX;
  return inkEdgePx(frame, centre.x, centre.y, dx / offsetPx, dy / offsetPx, limitPx + 1) <= limitPx;
}

/** Closer than this (px) the pixel's bent points are within the meeting point's trim anyway, and the direction is noise. */
const MIN_TIP_OFFSET_PX = 1;
/** A tip's ink ends ½ width beyond its centre-line vertex; its anti-aliased edge and the meeting point's error within this (px). */
const TIP_MARGIN_PX = 1.5;

/** The median of the edges' measured widths (their cross-sections within reach). */
function lineWidthOf(edges: readonly MeasuredEdge[]): number {
  const widths: number[] = [];
  for (const m of edges) for (let k = 0; k < m.width.length; k++) if (m.width[k]! > 0) widths.push(m.width[k]!);
  return widths.length > 0 ? medianOfSorted(sortedWidths(widths)) : 1;
}

/** The distance (px) of an edge's point farthest from `centre`. */
function farthestFrom(m: MeasuredEdge, centre: { x: number; y: number }): number {
  let far = 0;
  for (let k = 0; k < m.x.length; k++) far = Math.max(far, Math.hypot(m.x[k]! - centre.x, m.y[k]! - centre.y));
  return far;
}

/** How far out from a junction branches at a sharp angle stay merged (junctionJoints): half a width over the sine of half their angle, at most 2.5 widths, plus 1 px. */
function mergedLengthPx(roughWidth: number, dirs: readonly BranchLine[]): number {
  return Math.min(2.5 * roughWidth, roughWidth / 2 / Math.sin(smallestAngle(dirs) / 2)) + 1;
}

/** The smallest angle (radians) between two of the directions. */
function smallestAngle(dirs: readonly BranchLine[]): number {
  let best = Math.PI;
  for (let i = 0; i < dirs.length; i++) {
    for (let j = i + 1; j < dirs.length; j++) best = Math.min(best, Math.acos(Math.max(-1, Math.min(1, dirs[i]!.dx * dirs[j]!.dx + dirs[i]!.dy * dirs[j]!.dy))));
  }
  return Math.max(best, 0.2);
}

/** What walking the paths shares: the graph, its measured edges and joints, the edges used so far, the paths made. */
interface PathWalk extends Joints, MergedRead {
  readonly graph: SkeletonGraph;
  readonly edges: readonly MeasuredEdge[];
  readonly frame: Frame;
  readonly roughWidth: number;
  /**
   * Per node: are the points bent towards the thinning's junction pixel dropped too
   * (addEdgePoints)? In auto at every junction; in centerline mode, whose side-by-side reading
   * places junctions its own way, on lines of MIN_CAP_TEST_WIDTH_PX and more where the meeting
   * point is the ink's tip (meetsAtTip; on text's 2-px lines nearly every junction is within
   * 2.5 px of an end, and serif text lost 0.0022).
   */
  readonly trimsAtPixel: readonly boolean[];
  /** The lines' measured width (lineWidthOf on wide lines, else roughWidth): a pen's corner's reach (isPenCorner). */
  readonly lineWidthPx: number;
  readonly used: Uint8Array;
  readonly paths: CenterPath[];
  /** Per node: the point of the V whose arms turn through it (apexJoins). */
  readonly apexOf: readonly ({ x: number; y: number } | undefined)[];
}

/** One path from edge end `first` through the paired ends (a closed loop back to `first`), added to walk.paths. */
function walkPath(walk: PathWalk, first: EdgeEnd, closedLoop: boolean): void {
  const { graph, centre, used } = walk;
  const xs: number[] = [];
  const ys: number[] = [];
  const widths: number[] = [];
  let at = first;
  const startsAtNode = graph.edges[at.edge]!.from >= 0;
  const startNode = at.atStart ? graph.edges[at.edge]!.from : graph.edges[at.edge]!.to;
  const startFree = startNode >= 0 && graph.nodes[startNode]!.degree === 1;
  let endFree = false;
  for (;;) {
    used[at.edge] = 1;
    const e = graph.edges[at.edge]!;
    const fromNode = at.atStart ? e.from : e.to;
    const toNode = at.atStart ? e.to : e.from;
    addEdgePoints(walk, at, fromNode, toNode, xs, ys, widths);
    const next = walk.partner[endCode({ edge: at.edge, atStart: !at.atStart })]!;
    if (toNode < 0 || next < 0) {
      const beside = walk.besideOf[endCode({ edge: at.edge, atStart: !at.atStart })];
      if (beside) {
        for (let k = 0; k < beside.length; k += 2) {
          xs.push(beside[k]!);
          ys.push(beside[k + 1]!);
        }
      } else if (toNode >= 0 && graph.nodes[toNode]!.degree >= 3) {
        xs.push(centre[toNode]!.x);
        ys.push(centre[toNode]!.y);
      }
      endFree = toNode >= 0 && graph.nodes[toNode]!.degree === 1;
      break;
    }
    const nextEnd: EdgeEnd = { edge: next >> 1, atStart: (next & 1) === 0 };
    addCorner(walk, endCode({ edge: at.edge, atStart: !at.atStart }), next, toNode, xs, ys);
    if (closedLoop && nextEnd.edge === first.edge && nextEnd.atStart === first.atStart) break;
    if (used[nextEnd.edge]) break;
    at = nextEnd;
  }
  const besideStart = closedLoop ? undefined : walk.besideOf[endCode(first)];
  if (besideStart) {
    for (let k = 0; k < besideStart.length; k += 2) {
      xs.unshift(besideStart[k]!);
      ys.unshift(besideStart[k + 1]!);
    }
  } else if (startsAtNode && !closedLoop && startNode >= 0 && graph.nodes[startNode]!.degree >= 3) {
    xs.unshift(centre[startNode]!.x);
    ys.unshift(centre[startNode]!.y);
  }
  if (xs.length === 0) return;
  const measured = widths.length > 0 ? widths : allWidths(walk.edges, used);
  const sorted = sortedWidths(measured);
  walk.paths.push(finishPath(xs, ys, closedLoop, startFree, endFree, medianOfSorted(sorted), walk.frame, relativeSpread(sorted)));
}

/**
 * Where a line turns through a junction (more than 15°), its bend: a quadratic curve from one
 * branch's line to the other's, its control point where the lines cross (when that lies near the
 * junction), sampled at its quarters. An arc through the junction (a ring with a handle) is
 * matched by the curve; a sharp corner is rounded at about its width. Without it the path cuts
 * straight across.
 */
function addCorner(walk: PathWalk, inCode: number, outCode: number, node: number, xs: number[], ys: number[]): void {
  const apex = walk.apexOf[node];
  if (apex) {
    xs.push(apex.x);
    ys.push(apex.y);
    return;
  }
  const a = walk.lineOf[inCode];
  const b = walk.lineOf[outCode];
  if (!a || !b || walk.anchored[node]) return;
  const control = bendControl(a, b, walk.centre[node]!, walk.trimOf[node]!, walk.frame);
  if (!control) return;
  const others = walk.ends[node]!.map(endCode).filter((c) => c !== inCode && c !== outCode);
  if (walk.roughWidth >= MIN_CAP_TEST_WIDTH_PX && isPenCorner(a, b, others.map((c) => walk.lineOf[c]), control, walk.lineWidthPx, walk.frame)) {
    xs.push(control.x);
    ys.push(control.y);
    return;
  }
  for (const u of [0.25, 0.5, 0.75]) {
    const [x, y] = bendPointAt(a, control, b, u);
    xs.push(x);
    ys.push(y);
  }
}

/**
 * A pen turned on the point where branch lines a and b cross (a round join: the ink reaches round
 * it to half a width, less PEN_CORNER_INSET_PX, out of the turn), not along an arc through the
 * junction (whose ink ends short of that point, its outside a tangent's overshoot farther in).
 * Only where no other branch of the junction leaves on the outside of the turn (a clock's leg on
 * its ring): the ink there is that branch's.
 */
function isPenCorner(a: BranchLine, b: BranchLine, others: readonly (BranchLine | undefined)[], vertex: { x: number; y: number }, widthPx: number, frame: Frame): boolean {
  // Out of the turn: along the bisector of the two branches' directions away from the vertex, reversed.
  const ox = -(a.dx + b.dx);
  const oy = -(a.dy + b.dy);
  const length = Math.hypot(ox, oy);
  if (length < 1e-6 || others.some((l) => !l || l.dx * ox + l.dy * oy > 0)) return false;
  const reach = widthPx / 2 - PEN_CORNER_INSET_PX;
  return coverageAt(frame.grid, vertex.x + (ox / length) * reach, vertex.y + (oy / length) * reach) >= 0.5;
}

/** A round join's outer edge, read this far inside (px): its anti-aliased edge is within a pixel. */
const PEN_CORNER_INSET_PX = 1;

/** The control point of the bend from branch line a to b through a junction (addCorner), or undefined where the line runs on without one. */
function bendControl(a: BranchLine, b: BranchLine, centre: { x: number; y: number }, trimPx: number, frame: Frame): { x: number; y: number } | undefined {
  if (-(a.dx * b.dx + a.dy * b.dy) > CORNER_COS) return undefined;
  const det = a.dx * b.dy - a.dy * b.dx;
  if (Math.abs(det) < 1e-6) return undefined;
  const t = ((b.x - a.x) * b.dy - (b.y - a.y) * b.dx) / det;
  const x = a.x + t * a.dx;
  const y = a.y + t * a.dy;
  if (Math.hypot(x - centre.x, y - centre.y) > trimPx || coverageAt(frame.grid, x, y) < 0.5) return undefined;
  return { x, y };
}

/**
 * At a T of wide lines (a pair of branches through the junction, another ending there), where the
 * ending branch meets the line through as it is drawn (the chord between the pair's branches, or
 * its bend): the least-squares meeting point of all the branches lies off it where one of the
 * pair's branches bends away nearby (a frame's rounded corner a width from a divider), and the
 * ending line's round cap then pokes out of the frame. Undefined where there is no such T.
 */
function endOnThroughLine(list: readonly EdgeEnd[], dirs: readonly BranchLine[], partner: Int32Array, centre: { x: number; y: number }, trimPx: number, frame: Frame): { x: number; y: number } | undefined {
  const codes = list.map(endCode);
  const free = codes.findIndex((c) => partner[c]! < 0);
  const first = codes.findIndex((c) => partner[c]! >= 0);
  if (free < 0 || first < 0) return undefined;
  const a = dirs[first]!;
  const b = dirs[codes.indexOf(partner[codes[first]!]!)]!;
  const s = dirs[free]!;
  if (!b) return undefined;
  const control = bendControl(a, b, centre, trimPx, frame) ?? { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  // The through line's points, a → b, and their side of the ending branch's line.
  const side = (x: number, y: number): number => s.dx * (y - s.y) - s.dy * (x - s.x);
  let [px, py] = [a.x, a.y];
  for (let k = 1; k <= THROUGH_SAMPLES; k++) {
    const u = k / THROUGH_SAMPLES;
    const [qx, qy] = bendPointAt(a, control, b, u);
    const [dp, dq] = [side(px, py), side(qx, qy)];
    if (dp === 0 || dp * dq < 0) {
      const f = dp / (dp - dq);
      return { x: px + f * (qx - px), y: py + f * (qy - py) };
    }
    [px, py] = [qx, qy];
  }
  return undefined;
}

/** Samples along the line through a T, where its ending branch's line is sought. */
const THROUGH_SAMPLES = 16;

/** The point at u (0–1) of the quadratic bend from branch line a's point to b's, `control` its control point. */
function bendPointAt(a: BranchLine, control: { x: number; y: number }, b: BranchLine, u: number): [number, number] {
  const v = 1 - u;
  return [v * v * a.x + 2 * u * v * control.x + u * u * b.x, v * v * a.y + 2 * u * v * control.y + u * u * b.y];
}

/**
 * Would the line through a junction from branch line a to b, as addCorner draws it (its bend, or
 * straight across), leave the ink: a sample of it, THROUGH_SAMPLES along, covered under ½?
 */
function bendCrossesPaper(a: BranchLine, b: BranchLine, centre: { x: number; y: number }, trimPx: number, frame: Frame): boolean {
  const control = bendControl(a, b, centre, trimPx, frame) ?? { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  for (let k = 1; k < THROUGH_SAMPLES; k++) {
    const [x, y] = bendPointAt(a, control, b, k / THROUGH_SAMPLES);
    if (coverageAt(frame.grid, x, y) < 0.5) return true;
  }
  return false;
}

/** The points of edge `at` in walking order (those near a junction dropped), and its widths away from its nodes. */
function addEdgePoints(walk: PathWalk, at: EdgeEnd, fromNode: number, toNode: number, xs: number[], ys: number[], widths: number[]): void {
  const { graph, centre, trimOf, frame } = walk;
  const m = walk.edges[at.edge]!;
  const n = m.x.length;
  // Near a junction: within its trim of its meeting point, and (trimsAtPixel) of the thinning's
  // junction pixel too, towards which the skeleton bends (where lines meet at a sharp angle, an
  // arrow's head, the meeting point lies up to a width from it, at the apex, and the arms' bent
  // pixels beyond the trim from the apex were kept: 1.4–2 px off their lines); not the points
  // mergedY moved across the merged ink and kept.
  const kept = walk.kept[at.edge];
  const near = (node: number, k: number): boolean => {
    if (node < 0 || graph.nodes[node]!.degree < 3 || kept?.[k]) return false;
    const [x, y, pixel] = [m.x[k]!, m.y[k]!, graph.nodes[node]!];
    if (Math.hypot(x - centre[node]!.x, y - centre[node]!.y) < trimOf[node]!) return true;
    return walk.trimsAtPixel[node]! && Math.hypot(x - (pixel.x + frame.ox + 0.5), y - (pixel.y + frame.oy + 0.5)) < trimOf[node]!;
  };
  for (let j = 0; j < n; j++) {
    const k = at.atStart ? j : n - 1 - j;
    // Points near a junction bend towards it: dropped (the path goes to its centre instead).
    if (near(fromNode, k) || near(toNode, k)) continue;
    xs.push(m.x[k]!);
    ys.push(m.y[k]!);
    if (m.width[k]! > 0 && farFromNodes(m, k, walk.roughWidth * 1.5 + 1)) widths.push(m.width[k]!);
  }
}

function farFromNodes(m: MeasuredEdge, k: number, distancePx: number): boolean {
  const n = m.x.length;
  return Math.hypot(m.x[k]! - m.x[0]!, m.y[k]! - m.y[0]!) >= distancePx && Math.hypot(m.x[k]! - m.x[n - 1]!, m.y[k]! - m.y[n - 1]!) >= distancePx;
}

function allWidths(edges: readonly MeasuredEdge[], used: Uint8Array): number[] {
  const out: number[] = [];
  edges.forEach((m, k) => {
    if (!used[k]) return;
    for (let j = 0; j < m.width.length; j++) if (m.width[j]! > 0) out.push(m.width[j]!);
  });
  return out.length > 0 ? out : [1];
}

/** The direction an edge leaves its node: from its point at trimPx to the one ~1.5 widths further. */
function leavingDirection(m: MeasuredEdge, atStart: boolean, node: { x: number; y: number }, trimPx: number, roughWidth: number): { x: number; y: number; dx: number; dy: number } {
  const n = m.x.length;
  let near = -1;
  let far = -1;
  for (let j = 0; j < n; j++) {
    const k = atStart ? j : n - 1 - j;
    const d = Math.hypot(m.x[k]! - node.x, m.y[k]! - node.y);
    if (near < 0 && d >= trimPx) near = k;
    if (d <= trimPx + roughWidth + 1) far = k;
    else break;
  }
  if (near < 0) near = atStart ? n - 1 : 0;
  if (far < 0 || far === near) far = atStart ? n - 1 : 0;
  let dx = m.x[far]! - node.x;
  let dy = m.y[far]! - node.y;
  if (far !== near) {
    dx = m.x[far]! - m.x[near]!;
    dy = m.y[far]! - m.y[near]!;
  }
  const len = Math.hypot(dx, dy) || 1;
  return { x: m.x[near]!, y: m.y[near]!, dx: dx / len, dy: dy / len };
}

/** The point nearest to every branch's line (least squares), or `fallback` when they are (nearly) parallel. */
function meetingPoint(dirs: readonly BranchLine[], fallback: { x: number; y: number }, reachPx: number, frame: Frame): { x: number; y: number } {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let e = 0;
  for (const l of dirs) {
    // Normal n = (−dy, dx); minimise Σ (n · (p − q))².
    const nx = -l.dy;
    const ny = l.dx;
    const k = nx * l.x + ny * l.y;
    a += nx * nx;
    b += nx * ny;
    c += ny * ny;
    d += nx * k;
    e += ny * k;
  }
  const det = a * c - b * b;
  if (det < 0.05 * dirs.length * dirs.length) return fallback;
  const x = (d * c - b * e) / det;
  const y = (a * e - b * d) / det;
  // A meeting point far from the junction's pixels, or off the ink, is an ill-conditioned fit:
  // keep the pixels'. (Where lines meet at a sharp angle — an arrow's tip — the thinning's
  // junction lies up to a width inside the ink from where their centre-lines meet.)
  return Math.hypot(x - fallback.x, y - fallback.y) > reachPx || coverageAt(frame.grid, x, y) < 0.5 ? fallback : { x, y };
}

/**
 * Greedily pairs the ends whose directions continue each other best (within 50° of straight: a
 * ring's two arcs, measured by chords a width or two long, meet at 140°); at a junction, not two
 * whose line through it would cross paper (`crossesPaper`, wide lines).
 */
function pairStraightest(list: readonly EdgeEnd[], dirs: readonly BranchLine[], partner: Int32Array, roughWidth: number, nodeCentre: { x: number; y: number }, crossesPaper?: (a: BranchLine, b: BranchLine) => boolean): void {
  const pairs: { i: number; j: number; straight: number }[] = [];
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const straight = -(dirs[i]!.dx * dirs[j]!.dx + dirs[i]!.dy * dirs[j]!.dy);
      // On wide lines apart is measured from the line of the branch that passes nearer the
      // junction's pixels, when that one passes within a quarter width of them (the prong's, the
      // frame side's): a branch read across a rounded corner just past the junction (a frame's side
      // where a bar meets it a radius from the corner) has its chord tilted by the bend, and
      // measured along that tilt the frame's other side seemed a width away. (Not on hairlines:
      // measured, a pavement's hairlines lost 300 % bytes by it; not from a line farther off: a
      // lineart drawing's junctions only doubled more lines by it.)
      const swap = roughWidth >= MIN_CAP_TEST_WIDTH_PX && offCentre(dirs[j]!, nodeCentre) < Math.min(offCentre(dirs[i]!, nodeCentre), roughWidth / 4);
      const [line, other] = swap ? [dirs[j]!, dirs[i]!] : [dirs[i]!, dirs[j]!];
      if (list.length > 2 && (straight < STRAIGHT_THROUGH_COS || sideBySide(line, other, straight, roughWidth))) continue;
      // A frame's side and a foot leaving its corner below it are near straight on, but the
      // bend between them cuts the corner across the paper between frame and foot.
      if (list.length > 2 && crossesPaper?.(dirs[i]!, dirs[j]!)) continue;
      pairs.push({ i, j, straight });
    }
  }
  pairs.sort((p, q) => q.straight - p.straight || p.i - q.i || p.j - q.j);
  const taken = new Uint8Array(list.length);
  for (const p of pairs) {
    if (taken[p.i] || taken[p.j]) continue;
    const a = list[p.i]!;
    const b = list[p.j]!;
    // An edge from and to this node (a loop) cannot continue into itself at the same end.
    if (a.edge === b.edge && a.atStart === b.atStart) continue;
    taken[p.i] = taken[p.j] = 1;
    partner[a.edge * 2 + (a.atStart ? 0 : 1)] = b.edge * 2 + (b.atStart ? 0 : 1);
    partner[b.edge * 2 + (b.atStart ? 0 : 1)] = a.edge * 2 + (a.atStart ? 0 : 1);
  }
}

/**
 * At a junction of three wide lines left unpaired where two branches run side by side (a plug's
 * prong ending on its box's rounded corner: sideBySide, either way round), or near straight on
 * but with the line between them crossing paper (`crossesPaper`: a foot leaving a frame's corner
 * below its side), the box's outline turns its corner there: of the two, the one that leaves
 * from farther back along the third (the corner's; the prong or foot stands on the line through
 * before the corner) is paired with the third, whatever their angle. (Not on glyph-size lines:
 * measured, a map's and text's junctions only lost by it.)
 */
function pairTurnBeside(list: readonly EdgeEnd[], dirs: readonly BranchLine[], partner: Int32Array, roughWidth: number, crossesPaper?: (a: BranchLine, b: BranchLine) => boolean): void {
  if (list.length !== 3 || list.some((e) => partner[endCode(e)]! >= 0)) return;
  for (let third = 0; third < 3; third++) {
    const [i, j] = [(third + 1) % 3, (third + 2) % 3];
    const straight = -(dirs[i]!.dx * dirs[j]!.dx + dirs[i]!.dy * dirs[j]!.dy);
    const beside = sideBySide(dirs[i]!, dirs[j]!, straight, roughWidth) || sideBySide(dirs[j]!, dirs[i]!, straight, roughWidth);
    const acrossPaper = !beside && straight >= STRAIGHT_THROUGH_COS && crossesPaper?.(dirs[i]!, dirs[j]!);
    if (!beside && !acrossPaper) continue;
    // The corner is the one whose turn into the third stays in ink, where only one does (a box's
    // side standing on a base's edge beside the base's own corner); else the one leaving from
    // farther back along the third, by its point (a foot's line, read across its own corner's
    // bend, may pass anywhere; from the junction's centre a frame's side, read across its
    // corner, and the foot's passed as far).
    const [inkI, inkJ] = crossesPaper ? [!crossesPaper(dirs[i]!, dirs[third]!), !crossesPaper(dirs[j]!, dirs[third]!)] : [true, true];
    if (acrossPaper && !inkI && !inkJ) continue;
    const farther = backAlong(dirs[third]!, dirs[i]!) > backAlong(dirs[third]!, dirs[j]!) ? i : j;
    const turning = inkI !== inkJ ? (inkI ? i : j) : farther;
    const [a, b] = [list[turning]!, list[third]!];
    if (a.edge === b.edge && a.atStart === b.atStart) return;
    partner[endCode(a)] = endCode(b);
    partner[endCode(b)] = endCode(a);
    return;
  }
}

/** How far back (px) along branch line t, against its direction, branch line l's point lies. */
function backAlong(t: BranchLine, l: BranchLine): number {
  return -((l.x - t.x) * t.dx + (l.y - t.y) * t.dy);
}

/** How far (px) a branch's line passes from `centre`. */
function offCentre(l: BranchLine, centre: { x: number; y: number }): number {
  return Math.abs(l.dx * (centre.y - l.y) - l.dy * (centre.x - l.x));
}

/**
 * Two near-parallel branches more than half a width apart sideways are no one line: a line that
 * ends on a corner beside another (a plug's prong on its box's rounded corner) is not the
 * continuation of the box's side. Apart: `b`'s point from `a`'s line.
 */
function sideBySide(a: BranchLine, b: BranchLine, straight: number, roughWidth: number): boolean {
  if (straight < PARALLEL_COS) return false;
  return offCentre(a, b) > roughWidth / 2;
}

/** The path's points with its free ends carried to the ink's end, and its cap. */
function finishPath(xs: number[], ys: number[], closed: boolean, startFree: boolean, endFree: boolean, widthPx: number, frame: Frame, widthSpread: number): CenterPath {
  if (xs.length === 1) {
    xs.push(xs[0]!);
    ys.push(ys[0]!);
  }
  if (frame.hardEdged) smooth(xs, ys, closed);
  let round = 0;
  let butt = 0;
  if (!closed) {
    // The skeleton's last half width bends into a corner of the end: the end is carried on from
    // the line before it.
    if (endFree) trimEnd(xs, ys, widthPx / 2 + 1, false);
    if (startFree) trimEnd(xs, ys, widthPx / 2 + 1, true);
    if (endFree) (extendEnd(xs, ys, xs.length - 1, -1, widthPx, frame) === 'butt' ? butt++ : round++);
    if (startFree) (extendEnd(xs, ys, 0, 1, widthPx, frame) === 'butt' ? butt++ : round++);
  }
  const points = new Float64Array(xs.length * 2);
  for (let k = 0; k < xs.length; k++) {
    points[2 * k] = xs[k]!;
    points[2 * k + 1] = ys[k]!;
  }
  return { points, closed, widthPx, widthSpread, cap: butt > round ? 'butt' : 'round' };
}

/** Drops the points within lengthPx of the path's end (its start when `atStart`), keeping a quarter of the path and 2 points. */
function trimEnd(xs: number[], ys: number[], lengthPx: number, atStart: boolean): void {
  const n = xs.length;
  let total = 0;
  for (let k = 1; k < n; k++) total += Math.hypot(xs[k]! - xs[k - 1]!, ys[k]! - ys[k - 1]!);
  const limit = Math.min(lengthPx, total / 4);
  let drop = 0;
  let run = 0;
  for (let j = 1; j < n - 2; j++) {
    const k = atStart ? j : n - 1 - j;
    const prev = atStart ? k - 1 : k + 1;
    run += Math.hypot(xs[k]! - xs[prev]!, ys[k]! - ys[prev]!);
    if (run > limit) break;
    drop = j;
  }
  if (drop === 0) return;
  if (atStart) {
    xs.splice(0, drop);
    ys.splice(0, drop);
  } else {
    xs.length -= drop;
    ys.length -= drop;
  }
}

/**
 * Two passes of a [1 2 1] / 4 average along the path (ends kept): the centres of a hard-edged
 * line's cross-sections step with its staircase by up to a third of a pixel; averaged, the line is
 * as smooth as the one drawn, and the fitter needs a few curves where it needed many. Not for
 * anti-aliased ink: its centres are exact already, and averaging would round its corners off.
 */
function smooth(xs: number[], ys: number[], closed: boolean): void {
  const n = xs.length;
  if (n < 5) return;
  for (let pass = 0; pass < 2; pass++) {
    const ox = xs.slice();
    const oy = ys.slice();
    for (let k = 0; k < n; k++) {
      if (!closed && (k === 0 || k === n - 1)) continue;
      const a = (k - 1 + n) % n;
      const b = (k + 1) % n;
      xs[k] = (ox[a]! + 2 * ox[k]! + ox[b]!) / 4;
      ys[k] = (oy[a]! + 2 * oy[k]! + oy[b]!) / 4;
    }
  }
}

/**
 * Carries the free end at index k (the path runs towards k from k + step) on to where the ink
 * ends, along the line's course there: straight, or bent on as the line bends where that keeps
 * it nearer the ink's middle (edgeImbalance) (a hook's end carried on straight left its cap ~1 px off the ink;
 * a straight end after a rounded corner bent on would leave it); returns its cap. The new end is the tip for a butt end, half a width
 * short of it for a round one (its cap reaches the tip), with points every END_POINT_STEP_PX on
 * the way when it bends, so the fitted curve bends with the ink.
 */
function extendEnd(xs: number[], ys: number[], k: number, step: number, widthPx: number, frame: Frame): LineCap {
  const straight = straightCourse(xs, ys, k, step, widthPx);
  if (!straight) return 'round';
  // Thin or 1-bit lines end straight: a few pixels, or a staircase, give no curvature to trust.
  const bent = widthPx >= MIN_CAP_TEST_WIDTH_PX && !frame.hardEdged ? endCourse(xs, ys, k, step, widthPx) : undefined;
  const course = bent && bent.curvature !== 0 && edgeImbalance(bent, widthPx, frame) < edgeImbalance(straight, widthPx, frame) ? bent : straight;
  let s = 0;
  while (s < 2 * widthPx + 4 && coverageAt(frame.grid, ...courseAt(course, s + SAMPLE_STEP_PX)) >= 0.5) s += SAMPLE_STEP_PX;
  // The tip: where coverage falls through one half, between the last two samples.
  const [tipX, tipY] = courseAt(course, s + SAMPLE_STEP_PX / 2);
  const [tx, ty] = courseTangent(course, s + SAMPLE_STEP_PX / 2);
  let cap: LineCap = 'round';
  if (widthPx >= MIN_CAP_TEST_WIDTH_PX) {
    // A butt end's corners are ink; a round end's are not.
    const inset = Math.min(0.5, widthPx / 6);
    const side = 0.4 * widthPx;
    const c1 = coverageAt(frame.grid, tipX - inset * tx - side * ty, tipY - inset * ty + side * tx);
    const c2 = coverageAt(frame.grid, tipX - inset * tx + side * ty, tipY - inset * ty - side * tx);
    if (c1 >= 0.5 && c2 >= 0.5) cap = 'butt';
  }
  const pull = cap === 'butt' ? 0 : widthPx / 2;
  // A line shorter than its width (a dot drawn as a short line) ends nearer its tip than half a
  // width: its end goes back, or its cap would stick out of the ink (a 21-px dot read as a
  // 1.4-px line: 20 px² of cap outside it).
  if (s + SAMPLE_STEP_PX / 2 < pull) {
    pullBack(xs, ys, step, pull - s - SAMPLE_STEP_PX / 2);
    return cap;
  }
  const reach = s + SAMPLE_STEP_PX / 2 - pull;
  // A straight extension needs no way points (and keeps the samples the fitter's corner windows count).
  const steps = course.curvature === 0 ? 1 : Math.max(1, Math.ceil(reach / END_POINT_STEP_PX));
  const added: number[] = [];
  for (let j = 1; j < steps; j++) added.push(...courseAt(course, (reach * j) / steps));
  [xs[k], ys[k]] = courseAt(course, reach);
  // The way points go between the old end (moved) and the path before it.
  const wayX = added.filter((_, i) => i % 2 === 0);
  const wayY = added.filter((_, i) => i % 2 === 1);
  if (step < 0) {
    xs.splice(k, 0, ...wayX);
    ys.splice(k, 0, ...wayY);
  } else {
    xs.splice(1, 0, ...wayX.reverse());
    ys.splice(1, 0, ...wayY.reverse());
  }
  return cap;
}

/**
 * Moves the path's end (its last point for step −1, its first for 1) back along the path by
 * backPx, never past the path's middle, dropping the points it passes (2 are kept).
 */
function pullBack(xs: number[], ys: number[], step: number, backPx: number): void {
  let total = 0;
  for (let j = 1; j < xs.length; j++) total += Math.hypot(xs[j]! - xs[j - 1]!, ys[j]! - ys[j - 1]!);
  let left = Math.min(backPx, total / 2);
  while (left > 0) {
    const end = step < 0 ? xs.length - 1 : 0;
    const next = end + step;
    const d = Math.hypot(xs[next]! - xs[end]!, ys[next]! - ys[end]!);
    if (d <= left && xs.length > 2) {
      xs.splice(end, 1);
      ys.splice(end, 1);
      left -= d;
      continue;
    }
    const t = d > 0 ? Math.min(1, left / d) : 0;
    xs[end] = xs[end]! + (xs[next]! - xs[end]!) * t;
    ys[end] = ys[end]! + (ys[next]! - ys[end]!) * t;
    left = 0;
  }
}

/** The straight course along the chord from a width back to the end. */
function straightCourse(xs: number[], ys: number[], k: number, step: number, widthPx: number): EndCourse | undefined {
  const back = Math.max(0, Math.min(xs.length - 1, k + step * Math.max(2, Math.round(widthPx))));
  const tx = xs[k]! - xs[back]!;
  const ty = ys[k]! - ys[back]!;
  const length = Math.hypot(tx, ty);
  return length === 0 ? undefined : { x: xs[k]!, y: ys[k]!, tx: tx / length, ty: ty / length, curvature: 0 };
}

/**
 * How far a course is off the line's middle: the difference of the coverage at its two edges
 * (half a width either side), at a quarter and a half width along it. On the line's middle both
 * edges are half covered; a pixel off, one is ink and the other paper.
 */
function edgeImbalance(course: EndCourse, widthPx: number, frame: Frame): number {
  let sum = 0;
  for (const along of [0.25 * widthPx, 0.5 * widthPx]) {
    const [x, y] = courseAt(course, along);
    const [tx, ty] = courseTangent(course, along);
    const side = widthPx / 2;
    sum += Math.abs(coverageAt(frame.grid, x - side * ty, y + side * tx) - coverageAt(frame.grid, x + side * ty, y - side * tx));
  }
  return sum;
}

/** Spacing (px) of the points added along an end's extension. */
const END_POINT_STEP_PX = 2;

/** A line's course from its end: the end, its unit direction out, and its curvature (1/px, signed; 0: straight). */
interface EndCourse {
  readonly x: number;
  readonly y: number;
  readonly tx: number;
  readonly ty: number;
  readonly curvature: number;
}

/**
 * The course at end k: the circle through the end and the points half a width and a width back
 * (the end's direction its tangent there; farther back a straight end's line may still bend);
 * straight where those are fewer, or where the circle is tighter than half the width (a wobble,
 * not a bend).
 */
function endCourse(xs: number[], ys: number[], k: number, step: number, widthPx: number): EndCourse | undefined {
  const span = Math.max(2, Math.round(widthPx / 2));
  const last = xs.length - 1;
  const back = Math.max(0, Math.min(last, k + step * span));
  const back2 = k + 2 * step * span;
  const cx = xs[k]! - xs[back]!;
  const cy = ys[k]! - ys[back]!;
  const chord = Math.hypot(cx, cy);
  if (chord === 0) return undefined;
  let curvature = 0;
  if (back2 >= 0 && back2 <= last) {
    const ax = xs[back]! - xs[back2]!;
    const ay = ys[back]! - ys[back2]!;
    const far = Math.hypot(xs[k]! - xs[back2]!, ys[k]! - ys[back2]!);
    const bent = (2 * (ax * cy - ay * cx)) / Math.max(1e-9, Math.hypot(ax, ay) * chord * far);
    if (Math.abs(bent) * widthPx <= 2) curvature = bent;
  }
  // The tangent at the end turns from the chord by half the arc's angle.
  const turn = (curvature * chord) / 2;
  const ux = cx / chord;
  const uy = cy / chord;
  return { x: xs[k]!, y: ys[k]!, tx: ux * Math.cos(turn) - uy * Math.sin(turn), ty: ux * Math.sin(turn) + uy * Math.cos(turn), curvature };
}

/** The point a distance s along the course. */
function courseAt(c: EndCourse, s: number): [number, number] {
  if (Math.abs(c.curvature * s) < 1e-6) return [c.x + s * c.tx, c.y + s * c.ty];
  const along = Math.sin(c.curvature * s) / c.curvature;
  const across = (1 - Math.cos(c.curvature * s)) / c.curvature;
  return [c.x + along * c.tx - across * c.ty, c.y + along * c.ty + across * c.tx];
}

/** The course's unit direction a distance s along it. */
function courseTangent(c: EndCourse, s: number): [number, number] {
  const a = c.curvature * s;
  return [c.tx * Math.cos(a) - c.ty * Math.sin(a), c.tx * Math.sin(a) + c.ty * Math.cos(a)];
}

/**
 * A region that is one line: its width from its ink's area over its length (area = width × length,
 * plus the round ends' two half discs), steadier than the cross-sections on a hard-edged (1-bit)
 * line, whose staircase makes each cross-section a little off (a 2-px 1-bit line at 30° measures
 * 1.7 px across, 2.0 by its area). Kept only near the cross-sections' (within 30 %): a neighbour's
 * ink in the area would say otherwise.
 */
function withAreaWidth(path: CenterPath, coveredArea: number): CenterPath {
  const widthPx = widthFromArea(coveredArea, centerPathLengthPx(path), path.closed || path.cap === 'butt' ? 0 : 2);
  return Math.abs(widthPx - path.widthPx) <= 0.3 * path.widthPx ? { ...path, widthPx } : path;
}

/** A centre-line's length (px), a closed one's with its closing step. */
export function centerPathLengthPx(path: CenterPath): number {
  const p = path.points;
  let length = 0;
  for (let k = 2; k < p.length; k += 2) length += Math.hypot(p[k]! - p[k - 2]!, p[k + 1]! - p[k - 1]!);
  if (path.closed && p.length > 2) length += Math.hypot(p[0]! - p[p.length - 2]!, p[1]! - p[p.length - 1]!);
  return length;
}

/**
 * The width of a line of ink `areaPx` whose centre-line is `lengthPx` long and has `roundEnds`
 * round ends: area = width × length + a half disc (π width² / 8) per round end.
 */
function widthFromArea(areaPx: number, lengthPx: number, roundEnds: number): number {
  const caps = (roundEnds * Math.PI) / 8;
  return caps === 0 ? areaPx / Math.max(1e-9, lengthPx) : (-lengthPx + Math.sqrt(lengthPx * lengthPx + 4 * caps * areaPx)) / (2 * caps);
}

/**
 * Measured widths (all > 0: no NaN, no −0) sorted ascending, once for their median and their
 * spread: a typed array's numeric sort, which orders such numbers as the `ascending` comparator does.
 */
function sortedWidths(widths: readonly number[]): Float64Array {
  return new Float64Array(widths).sort();
}

/** (85th − 15th percentile) / median of the widths (sorted); 0 with fewer than 4. */
function relativeSpread(sorted: Float64Array): number {
  if (sorted.length < 4) return 0;
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const middle = medianOfSorted(sorted);
  return middle > 0 ? (at(0.85) - at(0.15)) / middle : 0;
}

function medianOfSorted(sorted: Float64Array): number {
  const m = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
}

function ascending(a: number, b: number): number {
  return a - b;
}
