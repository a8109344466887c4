export { createStoaMcpServer, type McpBackend, type McpCallOutcome } from './mcp-server.js';
export { mountMcp } from './http.js';
