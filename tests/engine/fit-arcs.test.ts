/**
 * The one arc writer of both stroke modes (src/engine/fit/arcs.ts, FitOptions.arcs): a fitted
 * line's circular bends come back as SVG arcs where that writes fewer numbers than its curves —
 * an icon's round end or rounded corner as the artist drew it. Each arc, as SVG draws it from its
 * end points, radius and flags, must stay on the samples it replaces, whichever way it turns and
 * however far, in pieces no wider than the caller's rule; a near-straight stretch is no arc.
 */
import { describe, expect, it } from 'vitest';

import { fitWithArcs } from '../../src/engine/fit/arcs.js';
import { FitScratch, type ArcRule, type FitOptions } from '../../src/engine/fit/fit.js';
import { SEGMENT_ARC, SEGMENT_CUBIC, SEGMENT_LINE, type SegmentPath } from '../../src/engine/segment-path.js';
import { fittedPoints } from '../../src/engine/strokes/fitted-points.js';

const RULE: ArcRule = { tolerancePx: 0.2, maxPieceSweepRad: (2 * Math.PI) / 3 };
const CURVES: FitOptions = { tolerancePx: 0.2, cornerAngleDeg: 50, detectCircles: true, detectEllipses: true };
const WITH_ARCS: FitOptions = { ...CURVES, arcs: RULE };

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

const codes = (path: SegmentPath): number[] => Array.from({ length: path.length }, (_, k) => path.code(k));

describe('the arc writer (fit/arcs.ts)', () => {
  for (const [turnDeg, arcCount] of [[40, 1], [120, 1], [200, 2], [300, 3]] as const) {
    for (const direction of [1, -1]) {
      it(`writes a ${turnDeg}° arc turning ${direction > 0 ? 'clockwise' : 'anticlockwise'} as ${arcCount} arc(s) on the circle, none wider than the rule's piece`, () => {
        const p = Float64Array.from(arcSamples(50, 50, 24, 0.3, (direction * turnDeg * Math.PI) / 180));
        const fitted = fitWithArcs(new FitScratch(), p, false, WITH_ARCS);
        const path = fitted.segments;
        expect(codes(path)).toEqual(Array.from({ length: arcCount }, () => SEGMENT_ARC));
        let x0 = fitted.startX;
        let y0 = fitted.startY;
        for (let k = 0; k < path.length; k++) {
          expect(path.rx(k)).toBeCloseTo(24, 1);
          expect(path.sweep(k)).toBe(direction > 0);
          // A piece of at most 120°: its chord at most 2·sin(60°) of the radius.
          expect(Math.hypot(path.x(k) - x0, path.y(k) - y0)).toBeLessThanOrEqual(2 * 24 * Math.sin(Math.PI / 3) + 0.01);
          [x0, y0] = [path.x(k), path.y(k)];
        }
        const drawn = fittedPoints(fitted.startX, fitted.startY, path);
        expect(offCircle(drawn, 50, 50, 24)).toBeLessThan(0.05);
        // Its ends on the circle by the end samples (the samples lie on it), and it passes by the middle one.
        expect(Math.hypot(fitted.startX - p[0]!, fitted.startY - p[1]!)).toBeLessThan(0.01);
        expect(Math.hypot(drawn[drawn.length - 2]! - p[p.length - 2]!, drawn[drawn.length - 1]! - p[p.length - 1]!)).toBeLessThan(0.01);
        const mid = (p.length / 4) | 0;
        let nearest = Infinity;
        for (let k = 0; k < drawn.length; k += 2) nearest = Math.min(nearest, Math.hypot(drawn[k]! - p[mid * 2]!, drawn[k + 1]! - p[mid * 2 + 1]!));
        expect(nearest).toBeLessThan(1);
      });
    }
  }

  it('writes a round-ended bar (a line, a half circle, a line) as a line, two arcs ending where the lines touch the circle, and a line', () => {
    const p = Float64Array.from([...Array.from({ length: 41 }, (_, k) => [10 + k, 20]).flat(), ...arcSamples(50, 36, 16, -Math.PI / 2, Math.PI).slice(2), ...Array.from({ length: 40 }, (_, k) => [49 - k, 52]).flat()]);
    const fitted = fitWithArcs(new FitScratch(), p, false, WITH_ARCS);
    expect(codes(fitted.segments)).toEqual([SEGMENT_LINE, SEGMENT_ARC, SEGMENT_ARC, SEGMENT_LINE]);
    // The lines stay on the bar's edges (y = 20 and 52), their ends near the tangent points (x = 50).
    expect(fitted.segments.y(0)).toBeCloseTo(20, 1);
    expect(Math.abs(fitted.segments.x(0) - 50)).toBeLessThan(1.5);
    expect(fitted.segments.y(2)).toBeCloseTo(52, 1);
    expect(Math.abs(fitted.segments.x(2) - 50)).toBeLessThan(1.5);
    for (const k of [1, 2]) expect(fitted.segments.rx(k)).toBeCloseTo(16, 1);
    // Without a rule the half circle takes cubics (the default fit is unchanged).
    const curves = codes(fitWithArcs(new FitScratch(), p, false, CURVES).segments);
    expect(curves).not.toContain(SEGMENT_ARC);
    expect(curves).toContain(SEGMENT_CUBIC);
  });

  it('leaves an S bend that no one arc draws to two arcs turning opposite ways', () => {
    const p = Float64Array.from([...arcSamples(30, 30, 20, Math.PI, -Math.PI / 2), ...arcSamples(30, 70, 20, -Math.PI / 2, Math.PI / 2).slice(2)]);
    const path = fitWithArcs(new FitScratch(), p, false, WITH_ARCS).segments;
    expect(codes(path)).toEqual([SEGMENT_ARC, SEGMENT_ARC]);
    expect(path.sweep(0)).not.toBe(path.sweep(1));
  });

  it('writes no near-straight arc (turning under 20°, a huge radius); a bend of 30° over the same length is one', () => {
    // 81 samples along x on an arc through `turnDeg`, the middle three bumped 0.1 px off it: no one
    // line holds them within the tolerance.
    const bent = (turnDeg: number): Float64Array => {
      const r = 40 / Math.sin((turnDeg * Math.PI) / 360);
      const out: number[] = [];
      for (let k = -40; k <= 40; k++) out.push(50 + k, 20 - (Math.sqrt(r * r - k * k) - Math.sqrt(r * r - 1600)) - (Math.abs(k) <= 1 ? 0.1 : 0));
      return Float64Array.from(out);
    };
    const flat = codes(fitWithArcs(new FitScratch(), bent(10), false, WITH_ARCS).segments);
    expect(flat).not.toContain(SEGMENT_ARC);
    const round = codes(fitWithArcs(new FitScratch(), bent(30), false, WITH_ARCS).segments);
    expect(round).toEqual([SEGMENT_ARC]);
  });

  it('writes a rule that allows wider pieces with fewer of them', () => {
    const p = Float64Array.from(arcSamples(50, 50, 24, 0.3, (200 * Math.PI) / 180));
    expect(fitWithArcs(new FitScratch(), p, false, WITH_ARCS).segments.length).toBe(2);
    expect(fitWithArcs(new FitScratch(), p, false, { ...CURVES, arcs: { ...RULE, maxPieceSweepRad: (7 * Math.PI) / 6 } }).segments.length).toBe(1);
  });
});
