/**
 * Image Token storage (platform-neutral part). The Node directory store is imported separately from
 * `./directory.js` so browser bundles never pull in node:fs.
 */
export * from './types.js';
export * from './token.js';
export * from './errors.js';
export * from './codec.js';
export * from './memory.js';
export * from './records.js';
