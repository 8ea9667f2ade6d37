/**
 * Fitted segments in flat typed arrays (issue 28, struct of arrays). In: the fitters' segments,
 * appended to a reused SegmentBuilder. Out: one SegmentPath per chain, a view of eight numbers per
 * segment in an arena chunk that many chains share, read by every writer through named
 * accessors. No object exists per segment between the fitter and the writers, and a part's
 * chains cross back from a thread as a few arrays.
 * Layout, eight numbers per segment, the end point last and the kind code in slot 5:
 *   line:  -,   -,   -,           -,              -,          LINE,  x, y
 *   quad:  cx,  cy,  -,           -,              -,          QUAD,  x, y
 *   cubic: c1x, c1y, c2x,         c2y,            -,          CUBIC, x, y
 *   arc:   rx,  ry,  rotationDeg, largeArc (0/1), sweep (0/1), ARC,   x, y
 * Unused slots hold 0. `Segment` objects (defined here, re-exported by types.ts) stay the readable
 * view: `at(k)`, iteration and `toJSON` (a stored trace keeps its JSON) build them on demand, off
 * the hot path.
 */

/** One piece of a fitted boundary, starting where the previous piece ended. */
export type Segment =
  | { readonly kind: 'line'; readonly x: number; readonly y: number }
  | { readonly kind: 'quad'; readonly cx: number; readonly cy: number; readonly x: number; readonly y: number }
  | {
      readonly kind: 'cubic';
      readonly c1x: number;
      readonly c1y: number;
      readonly c2x: number;
      readonly c2y: number;
      readonly x: number;
      readonly y: number;
    }
  | {
      /** SVG-style elliptical arc; a circular arc has rx === ry. */
      readonly kind: 'arc';
      readonly rx: number;
      readonly ry: number;
      readonly rotationDeg: number;
      readonly largeArc: boolean;
      readonly sweep: boolean;
      readonly x: number;
      readonly y: number;
    };

export const SEGMENT_LINE = 0;
export const SEGMENT_QUAD = 1;
export const SEGMENT_CUBIC = 2;
export const SEGMENT_ARC = 3;
export type SegmentCode = typeof SEGMENT_LINE | typeof SEGMENT_QUAD | typeof SEGMENT_CUBIC | typeof SEGMENT_ARC;

/** Numbers per segment. */
export const SEGMENT_STRIDE = 8;
const CODE = 5;
const END_X = 6;
const END_Y = 7;

/**
 * One chain's segments (immutable once built), with named accessors; k counts segments from 0.
 * The numbers are segments `first` … `first + length − 1` of a shared array (an arena chunk, or
 * the array a thread sent back), so a path owns no array of its own. One class with plain fields,
 * so that every accessor call site sees one shape and V8 inlines it.
 */
export class SegmentPath {
  /** Offset of segment 0's first number in `numbers`. */
  private readonly base: number;
  constructor(
    readonly numbers: Float64Array,
    first = 0,
    readonly length = numbers.length / SEGMENT_STRIDE - first,
  ) {
    this.base = first * SEGMENT_STRIDE;
  }

  /** This path's numbers, segment 0 first (a view, no copy). */
  view(): Float64Array {
    return this.numbers.subarray(this.base, this.base + this.length * SEGMENT_STRIDE);
  }

  code(k: number): SegmentCode {
    return this.numbers[this.base + k * SEGMENT_STRIDE + CODE] as SegmentCode;
  }
  /** End point. */
  x(k: number): number {
    return this.numbers[this.base + k * SEGMENT_STRIDE + END_X]!;
  }
  y(k: number): number {
    return this.numbers[this.base + k * SEGMENT_STRIDE + END_Y]!;
  }
  /** A quadratic's control point, a cubic's first one (same slots). */
  cx(k: number): number {
    return this.numbers[this.base + k * SEGMENT_STRIDE]!;
  }
  cy(k: number): number {
    return this.numbers[this.base + k * SEGMENT_STRIDE + 1]!;
  }
  c1x(k: number): number {
    return this.numbers[this.base + k * SEGMENT_STRIDE]!;
  }
  c1y(k: number): number {
    return this.numbers[this.base + k * SEGMENT_STRIDE + 1]!;
  }
  c2x(k: number): number {
    return this.numbers[this.base + k * SEGMENT_STRIDE + 2]!;
  }
  c2y(k: number): number {
    return this.numbers[this.base + k * SEGMENT_STRIDE + 3]!;
  }
  rx(k: number): number {
    return this.numbers[this.base + k * SEGMENT_STRIDE]!;
  }
  ry(k: number): number {
    return this.numbers[this.base + k * SEGMENT_STRIDE + 1]!;
  }
  rotationDeg(k: number): number {
    return this.numbers[this.base + k * SEGMENT_STRIDE + 2]!;
  }
  largeArc(k: number): boolean {
    return this.numbers[this.base + k * SEGMENT_STRIDE + 3] === 1;
  }
  sweep(k: number): boolean {
    return this.numbers[this.base + k * SEGMENT_STRIDE + 4] === 1;
  }

  /** Segment k as an object (allocates: for tests, adapters and rare paths). */
  at(k: number): Segment {
    const o = this.base + k * SEGMENT_STRIDE;
    const n = this.numbers;
    switch (n[o + CODE]) {
      case SEGMENT_LINE:
        return { kind: 'line', x: n[o + END_X]!, y: n[o + END_Y]! };
      case SEGMENT_QUAD:
        return { kind: 'quad', cx: n[o]!, cy: n[o + 1]!, x: n[o + END_X]!, y: n[o + END_Y]! };
      case SEGMENT_CUBIC:
        return { kind: 'cubic', c1x: n[o]!, c1y: n[o + 1]!, c2x: n[o + 2]!, c2y: n[o + 3]!, x: n[o + END_X]!, y: n[o + END_Y]! };
      default:
        return {
          kind: 'arc',
          rx: n[o]!,
          ry: n[o + 1]!,
          rotationDeg: n[o + 2]!,
          largeArc: n[o + 3] === 1,
          sweep: n[o + 4] === 1,
          x: n[o + END_X]!,
          y: n[o + END_Y]!,
        };
    }
  }

  /** Whether every segment has this kind (true when there are none). */
  allOfKind(code: SegmentCode): boolean {
    for (let k = 0; k < this.length; k++) if (this.code(k) !== code) return false;
    return true;
  }

  /** Whether some segment has this kind. */
  hasKind(code: SegmentCode): boolean {
    for (let k = 0; k < this.length; k++) if (this.code(k) === code) return true;
    return false;
  }

  toSegments(): Segment[] {
    const out: Segment[] = new Array(this.length);
    for (let k = 0; k < out.length; k++) out[k] = this.at(k);
    return out;
  }

  *[Symbol.iterator](): IterableIterator<Segment> {
    for (let k = 0; k < this.length; k++) yield this.at(k);
  }

  /** Stored traces (JSON) and the library's users see the segments as objects, as before. */
  toJSON(): Segment[] {
    return this.toSegments();
  }
  /**
   * The segments as a path. `builder`: one to reuse when making many paths (its arena then holds
   * them all); without one, the path gets an array of its own of exactly its size.
   */
  static of(segments: readonly Segment[], builder?: SegmentBuilder): SegmentPath {
    if (!builder) {
      const own = new SegmentBuilder(segments.length);
      for (const s of segments) own.append(s);
      return own.detach();
    }
    builder.truncate(0);
    for (const s of segments) builder.append(s);
    return builder.take(0);
  }
}

export const EMPTY_PATH = new SegmentPath(new Float64Array(0));

/**
 * A growable list of segments the fitters append to, then `take` into a chain's path. One
 * builder is reused for many chains: its buffer only grows, so appending allocates nothing.
 */
export class SegmentBuilder {
  private buf: Float64Array;
  private count = 0;
  /** Where take() copies the paths it hands out (each builder's own: no state shared between builders). */
  private readonly arena = new SegmentArena();

  constructor(initialSegments = 64) {
    this.buf = new Float64Array(initialSegments * SEGMENT_STRIDE);
  }

  get length(): number {
    return this.count;
  }
  code(k: number): SegmentCode {
    return this.buf[k * SEGMENT_STRIDE + CODE] as SegmentCode;
  }
  x(k: number): number {
    return this.buf[k * SEGMENT_STRIDE + END_X]!;
  }
  y(k: number): number {
    return this.buf[k * SEGMENT_STRIDE + END_Y]!;
  }
  /** Whether every segment has this kind (true when there are none). */
  allOfKind(code: SegmentCode): boolean {
    for (let k = 0; k < this.count; k++) if (this.code(k) !== code) return false;
    return true;
  }

  line(x: number, y: number): void {
    const o = this.slot(SEGMENT_LINE);
    this.buf[o + END_X] = x;
    this.buf[o + END_Y] = y;
  }
  quad(cx: number, cy: number, x: number, y: number): void {
    const o = this.slot(SEGMENT_QUAD);
    this.buf[o] = cx;
    this.buf[o + 1] = cy;
    this.buf[o + END_X] = x;
    this.buf[o + END_Y] = y;
  }
  cubic(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void {
    const o = this.slot(SEGMENT_CUBIC);
    this.buf[o] = c1x;
    this.buf[o + 1] = c1y;
    this.buf[o + 2] = c2x;
    this.buf[o + 3] = c2y;
    this.buf[o + END_X] = x;
    this.buf[o + END_Y] = y;
  }
  arc(rx: number, ry: number, rotationDeg: number, largeArc: boolean, sweep: boolean, x: number, y: number): void {
    const o = this.slot(SEGMENT_ARC);
    this.buf[o] = rx;
    this.buf[o + 1] = ry;
    this.buf[o + 2] = rotationDeg;
    this.buf[o + 3] = largeArc ? 1 : 0;
    this.buf[o + 4] = sweep ? 1 : 0;
    this.buf[o + END_X] = x;
    this.buf[o + END_Y] = y;
  }

  append(s: Segment): void {
    switch (s.kind) {
      case 'line':
        return this.line(s.x, s.y);
      case 'quad':
        return this.quad(s.cx, s.cy, s.x, s.y);
      case 'cubic':
        return this.cubic(s.c1x, s.c1y, s.c2x, s.c2y, s.x, s.y);
      case 'arc':
        return this.arc(s.rx, s.ry, s.rotationDeg, s.largeArc, s.sweep, s.x, s.y);
    }
  }

  /** Appends segments from..to − 1 of another builder or path, as they are. */
  appendFrom(source: SegmentBuilder | SegmentPath, from = 0, to = source.length): void {
    const n = to - from;
    if (n <= 0) return;
    this.reserve(n);
    if (source instanceof SegmentPath) this.buf.set(source.view().subarray(from * SEGMENT_STRIDE, to * SEGMENT_STRIDE), this.count * SEGMENT_STRIDE);
    else copyNumbers(source.buf, from * SEGMENT_STRIDE, this.buf, this.count * SEGMENT_STRIDE, n * SEGMENT_STRIDE);
    this.count += n;
  }

  /** Replaces segments k and k + 1 by segment `from` of `source` (merging two neighbours). */
  mergePair(k: number, source: SegmentBuilder, from: number): void {
    const s = SEGMENT_STRIDE;
    this.buf.set(source.buf.subarray(from * s, from * s + s), k * s);
    this.buf.copyWithin((k + 1) * s, (k + 2) * s, this.count * s);
    this.count--;
  }

  /** Keeps the first n segments. */
  truncate(n: number): void {
    this.count = Math.min(this.count, n);
  }

  /** Segments from … end as a path of their own (copied to the arena); the builder keeps the ones before `from`. */
  take(from: number): SegmentPath {
    const path = this.arena.keep(this.buf, from, this.count - from);
    this.count = from;
    return path;
  }

  /** All segments as a path over the builder's own buffer (no copy); the builder starts empty again. */
  detach(): SegmentPath {
    const path = this.count === 0 ? EMPTY_PATH : new SegmentPath(this.buf, 0, this.count);
    this.buf = new Float64Array(0);
    this.count = 0;
    return path;
  }

  /** A new segment of this kind at the end, its slots zeroed; returns its offset in the buffer. */
  private slot(code: SegmentCode): number {
    this.reserve(1);
    const o = this.count * SEGMENT_STRIDE;
    this.buf.fill(0, o, o + CODE);
    this.buf[o + CODE] = code;
    this.count++;
    return o;
  }

  private reserve(more: number): void {
    const need = (this.count + more) * SEGMENT_STRIDE;
    if (need <= this.buf.length) return;
    const grown = new Float64Array(Math.max(need, this.buf.length * 2));
    grown.set(this.buf.subarray(0, this.count * SEGMENT_STRIDE));
    this.buf = grown;
  }
}

/** Copies `count` numbers; a loop, since a subarray view per small copy would be garbage again. */
function copyNumbers(from: Float64Array, fromAt: number, to: Float64Array, toAt: number, count: number): void {
  for (let i = 0; i < count; i++) to[toAt + i] = from[fromAt + i]!;
}

/**
 * Segments per arena chunk at most (8 numbers of 8 bytes each: 256 KiB; a smaller chunk wastes
 * less where few paths keep it alive). An arena's chunks start at FIRST_CHUNK_SEGMENTS and double
 * up to it, so a builder that takes a few small paths keeps a small chunk.
 */
const CHUNK_SEGMENTS = 4096;
const FIRST_CHUNK_SEGMENTS = 64;

/**
 * Where taken paths keep their numbers: chunks filled front to back and never written again, so a
 * path is a view into one. A typed array per chain cost more than the objects it replaced: arrays
 * over 64 bytes get an off-heap store that is slow to allocate and to collect. A chunk lives as
 * long as any path in it.
 */
class SegmentArena {
  private chunk = new Float64Array(0);
  private used = 0;
  private nextChunkSegments = FIRST_CHUNK_SEGMENTS;

  keep(source: Float64Array, from: number, count: number): SegmentPath {
    if (count === 0) return EMPTY_PATH;
    if (this.used + count > this.chunk.length / SEGMENT_STRIDE) {
      this.chunk = new Float64Array(Math.max(this.nextChunkSegments, count) * SEGMENT_STRIDE);
      this.nextChunkSegments = Math.min(CHUNK_SEGMENTS, this.nextChunkSegments * 2);
      this.used = 0;
    }
    copyNumbers(source, from * SEGMENT_STRIDE, this.chunk, this.used * SEGMENT_STRIDE, count * SEGMENT_STRIDE);
    const path = new SegmentPath(this.chunk, this.used, count);
    this.used += count;
    return path;
  }
}

