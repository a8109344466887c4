import { StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { getMemory } from './memory.js';
import { memoryPath, mq } from './store.js';
import { memoryRefusal, resolveMemoryTarget } from './target.js';
import type { MemoryDoc, MemoryFileName } from './types.js';

/** A memory file as written into a folder: `path` is relative to `<dir>/.stoa/memory/`. */
export interface BundledMemoryFile extends MemoryDoc {
  path: string;
}

/** Where the files go inside a working folder (M5/M6). */
export const MEMORY_DIR = '.stoa/memory';

/**
 * The files `memory pull` and a hosted agent's turn write: SOUL.md (of the acting agent, or of `agent`),
 * the workspace AGENTS.md, and the conversation's MEMORY.md under `<conversation id>/` — each only when it
 * applies (no agent → no SOUL.md; no conversation → no MEMORY.md). Rights are checked per file.
 *
 * @example
 * await memoryBundle(agentCtx, {}) // [{ path: 'SOUL.md', … }, { path: 'AGENTS.md', … }, { path: 'conv_x/MEMORY.md', … }]
 */
export async function memoryBundle(ctx: Ctx, input: { agent?: string; conversation?: string }): Promise<BundledMemoryFile[]> {
  const out: BundledMemoryFile[] = [];
  const wants: Array<{ file: MemoryFileName; agent?: string; conversation?: string }> = [];
  if (input.agent || ctx.actor.kind === 'agent') wants.push({ file: 'SOUL.md', agent: input.agent });
  wants.push({ file: 'AGENTS.md' });
  if (input.conversation || (ctx.actor.kind === 'agent' && ctx.actor.conversationId)) wants.push({ file: 'MEMORY.md', conversation: input.conversation });
  for (const w of wants) {
    const t = await resolveMemoryTarget(ctx, w);
    out.push({ ...(await getMemory(ctx, { file: w.file, agent: t.agentId, conversation: t.conversationId })), path: memoryPath(t) });
  }
  return out;
}

/**
 * Every memory file the caller may read, for Settings → Memory's list (M2), with whether it may save it.
 *
 * @example
 * await listMemoryFiles(ctx) // [{ file: 'AGENTS.md', version: 2, editable: true }, { file: 'SOUL.md', agent: 'agt_…', … }, …]
 */
export async function listMemoryFiles(
  ctx: Ctx,
): Promise<Array<{ file: MemoryFileName; agent?: string; conversation?: string; title: string; version: number; editable: boolean }>> {
  const db = ctx.platform.db.kysely;
  const refs: Array<{ file: MemoryFileName; agent?: string; conversation?: string; title: string }> = [{ file: 'AGENTS.md', title: 'AGENTS.md' }];
  const agents = await db
    .selectFrom('agents')
    .select(['id', 'name'])
    .where('project_id', '=', ctx.project.id)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .execute();
  for (const a of agents) refs.push({ file: 'SOUL.md', agent: a.id, title: `SOUL.md of ${a.name}` });
  const convs = await db.selectFrom('conversations').select(['id', 'name']).where('project_id', '=', ctx.project.id).orderBy('created_at').execute();
  for (const c of convs) refs.push({ file: 'MEMORY.md', conversation: c.id, title: `MEMORY.md of ${c.name ? `#${c.name}` : c.id}` });
  const rows = await mq(db).selectFrom('memory_files').select(['kind', 'scope_id', 'version']).where('project_id', '=', ctx.project.id).execute();
  const versions = new Map(rows.map((r) => [`${r.kind}:${r.scope_id}`, r.version]));
  const out = [];
  for (const r of refs) {
    // A conversation the caller is not in answers not_found: its MEMORY.md is simply not listed.
    const t = await resolveMemoryTarget(ctx, r).catch((e: unknown) => {
      if (e instanceof StoaError && e.code === 'not_found') return null;
      throw e;
    });
    if (!t || (await memoryRefusal(ctx, t, 'memory.read'))) continue;
    out.push({ ...r, version: versions.get(`${t.kind}:${t.scopeId}`) ?? 0, editable: (await memoryRefusal(ctx, t, 'memory.write')) === null });
  }
  return out;
}
