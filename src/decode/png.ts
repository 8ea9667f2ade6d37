/**
 * PNG → RGBA. In: PNG bytes. Out: RawImage (8-bit RGBA, pHYs → dpi). The chunk walk here reads the header, catches
 * truncation and caps the inflated size (zlib bombs) before anything is inflated. Non-interlaced images are
 * inflated once (the host's one-shot inflate when it registered one — node:zlib in the CLI, inflate.ts — else
 * fflate, bounded) and unfiltered here (png-unfilter.ts), with fast-png's chunk checks and error messages
 * reproduced (checkChunks). Adam7 at 1/2/4 bit: png-adam7.ts (fast-png 8.0.0 mis-reads those). Adam7 at 8/16 bit,
 * and files with more than one IHDR chunk, still go through `fast-png` (decodeWithFastPng).
 */

import { decode as fastPngDecode } from 'fast-png';
import { Unzlib } from 'fflate';

import { corrupt, makeDpi, sample16To8, u32be, type ImageHeader, type RawImage } from './common.js';
import { crc32 } from './crc32.js';
import { concatBytes } from './bytes.js';
import { adam7RawSize, deinterlaceSubByte } from './png-adam7.js';
import { inflateBounded, inflateBoundedInto } from './inflate-bounded.js';
import { unfilterScanlines } from './png-unfilter.js';
import { inflateZlibInto } from './inflate.js';

/** Allowed bit depths per colour type (PNG spec, table 11.1). */
const DEPTHS: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

interface PngInfo extends ImageHeader {
  depth: number;
  colorType: number;
  interlaced: boolean;
  idat: Uint8Array[];
  idatBytes: number;
  palette?: Uint8Array; // RGB triples
  trns?: Uint8Array;
  sawIend: boolean;
}

function chunkType(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}

/** IHDR only: 8-byte signature + 25-byte IHDR chunk. */
export function readPngHeader(bytes: Uint8Array): ImageHeader & { depth: number; colorType: number; interlaced: boolean } {
  if (bytes.length < 33) throw corrupt('truncated PNG (no complete IHDR header)');
  if (u32be(bytes, 8) !== 13 || chunkType(bytes, 12) !== 'IHDR') throw corrupt('corrupt PNG (first chunk is not IHDR)');
  const width = u32be(bytes, 16);
  const height = u32be(bytes, 20);
  const depth = bytes[24];
  const colorType = bytes[25];
  const allowed = DEPTHS[colorType];
  if (!allowed) throw corrupt(`corrupt PNG (unknown colour type ${colorType})`);
  if (!allowed.includes(depth)) throw corrupt(`corrupt PNG (bit depth ${depth} is invalid for colour type ${colorType})`);
  if (bytes[26] !== 0 || bytes[27] !== 0) throw corrupt('corrupt PNG (unknown compression or filter method)');
  if (bytes[28] > 1) throw corrupt(`corrupt PNG (unknown interlace method ${bytes[28]})`);
  return { width, height, depth, colorType, interlaced: bytes[28] === 1 };
}

function walkChunks(bytes: Uint8Array): PngInfo {
  const head = readPngHeader(bytes);
  const info: PngInfo = { ...head, idat: [], idatBytes: 0, sawIend: false };
  let at = 8;
  while (at < bytes.length) {
    if (at + 8 > bytes.length) throw corrupt('truncated PNG (cut inside a chunk header)');
    const length = u32be(bytes, at);
    const type = chunkType(bytes, at + 4);
    if (length > 0x7fffffff) throw corrupt(`corrupt PNG (chunk ${JSON.stringify(type)} has an impossible length)`);
    const end = at + 12 + length;
    if (end > bytes.length) throw corrupt(`truncated PNG (chunk ${JSON.stringify(type)} runs past the end of the data)`);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IDAT') {
      info.idat.push(data);
      info.idatBytes += length;
    } else if (type === 'PLTE') {
      info.palette = data;
    } else if (type === 'tRNS') {
      info.trns = data;
    } else if (type === 'IEND') {
      info.sawIend = true;
      break;
    }
    at = end;
  }
  if (info.idat.length === 0) throw corrupt(info.sawIend ? 'corrupt PNG (no IDAT image data)' : 'truncated PNG (no image data)');
  if (info.colorType === 3 && !info.palette) throw corrupt('corrupt PNG (palette image without PLTE chunk)');
  return info;
}

/** Bytes the zlib stream must inflate to: filter byte + packed row, per row (per pass when interlaced). */
function rawSize(info: PngInfo): number {
  const bitsPerPixel = info.depth * CHANNELS[info.colorType];
  if (info.interlaced) return adam7RawSize(info.width, info.height, bitsPerPixel);
  return info.height * (1 + Math.ceil((info.width * bitsPerPixel) / 8));
}

/**
 * The file reduced to what fast-png needs — signature, IHDR, PLTE, IDAT, IEND (added if missing) — with the
 * original CRCs. Ancillary chunks (tRNS, pHYs, iCCP, text...) are read here instead: fast-png throws on some
 * that libpng-based viewers merely ignore (a colour-key tRNS on images under 3 px, a bad iCCP profile).
 */
function criticalChunksOnly(bytes: Uint8Array): Uint8Array {
  const keep: Uint8Array[] = [bytes.subarray(0, 8)];
  let at = 8;
  let sawIend = false;
  while (at + 12 <= bytes.length) {
    const end = at + 12 + u32be(bytes, at);
    const type = chunkType(bytes, at + 4);
    if (type === 'IHDR' || type === 'PLTE' || type === 'IDAT' || type === 'IEND') keep.push(bytes.subarray(at, end));
    if (type === 'IEND') {
      sawIend = true;
      break;
    }
    at = end;
  }
  if (!sawIend) keep.push(new Uint8Array([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]));
  return concatBytes(keep);
}

/**
 * `file` (signature + critical chunks) with its IDAT chunks replaced by one IDAT holding `raw` in
 * stored zlib blocks. The original IDAT CRCs are checked first, since fast-png will not see them.
 */
function withStoredImageData(file: Uint8Array, raw: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [file.subarray(0, 8)];
  let at = 8;
  let placed = false;
  while (at + 12 <= file.length) {
    const length = u32be(file, at);
    const end = at + 12 + length;
    const type = chunkType(file, at + 4);
    if (type === 'IDAT') {
      if (crc32(file, at + 4, at + 8 + length) !== u32be(file, at + 8 + length)) throw corrupt('corrupt PNG (IDAT checksum mismatch)');
      if (!placed) parts.push(idatChunk(storedZlib(raw)));
      placed = true;
    } else parts.push(file.subarray(at, end));
    at = end;
  }
  return concatBytes(parts);
}

/** zlib stream of stored blocks (no compression) with its Adler-32 trailer. */
function storedZlib(raw: Uint8Array): Uint8Array {
  const BLOCK = 65535;
  const blocks = Math.max(1, Math.ceil(raw.length / BLOCK));
  const out = new Uint8Array(2 + blocks * 5 + raw.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let o = 2;
  for (let b = 0; b < blocks; b++) {
    const start = b * BLOCK;
    const len = Math.min(BLOCK, raw.length - start);
    out[o] = b === blocks - 1 ? 1 : 0;
    out[o + 1] = len & 255;
    out[o + 2] = len >> 8;
    out[o + 3] = ~len & 255;
    out[o + 4] = (~len >> 8) & 255;
    out.set(raw.subarray(start, start + len), o + 5);
    o += 5 + len;
  }
  const adler = adler32(raw);
  out[o] = adler >>> 24;
  out[o + 1] = (adler >>> 16) & 255;
  out[o + 2] = (adler >>> 8) & 255;
  out[o + 3] = adler & 255;
  return out;
}

/**
 * Adler-32 (RFC 1950) with the modulo deferred: at most NMAX = 5552 bytes are summed before reducing, the largest
 * run for which the sums cannot overflow 32 bits (zlib's adler32.c), so they stay small integers.
 */
export function adler32(data: Uint8Array): number {
  const NMAX = 5552;
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    const end = Math.min(i + NMAX, data.length);
    for (; i < end; i++) {
      a += data[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function idatChunk(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set([0x49, 0x44, 0x41, 0x54], 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/** Unpacks 1/2/4-bit samples (one channel, rows padded to whole bytes) to one byte per sample. */
function unpackRows(packed: ArrayLike<number>, width: number, height: number, depth: number): Uint8Array {
  const out = new Uint8Array(width * height);
  const rowBytes = Math.ceil((width * depth) / 8);
  const mask = (1 << depth) - 1;
  for (let y = 0; y < height; y++) {
    const row = y * rowBytes;
    for (let x = 0; x < width; x++) {
      const bit = x * depth;
      out[y * width + x] = (packed[row + (bit >> 3)] >> (8 - depth - (bit & 7))) & mask;
    }
  }
  return out;
}

/** Samples (one array element per channel value, at the file's bit depth) → 8-bit RGBA. */
function toRgba(info: PngInfo, samples: ArrayLike<number>): Uint8Array {
  const { width, height, depth, colorType } = info;
  const n = width * height;
  const out = new Uint8Array(n * 4);
  const max = depth === 16 ? 65535 : (1 << depth) - 1;
  const lut = new Uint8Array(max + 1); // sample value → 8-bit
  for (let v = 0; v <= max; v++) lut[v] = depth === 16 ? sample16To8(v) : Math.round((v * 255) / max);
  const trns = info.trns;
  const key = (i: number) => colourKey(trns, i);

  if (colorType === 0 || colorType === 4) {
    const step = colorType === 0 ? 1 : 2;
    const k = colorType === 0 ? key(0) : -1;
    for (let i = 0, o = 0; i < n; i++, o += 4) {
      const v = samples[i * step];
      out[o] = out[o + 1] = out[o + 2] = lut[v];
      out[o + 3] = step === 2 ? lut[samples[i * 2 + 1]] : v === k ? 0 : 255;
    }
  } else if (colorType === 2) {
    const kr = key(0), kg = key(1), kb = key(2);
    if (depth === 8 && samples instanceof Uint8Array) {
      rgb8ToRgba(samples, n, kr, kg, kb, out);
    } else {
      for (let i = 0, o = 0; i < n; i++, o += 4) {
        const r = samples[i * 3], g = samples[i * 3 + 1], b = samples[i * 3 + 2];
        out[o] = lut[r];
        out[o + 1] = lut[g];
        out[o + 2] = lut[b];
        out[o + 3] = r === kr && g === kg && b === kb ? 0 : 255;
      }
    }
  } else if (colorType === 3) {
    // 256-entry RGBA table; indexes past the palette show as opaque black, as libpng-based viewers do.
    const pal = info.palette!;
    const table = new Uint8Array(256 * 4);
    for (let idx = 0; idx < 256; idx++) {
      table[idx * 4 + 3] = 255;
      if (idx * 3 + 2 < pal.length) table.set(pal.subarray(idx * 3, idx * 3 + 3), idx * 4);
      if (trns && idx < trns.length && idx * 3 + 2 < pal.length) table[idx * 4 + 3] = trns[idx];
    }
    for (let i = 0, o = 0; i < n; i++, o += 4) {
      const t = (samples[i] & 255) * 4;
      out[o] = table[t];
      out[o + 1] = table[t + 1];
      out[o + 2] = table[t + 2];
      out[o + 3] = table[t + 3];
    }
  } else {
    for (let i = 0; i < n * 4; i++) out[i] = lut[samples[i]];
  }
  return out;
}

/** Sample value of channel i of the tRNS colour key (16-bit big-endian), or -1 without one. */
function colourKey(trns: Uint8Array | undefined, i: number): number {
  return trns && trns.length >= i * 2 + 2 ? (trns[i * 2] << 8) | trns[i * 2 + 1] : -1;
}

/**
 * 8-bit RGB samples → RGBA (toRgba's 8-bit table is the identity), the pixels of colour key
 * (kr, kg, kb) transparent; a loop of its own on a byte array (the common PNG of art and photos).
 * Last pixel first, so `out` may be the samples' own buffer (same start): pixel i's RGBA, bytes
 * 4i … 4i + 3, is written after its RGB (3i … 3i + 2) is read, above every byte still to be read.
 */
function rgb8ToRgba(samples: Uint8Array, n: number, kr: number, kg: number, kb: number, out: Uint8Array): void {
  for (let i = n - 1, s = 3 * i, o = 4 * i; i >= 0; i--, s -= 3, o -= 4) {
    const r = samples[s]!;
    const g = samples[s + 1]!;
    const b = samples[s + 2]!;
    out[o] = r;
    out[o + 1] = g;
    out[o + 2] = b;
    out[o + 3] = r === kr && g === kg && b === kb ? 0 : 255;
  }
}

function physDpi(res: { x: number; y: number; unit: number } | undefined) {
  // unit 1 = metre; unit 0 only gives the pixel aspect ratio
  return res && res.unit === 1 ? makeDpi(res.x, res.y, 'm') : undefined;
}

/**
 * The zlib stream decodePng hands the one-shot inflater (inflate.ts) and the size it must fill, or
 * undefined when it would not call it (interlaced, no signature, a stream too short to fill the
 * size) or the chunks cannot be read (decodePng reports that). For a host whose native inflate is
 * asynchronous (browser-inflate.ts): it inflates this stream before the decode.
 */
export function pngOneShotStream(bytes: Uint8Array): { zlib: Uint8Array; size: number } | undefined {
  try {
    const info = walkChunks(bytes);
    if (info.interlaced || !hasSignature(bytes)) return undefined;
    const size = rawSize(info);
    return info.idatBytes * 1032 >= size ? { zlib: concatBytes(info.idat), size } : undefined;
  } catch {
    return undefined;
  }
}

export function decodePng(bytes: Uint8Array): RawImage {
  const info = walkChunks(bytes);
  const expected = rawSize(info);
  const limit = expected + (expected >> 3) + (1 << 20);
  const { width, height, depth } = info;

  if (info.interlaced && depth < 8) {
    const samples = deinterlaceSubByte(inflateBounded(info.idat, limit), width, height, depth);
    return { width, height, data: toRgba(info, samples), dpi: physDpi(readPhys(bytes)) };
  }
  const chunks = criticalChunkList(bytes);
  if (info.interlaced || !hasSignature(bytes) || chunks.filter((c) => c.type === 'IHDR').length !== 1) {
    return decodeWithFastPng(bytes, info, limit);
  }

  // Non-interlaced: inflate once, unfilter here. The checks, their order and their messages are the fast-png
  // path's (decodeWithFastPng): DEFLATE expands at most ~1032:1, so only streams that *could* exceed the declared
  // size need the bounded inflate, after which the IDAT CRCs are checked (withStoredImageData); other streams were
  // inflated by fast-png chunk by chunk between its chunk checks. First, the one-shot inflater: when it yields
  // exactly the declared size, neither inflate could have failed and only the chunk checks remain; otherwise the
  // reference inflate runs again to give the same result or error as before.
  // (A stream under 1/1032 of the declared size cannot fill it: straight to the reference inflate.)
  let raw: Uint8Array | undefined;
  let spare: Uint8Array | undefined;
  // 8-bit RGB: the inflated rows go to the start of a buffer the size of the RGBA output, which is
  // then widened in place (rgb8ToRgba): one image buffer fewer per decode.
  let room: Uint8Array | undefined;
  if (info.idatBytes * 1032 >= expected) {
    if (info.colorType === 2 && depth === 8) room = new Uint8Array(width * height * 4);
    spare = room ? room.subarray(0, expected) : new Uint8Array(expected);
    if (inflateZlibInto(concatBytes(info.idat), spare) === expected) raw = spare;
  }
  try {
    if (info.idatBytes * 1032 > limit) {
      raw ??= inflateBoundedInto(info.idat, expected, limit, 'PNG', spare);
      for (const c of chunks) {
        if (c.type === 'IDAT' && crc32(bytes, c.at + 4, c.at + 8 + c.length) !== u32be(bytes, c.at + 8 + c.length)) {
          throw corrupt('corrupt PNG (IDAT checksum mismatch)');
        }
      }
      checkChunks(bytes, chunks, false);
    } else if (raw) {
      checkChunks(bytes, chunks, true);
    } else {
      const parts: Uint8Array[] = [];
      const inflater = new Unzlib((data) => parts.push(data));
      checkChunks(bytes, chunks, true, (data) => {
        try {
          inflater.push(data, false);
        } catch (error) {
          throw new Error('Error while decompressing the data:', { cause: error });
        }
      });
      inflater.push(new Uint8Array(0), true);
      raw = concatBytes(parts);
    }
  } catch (err) {
    if (/unexpected EOF/i.test(err instanceof Error ? err.message : '')) throw corrupt('truncated PNG (compressed image data ends early)');
    throw err;
  }

  const channels = CHANNELS[info.colorType];
  const stride = Math.ceil((width * depth * channels) / 8);
  // The inflated data is this decode's own (never a view of `bytes`): unfiltered in place.
  const rows = unfilterScanlines(raw, height, stride, Math.max(1, (depth >> 3) * channels), true);
  let samples: ArrayLike<number> = rows;
  if (depth < 8) samples = unpackRows(rows, width, height, depth);
  else if (depth === 16) {
    const wide = new Uint16Array(rows.length >> 1);
    for (let i = 0, j = 0; i < wide.length; i++, j += 2) wide[i] = (rows[j] << 8) | rows[j + 1];
    samples = wide;
  } else if (info.colorType === 6) {
    // 8-bit RGBA is already the output (toRgba's 8-bit table is the identity).
    return { width, height, data: rows, dpi: physDpi(readPhys(bytes)) };
  } else if (room && rows.buffer === room.buffer && rows.byteOffset === 0) {
    rgb8ToRgba(rows, width * height, colourKey(info.trns, 0), colourKey(info.trns, 1), colourKey(info.trns, 2), room);
    return { width, height, data: room, dpi: physDpi(readPhys(bytes)) };
  }
  return { width, height, data: toRgba(info, samples), dpi: physDpi(readPhys(bytes)) };
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
function hasSignature(bytes: Uint8Array): boolean {
  return SIGNATURE.every((b, i) => bytes[i] === b);
}

interface ChunkRef {
  type: string;
  /** Offset of the chunk's length field. */
  at: number;
  length: number;
}

/** IHDR, PLTE, IDAT and IEND chunks up to IEND: what criticalChunksOnly keeps (the added IEND is left out). */
function criticalChunkList(bytes: Uint8Array): ChunkRef[] {
  const list: ChunkRef[] = [];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = u32be(bytes, at);
    const type = chunkType(bytes, at + 4);
    if (type === 'IHDR' || type === 'PLTE' || type === 'IDAT' || type === 'IEND') list.push({ type, at, length });
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return list;
}

/**
 * fast-png's checks of the critical chunks (with checkCrc), in file order and with its messages: PLTE length,
 * IEND length, then each chunk's CRC; IDAT chunks only when `idat` (`onIdat` gets each one's data before its CRC is
 * checked, as fast-png inflated it there). decodeImage wraps these plain errors as 1006.
 */
function checkChunks(bytes: Uint8Array, chunks: ChunkRef[], idat: boolean, onIdat?: (data: Uint8Array) => void): void {
  for (const { type, at, length } of chunks) {
    if (type === 'IDAT') {
      if (!idat) continue;
      onIdat?.(bytes.subarray(at + 8, at + 8 + length));
    } else if (type === 'PLTE' && length % 3 !== 0) {
      throw new RangeError(`PLTE field length must be a multiple of 3. Got ${length}`);
    } else if (type === 'IEND' && length !== 0) {
      throw new Error(`Length mismatch while decoding chunk ${type}`);
    }
    const expectedCrc = u32be(bytes, at + 8 + length);
    const actualCrc = crc32(bytes, at + 4, at + 8 + length);
    if (actualCrc !== expectedCrc) throw new Error(`CRC mismatch for chunk ${type}. Expected ${expectedCrc}, found ${actualCrc}`);
  }
}

/**
 * The fast-png path: Adam7 at 8/16 bit, and files decodePng does not unfilter itself. Exported so tests can compare
 * the two paths on non-interlaced files.
 */
export function decodeWithFastPng(bytes: Uint8Array, info: PngInfo = walkChunks(bytes), limit?: number): RawImage {
  const { width, height, depth } = info;
  if (limit === undefined) {
    const expected = rawSize(info);
    limit = expected + (expected >> 3) + (1 << 20);
  }
  // DEFLATE expands at most ~1032:1, so only streams that *could* exceed the declared size need the
  // bounded inflate. Its output is then handed to fast-png as stored (uncompressed) zlib blocks, so
  // the data is inflated once, not twice.
  let file = criticalChunksOnly(bytes);
  if (info.idatBytes * 1032 > limit) {
    const raw = inflateBounded(info.idat, limit);
    file = withStoredImageData(file, raw);
  }

  let png: ReturnType<typeof fastPngDecode>;
  try {
    png = fastPngDecode(file, { checkCrc: true });
  } catch (err) {
    const msg = err instanceof Error ? err.message : '';
    if (/unexpected EOF/i.test(msg)) throw corrupt('truncated PNG (compressed image data ends early)');
    // fast-png reads a missing scanline's filter byte as `undefined`.
    if (msg === 'Unsupported filter: undefined') throw corrupt('truncated PNG (image data ends early)');
    if (/^Unsupported filter: /.test(msg)) throw corrupt(`corrupt PNG data (${msg})`);
    throw err;
  }
  if (png.width !== width || png.height !== height) throw corrupt('corrupt PNG (decoder size mismatch)');
  const samples = depth < 8 ? unpackRows(png.data, width, height, depth) : png.data;
  if (samples.length < width * height * CHANNELS[info.colorType]) throw corrupt('truncated PNG (image data ends early)');
  return { width, height, data: toRgba(info, samples), dpi: physDpi(readPhys(bytes)) };
}

/** pHYs chunk as { x, y, unit } (unit 1 = metre). */
function readPhys(bytes: Uint8Array): { x: number; y: number; unit: number } | undefined {
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = u32be(bytes, at);
    const type = chunkType(bytes, at + 4);
    if (type === 'pHYs' && length === 9 && at + 17 <= bytes.length) {
      return { x: u32be(bytes, at + 8), y: u32be(bytes, at + 12), unit: bytes[at + 16] };
    }
    if (type === 'IDAT' || type === 'IEND') return undefined; // pHYs must precede IDAT
    at += 12 + length;
  }
  return undefined;
}
