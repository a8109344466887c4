export type { ToolResult } from './run-tool.js';
export { toolScopes, toolAttribution, type RuntimeInfo, type ToolScopes } from './caller.js';
export { underFolder, readCandidates } from './resolve-path.js';
export { nearMiss } from './near-miss.js';
export { cutForModel } from './read-text.js';
export { countWrite } from './write-window.js';
export { toolAudience, withConversation } from './audience.js';
export { allTools, allToolsIn, type AnyToolDef } from './all-tools.js';
