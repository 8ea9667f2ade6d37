/**
 * Fitted segments in typed arrays (src/engine/segment-path.ts): what the fitters append is what a
 * chain reads back, exactly, through the named accessors, the Segment objects, JSON and the
 * packing that carries chains back from a thread.
 */
import { describe, expect, it } from 'vitest';
import { SEGMENT_ARC, SEGMENT_CUBIC, SEGMENT_LINE, SEGMENT_QUAD, SegmentBuilder, SegmentPath } from '../../src/engine/segment-path.js';
import { packChains, unpackChains } from '../../src/engine/jobs.js';
import type { Segment } from '../../src/engine/types.js';

const MIXED: Segment[] = [
  { kind: 'line', x: 1.25, y: -0 },
  { kind: 'quad', cx: 2, cy: 3.5, x: 4, y: 1e-300 },
  { kind: 'cubic', c1x: 0.1, c1y: 0.2, c2x: 0.30000000000000004, c2y: -7, x: 8, y: 9 },
  { kind: 'arc', rx: 5, ry: 2.5, rotationDeg: 33.3, largeArc: true, sweep: false, x: -1, y: 2 },
  { kind: 'arc', rx: 5, ry: 5, rotationDeg: 0, largeArc: false, sweep: true, x: 1.25, y: 0 },
];

describe('SegmentPath', () => {
  it('gives back every number as appended, through accessors and as objects', () => {
    const path = SegmentPath.of(MIXED);
    expect(path.length).toBe(5);
    expect([0, 1, 2, 3, 4].map((k) => path.code(k))).toEqual([SEGMENT_LINE, SEGMENT_QUAD, SEGMENT_CUBIC, SEGMENT_ARC, SEGMENT_ARC]);
    expect(Object.is(path.y(0), -0)).toBe(true);
    expect(path.y(1)).toBe(1e-300);
    expect([path.c1x(2), path.c1y(2), path.c2x(2), path.c2y(2)]).toEqual([0.1, 0.2, 0.30000000000000004, -7]);
    expect([path.rx(3), path.ry(3), path.rotationDeg(3), path.largeArc(3), path.sweep(3)]).toEqual([5, 2.5, 33.3, true, false]);
    expect(path.toSegments()).toEqual(MIXED);
    expect([...path]).toEqual(MIXED);
    expect(path.hasKind(SEGMENT_QUAD)).toBe(true);
    expect(path.allOfKind(SEGMENT_LINE)).toBe(false);
  });

  it('is stored as Segment objects in JSON, so stored traces keep their format', () => {
    const chain = { startX: 0, startY: 0, segments: SegmentPath.of(MIXED) };
    // Exactly what the objects themselves gave (JSON writes -0 as 0 either way).
    expect(JSON.stringify(chain)).toBe(JSON.stringify({ ...chain, segments: MIXED }));
  });

  it('paths taken one after another from one builder stay intact (views into shared chunks)', () => {
    const builder = new SegmentBuilder();
    const paths: SegmentPath[] = [];
    // Enough segments to fill more than one arena chunk, in paths of varying length.
    for (let c = 0; c < 3000; c++) {
      for (let k = 0; k <= c % 17; k++) builder.line(c, k);
      paths.push(builder.take(0));
    }
    paths.forEach((path, c) => {
      expect(path.length).toBe((c % 17) + 1);
      for (let k = 0; k < path.length; k++) expect([path.code(k), path.x(k), path.y(k)]).toEqual([SEGMENT_LINE, c, k]);
    });
  });

  it('merges two neighbouring pieces in place and keeps the rest in order', () => {
    const pieces = new SegmentBuilder();
    pieces.line(1, 1);
    pieces.cubic(1, 2, 3, 4, 5, 6);
    pieces.quad(7, 7, 8, 8);
    pieces.line(9, 9);
    const merged = new SegmentBuilder();
    merged.quad(0, 0, 8, 8);
    pieces.mergePair(1, merged, 0);
    expect(pieces.take(0).toSegments()).toEqual([
      { kind: 'line', x: 1, y: 1 },
      { kind: 'quad', cx: 0, cy: 0, x: 8, y: 8 },
      { kind: 'line', x: 9, y: 9 },
    ]);
  });

  it('crosses a thread boundary packed and comes back with the same segments', () => {
    const chains = [
      { startX: 1, startY: 2, segments: SegmentPath.of(MIXED) },
      { startX: 3, startY: 4, segments: SegmentPath.of([]) },
      { startX: 5, startY: 6, segments: SegmentPath.of(MIXED.slice(1, 3)), primitive: { family: 'circle', cx: 0, cy: 0, rotationDeg: 0, r: 1 } as const },
    ];
    const back = unpackChains(structuredClone(packChains(chains)));
    expect(back.map((c) => ({ ...c, segments: c.segments.toSegments() }))).toEqual(chains.map((c) => ({ ...c, segments: c.segments.toSegments() })));
  });
});
