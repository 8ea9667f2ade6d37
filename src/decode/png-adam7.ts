/**
 * PNG helpers fast-png lacks. In: IDAT chunk data / inflated scanlines. Out: inflated bytes with a hard size
 * cap (zlib-bomb guard), and one-byte-per-sample pixels for Adam7-interlaced 1/2/4-bit images
 * (fast-png 8.0.0 computes those pass widths in whole bytes and fails). The bounded inflate lives in inflate-bounded.ts.
 */

import { corrupt } from './common.js';

/** Adam7 passes: x0, y0, dx, dy. */
export const PASSES = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

function passSize(width: number, height: number, pass: (typeof PASSES)[number]): [number, number] {
  const [x0, y0, dx, dy] = pass;
  const w = width > x0 ? Math.ceil((width - x0) / dx) : 0;
  const h = height > y0 ? Math.ceil((height - y0) / dy) : 0;
  return w && h ? [w, h] : [0, 0];
}

/** Inflated size of an interlaced image: per pass, rows × (filter byte + packed row). */
export function adam7RawSize(width: number, height: number, bitsPerPixel: number): number {
  let total = 0;
  for (const pass of PASSES) {
    const [w, h] = passSize(width, height, pass);
    if (w) total += h * (1 + Math.ceil((w * bitsPerPixel) / 8));
  }
  return total;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Undoes one scanline's filter (bytes per pixel is 1 at depths below 8). */
function unfilter(type: number, raw: Uint8Array, prev: Uint8Array, cur: Uint8Array): void {
  for (let i = 0; i < raw.length; i++) {
    const left = i > 0 ? cur[i - 1] : 0;
    const up = prev[i];
    const upLeft = i > 0 ? prev[i - 1] : 0;
    let pred: number;
    switch (type) {
      case 0: pred = 0; break;
      case 1: pred = left; break;
      case 2: pred = up; break;
      case 3: pred = (left + up) >> 1; break;
      case 4: pred = paeth(left, up, upLeft); break;
      default: throw corrupt(`corrupt PNG (unknown scanline filter ${type})`);
    }
    cur[i] = (raw[i] + pred) & 255;
  }
}

/** Inflated Adam7 data of a one-channel 1/2/4-bit image → one byte per pixel (raw sample values). */
export function deinterlaceSubByte(data: Uint8Array, width: number, height: number, depth: number): Uint8Array {
  const out = new Uint8Array(width * height);
  const mask = (1 << depth) - 1;
  let pos = 0;
  for (const pass of PASSES) {
    const [pw, ph] = passSize(width, height, pass);
    if (!pw) continue;
    const [x0, y0, dx, dy] = pass;
    const lineBytes = Math.ceil((pw * depth) / 8);
    let prev = new Uint8Array(lineBytes);
    let cur = new Uint8Array(lineBytes);
    for (let r = 0; r < ph; r++) {
      if (pos + 1 + lineBytes > data.length) throw corrupt('truncated PNG (image data ends early)');
      unfilter(data[pos], data.subarray(pos + 1, pos + 1 + lineBytes), prev, cur);
      pos += 1 + lineBytes;
      const row = (y0 + r * dy) * width;
      for (let i = 0; i < pw; i++) {
        const bit = i * depth;
        out[row + x0 + i * dx] = (cur[bit >> 3] >> (8 - depth - (bit & 7))) & mask;
      }
      [prev, cur] = [cur, prev];
    }
  }
  return out;
}
