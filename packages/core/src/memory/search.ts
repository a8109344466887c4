import { visibleConversationIds } from '../conversations/conversations.js';
import type { Ctx } from '../platform.js';
import { searchDocs } from '../search/index.js';
import { mq } from './store.js';
import { fileIdOfRef } from './memory-index.js';
import { FILE_OF, type MemoryFileName, type MemoryKind } from './types.js';

/**
 * The search visibility values of the memory files the caller may read, by the rules of policies/memory.ts:
 * `memory:workspace` (AGENTS.md), `memory:soul:<agent>` (every agent's for members, its own for an agent),
 * `memory:conversation:<id>` (conversations the caller takes part in; all of them for admins).
 * The unified search adds these to its own list to cover memory; an empty list means nothing is visible.
 *
 * @example
 * await memoryVisibility(agentCtx) // ['memory:workspace', 'memory:soul:agt_a3B9kLm2', 'memory:conversation:conv_x']
 */
export async function memoryVisibility(ctx: Ctx): Promise<string[]> {
  const a = ctx.actor;
  if (a.kind === 'user' && !a.superuser && a.role === null) return [];
  const db = ctx.platform.db.kysely;
  const out = ['memory:workspace'];
  if (a.kind === 'agent') out.push(`memory:soul:${a.agentId}`);
  else {
    const agents = await db.selectFrom('agents').select('id').where('project_id', '=', ctx.project.id).where('deleted_at', 'is', null).execute();
    for (const g of agents) out.push(`memory:soul:${g.id}`);
  }
  for (const id of await visibleConversationIds(ctx)) out.push(`memory:conversation:${id}`);
  return out;
}

/** One memory search hit, best first. */
export interface MemorySearchHit {
  file: MemoryFileName;
  agent?: string;
  conversation?: string;
  /** As under `.stoa/memory/`: 'SOUL.md', 'AGENTS.md', '<conversation id>/MEMORY.md'. */
  path: string;
  title: string;
  snippet: string;
  score: number;
  highlights: Array<[number, number]>;
  version: number;
  modified: string;
}

/**
 * Ranked search over the memory files the caller may read, with snippets, in any language the search module
 * tokenises (English, Russian, Chinese…), one hit per file. Files the caller may not read never appear nor
 * take a place (visibility is filtered in SQL before the limit).
 *
 * @example
 * await searchMemory(ctx, { query: 'renewal' }) // [{ file: 'MEMORY.md', conversation: 'conv_x', snippet: '…ACME renewal moved…', … }]
 */
export async function searchMemory(ctx: Ctx, input: { query: string; limit?: number }): Promise<MemorySearchHit[]> {
  const visibility = await memoryVisibility(ctx);
  const limit = Math.max(1, Math.min(50, input.limit ?? 20));
  // Read-your-writes: the blocks of every change committed before this search are written first (outbox/drain.ts).
  await ctx.platform.outbox.settle(ctx.project.id);
  // A file is indexed in blocks of lines (memory-index.ts): ask for more blocks than files wanted and keep
  // each file's best block, so one hit per file, best first.
  const blocks = await searchDocs(ctx.platform.db, {
    projectId: ctx.project.id,
    query: input.query,
    kinds: ['memory'],
    visibility,
    limit: Math.min(100, limit * 4),
  });
  const seen = new Set<string>();
  const hits = blocks
    .filter((h) => {
      const id = fileIdOfRef(h.refId);
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    })
    .slice(0, limit);
  if (hits.length === 0) return [];
  const rows = await mq(ctx.platform.db.kysely)
    .selectFrom('memory_files')
    .select(['id', 'kind', 'scope_id', 'version', 'updated_at'])
    .where(
      'id',
      'in',
      hits.map((h) => fileIdOfRef(h.refId)),
    )
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out: MemorySearchHit[] = [];
  for (const h of hits) {
    const r = byId.get(fileIdOfRef(h.refId));
    if (!r) continue;
    const kind = r.kind as MemoryKind;
    out.push({
      file: FILE_OF[kind],
      ...(kind === 'soul' ? { agent: r.scope_id } : {}),
      ...(kind === 'memory' ? { conversation: r.scope_id } : {}),
      path: h.path,
      title: h.title,
      snippet: h.snippet,
      score: h.score,
      highlights: h.highlights,
      version: r.version,
      modified: r.updated_at,
    });
  }
  return out;
}
