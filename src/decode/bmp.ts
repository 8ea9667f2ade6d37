/**
 * BMP → RGBA. In: "BM" bytes (1/4/8/16/24/32-bit, RLE4/RLE8, BITFIELDS, top-down, OS/2 core header).
 * Out: RawImage, dpi from biXPelsPerMeter. Package: `bmpimagejs` (a JS port of NetSurf's libnsbmp); the glue
 * below reads the header first and works around three of its edge-case bugs (see decodeBmp).
 */

import bmpimagejs from 'bmpimagejs';

import { corrupt, i32le, makeDpi, ownArrayBuffer, u16le, u32le, type Dpi, type ImageHeader, type RawImage } from './common.js';

interface BmpInfo extends ImageHeader {
  topDown: boolean;
  bpp: number;
  compression: number;
  dataOffset: number;
  dpi?: Dpi;
}

const COMPRESSION_NAMES: Record<number, string> = { 4: 'embedded JPEG', 5: 'embedded PNG', 6: 'BI_ALPHABITFIELDS' };

export function readBmpHeader(bytes: Uint8Array): BmpInfo {
  if (bytes.length < 26) throw corrupt('truncated BMP (no complete header)');
  const dibSize = u32le(bytes, 14);
  const dataOffset = u32le(bytes, 10);
  if (dibSize === 12) {
    // OS/2 BITMAPCOREHEADER: 16-bit sizes, no compression.
    return { width: u16le(bytes, 18), height: u16le(bytes, 20), topDown: false, bpp: u16le(bytes, 24), compression: 0, dataOffset };
  }
  if (bytes.length < 14 + 40) throw corrupt('truncated BMP (no complete info header)');
  const width = i32le(bytes, 18);
  const rawHeight = i32le(bytes, 22);
  if (width < 0) throw corrupt('corrupt BMP (negative width)');
  const ppmX = i32le(bytes, 38);
  const ppmY = i32le(bytes, 42);
  return {
    width,
    height: Math.abs(rawHeight),
    topDown: rawHeight < 0,
    bpp: u16le(bytes, 28),
    compression: u32le(bytes, 30),
    dataOffset,
    dpi: makeDpi(ppmX, ppmY, 'm'),
  };
}

/**
 * Glue around bmpimagejs 1.0.4, whose decoder needs an ArrayBuffer starting at the file's first byte:
 * - RLE: it rejects the end-of-line code after the last row (written by most encoders) and runs that spill
 *   past a row end; decoding bottom-up RLE as one row taller and dropping the spare top row avoids both.
 * - 32-bit: it places rows from the end of the *file*, so trailing bytes after the pixels shift every row;
 *   the copy is cut to exactly the pixel data.
 * - 16-bit: an off-by-one rejects files whose last row ends exactly at end of file; the copy is padded.
 */
export function decodeBmp(bytes: Uint8Array): RawImage {
  const info = readBmpHeader(bytes);
  const { width, height, bpp, compression } = info;
  const unsupported = COMPRESSION_NAMES[compression];
  if (unsupported) throw corrupt(`unsupported BMP type (${unsupported} compression)`);
  if (info.dataOffset >= bytes.length) throw corrupt('truncated BMP (no pixel data)');

  const rle = compression === 1 || compression === 2;
  let buffer: ArrayBuffer;
  let extraRow = false;
  if (rle && !info.topDown) {
    buffer = ownArrayBuffer(bytes);
    new DataView(buffer).setInt32(22, height + 1, true);
    extraRow = true;
  } else if (bpp === 32 && !rle) {
    const end = info.dataOffset + width * 4 * height;
    if (end > bytes.length) throw corrupt('truncated BMP (pixel data ends early)');
    buffer = ownArrayBuffer(bytes.subarray(0, end));
  } else if (bpp === 16) {
    buffer = ownArrayBuffer(bytes, 4);
  } else {
    buffer = ownArrayBuffer(bytes);
  }

  let image: { width: number; height: number; pixels: Uint8ClampedArray };
  try {
    image = bmpimagejs.decode(buffer);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    // bmpimagejs reports every problem, truncation included, as "bmp data is not valid".
    throw corrupt(`corrupt or truncated BMP (${msg}; ${bpp}-bit, compression ${compression})`);
  }
  const rowBytes = width * 4;
  const skip = extraRow ? rowBytes : 0;
  const data = new Uint8Array(image.pixels.buffer, image.pixels.byteOffset + skip, rowBytes * height).slice();
  return { width, height, data, dpi: info.dpi };
}
