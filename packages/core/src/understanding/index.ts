export * from './parse.js';
export * from './chunk.js';
export * from './assets.js';
export * from './hook.js';
export * from './chunks.js';
export * from './validate.js';
export * from './tools.js';
