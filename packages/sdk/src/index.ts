export { StoaClient, parseResponse, type ClientOptions } from './client.js';
export { pullMemory, prepareTurnInDir, commitTurnFromDir, MEMORY_FOLDER, type RouteCaller } from './memory.js';
export { StoaTools, executeTool, type ToolCallResult } from './tools.js';
