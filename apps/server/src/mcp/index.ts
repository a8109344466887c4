export { createStoaMcpServer, type McpBackend } from './mcp-server.js';
export { mountMcp } from './http.js';
