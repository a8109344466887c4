export * from './schemas.js';
export * from './descriptions.js';
export * from './effects.js';
export * from './export.js';
export * from './strict.js';
