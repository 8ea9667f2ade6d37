import { describe, expect, it } from 'vitest';
import { TextSink } from '../../src/formats/text-sink.js';

/** The PDF/EPS number format as ps-path's formatNumber wrote it before the sink (the reference). */
function referenceFixed(v: number, decimals: number): string {
  let s = v.toFixed(decimals);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

/** The DXF number format as dxf.ts's num wrote it before the sink (the reference). */
function referenceDecimal(v: number, decimals: number): string {
  if (!Number.isFinite(v)) return '0.0';
  let s = v.toFixed(decimals);
  if (s.includes('.')) s = s.replace(/0+$/, '');
  if (s.endsWith('.')) s += '0';
  if (/^-0\.0$/.test(s)) s = '0.0';
  return s;
}

function sinkDecimal(v: number, decimals: number): string {
  const sink = new TextSink(4);
  sink.decimal(v, decimals);
  return sink.toString();
}

function sinkFixed(v: number, decimals: number): string {
  const sink = new TextSink(4);
  sink.fixed(v, decimals);
  return sink.toString();
}

/** A small deterministic generator (xorshift32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

/** Every mismatch between the sink and the reference over `values` × `decimals` (at most 5). */
function mismatches(values: readonly number[], decimalsList: readonly number[], written = sinkFixed, reference = referenceFixed): string[] {
  const bad: string[] = [];
  for (const d of decimalsList) {
    for (const v of values) {
      const want = reference(v, d);
      const got = written(v, d);
      if (got !== want && bad.push(`${v} at ${d}: ${got} ≠ ${want}`) >= 5) return bad;
    }
  }
  return bad;
}

const DECIMALS = [0, 1, 2, 3, 4, 6, 9];

const EDGES = [
  0, -0, 1, -1, 0.5, -0.5, 1.5, -1.5, 2.5, -2.25, 1.005, 0.125, 0.0625, 0.03125, 0.00005, -0.00005, 0.00015,
  1e-7, -1e-7, 5e-10, -5e-10, 1e-300, -1e-300, Number.MIN_VALUE, 0.1, 0.2, 0.3, 0.7, 141.73228346456693, 123456789.123456,
  4503599627370495.5, 2 ** 52, 2 ** 53, 9007199254740993, 1e15, 1e16, 1e20, 1e21, -1e21, 1.7976931348623157e308,
  99.99995, 99.99994999, 9.5, 0.95, 0.995, 0.9995, 0.99995, 1234.56785, 1234.56775, -0.3, -0.0000004, 2 * Math.PI,
];

/** 200 000 values over every precision: any magnitude, decimal and binary ties, coordinates, channels. */
function randomValues(seed: number): number[] {
  const next = random(seed);
  const values: number[] = [];
  for (let i = 0; i < 200_000 / DECIMALS.length; i++) {
    const kind = i % 5;
    const sign = next() < 0.5 ? -1 : 1;
    if (kind === 0) values.push(sign * next() * 10 ** Math.floor(next() * 24 - 12)); // any magnitude
    else if (kind === 1) values.push((sign * (Math.floor(next() * 1e6) + 0.5)) / 10 ** Math.floor(next() * 10)); // decimal ties
    else if (kind === 2) values.push((sign * Math.floor(next() * 2 ** 20)) / 2 ** Math.floor(next() * 20)); // binary fractions, exact ties
    else if (kind === 3) values.push(sign * (next() * 3000)); // page coordinates
    else values.push(Math.fround(sign * next() * 1000) / 255); // colour channels and scaled floats
  }
  return values;
}

describe('TextSink.fixed', () => {
  it('writes what toFixed + trimming wrote for edge cases: zeros, ties, tiny, huge', () => {
    expect(mismatches(EDGES, DECIMALS)).toEqual([]);
  });

  it('writes what toFixed + trimming wrote for 200 000 random values at every precision', () => {
    expect(mismatches(randomValues(28), DECIMALS)).toEqual([]);
  });

  it('throws for values it cannot write, as formatNumber did', () => {
    expect(() => sinkFixed(Number.NaN, 4)).toThrow(RangeError);
    expect(() => sinkFixed(Number.POSITIVE_INFINITY, 2)).toThrow(RangeError);
  });

  it('can tell a wrong formatter from the right one (the reference is not the code under test)', () => {
    // A rounding that is not toFixed's (Math.round on the scaled double) differs on the same values.
    const naive = (v: number, d: number): string => String(Math.round(v * 10 ** d) / 10 ** d);
    const values = [1.005, -2.25, 0.00005, 1e21];
    expect(values.some((v) => naive(v, 2) !== referenceFixed(v, 2) || naive(v, 4) !== referenceFixed(v, 4))).toBe(true);
  });
});

describe('TextSink.decimal', () => {
  it("writes what the DXF writer's num wrote: edge cases and 200 000 random values, NaN and infinities as 0.0", () => {
    expect(mismatches([...EDGES, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY], DECIMALS, sinkDecimal, referenceDecimal)).toEqual([]);
    expect(mismatches(randomValues(2028), [...DECIMALS, 15], sinkDecimal, referenceDecimal)).toEqual([]);
  });
});

describe('TextSink', () => {
  it('appends ASCII and UTF-8 text, integers and zero-padded digits, growing past its capacity', () => {
    const sink = new TextSink(2);
    sink.text('<g id="');
    sink.text('färg-€');
    sink.text('"> ');
    sink.integer(-120);
    sink.byte(32);
    sink.digits(7, 3);
    expect(sink.toString()).toBe('<g id="färg-€"> -120 007');
    expect([...sink.toBytes()]).toEqual([...new TextEncoder().encode('<g id="färg-€"> -120 007')]);
  });

  it('inserts text before what follows, truncates, and starts empty again after reset', () => {
    const sink = new TextSink(4);
    sink.text('<svg>\n</svg>\n');
    sink.insertText(6, '<defs/>\n');
    expect(sink.toString()).toBe('<svg>\n<defs/>\n</svg>\n');
    sink.truncate(6);
    expect(sink.toString()).toBe('<svg>\n');
    expect(sink.toString(1)).toBe('svg>\n');
    sink.reset();
    expect(sink.length).toBe(0);
    expect(sink.toString()).toBe('');
  });

  it('hands out copies that later writes do not change', () => {
    const sink = new TextSink(4);
    sink.text('abc');
    const copy = sink.toBytes();
    sink.reset().text('xyz');
    expect(String.fromCharCode(...copy)).toBe('abc');
  });
});
