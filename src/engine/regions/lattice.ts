/**
 * Lattice detection: is this bitmap pixel art shown larger than its own pixels (an integer or
 * non-integer nearest-neighbour upscale, possibly JPEG-compressed afterwards)?
 * In: RGBA pixels. Out: the lattice — the x and y positions where one art pixel ("cell") ends
 * and the next begins — or null. The trace then runs on one pixel per cell and its lattice
 * coordinates are mapped back through the lattice, so every edge lies exactly on a cell border.
 *
 * Two tests, both from the columns and rows where colour changes (cf. the "pixel grid
 * detection" step of pixel-art vectorisers, e.g. Kopf & Lischinski, Depixelizing Pixel Art, 2011,
 * which assume a known grid):
 * - exact: the columns (rows) where any row (column) changes colour are the cell borders; every
 *   cell between them is uniform by construction. Holds for clean upscales at any factor, integer
 *   or not, and for art drawn only with axis-aligned edges.
 * - periodic: after lossy compression every column changes a little, so only strong changes are
 *   counted, and an integer period and phase must carry nearly all of them; cells take the mean of
 *   their inner pixels (JPEG ringing sits next to the borders).
 */
import { pixelWords } from '../pixel-words.js';
import { SEGMENT_LINE, SegmentBuilder, type SegmentPath } from '../segment-path.js';
import type { Chain, RgbaImage, Shape, TraceResult } from '../types.js';

export interface Lattice {
  /** Cell borders across: cols + 1 increasing positions from 0 to the image width. */
  readonly xs: Int32Array;
  /** Cell borders down: rows + 1 increasing positions from 0 to the image height. */
  readonly ys: Int32Array;
  /** True when the cells' colours are means of noisy pixels (their palette needs merging). */
  readonly noisy: boolean;
  /** One pixel per cell (cellImage), computed once: the detection checks it, the trace traces it. */
  readonly cells: RgbaImage;
}

/** Channel difference (R, G, B or A) within which two pixels count as the same colour. */
const EXACT_TOLERANCE = 3;
/** A JPEG'd edge between two art colours changes by at least this much in some channel. */
const STRONG_CHANGE = 48;
/** A lattice must shrink the picture at least this much (pixels per cell) to be worth using. */
const MIN_PIXELS_PER_CELL = 2.5;
/** Share of strong changes the periodic lattice must explain. */
const MIN_PERIODIC_SHARE = 0.93;
/** Share of pixels within NOISY_CELL_TOLERANCE of their cell's mean in a periodic lattice. */
const MIN_UNIFORM_SHARE = 0.95;
const NOISY_CELL_TOLERANCE = 40;
/** Smallest pictures worth testing: a sprite of 8 × 8 cells at 2×. */
const MIN_SIDE = 16;

export function detectLattice(image: RgbaImage): Lattice | null {
  const { width, height } = image;
  if (width < MIN_SIDE || height < MIN_SIDE) return null;
  // Both tests start from the columns' changes: counted in one pass for the two tolerances (art
  // that is no upscale fails the first test at its columns, and the second then scanned them again).
  const columns = columnChanges(image);
  return exactLattice(image, columns.exact) ?? periodicLattice(image, columns.strong);
}

/** True when pixels o and q differ by more than `tolerance` in a channel (transparent = equal). */
function differs(data: Uint8Array | Uint8ClampedArray, o: number, q: number, tolerance: number): boolean {
  return differsFrom(data, o, data, q, tolerance);
}

function differsFrom(a: Uint8Array | Uint8ClampedArray, o: number, b: Uint8Array | Uint8ClampedArray, q: number, tolerance: number): boolean {
  const ao = a[o + 3]!;
  const aq = b[q + 3]!;
  if (ao === 0 && aq === 0) return false;
  return (
    Math.abs(ao - aq) > tolerance ||
    Math.abs(a[o]! - b[q]!) > tolerance ||
    Math.abs(a[o + 1]! - b[q + 1]!) > tolerance ||
    Math.abs(a[o + 2]! - b[q + 2]!) > tolerance
  );
}

/**
 * Per column x (1 … width−1), how many rows change between x−1 and x: by more than
 * EXACT_TOLERANCE (`exact`) and by more than STRONG_CHANGE (`strong`, a subset: a strong change is
 * an exact one). Index 0 is unused (always 0). Pixels with equal RGBA words never differ, so only
 * unequal ones are compared channel by channel (most neighbours in flat art are equal).
 */
function columnChanges(image: RgbaImage): { exact: Int32Array; strong: Int32Array } {
  const { width, height, data } = image;
  const words = pixelWords(data);
  const exact = new Int32Array(width);
  const strong = new Int32Array(width);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 1; x < width; x++) {
      const i = row + x;
      if (words[i] === words[i - 1]) continue;
      if (!differs(data, i * 4 - 4, i * 4, EXACT_TOLERANCE)) continue;
      exact[x]!++;
      if (differs(data, i * 4 - 4, i * 4, STRONG_CHANGE)) strong[x]!++;
    }
  }
  return { exact, strong };
}

/** Per row y (1 … height−1), how many columns change between y−1 and y; index 0 unused. */
function rowChanges(image: RgbaImage, tolerance: number): Int32Array {
  const { width, height, data } = image;
  const words = pixelWords(data);
  const rows = new Int32Array(height);
  for (let y = 1; y < height; y++) {
    const row = y * width;
    let changes = 0;
    for (let x = 0; x < width; x++) {
      const i = row + x;
      if (words[i] === words[i - width]) continue;
      if (differs(data, (i - width) * 4, i * 4, tolerance)) changes++;
    }
    rows[y] = changes;
  }
  return rows;
}


/** `changes`: columnChanges' exact counts. */
function exactLattice(image: RgbaImage, changes: Int32Array): Lattice | null {
  // Every test below only rejects, so the cheapest runs first: art that is not an upscale has
  // borders in most columns (median gap 1), and the rows are then never scanned.
  const xs = bordersWhere(changes);
  // Art with long straight runs also has columns without changes (a logo's vertical strokes),
  // but its cells are mostly one pixel wide; an upscale's are mostly two or more.
  if (medianGap(xs) < 2) return null;
  const ys = bordersWhere(rowChanges(image, EXACT_TOLERANCE));
  const cellCount = (xs.length - 1) * (ys.length - 1);
  if (cellCount * MIN_PIXELS_PER_CELL > image.width * image.height) return null;
  if (medianGap(ys) < 2) return null;
  // Small steps below the tolerance could add up across a wide cell (a soft gradient): every
  // pixel must still match its cell's first pixel.
  const lattice = { xs, ys, noisy: false, cells: cellImage(image, xs, ys, false) };
  return cellsUniform(image, lattice, EXACT_TOLERANCE * 2, 1) ? lattice : null;
}

/** Median distance between consecutive borders. */
function medianGap(borders: Int32Array): number {
  const gaps = new Int32Array(borders.length - 1);
  for (let i = 0; i < gaps.length; i++) gaps[i] = borders[i + 1]! - borders[i]!;
  gaps.sort();
  return gaps[gaps.length >> 1]!;
}

/** 0, every index with a non-zero count, and the length. */
function bordersWhere(counts: Int32Array): Int32Array {
  const out = [0];
  for (let i = 1; i < counts.length; i++) if (counts[i]! > 0) out.push(i);
  out.push(counts.length);
  return Int32Array.from(out);
}

/** `changes`: columnChanges' strong counts. */
function periodicLattice(image: RgbaImage, changes: Int32Array): Lattice | null {
  const across = bestPeriod(changes);
  if (!across) return null;
  const down = bestPeriod(rowChanges(image, STRONG_CHANGE));
  if (!down) return null;
  const xs = periodicBorders(image.width, across.period, across.phase);
  const ys = periodicBorders(image.height, down.period, down.phase);
  if ((xs.length - 1) * (ys.length - 1) * MIN_PIXELS_PER_CELL > image.width * image.height) return null;
  const lattice = { xs, ys, noisy: true, cells: cellImage(image, xs, ys, true) };
  return cellsUniform(image, lattice, NOISY_CELL_TOLERANCE, MIN_UNIFORM_SHARE) ? lattice : null;
}

/**
 * The largest integer period (2 … 32) and its phase whose multiples carry at least
 * MIN_PERIODIC_SHARE of the changes. A true period p also passes at its divisors, so the largest
 * that passes is the cell size. Needs enough changes to be evidence (a few edges prove nothing).
 */
function bestPeriod(counts: Int32Array): { period: number; phase: number } | null {
  let total = 0;
  let lines = 0;
  for (let i = 1; i < counts.length; i++) {
    total += counts[i]!;
    if (counts[i]! > 0) lines++;
  }
  if (lines < 4) return null;
  const maxPeriod = Math.min(32, Math.floor(counts.length / 4));
  for (let period = maxPeriod; period >= 2; period--) {
    const byPhase = new Float64Array(period);
    for (let i = 1; i < counts.length; i++) byPhase[i % period]! += counts[i]!;
    let phase = 0;
    for (let k = 1; k < period; k++) if (byPhase[k]! > byPhase[phase]!) phase = k;
    if (byPhase[phase]! >= total * MIN_PERIODIC_SHARE) return { period, phase };
  }
  return null;
}

function periodicBorders(length: number, period: number, phase: number): Int32Array {
  const out = [0];
  for (let i = phase === 0 ? period : phase; i < length; i += period) out.push(i);
  out.push(length);
  return Int32Array.from(out);
}

/**
 * True when at least `share` of the pixels are within `tolerance` (per channel) of their cell's
 * representative colour (lattice.cells).
 */
function cellsUniform(image: RgbaImage, { xs, ys, cells }: Lattice, tolerance: number, share: number): boolean {
  const { width, data } = image;
  const cols = xs.length - 1;
  const allowed = Math.floor(width * image.height * (1 - share));
  let off = 0;
  for (let cy = 0; cy < ys.length - 1; cy++) {
    for (let cx = 0; cx < cols; cx++) {
      const c = (cy * cols + cx) * 4;
      for (let y = ys[cy]!; y < ys[cy + 1]!; y++) {
        for (let x = xs[cx]!; x < xs[cx + 1]!; x++) {
          if (differsFrom(data, (y * width + x) * 4, cells.data, c, tolerance)) off++;
        }
      }
      if (off > allowed) return false;
    }
  }
  return true;
}

/**
 * One pixel per cell: the cell's top-left pixel for an exact lattice (every pixel of it is that
 * colour), else the mean of the cell's inner pixels (one pixel in from each border, where the cell
 * is at least 4 pixels; transparent pixels count as transparent black).
 */
function cellImage(image: RgbaImage, xs: Int32Array, ys: Int32Array, noisy: boolean): RgbaImage {
  const cols = xs.length - 1;
  const rows = ys.length - 1;
  const out = new Uint8Array(cols * rows * 4);
  const { width, data } = image;
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < cols; cx++) {
      const o = (cy * cols + cx) * 4;
      if (!noisy) {
        const p = (ys[cy]! * width + xs[cx]!) * 4;
        out[o] = data[p]!;
        out[o + 1] = data[p + 1]!;
        out[o + 2] = data[p + 2]!;
        out[o + 3] = data[p + 3]!;
        continue;
      }
      const x0 = xs[cx]!;
      const x1 = xs[cx + 1]!;
      const y0 = ys[cy]!;
      const y1 = ys[cy + 1]!;
      const ix0 = x1 - x0 >= 4 ? x0 + 1 : x0;
      const ix1 = x1 - x0 >= 4 ? x1 - 1 : x1;
      const iy0 = y1 - y0 >= 4 ? y0 + 1 : y0;
      const iy1 = y1 - y0 >= 4 ? y1 - 1 : y1;
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let y = iy0; y < iy1; y++) {
        for (let x = ix0; x < ix1; x++) {
          const p = (y * width + x) * 4;
          r += data[p]!;
          g += data[p + 1]!;
          b += data[p + 2]!;
          a += data[p + 3]!;
        }
      }
      const n = (ix1 - ix0) * (iy1 - iy0);
      out[o] = Math.round(r / n);
      out[o + 1] = Math.round(g / n);
      out[o + 2] = Math.round(b / n);
      out[o + 3] = Math.round(a / n);
    }
  }
  const cells = { width: cols, height: rows, data: out };
  return noisy ? flattenNoise(cells, CELL_NOISE) : cells;
}

/** Largest channel difference between neighbouring cells that compression alone explains. */
const CELL_NOISE = 8;

/**
 * Compression moves each cell's colour a little, differently in every cell: neighbouring cells
 * within `tolerance` of their region's running mean are grown into one region (seeded region
 * growing, 4-connected, scan order), and every cell takes its region's mean colour. A flat area of
 * the art becomes one colour again; texture and edges, whose cells differ more, stay.
 */
function flattenNoise(cells: RgbaImage, tolerance: number): RgbaImage {
  const { width, height, data } = cells;
  const n = width * height;
  const regionOf = new Int32Array(n).fill(-1);
  const out = new Uint8Array(data);
  const queue = new Int32Array(n);
  const members = new Int32Array(n);
  for (let seed = 0; seed < n; seed++) {
    if (regionOf[seed]! >= 0) continue;
    let head = 0;
    let tail = 0;
    let count = 0;
    const sum = [0, 0, 0, 0];
    const take = (i: number): void => {
      regionOf[i] = seed;
      queue[tail++] = i;
      members[count++] = i;
      for (let k = 0; k < 4; k++) sum[k]! += data[i * 4 + k]!;
    };
    take(seed);
    while (head < tail) {
      const i = queue[head++]!;
      const x = i % width;
      const y = (i - x) / width;
      for (const j of [x > 0 ? i - 1 : -1, x + 1 < width ? i + 1 : -1, y > 0 ? i - width : -1, y + 1 < height ? i + width : -1]) {
        if (j < 0 || regionOf[j]! >= 0) continue;
        let near = true;
        for (let k = 0; k < 4 && near; k++) near = Math.abs(data[j * 4 + k]! - sum[k]! / count) <= tolerance;
        if (near) take(j);
      }
    }
    for (let m = 0; m < count; m++) for (let k = 0; k < 4; k++) out[members[m]! * 4 + k] = Math.round(sum[k]! / count);
  }
  return { width, height, data: out };
}

/**
 * A straight path with every end point mapped (x → mx(x), y → my(y)), built in `out` (one builder
 * reused from chain to chain: a builder per chain was a buffer per chain).
 */
function mapLines(out: SegmentBuilder, path: SegmentPath, mx: (x: number) => number, my: (y: number) => number): SegmentPath {
  out.truncate(0);
  for (let k = 0; k < path.length; k++) {
    if (path.code(k) !== SEGMENT_LINE) throw new Error(`lattice traces are straight; found a ${path.at(k).kind}`);
    out.line(mx(path.x(k)), my(path.y(k)));
  }
  return out.take(0);
}

/**
 * A trace of the cell image moved onto the input: every lattice point (x, y) of the cell trace
 * becomes (xs[x], ys[y]), scaled to the traced size when the input was shrunk. Pixel-art traces
 * are lattice polygons (straight segments between integer points), so the mapping is exact.
 */
export function mapToLattice(
  onCells: TraceResult,
  lattice: Lattice,
  image: RgbaImage,
  shrunk: { width: number; height: number } | null | undefined,
): TraceResult {
  const width = shrunk ? shrunk.width : image.width;
  const height = shrunk ? shrunk.height : image.height;
  const sx = width / image.width;
  const sy = height / image.height;
  const mx = (x: number): number => lattice.xs[x]! * sx;
  const my = (y: number): number => lattice.ys[y]! * sy;
  const mapped = new SegmentBuilder();
  const chains: Chain[] = onCells.chains.map((chain) => ({
    ...chain,
    startX: mx(chain.startX),
    startY: my(chain.startY),
    segments: mapLines(mapped, chain.segments, mx, my),
  }));
  const pixelsPerCell = (width * height) / (onCells.width * onCells.height);
  const shapes: Shape[] = onCells.shapes.map(({ primitive: _none, ...shape }) => ({ ...shape, areaPx: shape.areaPx * pixelsPerCell }));
  return { ...onCells, width, height, inputWidth: image.width, inputHeight: image.height, chains, shapes };
}
