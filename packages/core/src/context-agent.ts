import { StoaError } from '@stoa/contract';
import type { AgentActor } from './actors.js';
import type { Platform } from './platform.js';

/** Options a door passes when it builds a context for one request. */
export interface ContextOptions {
  /** Project name or ID; the default project when absent (for agents: the agent's own project). */
  project?: string;
  /** Conversation the agent acts in (agent principals only). */
  conversationId?: string | null;
  processId?: string;
  nodeId?: string;
  /** Act with the agent's published (frozen) settings (A7); publication tokens set this. */
  published?: boolean;
}

/**
 * The agent as it acts now: its live file-access settings, or the frozen ones of its publication (A7) when
 * `published` is set. A conversation it acts in must exist in its project.
 */
export async function loadAgentActor(platform: Platform, agentId: string, opts: ContextOptions & { published?: boolean } = {}): Promise<AgentActor> {
  const a = await platform.db.kysely.selectFrom('agents').selectAll().where('id', '=', agentId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!a) throw new StoaError('not_found', `agent "${agentId}" does not exist`);
  // Its owner left the project (issue 26): it acts again only once an admin reassigns it.
  if (a.suspended_at)
    throw new StoaError('agent_suspended', `agent "${agentId}" is suspended: its owner left the project; a project admin may reassign or delete it`);
  let access = { enabled: a.files_enabled === 1, write: a.write_scope as 'own' | 'project', read: a.read_scope as 'project' | 'own' };
  let instructions = a.instructions;
  if (opts.published && a.published_config) {
    const frozen = JSON.parse(a.published_config) as { access: typeof access; instructions: string };
    access = frozen.access;
    instructions = frozen.instructions;
  }
  const conversationId = opts.conversationId ?? null;
  let memberOf: AgentActor['memberOf'];
  if (conversationId) {
    // One statement for both questions of every agent request: does the conversation exist here, and does the
    // agent take part in it (the runner's membership step, chain.ts, then asks nothing more).
    const conv = await platform.db.kysely
      .selectFrom('conversations')
      .leftJoin('conversation_members as m', (j) => j.onRef('m.conversation_id', '=', 'conversations.id').on('m.member_id', '=', a.id))
      .select(['conversations.id', 'm.member_id'])
      .where('conversations.id', '=', conversationId)
      .where('conversations.project_id', '=', a.project_id)
      .executeTakeFirst();
    if (!conv) throw new StoaError('not_found', `conversation "${conversationId}" does not exist in this project`);
    if (conv.member_id !== null) memberOf = { conversationId, projectId: a.project_id };
  }
  return {
    kind: 'agent',
    agentId: a.id,
    name: a.name,
    ownerId: a.owner_id,
    access,
    instructions,
    conversationId,
    processId: opts.processId,
    nodeId: opts.nodeId,
    ...(memberOf ? { memberOf } : {}),
  };
}
