/**
 * Test-only image builders: PNG byte by byte (any colour type, depth, Adam7; zlib from fflate), BMP headers
 * around given pixel bytes, and an EXIF APP1 segment spliced into a JPEG.
 */

import { zlibSync } from 'fflate';
import { crc32 } from '../../src/decode/crc32.js';
import { PASSES } from '../../src/decode/png-adam7.js';

export { crc32 };

export function concat(...parts: ArrayLike<number>[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const be32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
const be16 = (v: number) => [(v >>> 8) & 255, v & 255];
const le32 = (v: number) => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255];
const le16 = (v: number) => [v & 255, (v >>> 8) & 255];
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

export function pngChunk(type: string, data: ArrayLike<number> = []): Uint8Array {
  const body = concat(ascii(type), data);
  return concat(be32(data.length), body, be32(crc32(body)));
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function ihdr(width: number, height: number, depth: number, colorType: number, interlace = 0): Uint8Array {
  return pngChunk('IHDR', [...be32(width), ...be32(height), depth, colorType, 0, 0, interlace]);
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7 = PASSES;

/** One scanline, filter type 0, of the given pixels' samples packed at `depth`. */
function packLine(samples: number[], depth: number): number[] {
  const line = [0];
  if (depth === 16) for (const s of samples) line.push(...be16(s));
  else if (depth === 8) line.push(...samples);
  else {
    let byte = 0;
    let bits = 0;
    for (const s of samples) {
      byte = (byte << depth) | s;
      bits += depth;
      if (bits === 8) {
        line.push(byte);
        byte = 0;
        bits = 0;
      }
    }
    if (bits) line.push(byte << (8 - bits));
  }
  return line;
}

export interface PngSpec {
  width: number;
  height: number;
  colorType: 0 | 2 | 3 | 4 | 6;
  depth: 1 | 2 | 4 | 8 | 16;
  /** Samples row-major, `channels` per pixel, at the file's bit depth. */
  samples: number[];
  interlace?: boolean;
  palette?: number[][];
  trns?: number[];
  /** pixels per unit X, Y and unit (1 = metre). */
  phys?: [number, number, number];
  /** An embedded ICC profile (iCCP chunk, zlib). */
  icc?: Uint8Array;
  omitIend?: boolean;
}

export function buildPng(spec: PngSpec): Uint8Array {
  const { width, height, colorType, depth, samples } = spec;
  const ch = CHANNELS[colorType];
  const pixel = (x: number, y: number) => samples.slice((y * width + x) * ch, (y * width + x + 1) * ch);
  const raw: number[] = [];
  if (spec.interlace) {
    for (const [x0, y0, dx, dy] of ADAM7) {
      for (let y = y0; y < height; y += dy) {
        const line: number[] = [];
        for (let x = x0; x < width; x += dx) line.push(...pixel(x, y));
        if (line.length) raw.push(...packLine(line, depth));
      }
    }
  } else {
    for (let y = 0; y < height; y++) raw.push(...packLine(samples.slice(y * width * ch, (y + 1) * width * ch), depth));
  }
  return concat(
    PNG_SIGNATURE,
    ihdr(width, height, depth, colorType, spec.interlace ? 1 : 0),
    spec.icc ? pngChunk('iCCP', [...ascii('test'), 0, 0, ...zlibSync(spec.icc)]) : [],
    spec.phys ? pngChunk('pHYs', [...be32(spec.phys[0]), ...be32(spec.phys[1]), spec.phys[2]]) : [],
    spec.palette ? pngChunk('PLTE', spec.palette.flat()) : [],
    spec.trns ? pngChunk('tRNS', spec.trns) : [],
    pngChunk('IDAT', zlibSync(new Uint8Array(raw))),
    spec.omitIend ? [] : pngChunk('IEND'),
  );
}

export interface BmpSpec {
  width: number;
  /** Stored as-is in the header: negative means top-down. */
  height: number;
  bpp: number;
  compression?: number;
  /** [r, g, b] entries. */
  palette?: number[][];
  /** Pixel bytes exactly as stored in the file (rows padded and ordered by the caller). */
  pixels: ArrayLike<number>;
  /** 40 (BITMAPINFOHEADER) or 108 (V4, carries the four masks). */
  headerSize?: 40 | 108;
  /** R, G, B(, A) masks for BI_BITFIELDS. */
  masks?: number[];
  pixelsPerMetre?: number;
  trailing?: number;
}

export function buildBmp(spec: BmpSpec): Uint8Array {
  const headerSize = spec.headerSize ?? 40;
  const compression = spec.compression ?? 0;
  const masks = spec.masks ?? [];
  const ppm = spec.pixelsPerMetre ?? 0;
  let dib = [
    ...le32(headerSize), ...le32(spec.width), ...le32(spec.height), ...le16(1), ...le16(spec.bpp),
    ...le32(compression), ...le32(spec.pixels.length), ...le32(ppm), ...le32(ppm),
    ...le32(spec.palette?.length ?? 0), ...le32(0),
  ];
  if (headerSize === 108) {
    dib.push(...[0, 1, 2, 3].flatMap((i) => le32(masks[i] ?? 0)), ...ascii('BGRs'), ...new Array(48).fill(0));
  }
  const extraMasks = headerSize === 40 && compression === 3 ? masks.slice(0, 3).flatMap(le32) : [];
  const palette = (spec.palette ?? []).flatMap(([r, g, b]) => [b, g, r, 0]);
  const offset = 14 + dib.length + extraMasks.length + palette.length;
  const trailing = new Array(spec.trailing ?? 0).fill(0);
  const size = offset + spec.pixels.length + trailing.length;
  dib = [...dib, ...extraMasks, ...palette];
  return concat(ascii('BM'), le32(size), le32(0), le32(offset), dib, spec.pixels, trailing);
}

/** Rows (top to bottom) of bytes → BMP pixel data: each row padded to 4 bytes, bottom-up unless topDown. */
export function bmpRows(rows: number[][], topDown = false): Uint8Array {
  const ordered = topDown ? rows : [...rows].reverse();
  return concat(...ordered.map((r) => [...r, ...new Array((4 - (r.length % 4)) % 4).fill(0)]));
}

/** An APP1 "Exif" segment (big-endian TIFF) with Orientation and optionally X/YResolution in dpi. */
export function exifSegment(orientation: number, dpi?: number): Uint8Array {
  const entries: number[][] = [[0x0112, 3, 1, orientation << 16]];
  const count = dpi ? 4 : 1;
  const ifdEnd = 8 + 2 + count * 12 + 4;
  if (dpi) {
    entries.push([0x011a, 5, 1, ifdEnd], [0x011b, 5, 1, ifdEnd + 8], [0x0128, 3, 1, 2 << 16]);
  }
  const tiff = [
    ...ascii('MM'), ...be16(42), ...be32(8), ...be16(count),
    ...entries.flatMap(([tag, type, n, value]) => [...be16(tag), ...be16(type), ...be32(n), ...be32(value)]),
    ...be32(0),
    ...(dpi ? [...be32(dpi), ...be32(1), ...be32(dpi), ...be32(1)] : []),
  ];
  const payload = [...ascii('Exif'), 0, 0, ...tiff];
  return concat([0xff, 0xe1], be16(payload.length + 2), payload);
}

/** Inserts a segment right after a JPEG's SOI marker. */
export function insertAfterSoi(jpeg: Uint8Array, segment: Uint8Array): Uint8Array {
  return concat(jpeg.subarray(0, 2), segment, jpeg.subarray(2));
}

export interface TiffSpec {
  width: number;
  height: number;
  /** 8 or 16 bits per sample. */
  depth: 8 | 16;
  /** 1 BlackIsZero grey, 2 RGB, 5 CMYK. */
  photometric: 1 | 2 | 5;
  /** Samples per pixel (grey 1–2, RGB 3–4, CMYK 4). An extra sample is unassociated alpha. */
  channels: number;
  /** Samples row-major, `channels` per pixel, at `depth`. */
  samples: number[];
  /** An embedded ICC profile (tag 34675). */
  icc?: Uint8Array;
}

/** An uncompressed, big-endian, one-strip TIFF; the entries in tag order, values after the IFD. */
export function buildTiff(spec: TiffSpec): Uint8Array {
  const { width, height, depth, photometric, channels, samples } = spec;
  const pixels = depth === 16 ? samples.flatMap(be16) : samples;
  const colourChannels = photometric === 1 ? 1 : photometric === 2 ? 3 : 4;
  const extra = channels > colourChannels;
  // [tag, type, values]: type 3 SHORT, 4 LONG, 7 UNDEFINED
  const entries: Array<[number, number, number[]]> = [
    [256, 4, [width]],
    [257, 4, [height]],
    [258, 3, new Array(channels).fill(depth)],
    [259, 3, [1]],
    [262, 3, [photometric]],
    [273, 4, [0]], // strip offset, patched below
    [277, 3, [channels]],
    [278, 4, [height]],
    [279, 4, [pixels.length]],
  ];
  if (extra) entries.push([338, 3, [2]]);
  if (spec.icc) entries.push([34675, 7, Array.from(spec.icc)]);
  const ifdBytes = 2 + entries.length * 12 + 4;
  let valueAt = 8 + ifdBytes;
  const outOfLine: number[][] = [];
  const body: number[] = [...be16(entries.length)];
  let stripOffsetAt = 0;
  for (const [tag, type, values] of entries) {
    const bytes = values.flatMap((v) => (type === 3 ? be16(v) : type === 4 ? be32(v) : [v]));
    body.push(...be16(tag), ...be16(type), ...be32(values.length));
    if (bytes.length <= 4) {
      if (tag === 273) stripOffsetAt = 8 + body.length;
      body.push(...bytes, ...new Array(4 - bytes.length).fill(0));
    } else {
      body.push(...be32(valueAt));
      outOfLine.push(bytes.length % 2 ? [...bytes, 0] : bytes);
      valueAt += outOfLine[outOfLine.length - 1].length;
    }
  }
  body.push(...be32(0));
  const file = concat(ascii('MM'), be16(42), be32(8), body, ...outOfLine, pixels);
  file.set(be32(valueAt), stripOffsetAt);
  return file;
}
