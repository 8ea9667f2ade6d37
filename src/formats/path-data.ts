/**
 * Compact SVG path data from traced chains.
 * In: chains (engine geometry), a scale to output units and a decimal precision. Out: `d`
 * strings with relative commands, h/v/s/t shorthands where exact, repeated commands implied,
 * minimal separators and no leading zeros.
 * Exactness: every coordinate is rounded once, as an absolute position, to an integer number of
 * output steps; relative offsets are differences of those integers. So a chain written forwards
 * in one shape and backwards in its neighbour lands on exactly the same points — no drift, no
 * gap — however long the path.
 * Speed: the quantised chains live in flat typed arrays and a loop is assembled in a reused
 * buffer, walked forwards or backwards in place; a large picture's hundreds of thousands of
 * segments cost no per-segment objects (they were a third of the writer's time, in the GC). The
 * text goes as bytes into a TextSink (src/formats/text-sink.ts), no string per number or path.
 */
import { SEGMENT_ARC, SEGMENT_CUBIC, SEGMENT_LINE, SEGMENT_QUAD } from '../engine/segment-path.js';
import type { SegmentPath } from '../engine/segment-path.js';
import type { Chain, ChainUse } from '../engine/types.js';
import { TextSink } from './text-sink.js';

export interface Quantizer {
  readonly decimals: number;
  readonly scaleX: number;
  readonly scaleY: number;
}

// Segment kinds and the layout of one segment of a subpath being assembled (SubpathBuffer): eight
// numbers, the end point always last (QChains keeps the first five for curves only).
//   line: -, -, -, -, -, -, x, y
//   quad: cx, cy, -, -, -, -, x, y
//   cubic: c1x, c1y, c2x, c2y, -, -, x, y
//   arc: rx, ry, rotationDeg, largeArc (0/1), sweep (0/1), -, x, y
const LINE = 0;
const QUAD = 1;
const CUBIC = 2;
const ARC = 3;
const STRIDE = 8;
const END_X = 6;
const END_Y = 7;

/**
 * Every chain of a picture in integer output steps (arc angles and flags as they are). A segment's
 * end point is in `ends`; only a curve has numbers besides (the first CONTROLS of the layout
 * above, in `controls`): a picture's chains are read in paint order, not in chain order, and on
 * pixel art (all lines) eight numbers a segment made a cache line of mostly zeros per segment.
 */
export interface QChains {
  readonly startX: Float64Array;
  readonly startY: Float64Array;
  /** Chain c's segments are firstSegment[c] .. firstSegment[c + 1] − 1. */
  readonly firstSegment: Int32Array;
  readonly kinds: Uint8Array;
  /** Per segment: its end point's x, y. */
  readonly ends: Float64Array;
  /** Per segment: where its CONTROLS numbers start in `controls` (a line has none: −1). */
  readonly controlsAt: Int32Array;
  readonly controls: Float64Array;
}

/** Numbers of a curve segment besides its end point (slots 0 … 4 of the layout above). */
const CONTROLS = 5;

export function quantizeChains(chains: readonly Chain[], q: Quantizer): QChains {
  let total = 0;
  let curves = 0;
  for (let c = 0; c < chains.length; c++) {
    const path = chains[c]!.segments;
    total += path.length;
    for (let j = 0; j < path.length; j++) if (path.code(j) !== SEGMENT_LINE) curves++;
  }
  const f = 10 ** q.decimals;
  const sx = q.scaleX * f;
  const sy = q.scaleY * f;
  const startX = new Float64Array(chains.length);
  const startY = new Float64Array(chains.length);
  const firstSegment = new Int32Array(chains.length + 1);
  const kinds = new Uint8Array(total);
  const ends = new Float64Array(total * 2);
  const controlsAt = new Int32Array(total).fill(-1);
  const controls = new Float64Array(curves * CONTROLS);
  let k = 0;
  let o = 0;
  for (let c = 0; c < chains.length; c++) {
    const chain = chains[c]!;
    startX[c] = Math.round(chain.startX * sx);
    startY[c] = Math.round(chain.startY * sy);
    firstSegment[c] = k;
    const path = chain.segments;
    for (let j = 0; j < path.length; j++) {
      const code = path.code(j);
      if (code !== SEGMENT_LINE) {
        controlsAt[k] = o;
        quantizeControls(path, j, code, sx, sy, controls, o);
        o += CONTROLS;
      }
      kinds[k] = code === SEGMENT_LINE ? LINE : code === SEGMENT_QUAD ? QUAD : code === SEGMENT_CUBIC ? CUBIC : ARC;
      ends[2 * k] = Math.round(path.x(j) * sx);
      ends[2 * k + 1] = Math.round(path.y(j) * sy);
      k++;
    }
  }
  firstSegment[chains.length] = k;
  return { startX, startY, firstSegment, kinds, ends, controlsAt, controls };
}

/** A curve segment's numbers besides its end point, in output steps, into controls[o …]. */
function quantizeControls(path: SegmentPath, j: number, code: number, sx: number, sy: number, controls: Float64Array, o: number): void {
  switch (code) {
    case SEGMENT_QUAD:
      controls[o] = Math.round(path.cx(j) * sx);
      controls[o + 1] = Math.round(path.cy(j) * sy);
      break;
    case SEGMENT_CUBIC:
      controls[o] = Math.round(path.c1x(j) * sx);
      controls[o + 1] = Math.round(path.c1y(j) * sy);
      controls[o + 2] = Math.round(path.c2x(j) * sx);
      controls[o + 3] = Math.round(path.c2y(j) * sy);
      break;
    case SEGMENT_ARC:
      // Radii round down: a radius rounded up past half the (rounded) chord would turn a half
      // ellipse into a flatter minor arc, while a radius a hair too small is scaled up by every
      // renderer (SVG arc radius correction) to pass exactly through both end points.
      controls[o] = Math.floor(path.rx(j) * sx);
      controls[o + 1] = Math.floor(path.ry(j) * sy);
      controls[o + 2] = path.rotationDeg(j);
      controls[o + 3] = path.largeArc(j) ? 1 : 0;
      controls[o + 4] = path.sweep(j) ? 1 : 0;
      break;
  }
}

/**
 * Writes numbers and commands with the fewest separators a conforming parser accepts, as ASCII
 * bytes into a TextSink: the SVG writer's document sink (the path data goes straight into the
 * file), or a sink of its own. A path of a large picture has hundreds of thousands of numbers,
 * and a string per number (or per concatenation) kept the garbage collector busy for a third of
 * the writer's time.
 */
export class PathWriter {
  private lastCommand = 0;
  private hasNumber = false;
  private lastHasDot = false;
  private readonly scale: number;
  /** Where the current path's text starts in the sink. */
  private start = 0;
  /**
   * writeLoop's and writeOpenChain's subpath being assembled, and its rotation to a corner: one
   * subpath is assembled at a time (writing is synchronous), so two buffers serve every call.
   */
  assembled = new SubpathBuffer();
  rotated = new SubpathBuffer();

  constructor(
    readonly decimals: number,
    private readonly sink: TextSink = new TextSink(256),
  ) {
    this.scale = 10 ** decimals;
  }

  /** Empties the sink (its buffer is kept) and starts a path: for a writer with a sink of its own. */
  reset(): this {
    this.sink.reset();
    return this.begin();
  }

  /** Starts a new path at the end of what the sink holds (no separator state carries over). */
  begin(): this {
    this.start = this.sink.length;
    this.lastCommand = 0;
    this.hasNumber = false;
    this.lastHasDot = false;
    return this;
  }

  command(letter: string, ...values: number[]): void {
    this.letter(letter);
    for (const v of values) this.number(v);
  }

  /** `m dx dy`: command('m', dx, dy) without the rest-argument array (one per subpath). */
  move(dx: number, dy: number): void {
    this.letter('m');
    this.number(dx);
    this.number(dy);
  }

  /** A command letter, left out when it repeats the previous one (except moves). */
  letter(letter: string): void {
    const code = letter.charCodeAt(0);
    if (code !== this.lastCommand || code === 109 /* m */ || code === 77 /* M */) {
      this.sink.byte(code);
      this.lastCommand = code;
      this.hasNumber = false;
    }
  }

  /** A value already in integer output steps (formatSteps' text, written as bytes). */
  number(v: number): void {
    const abs = v < 0 ? -v : v;
    if (!Number.isSafeInteger(abs)) {
      this.raw(formatSteps(v, this.decimals, this.scale));
      return;
    }
    const whole = Math.floor(abs / this.scale);
    let frac = abs - whole * this.scale;
    let digits = this.decimals;
    if (frac !== 0) {
      while (frac % 10 === 0) {
        frac /= 10;
        digits--;
      }
    }
    const leadingDot = frac !== 0 && whole === 0;
    this.separate(v < 0 ? 45 : leadingDot ? 46 : 48);
    const sink = this.sink;
    if (v < 0) sink.byte(45);
    if (!leadingDot) sink.digits(whole, 1);
    if (frac !== 0) {
      sink.byte(46);
      sink.digits(frac, digits);
    }
    this.lastHasDot = frac !== 0;
  }

  /** An arc flag or other literal number that is not in output steps. */
  literal(text: string): void {
    this.raw(text);
  }

  close(): void {
    this.sink.byte(122); // z
    this.lastCommand = 122;
    this.hasNumber = false;
  }

  /** The current path's text. */
  toString(): string {
    return this.sink.toString(this.start);
  }

  private raw(text: string): void {
    this.separate(text.charCodeAt(0));
    this.sink.text(text);
    this.lastHasDot = text.indexOf('.') >= 0;
  }

  /**
   * A space before a number unless it starts with '-', or with '.' after a number that already
   * has a '.' (the second '.' cannot continue it).
   */
  private separate(first: number): void {
    if (this.hasNumber && !(first === 45 || (first === 46 && this.lastHasDot))) this.sink.byte(32);
    this.hasNumber = true;
  }
}

/** Formats an integer count of 10^-decimals units: 123 → "12.3", -5 → "-.5", 10 → "1". */
export function formatSteps(v: number, decimals: number, scale = 10 ** decimals): string {
  if (v === 0) return '0';
  const sign = v < 0 ? '-' : '';
  const abs = v < 0 ? -v : v;
  if (decimals === 0) return sign + abs;
  const whole = Math.floor(abs / scale);
  let frac = abs - whole * scale;
  if (frac === 0) return sign + whole;
  // Fraction digits without trailing zeros, e.g. 50 of 100 → "5", 5 of 100 → "05".
  let digits = decimals;
  while (frac % 10 === 0) {
    frac /= 10;
    digits--;
  }
  let text = String(frac);
  while (text.length < digits) text = '0' + text;
  return whole === 0 ? `${sign}.${text}` : `${sign}${whole}.${text}`;
}

/**
 * Segments of one subpath being assembled, in walk order. Consecutive straight segments that
 * continue in the same direction become one as they are appended (chains meet at junctions, and
 * lattice chains are unit steps), and zero-length steps are dropped. Exact: points are integers
 * in output steps, so "same direction" is a zero cross product, not a tolerance.
 */
class SubpathBuffer {
  kinds = new Uint8Array(1024);
  coords = new Float64Array(1024 * STRIDE);
  length = 0;
  startX = 0;
  startY = 0;
  /** Current point. */
  private x = 0;
  private y = 0;
  /** Start of the last segment (valid while it is a line). */
  private fromX = 0;
  private fromY = 0;

  reset(x: number, y: number): void {
    this.length = 0;
    this.startX = this.x = this.fromX = x;
    this.startY = this.y = this.fromY = y;
  }

  /** Empties the buffer at the point where chain `c` starts when walked forwards or backwards. */
  resetAtUse(chains: QChains, c: number, reversed: boolean): void {
    const end = chains.firstSegment[c + 1]!;
    if (!reversed || end === chains.firstSegment[c]) this.reset(chains.startX[c]!, chains.startY[c]!);
    else this.reset(chains.ends[2 * (end - 1)]!, chains.ends[2 * (end - 1) + 1]!);
  }

  push(kind: number, a: number, b: number, c: number, d: number, e: number, x: number, y: number): void {
    const n = this.length;
    if (kind === LINE) {
      if (n > 0 && this.kinds[n - 1] === LINE) {
        const o = (n - 1) * STRIDE;
        if (sameDirection(this.coords[o + END_X]! - this.fromX, this.coords[o + END_Y]! - this.fromY, x - this.x, y - this.y)) {
          this.coords[o + END_X] = this.x = x;
          this.coords[o + END_Y] = this.y = y;
          return;
        }
      }
      if (x === this.x && y === this.y) return; // a zero-length step says nothing
    }
    if (n === this.kinds.length) this.grow();
    const o = n * STRIDE;
    const out = this.coords;
    this.kinds[n] = kind;
    out[o] = a;
    out[o + 1] = b;
    out[o + 2] = c;
    out[o + 3] = d;
    out[o + 4] = e;
    out[o + END_X] = x;
    out[o + END_Y] = y;
    this.length = n + 1;
    this.fromX = this.x;
    this.fromY = this.y;
    this.x = x;
    this.y = y;
  }

  /** Appends segment i of another buffer. */
  pushFrom(src: SubpathBuffer, i: number): void {
    const o = i * STRIDE;
    const c = src.coords;
    this.push(src.kinds[i]!, c[o]!, c[o + 1]!, c[o + 2]!, c[o + 3]!, c[o + 4]!, c[o + END_X]!, c[o + END_Y]!);
  }

  /** Appends chain `chain` of `chains`, walked backwards when `reversed`. */
  pushUse(chains: QChains, chain: number, reversed: boolean): void {
    const first = chains.firstSegment[chain]!;
    const end = chains.firstSegment[chain + 1]!;
    const { kinds, ends, controlsAt } = chains;
    const c = chains.controls;
    if (!reversed) {
      for (let k = first; k < end; k++) {
        const kind = kinds[k]!;
        if (kind === LINE) this.push(LINE, 0, 0, 0, 0, 0, ends[2 * k]!, ends[2 * k + 1]!);
        else {
          const o = controlsAt[k]!;
          this.push(kind, c[o]!, c[o + 1]!, c[o + 2]!, c[o + 3]!, c[o + 4]!, ends[2 * k]!, ends[2 * k + 1]!);
        }
      }
      return;
    }
    // Backwards: each segment ends where the one before it ended (or at the chain's start); a
    // cubic swaps its handles, an arc turns the other way.
    for (let k = end - 1; k >= first; k--) {
      const x = k > first ? ends[2 * k - 2]! : chains.startX[chain]!;
      const y = k > first ? ends[2 * k - 1]! : chains.startY[chain]!;
      const kind = kinds[k]!;
      if (kind === LINE) {
        this.push(LINE, 0, 0, 0, 0, 0, x, y);
        continue;
      }
      const o = controlsAt[k]!;
      switch (kind) {
        case CUBIC:
          this.push(CUBIC, c[o + 2]!, c[o + 3]!, c[o]!, c[o + 1]!, 0, x, y);
          break;
        case ARC:
          this.push(ARC, c[o]!, c[o + 1]!, c[o + 2]!, c[o + 3]!, 1 - c[o + 4]!, x, y);
          break;
        default:
          this.push(kind, c[o]!, c[o + 1]!, 0, 0, 0, x, y);
      }
    }
  }

  /** Segments to write before `z`: a final straight line back to the start is what `z` draws. */
  countBeforeClose(): number {
    const n = this.length;
    return n > 0 && this.kinds[n - 1] === LINE && this.endX(n - 1) === this.startX && this.endY(n - 1) === this.startY ? n - 1 : n;
  }

  endX(i: number): number {
    return this.coords[i * STRIDE + END_X]!;
  }

  endY(i: number): number {
    return this.coords[i * STRIDE + END_Y]!;
  }

  private grow(): void {
    const kinds = new Uint8Array(this.kinds.length * 2);
    kinds.set(this.kinds);
    const coords = new Float64Array(this.coords.length * 2);
    coords.set(this.coords);
    this.kinds = kinds;
    this.coords = coords;
  }
}

function sameDirection(ax: number, ay: number, bx: number, by: number): boolean {
  return ax * by - ay * bx === 0 && ax * bx + ay * by > 0;
}

/**
 * Appends one closed loop (chain uses) to the writer as a relative subpath starting with `m`
 * from `cursor` (the previous subpath's start, which `z` returns to), and moves the cursor there.
 * `backwards`: the loop walked the other way round (its uses in reverse order, each reversed),
 * without building that loop.
 */
export function writeLoop(w: PathWriter, loop: readonly ChainUse[], chains: QChains, cursor: { x: number; y: number }, backwards = false): void {
  let buf = w.assembled;
  const n = loop.length;
  if (backwards) {
    buf.resetAtUse(chains, loop[n - 1]!.chain, !loop[n - 1]!.reversed);
    for (let k = n - 1; k >= 0; k--) buf.pushUse(chains, loop[k]!.chain, !loop[k]!.reversed);
  } else {
    buf.resetAtUse(chains, loop[0]!.chain, loop[0]!.reversed);
    for (let k = 0; k < n; k++) buf.pushUse(chains, loop[k]!.chain, loop[k]!.reversed);
  }
  // A start in the middle of a straight run (a chain junction) splits that run in two: start at a
  // corner instead. Same outline, one command fewer.
  const turn = cornerStart(buf);
  if (turn > 0) {
    const other = w.rotated;
    other.reset(buf.endX(turn - 1), buf.endY(turn - 1));
    for (let i = turn; i < buf.length; i++) other.pushFrom(buf, i);
    for (let i = 0; i < turn; i++) other.pushFrom(buf, i);
    w.rotated = buf;
    w.assembled = other;
    buf = other;
  }
  const startX = buf.startX;
  const startY = buf.startY;
  w.move(startX - cursor.x, startY - cursor.y);
  writeSegments(w, buf, buf.countBeforeClose());
  w.close();
  cursor.x = startX;
  cursor.y = startY;
}

/**
 * Index of a segment to start a closed loop at so that the loop does not begin inside a straight
 * run: 0 when the loop already starts at a corner (or has no straight run through its start).
 */
function cornerStart(buf: SubpathBuffer): number {
  const n = buf.length;
  if (n < 3) return 0;
  const kinds = buf.kinds;
  if (kinds[0] !== LINE || kinds[n - 1] !== LINE) return 0;
  const startX = buf.startX;
  const startY = buf.startY;
  if (!sameDirection(startX - buf.endX(n - 2), startY - buf.endY(n - 2), buf.endX(0) - startX, buf.endY(0) - startY)) return 0;
  let x = startX;
  let y = startY;
  for (let i = 0; i < n - 1; i++) {
    const ax = buf.endX(i);
    const ay = buf.endY(i);
    if (kinds[i] !== LINE || kinds[i + 1] !== LINE || !sameDirection(ax - x, ay - y, buf.endX(i + 1) - ax, buf.endY(i + 1) - ay)) return i + 1;
    x = ax;
    y = ay;
  }
  return 0;
}

/**
 * Appends one chain use (chain `chain`, walked backwards when `reversed`) as its own subpath (for
 * strokes); `closed` ends it with `z`. An open
 * chain that starts where the previous open one ended just continues that subpath (no `m0 0`).
 */
export function writeOpenChain(w: PathWriter, chains: QChains, chain: number, reversed: boolean, cursor: { x: number; y: number; open?: boolean }, closed: boolean): void {
  const buf = w.assembled;
  buf.resetAtUse(chains, chain, reversed);
  const x0 = buf.startX;
  const y0 = buf.startY;
  const continues = cursor.open === true && !closed && x0 === cursor.x && y0 === cursor.y;
  if (!continues) w.move(x0 - cursor.x, y0 - cursor.y);
  buf.pushUse(chains, chain, reversed);
  const count = closed ? buf.countBeforeClose() : buf.length;
  writeSegments(w, buf, count);
  if (closed) w.close();
  // After an open subpath the current point is its end (the last segment written); `m` is
  // relative to that.
  cursor.x = closed || count === 0 ? x0 : buf.endX(count - 1);
  cursor.y = closed || count === 0 ? y0 : buf.endY(count - 1);
  cursor.open = !closed;
}

/** Writes the first `count` segments of `buf` from its start. */
function writeSegments(w: PathWriter, buf: SubpathBuffer, count: number): void {
  const kinds = buf.kinds;
  const c = buf.coords;
  let penX = buf.startX;
  let penY = buf.startY;
  for (let i = 0; i < count; i++) {
    const o = i * STRIDE;
    const x = c[o + END_X]!;
    const y = c[o + END_Y]!;
    // The previous segment's kind, for the s/t shorthands (its last control point is in coords).
    const prevKind = i > 0 ? kinds[i - 1]! : -1;
    switch (kinds[i]!) {
      case LINE:
        writeLine(w, x - penX, y - penY);
        break;
      case QUAD:
        writeQuad(w, c, o, penX, penY, prevKind === QUAD);
        break;
      case CUBIC:
        writeCubic(w, c, o, penX, penY, prevKind === CUBIC);
        break;
      case ARC:
        writeArc(w, c, o, x - penX, y - penY);
        break;
    }
    penX = x;
    penY = y;
  }
}

/** A line as h, v or l. */
function writeLine(w: PathWriter, dx: number, dy: number): void {
  if (dy === 0) {
    w.letter('h');
    w.number(dx);
  } else if (dx === 0) {
    w.letter('v');
    w.number(dy);
  } else {
    w.letter('l');
    w.number(dx);
    w.number(dy);
  }
}

/**
 * The quadratic at c[o …] from the pen: t when it follows a quadratic (afterQuad) whose control
 * point it mirrors, else q.
 */
function writeQuad(w: PathWriter, c: Float64Array, o: number, penX: number, penY: number, afterQuad: boolean): void {
  const qx = c[o]!;
  const qy = c[o + 1]!;
  if (afterQuad && 2 * penX - c[o - STRIDE]! === qx && 2 * penY - c[o - STRIDE + 1]! === qy) w.letter('t');
  else {
    w.letter('q');
    w.number(qx - penX);
    w.number(qy - penY);
  }
  w.number(c[o + END_X]! - penX);
  w.number(c[o + END_Y]! - penY);
}

/**
 * The cubic at c[o …] from the pen: s when it follows a cubic (afterCubic) whose second control
 * point it mirrors, else c.
 */
function writeCubic(w: PathWriter, c: Float64Array, o: number, penX: number, penY: number, afterCubic: boolean): void {
  if (afterCubic && 2 * penX - c[o - STRIDE + 2]! === c[o] && 2 * penY - c[o - STRIDE + 3]! === c[o + 1]) w.letter('s');
  else {
    w.letter('c');
    w.number(c[o]! - penX);
    w.number(c[o + 1]! - penY);
  }
  w.number(c[o + 2]! - penX);
  w.number(c[o + 3]! - penY);
  w.number(c[o + END_X]! - penX);
  w.number(c[o + END_Y]! - penY);
}

/** The arc at c[o …]: radii, rotation (0.01°), the two flags, then the end relative to the pen. */
function writeArc(w: PathWriter, c: Float64Array, o: number, dx: number, dy: number): void {
  w.letter('a');
  w.number(c[o]!);
  w.number(c[o + 1]!);
  w.literal(String(Math.round(c[o + 2]! * 100) / 100));
  w.literal(c[o + 3] ? '1' : '0');
  w.literal(c[o + 4] ? '1' : '0');
  w.number(dx);
  w.number(dy);
}
