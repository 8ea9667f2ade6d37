/**
 * `tracelab/engine` in Node: the same entry as engine.ts, with the Node decoder set-up (native
 * inflate for PNG, the WebP wasm read from next to this bundle) done before each decode.
 */
import { prepareNodeDecoders } from '../cli/node-codecs.js';
import { setDecoderPreparation } from './engine.js';

export * from './engine.js';

setDecoderPreparation(prepareNodeDecoders);
