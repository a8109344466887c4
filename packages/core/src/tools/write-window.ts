import { StoaError } from '@stoa/contract';
import { sql } from 'kysely';
import type { Ctx, Q } from '../platform.js';
import { hotQuery } from '../hot-query.js';

/** The counter's key: one budget per agent per conversation (a dialog has one agent, so "per dialog"). */
export interface WindowKey {
  conversation: string;
  /** Agent ID, or '' for a runtime that is not an agent of the project. */
  agent: string;
}

/** Every agent change counts itself with this one statement: built once (issue 30). */
const countOne = hotQuery((db, a: { project: string; conversation: string; agent: string; now: string; cutoff: string; max: number }) =>
  db
    .insertInto('agent_write_windows')
    .values({ project_id: a.project, conversation_key: a.conversation, agent_id: a.agent, window_start: a.now, writes: 1 })
    .onConflict((oc) =>
      oc
        .columns(['project_id', 'conversation_key', 'agent_id'])
        .doUpdateSet({
          window_start: sql<string>`case when agent_write_windows.window_start <= ${a.cutoff} then ${a.now} else agent_write_windows.window_start end`,
          writes: sql<number>`case when agent_write_windows.window_start <= ${a.cutoff} then 1 else agent_write_windows.writes + 1 end`,
        })
        .where(sql<boolean>`agent_write_windows.window_start <= ${a.cutoff} or agent_write_windows.writes < ${a.max}`),
    )
    .returning(['writes', 'window_start']),
);

/**
 * Counts one change against the per-conversation limit (A4: STOA_AGENT_WRITES_PER_CONVERSATION changes in a
 * window of STOA_AGENT_WRITE_WINDOW_SECONDS from its first change). It runs inside the write's transaction, so a
 * write that is refused later (quota, conflict…) rolls the count back: refusals never count. The counter lives in
 * the database, so it holds across restarts and across processes sharing one database.
 *
 * @example
 * await inTx(platform, async (trx) => { const n = await countWrite(trx, ctx, key); await commitVersion(trx, ctx, …); });
 */
export async function countWrite(trx: Q, ctx: Ctx, key: WindowKey): Promise<{ used: number; max: number; resetsAt: string }> {
  const { agentWritesPerConversation: max, agentWriteWindowSeconds: seconds } = ctx.platform.config.limits;
  const now = ctx.platform.clock();
  const nowIso = now.toISOString();
  // A window that started at or before `cutoff` is over; ISO-8601 UTC strings compare like the times they name.
  const cutoff = new Date(now.getTime() - seconds * 1000).toISOString();
  const [row] = max < 1 ? [] : await countOne(trx, { project: ctx.project.id, conversation: key.conversation, agent: key.agent, now: nowIso, cutoff, max });
  if (row) return { used: Number(row.writes), max, resetsAt: new Date(new Date(row.window_start).getTime() + seconds * 1000).toISOString() };
  // One statement counted the change in the common case; only a refusal reads the row again for its message.
  const cur = await trx
    .selectFrom('agent_write_windows')
    .selectAll()
    .where('project_id', '=', ctx.project.id)
    .where('conversation_key', '=', key.conversation)
    .where('agent_id', '=', key.agent)
    .executeTakeFirst();
  const start = cur ? new Date(cur.window_start) : now;
  const writes = cur ? Number(cur.writes) : 0;
  const resetsAt = new Date(start.getTime() + seconds * 1000).toISOString();
  const minutes = Math.max(1, Math.ceil((start.getTime() + seconds * 1000 - now.getTime()) / 60000));
  throw new StoaError(
    'rate_limited',
    `you have made ${writes} changes to files in this conversation, the limit is ${max}; the counter resets at ${resetsAt} (in about ${minutes} minute${minutes === 1 ? '' : 's'})`,
    { limit: max, resetsAt },
  );
}
