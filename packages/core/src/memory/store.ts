import { StoaError } from '@stoa/contract';
import { attributionOf } from '../actors.js';
import { newId } from '../ids.js';
import type { Ctx, Q } from '../platform.js';
import { enqueueMemory } from '../outbox/outbox.js';
import { memoryChangeSpan } from './memory-index.js';
import type { MemoryAuthor, MemoryFilesTable, MemoryTarget, MemoryVersionsTable, MQ } from './types.js';

/** The query handle of the memory modules (kept so call sites read alike; `DB` types every table). */
export function mq(q: Q): MQ {
  return q;
}

/** The current state of a file; a never-saved file is version 0 (SOUL.md: the agent's instructions). */
export interface MemoryState {
  row: MemoryFilesTable | undefined;
  version: number;
  content: string;
}

async function stateOf(q: Q, target: MemoryTarget, row: MemoryFilesTable | undefined): Promise<MemoryState> {
  if (!row || row.version === 0) return { row, version: 0, content: target.kind === 'soul' ? (target.agentInstructions ?? '') : '' };
  return { row, version: row.version, content: (await versionText(q, row.id, row.version)) ?? '' };
}

/**
 * Reads the newest text without locking.
 *
 * @example
 * const { version, content } = await readMemoryState(db, ctx, target);
 */
export async function readMemoryState(q: Q, ctx: Ctx, target: MemoryTarget): Promise<MemoryState> {
  const row = await mq(q)
    .selectFrom('memory_files')
    .selectAll()
    .where('project_id', '=', ctx.project.id)
    .where('kind', '=', target.kind)
    .where('scope_id', '=', target.scopeId)
    .executeTakeFirst();
  return stateOf(q, target, row);
}

/**
 * Reads the newest text and holds the file's row until the transaction ends, so concurrent writers of one file
 * queue up: the row is created (version 0) if missing — `on conflict do nothing` makes two first writers agree
 * on one row — and then locked (`for update` on PostgreSQL; SQLite's BEGIN IMMEDIATE already serialises writers).
 */
export async function lockMemoryState(trx: Q, ctx: Ctx, target: MemoryTarget): Promise<MemoryState & { row: MemoryFilesTable }> {
  const select = () => {
    let q = mq(trx)
      .selectFrom('memory_files')
      .selectAll()
      .where('project_id', '=', ctx.project.id)
      .where('kind', '=', target.kind)
      .where('scope_id', '=', target.scopeId);
    if (ctx.platform.db.dialect === 'postgres') q = q.forUpdate();
    return q.executeTakeFirst();
  };
  // The row exists after a file's first write, so try the lock first: one round trip less while holding it.
  let row = await select();
  if (!row) {
    await mq(trx)
      .insertInto('memory_files')
      .values({
        id: newId('mem'),
        project_id: ctx.project.id,
        kind: target.kind,
        scope_id: target.scopeId,
        version: 0,
        updated_at: ctx.platform.clock().toISOString(),
        author_kind: null,
        author_id: null,
        author_label: null,
        author_meta: null,
      })
      .onConflict((oc) => oc.columns(['project_id', 'kind', 'scope_id']).doNothing())
      .execute();
    row = await select();
  }
  if (!row) throw new Error('memory file row vanished while locking it');
  return { ...(await stateOf(trx, target, row)), row };
}

/** Length in Unicode code points, without building an array of them. */
export function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

/** Versions between full snapshots in `memory_versions` (see writeMemoryVersion). */
export const SNAPSHOT_EVERY = 50;

/**
 * The whole text of a saved version: the newest full snapshot at or before it, plus the appends after it.
 *
 * @example
 * await versionText(db, fileId, 7) // 'line 1\n…line 7\n'
 */
export async function versionText(q: Q, fileId: string, version: number): Promise<string | undefined> {
  const snapshot = mq(q)
    .selectFrom('memory_versions')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('file_id', '=', fileId)
    .where('version', '<=', version)
    .where('delta', '=', 0);
  const rows = await mq(q)
    .selectFrom('memory_versions')
    .select(['version', 'content', 'delta'])
    .where('file_id', '=', fileId)
    .where('version', '<=', version)
    .where('version', '>=', snapshot)
    .orderBy('version')
    .execute();
  if (rows.length === 0 || rows[rows.length - 1]!.version !== version) return undefined;
  return rows.map((r) => r.content).join('');
}

/** Where a file appears in search results and under `.stoa/memory/` (M6 layout). */
export function memoryPath(target: MemoryTarget): string {
  if (target.kind === 'soul') return 'SOUL.md';
  if (target.kind === 'agents') return 'AGENTS.md';
  return `${target.scopeId}/MEMORY.md`;
}

/**
 * The search visibility value of a file. Memory values are namespaced (`memory:…`) so no other area's
 * visibility rule can ever reveal a memory file; `memoryVisibility` (search.ts) lists those a caller may read.
 */
export function memoryVisibilityOf(target: MemoryTarget): string {
  if (target.kind === 'soul') return `memory:soul:${target.scopeId}`;
  if (target.kind === 'agents') return 'memory:workspace';
  return `memory:conversation:${target.scopeId}`;
}

function titleOf(target: MemoryTarget): string {
  if (target.kind === 'soul') return `SOUL.md of ${target.agentName ?? target.scopeId}`;
  if (target.kind === 'agents') return 'AGENTS.md';
  return `MEMORY.md of ${target.conversationName ? `#${target.conversationName}` : target.scopeId}`;
}

/** What a file's search blocks are indexed under. */
export function memoryDoc(target: MemoryTarget): { path: string; title: string; visibility: string } {
  return { path: memoryPath(target), title: titleOf(target), visibility: memoryVisibilityOf(target) };
}

/** Author of a stored version or file row. */
export function authorOf(kind: string | null, id: string | null, label: string | null, meta: string | null = null): MemoryAuthor | null {
  if (!kind) return null;
  const m = meta ? (JSON.parse(meta) as { conversationId?: string | null }) : null;
  return { kind, id, name: label, ...(kind === 'agent' ? { conversationId: m?.conversationId ?? null } : {}) };
}

/**
 * Saves `content` as the next version of a locked file, in the caller's transaction: the version row, the new
 * current text and the outbox row of its search blocks commit together; the blocks are written right after the
 * commit, outside the file's lock (outbox/drain.ts, docs/architecture.md "Consistency").
 */
export async function writeMemoryVersion(
  trx: Q,
  ctx: Ctx,
  target: MemoryTarget,
  locked: MemoryState & { row: MemoryFilesTable },
  content: string,
  op: string,
): Promise<MemoryVersionsTable> {
  // An append stores only the text it added (a delta), with a full snapshot every SNAPSHOT_EVERY versions, so
  // appending to a long MEMORY.md writes a line, not the whole file again (and History stays linear in size).
  const appended = locked.version > 0 && locked.version % SNAPSHOT_EVERY !== 0 && content.startsWith(locked.content);
  const max = ctx.platform.config.limits.agentWriteBytes;
  if (Buffer.byteLength(content, 'utf8') > max) throw new StoaError('too_large', `a memory file may hold at most ${max} bytes`);
  const now = ctx.platform.clock().toISOString();
  const a = authorColumns(ctx);
  const version = locked.version + 1;
  const v: MemoryVersionsTable = {
    file_id: locked.row.id,
    project_id: ctx.project.id,
    version,
    content: appended ? content.slice(locked.content.length) : content,
    delta: appended ? 1 : 0,
    chars: codePoints(content),
    op,
    ...a,
    created_at: now,
  };
  await mq(trx).insertInto('memory_versions').values(v).execute();
  await mq(trx)
    .updateTable('memory_files')
    .set({ version, updated_at: now, ...a })
    .where('id', '=', locked.row.id)
    .execute();
  const change = op === 'append' || op === 'merge' ? 'append' : 'set';
  await enqueueMemory(trx, ctx, {
    ...memoryChangeSpan(locked.version === 0 ? '' : locked.content, change),
    ...memoryDoc(target),
    fileId: locked.row.id,
    version,
    at: now,
    text: content,
  });
  return v;
}

/** The author columns of a version and file row written by `ctx.actor`. */
export function authorColumns(ctx: Ctx): Pick<MemoryVersionsTable, 'author_kind' | 'author_id' | 'author_label' | 'author_meta'> {
  const a = attributionOf(ctx.actor);
  return {
    author_kind: a.kind,
    author_id: a.id,
    author_label: a.label,
    author_meta: a.meta ? JSON.stringify({ conversationId: a.meta.conversationId ?? null, toolCallId: a.meta.toolCallId ?? null }) : null,
  };
}

/**
 * The text `append` produces: the new text on lines of its own after the newest text, ending in a newline.
 *
 * @example
 * appendText('a\nb', 'c') // 'a\nb\nc\n'
 */
export function appendText(current: string, text: string): string {
  const sep = current === '' || current.endsWith('\n') ? '' : '\n';
  return current + sep + text + (text.endsWith('\n') ? '' : '\n');
}
