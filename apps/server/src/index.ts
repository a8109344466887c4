export { buildApp, type AppOptions } from './app.js';
export { serverExtensions, type ServerExtension } from './extensions.js';
export { startServer } from './start-server.js';
// The MCP server itself is `@stoa/server/mcp-server` (stdio uses it): re-exported here, it would load with every server.
export { mountMcp } from './mcp/index.js';
