/**
 * tracelab.strokes=auto writes a wide pen line's spans as lines and circular arcs where that writes
 * fewer numbers than cubics (src/engine/fit/arcs.ts, FitOptions.spanArcs): an icon's round end is
 * arcs, as the artist drew it. Each arc, as SVG draws it from its end points, radius and flags,
 * must stay on the samples it replaces, whichever way it turns and however far; none is near a
 * half circle (its centre would move with its radius's rounding: those are two arcs).
 */
import { describe, expect, it } from 'vitest';

import { linesAndArcs } from '../../src/engine/fit/arcs.js';
import { FitScratch, fitChain } from '../../src/engine/fit/fit.js';
import { SEGMENT_ARC, SEGMENT_CUBIC, SEGMENT_LINE, SegmentBuilder } from '../../src/engine/segment-path.js';
import { fittedPoints } from '../../src/engine/strokes/fitted-points.js';

/** Samples 1 px apart along a circle of radius r about (cx, cy) from angle a0 through `turn` radians (signed). */
function arcSamples(cx: number, cy: number, r: number, a0: number, turn: number): number[] {
  const steps = Math.ceil((Math.abs(turn) * r) / 1);
  const out: number[] = [];
  for (let k = 0; k <= steps; k++) {
    const a = a0 + (turn * k) / steps;
    out.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
  }
  return out;
}

/** The largest distance (px) of the written path's points from the circle. */
function offCircle(points: Float64Array, cx: number, cy: number, r: number): number {
  let worst = 0;
  for (let k = 0; k < points.length; k += 2) worst = Math.max(worst, Math.abs(Math.hypot(points[k]! - cx, points[k + 1]! - cy) - r));
  return worst;
}

describe('lines and arcs (fit/arcs.ts)', () => {
  for (const [turnDeg, arcCount] of [[40, 1], [120, 1], [200, 2], [300, 3]] as const) {
    for (const direction of [1, -1]) {
      it(`writes a ${turnDeg}° arc turning ${direction > 0 ? 'clockwise' : 'anticlockwise'} as ${arcCount} arc(s) on the circle, none near a half circle`, () => {
        const p = Float64Array.from(arcSamples(50, 50, 24, 0.3, (direction * turnDeg * Math.PI) / 180));
        const out = new SegmentBuilder();
        expect(linesAndArcs(p, 0, p.length / 2 - 1, 0.2, out)).toBe(true);
        const path = out.take(0);
        expect(path.length).toBe(arcCount);
        let x0 = p[0]!;
        let y0 = p[1]!;
        for (let k = 0; k < path.length; k++) {
          expect(path.code(k)).toBe(SEGMENT_ARC);
          expect(path.rx(k)).toBeCloseTo(24, 1);
          expect(path.sweep(k)).toBe(direction > 0);
          // The chord is at most 2·sin(70.5°) of the radius (h ≥ r/3).
          expect(Math.hypot(path.x(k) - x0, path.y(k) - y0)).toBeLessThanOrEqual(2 * 24 * Math.sqrt(1 - 1 / 9) + 1e-9);
          [x0, y0] = [path.x(k), path.y(k)];
        }
        const drawn = fittedPoints(p[0]!, p[1]!, path);
        expect(offCircle(drawn, 50, 50, 24)).toBeLessThan(0.05);
        // It ends on the last sample, and passes by the middle one (the right one of the two arcs).
        expect(drawn[drawn.length - 2]).toBeCloseTo(p[p.length - 2]!, 6);
        const mid = (p.length / 4) | 0;
        let nearest = Infinity;
        for (let k = 0; k < drawn.length; k += 2) nearest = Math.min(nearest, Math.hypot(drawn[k]! - p[mid * 2]!, drawn[k + 1]! - p[mid * 2 + 1]!));
        expect(nearest).toBeLessThan(1);
      });
    }
  }

  it('writes a round-ended bar (a line, a half circle, a line) as a line, two arcs and a line', () => {
    const p = Float64Array.from([...Array.from({ length: 41 }, (_, k) => [10 + k, 20]).flat(), ...arcSamples(50, 36, 16, -Math.PI / 2, Math.PI).slice(2), ...Array.from({ length: 40 }, (_, k) => [49 - k, 52]).flat()]);
    const fitted = fitChain(new FitScratch(), p, false, { tolerancePx: 0.2, cornerAngleDeg: 50, detectCircles: true, detectEllipses: true, spanArcs: true });
    const codes = Array.from({ length: fitted.segments.length }, (_, k) => fitted.segments.code(k));
    expect(codes).toEqual([SEGMENT_LINE, SEGMENT_ARC, SEGMENT_ARC, SEGMENT_LINE]);
    // Without spanArcs the half circle takes cubics (the default fit is unchanged).
    const curves = fitChain(new FitScratch(), p, false, { tolerancePx: 0.2, cornerAngleDeg: 50, detectCircles: true, detectEllipses: true });
    const curveCodes = Array.from({ length: curves.segments.length }, (_, k) => curves.segments.code(k));
    expect(curveCodes).not.toContain(SEGMENT_ARC);
    expect(curveCodes).toContain(SEGMENT_CUBIC);
  });

  /** 61 samples 1 px apart along x, on an arc bulging `sagittaPx` off its chord, the middle three `bumpPx` farther. */
  function gentleArc(sagittaPx: number, bumpPx: number): Float64Array {
    const half = 30;
    const r = (half * half + sagittaPx * sagittaPx) / (2 * sagittaPx);
    const out: number[] = [];
    for (let k = -half; k <= half; k++) out.push(50 + k, 20 + r - Math.sqrt(r * r - k * k) - sagittaPx - (Math.abs(k) <= 1 ? bumpPx : 0));
    return Float64Array.from(out);
  }

  it('writes a near-straight stretch (bulging less than the tolerance) as a line, a bulge over it as an arc', () => {
    // The bump keeps the middle samples off the chord by more than the tolerance (0.15 + 0.08 >
    // 0.2): no one line holds them, one arc does.
    for (const [sagittaPx, code] of [[0.15, SEGMENT_LINE], [0.3, SEGMENT_ARC]] as const) {
      const p = gentleArc(sagittaPx, 0.08);
      const out = new SegmentBuilder();
      expect(linesAndArcs(p, 0, p.length / 2 - 1, 0.2, out)).toBe(true);
      const path = out.take(0);
      expect(path.length, `sagitta ${sagittaPx}`).toBe(1);
      expect(path.code(0), `sagitta ${sagittaPx}`).toBe(code);
      expect(path.x(0)).toBe(p[p.length - 2]);
    }
  });

  it('leaves an S bend that no one arc draws to two arcs', () => {
    const p = Float64Array.from([...arcSamples(30, 30, 20, Math.PI, -Math.PI / 2), ...arcSamples(30, 70, 20, -Math.PI / 2, Math.PI / 2).slice(2)]);
    const out = new SegmentBuilder();
    expect(linesAndArcs(p, 0, p.length / 2 - 1, 0.2, out)).toBe(true);
    const path = out.take(0);
    expect(path.length).toBe(2);
    expect(path.sweep(0)).not.toBe(path.sweep(1));
  });
});
