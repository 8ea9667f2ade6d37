/**
 * tracelab.strokes=centerline writes a bend that is a circular arc as one SVG arc
 * (src/engine/fit/arc-runs.ts): fixtures drawn here — an open arc and a hook (a line into a
 * half circle) — come back as one stroke of few segments, with the arc on the drawn circle.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { SEGMENT_ARC } from '../../src/engine/segment-path.js';
import type { RgbaImage, TraceResult } from '../../src/engine/types.js';
import { strokePoints } from '../helpers/geometry.js';
import { drawShape } from '../helpers/raster.js';

type Distance = (x: number, y: number) => number;

/** An arc of radius r about (cx, cy) from angle a0 to a1 (rad, y down): the distance to it. */
const arcDistance = (cx: number, cy: number, r: number, a0: number, a1: number): Distance => (x, y) => {
  const a = Math.atan2(y - cy, x - cx);
  const on = (((a - a0) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI) <= a1 - a0;
  if (on) return Math.abs(Math.hypot(x - cx, y - cy) - r);
  return Math.min(Math.hypot(x - cx - r * Math.cos(a0), y - cy - r * Math.sin(a0)), Math.hypot(x - cx - r * Math.cos(a1), y - cy - r * Math.sin(a1)));
};
const segmentDistance = (x1: number, y1: number, x2: number, y2: number): Distance => (x, y) => {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - x1 - t * dx, y - y1 - t * dy);
};

function draw(size: number, distance: Distance, widthPx: number, oneBit: boolean): RgbaImage {
  const image = drawShape(size, size, [255, 255, 255], [{ color: [0, 0, 0], inside: (x, y) => distance(x, y) <= widthPx / 2 }]);
  if (oneBit) {
    const d = image.data;
    for (let i = 0; i < d.length; i += 4) d[i] = d[i + 1] = d[i + 2] = d[i]! < 128 ? 0 : 255;
  }
  return image;
}

function centerline(image: RgbaImage): TraceResult {
  return traceImage(image, { ...DEFAULT_ENGINE_PARAMS, strokes: 'centerline', maxStrokeWidthPx: 20 });
}

function segmentsOf(result: TraceResult): { count: number; arcs: number; radii: number[] } {
  const chains = result.strokes![0]!.uses.map((u) => result.chains[u.chain]!);
  let arcs = 0;
  const radii: number[] = [];
  for (const c of chains) {
    for (let k = 0; k < c.segments.length; k++) {
      if (c.segments.code(k) !== SEGMENT_ARC) continue;
      arcs++;
      radii.push(c.segments.rx(k));
    }
  }
  return { count: chains.reduce((n, c) => n + c.segments.length, 0), arcs, radii };
}

describe('tracelab.strokes=centerline: circular bends as arcs', () => {
  it('an open 270° arc, 2–16 px wide, anti-aliased: one stroke of at most 4 segments, arcs of the drawn radius ±0.25 px, centre-line within 0.3 px', () => {
    // (A 1-bit line's smoothed staircase, 2–6 px, is off any circle by more than half the fit's
    // tolerance: it stays cubics.)
    for (const [widthPx, oneBit] of [[2, false], [6, false], [16, false]] as const) {
      {
        const what = `${widthPx} px${oneBit ? ', 1-bit' : ''}`;
        const distance = arcDistance(80, 80, 50, Math.PI / 4, (7 * Math.PI) / 4);
        const result = centerline(draw(160, distance, widthPx, oneBit));
        expect(result.strokes, what).toHaveLength(1);
        const { count, radii } = segmentsOf(result);
        // 270° in 90° arcs (an arc is written in pieces of at most 120°), an end left off the
        // circle (a round end carried on) a curve of its own at most.
        expect(count, what).toBeLessThanOrEqual(4);
        // The body's arcs on the drawn circle (a short arc at an end, over the few points carried
        // on to the ink's end, is within the tolerance of them, its radius less certain).
        expect(radii.filter((r) => Math.abs(r - 50) <= 0.25).length, `${what}: radii ${radii}`).toBeGreaterThanOrEqual(2);
        // Fitted as cubics the centre-line was up to 0.42 px off the drawn arc; as an arc, 0.3.
        for (const [x, y] of strokePoints(result, 0)) expect(distance(x, y), what).toBeLessThanOrEqual(0.3);
      }
    }
  });

  it('a hook (a straight line into a half circle, 6 px): line, two arcs of the drawn radius, line', () => {
    const bend = arcDistance(80, 60, 30, 0, Math.PI);
    const distance: Distance = (x, y) => Math.min(bend(x, y), segmentDistance(110, 60, 110, 20)(x, y), segmentDistance(50, 60, 50, 30)(x, y));
    const result = centerline(draw(140, distance, 6, false));
    expect(result.strokes).toHaveLength(1);
    const { count, arcs, radii } = segmentsOf(result);
    // Line, the half circle as two quarter arcs, line (fitted as cubics: 4 cubics, the first and
    // last taking in the straight lines).
    expect(count).toBe(4);
    expect(arcs).toBe(2);
    for (const r of radii) expect(Math.abs(r - 30)).toBeLessThanOrEqual(0.25);
    for (const [x, y] of strokePoints(result, 0)) expect(distance(x, y)).toBeLessThanOrEqual(0.5);
  });
});
