/** Raster comparison for tests: mean absolute RGB difference (0–255) after flattening on white. */
import { Resvg } from '@resvg/resvg-js';
import type { RgbaImage } from '../../src/engine/types.js';

export function meanAbsDiff(a: RgbaImage, b: RgbaImage): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error(`size mismatch ${a.width}×${a.height} vs ${b.width}×${b.height}`);
  let sum = 0;
  for (let i = 0; i < a.width * a.height; i++) {
    for (let c = 0; c < 3; c++) sum += Math.abs(onWhite(a, i, c) - onWhite(b, i, c));
  }
  return sum / (a.width * a.height * 3);
}

function onWhite(img: RgbaImage, i: number, c: number): number {
  const alpha = img.data[i * 4 + 3]! / 255;
  return img.data[i * 4 + c]! * alpha + 255 * (1 - alpha);
}

export function renderSvgWithResvg(svg: string, width: number): RgbaImage {
  const rendered = new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: 'white' }).render();
  return { width: rendered.width, height: rendered.height, data: new Uint8Array(rendered.pixels) };
}
