/**
 * Render and compare (tracelab.strokes=auto): do a region's centre-lines, drawn as strokes,
 * reproduce its ink?
 * In: the region's coverage grid (coverage.ts) and its candidate centre-lines (centerline.ts).
 * Out: how far the drawn strokes are from the ink (the sum of |drawn − ink| over the ink's area),
 * and the width scale at which the strokes hold as much ink as the region (their area matched).
 * Algorithm: each pixel's drawn coverage is 1/2 − its signed distance to the stroke's edge,
 * clamped to 0–1 (a box filter across the edge, as an anti-aliasing renderer gives): the distance
 * to the nearest segment minus half the width (round caps and joins), and past a butt end the
 * larger of that and the distance beyond the end. A lettered glyph (thick and thin strokes), a
 * blob with a tail, a wrong junction or a width off by a pixel all leave a mismatch that a pen
 * line of the measured width does not.
 */
import type { CenterPath } from './centerline.js';
import type { CoverageGrid } from './coverage.js';

export interface StrokeFit {
  /** Σ |drawn − ink| over Σ ink. */
  readonly mismatch: number;
  /** Σ ink (px). */
  readonly inkAreaPx: number;
  /** Σ drawn (px). */
  readonly drawnAreaPx: number;
  /** The largest Σ |drawn − ink| over Σ ink of a tile (side tilePx) holding ink of at least a quarter of its area. */
  readonly worstTile: number;
}

/**
 * The paths drawn at their widths × widthScale, against the grid's ink; `hardEdged` (1-bit ink):
 * drawn without anti-aliasing, a pixel inked where its centre is.
 */
export function strokeFit(grid: CoverageGrid, paths: readonly CenterPath[], widthScale: number, hardEdged: boolean, tilePx: number): StrokeFit {
  const outside = new Float32Array(grid.width * grid.height).fill(Infinity);
  for (const path of paths) drawPath(grid, outside, path, path.widthPx * widthScale);
  const tilesX = Math.ceil(grid.width / tilePx);
  const tileInk = new Float64Array(tilesX * Math.ceil(grid.height / tilePx));
  const tileError = new Float64Array(tileInk.length);
  let drawn = 0;
  for (let k = 0; k < outside.length; k++) {
    const o = outside[k]!;
    const d = hardEdged ? (o <= 0 ? 1 : 0) : o <= -0.5 ? 1 : o >= 0.5 ? 0 : 0.5 - o;
    const c = grid.value[k]!;
    const gx = k % grid.width;
    const t = Math.floor((k - gx) / grid.width / tilePx) * tilesX + Math.floor(gx / tilePx);
    tileInk[t] += c;
    tileError[t] += Math.abs(d - c);
    drawn += d;
  }
  let ink = 0;
  let error = 0;
  let worstTile = 0;
  for (let t = 0; t < tileInk.length; t++) {
    ink += tileInk[t]!;
    error += tileError[t]!;
    if (tileInk[t]! >= (tilePx * tilePx) / 4) worstTile = Math.max(worstTile, tileError[t]! / tileInk[t]!);
  }
  return { mismatch: error / Math.max(1e-9, ink), inkAreaPx: ink, drawnAreaPx: drawn, worstTile };
}

/** Per pixel of the grid, the least signed distance (px) outside any of the path's segments so far. */
function drawPath(grid: CoverageGrid, outside: Float32Array, path: CenterPath, widthPx: number): void {
  const p = path.points;
  const n = p.length >> 1;
  const segments = path.closed && n > 2 ? n : Math.max(1, n - 1);
  const butt = !path.closed && path.cap === 'butt';
  for (let s = 0; s < segments; s++) {
    const a = s;
    const b = Math.min(n - 1, path.closed ? (s + 1) % n : s + 1);
    drawSegment(grid, outside, {
      ax: p[2 * a]!,
      ay: p[2 * a + 1]!,
      bx: p[2 * b]!,
      by: p[2 * b + 1]!,
      half: widthPx / 2,
      buttStart: butt && s === 0,
      buttEnd: butt && s === segments - 1,
    });
  }
}

interface Segment {
  readonly ax: number;
  readonly ay: number;
  readonly bx: number;
  readonly by: number;
  readonly half: number;
  readonly buttStart: boolean;
  readonly buttEnd: boolean;
}

function drawSegment(grid: CoverageGrid, outside: Float32Array, seg: Segment): void {
  const { ax, ay, bx, by, half } = seg;
  const reach = half + 1;
  const gx0 = Math.max(0, Math.floor(Math.min(ax, bx) - reach - grid.x0));
  const gy0 = Math.max(0, Math.floor(Math.min(ay, by) - reach - grid.y0));
  const gx1 = Math.min(grid.width - 1, Math.ceil(Math.max(ax, bx) + reach - grid.x0));
  const gy1 = Math.min(grid.height - 1, Math.ceil(Math.max(ay, by) + reach - grid.y0));
  const dx = bx - ax;
  const dy = by - ay;
  const length = Math.hypot(dx, dy);
  const ux = length > 0 ? dx / length : 0;
  const uy = length > 0 ? dy / length : 0;
  for (let gy = gy0; gy <= gy1; gy++) {
    const y = grid.y0 + gy + 0.5;
    for (let gx = gx0; gx <= gx1; gx++) {
      const x = grid.x0 + gx + 0.5;
      const along = (x - ax) * ux + (y - ay) * uy;
      const across = Math.abs((x - ax) * uy - (y - ay) * ux);
      let o: number;
      // A zero-length segment (a dot, a closed path's repeated end) is its round cap.
      if (length === 0) o = Math.hypot(x - ax, y - ay) - half;
      else if (along < 0) o = seg.buttStart ? Math.max(across - half, -along) : Math.hypot(x - ax, y - ay) - half;
      else if (along > length) o = seg.buttEnd ? Math.max(across - half, along - length) : Math.hypot(x - bx, y - by) - half;
      else o = across - half;
      const k = gy * grid.width + gx;
      if (o < outside[k]!) outside[k] = o;
    }
  }
}
