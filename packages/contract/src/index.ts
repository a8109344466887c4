export * from './errors.js';
export * from './limits.js';
export * from './route.js';
export * from './routes/common.js';
export * from './routes/files.js';
export * from './routes/projects.js';
export * from './routes/memory.js';
export * from './tools/memory.js';
export { allRoutes } from './routes/all.js';
