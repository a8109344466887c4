export { buildApp, type AppOptions } from './app.js';
export { jsonHandlers, handlersById } from './routes/index.js';
export type { AnyHandler, GlobalCall, ProjectHandler, GlobalHandler } from './http/handler.js';
export { projectHandler, globalHandler } from './http/handler.js';
export { serverExtensions, type ServerExtension } from './extensions.js';
export { startServer } from './start-server.js';
export { createStoaMcpServer, mountMcp, type McpBackend, type McpCallOutcome } from './mcp/index.js';
