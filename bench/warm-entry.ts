/**
 * What bench/warm.mjs loads (one bundle, so the decoders' set-up and the pipeline share their
 * module state): the CLI's pipeline and the Node decoder set-up the CLI and the Node library run
 * before each decode (native inflate for PNG, src/cli/node-codecs.ts).
 */
export { planVectorize, runVectorize } from '../src/api/pipeline.js';
export { prepareNodeDecoders } from '../src/cli/node-codecs.js';
