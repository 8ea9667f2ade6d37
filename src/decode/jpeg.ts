/**
 * JPEG → RGBA. In: JPEG bytes. Out: RawImage, turned upright by the EXIF orientation, dpi from JFIF or EXIF.
 * Pixels from `jpeg-js` (baseline, extended, progressive; grey, YCbCr, Adobe CMYK/YCCK incl. inverted CMYK).
 * The marker walk here reads the frame header before any pixel work and rejects what jpeg-js can't decode.
 */

import jpegJs from 'jpeg-js';

import { MAX_ACCEPTED_PIXELS } from '../engine/errors.js';
import { corrupt, makeDpi, u16be, type Dpi, type ImageHeader, type RawImage } from './common.js';
import { applyOrientation, parseExif, type ExifInfo } from './exif.js';

interface JpegInfo extends ImageHeader {
  precision: number;
  components: number;
  sosOffset: number;
  exif?: ExifInfo;
  jfifDpi?: Dpi;
}

const UNSUPPORTED_SOF: Record<number, string> = {
  0xc3: 'lossless',
  0xc5: 'differential sequential',
  0xc6: 'differential progressive',
  0xc7: 'differential lossless',
  0xc9: 'arithmetic-coded sequential',
  0xca: 'arithmetic-coded progressive',
  0xcb: 'arithmetic-coded lossless',
  0xcd: 'arithmetic-coded differential sequential',
  0xce: 'arithmetic-coded differential progressive',
  0xcf: 'arithmetic-coded differential lossless',
};

function startsWithAscii(seg: Uint8Array, text: string): boolean {
  if (seg.length < text.length) return false;
  for (let i = 0; i < text.length; i++) if (seg[i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Walks the markers up to the first SOS: frame size, JFIF density, EXIF. */
export function readJpegHeader(bytes: Uint8Array): JpegInfo {
  let at = 2;
  let frame: Omit<JpegInfo, 'sosOffset'> | undefined;
  let exif: ExifInfo | undefined;
  let jfifDpi: Dpi | undefined;
  for (;;) {
    // Skip anything up to the next marker (some writers leave padding between segments).
    while (at < bytes.length && bytes[at] !== 0xff) at++;
    while (at < bytes.length && bytes[at] === 0xff) at++;
    if (at >= bytes.length) throw corrupt('truncated JPEG (ends before the image data)');
    const marker = bytes[at];
    at++;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (marker === 0xd9) throw corrupt('corrupt JPEG (end-of-image marker before any image data)');
    if (at + 2 > bytes.length) throw corrupt('truncated JPEG (cut inside a segment header)');
    const length = u16be(bytes, at);
    if (length < 2) throw corrupt('corrupt JPEG (segment length below 2)');
    const end = at + length;
    if (end > bytes.length) throw corrupt('truncated JPEG (a header segment runs past the end of the data)');
    const seg = bytes.subarray(at + 2, end);
    if (marker === 0xda) {
      if (!frame) throw corrupt('corrupt JPEG (image data before the frame header)');
      return { ...frame, sosOffset: at - 2, exif, jfifDpi };
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const kind = UNSUPPORTED_SOF[marker];
      if (kind) throw corrupt(`unsupported JPEG type (${kind})`);
      if (seg.length < 6) throw corrupt('corrupt JPEG (short frame header)');
      frame = { precision: seg[0], height: u16be(seg, 1), width: u16be(seg, 3), components: seg[5] };
    } else if (marker === 0xe0 && startsWithAscii(seg, 'JFIF\0') && seg.length >= 12 && !jfifDpi) {
      const units = seg[7];
      if (units === 1 || units === 2) jfifDpi = makeDpi(u16be(seg, 8), u16be(seg, 10), units === 1 ? 'inch' : 'cm');
    } else if (marker === 0xe1 && startsWithAscii(seg, 'Exif\0') && !exif) {
      exif = parseExif(seg.subarray(6));
    }
    at = end;
  }
}

/** An EOI marker after the first scan; entropy-coded data can't contain FF D9, so its absence means truncation. */
function hasEoiAfter(bytes: Uint8Array, from: number): boolean {
  for (let i = bytes.length - 2; i >= from; i--) if (bytes[i] === 0xff && bytes[i + 1] === 0xd9) return true;
  return false;
}

export function decodeJpeg(bytes: Uint8Array): RawImage {
  const info = readJpegHeader(bytes);
  if (info.precision !== 8) throw corrupt(`unsupported JPEG type (${info.precision}-bit samples)`);
  if (![1, 3, 4].includes(info.components)) throw corrupt(`unsupported JPEG type (${info.components} colour components)`);
  if (!hasEoiAfter(bytes, info.sosOffset)) throw corrupt('truncated JPEG (no end-of-image marker)');

  const decoded = jpegJs.decode(bytes, {
    useTArray: true,
    formatAsRGBA: true,
    tolerantDecoding: true,
    // index.ts has already refused images over the pixel limit; these only stop jpeg-js refusing valid ones.
    maxResolutionInMP: Math.ceil(MAX_ACCEPTED_PIXELS / 1e6) + 1,
    maxMemoryUsageInMB: 1024,
  });
  if (decoded.width !== info.width || decoded.height !== info.height) {
    throw corrupt('corrupt JPEG (decoded size differs from the frame header)');
  }
  const orientation = info.exif?.orientation;
  const upright = applyOrientation(decoded.data, decoded.width, decoded.height, orientation);
  let dpi = info.jfifDpi ?? info.exif?.dpi;
  if (dpi && orientation !== undefined && orientation >= 5) dpi = { x: dpi.y, y: dpi.x };
  return { width: upright.width, height: upright.height, data: upright.data, dpi };
}
