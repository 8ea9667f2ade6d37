/**
 * PNG scanline unfiltering for non-interlaced images (PNG spec §9: None, Sub, Up, Average, Paeth).
 * In: the inflated IDAT bytes (one filter-type byte + `stride` filtered bytes per row). Out: the rows without
 * their filter bytes, `height × stride` bytes, still packed at the file's bit depth (16-bit samples big-endian).
 * Plain typed-array loops, no per-pixel objects.
 */

import { corrupt } from './common.js';

/**
 * Every filter-type byte present must be 0..4, and every row's filter byte must be present. Checked row by row in
 * order, as fast-png did, so a bad filter byte before the end of short data is still reported as such (same text
 * as before: "corrupt PNG data (Unsupported filter: N)"). A missing row was fast-png's "Unsupported filter:
 * undefined"; it is now "truncated PNG (image data ends early)", as in png-adam7.ts. Data that ends inside the
 * last row is accepted: its missing bytes are 0 (fast-png's behaviour, kept).
 */
function checkRows(data: Uint8Array, height: number, stride: number): void {
  const span = stride + 1;
  for (let y = 0, at = 0; y < height; y++, at += span) {
    if (at >= data.length) throw corrupt('truncated PNG (image data ends early)');
    const type = data[at];
    if (type > 4) throw corrupt(`corrupt PNG data (Unsupported filter: ${type})`);
  }
}

/**
 * `data`: inflated image data of a non-interlaced PNG (bytes past the last row are ignored). `stride`: bytes per
 * row without the filter byte; `bpp`: bytes per complete pixel, at least 1 (PNG's "bpp" for filtering).
 * `inPlace`: `data` is the caller's to give up: when it holds every row, the rows are unfiltered over it and the
 * result is a view of its start (row y's output lies before its input and every input byte is read before the
 * output reaches it), so the image is not held twice.
 */
export function unfilterScanlines(data: Uint8Array, height: number, stride: number, bpp: number, inPlace = false): Uint8Array {
  checkRows(data, height, stride);
  const out = inPlace && data.length >= height * (stride + 1) ? data.subarray(0, height * stride) : new Uint8Array(height * stride);
  // Whole rows are 4-byte aligned in `out` when stride % 4 == 0: Up (any bpp) and Sub at 4 bytes per pixel then
  // run four bytes at a time (bytewise add without carries between lanes, the same in either byte order).
  const words = stride % 4 === 0 && out.byteOffset % 4 === 0 ? new Int32Array(out.buffer, out.byteOffset, out.length >> 2) : undefined;
  const wordsPerRow = stride >> 2;
  const span = stride + 1;
  for (let y = 0; y < height; y++) {
    const type = data[y * span];
    const src = y * span + 1;
    const o = y * stride;
    const p = o - stride; // previous output row (unused on row 0)
    const n = Math.max(0, Math.min(stride, data.length - src)); // bytes present; the rest stay 0
    const lead = Math.min(bpp, n);
    let i = 0;
    if (type === 0 || (type === 2 && y === 0)) {
      out.set(data.subarray(src, src + n), o);
    } else if (words && n === stride && (type === 2 || (type === 1 && bpp === 4))) {
      out.set(data.subarray(src, src + n), o);
      const back = type === 2 ? wordsPerRow : 1;
      for (let k = y * wordsPerRow + (type === 2 ? 0 : 1), end = (y + 1) * wordsPerRow; k < end; k++) {
        const x = words[k];
        const v = words[k - back];
        words[k] = ((x & 0x7f7f7f7f) + (v & 0x7f7f7f7f)) ^ ((x ^ v) & 0x80808080);
      }
    } else if (type === 1 || (type === 4 && y === 0)) {
      // Sub; Paeth with no row above predicts from the left byte only.
      for (; i < lead; i++) out[o + i] = data[src + i];
      for (; i < n; i++) out[o + i] = (data[src + i] + out[o + i - bpp]) & 255;
    } else if (type === 2) {
      for (; i < n; i++) out[o + i] = (data[src + i] + out[p + i]) & 255;
    } else if (type === 3) {
      if (y === 0) {
        for (; i < lead; i++) out[o + i] = data[src + i];
        for (; i < n; i++) out[o + i] = (data[src + i] + (out[o + i - bpp] >> 1)) & 255;
      } else {
        for (; i < lead; i++) out[o + i] = (data[src + i] + (out[p + i] >> 1)) & 255;
        for (; i < n; i++) out[o + i] = (data[src + i] + ((out[o + i - bpp] + out[p + i]) >> 1)) & 255;
      }
    } else {
      // Paeth: a = left, b = up, c = up-left; p = a + b - c, pick the closest of a, b, c (ties: a, then b).
      for (; i < lead; i++) out[o + i] = (data[src + i] + out[p + i]) & 255;
      for (; i < n; i++) {
        const a = out[o + i - bpp];
        const b = out[p + i];
        const c = out[p + i - bpp];
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - c - c);
        out[o + i] = (data[src + i] + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
      }
    }
  }
  return out;
}
