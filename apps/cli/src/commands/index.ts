import type { Command } from 'commander';
import { registerMemory } from './memory.js';
import { registerTurn } from './turn.js';
import { registerServe } from './serve.js';
import { registerProjects } from './projects.js';
import { registerFiles } from './files.js';
import { registerAgents } from './agents.js';
import { registerConversations } from './conversations.js';
import { registerTools } from './tools.js';
import { registerMcp } from './mcp.js';
import { registerWiki } from './wiki.js';
import { registerSearch } from './search.js';
import { registerDocs } from './docs.js';
import { registerDoctor } from './doctor.js';
import { registerLocks } from './locks.js';
import { registerTrash } from './trash.js';
import { registerLoginLink } from './login-link.js';
import { registerCompletion } from './completion.js';

/** Every command group; each area adds its `register…` here. */
export function registerCommands(program: Command): void {
  registerServe(program);
  registerProjects(program);
  registerFiles(program);
  registerAgents(program);
  registerConversations(program);
  registerTools(program);
  registerMcp(program);
  registerWiki(program);
  registerSearch(program);
  registerDocs(program);
  registerMemory(program);
  registerTurn(program);
  registerLocks(program);
  registerTrash(program);
  registerDoctor(program);
  registerLoginLink(program);
  // Last: it describes the commands registered before it.
  registerCompletion(program);
}
