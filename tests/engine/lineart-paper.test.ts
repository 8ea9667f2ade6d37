/**
 * Line art on one paper (tracelab.strokes=auto, src/engine/primitives/paper.ts): a 1-bit drawing
 * (tests/helpers/line-drawing.ts: an eccentric ring with a dot in its counter, a block letter "B"
 * with two counters, an "O" cut by the picture's edge) traced with strokes=auto comes back as one background
 * rectangle in the paper's colour and the ink over it, each border in one loop only, no gap
 * filler, rendering as the drawing did; without the extension (and on transparent paper) as before.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams, RgbaImage, TraceResult } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { outputOptions, type OutputOptions } from '../../src/formats/types.js';
import { renderSvgWithResvg } from '../helpers/compare.js';
import { ringsAndLetters } from '../helpers/line-drawing.js';

const AUTO: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' };

/** How often each border of ink (a chain with an ink region on one side) is used by the shapes' loops (outer and holes). */
function inkBorderUses(result: TraceResult): number[] {
  const uses = new Array<number>(result.chains.length).fill(0);
  for (const shape of result.shapes) for (const loop of [shape.outer, ...shape.holes]) for (const use of loop) uses[use.chain]!++;
  const ink = new Set(result.shapes.filter((s) => s.color.r === 0).map((s) => s.region));
  return uses.filter((_, c) => ink.has(result.chains[c]!.leftRegion) || ink.has(result.chains[c]!.rightRegion));
}

/**
 * The SVG rendered at the drawing's size against the drawing: mean |Δ| of the red channel (0–255)
 * and the share of pixels off by more than half. Measured 1.81 (potrace 1.16 on the same pixels:
 * 1.74) and under 0.5 % (the edges' anti-aliasing against 1-bit pixels); a counter filled with ink (a
 * B's: 572 px) is 1.6 % alone.
 */
function renderedDiff(image: RgbaImage, result: TraceResult, groupBy: OutputOptions['groupBy'] = 'none'): { mean: number; wrong: number } {
  const rendered = renderSvgWithResvg(writeSvg(result, outputOptions({ groupBy })), image.width);
  let sum = 0;
  let wrong = 0;
  for (let i = 0; i < image.width * image.height; i++) {
    const d = Math.abs(rendered.data[i * 4]! - image.data[i * 4]!);
    sum += d;
    if (d > 127) wrong++;
  }
  return { mean: sum / (image.width * image.height), wrong: wrong / (image.width * image.height) };
}

function expectRendersAsDrawn(image: RgbaImage, result: TraceResult, groupBy: OutputOptions['groupBy'] = 'none'): void {
  const { mean, wrong } = renderedDiff(image, result, groupBy);
  expect(mean).toBeLessThan(1.9);
  expect(wrong).toBeLessThan(0.005);
}

describe('tracelab.strokes=auto: two-tone line art is ink on one paper', () => {
  const image = ringsAndLetters();

  it('one background rectangle, then the ink with every hole, each border in one loop', () => {
    const result = traceImage(image, AUTO);
    expect(result.stats.profile).toBe('lineart');
    expect(result.strokes ?? []).toHaveLength(0);
    const [paper, ...ink] = result.shapes;
    expect(paper!.color).toMatchObject({ r: 255, g: 255, b: 255 });
    expect(paper!.holes).toHaveLength(0);
    const frame = result.chains[paper!.outer[0]!.chain]!;
    expect([paper!.outer.length, frame.startX, frame.startY, [...frame.segments].map((s) => [s.kind, s.x, s.y])]).toEqual([
      1, 0, 0, [['line', 0, 150], ['line', 240, 150], ['line', 240, 0], ['line', 0, 0]],
    ]);
    // The ring (1 counter), the dot, the B (2 counters), the O (1 counter): 4 ink shapes, 8 loops.
    expect(ink.map((s) => s.color.r)).toEqual([0, 0, 0, 0]);
    expect(ink.map((s) => s.holes.length).sort()).toEqual([0, 1, 1, 2]);
    // Each border once: every border of ink in exactly one loop (9 chains here: the O's outline is two, its ink and the picture's edge).
    expect(inkBorderUses(result)).toEqual(new Array(9).fill(1));
    // The dot lies in the ring's counter: its parent is the ring; the others lie on the paper.
    const ring = ink.find((s) => s.holes.length === 1 && s.areaPx > 3000)!;
    const dot = ink.find((s) => s.holes.length === 0)!;
    expect(dot.parent).toBe(ring.region);
    expect(ring.parent).toBe(paper!.region);
  });

  it('the SVG: one paper fill, the ink, no gap filler, and it renders as the drawing', () => {
    const result = traceImage(image, AUTO);
    const svg = writeSvg(result, outputOptions({}));
    expect(svg).not.toContain('stroke=');
    expect(svg.match(/fill="#fff"/g)).toHaveLength(1);
    // Sub-paths: the paper (a rect) and 8 ink loops, the dot a <circle>.
    const pathData = [...svg.matchAll(/ d="([^"]*)"/g)].map((m) => m[1]!).join('');
    const subpaths = (pathData.match(/[Mm]/g) ?? []).length + (svg.match(/<(circle|ellipse|rect)/g) ?? []).length;
    expect(subpaths).toBe(9);
    expectRendersAsDrawn(image, result);
    // The default trace of the same drawing writes each border twice: the paper's counters are shapes.
    const byDefault = traceImage(image, DEFAULT_ENGINE_PARAMS);
    expect(inkBorderUses(byDefault).filter((n) => n === 2)).toHaveLength(8);
    expect(byDefault.shapes.filter((s) => s.color.r === 255).length).toBeGreaterThan(1);
  });

  it('stacked output keeps the ink holes too (the paper shows through them); every group_by paints the paper first', () => {
    const result = traceImage(image, { ...AUTO, shapeStacking: 'stacked' });
    expect(result.shapes.slice(1).map((s) => s.holes.length).sort()).toEqual([0, 1, 1, 2]);
    expect(inkBorderUses(result)).toEqual(new Array(9).fill(1));
    for (const groupBy of ['none', 'color', 'parent', 'layer'] as const) {
      expectRendersAsDrawn(image, result, groupBy);
      expectRendersAsDrawn(image, traceImage(image, AUTO), groupBy);
    }
  });

  it('ink on transparent paper: no paper shape at all, the holes show through', () => {
    const clear = ringsAndLetters([0, 0, 0, 0]);
    const result = traceImage(clear, AUTO);
    expect(result.shapes.every((s) => s.color.r === 0)).toBe(true);
    expect(result.shapes.map((s) => s.holes.length).sort()).toEqual([0, 1, 1, 2]);
  });
});
