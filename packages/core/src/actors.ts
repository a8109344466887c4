/** Who acts. Every operation receives one of these in its context. */
export type Role = 'admin' | 'editor' | 'viewer';

export interface AgentAccess {
  /** "File access" on/off (A1, default off). */
  enabled: boolean;
  /** "Where the agent writes" (default own folder). */
  write: 'own' | 'project';
  /** "What the agent reads" (default whole project). */
  read: 'project' | 'own';
  /**
   * Set when the agent acts in a volume beyond projects (R1), where its folder settings do not apply: `rw` its
   * own volume (read, write, move and delete everywhere in it), `ro` read only, `none` nothing. Absent in a
   * project, and in a project's knowledge base or skill package where its project-wide settings do apply.
   */
  volume?: 'rw' | 'ro' | 'none';
}

export interface UserActor {
  kind: 'user';
  userId: string;
  name: string;
  /** Role in the context's project; null when the user is not a member. */
  role: Role | null;
  /** The local administrator of a data folder (local CLI mode) and the bootstrap admin: every project. */
  superuser?: boolean;
}

export interface AgentActor {
  kind: 'agent';
  agentId: string;
  name: string;
  ownerId: string | null;
  access: AgentAccess;
  instructions: string;
  conversationId: string | null;
  /** Runtime identity of the process making the call (F6 tooltip for writes that cannot be mapped). */
  processId?: string;
  nodeId?: string;
  /** Tool call that acts (B9 attribution). */
  toolCallId?: string;
  /**
   * The conversation this agent was found to take part in when its context was built, and in which project: the
   * runner's membership step (chain.ts) reads it instead of asking the database again within the same request.
   */
  memberOf?: { conversationId: string; projectId: string };
}

export type Actor = UserActor | AgentActor;

/** The user's or the agent's ID: who a membership row or a lock names. */
export function actorIdOf(actor: Actor): string {
  return actor.kind === 'user' ? actor.userId : actor.agentId;
}

/**
 * A project admin or the installation's superuser: sees every conversation of the project, every MEMORY.md and
 * every channel's wiki pages; editors, viewers and agents see those of the conversations they take part in.
 */
export function isProjectAdmin(actor: Actor): boolean {
  return actor.kind === 'user' && (actor.superuser === true || actor.role === 'admin');
}

/** Who a version, audit entry or "created by" tag names. */
export interface Attribution {
  kind: 'user' | 'agent' | 'unmapped_agent' | 'system';
  id: string | null;
  label: string | null;
  meta?: Record<string, string | null> | null;
}

/**
 * "Created by" for people is empty (F6); for agents "agent: <name>".
 */
export function attributionOf(actor: Actor): Attribution {
  if (actor.kind === 'user') return { kind: 'user', id: actor.userId, label: actor.name };
  return {
    kind: 'agent',
    id: actor.agentId,
    label: actor.name,
    meta: { conversationId: actor.conversationId, toolCallId: actor.toolCallId ?? null, processId: actor.processId ?? null, nodeId: actor.nodeId ?? null },
  };
}

/** The text of the "Created by" column (F6). */
export function createdByTag(kind: string, label: string | null): string {
  if (kind === 'agent') return label ? `agent: ${label}` : 'agent';
  if (kind === 'unmapped_agent') return 'agent';
  return '';
}
