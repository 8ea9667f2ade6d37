/**
 * A reusable byte buffer that the text writers (SVG, PDF content streams, EPS) append to.
 * In: ASCII operators and attribute text, any other text (UTF-8 encoded), numbers in the writers'
 * formats. Out: the bytes written (a copy, or a view valid until the next write) or their text.
 * Why: a large picture's file has hundreds of thousands of numbers; building a string per number,
 * per segment line and per path, then joining them, kept the garbage collector busy and copied
 * every byte several times. A writer keeps one sink for every file it writes (reset per file),
 * so after the first large picture the buffer no longer grows either.
 * Numbers: `fixed` writes exactly what ps-path's formatNumber (toFixed, trailing zeros trimmed,
 * never "-0") returns, without making the string, whenever the rounding is unambiguous in binary
 * floating point; the few values close to a rounding tie go through toFixed itself.
 */

const MINUS = 45;
const DOT = 46;
const ZERO = 48;

/** Largest scaled value whose integer digits are written directly (beyond it: toFixed). */
const DIRECT_LIMIT = 2 ** 52;
const POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

// Every runtime Tracelab supports has TextEncoder and TextDecoder (Node, browsers, workers), but
// the formats layer is typechecked without DOM or Node types, so they are looked up, not named.
type Encoder = { encode(text: string): Uint8Array };
type Decoder = { decode(bytes: Uint8Array): string };
const globals = globalThis as { TextEncoder?: new () => Encoder; TextDecoder?: new () => Decoder };
const UTF8_DECODER: Decoder | undefined = globals.TextDecoder ? new globals.TextDecoder() : undefined;
const UTF8_ENCODER: Encoder | undefined = globals.TextEncoder ? new globals.TextEncoder() : undefined;
/** Characters per String.fromCharCode call when there is no TextDecoder (its arguments live on the stack). */
const TEXT_CHUNK = 8192;

export class TextSink {
  private bytes: Uint8Array;
  /** Bytes written so far (the buffer beyond is scratch). */
  length = 0;

  constructor(capacity = 4096) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Empties the sink for the next file (its buffer is kept). */
  reset(): this {
    this.length = 0;
    return this;
  }

  /** Drops everything written after `length` (a writer measuring text it then does not keep). */
  truncate(length: number): void {
    if (length < this.length) this.length = length;
  }

  byte(code: number): void {
    if (this.length === this.bytes.length) this.grow(1);
    this.bytes[this.length++] = code;
  }

  /** Any text, UTF-8 encoded (TextEncoder's bytes); ASCII, the usual case, without an encoder. */
  text(text: string): void {
    const n = text.length;
    if (this.length + n > this.bytes.length) this.grow(n);
    const b = this.bytes;
    let at = this.length;
    for (let i = 0; i < n; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) {
        this.length = at;
        this.encoded(text.slice(i));
        return;
      }
      b[at++] = code;
    }
    this.length = at;
  }

  /** `text` inserted at byte offset `at` (the bytes after it move up). */
  insertText(at: number, text: string): void {
    const end = this.length;
    this.text(text);
    const inserted = this.bytes.slice(end, this.length);
    this.bytes.copyWithin(at + inserted.length, at, end);
    this.bytes.set(inserted, at);
  }

  /** A safe integer in decimal ("-0" for -0 is not written: it is "0"). */
  integer(v: number): void {
    if (v < 0) {
      this.byte(MINUS);
      v = -v;
    }
    this.digits(v, 1);
  }

  /**
   * formatNumber's text (src/formats/ps-path.ts): `v.toFixed(decimals)` without trailing zeros
   * or a bare point, "0" for anything that rounds to zero; a RangeError for NaN and infinities.
   */
  fixed(v: number, decimals: number): void {
    if (!Number.isFinite(v)) throw new RangeError(`cannot write the number ${v}`);
    const steps = roundedSteps(v, decimals);
    if (Number.isNaN(steps)) this.text(fixedText(v, decimals));
    else this.steps(steps, decimals, false);
  }

  /**
   * The DXF writer's number text (src/formats/dxf.ts, num): like `fixed`, but a whole number
   * keeps one zero after the point ("12.0", "0.0"), and NaN and infinities are "0.0".
   */
  decimal(v: number, decimals: number): void {
    if (!Number.isFinite(v)) {
      this.text('0.0');
      return;
    }
    // Without decimals toFixed writes no point to keep a zero after (and "-0" stays): its own text.
    const steps = decimals > 0 ? roundedSteps(v, decimals) : NaN;
    if (Number.isNaN(steps)) this.text(decimalText(v, decimals));
    else this.steps(steps, decimals, true);
  }

  /** A signed count of 10^-decimals units in decimal; `pointZero`: a whole number ends in ".0". */
  private steps(n: number, decimals: number, pointZero: boolean): void {
    if (n < 0) {
      this.byte(MINUS);
      n = -n;
    }
    const unit = POWERS_OF_TEN[decimals]!;
    const integerPart = Math.floor(n / unit);
    let fraction = n - integerPart * unit;
    this.digits(integerPart, 1);
    if (fraction === 0) {
      if (pointZero) {
        this.byte(DOT);
        this.byte(ZERO);
      }
      return;
    }
    // Fraction digits without trailing zeros: 5000 of 10^4 → ".5", 50 of 10^4 → ".005".
    let width = decimals;
    while (fraction % 10 === 0) {
      fraction /= 10;
      width--;
    }
    this.byte(DOT);
    this.digits(fraction, width);
  }

  /** A non-negative safe integer in decimal, zero-padded to at least `width` digits. */
  digits(n: number, width: number): void {
    // One digit (most of a relative path's numbers): no counting or division.
    if (n < 10 && width <= 1) {
      this.byte(ZERO + n);
      return;
    }
    let count = 1;
    for (let t = n; t >= 10; t = Math.floor(t / 10)) count++;
    if (count < width) count = width;
    if (this.length + count > this.bytes.length) this.grow(count);
    const b = this.bytes;
    let t = n;
    for (let i = this.length + count - 1; i >= this.length; i--) {
      const next = Math.floor(t / 10);
      b[i] = ZERO + (t - next * 10);
      t = next;
    }
    this.length += count;
  }

  /** The bytes written, as a view that the next write may overwrite. */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  /** The bytes written, copied (the sink is reused). */
  toBytes(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  /** The text written (UTF-8 decoded), or the text written since byte `from`. */
  toString(from = 0): string {
    const bytes = this.bytes.subarray(from, this.length);
    if (UTF8_DECODER) return UTF8_DECODER.decode(bytes);
    // Without a TextDecoder (writers only use one for non-ASCII text anyway): character codes a
    // chunk at a time. Same text for ASCII, a little slower.
    let text = '';
    for (let i = 0; i < bytes.length; i += TEXT_CHUNK) {
      text += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(bytes.length, i + TEXT_CHUNK)) as unknown as number[]);
    }
    return text;
  }

  private encoded(text: string): void {
    if (!UTF8_ENCODER) throw new Error('no TextEncoder for non-ASCII text');
    const bytes = UTF8_ENCODER.encode(text);
    if (this.length + bytes.length > this.bytes.length) this.grow(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }

  private grow(extra: number): void {
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
  }
}

/**
 * The integer that `v.toFixed(decimals)` writes, with its sign (0, never −0, for anything that
 * rounds to zero), or NaN when this cannot be told without toFixed itself: too many decimals,
 * too large, or too close to a rounding tie.
 * Why it is exact otherwise: `scaled` is |v|·10^d rounded once, so within |scaled|·2^-53 of the
 * exact product; when its fractional part is farther than twice that from one half, it rounds
 * to the same integer as the exact product does, which is toFixed's integer (its ties go away
 * from zero, which only matters at a tie). `scaled − whole` is exact (Sterbenz).
 */
export function roundedSteps(v: number, decimals: number): number {
  if (decimals >= POWERS_OF_TEN.length) return NaN;
  const negative = v < 0;
  const scaled = (negative ? -v : v) * POWERS_OF_TEN[decimals]!;
  if (!(scaled < DIRECT_LIMIT)) return NaN;
  const whole = Math.floor(scaled);
  const rest = scaled - whole;
  if (Math.abs(rest - 0.5) <= scaled * 2 ** -52) return NaN;
  const n = rest > 0.5 ? whole + 1 : whole;
  return negative && n !== 0 ? -n : n;
}

/** The DXF number text by way of toFixed (the slow path of TextSink.decimal; dxf.ts's num). */
export function decimalText(v: number, decimals: number): string {
  if (!Number.isFinite(v)) return '0.0';
  let s = v.toFixed(decimals);
  if (s.includes('.')) {
    let end = s.length;
    while (s.charCodeAt(end - 1) === ZERO) end--;
    s = s.slice(0, end);
    if (s.charCodeAt(end - 1) === DOT) s += '0';
  }
  return s === '-0.0' ? '0.0' : s;
}

/** The slow path of TextSink.fixed, and ps-path's formatNumber: toFixed's text, trimmed. */
export function fixedText(v: number, decimals: number): string {
  if (!Number.isFinite(v)) throw new RangeError(`cannot write the number ${v}`);
  let s = v.toFixed(decimals);
  if (s.indexOf('.') >= 0) {
    // Trailing zeros, then a bare point (a scan, not two regular expressions).
    let end = s.length;
    while (s.charCodeAt(end - 1) === ZERO) end--;
    if (s.charCodeAt(end - 1) === DOT) end--;
    s = s.slice(0, end);
  }
  return s === '-0' ? '0' : s;
}
