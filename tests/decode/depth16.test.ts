/**
 * Issue 41 item 10: a 16-bit file traces exactly like its 8-bit copy, the copy made as image readers
 * make it (each sample rounded: v8 = round(v16 × 255 / 65535)).
 */
import { describe, expect, it } from 'vitest';

import { planVectorize, runVectorize } from '../../src/api/pipeline.js';
import { decodeImage } from '../../src/decode/index.js';
import { buildPng, buildTiff } from './build.js';

const SIZE = 48;

/** A red→blue 16-bit gradient with a white disc: RGB samples, 3 per pixel. */
function gradientWithDisc16(): number[] {
  const samples: number[] = [];
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const inDisc = (x - 24) ** 2 + (y - 24) ** 2 <= 12 ** 2;
      const t = Math.round((65535 * y) / (SIZE - 1));
      samples.push(...(inDisc ? [65535, 65535, 65535] : [65535 - t, 0, t]));
    }
  }
  return samples;
}

const to8 = (samples: number[]) => samples.map((v) => Math.round((v * 255) / 65535));

async function svgOf(bytes: Uint8Array): Promise<string> {
  return new TextDecoder().decode((await runVectorize(planVectorize([]), bytes)).body);
}

describe('16-bit samples are rounded to 8 bits', () => {
  const wide = gradientWithDisc16();
  // The gradient's levels fall between 8-bit levels: truncating and rounding differ on about half of them.
  it('the picture is one where truncating would differ', () => {
    expect(wide.filter((v) => v >> 8 !== Math.round((v * 255) / 65535)).length).toBeGreaterThan(SIZE * SIZE * 0.3);
  });

  it('a 16-bit PNG decodes and traces byte-identically to its 8-bit copy', async () => {
    const png16 = buildPng({ width: SIZE, height: SIZE, colorType: 2, depth: 16, samples: wide });
    const png8 = buildPng({ width: SIZE, height: SIZE, colorType: 2, depth: 8, samples: to8(wide) });
    expect(Array.from((await decodeImage(png16)).data)).toEqual(Array.from((await decodeImage(png8)).data));
    expect(await svgOf(png16)).toBe(await svgOf(png8));
  });

  it('a 16-bit TIFF (RGB, and grey with alpha) decodes and traces byte-identically to its 8-bit copy', async () => {
    const tiff16 = buildTiff({ width: SIZE, height: SIZE, depth: 16, photometric: 2, channels: 3, samples: wide });
    const tiff8 = buildTiff({ width: SIZE, height: SIZE, depth: 8, photometric: 2, channels: 3, samples: to8(wide) });
    const png8 = buildPng({ width: SIZE, height: SIZE, colorType: 2, depth: 8, samples: to8(wide) });
    const rgba8 = Array.from((await decodeImage(png8)).data);
    expect(Array.from((await decodeImage(tiff8)).data)).toEqual(rgba8);
    expect(Array.from((await decodeImage(tiff16)).data)).toEqual(rgba8);
    expect(await svgOf(tiff16)).toBe(await svgOf(tiff8));

    const greyAlpha = wide.filter((_, i) => i % 3 !== 1); // red as grey, blue as alpha
    const grey16 = buildTiff({ width: SIZE, height: SIZE, depth: 16, photometric: 1, channels: 2, samples: greyAlpha });
    const grey8 = buildTiff({ width: SIZE, height: SIZE, depth: 8, photometric: 1, channels: 2, samples: to8(greyAlpha) });
    expect(Array.from((await decodeImage(grey16)).data)).toEqual(Array.from((await decodeImage(grey8)).data));
  });
});
