/**
 * The browser's native inflate for a PNG's image data (DecompressionStream, zlib format), run
 * before the decode: the decoders' one-shot inflate is synchronous (inflate.ts) and the browser's
 * is not, so the stream decodePng will ask for (pngOneShotStream) is inflated here and left for it
 * (setPreparedInflate). In: the file's bytes. Out: nothing; a stream that is not PNG, damaged,
 * cut short or longer than declared is left alone, and the decode inflates it with fflate as
 * before (same pixels, same errors: the inflation of a zlib stream is unique, and a result is
 * only left when it fills the declared size exactly).
 * Why: fflate, cold in a fresh trace worker, took 0.3–0.6 s for a 2-MP PNG in Chromium; the
 * browser's zlib does it in a few tens of milliseconds (bench/results/browser.md).
 */

import { readImageHeader } from './index.js';
import { setPreparedInflate } from './inflate.js';
import { sniffFormat } from './sniff.js';

export async function preparePngInflate(bytes: Uint8Array): Promise<void> {
  if (typeof DecompressionStream !== 'function' || sniffFormat(bytes) !== 'png') return;
  // Only a picture the decode accepts (its header read and within the pixel limit, as decodeImage
  // checks it): a hostile header must not have this allocate what the decode then refuses.
  if (!(await readImageHeader(bytes).then(() => true, () => false))) return;
  // Loaded as decodeImage loads it (the PNG decoder is a chunk of its own in the bundles).
  const { pngOneShotStream } = await import('./png.js');
  const stream = pngOneShotStream(bytes);
  if (!stream) return;
  const inflated = await inflateExactly(stream.zlib, stream.size);
  if (inflated) setPreparedInflate(stream.zlib, inflated);
}

/** The inflation of `zlib` when it is exactly `size` bytes; undefined on any error or another size (stops past `size`). */
async function inflateExactly(zlib: Uint8Array, size: number): Promise<Uint8Array | undefined> {
  const out = new Uint8Array(size);
  try {
    const inflater = new DecompressionStream('deflate');
    const writer = inflater.writable.getWriter();
    // Their failures surface as the reader's error below.
    writer.write(zlib as Uint8Array<ArrayBuffer>).catch(() => undefined);
    writer.close().catch(() => undefined);
    const reader = inflater.readable.getReader();
    let filled = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return filled === size ? out : undefined;
      if (filled + value.length > size) {
        // More than declared (a zlib bomb, a wrong header): stop inflating at once.
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      out.set(value, filled);
      filled += value.length;
    }
  } catch {
    return undefined;
  }
}
