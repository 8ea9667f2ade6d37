/**
 * The plot preview (src/formats/plot-preview.ts) of pen strokes: the playground's outline mode for
 * a result of tracelab.strokes=centerline. Checked as XML and as resvg draws it.
 */
import { describe, expect, it } from 'vitest';

import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import { plotPreviewSvg } from '../../src/formats/plot-preview.js';
import { drawShape } from '../helpers/raster.js';
import { parseXmlFiles, renderSvgResvg, WorkDir } from '../helpers/readers.js';

/** Three 12-px dashes in a row, 3 px wide, 28 px apart: two pen-up moves between them. */
const dashes = (x: number, y: number): boolean => Math.abs(y - 30) <= 1.5 && x >= 10 && x <= 110 && Math.floor((x - 10) / 20) % 2 === 0 && (x - 10) % 20 <= 12;

describe('plot preview', () => {
  const result = traceImage(drawShape(120, 60, [255, 255, 255], [{ color: [0, 0, 0], inside: dashes }]), { ...DEFAULT_ENGINE_PARAMS, strokes: 'centerline' });

  it('draws each stroke 1 px wide (non-scaling) and one faint dashed move between consecutive strokes', () => {
    expect(result.strokes).toHaveLength(3);
    const svg = plotPreviewSvg(result);
    expect(svg).toMatch(/<g id="pen-000000" fill="none" stroke="#000" stroke-width="1" stroke-linecap="round" stroke-linejoin="round">/);
    const moves = /<path id="pen-up" fill="none" stroke="#d0f" stroke-opacity="0.5" stroke-width="1" stroke-dasharray="3 3" vector-effect="non-scaling-stroke" d="([^"]*)"\/>/.exec(svg);
    expect(moves).not.toBeNull();
    // Left to right: the pen lifts twice, once per gap.
    expect(moves![1]!.match(/M/g)).toHaveLength(2);
    const dir = new WorkDir();
    const { reads } = parseXmlFiles([dir.file('svg', svg)]);
    dir.remove();
    expect(reads[0]!.error).toBe('');
    const image = renderSvgResvg(svg);
    // A thin line on the dash (row 30), the faint magenta move in a gap.
    const at = (x: number, y: number): number[] => [...image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3)];
    expect(at(15, 30)[0]).toBeLessThan(128);
    expect(at(15, 27)).toEqual([255, 255, 255]);
    const gap = at(26, 30);
    expect(gap[1]!).toBeLessThan(gap[0]!);
  });
});
