/**
 * WebP → RGBA. In: RIFF/WEBP bytes (lossy VP8, lossless VP8L, VP8X with alpha). Out: RawImage.
 * Package: `@jsquash/webp` (libwebp compiled to wasm). Header size is read here, before the wasm runs.
 */

/*
 * Loading the wasm:
 * - Browser / Web Worker: nothing to do. The decoder's Emscripten glue fetches
 *   `new URL('webp_dec.wasm', import.meta.url)`; Vite emits that file as a hashed asset and rewrites the URL
 *   (checked with Vite 8 in a module Worker, both `vite build` and `vite dev`). Should a future Vite's
 *   dependency pre-bundling break the URL in dev, `optimizeDeps.exclude: ['@jsquash/webp']` is the fix.
 * - Node: fetch() can't read file: URLs, so the host must hand the wasm over once, before the first WebP:
 *     import { readFile } from 'node:fs/promises';
 *     import { createRequire } from 'node:module';
 *     const path = createRequire(import.meta.url).resolve('@jsquash/webp/codec/dec/webp_dec.wasm');
 *     setWebpWasm(await readFile(path));
 *   (src/decode itself stays free of fs so the same code runs in a Worker.)
 */

import decodeWebpWasm, { init as initWebpWasm } from '@jsquash/webp/decode.js';

import { corrupt, u16le, u32le, type ImageHeader, type RawImage } from './common.js';

import { webpWasmSource } from './webp-wasm.js';

let ready: Promise<void> | undefined;
let readyFor = -1;

function ensureReady(): Promise<void> {
  const { source: wasmSource, version } = webpWasmSource();
  if (version !== readyFor) ready = undefined; // setWebpWasm() was called again
  if (!ready) {
    readyFor = version;
    ready = (async () => {
      if (wasmSource === undefined) {
        await initWebpWasm(); // browser: the glue fetches webp_dec.wasm itself
      } else {
        const module =
          wasmSource instanceof WebAssembly.Module
            ? wasmSource
            : await WebAssembly.compile(wasmSource instanceof Uint8Array ? wasmSource.slice() : wasmSource);
        await initWebpWasm(module);
      }
    })();
    ready.catch(() => {
      ready = undefined; // let a later setWebpWasm() or retry succeed
    });
  }
  return ready;
}

function fourcc(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}

const u24le = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8) | (b[o + 2] << 16);

/** Canvas size from the first chunk (VP8X, VP8L or VP8), and whether the file is animated. */
export function readWebpHeader(bytes: Uint8Array): ImageHeader & { animated: boolean } {
  if (bytes.length < 30) throw corrupt('truncated WebP (no complete header)');
  const riffEnd = u32le(bytes, 4) + 8;
  if (riffEnd > bytes.length) throw corrupt('truncated WebP (file is shorter than its RIFF header says)');
  const chunk = fourcc(bytes, 12);
  if (chunk === 'VP8X') {
    return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1, animated: (bytes[20] & 0x02) !== 0 };
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) throw corrupt('corrupt WebP (bad lossless signature)');
    const bits = u32le(bytes, 21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, animated: false };
  }
  if (chunk === 'VP8 ') {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) throw corrupt('corrupt WebP (bad VP8 start code)');
    return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff, animated: false };
  }
  throw corrupt(`corrupt WebP (unknown first chunk ${JSON.stringify(chunk)})`);
}

export async function decodeWebp(bytes: Uint8Array): Promise<RawImage> {
  const header = readWebpHeader(bytes);
  if (header.animated) throw corrupt('unsupported WebP type (animated WebP)');
  try {
    await ensureReady();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw corrupt(`WebP decoder unavailable (${why}); in Node, call setWebpWasm() first`);
  }
  const buffer = bytes.slice().buffer; // the wasm glue wants an ArrayBuffer of exactly the file
  let image: ImageData;
  try {
    image = await decodeWebpWasm(buffer);
  } catch {
    throw corrupt('corrupt WebP (libwebp could not decode it)');
  }
  const data = new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength).slice();
  return { width: image.width, height: image.height, data };
}
