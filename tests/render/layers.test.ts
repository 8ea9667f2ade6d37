/**
 * tracelab.layers' translucent layer in the formats, read by the real readers: a white highlight
 * at 40 % over a red | blue background comes back as one shape of alpha 0.4 over the two halves.
 * SVG (resvg), PNG (our decoder), PDF (an ExtGState /ca, pdftoppm) draw the highlight over each
 * half as the input has it; EPS has no alpha and composites the layer over white (docs/layers.md).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { planVectorize, runVectorize } from '../../src/api/pipeline.js';
import type { RgbaImage } from '../../src/engine/types.js';
import { renderSvgWithResvg } from '../helpers/compare.js';
import { encodePng } from '../helpers/encode.js';
import { decodePngRgba, renderEpsWithGhostscript, renderPdfWithPoppler, WorkDir } from '../helpers/readers.js';

const W = 160;
const H = 120;
const RED = [200, 60, 50];
const BLUE = [40, 70, 160];
const ALPHA = 0.4;
const inHighlight = (x: number, y: number) => ((x - 80) / 50) ** 2 + ((y - 60) / 25) ** 2 <= 1;

function drawHighlight(): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  const n = 4;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const px = x + (sx + 0.5) / n;
          const py = y + (sy + 0.5) / n;
          let c = px >= 80 ? BLUE : RED;
          if (inHighlight(px, py)) c = c.map((v) => 255 * ALPHA + v * (1 - ALPHA));
          for (let k = 0; k < 3; k++) sum[k]! += c[k]!;
        }
      }
      const o = (y * W + x) * 4;
      for (let k = 0; k < 3; k++) data[o + k] = Math.round(sum[k]! / (n * n));
      data[o + 3] = 255;
    }
  }
  return { width: W, height: H, data };
}

const over = (c: number[]) => c.map((v) => Math.round(255 * ALPHA + v * (1 - ALPHA)));
/** Points (input px) and the colour the input has there. */
const PROBES: [string, { x: number; y: number }, number[]][] = [
  ['highlight over red', { x: 60, y: 60 }, over(RED)],
  ['highlight over blue', { x: 100, y: 60 }, over(BLUE)],
  ['red', { x: 10, y: 10 }, RED],
  ['blue', { x: 150, y: 110 }, BLUE],
];

const dir = new WorkDir();
afterAll(() => dir.remove());

async function write(format: string, more: [string, string][] = []): Promise<Uint8Array> {
  const plan = planVectorize([['output.file_format', format], ['output.shape_stacking', 'stacked'], ['tracelab.layers', 'true'], ...more]);
  return (await runVectorize(plan, encodePng(drawHighlight()))).body;
}

function pixel(img: RgbaImage, at: { x: number; y: number }, scale: number): number[] {
  const o = (Math.floor(at.y * scale) * img.width + Math.floor(at.x * scale)) * 4;
  return Array.from(img.data.subarray(o, o + 3));
}

function expectProbes(img: RgbaImage, scale: number, tolerance: number, expected: (probe: number[]) => number[] = (c) => c): void {
  for (const [what, at, want] of PROBES) {
    const got = pixel(img, at, scale);
    got.forEach((v, k) => expect(Math.abs(v - expected(want)[k]!), `${what}: ${got} vs ${expected(want)}`).toBeLessThanOrEqual(tolerance));
  }
}

describe('a translucent layer in every format', () => {
  it('SVG: one path with fill-opacity 0.4 over the two halves; resvg draws the input', async () => {
    const svg = new TextDecoder().decode(await write('svg'));
    expect(svg.match(/fill-opacity="[\d.]+"/g)).toEqual(['fill-opacity="0.4"']);
    expectProbes(renderSvgWithResvg(svg, W), 1, 2);
  });

  it('PNG: the highlight blended over each half', async () => {
    const img = decodePngRgba(await write('png'));
    expectProbes(img, img.width / W, 2);
  });

  it('PDF: an ExtGState /ca 0.4; pdftoppm blends it over each half', async () => {
    const pdf = await write('pdf', [['output.pdf.compression_mode', 'None']]);
    expect(Buffer.from(pdf).toString('latin1')).toMatch(/\/ca 0\.4\b/);
    const { run, image } = await renderPdfWithPoppler(dir, pdf, 72 * 4);
    expect(run.status, run.stderr).toBe(0);
    expectProbes(image!, 4, 3);
  });

  it('EPS: no alpha in PostScript, the layer is composited over white (what lies under it is lost)', async () => {
    const { run, image } = await renderEpsWithGhostscript(dir, await write('eps'), 72 * 4);
    expect(run.status, run.stderr).toBe(0);
    const img = image!;
    for (const [what, at, want] of PROBES.slice(2)) pixel(img, at, 4).forEach((v, k) => expect(Math.abs(v - want[k]!), what).toBeLessThanOrEqual(3));
    const white = over([255, 255, 255]);
    for (const [what, at] of PROBES.slice(0, 2)) pixel(img, at, 4).forEach((v, k) => expect(Math.abs(v - white[k]!), what).toBeLessThanOrEqual(3));
  });
});
