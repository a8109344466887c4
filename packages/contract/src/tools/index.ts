export * from './schemas.js';
export * from './descriptions.js';
export * from './export.js';
