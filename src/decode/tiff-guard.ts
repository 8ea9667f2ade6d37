/**
 * TIFF strip checks before UTIF decodes them. In: file bytes, strip offsets/counts, compression, expected raw
 * size. Out: nothing, or a 1006 error. UTIF's LZW loops forever on some invalid codes and its Deflate has no size
 * cap, so LZW code streams are validated here (no pixels made) and Deflate strips inflated once with a cap (fflate).
 */

import { corrupt } from './common.js';
import { inflateBounded } from './inflate-bounded.js';

/**
 * Walks a TIFF LZW code stream (MSB-first, 9–12-bit codes, early change) the way UTIF's decoder does, and
 * returns how many bytes it would output. Rejects codes that point past the table, which is what sends
 * UTIF's decoder round a loop, and stops once `budget` output bytes are exceeded.
 */
function lzwOutputSize(data: Uint8Array, budget: number): number {
  const lengths = new Uint32Array(4096);
  for (let i = 0; i < 256; i++) lengths[i] = 1;
  const totalBits = data.length * 8;
  let bit = 0;
  let width = 9;
  let next = 258;
  let prev = 0; // as UTIF: a stream that doesn't open with a clear code starts from code 0
  let out = 0;
  const read = (): number => {
    const at = bit >>> 3;
    const word = ((data[at] ?? 0) << 16) | ((data[at + 1] ?? 0) << 8) | (data[at + 2] ?? 0);
    const code = (word >>> (24 - (bit & 7) - width)) & ((1 << width) - 1);
    bit += width;
    return code;
  };
  while (bit < totalBits) {
    const code = read();
    if (code === 257) break;
    if (code === 256) {
      width = 9;
      next = 258;
      prev = -1;
      continue;
    }
    if (prev === -1) {
      if (code > 255) throw corrupt('corrupt TIFF (invalid LZW code after a clear code)');
      out += 1;
    } else {
      if (code > next) throw corrupt('corrupt TIFF (LZW code outside the table)');
      const added = lengths[prev] + 1;
      out += code < next ? lengths[code] : added;
      if (next < 4096) {
        lengths[next] = added;
        next++;
        if (next + 1 === 1 << width && width !== 12) width++;
      }
    }
    if (out > budget) throw corrupt('corrupt TIFF (LZW data expands far beyond the image size)');
    prev = code;
  }
  return out;
}

export function checkTiffStrips(
  bytes: Uint8Array,
  compression: number,
  offsets: ArrayLike<number>,
  counts: ArrayLike<number>,
  rawSize: number,
): void {
  if (compression !== 5 && compression !== 8 && compression !== 32946) return;
  // Some slack over the exact size: strips may be padded to whole rows or tiles.
  let budget = rawSize * 2 + (1 << 20);
  for (let i = 0; i < offsets.length; i++) {
    const off = offsets[i];
    const strip = bytes.subarray(off, off + (counts[i] ?? 0));
    if (strip.length === 0) continue;
    if (compression === 5) {
      budget -= lzwOutputSize(strip, budget);
    } else {
      budget -= inflateBounded([strip], budget, 'TIFF').length;
    }
  }
}
