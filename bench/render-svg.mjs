// An SVG rendered by resvg over white at a given width, cropped or padded (white) to width ×
// height: what the stroke benches compare with the input (bench/strokes-auto.mjs,
// bench/strokes-centerline.mjs).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Resvg } = require('@resvg/resvg-js');

export function renderOverWhite(svg, width, height) {
  const r = new Resvg(svg, { fitTo: { mode: 'width', value: width }, background: 'white' }).render();
  const out = new Uint8ClampedArray(width * height * 4).fill(255);
  const pixels = r.pixels;
  for (let y = 0; y < Math.min(height, r.height); y++) out.set(pixels.subarray(y * r.width * 4, (y * r.width + Math.min(width, r.width)) * 4), y * width * 4);
  return { width, height, data: out };
}
