import { describe, expect, it } from 'vitest';
import { planVectorize, runVectorize } from '../../src/api/pipeline.js';
import { encodePng } from '../helpers/encode.js';
import { drawCells } from '../helpers/raster.js';

describe('planVectorize', () => {
  it('refuses what it does not honour (colour profiles) and contradictions, naming the field', () => {
    for (const [fields, text] of [
      [[['processing.color_profile.input', 'preserve']], 'not implement'],
      [[['output.size.scale', '0']], 'output.size.scale must be greater than 0'],
      [[['output.gap_filler.clip', 'true'], ['output.svg.version', 'svg_tiny_1_2']], 'output.gap_filler.clip'],
    ] as const) {
      expect(() => planVectorize(fields)).toThrow(expect.objectContaining({ code: 1019, message: expect.stringContaining(text) }));
    }
  });

  it('accepts every output format and output option', () => {
    for (const [name, value] of [
      ['output.draw_style', 'stroke_edges'],
      ['output.group_by', 'color'],
      ['output.gap_filler.clip', 'true'],
      ['output.svg.adobe_compatibility_mode', 'true'],
      ['output.curves.allowed.cubic_bezier', 'false'],
      ['output.size.scale', '2'],
      ['output.file_format', 'pdf'],
      ['output.file_format', 'dxf'],
    ] as const) {
      expect(() => planVectorize([[name, value]])).not.toThrow();
    }
  });

  it('accepts the options it honours', () => {
    const plan = planVectorize([
      ['processing.max_colors', '4'],
      ['output.shape_stacking', 'stacked'],
      ['output.gap_filler.enabled', 'false'],
      ['output.svg.version', 'svg_tiny_1_2'],
      ['output.svg.fixed_size', 'true'],
    ]);
    expect(plan.engineParams.maxColors).toBe(4);
    expect(plan.outputOptions.svg.fixedSize).toBe(true);
  });
});

describe('runVectorize', () => {
  it('writes the SVG options into the file', async () => {
    const png = encodePng(drawCells([[0, 1], [1, 0]], [[255, 255, 255], [20, 20, 200]], 8));
    const plan = planVectorize([
      ['output.svg.version', 'svg_tiny_1_2'],
      ['output.svg.fixed_size', 'true'],
    ]);
    const svg = new TextDecoder().decode((await runVectorize(plan, png)).body);
    expect(svg).toContain('version="1.2" baseProfile="tiny"');
    expect(svg).toContain('width="16" height="16"');
  });

  it('rejects an empty input with 1006', async () => {
    await expect(runVectorize(planVectorize([]), new Uint8Array(0))).rejects.toMatchObject({ code: 1006 });
  });
});
