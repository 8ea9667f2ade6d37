// VTracer (Rust, native napi addon) through @neplex/vectorizer.
// Config = vtracer's own CLI defaults: colour, stacked, spline, filter_speckle 4,
// color_precision 6, layer_difference 16, corner 60°, length 4, splice 45°, 10 iterations,
// path_precision 2. (Identical output to calling vectorize() with no config.)
import { readFileSync } from 'node:fs';
import { runPeer, require } from './_common.mjs';

const { vectorize, ColorMode, Hierarchical, PathSimplifyMode } = require('@neplex/vectorizer');

const CONFIG = {
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

await runPeer((inFile) => vectorize(readFileSync(inFile), CONFIG));
