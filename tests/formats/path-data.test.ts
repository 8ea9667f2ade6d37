import { describe, expect, it } from 'vitest';
import type { Chain } from '../../src/engine/types.js';
import { PathWriter, formatSteps, mergeCollinearLines, quantizeChain, reverseChain, writeLoop } from '../../src/formats/path-data.js';

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

describe('chains in both directions', () => {
  const chain: Chain = {
    startX: 0.04,
    startY: 0,
    segments: [
      { kind: 'line', x: 10.06, y: 0 },
      { kind: 'cubic', c1x: 12, c1y: 1, c2x: 12, c2y: 4, x: 10.06, y: 5.01 },
      { kind: 'line', x: 0.04, y: 5.01 },
    ],
    leftRegion: 0,
    rightRegion: 1,
    closed: false,
  };
  const q = quantizeChain(chain, { decimals: 1, scaleX: 1, scaleY: 1 });

  it('reverses a chain onto exactly the same integer points', () => {
    const r = reverseChain(q);
    expect(r.x).toBe(q.segments[q.segments.length - 1]!.x);
    expect(reverseChain(r)).toEqual(q);
  });

  it('closes a loop made of a chain and its reverse back where it started', () => {
    const w = new PathWriter(1);
    writeLoop(w, [{ chain: 0, reversed: false }, { chain: 0, reversed: true }], [q], { x: 0, y: 0 });
    // Forward: h, c, h back; backward: the same offsets negated; the last line is the `z`.
    expect(w.toString()).toBe('m0 0h10.1c1.9 1 1.9 4 0 5h-10.1 10.1c1.9-1 1.9-4 0-5z');
  });
});

describe('straight runs', () => {
  const unit = (x: number, y: number) => ({ kind: 'line' as const, x, y });
  it('a lattice square split over four chains of unit steps is written as four sides', () => {
    // Chains meet mid-side (junctions), each written in unit steps, as pixel-art chains are.
    const chains = [
      { x: 0, y: 20, segments: [unit(0, 10), unit(0, 0), unit(10, 0)] },
      { x: 10, y: 0, segments: [unit(20, 0), unit(30, 0), unit(30, 10), unit(30, 20)] },
      { x: 30, y: 20, segments: [unit(30, 30), unit(20, 30), unit(10, 30)] },
      { x: 10, y: 30, segments: [unit(0, 30), unit(0, 20)] },
    ];
    const w = new PathWriter(1);
    writeLoop(w, [0, 1, 2, 3].map((chain) => ({ chain, reversed: false })), chains, { x: 0, y: 0 });
    // Starts at a corner, not mid-side; one command per side (the last one is `z`).
    expect(w.toString()).toBe('m0 0h3v3h-3z');
  });

  it('keeps turns, opposite steps and curves', () => {
    const segments = mergeCollinearLines(0, 0, [
      unit(1, 0),
      unit(2, 0),
      unit(1, 0),
      { kind: 'quad', cx: 1, cy: 1, x: 2, y: 2 },
      unit(3, 3),
      unit(4, 4),
      unit(4, 5),
    ]);
    expect(segments).toEqual([unit(2, 0), unit(1, 0), { kind: 'quad', cx: 1, cy: 1, x: 2, y: 2 }, unit(4, 4), unit(4, 5)]);
  });
});
