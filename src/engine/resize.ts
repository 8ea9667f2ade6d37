/**
 * Stage 0: shrink an input larger than `input.max_pixels`.
 * In: RGBA pixels and a pixel budget. Out: the same image scaled by one factor on both axes so
 * that width × height ≤ budget, by exact area averaging (box filter over fractional pixel
 * footprints) in premultiplied alpha, so transparent pixels do not darken edges.
 */
import type { RgbaImage } from './types.js';

export function shrinkToPixelBudget(image: RgbaImage, maxPixels: number): RgbaImage {
  const { width, height } = image;
  if (width * height <= maxPixels) return image;
  const scale = Math.sqrt(maxPixels / (width * height));
  let outW = Math.max(1, Math.floor(width * scale));
  let outH = Math.max(1, Math.floor(height * scale));
  while (outW * outH > maxPixels) {
    if (outW >= outH) outW--;
    else outH--;
  }
  const xWeights = footprints(width, outW);
  const yWeights = footprints(height, outH);
  // Horizontal pass into a float buffer (premultiplied), then vertical pass.
  const mid = new Float64Array(outW * height * 4);
  const src = image.data;
  for (let y = 0; y < height; y++) {
    for (const f of xWeights) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let k = 0; k < f.indices.length; k++) {
        const o = (y * width + f.indices[k]!) * 4;
        const w = f.weights[k]!;
        const alpha = src[o + 3]!;
        a += alpha * w;
        r += src[o]! * alpha * w;
        g += src[o + 1]! * alpha * w;
        b += src[o + 2]! * alpha * w;
      }
      const m = (y * outW + f.out) * 4;
      mid[m] = r;
      mid[m + 1] = g;
      mid[m + 2] = b;
      mid[m + 3] = a;
    }
  }
  const out = new Uint8Array(outW * outH * 4);
  for (const f of yWeights) {
    for (let x = 0; x < outW; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let k = 0; k < f.indices.length; k++) {
        const m = (f.indices[k]! * outW + x) * 4;
        const w = f.weights[k]!;
        r += mid[m]! * w;
        g += mid[m + 1]! * w;
        b += mid[m + 2]! * w;
        a += mid[m + 3]! * w;
      }
      const o = (f.out * outW + x) * 4;
      out[o + 3] = Math.round(a);
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
      }
    }
  }
  return { width: outW, height: outH, data: out };
}

interface Footprint {
  readonly out: number;
  readonly indices: number[];
  readonly weights: number[];
}

/** For each output pixel, the input pixels it covers and their weights (summing to 1). */
function footprints(inSize: number, outSize: number): Footprint[] {
  const ratio = inSize / outSize;
  const result: Footprint[] = [];
  for (let o = 0; o < outSize; o++) {
    const start = o * ratio;
    const end = start + ratio;
    const indices: number[] = [];
    const weights: number[] = [];
    for (let i = Math.floor(start); i < Math.min(inSize, Math.ceil(end)); i++) {
      const overlap = Math.min(end, i + 1) - Math.max(start, i);
      if (overlap <= 0) continue;
      indices.push(i);
      weights.push(overlap / ratio);
    }
    result.push({ out: o, indices, weights });
  }
  return result;
}
