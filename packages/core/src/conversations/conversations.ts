import { StoaError } from '@stoa/contract';
import { newId } from '../ids.js';
import { inTx, type Ctx, type Q } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { hotQuery } from '../hot-query.js';
import { actorIdOf, isProjectAdmin, type Actor } from '../actors.js';

export type ConversationKind = 'channel' | 'dm' | 'dialog';

export interface ConversationInfo {
  id: string;
  kind: ConversationKind;
  name: string | null;
  members: Array<{ kind: 'user' | 'agent'; id: string; name: string }>;
  created: string;
  writes?: WriteCount;
}

interface WriteCount {
  used: number;
  max: number;
  resetsAt: string | null;
}

/**
 * Creates a conversation: a channel when `channel` names it, a dialog when its only members are one agent
 * (plus the creator), a direct conversation otherwise. `members` are user names/IDs and agent IDs; the
 * creating user is always a participant.
 *
 * @example
 * await createConversation(ctx, { channel: 'general', members: ['agt_a3B9kLm2', 'alice'] });
 */
export async function createConversation(ctx: Ctx, input: { channel?: string; members?: string[]; kind?: ConversationKind }): Promise<ConversationInfo> {
  assertCan(ctx.actor, 'project.read', { kind: 'project' });
  if (ctx.actor.kind === 'user' && ctx.actor.role === 'viewer' && !ctx.actor.superuser)
    throw new StoaError('forbidden', 'viewers may not create conversations');
  const db = ctx.platform.db.kysely;
  const channel = input.channel?.trim().replace(/^#/, '');
  if (channel !== undefined && !/^[\p{L}\p{N}][\p{L}\p{N}._-]{0,79}$/u.test(channel))
    throw new StoaError('bad_request', 'channel name must be 1–80 letters, digits, ".", "_" or "-"');
  const members: ConversationInfo['members'] = [];
  if (ctx.actor.kind === 'user') members.push({ kind: 'user', id: ctx.actor.userId, name: ctx.actor.name });
  else members.push({ kind: 'agent', id: ctx.actor.agentId, name: ctx.actor.name });
  for (const m of input.members ?? []) {
    const ref = m.trim();
    if (!ref) continue;
    if (ref.startsWith('agt_')) {
      const a = await db
        .selectFrom('agents')
        .select(['id', 'name'])
        .where('id', '=', ref)
        .where('project_id', '=', ctx.project.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!a) throw new StoaError('not_found', `agent "${ref}" does not exist in this project`);
      if (!members.some((x) => x.id === a.id)) members.push({ kind: 'agent', id: a.id, name: a.name });
    } else {
      const u = await db
        .selectFrom('users')
        .innerJoin('members', 'members.user_id', 'users.id')
        .select(['users.id', 'users.name'])
        .where('members.project_id', '=', ctx.project.id)
        .where((eb) => eb.or([eb('users.name', '=', ref), eb('users.id', '=', ref)]))
        .executeTakeFirst();
      if (!u) throw new StoaError('not_found', `user "${ref}" is not a member of this project`);
      if (!members.some((x) => x.id === u.id)) members.push({ kind: 'user', id: u.id, name: u.name });
    }
  }
  const agents = members.filter((m) => m.kind === 'agent').length;
  const kind: ConversationKind = input.kind ?? (channel ? 'channel' : agents === 1 && members.length <= 2 ? 'dialog' : 'dm');
  const now = ctx.platform.clock().toISOString();
  const id = newId('conv');
  await inTx(ctx.platform, async (trx) => {
    if (channel) {
      const exists = await trx.selectFrom('conversations').select('id').where('project_id', '=', ctx.project.id).where('name', '=', channel).executeTakeFirst();
      if (exists) throw new StoaError('already_exists', `channel "${channel}" already exists`);
    }
    await trx
      .insertInto('conversations')
      .values({ id, project_id: ctx.project.id, kind, name: channel ?? null, created_at: now })
      .execute();
    for (const m of members) await trx.insertInto('conversation_members').values({ conversation_id: id, member_kind: m.kind, member_id: m.id }).execute();
  });
  return { id, kind, name: channel ?? null, members, created: now };
}

/** Whether the actor takes part in a conversation (admins see every conversation of their project). */
export async function isParticipant(ctx: Ctx, conversationId: string, actor: Actor = ctx.actor): Promise<boolean> {
  const id = actorIdOf(actor);
  const row = await ctx.platform.db.kysely
    .selectFrom('conversation_members')
    .innerJoin('conversations', 'conversations.id', 'conversation_members.conversation_id')
    .select('conversation_members.member_id')
    .where('conversations.project_id', '=', ctx.project.id)
    .where('conversation_members.conversation_id', '=', conversationId)
    .where('conversation_members.member_id', '=', id)
    .executeTakeFirst();
  return !!row;
}

/** Finds a conversation of the project by ID or channel name. */
export async function findConversation(ctx: Ctx, ref: string): Promise<{ id: string; kind: ConversationKind; name: string | null }> {
  const name = ref.replace(/^#/, '');
  const row = await ctx.platform.db.kysely
    .selectFrom('conversations')
    .select(['id', 'kind', 'name'])
    .where('project_id', '=', ctx.project.id)
    .where((eb) => eb.or([eb('id', '=', ref), eb('name', '=', name)]))
    .executeTakeFirst();
  if (!row) throw new StoaError('not_found', `conversation "${ref}" does not exist`);
  return { id: row.id, kind: row.kind as ConversationKind, name: row.name };
}

/**
 * IDs of the project's conversations the actor sees: every one for a project admin or the superuser, those it
 * takes part in for editors, viewers and agents — what a channel's wiki pages (W5) and a conversation's MEMORY.md
 * are shown by.
 *
 * @example
 * await visibleConversationIds(ctx) // ['conv_ab12…']
 */
export async function visibleConversationIds(ctx: Ctx, q: Q = ctx.platform.db.kysely): Promise<string[]> {
  if (isProjectAdmin(ctx.actor)) {
    const rows = await q.selectFrom('conversations').select('id').where('project_id', '=', ctx.project.id).execute();
    return rows.map((r) => r.id);
  }
  const rows = await q
    .selectFrom('conversation_members')
    .innerJoin('conversations', 'conversations.id', 'conversation_members.conversation_id')
    .select('conversations.id')
    .where('conversations.project_id', '=', ctx.project.id)
    .where('conversation_members.member_id', '=', actorIdOf(ctx.actor))
    .execute();
  return rows.map((r) => r.id);
}

/** How the caller sees conversation `id`: as an admin of the project, as a participant, or not at all. */
async function sightOf(ctx: Ctx, id: string): Promise<'admin' | 'participant' | null> {
  const a = ctx.actor;
  if (isProjectAdmin(a)) return 'admin';
  return (await isParticipant(ctx, id)) ? 'participant' : null;
}

/** Whether the caller may see conversation `id`: a participant, or an admin of the project. */
export async function seesConversation(ctx: Ctx, id: string): Promise<boolean> {
  return (await sightOf(ctx, id)) !== null;
}

/**
 * The conversation `ref` names, when the caller may see it; one it may not see answers exactly as a missing one —
 * same code, same message — so nobody confirms a conversation or channel they are not in (issue 27).
 * `participant` is true when the caller's participation was looked up on the way (saves the caller asking again).
 *
 * @example
 * const conv = await findVisibleConversation(ctx, '#launch'); // not_found unless a participant or an admin
 */
export async function findVisibleConversation(ctx: Ctx, ref: string): Promise<{ id: string; kind: ConversationKind; name: string | null; participant?: true }> {
  const a = ctx.actor;
  const row = (
    await conversationWithMember(ctx.platform.db.kysely, {
      project: ctx.project.id,
      ref,
      name: ref.replace(/^#/, ''),
      member: actorIdOf(a),
    })
  )[0];
  if (!row || (row.member_id === null && !isProjectAdmin(a))) throw new StoaError('not_found', `conversation "${ref}" does not exist`);
  const conv = { id: row.id, kind: row.kind as ConversationKind, name: row.name };
  return row.member_id !== null ? { ...conv, participant: true } : conv;
}

/**
 * The conversation a reference names (ID or channel name) and whether `member` takes part in it, in one statement:
 * every memory operation starts with it (issue 30), so it is built once — and read afresh each time.
 */
const conversationWithMember = hotQuery((db, a: { project: string; ref: string; name: string; member: string }) =>
  db
    .selectFrom('conversations as c')
    .leftJoin('conversation_members as m', (j) => j.onRef('m.conversation_id', '=', 'c.id').on('m.member_id', '=', a.member))
    .select(['c.id', 'c.kind', 'c.name', 'm.member_id'])
    .where('c.project_id', '=', a.project)
    .where((eb) => eb.or([eb('c.id', '=', a.ref), eb('c.name', '=', a.name)]))
    .limit(1),
);

/**
 * Conversations the actor takes part in (admins: all of the project). With `agent`: only those that agent takes
 * part in, each with the changes it made there in the current write window (A4), read from the same counter
 * the tool runner enforces, so the number shown is the number that will refuse.
 */
export async function listConversations(ctx: Ctx, opts: { agent?: string } = {}): Promise<ConversationInfo[]> {
  assertCan(ctx.actor, 'project.read', { kind: 'project' });
  const db = ctx.platform.db.kysely;
  const admin = isProjectAdmin(ctx.actor);
  const me = actorIdOf(ctx.actor);
  let q = db.selectFrom('conversations').selectAll().where('project_id', '=', ctx.project.id);
  if (!admin) q = q.where('id', 'in', db.selectFrom('conversation_members').select('conversation_id').where('member_id', '=', me));
  if (opts.agent !== undefined) q = q.where('id', 'in', db.selectFrom('conversation_members').select('conversation_id').where('member_id', '=', opts.agent));
  const convs = await q.orderBy('created_at').execute();
  const windows = opts.agent === undefined ? null : await writeWindows(ctx, opts.agent);
  const out: ConversationInfo[] = [];
  for (const c of convs) {
    const ms = await db
      .selectFrom('conversation_members')
      .leftJoin('users', 'users.id', 'conversation_members.member_id')
      .leftJoin('agents', 'agents.id', 'conversation_members.member_id')
      .select(['conversation_members.member_kind', 'conversation_members.member_id', 'users.name as uname', 'agents.name as aname'])
      .where('conversation_id', '=', c.id)
      .execute();
    out.push({
      id: c.id,
      kind: c.kind as ConversationKind,
      name: c.name,
      created: c.created_at,
      members: ms.map((m) => ({ kind: m.member_kind as 'user' | 'agent', id: m.member_id, name: (m.uname ?? m.aname) as string })),
      ...(windows ? { writes: windows(c.id) } : {}),
    });
  }
  return out;
}

/** The agent's write counter per conversation; a window that is over counts as zero, as the next write would see it. */
async function writeWindows(ctx: Ctx, agent: string): Promise<(conversation: string) => WriteCount> {
  const { agentWritesPerConversation: max, agentWriteWindowSeconds: seconds } = ctx.platform.config.limits;
  const now = ctx.platform.clock().getTime();
  const rows = await ctx.platform.db.kysely
    .selectFrom('agent_write_windows')
    .select(['conversation_key', 'window_start', 'writes'])
    .where('project_id', '=', ctx.project.id)
    .where('agent_id', '=', agent)
    .execute();
  const byConv = new Map(rows.map((r) => [r.conversation_key, r]));
  return (conversation) => {
    const r = byConv.get(conversation);
    const ends = r ? new Date(r.window_start).getTime() + seconds * 1000 : 0;
    if (!r || ends <= now) return { used: 0, max, resetsAt: null };
    return { used: Number(r.writes), max, resetsAt: new Date(ends).toISOString() };
  };
}

/** Adds a participant to a conversation (users by name/ID, agents by ID). */
export async function addParticipant(ctx: Ctx, conversationId: string, member: string): Promise<void> {
  const conv = await findConversation(ctx, conversationId);
  const db = ctx.platform.db.kysely;
  const isAgent = member.startsWith('agt_');
  const found = isAgent
    ? await db.selectFrom('agents').select('id').where('id', '=', member).where('project_id', '=', ctx.project.id).executeTakeFirst()
    : await db
        .selectFrom('users')
        .innerJoin('members', 'members.user_id', 'users.id')
        .select('users.id')
        .where('members.project_id', '=', ctx.project.id)
        .where((eb) => eb.or([eb('users.name', '=', member), eb('users.id', '=', member)]))
        .executeTakeFirst();
  if (!found) throw new StoaError('not_found', `"${member}" is not in this project`);
  await db
    .insertInto('conversation_members')
    .values({ conversation_id: conv.id, member_kind: isAgent ? 'agent' : 'user', member_id: found.id })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
