/**
 * Hostile inputs with a known right answer, shared by the tests that check the answer
 * (tests/fuzz/fuzz-slice.test.ts, bomb-shrink.test.ts) and by the bench that times them
 * (bench/guards.mjs through tests/fuzz/guard-figures.ts): small files declaring a huge canvas
 * (1013 from the header), a zlib bomb (1006 once the inflate passes the declared size) and a
 * large but accepted canvas from a tiny file (shrunk to input.max_pixels).
 */
import { Zlib, zlibSync } from 'fflate';

import { crc32 } from '../../src/decode/crc32.js';
import { MAX_ACCEPTED_PIXELS } from '../../src/engine/errors.js';
import { buildBmp, buildPng, concat, PNG_SIGNATURE, pngChunk } from '../decode/build.js';
import { encodeGif, encodeJpeg } from '../helpers/encode.js';

const be32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
const le16 = (v: number) => [v & 255, (v >>> 8) & 255];
const le24 = (v: number) => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255];
const le32 = (v: number) => [...le16(v & 0xffff), ...le16(v >>> 16)];

/** A tiny valid PNG whose IHDR then declares width × height (CRC fixed, so only the size lies). */
export function pngDeclaring(width: number, height: number): Uint8Array {
  const png = buildPng({ width: 2, height: 2, colorType: 0, depth: 8, samples: [0, 255, 255, 0] });
  png.set(be32(width), 16);
  png.set(be32(height), 20);
  png.set(be32(crc32(png.subarray(12, 29))), 29);
  return png;
}

function jpegDeclaring(width: number, height: number): Uint8Array {
  const jpeg = encodeJpeg({ width: 8, height: 8, data: new Uint8Array(8 * 8 * 4).fill(200) });
  for (let i = 2; i + 9 < jpeg.length; i++) {
    if (jpeg[i] === 0xff && jpeg[i + 1] === 0xc0) {
      jpeg[i + 5] = height >> 8; jpeg[i + 6] = height & 255;
      jpeg[i + 7] = width >> 8; jpeg[i + 8] = width & 255;
      return jpeg;
    }
  }
  throw new Error('no SOF0');
}

function gifScreen(width: number, height: number): Uint8Array {
  const gif = encodeGif({ width: 2, height: 2, data: new Uint8Array([0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 255]) });
  gif.set([...le16(width), ...le16(height)], 6);
  return gif;
}

/** A GIF whose logical screen is 2×2 but whose first frame sits at (65000, 65000): the canvas grows to hold it. */
function gifFrameOutside(): Uint8Array {
  const gif = encodeGif({ width: 2, height: 2, data: new Uint8Array(16).fill(255) });
  const gct = gif[10]! & 0x80 ? 3 * 2 ** ((gif[10]! & 7) + 1) : 0;
  let at = 13 + gct;
  while (gif[at] !== 0x2c) at++;
  gif.set([...le16(65000), ...le16(65000)], at + 1);
  return gif;
}

function webpVp8x(width: number, height: number): Uint8Array {
  const chunk = [...'VP8X'].map((c) => c.charCodeAt(0));
  const body = [...chunk, ...le32(10), 0, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)];
  return concat([...'RIFF'].map((c) => c.charCodeAt(0)), le32(4 + body.length), [...'WEBP'].map((c) => c.charCodeAt(0)), body);
}

export const BOMBS: Array<[string, () => Uint8Array]> = [
  ['PNG IHDR 2^31-1 × 2^31-1 (CRC fixed)', () => pngDeclaring(0x7fffffff, 0x7fffffff)],
  ['PNG IHDR 6000 × 6000 (36 MP)', () => pngDeclaring(6000, 6000)],
  ['PNG IHDR 1 × 33,554,433', () => pngDeclaring(1, MAX_ACCEPTED_PIXELS + 1)],
  ['BMP biWidth 2^31-1', () => buildBmp({ width: 0x7fffffff, height: 2, bpp: 24, pixels: new Uint8Array(32) })],
  ['BMP 100,000 × -100,000 (top-down)', () => buildBmp({ width: 100_000, height: -100_000, bpp: 8, palette: [[0, 0, 0]], pixels: new Uint8Array(16) })],
  ['GIF logical screen 65535 × 65535', () => gifScreen(65535, 65535)],
  ['GIF frame placed at 65000,65000 on a 2 × 2 screen', gifFrameOutside],
  ['JPEG SOF 65535 × 65535', () => jpegDeclaring(65535, 65535)],
  ['JPEG SOF 8192 × 8192', () => jpegDeclaring(8192, 8192)],
  ['WebP VP8X 16384 × 16384', () => webpVp8x(16384, 16384)],
];

/** A PNG declaring 64×64 grey whose IDAT inflates to 48 MB of zeros (≈ 200 KB compressed). */
export function zlibBombPng(): Uint8Array {
  const idat = zlibSync(new Uint8Array(48 * 2 ** 20), { level: 1 });
  return concat(PNG_SIGNATURE, pngChunk('IHDR', [...be32(64), ...be32(64), 8, 0, 0, 0, 0]), pngChunk('IDAT', idat), pngChunk('IEND'));
}

/** A `size`×`size` grey PNG of one value, rows streamed through zlib level 9 (5000×5000: ~77 KB). */
export function constantGreyPng(size: number, value: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const z = new Zlib({ level: 9 }, (chunk) => parts.push(chunk));
  const row = new Uint8Array(size + 1).fill(value);
  row[0] = 0; // filter: none
  for (let y = 0; y < size; y++) z.push(row, y === size - 1);
  const ihdr = [size >>> 24, (size >>> 16) & 255, (size >>> 8) & 255, size & 255];
  return concat(PNG_SIGNATURE, pngChunk('IHDR', [...ihdr, ...ihdr, 8, 0, 0, 0, 0]), pngChunk('IDAT', concat(...parts)), pngChunk('IEND'));
}
