// The MCP server itself (`createStoaMcpServer`) is the package's `./mcp-server` entry, loaded by its users when
// needed: re-exported here, it would load with every HTTP server (issue 31: idle memory).
export { mountMcp } from './http.js';
