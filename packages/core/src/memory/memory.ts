import { StoaError } from '@stoa/contract';
import { inTx, type Ctx } from '../platform.js';
import { pgAppend } from './append-batch.js';
import { appendText, authorOf, lockMemoryState, mq, readMemoryState, versionText, writeMemoryVersion, type MemoryState } from './store.js';
import { memoryRefusal, memoryTarget, type MemoryRef } from './target.js';
import type { MemoryDoc, MemoryTarget, MemoryVersionInfo } from './types.js';
import { assertNoNul } from '../text-rules.js';

function docOf(
  target: MemoryTarget,
  s: { version: number; content: string; modified: string | null; author: MemoryDoc['author'] },
  editable: boolean,
): MemoryDoc {
  return {
    file: target.file,
    version: s.version,
    content: s.content,
    modified: s.modified,
    author: s.author,
    editable,
    ...(target.agentId ? { agent: target.agentId } : {}),
    ...(target.conversationId ? { conversation: target.conversationId } : {}),
  };
}

function currentDoc(target: MemoryTarget, s: MemoryState, editable: boolean): MemoryDoc {
  const saved = s.row && s.version > 0;
  return docOf(
    target,
    {
      version: s.version,
      content: s.content,
      modified: saved ? s.row!.updated_at : null,
      author: saved
        ? authorOf(s.row!.author_kind, s.row!.author_id, s.row!.author_label, s.row!.author_meta)
        : s.version === 0 && target.kind === 'soul'
          ? { kind: 'system', id: null, name: 'instructions' }
          : null,
    },
    editable,
  );
}

/**
 * The newest version of a memory file. A never-saved SOUL.md is version 0 holding the agent's instructions;
 * a never-saved AGENTS.md or MEMORY.md is version 0 and empty.
 *
 * @example
 * await getMemory(ctx, { file: 'AGENTS.md' }) // { file: 'AGENTS.md', version: 3, content: '…', editable: false, … }
 */
export async function getMemory(ctx: Ctx, ref: MemoryRef): Promise<MemoryDoc> {
  const target = await memoryTarget(ctx, ref, 'memory.read');
  const s = await readMemoryState(ctx.platform.db.kysely, ctx, target);
  return currentDoc(target, s, (await memoryRefusal(ctx, target, 'memory.write')) === null);
}

/**
 * Saves a whole new text as the next version. With `base`, the save is refused with `memory_version_conflict`
 * (HTTP 409, the current version in `details.currentVersion`) unless the file is still at that version — so a
 * save never overwrites someone else's save made since the writer opened the file (M4).
 *
 * @example
 * await setMemory(ctx, { file: 'MEMORY.md', conversation: 'general' }, 'Renewal: 2 November\n', { base: 4 });
 */
export async function setMemory(ctx: Ctx, ref: MemoryRef, content: string, opts: { base?: number; op?: 'set' | 'restore' } = {}): Promise<MemoryDoc> {
  assertNoNul(content, 'memory text');
  const target = await memoryTarget(ctx, ref, 'memory.write');
  return inTx(ctx.platform, async (trx) => {
    const locked = await lockMemoryState(trx, ctx, target);
    if (opts.base !== undefined && opts.base !== locked.version) throw conflict(target, locked, opts.base);
    const v = await writeMemoryVersion(trx, ctx, target, locked, content, opts.op ?? 'set');
    return docOf(
      target,
      { version: v.version, content, modified: v.created_at, author: authorOf(v.author_kind, v.author_id, v.author_label, v.author_meta) },
      true,
    );
  });
}

/** The refusal of a save based on an older version. */
function conflict(target: MemoryTarget, current: MemoryState, base: number): StoaError {
  return new StoaError(
    'memory_version_conflict',
    `${target.file} is at version ${current.version}, not ${base}: someone saved it since you opened it; reload it and save again`,
    {
      file: target.file,
      currentVersion: current.version,
      baseVersion: base,
      current: {
        version: current.version,
        modified: current.row && current.version > 0 ? current.row.updated_at : null,
        author:
          current.row && current.version > 0
            ? authorOf(current.row.author_kind, current.row.author_id, current.row.author_label, current.row.author_meta)
            : null,
      },
    },
  );
}

/**
 * Adds text at the end of the newest version, on the server, inside one transaction holding the file's row:
 * it never conflicts and never loses a line, however many write at once (M5). On PostgreSQL the appends to one
 * file that arrive while it is being written are written together, each as a version of its own.
 *
 * @example
 * await appendMemory(agentCtx, { file: 'MEMORY.md' }, 'The ACME renewal moved to 2 November');
 */
export async function appendMemory(ctx: Ctx, ref: MemoryRef, text: string, opts: { op?: string } = {}): Promise<MemoryDoc> {
  if (text === '') throw new StoaError('bad_request', 'nothing to append: the text is empty');
  assertNoNul(text, 'memory text');
  const target = await memoryTarget(ctx, ref, 'memory.write');
  if (ctx.platform.db.dialect === 'postgres') {
    // Concurrent appends to one file share one statement, row lock and commit (append-batch.ts).
    const v = await pgAppend(ctx, target, text, opts.op ?? 'append');
    return docOf(
      target,
      { version: v.version, content: v.text, modified: v.created_at, author: authorOf(v.author_kind, v.author_id, v.author_label, v.author_meta) },
      true,
    );
  }
  return inTx(ctx.platform, async (trx) => {
    const locked = await lockMemoryState(trx, ctx, target);
    const content = appendText(locked.content, text);
    const v = await writeMemoryVersion(trx, ctx, target, locked, content, opts.op ?? 'append');
    return docOf(
      target,
      { version: v.version, content, modified: v.created_at, author: authorOf(v.author_kind, v.author_id, v.author_label, v.author_meta) },
      true,
    );
  });
}

/**
 * History: every saved version, newest first, with author and time (M3). SOUL.md ends with version 0,
 * the agent's instructions.
 *
 * @example
 * await memoryHistory(ctx, { file: 'SOUL.md', agent: 'agt_a3B9kLm2' }) // [{ version: 2, author: { name: 'alice' }, … }, …, { version: 0, op: 'instructions' }]
 */
export async function memoryHistory(ctx: Ctx, ref: MemoryRef): Promise<MemoryVersionInfo[]> {
  const target = await memoryTarget(ctx, ref, 'memory.read');
  const s = await readMemoryState(ctx.platform.db.kysely, ctx, target);
  const rows = s.row
    ? await mq(ctx.platform.db.kysely)
        .selectFrom('memory_versions')
        .select(['version', 'created_at', 'author_kind', 'author_id', 'author_label', 'author_meta', 'op', 'chars'])
        .where('file_id', '=', s.row.id)
        .orderBy('version', 'desc')
        .execute()
    : [];
  const out: MemoryVersionInfo[] = rows.map((r) => ({
    version: r.version,
    modified: r.created_at,
    author: authorOf(r.author_kind, r.author_id, r.author_label, r.author_meta),
    op: r.op,
    chars: r.chars,
  }));
  if (target.kind === 'soul')
    out.push({
      version: 0,
      modified: null,
      author: { kind: 'system', id: null, name: 'instructions' },
      op: 'instructions',
      chars: [...(target.agentInstructions ?? '')].length,
    });
  return out;
}

/**
 * One version's text ("Show" in History, M3). Version 0 of SOUL.md is the agent's instructions.
 *
 * @example
 * (await showMemoryVersion(ctx, { file: 'AGENTS.md' }, 2)).content
 */
export async function showMemoryVersion(ctx: Ctx, ref: MemoryRef, version: number): Promise<MemoryDoc> {
  const target = await memoryTarget(ctx, ref, 'memory.read');
  const editable = (await memoryRefusal(ctx, target, 'memory.write')) === null;
  if (version === 0 && target.kind === 'soul')
    return docOf(
      target,
      { version: 0, content: target.agentInstructions ?? '', modified: null, author: { kind: 'system', id: null, name: 'instructions' } },
      editable,
    );
  if (version === 0) return docOf(target, { version: 0, content: '', modified: null, author: null }, editable);
  const s = await readMemoryState(ctx.platform.db.kysely, ctx, target);
  const db = ctx.platform.db.kysely;
  const v = s.row
    ? await mq(db).selectFrom('memory_versions').selectAll().where('file_id', '=', s.row.id).where('version', '=', version).executeTakeFirst()
    : undefined;
  const content = v && s.row ? await versionText(db, s.row.id, version) : undefined;
  if (!v || content === undefined) throw new StoaError('not_found', `${target.file} has no version ${version} (the newest is ${s.version})`);
  return docOf(
    target,
    { version: v.version, content, modified: v.created_at, author: authorOf(v.author_kind, v.author_id, v.author_label, v.author_meta) },
    editable,
  );
}

/**
 * Brings an earlier version back as the newest one (M3): its text is saved as a new version, so the history keeps
 * every version. With `base`, refused like a save (`memory_version_conflict`) when someone saved since.
 *
 * @example
 * await restoreMemoryVersion(ctx, { file: 'AGENTS.md' }, 2, { base: 5 }) // { version: 6, content: <version 2's text>, … }
 */
export async function restoreMemoryVersion(ctx: Ctx, ref: MemoryRef, version: number, opts: { base?: number } = {}): Promise<MemoryDoc> {
  const old = await showMemoryVersion(ctx, ref, version);
  return setMemory(ctx, ref, old.content, { base: opts.base, op: 'restore' });
}
