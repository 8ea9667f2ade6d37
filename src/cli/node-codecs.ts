/**
 * Node-only set-up of the decoders: the WebP decoder's WebAssembly (in a browser it fetches its
 * .wasm itself; Node's fetch cannot read file: URLs, so the file is read from the installed
 * package once, before the first WebP is decoded) and a native one-shot inflate for PNG image
 * data (node:zlib, capped at the declared size, so a zlib bomb stops there).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { setWebpWasm } from '../decode/index.js';
import { setOneShotInflate } from '../decode/inflate.js';
import { sniffFormat } from '../decode/sniff.js';

let webpLoaded = false;

/** Inflates into `out`; -1 when the stream is damaged, incomplete or longer than `out`. */
export function nodeInflateInto(zlib: Uint8Array, out: Uint8Array): number {
  try {
    const inflated = inflateSync(zlib, { maxOutputLength: Math.max(1, out.length) });
    out.set(inflated);
    return inflated.length;
  } catch {
    return -1;
  }
}

/** Loads what decoding `bytes` needs in Node (the native inflate; the WebP wasm for WebP input). */
export function prepareNodeDecoders(bytes: Uint8Array): void {
  setOneShotInflate(nodeInflateInto);
  if (webpLoaded || sniffFormat(bytes) !== 'webp') return;
  const require = createRequire(import.meta.url);
  setWebpWasm(readFileSync(require.resolve('@jsquash/webp/codec/dec/webp_dec.wasm')));
  webpLoaded = true;
}
