/**
 * GIF → RGBA. In: GIF87a/89a bytes. Out: RawImage of the first frame on a transparent canvas
 * (transparent index → alpha 0, canvas not covered by the frame → alpha 0). `gifuct-js` parses
 * the block structure (chosen over omggif, whose LZW decoder loops forever on some corrupt
 * streams); the LZW data is decoded by our own bounded decoder (gif-lzw.ts), since gifuct-js's can
 * exhaust memory on a corrupt stream.
 */

import { parseGIF, type ParsedGif } from 'gifuct-js';

import { corrupt, u16le, type ImageHeader, type RawImage } from './common.js';
import { deinterlaceRows, lzwDecode } from './gif-lzw.js';

/** The parts of gifuct-js's frame record used here. */
interface GifImageFrame {
  image: {
    descriptor: { left: number; top: number; width: number; height: number };
    data: { minCodeSize: number; blocks: ArrayLike<number> };
  };
}

export interface OpenGif {
  parsed: ParsedGif;
  frame: GifImageFrame;
  /** Canvas size: the logical screen, grown to hold the first frame if it sticks out (as browsers do). */
  width: number;
  height: number;
}

/** Logical screen size from the 13-byte header. */
export function readGifHeader(bytes: Uint8Array): ImageHeader {
  if (bytes.length < 13) throw corrupt('truncated GIF (no complete screen descriptor)');
  return { width: u16le(bytes, 6), height: u16le(bytes, 8) };
}

/** Parses the block structure (no LZW decoding yet) and finds the first image frame. */
export function openGif(bytes: Uint8Array): OpenGif {
  const screen = readGifHeader(bytes);
  const parsed = parseGIF(bytes.slice().buffer);
  const frame = (parsed.frames as unknown[]).find((f): f is GifImageFrame => !!(f as Partial<GifImageFrame>).image);
  if (!frame) throw corrupt('corrupt or truncated GIF (no image frame)');
  const d = frame.image.descriptor;
  if (!(d.width > 0 && d.height > 0)) throw corrupt('corrupt GIF (first frame has width or height 0)');
  return {
    parsed,
    frame,
    width: Math.max(screen.width, d.left + d.width),
    height: Math.max(screen.height, d.top + d.height),
  };
}

/** LZW-decodes the first frame (after the caller has checked the canvas size) and places it on the canvas. */
export function decodeGifFrame(gif: OpenGif): RawImage {
  const { frame, width, height } = gif;
  const { minCodeSize, blocks } = frame.image.data;
  // Valid GIFs use 2..8; above 11 the LZW table setup would loop over 2^minCodeSize entries.
  if (!(minCodeSize >= 1 && minCodeSize <= 11)) throw corrupt(`corrupt GIF (LZW code size ${minCodeSize})`);
  if (blocks.length === 0) throw corrupt('truncated GIF (first frame has no image data)');
  const hasTable = gif.parsed.lsd.gct.exists || (frame.image.descriptor as { lct?: { exists?: boolean } }).lct?.exists;
  if (!hasTable) throw corrupt('corrupt GIF (first frame has no colour table)');

  const image = frame.image as GifImageFrame['image'] & {
    descriptor: { lct?: { exists?: boolean; interlaced?: boolean } };
    lct?: readonly (readonly number[])[];
  };
  const { left, top, width: fw, height: fh } = image.descriptor;
  let indices = lzwDecode(minCodeSize, blocks, fw * fh);
  if (image.descriptor.lct?.interlaced) indices = deinterlaceRows(indices, fw, fh);
  const table = (image.descriptor.lct?.exists ? image.lct : gif.parsed.gct) ?? [];
  const gce = (frame as { gce?: { extras?: { transparentColorGiven?: boolean }; transparentColorIndex?: number } }).gce;
  const transparent = gce?.extras?.transparentColorGiven ? gce.transparentColorIndex : -1;
  const data = new Uint8Array(width * height * 4); // zero = transparent black
  for (let y = 0; y < fh; y++) {
    let o = ((top + y) * width + left) * 4;
    for (let x = 0; x < fw; x++, o += 4) {
      const index = indices[y * fw + x]!;
      if (index === transparent) continue;
      const color = table[index];
      data[o] = color?.[0] ?? 0;
      data[o + 1] = color?.[1] ?? 0;
      data[o + 2] = color?.[2] ?? 0;
      data[o + 3] = 255;
    }
  }
  return { width, height, data };
}
