/**
 * 1-bit line-art fixtures shared by the line-art tests: a drawing thresholded at pixel centres,
 * and the "thin ink" picture (a one-pixel diagonal stroke and a one-pixel spike on a block) with
 * how much of its ink a trace's render keeps.
 */
import { traceImage } from '../../src/engine/index.js';
import type { EngineParams, RgbaImage } from '../../src/engine/types.js';
import { writeSvg } from '../../src/formats/svg.js';
import { renderSvgWithResvg } from './compare.js';

export type Inside = (x: number, y: number) => boolean;

/** Black where `inside` holds at the pixel centre, white elsewhere. */
export function drawBilevel(width: number, height: number, inside: Inside): RgbaImage {
  const data = new Uint8Array(width * height * 4).fill(255);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!inside(x + 0.5, y + 0.5)) continue;
      const o = (y * width + x) * 4;
      data[o] = data[o + 1] = data[o + 2] = 0;
    }
  }
  return { width, height, data };
}

/**
 * A one-pixel diagonal stroke and a 6 × 6 block with a one-pixel spike 3 px tall on its top (a
 * small "d" stem), traced with `params` and rendered: the profile, the stroke pixels' mean ink
 * at their centres and the ink at the spike's middle (0 white … 1 black).
 */
export function thinInkKept(params: EngineParams): { profile: string; strokeInk: number; spikeInk: number } {
  const stroke: Inside = (x, y) => Math.floor(x) === Math.floor(y) + 10 && y > 5 && y < 90;
  const spike: Inside = (x, y) => (x >= 120 && x < 126 && y >= 50 && y < 56) || (Math.floor(x) === 125 && y >= 47 && y < 50);
  const image = drawBilevel(180, 100, (x, y) => stroke(x, y) || spike(x, y));
  const result = traceImage(image, params);
  const rendered = renderSvgWithResvg(writeSvg(result), image.width);
  const inkAt = (x: number, y: number): number => 1 - rendered.data[(y * image.width + x) * 4]! / 255;
  let strokeInk = 0;
  for (let y = 6; y < 90; y++) strokeInk += inkAt(y + 10, y);
  return { profile: result.stats.profile, strokeInk: strokeInk / 84, spikeInk: inkAt(125, 48) };
}
