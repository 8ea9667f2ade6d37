// VTracer compiled to WebAssembly (vtracer-wasm), what a browser user runs.
// The package is an ES module built by wasm-bindgen for the web target; in Node we
// instantiate it synchronously from the .wasm bytes (initSync) instead of fetch().
// Its config passes values straight to visioncortex, without the CLI's conversions:
//   colorPrecision is the number of bits *dropped* (CLI 6 significant bits → 8 - 6 = 2),
//   filterSpeckle is an area in pixels (CLI 4 → 4² = 16),
//   cornerThreshold and spliceThreshold are in radians (CLI 60° and 45°).
// With those conversions the settings equal vtracer's CLI defaults (see vtracer-native.mjs);
// checked: the output then matches @neplex/vectorizer's path for path, up to small
// control-point differences between the two bundled visioncortex versions.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runPeer, readPng, require } from './_common.mjs';

const wasmJs = pathToFileURL(require.resolve('vtracer-wasm'));
const wasm = await import(wasmJs.href);
wasm.initSync({ module: readFileSync(new URL('vtracer.wasm', wasmJs)) });

const CONFIG = {
  binary: false,
  mode: 'spline',
  hierarchical: 'stacked',
  filterSpeckle: 4 * 4,
  colorPrecision: 8 - 6,
  layerDifference: 16,
  cornerThreshold: (60 * Math.PI) / 180,
  lengthThreshold: 4,
  maxIterations: 10,
  spliceThreshold: (45 * Math.PI) / 180,
  pathPrecision: 2,
};

await runPeer((inFile) => {
  const img = readPng(inFile);
  return wasm.to_svg(new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.length), img.width, img.height, CONFIG);
});
