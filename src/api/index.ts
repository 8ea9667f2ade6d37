export * from './options.js';
export * from './palette.js';
export * from './media-types.js';
export * from './extensions.js';
