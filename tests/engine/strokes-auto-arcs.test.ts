/**
 * tracelab.strokes=auto writes a wide pen line's round parts as circular arcs (src/engine/fit/arcs.ts
 * through line-fit.ts's wide-line fit): a hairpin drawn with a 16-px pen — two straight runs joined
 * by a half circle, a link icon's half — is one stroke at the pen's width, written as a line, arcs
 * of the half circle's radius and a line (a half circle is two arcs: one arc's centre would move
 * with its radius's rounding), and rendered it is the picture.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { EngineParams } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { outputOptions } from '../../src/formats/types.js';
import { meanAbsDiff, renderSvgWithResvg } from '../helpers/compare.js';
import { drawShape } from '../helpers/raster.js';

const SIZE = 240;
const PEN = 16;
const RADIUS = 40;

/** Distance to the hairpin's centre-line: y = 80 and y = 160 from x = 40 to 150, a half circle about (150, 120) on the right. */
function hairpinDistance(x: number, y: number): number {
  if (x <= 150) return Math.min(Math.hypot(Math.max(0, 40 - x), y - 80), Math.hypot(Math.max(0, 40 - x), y - 160));
  return Math.abs(Math.hypot(x - 150, y - 120) - RADIUS);
}

const AUTO: EngineParams = { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' };

describe('tracelab.strokes=auto: round parts of a wide pen line as arcs', () => {
  const image = drawShape(SIZE, SIZE, [255, 255, 255], [{ color: [0, 0, 0], inside: (x, y) => hairpinDistance(x, y) <= PEN / 2 }]);

  it('a hairpin is one stroke at the pen width: a line, two arcs of its radius, a line', () => {
    const result = traceImage(image, AUTO);
    expect(result.strokes).toHaveLength(1);
    expect(Math.abs(result.strokes![0]!.widthPx - PEN) / PEN).toBeLessThanOrEqual(0.05);
    const svg = writeSvg(result, outputOptions({}));
    const d = /<g id="pen-[^"]*"[^>]*>\n<path d="([^"]*)"/.exec(svg)![1]!;
    const commands = d.replace(/[^a-zA-Z]/g, '');
    expect(commands.replace(/^m/, '')).toMatch(/^[lhv]a[lhv]$/);
    const arcs = /a([^a-zA-Z]*)/.exec(d)![1]!.match(/-?[\d.]+(?:e-?\d+)?|-?\.\d+/g)!.map(Number);
    expect(arcs.length).toBe(14);
    expect(Math.abs(arcs[0]! - RADIUS)).toBeLessThan(0.5);
    expect(Math.abs(arcs[7]! - RADIUS) / RADIUS).toBeLessThan(0.05);
  });

  it('rendered, it is the picture as closely as the default trace', () => {
    const withArcs = meanAbsDiff(renderSvgWithResvg(writeSvg(traceImage(image, AUTO), outputOptions({})), SIZE), image);
    const fills = meanAbsDiff(renderSvgWithResvg(writeSvg(traceImage(image, DEFAULT_ENGINE_PARAMS), outputOptions({})), SIZE), image);
    expect(withArcs).toBeLessThanOrEqual(fills + 0.05);
    expect(withArcs).toBeLessThan(0.5);
  });
});
