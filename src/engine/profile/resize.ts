/**
 * Stage 0: shrink an input larger than `input.max_pixels`.
 * In: RGBA pixels and a pixel budget. Out: the same image scaled by one factor on both axes so
 * that width × height ≤ budget, by exact area averaging (box filter over fractional pixel
 * footprints) in premultiplied alpha, so transparent pixels do not darken edges.
 * Work splits by output rows (`shrinkRows`): every output pixel is summed in the same order
 * whatever band it falls in, so bands computed apart concatenate to the same bytes.
 * Sums run input row by input row (Σ_rows w_y · Σ_columns w_x · premultiplied pixel), in a fixed
 * order, so the floating-point result is the same however the rows are cached.
 */
import type { RgbaImage } from '../types.js';

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

/**
 * Output rows [rowFrom, rowTo) of `image` shrunk to outW × outH, as RGBA bytes. Each output row
 * sums the horizontally averaged input rows it covers; only the last averaged row is kept (the
 * next output row usually starts on it), so memory stays at a few rows whatever the image size.
 */
export function shrinkRows(image: RgbaImage, outW: number, outH: number, rowFrom: number, rowTo: number): Uint8Array {
  const xf = footprints(image.width, outW);
  const yf = footprints(image.height, outH);
  let cachedRow = -1;
  let cached: Float64Array = new Float64Array(outW * 4);
  let scratch: Float64Array = new Float64Array(outW * 4);
  const acc = new Float64Array(outW * 4);
  const out = new Uint8Array(outW * (rowTo - rowFrom) * 4);
  for (let oy = rowFrom; oy < rowTo; oy++) {
    acc.fill(0);
    const first = yf.first[oy]!;
    const at = yf.offset[oy]!;
    for (let k = 0; k < yf.count[oy]!; k++) {
      const y = first + k;
      let row: Float64Array;
      if (y === cachedRow) row = cached;
      else {
        averageRow(image, y, xf, scratch);
        row = scratch;
        scratch = cached;
        cached = row;
        cachedRow = y;
      }
      const w = yf.weight[at + k]!;
      for (let m = 0; m < acc.length; m++) acc[m]! += row[m]! * w;
    }
    const base = (oy - rowFrom) * outW * 4;
    for (let x = 0; x < outW; x++) {
      const m = x * 4;
      const a = acc[m + 3]!;
      const o = base + m;
      out[o + 3] = Math.round(a);
      if (a > 0) {
        out[o] = Math.round(acc[m]! / a);
        out[o + 1] = Math.round(acc[m + 1]! / a);
        out[o + 2] = Math.round(acc[m + 2]! / a);
      }
    }
  }
  return out;
}

/** Input row y averaged over each output column's footprint, premultiplied: r, g, b, a per column. */
function averageRow(image: RgbaImage, y: number, xf: Footprints, into: Float64Array): void {
  const src = image.data;
  const rowBase = y * image.width;
  for (let ox = 0; ox < xf.first.length; ox++) {
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
    const m = ox * 4;
    into[m] = r;
    into[m + 1] = g;
    into[m + 2] = b;
    into[m + 3] = a;
  }
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
