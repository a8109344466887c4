import { memoryRoutes, turnRoutes } from '@stoa/contract';
import { appendMemory, getMemory, memoryHistory, restoreMemoryVersion, setMemory, showMemoryVersion } from '../memory/memory.js';
import { listMemoryFiles, memoryBundle } from '../memory/bundle.js';
import { searchMemory } from '../memory/search.js';
import { commitTurn, prepareTurn } from '../memory/turn.js';
import { changes, projectOperation, reads, type Operation, type OperationTraits } from './operation.js';

const m = memoryRoutes;

/** A save of a memory file: an agent's counts in its conversation's write window like every other change (§9). */
const memoryChange: OperationTraits = { ...changes('memory.write', null), window: 'runner' };

/** Memory files (M1–M6) and a hosted agent's turn. */
export const memoryOperations: Operation[] = [
  projectOperation(m.list, reads('memory.read'), (ctx) => listMemoryFiles(ctx)),
  projectOperation(m.get, reads('memory.read'), (ctx, i) => getMemory(ctx, i)),
  projectOperation(m.set, memoryChange, (ctx, i) => setMemory(ctx, i, i.content, { base: i.base })),
  projectOperation(m.append, memoryChange, (ctx, i) => appendMemory(ctx, i, i.text)),
  projectOperation(m.history, reads('memory.read'), (ctx, i) => memoryHistory(ctx, i)),
  projectOperation(m.show, reads('memory.read'), (ctx, i) => showMemoryVersion(ctx, i, i.version)),
  projectOperation(m.restore, memoryChange, (ctx, i) => restoreMemoryVersion(ctx, i, i.version, { base: i.base })),
  projectOperation(m.search, reads('memory.read'), (ctx, i) => searchMemory(ctx, { query: i.q, limit: i.limit })),
  projectOperation(m.bundle, reads('memory.read'), (ctx, i) => memoryBundle(ctx, i)),
  projectOperation(turnRoutes.prepare, reads('memory.read'), (ctx, i) => prepareTurn(ctx, i)),
  projectOperation(turnRoutes.commit, memoryChange, (ctx, i) => commitTurn(ctx, i)),
];
