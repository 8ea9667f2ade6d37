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
import { disc, drawCells } from '../helpers/raster.js';
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
  // A round shape too, hard-edged, over the blue bar's top and the white beside it.
  for (let y = 0; y < base.height; y++) {
    for (let x = 0; x < base.width; x++) {
      if (DISC(x + 0.5, y + 0.5)) data.set(ORANGE, (y * base.width + x) * 4);
    }
  }
  return base;
}

const ORANGE = [240, 170, 20, 255] as const;
const DISC = disc(72, 24, 9);

/**
 * Pixels well inside the disc (1.5 px from its edge, clear of anti-aliasing) that `picture` does
 * not paint within 24 levels of orange: 0 when the round shape is there, in its colour and place.
 */
function discMisses(picture: RgbaImage): number {
  let misses = 0;
  for (let y = 0; y < picture.height; y++) {
    for (let x = 0; x < picture.width; x++) {
      if (!disc(72, 24, 7.5)(x + 0.5, y + 0.5)) continue;
      const o = (y * picture.width + x) * 4;
      if ([0, 1, 2].some((c) => Math.abs(picture.data[o + c]! - ORANGE[c]!) > 24)) misses++;
    }
  }
  return misses;
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
/**
 * Mean |ΔRGB| allowed between the input and a render: measured 0.00 for the lossless formats (the
 * picture is hard-edged pixel art, traced exactly) and 0.36 for JPEG at quality 95. A shape lost
 * costs far more (the disc alone: ≈ 3.6), and discMisses looks at the disc itself.
 */
const formats: [string, () => Promise<Uint8Array> | Uint8Array, number][] = [
  ['png', () => encodePng(image), 0.5],
  ['jpeg', () => encodeJpeg(image, 95), 1.5],
  ['webp', () => encodeWebp(image), 0.5],
  ['gif', () => encodeGif(image), 0.5],
  ['bmp', () => encodeBmp(image), 0.5],
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
      const resvg = renderSvgWithResvg(svg, image.width);
      const chromium = await renderSvgInChromium(browser, svg, image.width, image.height);
      expect(meanAbsDiff(image, resvg)).toBeLessThan(tolerance);
      expect(meanAbsDiff(image, chromium)).toBeLessThan(tolerance);
      expect(discMisses(image)).toBe(0);
      expect(discMisses(resvg), 'resvg: disc pixels not orange').toBe(0);
      expect(discMisses(chromium), 'Chromium: disc pixels not orange').toBe(0);
    }, 60_000);
  }
});
