import { StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { can } from '../policies/can.js';
import type { MemoryAction } from '../policies/memory.js';
import { findVisibleConversation, isParticipant } from '../conversations/conversations.js';
import { KIND_OF, type MemoryFileName, type MemoryTarget } from './types.js';

/** Which memory file a request names. */
export interface MemoryRef {
  /** 'SOUL.md', 'AGENTS.md' or 'MEMORY.md' (case-insensitive). */
  file: string;
  /** SOUL.md: whose (an agent ID). An agent acting for itself may leave it out. */
  agent?: string;
  /** MEMORY.md: a conversation ID or channel name. During a turn it defaults to the turn's conversation. */
  conversation?: string;
}

const NAMES: MemoryFileName[] = ['SOUL.md', 'AGENTS.md', 'MEMORY.md'];

/**
 * The canonical name of a memory file, or a `bad_request` naming the three that exist.
 *
 * @example
 * memoryFileName('memory.md') // 'MEMORY.md'
 */
export function memoryFileName(file: string): MemoryFileName {
  const f = NAMES.find((n) => n.toLowerCase() === file.trim().toLowerCase());
  if (!f)
    throw new StoaError(
      'bad_request',
      `"${file}" is not a memory file; the memory files are SOUL.md (with --agent), AGENTS.md and MEMORY.md (with --conversation or --channel)`,
    );
  return f;
}

/**
 * Resolves a reference to one file: the agent of a SOUL.md, the conversation of a MEMORY.md (during a turn
 * `MEMORY.md` means the turn's conversation, M5). It does not check rights; `authorizeMemory` does.
 *
 * @example
 * await resolveMemoryTarget(agentCtx, { file: 'MEMORY.md' }) // the agent's current conversation
 * await resolveMemoryTarget(adminCtx, { file: 'MEMORY.md' }) // bad_request: there is no workspace-wide MEMORY.md
 */
export async function resolveMemoryTarget(ctx: Ctx, ref: MemoryRef): Promise<MemoryTarget> {
  return (await resolve(ctx, ref)).target;
}

/** The target, and whether the caller takes part in its conversation when that was looked up on the way. */
async function resolve(ctx: Ctx, ref: MemoryRef): Promise<{ target: MemoryTarget; participant?: true }> {
  const file = memoryFileName(ref.file);
  const db = ctx.platform.db.kysely;
  if (file === 'AGENTS.md') return { target: { file, kind: 'agents', scopeId: '' } };
  if (file === 'SOUL.md') {
    const agentId = ref.agent?.trim() || (ctx.actor.kind === 'agent' ? ctx.actor.agentId : undefined);
    if (!agentId) throw new StoaError('bad_request', 'SOUL.md belongs to one agent: name it with --agent AGENT_ID');
    const a = await db
      .selectFrom('agents')
      .select(['id', 'name', 'owner_id', 'instructions'])
      .where('id', '=', agentId)
      .where('project_id', '=', ctx.project.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!a) throw new StoaError('not_found', `agent "${agentId}" does not exist in this project`);
    return {
      target: { file, kind: KIND_OF[file], scopeId: a.id, agentId: a.id, agentName: a.name, agentOwnerId: a.owner_id, agentInstructions: a.instructions },
    };
  }
  const convRef = ref.conversation?.trim() || (ctx.actor.kind === 'agent' ? (ctx.actor.conversationId ?? undefined) : undefined);
  if (!convRef) {
    throw new StoaError(
      'bad_request',
      'MEMORY.md belongs to one conversation: name it with --conversation ID or --channel NAME (there is no workspace-wide MEMORY.md; shared knowledge goes in the wiki)',
    );
  }
  // A conversation the caller is not in answers as a missing one, not as a refusal (issue 27).
  const conv = await findVisibleConversation(ctx, convRef);
  return { target: { file, kind: 'memory', scopeId: conv.id, conversationId: conv.id, conversationName: conv.name }, participant: conv.participant };
}

/** The policy's answer for this actor and file (participation looked up first). Null = allowed. */
export async function memoryRefusal(ctx: Ctx, target: MemoryTarget, action: MemoryAction): Promise<StoaError | null> {
  return refusalOf(ctx, target, action, undefined);
}

/** memoryRefusal, given the caller's participation when it is already known (for this very ctx). */
async function refusalOf(ctx: Ctx, target: MemoryTarget, action: MemoryAction, known: true | undefined): Promise<StoaError | null> {
  const participant = target.conversationId ? (known ?? (await isParticipant(ctx, target.conversationId))) : undefined;
  return can(ctx.actor, action, {
    kind: 'memory',
    file: target.file,
    agentId: target.agentId,
    agentOwnerId: target.agentOwnerId,
    conversationId: target.conversationId,
    participant,
  });
}

/**
 * Throws the refusal, if any. A conversation the caller may not read answers `forbidden`, never its content.
 *
 * @example
 * await authorizeMemory(ctx, target, 'memory.write');
 */
export async function authorizeMemory(ctx: Ctx, target: MemoryTarget, action: MemoryAction): Promise<void> {
  const e = await memoryRefusal(ctx, target, action);
  if (e) throw e;
}

/** Resolve + authorize in one step, the way every operation starts. */
export async function memoryTarget(ctx: Ctx, ref: MemoryRef, action: MemoryAction): Promise<MemoryTarget> {
  const { target, participant } = await resolve(ctx, ref);
  // Participation found while resolving is this caller's, just read: not asked again (one query less per call).
  const e = await refusalOf(ctx, target, action, participant);
  if (e) throw e;
  return target;
}
