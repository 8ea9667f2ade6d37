import { describe, expect, it } from 'vitest';
import { planVectorize, runVectorize } from '../../src/api/pipeline.js';
import { encodeBmp, encodePng } from '../helpers/encode.js';
import { drawCells } from '../helpers/raster.js';

describe('planVectorize', () => {
  it('refuses a value no file can be made from, naming the field', () => {
    expect(() => planVectorize([['output.size.scale', '0']])).toThrow(
      expect.objectContaining({ code: 1019, message: expect.stringContaining('output.size.scale must be greater than 0') }),
    );
  });

  it('accepts every documented value: colour profiles, a clipped gap filler in SVG Tiny 1.2 (issue 41)', () => {
    for (const fields of [
      [['processing.color_profile.input', 'preserve']],
      [['processing.color_profile.output', 'preserve']],
      [['processing.color_profile.input', 'preserve'], ['processing.color_profile.output', 'preserve']],
      [['output.gap_filler.clip', 'true'], ['output.svg.version', 'svg_tiny_1_2']],
    ] as const) {
      expect(() => planVectorize(fields)).not.toThrow();
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

  it("the file's own resolution sets the natural PDF page size; output.size.input_dpi overrides it", async () => {
    const bmp = encodeBmp(drawCells([[0, 1], [1, 0]], [[255, 255, 255], [20, 20, 200]], 36)); // 72 × 72 px
    new DataView(bmp.buffer).setInt32(38, 5669, true); // 144 dpi in pixels per metre
    new DataView(bmp.buffer).setInt32(42, 5669, true);
    const mediaBox = async (fields: [string, string][]): Promise<string> => {
      const pdf = new TextDecoder('latin1').decode((await runVectorize(planVectorize([['output.file_format', 'pdf'], ['output.pdf.compression_mode', 'None'], ...fields]), bmp)).body);
      return /\/MediaBox \[([^\]]*)\]/.exec(pdf)![1]!.trim();
    };
    expect(await mediaBox([])).toBe('0 0 36 36'); // 72 px at 144 dpi = half an inch
    expect(await mediaBox([['output.size.input_dpi', '72']])).toBe('0 0 72 72');
    expect(await mediaBox([['output.size.width', '2'], ['output.size.unit', 'in']])).toBe('0 0 144 144');
  });

  it('rejects an empty input with 1006', async () => {
    await expect(runVectorize(planVectorize([]), new Uint8Array(0))).rejects.toMatchObject({ code: 1006 });
  });
});
