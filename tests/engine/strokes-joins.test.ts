/**
 * Junctions of wide pen lines read as the pen drew them (tracelab.strokes=auto; arrows' heads and
 * the cut corner in centerline mode too), in 256-px pictures drawn with a 21.3-px round pen (the
 * automatic max_stroke_width: a 2-unit icon stroke):
 *  - an arrow's head: two arms and a shaft meeting at the apex. The thinning's junction lies
 *    several px inside the head from the apex, and the arms' skeleton bends into it there; the
 *    meeting point moves out to the apex, and the bent pixels near the thinning's junction are
 *    dropped too (measured from the meeting point alone they were kept: the arms ran 1.4–2 px
 *    off their lines; lucide book-up's arrow, 6 px off, stayed a filled shape);
 *  - a document's cut corner: a line that turns 45° at a junction where a fold leaves inside the
 *    turn. The pen turned on the point where the two runs cross (round join), and the ink reaches
 *    round it: the line keeps that vertex (a bend through the junction rounded it 5 px off);
 *  - a ring with a leg on its outside: the ring stays round where the leg leaves it (the leg's ink
 *    beyond the ring is no corner's).
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams, TraceResult } from '../../src/engine/types.js';
import { distanceToSegment, strokePoints } from '../helpers/geometry.js';
import { drawShape } from '../helpers/raster.js';

type Segment = readonly [number, number, number, number];

const PEN_PX = 256 / 12;

function trace(inside: (x: number, y: number) => boolean, strokes: EngineParams['strokes'] = 'auto'): TraceResult {
  const image = drawShape(256, 256, [255, 255, 255], [{ color: [0, 0, 0], inside }]);
  const params: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes };
  return traceImage(image, params);
}

const onSegments = (segments: readonly Segment[]) => (x: number, y: number): boolean => segments.some((s) => distanceToSegment(x, y, ...s) <= PEN_PX / 2);

/** Every point of every stroke within `tolerancePx` of one of the segments; and how near the strokes pass each of `vertices`. */
function expectAlong(result: TraceResult, segments: readonly Segment[], tolerancePx: number, vertices: readonly (readonly [number, number])[] = []): void {
  expect(result.strokes?.length ?? 0, 'strokes, not a filled shape').toBeGreaterThan(0);
  const all: [number, number][] = [];
  result.strokes!.forEach((stroke, s) => {
    expect(Math.abs(stroke.widthPx - PEN_PX) / PEN_PX, `width ${stroke.widthPx}`).toBeLessThanOrEqual(0.05);
    for (const [x, y] of strokePoints(result, s)) {
      all.push([x, y]);
      expect(Math.min(...segments.map((seg) => distanceToSegment(x, y, ...seg))), `stroke ${s} at ${x.toFixed(1)},${y.toFixed(1)}`).toBeLessThanOrEqual(tolerancePx);
    }
  });
  for (const [vx, vy] of vertices) expect(Math.min(...all.map(([x, y]) => Math.hypot(x - vx, y - vy))), `vertex ${vx.toFixed(1)},${vy.toFixed(1)}`).toBeLessThanOrEqual(1);
}

describe('tracelab.strokes=auto: junctions of wide pen lines', () => {
  // lucide move-left's head (\`M6 8 2 12l4 4\`, \`M2 12h20\` at 32/3 px a unit), its apex off the pixel grid.
  const ARROW: Segment[] = [
    [24.5, 128, 67.17, 85.33],
    [24.5, 128, 67.17, 170.67],
    [24.5, 128, 234.67, 128],
  ];

  it("an arrow's head: strokes along its arms and shaft, to the apex", () => {
    expectAlong(trace(onSegments(ARROW)), ARROW, 0.6, [[24.5, 128]]);
  });

  // lucide book-up's arrow (\`M12 13V7\`, \`m9 10 3-3 3 3\`): a short shaft, its head's arms at 90°.
  const UP_ARROW: Segment[] = [
    [128, 138.67, 128, 74.67],
    [96, 106.67, 128, 74.67],
    [160, 106.67, 128, 74.67],
  ];

  it("centerline mode: an arrow's head drawn along its arms and shaft (its meeting point is the ink's tip)", () => {
    // Dropping only the points near the meeting point (the apex), one arm ran 4.6 px off its line.
    expectAlong(trace(onSegments(UP_ARROW), 'centerline'), UP_ARROW, 0.6, [[128, 74.67]]);
    expectAlong(trace(onSegments(ARROW), 'centerline'), ARROW, 0.6, [[24.5, 128]]);
  });

  // A document's outline with its corner cut at 45°, a fold inside the cut (as lucide's file icons).
  const DOCUMENT: Segment[] = [
    [40, 40, 150, 40],
    [150, 40, 210, 100],
    [210, 100, 210, 220],
    [139.3, 40, 139.3, 110.7],
    [139.3, 110.7, 210, 110.7],
  ];

  it("a cut corner where a fold leaves inside the turn keeps its vertex", () => {
    expectAlong(trace(onSegments(DOCUMENT)), DOCUMENT, 2, [[150, 40]]);
    expectAlong(trace(onSegments(DOCUMENT), 'centerline'), DOCUMENT, 2, [[150, 40]]);
  });

  it('a ring with a leg leaving on its outside stays round', () => {
    const [cx, cy, r] = [118, 118, 70];
    const angle = Math.PI / 4;
    const leg: Segment = [cx + r * Math.cos(angle), cy + r * Math.sin(angle), cx + (r + 40) * Math.cos(angle), cy + (r + 40) * Math.sin(angle)];
    const result = trace((x, y) => Math.abs(Math.hypot(x - cx, y - cy) - r) <= PEN_PX / 2 || distanceToSegment(x, y, ...leg) <= PEN_PX / 2);
    expect(result.strokes?.length ?? 0, 'strokes').toBeGreaterThan(0);
    result.strokes!.forEach((_, s) => {
      for (const [x, y] of strokePoints(result, s)) {
        const off = Math.min(Math.abs(Math.hypot(x - cx, y - cy) - r), distanceToSegment(x, y, ...leg));
        expect(off, `stroke ${s} at ${x.toFixed(1)},${y.toFixed(1)}`).toBeLessThanOrEqual(1.5);
      }
    });
  });
});
