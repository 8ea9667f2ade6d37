/**
 * `tracelab/engine` in Node: the same entry as engine.ts, with the Node decoder set-up (native
 * inflate for PNG, the WebP wasm read from next to this bundle) done before each decode, and file
 * path inputs read (`vectorizeHere('photo.png')`).
 */
import { prepareNodeDecoders } from '../cli/node-codecs.js';
import { readNamedFile } from '../cli/read-input.js';
import { setDecoderPreparation, setPathReader } from './engine.js';

export * from './engine.js';

setDecoderPreparation(prepareNodeDecoders);
setPathReader((file) => readNamedFile(file, 'image file'));
