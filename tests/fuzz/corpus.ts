/**
 * Fuzz corpus: deterministic seed images in every input format and variant, and mutators that damage them.
 * Everything is driven by mulberry32 (no Math.random), so `makeCase(seeds, runSeed, i)` is the same input on
 * every machine and run: a failing case is reproduced from its (runSeed, index) alone.
 *
 * Seeds (buildSeeds): PNG every colour type × bit depth (0: 1/2/4/8/16, 2: 8/16, 3: 1/2/4/8, 4: 8/16, 6: 8/16),
 * each plain and Adam7, plus tRNS for types 0/2/3, odd sizes incl. 1×1, 1×N, N×1 (PngSuite-style);
 * JPEG baseline (jpeg-js) + progressive / grey / Adobe CMYK fixtures; WebP lossless + lossy (libwebp wasm) +
 * fixtures; GIF single-frame, transparent, animated (3–4 frames, local palettes, offsets) + interlaced fixture;
 * BMP 1/4/8/16/24/32-bit, top-down, RLE8.
 */

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

import jpegJs from 'jpeg-js';
import { GifWriter } from 'omggif';

import { crc32 } from '../../src/decode/crc32.js';
import { bmpRows, buildBmp, buildPng, type PngSpec } from '../decode/build.js';
import { encodeWebp } from '../helpers/encode.js';
import { mulberry32, type Rng } from '../helpers/random.js';

export const FORMATS = ['png', 'jpeg', 'webp', 'gif', 'bmp'] as const;
export type FuzzFormat = (typeof FORMATS)[number];

export interface Seed {
  format: FuzzFormat;
  variant: string;
  bytes: Uint8Array;
}

export interface FuzzCase {
  index: number;
  format: FuzzFormat;
  variant: string;
  mutator: Mutator;
  bytes: Uint8Array;
}

// ---------------------------------------------------------------------------------------------
// PRNG


export { mulberry32, type Rng };

/** Mixes the run seed and case index into one 32-bit seed (so cases are independent of each other). */
export function caseSeed(runSeed: number, index: number): number {
  let h = Math.imul(runSeed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

const int = (rng: Rng, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, items.length)]!;

// ---------------------------------------------------------------------------------------------
// Seed images

/** Odd and tiny sizes first (PngSuite-style), then a few ordinary small ones. */
const SIZES: ReadonlyArray<[number, number]> = [
  [1, 1], [1, 9], [9, 1], [2, 2], [3, 5], [5, 3], [7, 7], [13, 9], [16, 16], [17, 31], [32, 32], [39, 24],
];

/** Blocky index map with `colors` distinct values (so traces have real shapes): a few rectangles on a ground. */
function indexMap(rng: Rng, width: number, height: number, colors: number): number[] {
  const map = new Array<number>(width * height).fill(0);
  const rects = 1 + int(rng, 4);
  for (let r = 0; r < rects; r++) {
    const x0 = int(rng, width);
    const y0 = int(rng, height);
    const x1 = Math.min(width, x0 + 1 + int(rng, Math.max(1, width >> 1)));
    const y1 = Math.min(height, y0 + 1 + int(rng, Math.max(1, height >> 1)));
    const c = colors > 1 ? 1 + int(rng, colors - 1) : 0;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) map[y * width + x] = c;
  }
  return map;
}

function randomPalette(rng: Rng, n: number): number[][] {
  return Array.from({ length: n }, () => [int(rng, 256), int(rng, 256), int(rng, 256)]);
}

function rgbaFromMap(map: number[], palette: number[][], alphas?: number[]): Uint8Array {
  const out = new Uint8Array(map.length * 4);
  map.forEach((c, i) => {
    const [r, g, b] = palette[c]!;
    out.set([r!, g!, b!, alphas ? alphas[c]! : 255], i * 4);
  });
  return out;
}

const PNG_DEPTHS: Record<number, readonly number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function pngSeeds(rng: Rng): Seed[] {
  const seeds: Seed[] = [];
  let sizeAt = 0;
  for (const colorType of [0, 2, 3, 4, 6] as const) {
    for (const depth of PNG_DEPTHS[colorType]! as Array<PngSpec['depth']>) {
      const trnsOptions = colorType === 0 || colorType === 2 || colorType === 3 ? [false, true] : [false];
      for (const interlace of [false, true]) {
        for (const withTrns of trnsOptions) {
          const [width, height] = SIZES[sizeAt++ % SIZES.length]!;
          const max = 2 ** depth - 1;
          const colors = colorType === 3 ? Math.min(2 ** depth, 1 + int(rng, 6)) : 1 + int(rng, 5);
          const map = indexMap(rng, width, height, colors);
          const values = Array.from({ length: colors }, () =>
            Array.from({ length: PNG_CHANNELS[colorType]! }, () => Math.round(rng() * max)),
          );
          const spec: PngSpec = { width, height, colorType, depth, interlace, samples: [] };
          if (colorType === 3) {
            spec.samples = map;
            spec.palette = randomPalette(rng, colors);
            if (withTrns) spec.trns = Array.from({ length: colors }, () => int(rng, 256));
          } else {
            spec.samples = map.flatMap((c) => values[c]!);
            if (withTrns) {
              const key = values[0]!; // the ground colour becomes transparent
              spec.trns = key.flatMap((v) => [(v >>> 8) & 255, v & 255]);
            }
          }
          const variant = `ct${colorType}-d${depth}${interlace ? '-adam7' : ''}${withTrns ? '-trns' : ''}-${width}x${height}`;
          seeds.push({ format: 'png', variant, bytes: buildPng(spec) });
        }
      }
    }
  }
  return seeds;
}

function jpegSeeds(rng: Rng, fixture: (name: string) => Uint8Array): Seed[] {
  const seeds: Seed[] = [];
  for (const [i, [width, height]] of SIZES.entries()) {
    if (i % 2 === 1 && i > 2) continue;
    const map = indexMap(rng, width, height, 4);
    const data = rgbaFromMap(map, randomPalette(rng, 4));
    const quality = pick(rng, [10, 50, 75, 95]);
    const bytes = new Uint8Array(jpegJs.encode({ width, height, data: Buffer.from(data) }, quality).data);
    seeds.push({ format: 'jpeg', variant: `baseline-q${quality}-${width}x${height}`, bytes });
  }
  seeds.push({ format: 'jpeg', variant: 'progressive', bytes: fixture('jpeg-progressive.jpg') });
  seeds.push({ format: 'jpeg', variant: 'grey', bytes: fixture('jpeg-grey.jpg') });
  seeds.push({ format: 'jpeg', variant: 'cmyk-adobe', bytes: fixture('jpeg-cmyk-adobe.jpg') });
  return seeds;
}

async function webpSeeds(rng: Rng, fixture: (name: string) => Uint8Array): Promise<Seed[]> {
  const seeds: Seed[] = [];
  for (const [width, height] of [[1, 1], [1, 9], [7, 7], [13, 9], [17, 31], [32, 32]] as const) {
    for (const lossless of [true, false]) {
      const colors = 3;
      const map = indexMap(rng, width, height, colors);
      const alphas = [255, int(rng, 2) ? 0 : 255, 128];
      const data = rgbaFromMap(map, randomPalette(rng, colors), alphas);
      const bytes = await encodeWebp({ width, height, data }, lossless);
      seeds.push({ format: 'webp', variant: `${lossless ? 'lossless' : 'lossy'}-${width}x${height}`, bytes });
    }
  }
  seeds.push({ format: 'webp', variant: 'lossless-alpha', bytes: fixture('webp-lossless-alpha.webp') });
  seeds.push({ format: 'webp', variant: 'lossy-alpha', bytes: fixture('webp-lossy-alpha.webp') });
  seeds.push({ format: 'webp', variant: 'lossy', bytes: fixture('webp-lossy.webp') });
  return seeds;
}

function gifPalette(rng: Rng, n: number): number[] {
  return Array.from({ length: n }, () => (int(rng, 256) << 16) | (int(rng, 256) << 8) | int(rng, 256));
}

function writeGif(width: number, height: number, build: (w: GifWriter) => void, global?: number[], loop?: number): Uint8Array {
  const buffer = new Uint8Array(width * height * 8 + 8192);
  const writer = new GifWriter(buffer, width, height, { palette: global, loop });
  build(writer);
  return buffer.slice(0, writer.end());
}

function gifSeeds(rng: Rng, fixture: (name: string) => Uint8Array): Seed[] {
  const seeds: Seed[] = [];
  for (const [width, height] of [[1, 1], [1, 9], [9, 1], [7, 7], [16, 16], [39, 24]] as const) {
    const palette = gifPalette(rng, 4);
    const map = indexMap(rng, width, height, 4);
    seeds.push({ format: 'gif', variant: `single-${width}x${height}`, bytes: writeGif(width, height, (w) => w.addFrame(0, 0, width, height, map), palette) });
    seeds.push({
      format: 'gif',
      variant: `transparent-${width}x${height}`,
      bytes: writeGif(width, height, (w) => w.addFrame(0, 0, width, height, map, { transparent: 0 }), palette),
    });
  }
  // Animated: several frames with local palettes, offsets, delays and disposal methods.
  for (const [width, height, frames] of [[8, 8, 3], [16, 12, 4], [31, 17, 3], [2, 2, 4]] as const) {
    const bytes = writeGif(
      width,
      height,
      (w) => {
        for (let f = 0; f < frames; f++) {
          const fw = f === 0 ? width : Math.max(1, int(rng, width) + 1);
          const fh = f === 0 ? height : Math.max(1, int(rng, height) + 1);
          const x = f === 0 ? 0 : int(rng, width - fw + 1);
          const y = f === 0 ? 0 : int(rng, height - fh + 1);
          const local = f % 2 === 1 ? gifPalette(rng, 8) : null;
          w.addFrame(x, y, fw, fh, indexMap(rng, fw, fh, local ? 8 : 4), {
            palette: local,
            delay: 10 * f,
            disposal: f % 4,
            transparent: f === 2 ? 1 : undefined,
          });
        }
      },
      gifPalette(rng, 4),
      0,
    );
    seeds.push({ format: 'gif', variant: `animated-${frames}f-${width}x${height}`, bytes });
  }
  seeds.push({ format: 'gif', variant: 'interlaced', bytes: fixture('gif-interlaced.gif') });
  return seeds;
}

/** Packs indices at 1/4/8 bits per pixel, MSB first (BMP's order). */
function packIndices(row: number[], bpp: number): number[] {
  if (bpp === 8) return row;
  const out: number[] = [];
  const per = 8 / bpp;
  for (let i = 0; i < row.length; i += per) {
    let byte = 0;
    for (let k = 0; k < per; k++) byte |= (row[i + k] ?? 0) << (8 - bpp * (k + 1));
    out.push(byte);
  }
  return out;
}

function rle8(rows: number[][]): number[] {
  // Bottom-up rows as runs of at most 255, each row ended by 00 00, the bitmap by 00 01.
  const out: number[] = [];
  for (const row of [...rows].reverse()) {
    let i = 0;
    while (i < row.length) {
      let n = 1;
      while (i + n < row.length && row[i + n] === row[i] && n < 255) n++;
      out.push(n, row[i]!);
      i += n;
    }
    out.push(0, 0);
  }
  out.push(0, 1);
  return out;
}

function bmpSeeds(rng: Rng): Seed[] {
  const seeds: Seed[] = [];
  let sizeAt = 3;
  for (const bpp of [1, 4, 8, 16, 24, 32] as const) {
    for (const topDown of [false, true]) {
      const [width, height] = SIZES[sizeAt++ % SIZES.length]!;
      const colors = bpp === 1 ? 2 : 4;
      const palette = randomPalette(rng, colors);
      const map = indexMap(rng, width, height, colors);
      const rows = Array.from({ length: height }, (_, y) => map.slice(y * width, (y + 1) * width));
      let pixelRows: number[][];
      if (bpp <= 8) pixelRows = rows.map((r) => packIndices(r, bpp));
      else if (bpp === 16) pixelRows = rows.map((r) => r.flatMap((c) => { const [R, G, B] = palette[c]!; const v = ((R! >> 3) << 10) | ((G! >> 3) << 5) | (B! >> 3); return [v & 255, v >> 8]; }));
      else if (bpp === 24) pixelRows = rows.map((r) => r.flatMap((c) => { const [R, G, B] = palette[c]!; return [B!, G!, R!]; }));
      else pixelRows = rows.map((r) => r.flatMap((c) => { const [R, G, B] = palette[c]!; return [B!, G!, R!, 255]; }));
      const bytes = buildBmp({
        width,
        height: topDown ? -height : height,
        bpp,
        palette: bpp <= 8 ? palette : undefined,
        pixels: bmpRows(pixelRows, topDown),
        pixelsPerMetre: int(rng, 2) ? 3780 : 0,
      });
      seeds.push({ format: 'bmp', variant: `${bpp}bit${topDown ? '-topdown' : ''}-${width}x${height}`, bytes });
    }
  }
  for (const [width, height] of [[1, 1], [13, 9], [32, 32]] as const) {
    const palette = randomPalette(rng, 4);
    const map = indexMap(rng, width, height, 4);
    const rows = Array.from({ length: height }, (_, y) => map.slice(y * width, (y + 1) * width));
    seeds.push({ format: 'bmp', variant: `rle8-${width}x${height}`, bytes: buildBmp({ width, height, bpp: 8, compression: 1, palette, pixels: rle8(rows) }) });
  }
  return seeds;
}

let seedsPromise: Promise<Seed[]> | undefined;

/** Every seed image, in a fixed order (the same bytes every run). Cached. `fixtureDir`: tests/fixtures/decode (set it when bundled). */
export function buildSeeds(fixtureDir: string | URL = new URL('../fixtures/decode/', import.meta.url)): Promise<Seed[]> {
  seedsPromise ??= (async () => {
    const dir = typeof fixtureDir === 'string' ? pathToFileURL(fixtureDir.endsWith('/') ? fixtureDir : `${fixtureDir}/`) : fixtureDir;
    const fixture = (name: string) => new Uint8Array(readFileSync(new URL(name, dir)));
    const rng = mulberry32(0x5eed);
    return [...pngSeeds(rng), ...jpegSeeds(rng, fixture), ...(await webpSeeds(rng, fixture)), ...gifSeeds(rng, fixture), ...bmpSeeds(rng)];
  })();
  return seedsPromise;
}

// ---------------------------------------------------------------------------------------------
// Mutators

export const MUTATORS = [
  'valid',
  'bitflip',
  'byteset',
  'truncate',
  'dimension-lie',
  'length-lie',
  'wrong-magic',
  'append-garbage',
  'insert-delete',
  'splice',
  'zero-length',
  'chunk-fuzz',
] as const;
export type Mutator = (typeof MUTATORS)[number];

/** Relative frequency of each mutator. */
const WEIGHTS: Record<Mutator, number> = {
  valid: 6,
  bitflip: 18,
  byteset: 10,
  truncate: 12,
  'dimension-lie': 14,
  'length-lie': 8,
  'wrong-magic': 3,
  'append-garbage': 5,
  'insert-delete': 6,
  splice: 5,
  'zero-length': 1,
  'chunk-fuzz': 12,
};
const WEIGHT_TOTAL = Object.values(WEIGHTS).reduce((a, b) => a + b, 0);

function pickMutator(rng: Rng): Mutator {
  let r = rng() * WEIGHT_TOTAL;
  for (const m of MUTATORS) {
    r -= WEIGHTS[m];
    if (r < 0) return m;
  }
  return 'bitflip';
}

const be32 = (b: Uint8Array, at: number, v: number) => {
  b[at] = (v >>> 24) & 255; b[at + 1] = (v >>> 16) & 255; b[at + 2] = (v >>> 8) & 255; b[at + 3] = v & 255;
};
const be16 = (b: Uint8Array, at: number, v: number) => { b[at] = (v >>> 8) & 255; b[at + 1] = v & 255; };
const le16 = (b: Uint8Array, at: number, v: number) => { b[at] = v & 255; b[at + 1] = (v >>> 8) & 255; };
const le32 = (b: Uint8Array, at: number, v: number) => { le16(b, at, v & 0xffff); le16(b, at + 2, (v >>> 16) & 0xffff); };
const rd32be = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

/** Values a lying size field takes: 0, 1, near the format's maximum, just over 33.5 MP, random. */
function lieValue(rng: Rng, bits: number, original: number): number {
  const max = bits === 32 ? 0xffffffff : 2 ** bits - 1;
  return pick(rng, [0, 1, max, max - 1, Math.floor(max / 2), 0x7fffffff % (max + 1), 5793, 8192, 16384, 65535 % (max + 1), original + 1, original * 2 + 1, int(rng, max + 1)]) >>> 0;
}

interface PngChunk { at: number; length: number; type: string }

function pngChunks(b: Uint8Array): PngChunk[] {
  const out: PngChunk[] = [];
  let at = 8;
  while (at + 12 <= b.length) {
    const length = rd32be(b, at);
    const type = String.fromCharCode(b[at + 4]!, b[at + 5]!, b[at + 6]!, b[at + 7]!);
    if (at + 12 + length > b.length) break;
    out.push({ at, length, type });
    at += 12 + length;
  }
  return out;
}

function fixPngCrc(b: Uint8Array, c: PngChunk): void {
  be32(b, c.at + 8 + c.length, crc32(b.subarray(c.at + 4, c.at + 8 + c.length)));
}

function findJpegSof(b: Uint8Array): number {
  for (let i = 2; i + 9 < b.length; i++) if (b[i] === 0xff && b[i + 1]! >= 0xc0 && b[i + 1]! <= 0xc2) return i;
  return -1;
}

function findGifImage(b: Uint8Array): number {
  // The first image descriptor after the header and global table (a heuristic: ',' with a plausible descriptor).
  const gct = b[10]! & 0x80 ? 3 * 2 ** ((b[10]! & 7) + 1) : 0;
  for (let i = 13 + gct; i + 10 < b.length; i++) if (b[i] === 0x2c) return i;
  return -1;
}

/** Rewrites a width/height/canvas field to a lie (fixing the PNG CRC so the lie gets past the checksum). */
function dimensionLie(rng: Rng, format: FuzzFormat, b: Uint8Array): void {
  switch (format) {
    case 'png': {
      const which = int(rng, 3);
      if (which !== 1) be32(b, 16, lieValue(rng, 31, rd32be(b, 16)));
      if (which !== 0) be32(b, 20, lieValue(rng, 31, rd32be(b, 20)));
      fixPngCrc(b, { at: 8, length: 13, type: 'IHDR' });
      return;
    }
    case 'bmp': {
      const which = int(rng, 4);
      if (which === 0 || which === 2) le32(b, 18, lieValue(rng, 32, 0));
      if (which === 1 || which === 2) le32(b, 22, lieValue(rng, 32, 0));
      if (which === 3) le32(b, 22, -lieValue(rng, 31, 0)); // top-down with a huge height
      return;
    }
    case 'gif': {
      const at = findGifImage(b);
      if (int(rng, 2) === 0 || at < 0) {
        le16(b, 6, lieValue(rng, 16, 0));
        le16(b, 8, lieValue(rng, 16, 0));
      } else {
        le16(b, at + 1 + 4 * int(rng, 2), lieValue(rng, 16, 0)); // left or width … of the frame
        le16(b, at + 3 + 4 * int(rng, 2), lieValue(rng, 16, 0));
      }
      return;
    }
    case 'jpeg': {
      const at = findJpegSof(b);
      if (at < 0) return;
      const which = int(rng, 3);
      if (which !== 1) be16(b, at + 5, lieValue(rng, 16, 0));
      if (which !== 0) be16(b, at + 7, lieValue(rng, 16, 0));
      return;
    }
    case 'webp': {
      const chunk = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
      if (chunk === 'VP8X' && b.length >= 30) {
        const w = lieValue(rng, 24, 0);
        const h = lieValue(rng, 24, 0);
        b.set([w & 255, (w >>> 8) & 255, (w >>> 16) & 255, h & 255, (h >>> 8) & 255, (h >>> 16) & 255], 24);
      } else if (chunk === 'VP8L' && b.length >= 25) {
        // 14 bits width-1, 14 bits height-1, then alpha + version (kept).
        const bits = (lieValue(rng, 14, 0) & 0x3fff) | ((lieValue(rng, 14, 0) & 0x3fff) << 14) | ((b[24]! & 0xf0) << 24);
        le32(b, 21, bits >>> 0);
      } else if (b.length >= 30) {
        le16(b, 26, lieValue(rng, 14, 0));
        le16(b, 28, lieValue(rng, 14, 0));
      }
      return;
    }
  }
}

/** A length/offset/count field that disagrees with the data. */
function lengthLie(rng: Rng, format: FuzzFormat, b: Uint8Array): void {
  switch (format) {
    case 'png': {
      const chunks = pngChunks(b);
      if (chunks.length) be32(b, pick(rng, chunks).at, lieValue(rng, 32, 0));
      return;
    }
    case 'bmp':
      le32(b, pick(rng, [2, 10, 14, 34, 46]), lieValue(rng, 32, 0)); // file size, pixel offset, DIB size, image size, colours used
      if (int(rng, 3) === 0) le16(b, 28, pick(rng, [0, 2, 3, 5, 7, 64, 65535])); // bits per pixel
      if (int(rng, 3) === 0) le32(b, 30, int(rng, 8)); // compression
      return;
    case 'gif':
      if (int(rng, 2) === 0) b[10] = int(rng, 256); // packed: colour table flag/size
      else {
        const at = findGifImage(b);
        if (at >= 0 && at + 10 < b.length) b[at + 10 + (b[at + 9]! & 0x80 ? 3 * 2 ** ((b[at + 9]! & 7) + 1) : 0)] = int(rng, 256); // LZW code size
      }
      return;
    case 'jpeg': {
      const segs: number[] = [];
      for (let i = 2; i + 3 < b.length; i++) if (b[i] === 0xff && b[i + 1]! >= 0xc0 && b[i + 1]! !== 0xff && b[i + 1]! !== 0xd8 && !(b[i + 1]! >= 0xd0 && b[i + 1]! <= 0xd9)) segs.push(i);
      if (segs.length) be16(b, pick(rng, segs) + 2, lieValue(rng, 16, 0));
      return;
    }
    case 'webp':
      le32(b, pick(rng, [4, 16]), lieValue(rng, 32, 0)); // RIFF size or first chunk size
      return;
  }
}

/** Format-aware structural damage: PNG chunk bytes changed with the CRC fixed (reaches inflate/unfilter), chunks
 * dropped or duplicated; otherwise bit flips well past the header. */
function chunkFuzz(rng: Rng, format: FuzzFormat, b: Uint8Array): Uint8Array {
  if (format === 'png') {
    const chunks = pngChunks(b);
    if (!chunks.length) return b;
    const c = pick(rng, chunks);
    const action = int(rng, 4);
    if (action === 0 && c.length > 0) {
      for (let k = 1 + int(rng, 4); k > 0; k--) b[c.at + 8 + int(rng, c.length)] ^= 1 << int(rng, 8);
      fixPngCrc(b, c);
      return b;
    }
    if (action === 1) return concat(b.subarray(0, c.at), b.subarray(c.at + 12 + c.length)); // drop a chunk
    if (action === 2) return concat(b.subarray(0, c.at + 12 + c.length), b.subarray(c.at, c.at + 12 + c.length), b.subarray(c.at + 12 + c.length)); // duplicate
    // IHDR fields (depth, colour type, interlace, filter/compression) changed with a valid CRC.
    b[24 + int(rng, 5)] = pick(rng, [0, 1, 2, 3, 4, 6, 8, 16, 255]);
    fixPngCrc(b, { at: 8, length: 13, type: 'IHDR' });
    return b;
  }
  const from = Math.min(b.length - 1, format === 'bmp' ? 54 : format === 'gif' ? 13 : 20);
  for (let k = 1 + int(rng, 6); k > 0 && b.length > 0; k--) {
    const at = from + int(rng, Math.max(1, b.length - from));
    if (at < b.length) b[at] ^= 1 << int(rng, 8);
  }
  return b;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const OTHER_MAGIC: ReadonlyArray<readonly number[]> = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0xff, 0xd8, 0xff],
  [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  [0x42, 0x4d],
  [0x52, 0x49, 0x46, 0x46],
  [0x49, 0x49, 0x2a, 0x00],
  [0x00, 0x00, 0x00, 0x00],
  [0x3c, 0x73, 0x76, 0x67], // "<svg"
];

export function mutate(rng: Rng, mutator: Mutator, format: FuzzFormat, input: Uint8Array): Uint8Array {
  let b: Uint8Array = input.slice();
  switch (mutator) {
    case 'valid':
      return b;
    case 'bitflip':
      for (let k = 1 + int(rng, 8); k > 0; k--) {
        const at = int(rng, b.length);
        b[at] ^= 1 << int(rng, 8);
      }
      return b;
    case 'byteset':
      for (let k = 1 + int(rng, 6); k > 0; k--) b[int(rng, b.length)] = pick(rng, [0, 1, 0x7f, 0x80, 0xfe, 0xff, int(rng, 256)]);
      return b;
    case 'truncate':
      return b.slice(0, int(rng, b.length));
    case 'dimension-lie':
      dimensionLie(rng, format, b);
      return b;
    case 'length-lie':
      lengthLie(rng, format, b);
      return b;
    case 'wrong-magic': {
      const magic = pick(rng, OTHER_MAGIC);
      if (int(rng, 2) === 0) b.set(magic.slice(0, b.length), 0);
      else b = concat(Uint8Array.from(magic), b.subarray(int(rng, 4)));
      return b;
    }
    case 'append-garbage': {
      const extra = new Uint8Array(1 + int(rng, 512));
      for (let i = 0; i < extra.length; i++) extra[i] = int(rng, 256);
      return concat(b, extra);
    }
    case 'insert-delete': {
      const at = int(rng, b.length);
      const n = 1 + int(rng, 16);
      if (int(rng, 2) === 0) return concat(b.subarray(0, at), b.subarray(Math.min(b.length, at + n)));
      const extra = new Uint8Array(n);
      for (let i = 0; i < n; i++) extra[i] = int(rng, 256);
      return concat(b.subarray(0, at), extra, b.subarray(at));
    }
    case 'splice': {
      const n = 1 + int(rng, Math.max(1, b.length >> 2));
      const from = int(rng, Math.max(1, b.length - n));
      const to = int(rng, Math.max(1, b.length - n));
      b.copyWithin(to, from, from + n);
      return b;
    }
    case 'zero-length':
      return new Uint8Array(0);
    case 'chunk-fuzz':
      return chunkFuzz(rng, format, b);
  }
}

/** Case `index` of run `runSeed`: formats in rotation, a seed of that format and a mutator chosen by the PRNG. */
export function makeCase(seeds: readonly Seed[], runSeed: number, index: number): FuzzCase {
  const rng = mulberry32(caseSeed(runSeed, index));
  const format = FORMATS[index % FORMATS.length]!;
  const ofFormat = seeds.filter((s) => s.format === format);
  const seed = pick(rng, ofFormat);
  const mutator = pickMutator(rng);
  return { index, format, variant: seed.variant, mutator, bytes: mutate(rng, mutator, format, seed.bytes) };
}
