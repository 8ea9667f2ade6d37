/**
 * Line art on one paper (tracelab.strokes=auto: a background rectangle, the ink over it with its
 * holes, each border once) in every format, read by the real readers: poppler (PDF), Ghostscript
 * (EPS), ezdxf (DXF, its loops filled even-odd per colour as a CAD fill would), fast-png (our
 * PNG). Each must look like the 1-bit drawing it was traced from (tests/helpers/line-drawing.ts):
 * a counter drawn wrong (filled with ink, or the paper missing) is 572–1,500 px of the 36,000.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_PARAMS, traceImage } from '../../src/engine/index.js';
import type { RgbaImage } from '../../src/engine/types.js';
import { writeDxf } from '../../src/formats/dxf.js';
import { writeEpsBytes } from '../../src/formats/eps.js';
import { writePdf } from '../../src/formats/pdf.js';
import { buildPlan } from '../../src/formats/plan.js';
import { writePlanPng } from '../../src/formats/png.js';
import { outputOptions } from '../../src/formats/types.js';
import { ringsAndLetters } from '../helpers/line-drawing.js';
import { decodePngRgba, rasterizeDxf, readDxfFiles, renderEpsWithGhostscript, renderPdfWithPoppler, WorkDir } from '../helpers/readers.js';

const image = ringsAndLetters();
const result = traceImage(image, { ...DEFAULT_ENGINE_PARAMS, strokes: 'auto' });
const work = new WorkDir();
afterAll(() => work.remove());

/**
 * Share of the drawing's pixels whose ink the render gets wrong (render sampled at each pixel's
 * centre, k device pixels per input pixel, flattened on white; off by over half). Measured
 * 0.56 % (poppler) and 0.60 % (Ghostscript), along the curves' edges; a counter filled with ink adds 1.6 %.
 */
function wrongShare(render: RgbaImage, k: number): number {
  let wrong = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const o = (Math.floor((y + 0.5) * k) * render.width + Math.floor((x + 0.5) * k)) * 4;
      const alpha = render.data[o + 3]! / 255;
      const value = render.data[o]! * alpha + 255 * (1 - alpha);
      if (Math.abs(value - image.data[(y * image.width + x) * 4]!) > 127) wrong++;
    }
  }
  return wrong / (image.width * image.height);
}

const MAX_WRONG = 0.01;

describe('line art on one paper, read back by the real readers', () => {
  it('the trace is one background and the ink (the engine test checks the loops)', () => {
    expect(result.shapes[0]!.color).toMatchObject({ r: 255, g: 255, b: 255 });
    expect(result.shapes.slice(1).every((s) => s.color.r === 0)).toBe(true);
  });

  it('PDF (poppler) and EPS (Ghostscript) draw it as the drawing', async () => {
    const dpi = 144;
    const pdf = await renderPdfWithPoppler(work, await writePdf(buildPlan(result, outputOptions({ fileFormat: 'pdf' }))), dpi);
    expect([pdf.run.status, pdf.run.stderr]).toEqual([0, '']);
    const eps = await renderEpsWithGhostscript(work, writeEpsBytes(buildPlan(result, outputOptions({ fileFormat: 'eps' }))), dpi);
    expect([eps.run.status, eps.run.stderr]).toEqual([0, '']);
    for (const render of [pdf.image!, eps.image!]) {
      const k = render.width / image.width;
      expect(k).toBeCloseTo(2, 1);
      expect(wrongShare(render, k)).toBeLessThan(MAX_WRONG);
    }
  });

  it('PNG draws it as the drawing', () => {
    const png = decodePngRgba(writePlanPng(buildPlan(result, outputOptions({ fileFormat: 'png' }))));
    expect(wrongShare(png, png.width / image.width)).toBeLessThan(MAX_WRONG);
  });

  it('DXF (ezdxf): the paper and every ink loop as a closed entity, filled even-odd per colour as the drawing', () => {
    const plan = buildPlan(result, outputOptions({ fileFormat: 'dxf' }));
    const { run, reads } = readDxfFiles([work.file('dxf', writeDxf(plan))]);
    expect(run.status).toBe(0);
    const report = reads[0]!.report!;
    // The paper's rectangle and the 8 ink loops (ring 2, dot 1, B 3, O 2).
    expect(report.entities).toHaveLength(9);
    const k = 2;
    const render = rasterizeDxf(report, plan.page.height, k, image.width * k, image.height * k, 'colour');
    expect(wrongShare(render, k)).toBeLessThan(MAX_WRONG);
  });
});
