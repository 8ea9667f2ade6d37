/**
 * Stage 0: shrink an input larger than `input.max_pixels`.
 * In: RGBA pixels and a pixel budget. Out: the same image scaled by one factor on both axes so
 * that width × height ≤ budget, by exact area averaging (box filter over fractional pixel
 * footprints) in premultiplied alpha, so transparent pixels do not darken edges.
 * Work splits by output rows (`shrinkRows`): every output pixel is summed in the same order
 * whatever band it falls in, so bands computed apart concatenate to the same bytes.
 */
import type { RgbaImage } from './types.js';

/** Output size for a budget, or undefined when the image already fits. */
export function shrunkSize(width: number, height: number, maxPixels: number): { width: number; height: number } | undefined {
  if (width * height <= maxPixels) return undefined;
  const scale = Math.sqrt(maxPixels / (width * height));
  let outW = Math.max(1, Math.floor(width * scale));
  let outH = Math.max(1, Math.floor(height * scale));
  while (outW * outH > maxPixels) {
    if (outW >= outH) outW--;
    else outH--;
  }
  return { width: outW, height: outH };
}

export function shrinkToPixelBudget(image: RgbaImage, maxPixels: number): RgbaImage {
  const size = shrunkSize(image.width, image.height, maxPixels);
  if (!size) return image;
  return { width: size.width, height: size.height, data: shrinkRows(image, size.width, size.height, 0, size.height) };
}

/** Output rows [rowFrom, rowTo) of `image` shrunk to outW × outH, as RGBA bytes. */
export function shrinkRows(image: RgbaImage, outW: number, outH: number, rowFrom: number, rowTo: number): Uint8Array {
  const { width, height } = image;
  const xf = footprints(width, outW);
  const yf = footprints(height, outH);
  // Input rows the band needs: from the first footprint's start to the last one's end.
  const inFrom = yf.first[rowFrom]!;
  const inTo = rowTo > rowFrom ? yf.first[rowTo - 1]! + yf.count[rowTo - 1]! : inFrom;
  // Horizontal pass into a float buffer (premultiplied), then vertical pass.
  const mid = new Float64Array(outW * (inTo - inFrom) * 4);
  const src = image.data;
  for (let y = inFrom; y < inTo; y++) {
    const rowBase = y * width;
    const midBase = (y - inFrom) * outW;
    for (let ox = 0; ox < outW; ox++) {
      let r = 0, g = 0, b = 0, a = 0;
      const first = xf.first[ox]!;
      const at = xf.offset[ox]!;
      for (let k = 0; k < xf.count[ox]!; k++) {
        const o = (rowBase + first + k) * 4;
        const w = xf.weight[at + k]!;
        const alpha = src[o + 3]!;
        a += alpha * w;
        r += src[o]! * alpha * w;
        g += src[o + 1]! * alpha * w;
        b += src[o + 2]! * alpha * w;
      }
      const m = (midBase + ox) * 4;
      mid[m] = r;
      mid[m + 1] = g;
      mid[m + 2] = b;
      mid[m + 3] = a;
    }
  }
  const out = new Uint8Array(outW * (rowTo - rowFrom) * 4);
  for (let oy = rowFrom; oy < rowTo; oy++) {
    const first = yf.first[oy]! - inFrom;
    const at = yf.offset[oy]!;
    const count = yf.count[oy]!;
    for (let x = 0; x < outW; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let k = 0; k < count; k++) {
        const m = ((first + k) * outW + x) * 4;
        const w = yf.weight[at + k]!;
        r += mid[m]! * w;
        g += mid[m + 1]! * w;
        b += mid[m + 2]! * w;
        a += mid[m + 3]! * w;
      }
      const o = ((oy - rowFrom) * outW + x) * 4;
      out[o + 3] = Math.round(a);
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
      }
    }
  }
  return out;
}

/**
 * For each output pixel, the run of input pixels it covers (first, count) and their weights
 * (summing to 1) at weight[offset … offset + count).
 */
interface Footprints {
  readonly first: Int32Array;
  readonly count: Int32Array;
  readonly offset: Int32Array;
  readonly weight: Float64Array;
}

function footprints(inSize: number, outSize: number): Footprints {
  const ratio = inSize / outSize;
  const first = new Int32Array(outSize);
  const count = new Int32Array(outSize);
  const offset = new Int32Array(outSize);
  const weights: number[] = [];
  for (let o = 0; o < outSize; o++) {
    const start = o * ratio;
    const end = start + ratio;
    offset[o] = weights.length;
    first[o] = -1;
    for (let i = Math.floor(start); i < Math.min(inSize, Math.ceil(end)); i++) {
      const overlap = Math.min(end, i + 1) - Math.max(start, i);
      if (overlap <= 0) continue;
      if (first[o]! < 0) first[o] = i;
      weights.push(overlap / ratio);
    }
    count[o] = weights.length - offset[o]!;
    if (first[o]! < 0) first[o] = Math.min(inSize - 1, Math.floor(start));
  }
  return { first, count, offset, weight: Float64Array.from(weights) };
}
