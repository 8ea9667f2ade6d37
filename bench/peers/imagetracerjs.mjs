// imagetracerjs (pure JavaScript), default options.
import { runPeer, readPng, require } from './_common.mjs';

const ImageTracer = require('imagetracerjs');

await runPeer((inFile) => {
  const img = readPng(inFile);
  return ImageTracer.imagedataToSVG({ width: img.width, height: img.height, data: img.data }, 'default');
});
