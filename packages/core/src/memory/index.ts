/**
 * Memory files (§5): SOUL.md per agent, AGENTS.md per workspace, MEMORY.md per conversation — versioned,
 * with optimistic saves (`memory_version_conflict`), server-side appends that never lose a line, search, pull
 * and the hosted-agent turn sync. Rights live in policies/memory.ts.
 */
export * from './types.js';
export { memoryFileName, resolveMemoryTarget, authorizeMemory, memoryRefusal, memoryTarget, type MemoryRef } from './target.js';
export { appendText, memoryPath, memoryVisibilityOf } from './store.js';
export { getMemory, setMemory, appendMemory, memoryHistory, showMemoryVersion } from './memory.js';
export { memoryVisibility, searchMemory, type MemorySearchHit } from './search.js';
export { memoryBundle, listMemoryFiles, MEMORY_DIR, type BundledMemoryFile } from './bundle.js';
export { addedLines, splitLines } from './merge.js';
export { turnContext } from './turn-context.js';
export { prepareTurn, commitTurn, memoryPreamble, type PreparedTurn, type PreparedFile, type CommittedFile } from './turn.js';
export { runMemoryTool, type MemoryToolResult } from './tools.js';
export { LINES_PER_BLOCK, fileIdOfRef } from './memory-index.js';
