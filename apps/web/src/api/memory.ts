import type { memoryRoutes, RouteOutput } from '@stoa/contract';
import { api, seg } from './client.js';

export type MemoryEntry = RouteOutput<typeof memoryRoutes.list>[number];
export type MemoryDoc = RouteOutput<typeof memoryRoutes.get>;
export type MemoryVersion = RouteOutput<typeof memoryRoutes.history>[number];
/** Which memory file: the file name plus its agent (SOUL.md) or conversation (MEMORY.md). */
export interface MemoryRef {
  file: string;
  agent?: string;
  conversation?: string;
}

const p = (project: string) => `/projects/${seg(project)}/memory`;
const q = (r: MemoryRef) => ({ file: r.file, agent: r.agent, conversation: r.conversation });

/**
 * Memory files (M1–M4) through packages/contract/src/routes/memory.ts.
 *
 * @example
 * const doc = await memoryApi.get('default', { file: 'AGENTS.md' });
 * await memoryApi.set('default', { file: 'AGENTS.md' }, 'Be brief.', doc.version);
 */
export const memoryApi = {
  list: (project: string) => api<MemoryEntry[]>('GET', p(project)),
  get: (project: string, r: MemoryRef) => api<MemoryDoc>('GET', `${p(project)}/file`, { query: q(r) }),
  set: (project: string, r: MemoryRef, content: string, base: number) => api<MemoryDoc>('PUT', `${p(project)}/file`, { body: { ...q(r), content, base } }),
  history: (project: string, r: MemoryRef) => api<MemoryVersion[]>('GET', `${p(project)}/history`, { query: q(r) }),
  show: (project: string, r: MemoryRef, version: number) => api<MemoryDoc>('GET', `${p(project)}/version`, { query: { ...q(r), version } }),
};

/**
 * @example
 * refKey({ file: 'SOUL.md', agent: 'agt_a3B9kLm2' }) // "SOUL.md|agt_a3B9kLm2|"
 */
export const refKey = (r: MemoryRef): string => `${r.file}|${r.agent ?? ''}|${r.conversation ?? ''}`;
