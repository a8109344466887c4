import type { memoryRoutes, RouteOutput } from '@stoa/contract';
import { routeIndex } from '@stoa/contract/route-index';
import { call } from './client.js';

export type MemoryEntry = RouteOutput<typeof memoryRoutes.list>[number];
export type MemoryDoc = RouteOutput<typeof memoryRoutes.get>;
export type MemoryVersion = RouteOutput<typeof memoryRoutes.history>[number];
/** Which memory file: the file name plus its agent (SOUL.md) or conversation (MEMORY.md). */
interface MemoryRef {
  file: string;
  agent?: string;
  conversation?: string;
}

const r = routeIndex.memory;
const q = (m: MemoryRef) => ({ file: m.file, agent: m.agent, conversation: m.conversation });

/**
 * Memory files (M1–M4) through packages/contract/src/routes/memory.ts.
 *
 * @example
 * const doc = await memoryApi.get('default', { file: 'AGENTS.md' });
 * await memoryApi.set('default', { file: 'AGENTS.md' }, 'Be brief.', doc.version);
 */
export const memoryApi = {
  list: (project: string) => call(r.list, { project }),
  get: (project: string, m: MemoryRef) => call(r.get, { project, ...q(m) }),
  set: (project: string, m: MemoryRef, content: string, base: number) => call(r.set, { project, ...q(m), content, base }),
  history: (project: string, m: MemoryRef) => call(r.history, { project, ...q(m) }),
  show: (project: string, m: MemoryRef, version: number) => call(r.show, { project, ...q(m), version }),
  /** An earlier version saved again as the newest; refused (memory_version_conflict) when the newest is not `base`. */
  restore: (project: string, m: MemoryRef, version: number, base: number) => call(r.restore, { project, ...q(m), version, base }),
};

/**
 * @example
 * refKey({ file: 'SOUL.md', agent: 'agt_a3B9kLm2' }) // "SOUL.md|agt_a3B9kLm2|"
 */
export const refKey = (r: MemoryRef): string => `${r.file}|${r.agent ?? ''}|${r.conversation ?? ''}`;

/**
 * The client URL of a memory file: /memory/AGENTS.md, /memory/SOUL.md/<agent ID>, /memory/MEMORY.md/<conversation ID>.
 *
 * @example
 * memoryHref({ file: 'SOUL.md', agent: 'agt_a3B9kLm2' }) // "/memory/SOUL.md/agt_a3B9kLm2"
 */
export function memoryHref(e: { file: string; agent?: string; conversation?: string }): string {
  const owner = e.agent ?? e.conversation;
  return `/memory/${encodeURIComponent(e.file)}${owner ? `/${encodeURIComponent(owner)}` : ''}`;
}
