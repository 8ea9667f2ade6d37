/**
 * Where the WebP decoder gets its WebAssembly. Kept apart from webp.ts so that hosts can hand the
 * wasm over (Node: `setWebpWasm(bytes of webp_dec.wasm)`) without loading the decoder itself,
 * which is only imported when a WebP file arrives.
 */

export type WasmSource = WebAssembly.Module | ArrayBuffer | Uint8Array;

let source: WasmSource | undefined;
let version = 0;

/** Gives the decoder its wasm (a compiled module or the bytes of webp_dec.wasm). Needed in Node only. */
export function setWebpWasm(wasm: WasmSource): void {
  source = wasm;
  version++;
}

export function webpWasmSource(): { source: WasmSource | undefined; version: number } {
  return { source, version };
}
