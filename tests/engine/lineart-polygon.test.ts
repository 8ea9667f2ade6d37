/**
 * Line art's polygon under tracelab.strokes=auto (outline-polygon.ts, side rule 'straightRun':
 * potrace's possible segments): fewer sides than the default's half-pixel chord rule, corners and
 * one-pixel features kept. Fixtures are drawn here at one sample per pixel (the pixel centre), as
 * a 1-bit scanner or a threshold would.
 */
import { describe, expect, it } from 'vitest';
import { buildChainGraph } from '../../src/engine/boundary/boundary.js';
import { latticePoints } from '../../src/engine/boundary/subpixel.js';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { outlinePolygon, type SideRule } from '../../src/engine/lineart/outline-polygon.js';
import type { Chain, EngineParams, TraceResult } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { renderSvgWithResvg } from '../helpers/compare.js';
import { sampleChain } from '../helpers/geometry.js';
import { drawBilevel, thinInkKept, type Inside } from '../helpers/bilevel.js';
import { disc } from '../helpers/raster.js';

const AUTO: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' };
const NO_ROUND_SHAPES = { ...DEFAULT_ENGINE_PARAMS.parameterizedShapes, ellipseCircle: false, ellipseGeneral: false };

/** The polygon (x, y pairs) of the outline of the one shape `inside` draws (not the frame's). */
function shapePolygon(width: number, height: number, inside: Inside, rule: SideRule): Float64Array {
  const regionOf = new Int32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) regionOf[y * width + x] = inside(x + 0.5, y + 0.5) ? 1 : 0;
  const graph = buildChainGraph(regionOf, width, height);
  const frameless = Array.from({ length: graph.count }, (_, c) => c).filter((c) => graph.startX[c]! > 0 && graph.startY[c]! > 0);
  expect(frameless).toHaveLength(1);
  const c = frameless[0]!;
  return outlinePolygon(latticePoints(graph, c), graph.closed[c] === 1, rule);
}

/** Chains that bound the black shapes (black on one side). */
function blackChains(result: TraceResult): Chain[] {
  const black = new Set(result.shapes.filter((shape) => shape.color.r < 128).map((shape) => shape.region));
  return result.chains.filter((chain) => black.has(chain.leftRegion) || black.has(chain.rightRegion));
}

function kindsOf(chain: Chain): Record<string, number> {
  const counts: Record<string, number> = { line: 0, cubic: 0, quad: 0, arc: 0 };
  for (const s of chain.segments.toSegments()) counts[s.kind]!++;
  return counts;
}

describe("line art under tracelab.strokes=auto: potrace's possible sides", () => {
  it('the polygon of a 1-bit disc of radius 47.2 has 24 sides (28 under the half-pixel chord rule), every vertex within a pixel of the circle', () => {
    // 24: the straight runs as the paper defines them, chords within 0.7 px of the skipped corners.
    // A chord limit of 0.6 px gives 25 sides, 0.8 px 22; straight runs within 0.9 px instead of 1 give 34.
    const inside = disc(70.3, 69.6, 47.2);
    const straightRun = shapePolygon(140, 140, inside, 'straightRun');
    const chord = shapePolygon(140, 140, inside, 'chord');
    expect([straightRun.length / 2, chord.length / 2]).toEqual([24, 28]);
    for (let k = 0; k < straightRun.length; k += 2) expect(Math.abs(Math.hypot(straightRun[k]! - 70.3, straightRun[k + 1]! - 69.6) - 47.2)).toBeLessThan(1);
  });

  it('an axis-aligned rectangle and a tilted one keep their corners, with no more sides than under the chord rule', () => {
    const rectangle: Inside = (x, y) => x > 20 && x < 170 && y > 30 && y < 120;
    const polygon = shapePolygon(200, 160, rectangle, 'straightRun');
    // Every vertex on the rectangle's border, and a vertex at each corner.
    for (let k = 0; k < polygon.length; k += 2) {
      const [x, y] = [polygon[k]!, polygon[k + 1]!];
      expect(Math.min(Math.abs(x - 20), Math.abs(x - 170), Math.abs(y - 30), Math.abs(y - 120))).toBeLessThan(0.01);
    }
    for (const [cx, cy] of [[20, 30], [170, 30], [170, 120], [20, 120]] as const) {
      let nearest = Infinity;
      for (let k = 0; k < polygon.length; k += 2) nearest = Math.min(nearest, Math.hypot(polygon[k]! - cx, polygon[k + 1]! - cy));
      expect(nearest).toBeLessThan(0.5);
    }
    const tilted: Inside = (x, y) => {
      const u = (x - 100) * Math.cos(0.3) + (y - 100) * Math.sin(0.3);
      const v = -(x - 100) * Math.sin(0.3) + (y - 100) * Math.cos(0.3);
      return Math.abs(u) < 60 && Math.abs(v) < 30;
    };
    expect(shapePolygon(200, 200, tilted, 'straightRun').length).toBeLessThan(shapePolygon(200, 200, tilted, 'chord').length);
  });

  it('a 1-bit circle stays a circle (arcs), and without circle detection a few curves within half a pixel, no corner', () => {
    const image = drawBilevel(140, 140, disc(70.3, 69.6, 47.2));
    const [withShapes] = blackChains(traceImage(image, AUTO));
    expect(kindsOf(withShapes!).arc).toBeGreaterThan(0);
    const [outline] = blackChains(traceImage(image, { ...AUTO, parameterizedShapes: NO_ROUND_SHAPES }));
    const kinds = kindsOf(outline!);
    expect(kinds.line).toBe(0);
    expect(kinds.cubic).toBeLessThanOrEqual(6);
    for (const [x, y] of sampleChain(outline!)) expect(Math.abs(Math.hypot(x - 70.3, y - 69.6) - 47.2)).toBeLessThan(0.5);
  });

  it('a wobbly 1-bit blob takes fewer curves than under the default, and renders as drawn', () => {
    const blob: Inside = (x, y) => {
      const t = Math.atan2(y - 70, x - 80);
      return Math.hypot(x - 80, y - 70) < 45 + 12 * Math.sin(3 * t) + 5 * Math.cos(5 * t);
    };
    const image = drawBilevel(160, 140, blob);
    const auto = traceImage(image, AUTO);
    const byDefault = traceImage(image, DEFAULT_ENGINE_PARAMS);
    const count = (result: TraceResult): number => blackChains(result).reduce((sum, chain) => sum + chain.segments.length, 0);
    expect(count(auto)).toBeLessThan(count(byDefault));
    const rendered = renderSvgWithResvg(writeSvg(auto), image.width);
    let wrong = 0;
    for (let i = 0; i < image.width * image.height; i++) if (Math.abs(rendered.data[i * 4]! - image.data[i * 4]!) > 127) wrong++;
    expect(wrong / (image.width * image.height)).toBeLessThan(0.004);
  });

  it('a one-pixel diagonal stroke and a one-pixel spike keep their ink', () => {
    const kept = thinInkKept(AUTO);
    expect(kept.profile).toBe('lineart');
    expect(kept.strokeInk).toBeGreaterThan(0.5);
    expect(kept.spikeInk).toBeGreaterThan(0.4);
  });
});
