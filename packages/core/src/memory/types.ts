import type { Kysely } from 'kysely';
import type { DB } from '@stoa/db';
import type { MemoryFileName } from '../policies/memory.js';

export type { MemoryFileName } from '../policies/memory.js';

/** The row kind of each file name. */
export type MemoryKind = 'soul' | 'agents' | 'memory';

export const KIND_OF: Record<MemoryFileName, MemoryKind> = { 'SOUL.md': 'soul', 'AGENTS.md': 'agents', 'MEMORY.md': 'memory' };
export const FILE_OF: Record<MemoryKind, MemoryFileName> = { soul: 'SOUL.md', agents: 'AGENTS.md', memory: 'MEMORY.md' };

/**
 * One memory file, resolved: which file, and of which agent or conversation.
 *
 * @example
 * { file: 'MEMORY.md', kind: 'memory', scopeId: 'conv_x', conversationId: 'conv_x', conversationName: 'general' }
 */
export interface MemoryTarget {
  file: MemoryFileName;
  kind: MemoryKind;
  /** Agent ID for SOUL.md, conversation ID for MEMORY.md, '' for AGENTS.md. */
  scopeId: string;
  agentId?: string;
  agentName?: string;
  agentOwnerId?: string | null;
  /** SOUL.md version 0: the agent's instructions. */
  agentInstructions?: string;
  conversationId?: string;
  conversationName?: string | null;
}

/** Who saved a version: a person, or an agent with the conversation it acted in (B9). */
export interface MemoryAuthor {
  kind: string;
  id: string | null;
  /** The person's name or the agent's name; "instructions" for SOUL.md version 0. */
  name: string | null;
  conversationId?: string | null;
}

/** A memory file at one version. */
export interface MemoryDoc {
  file: MemoryFileName;
  version: number;
  content: string;
  agent?: string;
  conversation?: string;
  /** ISO-8601 UTC of that version's save; null for a never-saved file. */
  modified: string | null;
  author: MemoryAuthor | null;
  /** Whether the caller may save this file (the UI opens it read-only otherwise, M2). */
  editable: boolean;
}

/** One entry of History, newest first. */
export interface MemoryVersionInfo {
  version: number;
  modified: string | null;
  author: MemoryAuthor | null;
  /** 'set', 'append', 'merge' (a hosted agent's lines appended after someone else saved), or 'instructions'. */
  op: string;
  chars: number;
}

export type { MemoryFilesTable, MemoryVersionsTable, MemorySeenTable, MemoryDB } from '@stoa/db';

/** The query handle the memory modules use: the whole typed database. */
export type MQ = Kysely<DB>;
