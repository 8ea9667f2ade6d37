/**
 * Render and compare, decided: do a region's centre-lines, drawn as the strokes that will be
 * written (their corners redrawn as the ink says, fitted as the writer fits them), hold its ink?
 * In: the traced picture (coverage.ts), a region, its candidate centre-lines (centerline.ts), a
 * rule (the tolerance and the writer's fit). Out: the paths to write, or undefined.
 * Algorithm: stroke-check.ts draws the strokes over the region's coverage grid; the widths are
 * also tried scaled to hold the region's ink area (a 1-bit or JPEG line reads a little narrow or
 * wide); the better width must pass, and then the fitted curves must pass too.
 */
import { FitScratch, type FitOptions } from '../fit/fit.js';
import { isHardEdged, type CenterPath, type PixelBox } from './centerline.js';
import { withFittedCorners } from './corners.js';
import { coverageGridWithin, type CoverageGrid, type InkPicture } from './coverage.js';
import { autoStrokeFit, fittedLine } from './line-fit.js';
import { strokeFit, StrokeFitScratch, type StrokeFit } from './stroke-check.js';

/**
 * Render and compare: the strokes drawn may differ from the ink by this share of its area, plus
 * MAX_MISMATCH_PX over the width (an edge's anti-aliasing is a fraction of a pixel either side,
 * a larger share of a thin line).
 */
const MAX_MISMATCH = 0.04;
const MAX_MISMATCH_PX = 0.25;
/**
 * However wide the line, its strokes' edges may miss the ink's by at most this on average (px):
 * Σ|drawn − ink| over a line's length is twice the mean miss of its two edges, so the share
 * allowed is 2 × this over the width. The share above grows with the width (4 % of a 21-px
 * icon stroke is 0.42 px off along each edge), while a picture's look (SSIM's 1.5-px windows) is
 * hurt by an edge moved in px: a lucide book's arrow, its tip pinched and its shaft 0.4 px off
 * (4 %), passed and lost 0.013 SSIM against the default trace; pen lines that match hold 0.1–0.2 px.
 */
const MAX_EDGE_MISS_PX = 0.25;
/**
 * A wrong junction or a cut corner is a local miss: in no tile (a width a side, at least
 * MIN_TILE_PX) may the strokes miss more than this share of its ink (a pen line's edges: 1–10 %; the skeleton of a 16-px icon's rounded corner meeting a fold: 22 %).
 */
const MAX_TILE_MISMATCH = 0.15;
const MIN_TILE_PX = 8;
/**
 * Nor may a tile's Σ|drawn − ink| exceed 2 × this × its side (px²): the strokes' two edges across
 * it missing the ink's by this much on average. The share above grows with the width (15 % of a
 * 21-px stroke's tile is ~70 px², a corner cut square where the artist rounded it): a lucide
 * book's curl drawn as a T (34 px² in a tile) passed and lost 0.0065 SSIM; matched pen lines and
 * their round joins miss up to 11 px² (a 22-px tile), an icon's rounded corner met by a line 18.
 */
const MAX_TILE_EDGE_MISS_PX = 0.5;

/** How drawnAsInk decides: when drawn strokes hold the ink, and the fit the writer uses for a line of a width. */
export interface InkCheckRule {
  readonly reproduces: (fit: StrokeFit, widestPx: number) => boolean;
  readonly lineFit: (widthPx: number) => FitOptions;
}

/** tracelab.strokes=auto: a pen line's tolerances, overall and in every tile; auto's fit per width. */
export const PEN_LINE_CHECK: InkCheckRule = { reproduces: reproducesAsPen, lineFit: autoStrokeFit };

/** The fitter's and the render check's buffers, reused over a picture's regions (a context, not module state). */
export class InkCheckScratch {
  readonly fit = new FitScratch();
  readonly render = new StrokeFitScratch();
}

/**
 * The region's centre-lines, their corners redrawn as the ink says (corners.ts), drawn as strokes
 * (stroke-check.ts) against its ink: undefined when they miss or overshoot more of it than the
 * rule allows; else the paths, their widths scaled so the strokes hold the region's ink when that
 * fits the ink better (the cross-sections read a 1-bit or JPEG line a little narrow or wide).
 * `known`: the region's coverage as the reader read it (centerline.ts), cropped when it is large enough.
 */
export function drawnAsInk(picture: InkPicture, region: number, box: PixelBox, read: CenterPath[], scratch: InkCheckScratch, rule: InkCheckRule = PEN_LINE_CHECK, known?: CoverageGrid): CenterPath[] | undefined {
  const checked = checkedAsInk(picture, region, box, read, scratch, rule, known);
  return checked.kind === 'drawn' ? checked.paths : undefined;
}

/**
 * drawnAsInk's answer, or, when the strokes hold the ink overall (the pen line's tolerance) but
 * miss it in some tiles (a wrong junction where two lines run side by side), those tiles' boxes
 * (picture px) and the share of the ink they hold.
 */
export function checkedAsInk(picture: InkPicture, region: number, box: PixelBox, read: CenterPath[], scratch: InkCheckScratch, rule: InkCheckRule = PEN_LINE_CHECK, known?: CoverageGrid): InkCheck {
  const drawn = bestDrawn(picture, region, box, read, scratch, known);
  if (!rule.reproduces(drawn.fit, drawn.widestPx)) return holdsOverall(drawn.fit, drawn.widestPx) ? missedTiles(drawn) : { kind: 'no' };
  // The curves written are fitted to the centre-lines (strokes/index.ts): they must hold the ink too.
  const fitted = drawn.paths.map((p) => ({ ...p, points: fittedLine(scratch.fit, p, rule.lineFit(p.widthPx)) }));
  return rule.reproduces(strokeFit(drawn.grid, fitted, 1, drawn.hardEdged, drawn.tilePx, scratch.render), drawn.widestPx) ? { kind: 'drawn', paths: drawn.paths } : { kind: 'no' };
}

export type InkCheck =
  | { readonly kind: 'drawn'; readonly paths: CenterPath[] }
  /** The tiles (picture px) where the strokes miss over MAX_TILE_MISMATCH of the ink, and the share of the ink they hold. */
  | { readonly kind: 'missed'; readonly tiles: readonly PixelBox[]; readonly inkShare: number }
  | { readonly kind: 'no' };

function missedTiles({ fit, grid, tilePx }: Drawn): InkCheck {
  const tiles: PixelBox[] = [];
  let missedInkPx = 0;
  fit.tileShare.forEach((share, t) => {
    if (share <= MAX_TILE_MISMATCH) return;
    missedInkPx += fit.tileInkPx[t]!;
    const x0 = grid.x0 + (t % fit.tilesAcross) * tilePx;
    const y0 = grid.y0 + Math.floor(t / fit.tilesAcross) * tilePx;
    tiles.push({ x0, y0, x1: x0 + tilePx, y1: y0 + tilePx });
  });
  return { kind: 'missed', tiles, inkShare: missedInkPx / Math.max(1e-9, fit.inkAreaPx) };
}

interface Drawn {
  readonly grid: CoverageGrid;
  readonly hardEdged: boolean;
  readonly tilePx: number;
  readonly widestPx: number;
  /** The paths at the width that fits the ink better (as read, or scaled to hold its area). */
  readonly paths: CenterPath[];
  readonly fit: StrokeFit;
}

/** The centre-lines with their corners redrawn, drawn at the better of the read and the area-matched widths. */
function bestDrawn(picture: InkPicture, region: number, box: PixelBox, read: CenterPath[], scratch: InkCheckScratch, known: CoverageGrid | undefined): Drawn {
  let widestPx = 0;
  for (const p of read) widestPx = Math.max(widestPx, p.widthPx);
  const margin = Math.ceil(widestPx / 2) + 2;
  const grid = coverageGridWithin(known, picture, region, box.x0 - margin, box.y0 - margin, box.x1 - box.x0 + 2 * margin, box.y1 - box.y0 + 2 * margin, box);
  const hardEdged = isHardEdged(grid, box);
  const paths = withFittedCorners(grid, read, hardEdged, scratch.render);
  const tilePx = tileSidePx(widestPx);
  const fit = strokeFit(grid, paths, 1, hardEdged, tilePx, scratch.render);
  const scale = Math.min(1.3, Math.max(0.7, fit.inkAreaPx / Math.max(1e-9, fit.drawnAreaPx)));
  const scaled = Math.abs(scale - 1) > 0.02 ? strokeFit(grid, paths, scale, hardEdged, tilePx, scratch.render) : fit;
  if (scaled.mismatch < fit.mismatch) return { grid, hardEdged, tilePx, widestPx, paths: paths.map((p) => ({ ...p, widthPx: p.widthPx * scale })), fit: scaled };
  return { grid, hardEdged, tilePx, widestPx, paths, fit };
}

/** Within the render check's tolerances, overall and in every tile. */
function reproducesAsPen(fit: StrokeFit, widestPx: number): boolean {
  return holdsOverall(fit, widestPx) && fit.worstTile <= MAX_TILE_MISMATCH && worstTileMissPx(fit) <= 2 * MAX_TILE_EDGE_MISS_PX * tileSidePx(widestPx);
}

/** The largest Σ|drawn − ink| (px²) of a tile counted in worstTile. */
function worstTileMissPx(fit: StrokeFit): number {
  let worst = 0;
  fit.tileShare.forEach((share, t) => {
    if (share > 0) worst = Math.max(worst, share * fit.tileInkPx[t]!);
  });
  return worst;
}

/** The render check's tile side for lines up to this width (px). */
function tileSidePx(widestPx: number): number {
  return Math.max(MIN_TILE_PX, Math.ceil(widestPx));
}

/** The pen line's overall tolerance: the strokes miss or overshoot at most this share of the ink. */
function holdsOverall(fit: StrokeFit, widestPx: number): boolean {
  return fit.mismatch <= Math.min(MAX_MISMATCH + MAX_MISMATCH_PX / widestPx, (2 * MAX_EDGE_MISS_PX) / widestPx);
}
