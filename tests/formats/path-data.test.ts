import { describe, expect, it, vi } from 'vitest';
import type { Segment, Chain } from '../../src/engine/types.js';
import { PathWriter, formatSteps, quantizeChains, writeLoop, writeOpenChain } from '../../src/formats/path-data.js';
import { SegmentPath } from '../../src/engine/segment-path.js';

describe('formatSteps', () => {
  it('writes the shortest decimal text for integer steps', () => {
    expect(formatSteps(0, 1)).toBe('0');
    expect(formatSteps(123, 1)).toBe('12.3');
    expect(formatSteps(-5, 1)).toBe('-.5');
    expect(formatSteps(10, 1)).toBe('1');
    expect(formatSteps(105, 2)).toBe('1.05');
    expect(formatSteps(-250, 2)).toBe('-2.5');
    expect(formatSteps(7, 0)).toBe('7');
  });
});

describe('PathWriter', () => {
  it('omits separators a parser does not need and repeats no command letter', () => {
    const w = new PathWriter(1);
    w.command('m', 10, 20);
    w.command('l', 5, -5);
    w.command('l', -3, 2);
    w.command('h', 15);
    w.close();
    expect(w.toString()).toBe('m1 2l.5-.5-.3.2h1.5z');
  });
});

describe('PathWriter without a TextDecoder', () => {
  it('writes the same text, also past one 8192-byte chunk', async () => {
    const write = (Writer: typeof PathWriter): string => {
      const w = new Writer(1);
      for (let i = 0; i < 3000; i++) w.command('l', i * 7 - 9000, (i % 13) - 6);
      return w.toString();
    };
    const expected = write(PathWriter);
    expect(expected.length).toBeGreaterThan(8192 * 2);
    vi.stubGlobal('TextDecoder', undefined);
    vi.resetModules();
    try {
      const fresh = await import('../../src/formats/path-data.js');
      expect(write(fresh.PathWriter)).toBe(expected);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});

describe('chains in both directions', () => {
  const chain: Chain = {
    startX: 0.04,
    startY: 0,
    segments: SegmentPath.of([
      { kind: 'line', x: 10.06, y: 0 },
      { kind: 'cubic', c1x: 12, c1y: 1, c2x: 12, c2y: 4, x: 10.06, y: 5.01 },
      { kind: 'line', x: 0.04, y: 5.01 },
    ]),
    leftRegion: 0,
    rightRegion: 1,
    closed: false,
  };
  const q = quantizeChains([chain], { decimals: 1, scaleX: 1, scaleY: 1 });

  it('walks a chain backwards onto exactly the same integer points', () => {
    const forward = new PathWriter(1);
    writeOpenChain(forward, q, 0, false, { x: 0, y: 0 }, false);
    const backward = new PathWriter(1);
    writeOpenChain(backward, q, 0, true, { x: 0, y: 0 }, false);
    // Forward: start, h, c (handles relative to the start point), h back.
    expect(forward.toString()).toBe('m0 0h10.1c1.9 1 1.9 4 0 5h-10.1');
    // Backward: starts at the forward end, handles swapped, every step negated.
    expect(backward.toString()).toBe('m0 5h10.1c1.9-1 1.9-4 0-5h-10.1');
  });

  it('closes a loop made of a chain and its reverse back where it started', () => {
    const w = new PathWriter(1);
    writeLoop(w, [{ chain: 0, reversed: false }, { chain: 0, reversed: true }], q, { x: 0, y: 0 });
    // Forward: h, c, h back; backward: the same offsets negated; the last line is the `z`.
    expect(w.toString()).toBe('m0 0h10.1c1.9 1 1.9 4 0 5h-10.1 10.1c1.9-1 1.9-4 0-5z');
  });
});

describe('straight runs', () => {
  const unit = (x: number, y: number) => ({ kind: 'line' as const, x, y });
  const chainOf = (startX: number, startY: number, segments: Segment[]): Chain => ({ startX, startY, segments: SegmentPath.of(segments), leftRegion: 0, rightRegion: 1, closed: false });

  it('a lattice square split over four chains of unit steps is written as four sides', () => {
    // Chains meet mid-side (junctions), each written in unit steps, as pixel-art chains are.
    const chains = quantizeChains(
      [
        chainOf(0, 2, [unit(0, 1), unit(0, 0), unit(1, 0)]),
        chainOf(1, 0, [unit(2, 0), unit(3, 0), unit(3, 1), unit(3, 2)]),
        chainOf(3, 2, [unit(3, 3), unit(2, 3), unit(1, 3)]),
        chainOf(1, 3, [unit(0, 3), unit(0, 2)]),
      ],
      { decimals: 1, scaleX: 1, scaleY: 1 },
    );
    const w = new PathWriter(1);
    writeLoop(w, [0, 1, 2, 3].map((chain) => ({ chain, reversed: false })), chains, { x: 0, y: 0 });
    // Starts at a corner, not mid-side; one command per side (the last one is `z`).
    expect(w.toString()).toBe('m0 0h3v3h-3z');
  });

  it('keeps turns, opposite steps and curves', () => {
    const chain = chainOf(0, 0, [unit(1, 0), unit(2, 0), unit(1, 0), { kind: 'quad', cx: 1, cy: 1, x: 2, y: 2 }, unit(3, 3), unit(4, 4), unit(4, 5)]);
    const w = new PathWriter(0);
    writeOpenChain(w, quantizeChains([chain], { decimals: 0, scaleX: 1, scaleY: 1 }), 0, false, { x: 0, y: 0 }, false);
    // Two steps right are one; the step back stays; the quad; two diagonal steps are one; then down.
    expect(w.toString()).toBe('m0 0h2-1q0 1 1 2l2 2v1');
  });
});
