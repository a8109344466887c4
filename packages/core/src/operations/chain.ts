import { sql } from 'kysely';
import { StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { can, type Action } from '../policies/can.js';
import type { Actor } from '../actors.js';
import { isParticipant } from '../conversations/conversations.js';
import { assertUnlocked } from '../files/locks.js';
import { quotaOf } from '../projects/projects.js';
import { recordAudit } from '../audit/audit.js';
import { countWrite, type WindowKey } from '../tools/write-window.js';
import type { OperationTraits } from './operation.js';

/**
 * The steps of the operation runner, in the order it applies them to every operation and every agent tool
 * (docs/architecture.md "The operation runner"): context → volume gate → policy → conversation membership →
 * locks → write window and quota → (the operation, in its transaction) → trace/audit → hooks. Each step reads
 * one declared trait; none is left to the function an operation runs.
 */

/** Actions a person's role alone decides; for these the runner refuses early, before any lookup. */
const ROLE_ACTIONS = new Set<Action>([
  'file.read',
  'file.write',
  'file.delete',
  'file.move',
  'audit.read',
  'project.admin',
  'project.read',
  'member.manage',
  'token.create',
  'agent.manage',
  'wiki.read',
  'wiki.write',
]);

/** Actions only people have (project administration, members, tokens, agents' settings): no agent ever may. */
const PEOPLE_ACTIONS = new Set<Action>(['audit.read', 'project.admin', 'member.manage', 'token.create', 'agent.manage']);

/**
 * The refusal of a person whose role cannot have the operation's policy action anywhere in the project, or of an
 * agent asking for an action only people have; null otherwise. The rest of an agent's rights (its folders) and
 * resource-bound actions (memory files) are decided on the resource by the core function.
 */
export function refusalByRole(actor: Actor, op: { traits: OperationTraits }): StoaError | null {
  const policy = op.traits.policy;
  if (policy === 'signed-in' || policy === 'public') return null;
  if (actor.kind === 'agent') return PEOPLE_ACTIONS.has(policy) ? can(actor, policy, { kind: 'project' }) : null;
  return ROLE_ACTIONS.has(policy) ? can(actor, policy, { kind: 'project' }) : null;
}

/**
 * What a volume beyond projects (R1) offers: its files and their trash, their search, understanding and audit, the
 * tools, and its owners' favourites and recent files. It has no members, invitations, tokens, agents, conversations,
 * wiki or memory of its own — its owners decide who reaches it.
 */
const VOLUME_OPERATIONS = /^(files|folders|uploads|docs|search|tools|webdav|trash|favourites|recent)\.|^audit\.list$/;

/** Steps 1–2: the volume gate and the policy by role. */
export function assertRoleAllows(ctx: Ctx, op: { id: string; traits: OperationTraits }, volumeOp = op.id): void {
  if (ctx.project.volume && !VOLUME_OPERATIONS.test(volumeOp))
    throw new StoaError('forbidden', 'a volume holds files only: it has no members, tokens, agents, conversations, wiki or memory of its own');
  const refusal = refusalByRole(ctx.actor, op);
  if (refusal) throw refusal;
}

/**
 * Step 3: an agent acts only in a conversation it takes part in. Otherwise its changes would land in another
 * dialog's trace and undo set, and every conversation ID it learns would give it a fresh write window (A4).
 */
export async function assertInConversation(ctx: Ctx): Promise<void> {
  const a = ctx.actor;
  if (a.kind !== 'agent' || !a.conversationId) return;
  // In a volume beyond projects (R1) the agent's conversations are those of the project the volume belongs to.
  const project = ctx.project.volume?.parentProjectId;
  // Found with the context, for this request (context-agent.ts): the same answer, without a second statement.
  if (a.memberOf?.conversationId === a.conversationId && a.memberOf.projectId === (project ?? ctx.project.id)) return;
  if (await isParticipant(project ? { ...ctx, project: { ...ctx.project, id: project } } : ctx, a.conversationId)) return;
  throw new StoaError('not_in_conversation', `this agent does not take part in conversation "${a.conversationId}"; it acts only in its own conversations`, {
    conversation: a.conversationId,
  });
}

/**
 * Step 4: a change to what someone else has locked (WebDAV LOCK) is refused with `locked`, at every door. The
 * file mutator checks again inside its transaction, where no race can slip between check and change.
 */
export async function assertNotLocked(ctx: Ctx, traits: OperationTraits, input: unknown): Promise<void> {
  if (!traits.mutates || !traits.touches) return;
  await assertUnlocked(ctx, traits.touches(ctx, input));
}

/** The window an actor's changes count in (A4); null for people, whose changes are not limited. */
function windowOf(ctx: Ctx): WindowKey | null {
  const a = ctx.actor;
  return a.kind === 'agent' ? { conversation: a.conversationId ?? '', agent: a.agentId } : null;
}

/** Gives back a change the runner counted for an operation that was then refused (refusals never count, A4). */
async function uncount(ctx: Ctx, key: WindowKey): Promise<void> {
  await ctx.platform.db.kysely
    .updateTable('agent_write_windows')
    .set({ writes: sql<number>`writes - 1` })
    .where('project_id', '=', ctx.project.id)
    .where('conversation_key', '=', key.conversation)
    .where('agent_id', '=', key.agent)
    .where('writes', '>', 0)
    .execute();
}

/**
 * Step 5a: an agent's change counts in its write window. Changes the file mutator counts in its own transaction
 * (`window: 'mutator'`) are left to it; those declared `window: 'runner'` (wiki pages) are counted here, and
 * given back when the operation is refused. Returns what to do on a refusal.
 */
export async function countChange(ctx: Ctx, traits: OperationTraits, key: WindowKey | null = windowOf(ctx)): Promise<(() => Promise<void>) | null> {
  if (!traits.mutates || traits.window !== 'runner' || !key || ctx.actor.kind !== 'agent') return null;
  // One statement, atomic alone, so no transaction: on PostgreSQL the counter's row is then locked only while the
  // statement runs and commits, not across the round trips of a BEGIN … COMMIT, behind which every other change
  // of the same agent in the conversation queued (16 writers appending to one memory file, bench/README.md).
  await countWrite(ctx.platform.db.kysely, ctx, key);
  return () => uncount(ctx, key);
}

/** Bytes of the project's wiki pages (their current text), which an agent's wiki writes are charged against. */
async function wikiBytes(ctx: Ctx): Promise<number> {
  const size =
    ctx.platform.db.dialect === 'postgres' ? sql<number>`coalesce(sum(octet_length(body)), 0)` : sql<number>`coalesce(sum(length(cast(body as blob))), 0)`;
  const r = await ctx.platform.db.kysely.selectFrom('wiki_pages').select(size.as('bytes')).where('project_id', '=', ctx.project.id).executeTakeFirst();
  return Number(r?.bytes ?? 0);
}

/**
 * Step 5b: an agent's change that adds bytes outside the files (wiki pages) is charged against the project's
 * quota together with the files and uploads under way: it cannot fill the installation by another way in.
 */
export async function assertQuota(ctx: Ctx, traits: OperationTraits, input: unknown): Promise<void> {
  if (!traits.mutates || !traits.charges || ctx.actor.kind !== 'agent') return;
  const bytes = traits.charges(input);
  const p = await ctx.platform.db.kysely.selectFrom('projects').select(['used_bytes', 'reserved_bytes']).where('id', '=', ctx.project.id).executeTakeFirst();
  const quota = quotaOf(ctx.platform, ctx.project);
  const used = Number(p?.used_bytes ?? 0) + Number(p?.reserved_bytes ?? 0) + (await wikiBytes(ctx));
  if (used + bytes > quota)
    throw new StoaError('quota_exceeded', `this change adds ${bytes} bytes; the project uses ${used} of its ${quota} bytes (files and wiki pages)`, {
      limit: quota,
    });
}

/**
 * Step 7: a person's change that declares an audit action leaves that entry in the audit log (F15). The file
 * mutator writes it in the change's transaction; when the operation's function wrote none, the runner does.
 */
export async function ensureAudited(ctx: Ctx, traits: OperationTraits, path: string | null): Promise<void> {
  if (!traits.audit || ctx.actor.kind !== 'user' || ctx.audited?.includes(traits.audit)) return;
  await recordAudit(ctx.platform.db.kysely, ctx, { action: traits.audit, ...(path ? { path } : {}) });
}
