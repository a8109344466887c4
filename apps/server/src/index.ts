export { buildApp, type AppOptions } from './app.js';
export { serverExtensions, type ServerExtension } from './extensions.js';
export { startServer } from './start-server.js';
export { createStoaMcpServer, mountMcp, type McpBackend, type McpCallOutcome } from './mcp/index.js';
