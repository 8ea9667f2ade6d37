/**
 * Issue 41 item 4: partial transparency is kept. The fixture: a red disc at 50 % alpha (anti-aliased), half over
 * transparency and half over an opaque blue square. Where the disc lies over transparency the output must be the
 * disc's own colour at 50 % (SVG fill-opacity read by resvg, PNG alpha, PDF /ca read by pdftoppm on its white page);
 * EPS composites it over white (Ghostscript); DXF keeps the true colour with its transparency (group 440, ezdxf).
 * Where it lies over the square the picture is opaque and stays so.
 */
import { readFileSync } from 'node:fs';

import { Resvg } from '@resvg/resvg-js';
import { afterAll, describe, expect, it } from 'vitest';

import { planVectorize, runVectorize } from '../../src/api/pipeline.js';
import type { RgbaImage } from '../../src/engine/types.js';
import { encodePng } from '../helpers/encode.js';
import { decodePngRgba, readDxfFiles, renderEpsWithGhostscript, renderPdfWithPoppler, WorkDir } from '../helpers/readers.js';

const W = 96;
const H = 64;
const RED = [220, 40, 40];
const BLUE = [30, 60, 200];
const DISC = { cx: 44, cy: 32, r: 22 };
const SQUARE_X = 56;
/** 50 % of 255, as an 8-bit alpha. */
const HALF = 128;

/** The fixture, 4 × 4 supersampled: the disc's coverage times its alpha, composited over the square ("over"). */
function drawFixture(discAlpha: number): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  const n = 4;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let covered = 0;
      for (let sy = 0; sy < n; sy++) for (let sx = 0; sx < n; sx++) {
        const px = x + (sx + 0.5) / n, py = y + (sy + 0.5) / n;
        if ((px - DISC.cx) ** 2 + (py - DISC.cy) ** 2 <= DISC.r ** 2) covered++;
      }
      const a = (covered / (n * n)) * (discAlpha / 255);
      const o = (y * W + x) * 4;
      if (x >= SQUARE_X) {
        for (let c = 0; c < 3; c++) data[o + c] = Math.round(RED[c]! * a + BLUE[c]! * (1 - a));
        data[o + 3] = 255;
      } else if (a > 0) {
        for (let c = 0; c < 3; c++) data[o + c] = RED[c]!;
        data[o + 3] = Math.round(a * 255);
      }
    }
  }
  return { width: W, height: H, data };
}

/** Points (input px) and what the picture is there. */
const OVER_NOTHING = { x: 32, y: 32 };
const OVER_SQUARE = { x: 61, y: 32 };
const SQUARE_ONLY = { x: 90, y: 8 };
const EMPTY = { x: 4, y: 4 };

const dir = new WorkDir();
afterAll(() => dir.remove());

function pixel(img: RgbaImage, at: { x: number; y: number }, scale: number): number[] {
  const o = (Math.floor(at.y * scale) * img.width + Math.floor(at.x * scale)) * 4;
  return Array.from(img.data.subarray(o, o + 4));
}

function expectNear(actual: number[], expected: number[], tolerance: number, what: string): void {
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]!), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tolerance));
}

const overWhite = (c: number[], alpha: number) => c.map((v) => Math.round(v * (alpha / 255) + 255 * (1 - alpha / 255)));
const composite = RED.map((v, c) => Math.round(v * 0.5 + BLUE[c]! * 0.5));

async function write(format: string, png: Uint8Array, more: Array<[string, string]> = []): Promise<Uint8Array> {
  return (await runVectorize(planVectorize([['output.file_format', format], ...more]), png)).body;
}

describe('translucent areas keep their alpha', () => {
  const png = encodePng(drawFixture(HALF));

  it('SVG: the disc over transparency has fill-opacity 0.5, resvg draws it at 50 % over nothing', async () => {
    const svg = new TextDecoder().decode(await write('svg', png));
    expect(svg).toMatch(/fill="#dc2828" fill-opacity="0\.50?2?"/);
    const rendered = new Resvg(svg).render();
    // resvg's pixels are premultiplied: back to straight alpha.
    const img = { width: rendered.width, height: rendered.height, data: new Uint8Array(rendered.pixels) };
    for (let o = 0; o < img.data.length; o += 4) {
      const a = img.data[o + 3]!;
      for (let c = 0; c < 3; c++) if (a > 0) img.data[o + c] = Math.round((img.data[o + c]! * 255) / a);
    }
    expectNear(pixel(img, OVER_NOTHING, 1), [...RED, HALF], 2, 'over nothing');
    expectNear(pixel(img, OVER_SQUARE, 1), [...composite, 255], 3, 'over the square');
    expectNear(pixel(img, SQUARE_ONLY, 1), [...BLUE, 255], 1, 'square');
    expect(pixel(img, EMPTY, 1)[3]).toBe(0);
  });

  it('PNG: alpha 128 over nothing, opaque over the square', async () => {
    const img = decodePngRgba(await write('png', png));
    const scale = img.width / W;
    expectNear(pixel(img, OVER_NOTHING, scale), [...RED, HALF], 2, 'over nothing');
    expectNear(pixel(img, OVER_SQUARE, scale), [...composite, 255], 3, 'over the square');
    expect(pixel(img, EMPTY, scale)[3]).toBe(0);
  });

  it('PDF: an ExtGState /ca 0.502; pdftoppm blends the disc 50 % into its white page', async () => {
    const pdf = await write('pdf', png, [['output.pdf.compression_mode', 'None']]);
    expect(Buffer.from(pdf).toString('latin1')).toMatch(/\/ca 0\.502/);
    const { run, image } = await renderPdfWithPoppler(dir, pdf, 72 * 4);
    expect(run.status, run.stderr).toBe(0);
    expectNear(pixel(image!, OVER_NOTHING, 4), [...overWhite(RED, HALF), 255], 3, 'over nothing');
    expectNear(pixel(image!, OVER_SQUARE, 4), [...composite, 255], 3, 'over the square');
  });

  it('EPS: composited over white (PostScript has no alpha), as Ghostscript shows', async () => {
    const { run, image } = await renderEpsWithGhostscript(dir, await write('eps', png), 72 * 4);
    expect(run.status, run.stderr).toBe(0);
    expectNear(pixel(image!, OVER_NOTHING, 4), [...overWhite(RED, HALF), 255], 3, 'over nothing');
    expectNear(pixel(image!, OVER_SQUARE, 4), [...composite, 255], 3, 'over the square');
  });

  it('DXF: the true colour with its transparency (group 440), as ezdxf reads it', async () => {
    const file = dir.file('dxf', await write('dxf', png));
    const { run, reads } = readDxfFiles([file]);
    expect(run.status, run.stderr).toBe(0);
    const entities = reads[0]!.report!.entities as Array<{ true_color: number | null; transparency?: number | null }>;
    const red = entities.filter((e) => e.true_color === (RED[0]! << 16) + (RED[1]! << 8) + RED[2]!);
    expect(red.length).toBeGreaterThan(0);
    for (const e of red) expect(e.transparency).toBe(0x02000000 | HALF);
  });

  it('a fainter plateau (25 %), transparent before, is traced too', async () => {
    const svg = new TextDecoder().decode(await write('svg', encodePng(drawFixture(64))));
    expect(svg).toMatch(/fill="#dc2828" fill-opacity="0\.251?"/);
  });

  it('opaque pictures and anti-aliased edges over transparency are traced as before (no plateau)', async () => {
    // The disc at full alpha: only its anti-aliased rim is partly transparent.
    const svg = new TextDecoder().decode(await write('svg', encodePng(drawFixture(255))));
    expect(svg).not.toContain('opacity');
  });
});

describe('the headline logo sample (75 % opaque swirl)', () => {
  it('its swirl is written at 75 % and its letters at their own alpha', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../../public/samples/logo-debian.png', import.meta.url)));
    const svg = new TextDecoder().decode(await write('svg', bytes));
    const opacities = [...svg.matchAll(/fill-opacity="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(opacities.filter((o) => Math.abs(o - 191 / 255) < 0.005).length).toBeGreaterThan(0);
  });
});
