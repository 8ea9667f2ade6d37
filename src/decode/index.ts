/**
 * Entry point: image bytes → RGBA, the same code in Node and in a browser Web Worker.
 * In: file bytes (+ optional pixel limit). Out: DecodedImage, or a TracelabError (1006 unreadable, 1013 too many
 * pixels). Each format's header is read and the size checked before any pixel data is decoded.
 */

import { MAX_ACCEPTED_PIXELS, TracelabError, tooManyPixelsError } from '../engine/errors.js';
import { corrupt, describeThrown, type DecodedImage, type ImageFormat, type ImageHeader, type RawImage } from './common.js';
import { firstBytesHex, sniffFormat } from './sniff.js';
import { embeddedProfile } from './icc-extract.js';

export type { DecodedImage, Dpi, ImageFormat } from './common.js';
export { sniffFormat } from './sniff.js';
export { setWebpWasm } from './webp-wasm.js';

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

/**
 * Each codec (and its npm decoder) is loaded on first use, so a PNG never pays for parsing the
 * TIFF, JPEG or WebP decoders: dynamic imports become separate chunks in the CLI bundle and the
 * web build.
 */
const CODECS: Record<ImageFormat, { name: string; load: () => Promise<Codec> }> = {
  png: { name: 'PNG', load: async () => { const m = await import('./png.js'); return { name: 'PNG', header: m.readPngHeader, decode: m.decodePng }; } },
  jpeg: { name: 'JPEG', load: async () => { const m = await import('./jpeg.js'); return { name: 'JPEG', header: m.readJpegHeader, decode: m.decodeJpeg }; } },
  webp: { name: 'WebP', load: async () => { const m = await import('./webp.js'); return { name: 'WebP', header: m.readWebpHeader, decode: m.decodeWebp }; } },
  gif: {
    name: 'GIF',
    load: async () => {
      const m = await import('./gif.js');
      return {
        name: 'GIF',
        header: m.readGifHeader,
        decode(bytes, check) {
          const gif = m.openGif(bytes);
          check(gif.width, gif.height);
          return m.decodeGifFrame(gif);
        },
      };
    },
  },
  bmp: { name: 'BMP', load: async () => { const m = await import('./bmp.js'); return { name: 'BMP', header: m.readBmpHeader, decode: m.decodeBmp }; } },
  tiff: { name: 'TIFF', load: async () => { const m = await import('./tiff.js'); return { name: 'TIFF', header: m.readTiffHeader, decode: m.decodeTiff }; } },
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

/** A file whose header has been read and its size checked, ready to decode. */
interface OpenedImage {
  readonly format: ImageFormat;
  readonly codec: Codec;
  readonly check: SizeCheck;
  readonly width: number;
  readonly height: number;
}

/** Sniffs the format, loads its codec, reads the header and checks the size (1006, 1013). */
async function openImage(bytes: Uint8Array, limits: DecodeLimits | undefined): Promise<OpenedImage> {
  if (!(bytes instanceof Uint8Array)) throw corrupt('input is not a byte array');
  if (bytes.length === 0) throw corrupt('empty input (0 bytes)');
  const format = sniffFormat(bytes);
  // Say what the file is not, in the user's terms; the bytes stay for whoever debugs it (issue 17).
  if (!format) throw corrupt(`not a PNG, JPEG, GIF, BMP, TIFF or WebP image (unknown format, first bytes ${firstBytesHex(bytes)}${textHint(bytes)})`);
  const codec = await CODECS[format].load();
  const check = sizeCheck(limits);
  try {
    const { width, height } = codec.header(bytes);
    check(width, height);
    return { format, codec, check, width, height };
  } catch (err) {
    throw codecError(codec, err);
  }
}

/** A codec's failure as the API reports it: its own TracelabError, or 1006 naming the format. */
function codecError(codec: Codec, err: unknown): TracelabError {
  return err instanceof TracelabError ? err : corrupt(`corrupt ${codec.name} data (${describeThrown(err)})`);
}

/**
 * The format and size of an image from its header alone, checked as decodeImage checks them
 * (1006 unknown format, corrupt header or zero size; 1013 too many pixels) without decoding a
 * pixel: a caller can refuse a huge picture at once, before any slow work on it (issue 29: the
 * playground's draft decoded all of an 8000 × 8000 PNG before the trace said 1013).
 */
export async function readImageHeader(bytes: Uint8Array, limits?: DecodeLimits): Promise<{ format: ImageFormat; width: number; height: number }> {
  const { format, width, height } = await openImage(bytes, limits);
  return { format, width, height };
}

/**
 * Decodes PNG, JPEG, WebP, GIF (first frame), BMP or TIFF (first page) to 8-bit RGBA, rows top to bottom.
 * Rejects with TracelabError 1006 for unknown/corrupt/truncated data or a zero size, 1013 for too many pixels.
 */
export async function decodeImage(bytes: Uint8Array, limits?: DecodeLimits): Promise<DecodedImage> {
  const { format, codec, check } = await openImage(bytes, limits);
  let raw: RawImage;
  try {
    raw = await codec.decode(bytes, check);
  } catch (err) {
    throw codecError(codec, err);
  }

  check(raw.width, raw.height);
  if (!(raw.data instanceof Uint8Array) || raw.data.length !== raw.width * raw.height * 4) {
    throw corrupt(`corrupt ${codec.name} data (decoder returned ${raw.data.length} bytes for ${raw.width}×${raw.height})`);
  }
  const image: DecodedImage = { width: raw.width, height: raw.height, data: raw.data, format };
  if (raw.dpi) image.dpi = raw.dpi;
  const profile = embeddedProfile(format, bytes);
  if (profile) image.iccProfile = profile;
  return image;
}

/** `, text "this is…"` when the file starts with printable text (a text file picked by mistake). */
function textHint(bytes: Uint8Array): string {
  const head = bytes.subarray(0, 16);
  if (head.length === 0 || !head.every((b) => (b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09)) return '';
  return `, text ${JSON.stringify(String.fromCharCode(...head).replace(/\s+/g, ' '))}`;
}
