/**
 * TIFF → RGBA (first page). In: II*\0 / MM\0* bytes. Out: RawImage, upright per the Orientation tag, dpi from
 * X/YResolution. Package: `utif2` (none/LZW/Deflate/PackBits/JPEG; grey, RGB(A), palette, CMYK; 1–16 bit), behind
 * an IFD walk and strip checks here, since UTIF follows offsets and counts without bounds or cycle checks.
 */

import UTIF from 'utif2';

import { corrupt, makeDpi, ownArrayBuffer, quietly, sample16To8, u16be, u16le, u32be, u32le, type Dpi, type ImageHeader, type RawImage } from './common.js';
import { applyOrientation } from './exif.js';
import { checkTiffStrips } from './tiff-guard.js';

/** Bytes per value of TIFF field types 1–13. */
const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4];
/** Tags whose values UTIF.decode follows as offsets of further IFDs. */
const SUB_IFD_TAGS = new Set([330, 34665, 34853, 61440]);
/**
 * None, LZW, JPEG, Deflate, PackBits. Left out on purpose: CCITT fax (2, 3, 4) — UTIF's fax decoder goes
 * quadratic (effectively hangs) on corrupt strips — and old-style JPEG (6).
 */
const SUPPORTED_COMPRESSION = new Map([
  [1, 'none'], [5, 'LZW'], [7, 'JPEG'], [8, 'Deflate'], [32946, 'Deflate'], [32773, 'PackBits'],
]);
const UNSUPPORTED_NAMES: Record<number, string> = { 2: 'CCITT RLE', 3: 'CCITT Group 3 fax', 4: 'CCITT Group 4 fax', 6: 'old-style JPEG' };
const MAX_IFDS = 64;

interface TiffHeader extends ImageHeader {
  compression: number;
  bitsPerSample: number;
  samplesPerPixel: number;
  /** Where the first page's next-IFD pointer sits; zeroed in the copy given to UTIF so it reads one page. */
  nextPointerAt: number;
}

/**
 * Reads the first page's IFD and the SubIFD/EXIF/GPS IFDs UTIF.decode would follow from it, refusing
 * loops and value counts larger than the file (UTIF loops over counts unchecked, so those could hang).
 */
export function readTiffHeader(bytes: Uint8Array): TiffHeader {
  if (bytes.length < 8) throw corrupt('truncated TIFF (no complete header)');
  const le = bytes[0] === 0x49;
  const r16 = (o: number) => (le ? u16le(bytes, o) : u16be(bytes, o));
  const r32 = (o: number) => (le ? u32le(bytes, o) : u32be(bytes, o));
  const seen = new Set<number>();

  // Returns the IFD's SHORT/LONG values by tag, or undefined when the IFD lies outside the file.
  const walk = (offset: number, depth: number): Map<number, number> | undefined => {
    if (offset < 8 || offset + 2 > bytes.length) return undefined;
    if (seen.has(offset)) throw corrupt('corrupt TIFF (IFD loop)');
    if (seen.size >= MAX_IFDS || depth > 4) throw corrupt('corrupt TIFF (too many nested IFDs)');
    seen.add(offset);
    const values = new Map<number, number>();
    const count = r16(offset);
    for (let i = 0; i < count; i++) {
      const e = offset + 2 + i * 12;
      if (e + 12 > bytes.length) break;
      const tag = r16(e);
      const type = r16(e + 2);
      const n = r32(e + 4);
      const size = TYPE_SIZE[type] ?? 0;
      if (size * n > bytes.length) throw corrupt(`corrupt TIFF (tag ${tag} claims ${n} values)`);
      if (tag === 50740) throw corrupt('unsupported TIFF type (DNG / camera raw)');
      const inline = size * n <= 4;
      if (n >= 1 && (type === 3 || type === 4)) {
        const at = inline ? e + 8 : r32(e + 8);
        if (at + size <= bytes.length) values.set(tag, type === 3 ? r16(at) : r32(at));
      }
      if (SUB_IFD_TAGS.has(tag) && n >= 1 && size > 0) {
        if (type !== 3 && type !== 4 && type !== 13) throw corrupt(`corrupt TIFF (tag ${tag} has type ${type})`);
        const at = inline ? e + 8 : r32(e + 8);
        for (let j = 0; j < n && at + (j + 1) * size <= bytes.length; j++) {
          walk(type === 3 ? r16(at + 2 * j) : r32(at + 4 * j), depth + 1);
        }
      }
    }
    return values;
  };

  const first = r32(4);
  const page = walk(first, 0);
  const nextPointerAt = first + 2 + (page ? r16(first) : 0) * 12;
  if (!page || nextPointerAt + 4 > bytes.length) throw corrupt('truncated TIFF (first IFD runs past the end of the data)');
  const width = page.get(256);
  const height = page.get(257);
  if (width === undefined || height === undefined) throw corrupt('corrupt TIFF (first page has no width or height)');
  return {
    width,
    height,
    compression: page.get(259) ?? 1,
    bitsPerSample: page.get(258) ?? 1,
    samplesPerPixel: page.get(277) ?? 1,
    nextPointerAt,
  };
}

type Ifd = Record<string, unknown> & { width: number; height: number; data: Uint8Array };

/** utif2's bundled typings are older than its API (decode/decodeImage take extra arguments). */
const utif = UTIF as unknown as {
  decode(buffer: ArrayBuffer, options: { parseMN: boolean; debug: boolean }): Ifd[];
  decodeImage(buffer: ArrayBuffer, ifd: Ifd, ifds: Ifd[]): void;
  toRGBA8(ifd: Ifd): Uint8Array;
};

const num = (ifd: Ifd, tag: number, fallback: number): number => {
  const v = ifd[`t${tag}`] as ArrayLike<number> | undefined;
  return v && v.length > 0 && typeof v[0] === 'number' ? v[0] : fallback;
};

function rational(ifd: Ifd, tag: number): number | undefined {
  const v = ifd[`t${tag}`] as Array<[number, number]> | undefined;
  const r = v?.[0];
  return Array.isArray(r) && r[1] ? r[0] / r[1] : undefined;
}

/**
 * Grey (photometric 0/1), RGB (2) and CMYK (5) at 8 or 16 bits with an optional alpha sample, → 8-bit RGBA.
 * Used where UTIF.toRGBA8 falls short: CMYK without its window.UDOC hook, and 16-bit samples, which it truncates
 * to their high byte; here they are rounded (sample16To8) so a 16-bit file reads like its 8-bit copy.
 */
function directRgba(ifd: Ifd, photometric: number, bps: number, spp: number): Uint8Array {
  const { width, height, data } = ifd;
  const n = width * height;
  // UTIF stores 16-bit samples little-endian.
  const at = bps === 8 ? (i: number) => data[i] : (i: number) => sample16To8(data[i * 2] | (data[i * 2 + 1] << 8));
  const colours = photometric === 5 ? 4 : photometric === 2 ? 3 : 1;
  const out = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    const s = i * spp;
    const o = i * 4;
    if (photometric === 5) {
      const k = 255 - at(s + 3);
      for (let c = 0; c < 3; c++) out[o + c] = Math.round(((255 - at(s + c)) * k) / 255);
    } else if (colours === 3) {
      for (let c = 0; c < 3; c++) out[o + c] = at(s + c);
    } else {
      out[o] = out[o + 1] = out[o + 2] = photometric === 0 ? 255 - at(s) : at(s);
    }
    out[o + 3] = spp > colours ? at(s + colours) : 255;
  }
  return out;
}

/** UTIF.toRGBA8 plus what it lacks: CMYK, 16-bit grey/RGB rounded (directRgba), grey+alpha, associated alpha. */
function toRgba(ifd: Ifd): Uint8Array {
  const photometric = num(ifd, 262, 2);
  const bps = num(ifd, 258, 1);
  const spp = num(ifd, 277, 1);
  const { width, height, data } = ifd;
  const n = width * height;
  const direct =
    (photometric === 5 && (bps === 8 || bps === 16) && spp >= 4) ||
    (bps === 16 && ((photometric === 2 && spp >= 3) || ((photometric === 0 || photometric === 1) && spp >= 1)));
  if (photometric === 5 && direct) return directRgba(ifd, photometric, bps, spp);
  const out = direct ? directRgba(ifd, photometric, bps, spp) : utif.toRGBA8(ifd);
  if (photometric === 1 && bps === 8 && spp === 2) {
    for (let i = 0; i < n; i++) out[i * 4 + 3] = data[i * 2 + 1];
  }
  if ((photometric === 1 || photometric === 2) && spp >= 2 && num(ifd, 338, 0) === 1) {
    // Associated (premultiplied) alpha → straight alpha.
    for (let o = 0; o < n * 4; o += 4) {
      const a = out[o + 3];
      if (a > 0 && a < 255) for (let c = 0; c < 3; c++) out[o + c] = Math.min(255, Math.round((out[o + c] * 255) / a));
    }
  }
  return out;
}

/**
 * 400/1006 when a strip or tile starts or ends past the end of the file: a truncated download or
 * copy, whose missing rows UTIF would otherwise fill with zeros and the trace would show as a
 * black band (the reference's "failed to read the supplied image", as for every other format).
 */
function checkStripsInFile(ifd: Ifd, offsetTag: number, countTag: number, fileLength: number): void {
  const offsets = ifd[`t${offsetTag}`] as number[] | undefined;
  const counts = ifd[`t${countTag}`] as number[] | undefined;
  if (!Array.isArray(offsets) || !Array.isArray(counts)) return;
  for (let i = 0; i < offsets.length; i++) {
    if (offsets[i]! + (counts[i] ?? 0) > fileLength) throw corrupt('truncated TIFF (image data runs past the end of the file)');
  }
}

/** Strip/tile byte counts cut to the file: UTIF copies `count` bytes in a loop, so 0xFFFFFFFF would hang it. */
function clampByteCounts(ifd: Ifd, offsetTag: number, countTag: number, fileLength: number): void {
  const offsets = ifd[`t${offsetTag}`] as number[] | undefined;
  const counts = ifd[`t${countTag}`] as number[] | undefined;
  if (!Array.isArray(offsets) || !Array.isArray(counts)) return;
  for (let i = 0; i < counts.length; i++) {
    const off = offsets[i] ?? fileLength;
    counts[i] = Math.max(0, Math.min(counts[i], fileLength - off));
  }
}

export function decodeTiff(bytes: Uint8Array): RawImage {
  const header = readTiffHeader(bytes);
  if (!SUPPORTED_COMPRESSION.has(header.compression)) {
    const name = UNSUPPORTED_NAMES[header.compression] ?? `compression ${header.compression}`;
    throw corrupt(`unsupported TIFF type (${name})`);
  }
  const { bitsPerSample: bps, samplesPerPixel: spp } = header;
  if (bps < 1 || bps > 32 || spp < 1 || spp > 8) throw corrupt(`unsupported TIFF type (${spp} samples of ${bps} bits)`);
  const buffer = ownArrayBuffer(bytes);
  new DataView(buffer).setUint32(header.nextPointerAt, 0); // first page only: UTIF never walks the page chain
  const rgba = quietly(() => {
    const ifds = utif.decode(buffer, { parseMN: false, debug: false });
    const ifd = ifds[0];
    if (!ifd) throw corrupt('corrupt TIFF (no pages)');
    checkStripsInFile(ifd, 273, 279, bytes.length);
    checkStripsInFile(ifd, 324, 325, bytes.length);
    clampByteCounts(ifd, 273, 279, bytes.length);
    clampByteCounts(ifd, 324, 325, bytes.length);
    const tiled = ifd.t322 !== undefined;
    const offsets = (tiled ? ifd.t324 : ifd.t273) as number[] | undefined;
    const counts = (tiled ? ifd.t325 : ifd.t279) as number[] | undefined;
    if (!Array.isArray(offsets) || offsets.length === 0) throw corrupt('corrupt TIFF (no strip or tile offsets)');
    if (header.compression !== 1 && !Array.isArray(counts)) throw corrupt('corrupt TIFF (no strip or tile byte counts)');
    const tw = tiled ? num(ifd, 322, header.width) : header.width;
    const th = tiled ? num(ifd, 323, header.height) : header.height;
    if (!(tw >= 1 && th >= 1 && tw * th <= Math.max(header.width * header.height, 1 << 16) * 4)) {
      throw corrupt(`corrupt TIFF (tile size ${tw}×${th})`);
    }
    const paddedW = Math.ceil(header.width / tw) * tw;
    const paddedH = Math.ceil(header.height / th) * th;
    checkTiffStrips(bytes, header.compression, offsets, counts ?? [], paddedH * Math.ceil((paddedW * bps * spp) / 8));
    utif.decodeImage(buffer, ifd, ifds);
    if (!ifd.data || ifd.width !== header.width || ifd.height !== header.height) throw corrupt('corrupt TIFF (no image data in the first page)');
    return { ifd, data: toRgba(ifd) };
  });
  const { ifd } = rgba;
  if (rgba.data.length !== ifd.width * ifd.height * 4) throw corrupt('corrupt TIFF (decoded size mismatch)');

  const orientation = num(ifd, 274, 1);
  const upright = applyOrientation(rgba.data, ifd.width, ifd.height, orientation);
  const unit = num(ifd, 296, 2);
  const xr = rational(ifd, 282);
  const yr = rational(ifd, 283);
  let dpi: Dpi | undefined = xr && yr && (unit === 2 || unit === 3) ? makeDpi(xr, yr, unit === 2 ? 'inch' : 'cm') : undefined;
  if (dpi && orientation >= 5) dpi = { x: dpi.y, y: dpi.x };
  return { width: upright.width, height: upright.height, data: upright.data, dpi };
}
