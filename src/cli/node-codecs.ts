/**
 * Node-only set-up of the decoders: the WebP decoder's WebAssembly (in a browser it fetches its
 * .wasm itself; Node's fetch cannot read file: URLs, so the file is read once, before the first
 * WebP is decoded — the copy the build put next to the bundle (dist-cli/, dist-lib/node/; the
 * library's tarball carries no node_modules), else the installed @jsquash/webp package) and a native one-shot inflate for PNG image
 * data (node:zlib, capped at the declared size, so a zlib bomb stops there).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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
  setWebpWasm(readFileSync(webpWasmPath()));
  webpLoaded = true;
}

/** webp_dec.wasm next to the bundle (this code may sit in a chunks/ folder below it), else from the package. */
export function webpWasmPath(): string {
  if (import.meta.url.startsWith('file:')) {
    for (const relative of ['webp_dec.wasm', '../webp_dec.wasm']) {
      const path = fileURLToPath(new URL(relative, import.meta.url));
      if (existsSync(path)) return path;
    }
  }
  return createRequire(import.meta.url).resolve('@jsquash/webp/codec/dec/webp_dec.wasm');
}
