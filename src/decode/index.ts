/**
 * Entry point: image bytes → RGBA, the same code in Node and in a browser Web Worker.
 * In: file bytes (+ optional pixel limit). Out: DecodedImage, or a TracelabError (1006 unreadable, 1013 too many
 * pixels). Each format's header is read and the size checked before any pixel data is decoded.
 */

import { MAX_ACCEPTED_PIXELS, TracelabError, tooManyPixelsError } from '../engine/errors.js';
import { decodeBmp, readBmpHeader } from './bmp.js';
import { corrupt, describeThrown, type DecodedImage, type ImageFormat, type ImageHeader, type RawImage } from './common.js';
import { decodeGifFrame, openGif, readGifHeader } from './gif.js';
import { decodeJpeg, readJpegHeader } from './jpeg.js';
import { decodePng, readPngHeader } from './png.js';
import { firstBytesHex, sniffFormat } from './sniff.js';
import { decodeTiff, readTiffHeader } from './tiff.js';
import { decodeWebp, readWebpHeader } from './webp.js';

export type { DecodedImage, Dpi, ImageFormat } from './common.js';
export { sniffFormat } from './sniff.js';
export { setWebpWasm } from './webp.js';

export interface DecodeLimits {
  /** Refuse images with more pixels than this (on top of MAX_ACCEPTED_PIXELS). */
  maxPixels?: number;
}

type SizeCheck = (width: number, height: number) => void;

interface Codec {
  name: string;
  header(bytes: Uint8Array): ImageHeader;
  /** Decodes pixels; calls `check` again if it learns a different canvas size before allocating it. */
  decode(bytes: Uint8Array, check: SizeCheck): RawImage | Promise<RawImage>;
}

const CODECS: Record<ImageFormat, Codec> = {
  png: { name: 'PNG', header: readPngHeader, decode: decodePng },
  jpeg: { name: 'JPEG', header: readJpegHeader, decode: decodeJpeg },
  webp: { name: 'WebP', header: readWebpHeader, decode: decodeWebp },
  gif: {
    name: 'GIF',
    header: readGifHeader,
    decode(bytes, check) {
      const gif = openGif(bytes);
      check(gif.width, gif.height);
      return decodeGifFrame(gif);
    },
  },
  bmp: { name: 'BMP', header: readBmpHeader, decode: decodeBmp },
  tiff: { name: 'TIFF', header: readTiffHeader, decode: decodeTiff },
};

function sizeCheck(limits: DecodeLimits | undefined): SizeCheck {
  const requested = limits?.maxPixels;
  const max = requested !== undefined && requested >= 0 ? Math.min(requested, MAX_ACCEPTED_PIXELS) : MAX_ACCEPTED_PIXELS;
  return (width, height) => {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) {
      throw corrupt(`invalid size ${width}×${height}`);
    }
    if (width === 0 || height === 0) throw corrupt(`width or height is 0 (${width}×${height})`);
    if (width * height > max) throw tooManyPixelsError(width, height);
  };
}

/**
 * Decodes PNG, JPEG, WebP, GIF (first frame), BMP or TIFF (first page) to 8-bit RGBA, rows top to bottom.
 * Rejects with TracelabError 1006 for unknown/corrupt/truncated data or a zero size, 1013 for too many pixels.
 */
export async function decodeImage(bytes: Uint8Array, limits?: { maxPixels?: number }): Promise<DecodedImage> {
  if (!(bytes instanceof Uint8Array)) throw corrupt('input is not a byte array');
  if (bytes.length === 0) throw corrupt('empty input (0 bytes)');
  const format = sniffFormat(bytes);
  if (!format) throw corrupt(`unknown format (first bytes ${firstBytesHex(bytes)})`);
  const codec = CODECS[format];
  const check = sizeCheck(limits);

  let raw: RawImage;
  try {
    const header = codec.header(bytes);
    check(header.width, header.height);
    raw = await codec.decode(bytes, check);
  } catch (err) {
    if (err instanceof TracelabError) throw err;
    throw corrupt(`corrupt ${codec.name} data (${describeThrown(err)})`);
  }

  check(raw.width, raw.height);
  if (!(raw.data instanceof Uint8Array) || raw.data.length !== raw.width * raw.height * 4) {
    throw corrupt(`corrupt ${codec.name} data (decoder returned ${raw.data.length} bytes for ${raw.width}×${raw.height})`);
  }
  const image: DecodedImage = { width: raw.width, height: raw.height, data: raw.data, format };
  if (raw.dpi) image.dpi = raw.dpi;
  return image;
}
