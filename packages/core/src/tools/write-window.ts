import { StoaError } from '@stoa/contract';
import type { Kysely } from 'kysely';
import type { Ctx, Q } from '../platform.js';

interface WindowRow { project_id: string; conversation_key: string; agent_id: string; window_start: string; writes: number }

/** The counter's key: one budget per agent per conversation (a dialog has one agent, so "per dialog"). */
export interface WindowKey {
  conversation: string;
  /** Agent ID, or '' for a runtime that is not an agent of the project. */
  agent: string;
}

/**
 * Counts one change against the per-conversation limit (SPEC A4: STOA_AGENT_WRITES_PER_CONVERSATION changes in a
 * window of STOA_AGENT_WRITE_WINDOW_SECONDS from its first change). It runs inside the write's transaction, so a
 * write that is refused later (quota, conflict…) rolls the count back: refusals never count. The counter lives in
 * the database, so it holds across restarts and across processes sharing one database.
 *
 * @example
 * await inTx(platform, async (trx) => { const n = await countWrite(trx, ctx, key); await commitVersion(trx, ctx, …); });
 */
export async function countWrite(trx: Q, ctx: Ctx, key: WindowKey): Promise<{ used: number; max: number; resetsAt: string }> {
  const db = trx as unknown as Kysely<{ agent_write_windows: WindowRow }>;
  const { agentWritesPerConversation: max, agentWriteWindowSeconds: seconds } = ctx.platform.config.limits;
  const now = ctx.platform.clock();
  const nowIso = now.toISOString();
  const where = { project_id: ctx.project.id, conversation_key: key.conversation, agent_id: key.agent };
  await db.insertInto('agent_write_windows').values({ ...where, window_start: nowIso, writes: 0 }).onConflict((oc) => oc.columns(['project_id', 'conversation_key', 'agent_id']).doNothing()).execute();
  let q = db.selectFrom('agent_write_windows').selectAll().where('project_id', '=', where.project_id).where('conversation_key', '=', where.conversation_key).where('agent_id', '=', where.agent_id);
  if (ctx.platform.db.dialect === 'postgres') q = q.forUpdate();
  const row = (await q.executeTakeFirstOrThrow()) as WindowRow;
  let start = new Date(row.window_start);
  let writes = Number(row.writes);
  if (now.getTime() - start.getTime() >= seconds * 1000) {
    start = now;
    writes = 0;
  }
  const resetsAt = new Date(start.getTime() + seconds * 1000).toISOString();
  if (writes >= max) {
    const minutes = Math.max(1, Math.ceil((start.getTime() + seconds * 1000 - now.getTime()) / 60000));
    throw new StoaError('rate_limited', `you have made ${writes} changes to files in this conversation, the limit is ${max}; the counter resets at ${resetsAt} (in about ${minutes} minute${minutes === 1 ? '' : 's'})`, { limit: max, resetsAt });
  }
  await db.updateTable('agent_write_windows').set({ window_start: start.toISOString(), writes: writes + 1 })
    .where('project_id', '=', where.project_id).where('conversation_key', '=', where.conversation_key).where('agent_id', '=', where.agent_id).execute();
  return { used: writes + 1, max, resetsAt };
}
