/**
 * GIF → RGBA. In: GIF87a/89a bytes. Out: RawImage of the first frame on a transparent canvas
 * (transparent index → alpha 0, areas the frame doesn't cover → alpha 0). Package: `omggif` (GifReader).
 */

import { GifReader } from 'omggif';

import { corrupt, quietly, u16le, type ImageHeader, type RawImage } from './common.js';

/** Logical screen size from the 13-byte header. */
export function readGifHeader(bytes: Uint8Array): ImageHeader {
  if (bytes.length < 13) throw corrupt('truncated GIF (no complete screen descriptor)');
  return { width: u16le(bytes, 6), height: u16le(bytes, 8) };
}

/**
 * First-frame size and position, checked by the caller before any LZW decoding. When the first frame
 * sticks out of the logical screen, the canvas grows to hold it (as browsers do).
 */
export function openGif(bytes: Uint8Array): { reader: GifReader; width: number; height: number; source: Uint8Array } {
  const screen = readGifHeader(bytes);
  let reader = quietly(() => new GifReader(bytes));
  if (reader.numFrames() === 0) throw corrupt('corrupt GIF (no image frames)');
  const f = reader.frameInfo(0);
  const width = Math.max(screen.width, f.x + f.width);
  const height = Math.max(screen.height, f.y + f.height);
  let source = bytes;
  if (width !== screen.width || height !== screen.height) {
    if (width > 0xffff || height > 0xffff) throw corrupt('corrupt GIF (first frame lies outside a 65535×65535 canvas)');
    source = bytes.slice();
    source[6] = width & 255;
    source[7] = width >> 8;
    source[8] = height & 255;
    source[9] = height >> 8;
    reader = quietly(() => new GifReader(source));
  }
  return { reader, width, height, source };
}

export function decodeGifFrame(gif: { reader: GifReader; width: number; height: number }): RawImage {
  const { reader, width, height } = gif;
  const f = reader.frameInfo(0);
  if (f.width === 0 || f.height === 0) throw corrupt('corrupt GIF (first frame has width or height 0)');
  if (f.palette_offset === null) throw corrupt('corrupt GIF (first frame has no colour table)');
  const data = new Uint8Array(width * height * 4); // zero = transparent black
  quietly(() => reader.decodeAndBlitFrameRGBA(0, data));
  return { width, height, data };
}
