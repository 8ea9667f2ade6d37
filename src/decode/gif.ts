/**
 * GIF → RGBA. In: GIF87a/89a bytes. Out: RawImage of the first frame on a transparent canvas
 * (transparent index → alpha 0, canvas not covered by the frame → alpha 0). Package: `gifuct-js`
 * (chosen over omggif, whose LZW decoder loops forever on some corrupt streams).
 */

import { decompressFrame, parseGIF, type ParsedGif } from 'gifuct-js';

import { corrupt, u16le, type ImageHeader, type RawImage } from './common.js';

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

  const decoded = decompressFrame(frame as never, gif.parsed.gct, true);
  const { left, top, width: fw, height: fh } = decoded.dims;
  const patch = decoded.patch;
  const data = new Uint8Array(width * height * 4); // zero = transparent black
  for (let y = 0; y < fh; y++) {
    const src = patch.subarray(y * fw * 4, (y + 1) * fw * 4);
    data.set(src, ((top + y) * width + left) * 4);
  }
  return { width, height, data };
}
