export * from './operation.js';
export * from './table.js';
export * from './run-operation.js';
export * from './principals.js';
export * from './agent-gate.js';
export { callTool, findTool, toolOperations } from './tool-ops.js';
