import { StoaError } from '@stoa/contract';
import type { AgentActor } from './actors.js';
import type { Platform } from './platform.js';
import { hotQuery } from './hot-query.js';
import { toProjectRow, type ProjectRow } from './projects/project-row.js';

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
 * The agent, the project a context acts in (`project`: '' for none) and the conversation it acts in
 * (`conversation`: '' for none) with whether the agent takes part in it, in one statement: every agent request
 * (each MCP tool call) runs it, so it is built once (issue 30) — and read afresh each time (R3).
 */
const agentWithContext = hotQuery((db, a: { agent: string; project: string; conversation: string }) =>
  db
    .selectFrom('agents')
    .leftJoin('projects as p', (j) => j.on('p.id', '=', a.project).on('p.deleting_at', 'is', null))
    .leftJoin('conversations as c', (j) => j.on('c.id', '=', a.conversation).onRef('c.project_id', '=', 'agents.project_id'))
    .leftJoin('conversation_members as m', (j) => j.onRef('m.conversation_id', '=', 'c.id').onRef('m.member_id', '=', 'agents.id'))
    .selectAll('agents')
    .select([
      'p.id as p_id',
      'p.org_id as p_org_id',
      'p.name as p_name',
      'p.quota_bytes as p_quota_bytes',
      'p.created_at as p_created_at',
      'p.catalog as p_catalog',
      'p.scope_id as p_scope_id',
      'p.owner_user_id as p_owner_user_id',
      'p.owner_agent_id as p_owner_agent_id',
      'p.parent_project_id as p_parent_project_id',
      'p.label as p_label',
      'c.id as conv_id',
      'm.member_id as conv_member',
    ])
    .where('agents.id', '=', a.agent)
    .where('agents.deleted_at', 'is', null),
);

/**
 * The agent as it acts now: its live file-access settings, or the frozen ones of its publication (A7) when
 * `published` is set. A conversation it acts in must exist in its project.
 */
export async function loadAgentActor(platform: Platform, agentId: string, opts: ContextOptions & { published?: boolean } = {}): Promise<AgentActor> {
  return (await loadAgentContext(platform, agentId, null, opts)).actor;
}

/**
 * {@link loadAgentActor}, and the live project `projectId` (not being deleted; undefined when there is none) read
 * in the same statement: an agent's context costs one statement, not three.
 */
export async function loadAgentContext(
  platform: Platform,
  agentId: string,
  projectId: string | null,
  opts: ContextOptions & { published?: boolean } = {},
): Promise<{ actor: AgentActor; project: ProjectRow | undefined }> {
  const conversationId = opts.conversationId ?? null;
  const [a] = await agentWithContext(platform.db.kysely, { agent: agentId, project: projectId ?? '', conversation: conversationId ?? '' });
  if (!a) throw new StoaError('not_found', `agent "${agentId}" does not exist`);
  // Its owner left the project (issue 26): it acts again only once an admin reassigns it.
  if (a.suspended_at)
    throw new StoaError('agent_suspended', `agent "${agentId}" is suspended: its owner left the project; a project admin may reassign or delete it`);
  let access = { enabled: Number(a.files_enabled) === 1, write: a.write_scope as 'own' | 'project', read: a.read_scope as 'project' | 'own' };
  let instructions = a.instructions;
  if (opts.published && a.published_config) {
    const frozen = JSON.parse(a.published_config) as { access: typeof access; instructions: string };
    access = frozen.access;
    instructions = frozen.instructions;
  }
  let memberOf: AgentActor['memberOf'];
  if (conversationId) {
    // Both questions of every agent request, answered above: does the conversation exist here, and does the agent
    // take part in it (the runner's membership step, chain.ts, then asks nothing more).
    if (a.conv_id === null) throw new StoaError('not_found', `conversation "${conversationId}" does not exist in this project`);
    if (a.conv_member !== null) memberOf = { conversationId, projectId: a.project_id };
  }
  const actor: AgentActor = {
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
  const project =
    a.p_id === null
      ? undefined
      : toProjectRow({
          id: a.p_id,
          org_id: a.p_org_id!,
          name: a.p_name!,
          quota_bytes: a.p_quota_bytes,
          created_at: a.p_created_at!,
          catalog: a.p_catalog!,
          scope_id: a.p_scope_id,
          owner_user_id: a.p_owner_user_id,
          owner_agent_id: a.p_owner_agent_id,
          parent_project_id: a.p_parent_project_id,
          label: a.p_label,
        });
  return { actor, project };
}
