/**
 * The browser's inflate ahead of the PNG decode (src/decode/browser-inflate.ts, DecompressionStream
 * — Node has it too): the same pixels as the decode with fflate alone, the same errors for damaged
 * or cut streams (which it leaves alone), nothing prepared for a header over the pixel limit, and a
 * prepared stream taken once and only by the decode of that same stream.
 */

import { deflateSync } from 'node:zlib';

import { afterEach, describe, expect, it } from 'vitest';

import { preparePngInflate } from '../../src/decode/browser-inflate.js';
import { inflateZlibInto, setOneShotInflate } from '../../src/decode/inflate.js';
import { decodePng, pngOneShotStream } from '../../src/decode/png.js';
import { concat, ihdr, PNG_SIGNATURE, pngChunk } from './build.js';

/** An RGBA PNG of `width` × `height` with filter 0 rows of a fixed pattern. */
function rgbaPng(width: number, height: number, mutate?: (zlib: Buffer) => Buffer): Uint8Array {
  const raw = new Uint8Array(height * (1 + width * 4));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width * 4; x++) raw[y * (1 + width * 4) + 1 + x] = (x * 7 + y * 13) & 255;
  }
  const zlib = deflateSync(raw);
  return concat(PNG_SIGNATURE, ihdr(width, height, 8, 6), pngChunk('IDAT', mutate ? mutate(zlib) : zlib), pngChunk('IEND'));
}

function errorOf(run: () => unknown): string {
  try {
    run();
    return 'no error';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

describe('preparePngInflate', () => {
  afterEach(() => setOneShotInflate(undefined));

  it('gives the same pixels as the decode with fflate alone, and the prepared stream is used once', async () => {
    setOneShotInflate(undefined);
    const png = rgbaPng(97, 41);
    const reference = decodePng(png);
    let nativeCalls = 0;
    // A registered inflater is only asked when nothing was prepared for the stream.
    setOneShotInflate(() => {
      nativeCalls++;
      return -1;
    });
    await preparePngInflate(png);
    expect(Buffer.from(decodePng(png).data).equals(Buffer.from(reference.data))).toBe(true);
    expect(nativeCalls).toBe(0);
    decodePng(png);
    expect(nativeCalls).toBe(1);
  });

  it('leaves a damaged or cut stream to the decode, which reports the same error as without it', async () => {
    const flipped = rgbaPng(50, 20, (z) => {
      const bad = Buffer.from(z);
      bad[bad.length - 6] ^= 0xff;
      return bad;
    });
    const cut = rgbaPng(50, 20, (z) => z.subarray(0, z.length - 20));
    for (const png of [flipped, cut]) {
      const without = errorOf(() => decodePng(png));
      await preparePngInflate(png);
      expect(errorOf(() => decodePng(png))).toBe(without);
    }
  });

  it('prepares nothing for a header the decode refuses (too many pixels)', async () => {
    const huge = concat(PNG_SIGNATURE, ihdr(60000, 60000, 8, 6), pngChunk('IDAT', deflateSync(new Uint8Array(100))), pngChunk('IEND'));
    await preparePngInflate(huge);
    const stream = pngOneShotStream(huge);
    // Had it been prepared, this one-shot call would have been answered from it.
    expect(stream === undefined || inflateZlibInto(stream.zlib, new Uint8Array(16)) === -1).toBe(true);
  });

  it('answers only the same stream: another one goes to the registered inflater', async () => {
    const a = rgbaPng(30, 30);
    const b = rgbaPng(31, 30);
    await preparePngInflate(a);
    const other = pngOneShotStream(b)!;
    expect(inflateZlibInto(other.zlib, new Uint8Array(other.size))).toBe(-1);
    const own = pngOneShotStream(a)!;
    expect(inflateZlibInto(own.zlib, new Uint8Array(own.size))).toBe(own.size);
  });
});
