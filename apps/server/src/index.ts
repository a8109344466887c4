export { buildApp, type AppOptions } from './app.js';
export { serverExtensions, type ServerExtension } from './extensions.js';
export { startServer } from './start-server.js';
export { createStoaMcpServer, mountMcp, type McpBackend } from './mcp/index.js';
