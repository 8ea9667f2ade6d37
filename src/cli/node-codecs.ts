/**
 * Node-only set-up of the decoders' WebAssembly. In a browser the WebP decoder fetches its .wasm
 * itself; Node's fetch cannot read file: URLs, so the CLI (and later the HTTP server) reads the
 * file from the installed package once and hands it over before the first WebP is decoded.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setWebpWasm } from '../decode/index.js';
import { sniffFormat } from '../decode/sniff.js';

let webpLoaded = false;

/** Loads what decoding `bytes` needs in Node (today: the WebP wasm, only for WebP input). */
export function prepareNodeDecoders(bytes: Uint8Array): void {
  if (webpLoaded || sniffFormat(bytes) !== 'webp') return;
  const require = createRequire(import.meta.url);
  setWebpWasm(readFileSync(require.resolve('@jsquash/webp/codec/dec/webp_dec.wasm')));
  webpLoaded = true;
}
