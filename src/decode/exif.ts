/**
 * EXIF orientation and resolution. In: the TIFF structure of a JPEG APP1 "Exif" segment (or an orientation
 * code and an RGBA buffer). Out: { orientation, dpi } from IFD0 tags 0x0112 / 0x011A / 0x011B / 0x0128, and
 * the RGBA buffer turned upright. No package: a bounds-checked reader of IFD0 only.
 */

import { makeDpi, u16be, u16le, u32be, u32le, type Dpi } from './common.js';

export interface ExifInfo {
  orientation?: number;
  dpi?: Dpi;
}

/** Parses IFD0 of a TIFF/EXIF block. Never throws: bad EXIF is ignored, as viewers do. */
export function parseExif(tiff: Uint8Array): ExifInfo {
  if (tiff.length < 8) return {};
  const le = tiff[0] === 0x49 && tiff[1] === 0x49;
  if (!le && !(tiff[0] === 0x4d && tiff[1] === 0x4d)) return {};
  const r16 = (o: number) => (le ? u16le(tiff, o) : u16be(tiff, o));
  const r32 = (o: number) => (le ? u32le(tiff, o) : u32be(tiff, o));
  if (r16(2) !== 42) return {};
  const ifd = r32(4);
  if (ifd + 2 > tiff.length) return {};
  const count = r16(ifd);
  const info: ExifInfo = {};
  let xRes: number | undefined, yRes: number | undefined, unit = 2;
  const rational = (entry: number) => {
    const off = r32(entry + 8);
    if (off + 8 > tiff.length) return undefined;
    const den = r32(off + 4);
    return den ? r32(off) / den : undefined;
  };
  for (let i = 0; i < count; i++) {
    const e = ifd + 2 + i * 12;
    if (e + 12 > tiff.length) break;
    const tag = r16(e);
    const type = r16(e + 2);
    if (tag === 0x0112 && type === 3) info.orientation = r16(e + 8);
    else if (tag === 0x011a && type === 5) xRes = rational(e);
    else if (tag === 0x011b && type === 5) yRes = rational(e);
    else if (tag === 0x0128 && type === 3) unit = r16(e + 8);
  }
  if (info.orientation !== undefined && (info.orientation < 1 || info.orientation > 8)) delete info.orientation;
  if (xRes !== undefined && yRes !== undefined && (unit === 2 || unit === 3)) {
    const dpi = makeDpi(xRes, yRes, unit === 2 ? 'inch' : 'cm');
    if (dpi) info.dpi = dpi;
  }
  return info;
}

/**
 * Applies an EXIF orientation (1–8) to an RGBA buffer so the result is upright.
 * Orientations 5–8 swap width and height.
 */
export function applyOrientation(
  data: Uint8Array,
  width: number,
  height: number,
  orientation: number | undefined,
): { data: Uint8Array; width: number; height: number } {
  if (!orientation || orientation === 1 || orientation > 8) return { data, width, height };
  const swap = orientation >= 5;
  const ow = swap ? height : width;
  const oh = swap ? width : height;
  const aligned = data.byteOffset % 4 === 0 ? data : data.slice();
  const src = new Uint32Array(aligned.buffer, aligned.byteOffset, width * height);
  const outBytes = new Uint8Array(ow * oh * 4);
  const out = new Uint32Array(outBytes.buffer);
  // For each output pixel (x, y), the source pixel (sx, sy) it shows.
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++) {
      let sx: number, sy: number;
      switch (orientation) {
        case 2: sx = width - 1 - x; sy = y; break; // mirrored horizontally
        case 3: sx = width - 1 - x; sy = height - 1 - y; break; // rotated 180°
        case 4: sx = x; sy = height - 1 - y; break; // mirrored vertically
        case 5: sx = y; sy = x; break; // transposed
        case 6: sx = y; sy = height - 1 - x; break; // needs 90° clockwise
        case 7: sx = width - 1 - y; sy = height - 1 - x; break; // transversed
        default: sx = width - 1 - y; sy = x; break; // 8: needs 90° counter-clockwise
      }
      out[y * ow + x] = src[sy * width + sx];
    }
  }
  return { data: outBytes, width: ow, height: oh };
}
