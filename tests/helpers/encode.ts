/**
 * Encoders for test fixtures in every input format, from npm packages (PNG: fast-png, JPEG:
 * jpeg-js, GIF: omggif, WebP: @jsquash/webp's wasm encoder) plus a hand-built 24-bit BMP.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { encode as encodePngImage } from 'fast-png';
import jpeg from 'jpeg-js';
import { GifWriter } from 'omggif';
import type { RgbaImage } from '../../src/engine/types.js';

const require = createRequire(import.meta.url);

export function encodePng(image: RgbaImage): Uint8Array {
  return encodePngImage({ width: image.width, height: image.height, data: new Uint8Array(image.data), channels: 4, depth: 8 });
}

export function encodeJpeg(image: RgbaImage, quality = 92): Uint8Array {
  return new Uint8Array(jpeg.encode({ width: image.width, height: image.height, data: Buffer.from(image.data) }, quality).data);
}

/** GIF with a palette of the image's distinct colours (at most 256). */
export function encodeGif(image: RgbaImage): Uint8Array {
  const colors: number[] = [];
  const index = new Map<number, number>();
  const pixels = new Uint8Array(image.width * image.height);
  for (let i = 0; i < pixels.length; i++) {
    const key = (image.data[i * 4]! << 16) | (image.data[i * 4 + 1]! << 8) | image.data[i * 4 + 2]!;
    let k = index.get(key);
    if (k === undefined) {
      if (colors.length === 256) throw new Error('encodeGif: more than 256 colours');
      k = colors.length;
      index.set(key, k);
      colors.push(key);
    }
    pixels[i] = k;
  }
  let size = 2;
  while (size < colors.length) size *= 2;
  while (colors.length < size) colors.push(0);
  const buffer: number[] = new Array(image.width * image.height * 2 + 4096).fill(0);
  const writer = new GifWriter(buffer, image.width, image.height, { palette: colors });
  writer.addFrame(0, 0, image.width, image.height, Array.from(pixels));
  return Uint8Array.from(buffer.slice(0, writer.end()));
}

/** 24-bit bottom-up BMP (BITMAPINFOHEADER), rows padded to 4 bytes. */
export function encodeBmp(image: RgbaImage): Uint8Array {
  const rowBytes = Math.ceil((image.width * 3) / 4) * 4;
  const size = 54 + rowBytes * image.height;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out[0] = 0x42;
  out[1] = 0x4d;
  view.setUint32(2, size, true);
  view.setUint32(10, 54, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, image.width, true);
  view.setInt32(22, image.height, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 24, true);
  view.setUint32(34, rowBytes * image.height, true);
  for (let y = 0; y < image.height; y++) {
    const row = 54 + (image.height - 1 - y) * rowBytes;
    for (let x = 0; x < image.width; x++) {
      const o = (y * image.width + x) * 4;
      out[row + x * 3] = image.data[o + 2]!;
      out[row + x * 3 + 1] = image.data[o + 1]!;
      out[row + x * 3 + 2] = image.data[o]!;
    }
  }
  return out;
}

let webpReady: Promise<unknown> | undefined;

/** Lossless WebP through libwebp (wasm), initialised from the package's own .wasm file. */
export async function encodeWebp(image: RgbaImage, lossless = true): Promise<Uint8Array> {
  const { default: encode, init } = await import('@jsquash/webp/encode.js');
  if (!webpReady) {
    const wasm = readFileSync(require.resolve('@jsquash/webp/codec/enc/webp_enc.wasm'));
    webpReady = init(await WebAssembly.compile(wasm));
  }
  await webpReady;
  const data = new Uint8ClampedArray(image.data);
  const buffer = await encode({ width: image.width, height: image.height, data, colorSpace: 'srgb' } as ImageData, { lossless: lossless ? 1 : 0, quality: 90 });
  return new Uint8Array(buffer);
}
