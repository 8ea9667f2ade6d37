/**
 * `npx tracelab vectorize` end to end on every input format: the CLI (as users run it) turns a
 * PNG, JPEG, WebP, GIF and BMP made here into an SVG that resvg and Chromium both render close
 * to the input.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, renderSvgInChromium } from '../helpers/chromium.js';
import { meanAbsDiff, renderSvgWithResvg } from '../helpers/compare.js';
import { encodeBmp, encodeGif, encodeJpeg, encodePng, encodeWebp } from '../helpers/encode.js';
import { disc, drawCells, rect } from '../helpers/raster.js';
import type { RgbaImage } from '../../src/engine/types.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'tracelab-formats-'));

/** Flat colours with hard edges (GIF-friendly), scaled so shapes are many pixels wide. */
function fixture(): RgbaImage {
  const base = drawCells(
    [
      [0, 0, 0, 0, 0, 0],
      [0, 1, 1, 0, 2, 0],
      [0, 1, 1, 0, 2, 0],
      [0, 0, 0, 0, 0, 0],
      [0, 3, 3, 3, 3, 0],
      [0, 0, 0, 0, 0, 0],
    ],
    [[255, 255, 255], [210, 40, 40], [40, 90, 200], [30, 150, 70]],
    16,
  );
  const data = base.data as Uint8Array;
  // A round shape too, hard-edged.
  for (let y = 0; y < base.height; y++) {
    for (let x = 0; x < base.width; x++) {
      if (disc(72, 24, 9)(x + 0.5, y + 0.5) && !rect(64, 16, 80, 32)(0, 0)) data.set([240, 170, 20, 255], (y * base.width + x) * 4);
    }
  }
  return base;
}

let browser: Browser;
beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], { cwd: ROOT, stdio: 'pipe' });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

const image = fixture();
const formats: [string, () => Promise<Uint8Array> | Uint8Array, number][] = [
  ['png', () => encodePng(image), 6],
  ['jpeg', () => encodeJpeg(image, 95), 9],
  ['webp', () => encodeWebp(image), 6],
  ['gif', () => encodeGif(image), 6],
  ['bmp', () => encodeBmp(image), 6],
];

describe('tracelab vectorize on each input format', () => {
  for (const [name, encode, tolerance] of formats) {
    it(`traces a ${name} file to an SVG that resvg and Chromium render like the input`, async () => {
      // The file name says nothing: the format is sniffed from the bytes.
      const input = join(dir, `input-${name}.bin`);
      const output = join(dir, `out-${name}.svg`);
      writeFileSync(input, await encode());
      const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'tracelab.js'), 'vectorize', input, '-o', output], { cwd: ROOT, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const svg = readFileSync(output, 'utf8');
      expect(svg.startsWith('<?xml')).toBe(true);
      expect(svg).toContain(`viewBox="0 0 ${image.width} ${image.height}"`);
      expect(meanAbsDiff(image, renderSvgWithResvg(svg, image.width))).toBeLessThan(tolerance);
      expect(meanAbsDiff(image, await renderSvgInChromium(browser, svg, image.width, image.height))).toBeLessThan(tolerance);
    }, 60_000);
  }
});
