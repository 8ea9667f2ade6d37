/**
 * Scanline rasteriser for traced shapes (pure TypeScript, no DOM, deterministic).
 * In: a TraceResult, an output size and the scale from traced coordinates to output pixels.
 * Out: RGBA bytes (straight, non-premultiplied alpha; transparent where nothing is drawn unless
 * a background is given), rows top to bottom.
 *
 * Each shape (outer loop + holes, nonzero winding) is filled in paint order, bottom first, and
 * composited "source over". A shape with a gradient (tracelab.gradients) is painted, per pixel,
 * with the gradient's colour at the pixel's centre (src/formats/gradient.ts: DeviceGradient) times
 * its coverage, at the shape colour's alpha. Every chain is flattened once (in output pixels, within
 * `tolerancePx`) and walked backwards for reversed uses, so neighbouring shapes share exactly the
 * same polyline points.
 *
 * Anti-aliased mode computes exact-area coverage with the signed-area cell method: every edge
 * adds, to the cells it crosses, its signed height (cover) split by how much of the cell lies to
 * the right of it; a prefix sum along each row then gives the winding-weighted area covered in
 * each pixel, and coverage = min(1, |sum|) (nonzero; exact wherever a pixel is not crossed by
 * edges of opposite-winding overlaps). Aliased mode marks a pixel when its centre is inside
 * (nonzero), with the same buffer holding integer winding steps.
 *
 * Memory: one Float64 cell buffer the size of the largest shape's bounding box (at most
 * (width + 2) × height × 8 bytes, e.g. 24 MB at 1920 × 1568), reused for every shape and cleared
 * only over the current box; plus the output (width × height × 4 bytes) and the flattened chains.
 * Time: proportional to the edges plus the sum of the shapes' bounding-box areas.
 * Arithmetic is plain IEEE doubles in a fixed order, so results are byte-identical on every run
 * and in every conforming JavaScript engine.
 *
 * The output-plan renderer (src/formats/raster-plan.ts) reuses the building blocks exported
 * below: ChainCache (with a traced → device offset), CellBuffer (with a per-pixel composite for
 * clipped strokes and gradient paints) and addLoop.
 */
import type { Chain, Loop, Rgba, TraceResult } from '../engine/types.js';
import { flattenPath, polylineBounds } from './flatten.js';
import { DeviceGradient, isDrawableGradient } from './gradient.js';

export interface RasterOptions {
  /** Output size in pixels. */
  readonly width: number;
  readonly height: number;
  /** Output pixels per traced-image unit. */
  readonly scaleX: number;
  readonly scaleY: number;
  readonly antiAliased: boolean;
  /** Painted under every shape; absent = transparent. */
  readonly background?: Rgba;
  /** Largest distance between a curve and its flattened polyline, in output pixels (default 0.1). */
  readonly tolerancePx?: number;
}

export function rasterizeShapes(result: TraceResult, options: RasterOptions): Uint8Array {
  const width = Math.max(0, Math.floor(options.width));
  const height = Math.max(0, Math.floor(options.height));
  const out = new Uint8Array(width * height * 4);
  if (options.background) paintBackground(out, options.background);
  if (width === 0 || height === 0) return out;
  const chains = new ChainCache(result.chains, options.scaleX, options.scaleY, options.tolerancePx ?? 0.1);
  const cells = new CellBuffer(width, height, options.antiAliased);
  for (const shape of result.shapes) {
    if (shape.color.a <= 0) continue;
    const loops = [shape.outer, ...shape.holes];
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const loop of loops) {
      for (const use of loop) {
        const box = chains.bounds(use.chain);
        if (box[0] < minX) minX = box[0];
        if (box[1] < minY) minY = box[1];
        if (box[2] > maxX) maxX = box[2];
        if (box[3] > maxY) maxY = box[3];
      }
    }
    if (!cells.begin(minX, minY, maxX, maxY)) continue;
    for (const loop of loops) addLoop(cells, chains, loop);
    if (shape.gradient && isDrawableGradient(shape.gradient)) cells.compositeEach(out, shape.color, undefined, new DeviceGradient(shape.gradient, options.scaleX, options.scaleY, 0, 0));
    else cells.composite(out, shape.color);
  }
  return out;
}

/** Fills straight-alpha RGBA bytes with one colour. */
export function paintBackground(out: Uint8Array, bg: Rgba): void {
  const r = clampByte(bg.r), g = clampByte(bg.g), b = clampByte(bg.b), a = clampByte(bg.a);
  for (let o = 0; o < out.length; o += 4) {
    out[o] = r;
    out[o + 1] = g;
    out[o + 2] = b;
    out[o + 3] = a;
  }
}

/**
 * Coverage (0–1) of polygons given as closed polylines (x,y pairs in output pixels; the closing
 * edge is implied), nonzero winding, one value per pixel. For tests and other writers.
 */
export function polygonCoverage(loops: readonly Float64Array[], width: number, height: number, antiAliased: boolean): Float64Array {
  const cov = new Float64Array(width * height);
  const cells = new CellBuffer(width, height, antiAliased);
  if (!cells.begin(0, 0, width, height)) return cov;
  for (const p of loops) {
    const n = p.length >> 1;
    if (n < 2) continue;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      cells.addLine(p[2 * i]!, p[2 * i + 1]!, p[2 * j]!, p[2 * j + 1]!);
    }
  }
  cells.resolve((x, y, c) => {
    cov[y * width + x] = c;
  });
  return cov;
}

/**
 * Calls `edge` for every edge of a loop's flattened polygon, chain uses walked in their direction
 * (reversed ones backwards), ending with the closing edge back to the first point.
 */
function forEachLoopEdge(chains: ChainCache, loop: Loop, edge: (x0: number, y0: number, x1: number, y1: number) => void): void {
  let firstX = NaN, firstY = NaN, px = NaN, py = NaN;
  for (const use of loop) {
    const p = chains.points(use.chain);
    const n = p.length >> 1;
    for (let k = 0; k < n; k++) {
      const i = use.reversed ? n - 1 - k : k;
      const x = p[2 * i]!;
      const y = p[2 * i + 1]!;
      if (Number.isNaN(px)) {
        firstX = x;
        firstY = y;
      } else {
        edge(px, py, x, y);
      }
      px = x;
      py = y;
    }
  }
  if (!Number.isNaN(px)) edge(px, py, firstX, firstY);
}

/**
 * Adds every edge of a loop to the cell buffer. `flip` adds every edge backwards (the exact
 * negation of its contribution): callers that sum several shapes into one buffer use it to give
 * all of them the same winding sign.
 */
export function addLoop(cells: CellBuffer, chains: ChainCache, loop: Loop, flip = false): void {
  if (flip) forEachLoopEdge(chains, loop, (x0, y0, x1, y1) => cells.addLine(x1, y1, x0, y0));
  else forEachLoopEdge(chains, loop, (x0, y0, x1, y1) => cells.addLine(x0, y0, x1, y1));
}

/** Twice the signed area of a loop's flattened polygon (shoelace), in output pixels². */
export function loopArea2(chains: ChainCache, loop: Loop): number {
  let sum = 0;
  forEachLoopEdge(chains, loop, (x0, y0, x1, y1) => {
    sum += x0 * y1 - x1 * y0;
  });
  return sum;
}

/**
 * Every chain flattened once, in output pixels (x' = offsetX + scaleX·x, likewise y), with its
 * bounding box.
 */
export class ChainCache {
  private readonly pts: (Float64Array | undefined)[];
  private readonly boxes: ([number, number, number, number] | undefined)[];
  private readonly tolerance: number;

  constructor(
    private readonly chains: readonly Chain[],
    private readonly scaleX: number,
    private readonly scaleY: number,
    tolerancePx: number,
    private readonly offsetX = 0,
    private readonly offsetY = 0,
  ) {
    this.pts = new Array<Float64Array | undefined>(chains.length);
    this.boxes = new Array<[number, number, number, number] | undefined>(chains.length);
    // Flattened in traced units, then scaled: an affine map moves the polyline at most
    // max(scale) × the traced-unit tolerance away from the mapped curve.
    const s = Math.max(Math.abs(scaleX), Math.abs(scaleY));
    this.tolerance = s > 0 ? tolerancePx / s : tolerancePx;
  }

  points(index: number): Float64Array {
    let p = this.pts[index];
    if (!p) {
      const c = this.chains[index]!;
      p = flattenPath(c.startX, c.startY, c.segments, this.tolerance);
      const { scaleX: sx, scaleY: sy, offsetX: ox, offsetY: oy } = this;
      if (ox === 0 && oy === 0) {
        for (let i = 0; i < p.length; i += 2) {
          p[i] = p[i]! * sx;
          p[i + 1] = p[i + 1]! * sy;
        }
      } else {
        for (let i = 0; i < p.length; i += 2) {
          p[i] = ox + p[i]! * sx;
          p[i + 1] = oy + p[i + 1]! * sy;
        }
      }
      this.pts[index] = p;
    }
    return p;
  }

  bounds(index: number): [number, number, number, number] {
    let b = this.boxes[index];
    if (!b) this.boxes[index] = b = polylineBounds(this.points(index));
    return b;
  }
}

/**
 * The cell accumulation buffer over one bounding box [x0, x1) × [y0, y1) of the image. Each row
 * has two spare cells on the right: edges right of the box add there and are never read.
 */
export class CellBuffer {
  private buf = new Float64Array(0);
  private x0 = 0;
  private y0 = 0;
  private x1 = 0;
  private y1 = 0;
  private stride = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
    private readonly antiAliased: boolean,
  ) {}

  /** Starts a shape whose edges lie within the given box; false when nothing is visible. */
  begin(minX: number, minY: number, maxX: number, maxY: number): boolean {
    if (!(minX <= maxX && minY <= maxY)) return false;
    const x0 = Math.max(0, Math.floor(minX));
    const x1 = Math.min(this.width, Math.floor(maxX) + 1);
    const y0 = Math.max(0, Math.floor(minY));
    const y1 = Math.min(this.height, Math.ceil(maxY));
    if (x0 >= x1 || y0 >= y1) return false;
    this.x0 = x0;
    this.x1 = x1;
    this.y0 = y0;
    this.y1 = y1;
    this.stride = x1 - x0 + 2;
    const size = this.stride * (y1 - y0);
    if (this.buf.length < size) this.buf = new Float64Array(Math.max(size, this.buf.length * 2));
    else this.buf.fill(0, 0, size);
    return true;
  }

  addLine(ax: number, ay: number, bx: number, by: number): void {
    if (ay === by) return;
    if (this.antiAliased) this.addAreaLine(ax, ay, bx, by);
    else this.addCentreLine(ax, ay, bx, by);
  }

  /** Exact-area accumulation of one edge. */
  private addAreaLine(ax: number, ay: number, bx: number, by: number): void {
    // Walk downwards; the winding direction keeps the original sign.
    let dir = 1;
    let x0 = ax - this.x0, y0 = ay, x1 = bx - this.x0, y1 = by;
    if (y0 > y1) {
      dir = -1;
      x0 = bx - this.x0;
      y0 = by;
      x1 = ax - this.x0;
      y1 = ay;
    }
    const top = Math.max(y0, this.y0);
    const bottom = Math.min(y1, this.y1);
    if (top >= bottom) return;
    const dxdy = (x1 - x0) / (y1 - y0);
    for (let row = Math.floor(top); row < bottom; row++) {
      const ya = row > top ? row : top;
      const yb = row + 1 < bottom ? row + 1 : bottom;
      if (yb <= ya) continue;
      const xa = ya === y0 ? x0 : x0 + (ya - y0) * dxdy;
      const xb = yb === y1 ? x1 : x0 + (yb - y0) * dxdy;
      this.addRowPiece((row - this.y0) * this.stride, xa, xb, dir * (yb - ya));
    }
  }

  /** One edge piece inside one row, x in box coordinates, signed height `cover`. */
  private addRowPiece(base: number, xa: number, xb: number, cover: number): void {
    const buf = this.buf;
    const w = this.x1 - this.x0;
    let u0 = xa < xb ? xa : xb;
    let u1 = xa < xb ? xb : xa;
    const len = u1 - u0;
    if (len === 0 || Math.floor(u0) === Math.floor(u1) || (u1 === Math.floor(u1) && Math.floor(u0) === u1 - 1)) {
      // Within one cell (a piece ending exactly on a cell's right border still belongs to it).
      const mid = (u0 + u1) / 2;
      if (mid >= w) return;
      if (mid <= 0) {
        buf[base] = buf[base]! + cover;
        return;
      }
      const i = Math.min(Math.floor(u0), w - 1);
      const f = mid - i;
      buf[base + i] = buf[base + i]! + cover * (1 - f);
      buf[base + i + 1] = buf[base + i + 1]! + cover * f;
      return;
    }
    // Left of the image: the whole piece covers every pixel of the row.
    if (u0 < 0) {
      const q = u1 < 0 ? u1 : 0;
      buf[base] = buf[base]! + (cover * (q - u0)) / len;
      if (u1 <= 0) return;
      u0 = 0;
    }
    // Right of the box: covers nothing visible.
    if (u1 > w) {
      if (u0 >= w) return;
      u1 = w;
    }
    const first = Math.floor(u0);
    for (let i = first; i < u1; i++) {
      const p = i > u0 ? i : u0;
      const q = i + 1 < u1 ? i + 1 : u1;
      if (q <= p) continue;
      const c = (cover * (q - p)) / len;
      const f = (p + q) / 2 - i;
      buf[base + i] = buf[base + i]! + c * (1 - f);
      buf[base + i + 1] = buf[base + i + 1]! + c * f;
    }
  }

  /** Winding steps where the edge crosses pixel-centre scanlines (half-open in y). */
  private addCentreLine(ax: number, ay: number, bx: number, by: number): void {
    const dir = by > ay ? 1 : -1;
    const x0 = ay < by ? ax : bx, y0 = ay < by ? ay : by;
    const x1 = ay < by ? bx : ax, y1 = ay < by ? by : ay;
    const w = this.x1 - this.x0;
    const dxdy = (x1 - x0) / (y1 - y0);
    // Rows whose centre r + 0.5 lies in [y0, y1).
    const rFirst = Math.max(this.y0, Math.ceil(y0 - 0.5));
    const rEnd = Math.min(this.y1, Math.ceil(y1 - 0.5));
    for (let r = rFirst; r < rEnd; r++) {
      const xc = x0 + (r + 0.5 - y0) * dxdy;
      // First pixel whose centre is at or right of the crossing.
      let i = Math.ceil(xc - 0.5) - this.x0;
      if (i < 0) i = 0;
      else if (i > w) i = w;
      const k = (r - this.y0) * this.stride + i;
      this.buf[k] = this.buf[k]! + dir;
    }
  }

  /** Prefix sums per row; calls `visit` for every pixel with some coverage. */
  resolve(visit: (x: number, y: number, coverage: number) => void): void {
    const buf = this.buf;
    const w = this.x1 - this.x0;
    for (let r = this.y0; r < this.y1; r++) {
      const base = (r - this.y0) * this.stride;
      let acc = 0;
      for (let i = 0; i < w; i++) {
        acc += buf[base + i]!;
        let c = acc < 0 ? -acc : acc;
        if (!this.antiAliased) c = c > 0.5 ? 1 : 0;
        else if (c > 1) c = 1;
        if (c > 1e-9) visit(this.x0 + i, r, c);
      }
    }
  }

  /** Paints `color` × coverage over `out` (straight-alpha RGBA, image width), source over. */
  composite(out: Uint8Array, color: Rgba): void {
    // The prefix sum of resolve(), inlined: this loop is the rasteriser's hot path.
    const sr = clampByte(color.r), sg = clampByte(color.g), sb = clampByte(color.b);
    const alpha = clampByte(color.a) / 255;
    const buf = this.buf;
    const w = this.x1 - this.x0;
    const aa = this.antiAliased;
    // Between two edges a row's coverage does not change (its cells hold exactly 0), so a run of
    // empty cells is skipped and a run of opaque full coverage is one 32-bit fill: the bytes are
    // the ones blendPixel writes pixel by pixel (source colour, alpha 255).
    const words = alpha >= 1 ? pixelWords(out) : null;
    const solid = packRgba(sr, sg, sb, 255);
    for (let r = this.y0; r < this.y1; r++) {
      const base = (r - this.y0) * this.stride;
      const pixel0 = r * this.width + this.x0;
      let acc = 0;
      let i = 0;
      while (i < w) {
        acc += buf[base + i]!;
        let c = acc < 0 ? -acc : acc;
        if (!aa) c = c > 0.5 ? 1 : 0;
        else if (c > 1) c = 1;
        // The run of cells up to the next edge contribution: the same coverage throughout.
        let end = i + 1;
        while (end < w && buf[base + end] === 0) end++;
        if (c > 1e-9) {
          if (c >= 1 && words !== null) words.fill(solid, pixel0 + i, pixel0 + end);
          else for (let k = i; k < end; k++) blendPixel(out, (pixel0 + k) * 4, sr, sg, sb, alpha * c);
        }
        i = end;
      }
    }
  }

  /**
   * composite() pixel by pixel, for what its run-skipping fast path does not cover: the paint is
   * `color`, or `gradient`'s colour at each pixel (at `color`'s alpha); the coverage is
   * multiplied by `mask`'s when one is given (a buffer begun over the same box: a clipped stroke
   * is painted only inside the mask's shapes).
   */
  compositeEach(out: Uint8Array, color: Rgba, mask?: CellBuffer, gradient?: DeviceGradient): void {
    if (mask && (mask.x0 !== this.x0 || mask.y0 !== this.y0 || mask.x1 !== this.x1 || mask.y1 !== this.y1)) {
      throw new Error('compositeEach: the mask must cover the same box');
    }
    const rgb = new Uint8Array([clampByte(color.r), clampByte(color.g), clampByte(color.b)]);
    const alpha = clampByte(color.a) / 255;
    const buf = this.buf;
    const mbuf = mask?.buf;
    const w = this.x1 - this.x0;
    const aa = this.antiAliased;
    const maa = mask?.antiAliased ?? true;
    for (let r = this.y0; r < this.y1; r++) {
      const base = (r - this.y0) * this.stride;
      let o = (r * this.width + this.x0) * 4;
      let acc = 0;
      let macc = 0;
      for (let i = 0; i < w; i++, o += 4) {
        acc += buf[base + i]!;
        let c = coverage(acc, aa);
        if (mbuf) {
          macc += mbuf[base + i]!;
          c *= coverage(macc, maa);
        }
        if (c <= 1e-9) continue;
        if (gradient) gradient.color(this.x0 + i, r, rgb);
        blendPixel(out, o, rgb[0]!, rgb[1]!, rgb[2]!, alpha * c);
      }
    }
  }
}

/** A pixel's coverage from its accumulated winding-weighted area (nonzero; aliased: centre in or out). */
function coverage(acc: number, antiAliased: boolean): number {
  const c = acc < 0 ? -acc : acc;
  if (!antiAliased) return c > 0.5 ? 1 : 0;
  return c > 1 ? 1 : c;
}

/** The platform's byte order (little-endian on every current JavaScript host), checked once. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The output as one 32-bit word per pixel (aligned views only), or null when it cannot be viewed so. */
function pixelWords(out: Uint8Array): Uint32Array | null {
  if (out.byteOffset % 4 !== 0 || out.length % 4 !== 0) return null;
  return new Uint32Array(out.buffer, out.byteOffset, out.length >> 2);
}

/** One RGBA pixel as the 32-bit word whose bytes in memory are r, g, b, a. */
function packRgba(r: number, g: number, b: number, a: number): number {
  return LITTLE_ENDIAN ? ((a << 24) | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | a) >>> 0;
}

/** Source-over of (sr, sg, sb) at alpha `sa` onto the straight-alpha pixel at byte `o`. */
function blendPixel(out: Uint8Array, o: number, sr: number, sg: number, sb: number, sa: number): void {
  const da = out[o + 3]! / 255;
  if (sa >= 1 || da === 0) {
    out[o] = sr;
    out[o + 1] = sg;
    out[o + 2] = sb;
    out[o + 3] = Math.round(sa * 255);
    return;
  }
  const keep = da * (1 - sa);
  const oa = sa + keep;
  out[o] = Math.round((sr * sa + out[o]! * keep) / oa);
  out[o + 1] = Math.round((sg * sa + out[o + 1]! * keep) / oa);
  out[o + 2] = Math.round((sb * sa + out[o + 2]! * keep) / oa);
  out[o + 3] = Math.round(oa * 255);
}

function clampByte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}
