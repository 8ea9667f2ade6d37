// VTracer (Rust, native napi addon) through @neplex/vectorizer.
// Config = vtracer's own CLI defaults: colour, stacked, spline, filter_speckle 4,
// color_precision 6, layer_difference 16, corner 60°, length 4, splice 45°, 10 iterations,
// path_precision 2. (Identical output to calling vectorize() with no config.)
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runPeer, require } from './_common.mjs';

const { vectorize, ColorMode, Hierarchical, PathSimplifyMode } = require('@neplex/vectorizer');

/** The config every VTracer row and sheet uses (bench/sheets.mjs traces with it in process). */
export const CONFIG = {
  colorMode: ColorMode.Color,
  hierarchical: Hierarchical.Stacked,
  mode: PathSimplifyMode.Spline,
  filterSpeckle: 4,
  colorPrecision: 6,
  layerDifference: 16,
  cornerThreshold: 60,
  lengthThreshold: 4,
  maxIterations: 10,
  spliceThreshold: 45,
  pathPrecision: 2,
};

/** VTracer's SVG of a PNG file's bytes. */
export const vtracerSvg = (pngBytes) => vectorize(pngBytes, CONFIG);

// `node peers/vtracer-native.mjs IN OUT` traces; importing the file (bench/sheets.mjs) only loads the config.
if (process.argv[1] && realpathSync(resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url))) {
  await runPeer((inFile) => vtracerSvg(readFileSync(inFile)));
}
