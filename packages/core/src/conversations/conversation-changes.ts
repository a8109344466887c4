import { createTwoFilesPatch } from 'diff';
import { sql } from 'kysely';
import { StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { can } from '../policies/can.js';
import { findConversation, isParticipant } from './conversations.js';
import { isTextContent } from '../files/mime.js';
import { wikiViewer } from '../wiki/visibility.js';
import { effectiveTitle } from '../wiki/wiki-paths.js';
import { memoryRefusal, resolveMemoryTarget } from '../memory/target.js';
import { versionText } from '../memory/store.js';
import { FILE_OF, type MemoryKind } from '../memory/types.js';
import { inSqlBatches } from '../db-batches.js';

/** A version of an item as the review shows it. */
interface ChangeVersion {
  version: number;
  size: number;
}

/**
 * What an undo would do to an item:
 * - `revertible`: it goes back to its state before the conversation;
 * - `conflict`: someone else changed it after the conversation first did; it is left alone (B11: their work is never lost);
 * - `reverted`: it is already as it was before the conversation (undone before, or changed back by hand);
 * - `unrecoverable`: the conversation deleted it, and a delete is permanent with its history (F13), or the
 *   version before the conversation is no longer kept (X8) — nothing is left to restore.
 */
export type ChangeStatus = 'revertible' | 'conflict' | 'reverted' | 'unrecoverable';

export interface ConversationChange {
  /** `file:<path>`, `wiki:<path>` or `memory:<path>`: what `revertConversation`'s `items` names. */
  ref: string;
  kind: 'file' | 'wiki' | 'memory';
  /** The item's current path (memory: `AGENTS.md`, `SOUL.md:<agent>`, `MEMORY.md:<conversation>`). */
  path: string;
  /** The path it had before the conversation moved it, when it did. */
  movedFrom: string | null;
  /** The version before the conversation first touched it; null when the conversation created it. */
  before: ChangeVersion | null;
  /** The conversation's last version; null when the conversation deleted it. */
  after: ChangeVersion | null;
  /** The version now; null when it no longer exists. */
  current: ChangeVersion | null;
  status: ChangeStatus;
  /** Who changed it after the conversation (names), for `conflict`. */
  changedBy: string[];
  /** Unified diff from `before` to `after`; null for binary or large files (see `binary`) and deleted items. */
  diff: string | null;
  binary: boolean;
  /** One sentence on what undo does or why it cannot. */
  note: string;
}

/** Text files up to this size get a text diff; larger ones are compared by size. */
const DIFF_MAX_BYTES = 1024 * 1024;
const DELETE_TOOLS = new Set(['ws_delete_file', 'delete_file', 'file.delete']);
const MOVE_TOOLS = new Set(['move_file', 'file.move']);

interface Meta {
  conversationId?: string | null;
}
const metaOf = (s: string | null): Meta | null => {
  if (!s) return null;
  try {
    return JSON.parse(s) as Meta;
  } catch {
    return null;
  }
};

/**
 * Who may review and undo a conversation (B11): a person who may change the project (editor or admin) and may
 * see the conversation (a participant, or an admin). Agents may not: undoing is a person's check on agents, so
 * no agent token can undo another agent's work. A conversation the caller may not see is `not_found`.
 */
export async function conversationForUndo(ctx: Ctx, ref: string): Promise<{ id: string; name: string | null }> {
  const a = ctx.actor;
  if (a.kind === 'agent') throw new StoaError('forbidden', "agents may not undo conversations; a person reviews and undoes an agent's changes");
  const e = can(a, 'file.write', { kind: 'project' });
  if (e) throw new StoaError('forbidden', 'only editors and admins may review or undo a conversation');
  const conv = await findConversation(ctx, ref);
  const admin = a.superuser === true || a.role === 'admin';
  if (!admin && !(await isParticipant(ctx, conv.id))) throw new StoaError('not_found', `conversation "${ref}" does not exist`);
  return { id: conv.id, name: conv.name };
}

/**
 * The items (files, wiki pages, memory files) with a version whose attribution names the conversation. The LIKE
 * is a coarse filter (`_` matches any character); callers decide by the parsed attribution.
 */
async function touchedIn(ctx: Ctx, table: 'file_versions' | 'wiki_versions' | 'memory_versions', conv: string): Promise<string[]> {
  const owner = table === 'wiki_versions' ? 'page_id' : 'file_id';
  const pattern = `%"conversationId":"${conv}"%`;
  const found = await sql<{ id: string }>`select distinct ${sql.ref(owner)} as id from ${sql.table(table)}
    where project_id = ${ctx.project.id} and author_meta like ${pattern}`.execute(ctx.platform.db.kysely);
  return found.rows.map((r) => r.id);
}

/**
 * An item's versions as the conversation saw them: its first and last version written there, and the versions
 * others wrote after its first (which make an undo refuse the item). Null when the parsed attribution names the
 * conversation nowhere (the LIKE of `touchedIn` is a coarse filter).
 */
function spanOf<V extends { version: number; author_meta: string | null }>(vs: V[], conv: string): { first: V; last: V; others: V[] } | null {
  const mine = vs.filter((v) => metaOf(v.author_meta)?.conversationId === conv);
  if (mine.length === 0) return null;
  const first = mine[0]!;
  return { first, last: mine[mine.length - 1]!, others: vs.filter((v) => v.version > first.version && metaOf(v.author_meta)?.conversationId !== conv) };
}

function diffOf(path: string, before: string, after: string, fromLabel: string, toLabel: string): string {
  return createTwoFilesPatch(path, path, before, after, fromLabel, toLabel, { context: 3 });
}

const label = (kind: string, name: string | null) => (kind === 'user' ? (name ?? 'someone') : name ? `agent: ${name}` : 'agent');

/**
 * Every item (file, wiki page, memory file) written in one conversation, each with its version before the
 * conversation, the conversation's last version, the current one and a diff (B11). Items the caller may not
 * read are left out. Files are found by their versions' attribution (B9); the conversation's moves and deletes,
 * which write no version, by its trace. A deleted file cannot come back (deletes are permanent, F13) and is
 * listed as `unrecoverable`; only file moves are reversed (folder moves and wiki moves are not).
 *
 * @example
 * const changes = await conversationChanges(ctx, { conversation: 'conv_…' });
 */
export async function conversationChanges(ctx: Ctx, input: { conversation: string }): Promise<{ conversation: string; items: ConversationChange[] }> {
  const conv = await conversationForUndo(ctx, input.conversation);
  const items = (await changesForRevert(ctx, conv.id)).map(publicOf);
  return { conversation: conv.id, items };
}

/** The file items, with what revert needs to act on them. */
export interface FileChange extends ConversationChange {
  kind: 'file';
  beforeVersion: number | null;
}

async function fileChanges(ctx: Ctx, conv: string): Promise<FileChange[]> {
  const db = ctx.platform.db.kysely;
  const ids = await touchedIn(ctx, 'file_versions', conv);
  const dialect = ctx.platform.db.dialect;
  const files = await inSqlBatches(dialect, ids, (batch) => db.selectFrom('files').selectAll().where('id', 'in', batch).execute());
  const versions = await inSqlBatches(dialect, ids, (batch) =>
    db.selectFrom('file_versions').selectAll().where('file_id', 'in', batch).orderBy('version').execute(),
  );
  // Moves and deletes write no version: they are in the conversation's trace, oldest first.
  const calls = await db
    .selectFrom('tool_calls')
    .select(['tool', 'args', 'path', 'result'])
    .where('project_id', '=', ctx.project.id)
    .where('conversation_id', '=', conv)
    .where('refused', '=', 0)
    .orderBy('seq')
    .execute();
  const origin = new Map<string, string>();
  const deleted = new Set<string>();
  for (const c of calls) {
    let args: Record<string, unknown> = {};
    try {
      args = JSON.parse(c.args) as Record<string, unknown>;
    } catch {
      // A trace entry whose arguments were cut short names no usable path.
    }
    if (MOVE_TOOLS.has(c.tool) && c.path) {
      // The tool names the resolved source in its answer (an agent may name paths inside its own folder); a
      // door's move (file.move) was given the full path.
      if (c.result.startsWith('Moved folder ')) continue;
      const at = c.result.indexOf(` to ${c.path};`);
      const from = c.tool === 'move_file' ? (c.result.startsWith('Moved ') && at > 6 ? c.result.slice(6, at) : '') : String(args.from ?? '');
      if (!from || from === c.path) continue;
      const first = origin.get(from) ?? from;
      origin.delete(from);
      origin.set(c.path, first);
      deleted.delete(c.path);
    } else if (DELETE_TOOLS.has(c.tool)) {
      const p = c.path ?? (typeof args.path === 'string' ? args.path : null);
      if (p) {
        deleted.add(p);
        origin.delete(p);
      }
    }
  }
  const out: FileChange[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    if (can(ctx.actor, 'file.read', { kind: 'file', path: f.path })) continue;
    seen.add(f.path);
    const vs = versions.filter((v) => v.file_id === f.id);
    const span = spanOf(vs, conv);
    if (!span) continue;
    const { first, last, others } = span;
    const beforeRow = first.version > 1 ? (vs.find((v) => v.version === first.version - 1) ?? null) : null;
    const created = first.version === 1;
    const movedFrom = origin.get(f.path) ?? null;
    const beforeGone = !created && !beforeRow;
    const backAlready = beforeRow !== null && beforeRow.sha256 === f.sha256 && (movedFrom === null || movedFrom === f.path);
    const status: ChangeStatus = beforeGone ? 'unrecoverable' : backAlready ? 'reverted' : others.length ? 'conflict' : 'revertible';
    const small = Number(last.size) <= DIFF_MAX_BYTES && (!beforeRow || Number(beforeRow.size) <= DIFF_MAX_BYTES);
    // Only versions small enough for a text diff are read: a review never holds a large file in memory.
    const beforeBytes = beforeRow && small ? await ctx.platform.blobs.read(beforeRow.blob_key) : Buffer.alloc(0);
    const lastBytes = small ? await ctx.platform.blobs.read(last.blob_key) : null;
    const text = lastBytes !== null && isTextContent(last.mime, lastBytes) && (!beforeRow || isTextContent(beforeRow.mime, beforeBytes));
    out.push({
      ref: `file:${f.path}`,
      kind: 'file',
      path: f.path,
      movedFrom,
      before: beforeRow ? { version: beforeRow.version, size: Number(beforeRow.size) } : null,
      beforeVersion: beforeRow?.version ?? null,
      after: { version: last.version, size: Number(last.size) },
      current: { version: f.version, size: Number(f.size) },
      status,
      changedBy: [...new Set(others.map((v) => label(v.author_kind, v.author_label)))],
      diff: text
        ? diffOf(
            f.path,
            beforeBytes.toString('utf8'),
            lastBytes.toString('utf8'),
            beforeRow ? `version ${beforeRow.version}` : 'did not exist',
            `version ${last.version}`,
          )
        : null,
      binary: !text,
      note: noteFor(status, created ? 'created' : 'edited', movedFrom),
    });
  }
  // Files the conversation only moved (no version of its own).
  for (const [path, from] of origin) {
    if (seen.has(path) || can(ctx.actor, 'file.read', { kind: 'file', path })) continue;
    const f = await db.selectFrom('files').selectAll().where('project_id', '=', ctx.project.id).where('path', '=', path).executeTakeFirst();
    if (!f) continue;
    seen.add(path);
    const v = { version: f.version, size: Number(f.size) };
    out.push({
      ref: `file:${path}`,
      kind: 'file',
      path,
      movedFrom: from,
      before: v,
      beforeVersion: null,
      after: v,
      current: v,
      status: 'revertible',
      changedBy: [],
      diff: null,
      binary: false,
      note: noteFor('revertible', 'moved', from),
    });
  }
  for (const path of deleted) {
    if (seen.has(path) || can(ctx.actor, 'file.read', { kind: 'file', path })) continue;
    out.push({
      ref: `file:${path}`,
      kind: 'file',
      path,
      movedFrom: null,
      before: null,
      beforeVersion: null,
      after: null,
      current: null,
      status: 'unrecoverable',
      changedBy: [],
      diff: null,
      binary: false,
      note: 'The conversation deleted this file; a delete is permanent with its versions, so it cannot be restored.',
    });
  }
  return out;
}

function noteFor(status: ChangeStatus, what: 'created' | 'edited' | 'moved', movedFrom: string | null): string {
  if (status === 'unrecoverable') return 'The version before the conversation is no longer kept, so it cannot be restored.';
  if (status === 'conflict') return 'Someone changed it after the conversation; undo leaves it as it is.';
  if (status === 'reverted') return 'It is already as it was before the conversation.';
  const back = movedFrom ? ` and moved back to ${movedFrom} (if that path is free)` : '';
  if (what === 'created') return `The conversation created it; undo deletes it.`;
  if (what === 'moved') return `The conversation moved it; undo moves it back to ${movedFrom} (if that path is free).`;
  return `Undo restores the version before the conversation as a new version${back}.`;
}

/** The wiki items, with the text and title to restore. */
export interface WikiChange extends ConversationChange {
  kind: 'wiki';
  beforeText: string | null;
  beforeTitle: string | null;
  beforeChannel: string | null;
}

async function wikiChanges(ctx: Ctx, conv: string): Promise<WikiChange[]> {
  const db = ctx.platform.db.kysely;
  const ids = await touchedIn(ctx, 'wiki_versions', conv);
  if (ids.length === 0) return [];
  const viewer = await wikiViewer(ctx);
  const dialect = ctx.platform.db.dialect;
  const pages = await inSqlBatches(dialect, ids, (batch) => db.selectFrom('wiki_pages').selectAll().where('id', 'in', batch).execute());
  const versions = await inSqlBatches(dialect, ids, (batch) =>
    db.selectFrom('wiki_versions').selectAll().where('page_id', 'in', batch).orderBy('version').execute(),
  );
  const out: WikiChange[] = [];
  for (const p of pages) {
    if (!viewer.sees(p)) continue;
    const vs = versions.filter((v) => v.page_id === p.id);
    const span = spanOf(vs, conv);
    if (!span) continue;
    const { first, last, others } = span;
    const before = first.version > 1 ? (vs.find((v) => v.version === first.version - 1) ?? null) : null;
    const created = first.version === 1;
    const backAlready = before !== null && before.body === p.body && before.title === p.title && before.channel_id === p.channel_id;
    const status: ChangeStatus = !created && !before ? 'unrecoverable' : backAlready ? 'reverted' : others.length ? 'conflict' : 'revertible';
    const size = (s: string) => Buffer.byteLength(s, 'utf8');
    const titleNote =
      before && effectiveTitle(before.title, before.path) !== effectiveTitle(last.title, last.path)
        ? ` Title: "${effectiveTitle(before.title, before.path)}" → "${effectiveTitle(last.title, last.path)}".`
        : '';
    out.push({
      ref: `wiki:${p.path}`,
      kind: 'wiki',
      path: p.path,
      movedFrom: null,
      before: before ? { version: before.version, size: size(before.body) } : null,
      after: { version: last.version, size: size(last.body) },
      current: { version: p.version, size: size(p.body) },
      status,
      changedBy: [...new Set(others.map((v) => label(v.author_kind, v.author_label)))],
      diff: diffOf(p.path, before?.body ?? '', last.body, before ? `version ${before.version}` : 'did not exist', `version ${last.version}`),
      binary: false,
      note: noteFor(status, created ? 'created' : 'edited', null) + titleNote,
      beforeText: before?.body ?? null,
      beforeTitle: before?.title ?? null,
      beforeChannel: before?.channel_id ?? null,
    });
  }
  return out;
}

/** The memory items, with the reference and text to restore. */
export interface MemoryChange extends ConversationChange {
  kind: 'memory';
  memoryRef: { file: string; agent?: string; conversation?: string };
  beforeText: string;
}

async function memoryChanges(ctx: Ctx, conv: string): Promise<MemoryChange[]> {
  const db = ctx.platform.db.kysely;
  const ids = await touchedIn(ctx, 'memory_versions', conv);
  if (ids.length === 0) return [];
  const dialect = ctx.platform.db.dialect;
  const files = await inSqlBatches(dialect, ids, (batch) => db.selectFrom('memory_files').selectAll().where('id', 'in', batch).execute());
  const versions = await inSqlBatches(dialect, ids, (batch) =>
    db
      .selectFrom('memory_versions')
      .select(['file_id', 'version', 'chars', 'author_kind', 'author_label', 'author_meta'])
      .where('file_id', 'in', batch)
      .orderBy('version')
      .execute(),
  );
  const out: MemoryChange[] = [];
  for (const f of files) {
    const kind = f.kind as MemoryKind;
    const file = FILE_OF[kind];
    const memoryRef = kind === 'soul' ? { file, agent: f.scope_id } : kind === 'memory' ? { file, conversation: f.scope_id } : { file };
    let target;
    try {
      target = await resolveMemoryTarget(ctx, memoryRef);
    } catch {
      continue; // its agent or conversation is gone
    }
    if (await memoryRefusal(ctx, target, 'memory.read')) continue;
    const path = kind === 'agents' ? file : `${file}:${f.scope_id}`;
    const vs = versions.filter((v) => v.file_id === f.id);
    const span = spanOf(vs, conv);
    if (!span) continue;
    const { first, last, others } = span;
    const beforeVersion = first.version - 1;
    const never = beforeVersion === 0 ? (kind === 'soul' ? (target.agentInstructions ?? '') : '') : undefined;
    const beforeText = never ?? (await versionText(db, f.id, beforeVersion));
    const lastText = (await versionText(db, f.id, last.version)) ?? '';
    const currentText = (await versionText(db, f.id, f.version)) ?? '';
    const status: ChangeStatus =
      beforeText === undefined ? 'unrecoverable' : currentText === beforeText ? 'reverted' : others.length ? 'conflict' : 'revertible';
    const size = (s: string) => Buffer.byteLength(s, 'utf8');
    out.push({
      ref: `memory:${path}`,
      kind: 'memory',
      path,
      movedFrom: null,
      before: beforeVersion === 0 ? null : { version: beforeVersion, size: size(beforeText ?? '') },
      after: { version: last.version, size: size(lastText) },
      current: { version: f.version, size: size(currentText) },
      status,
      changedBy: [...new Set(others.map((v) => label(v.author_kind, v.author_label)))],
      diff: diffOf(path, beforeText ?? '', lastText, beforeVersion === 0 ? 'never saved' : `version ${beforeVersion}`, `version ${last.version}`),
      binary: false,
      note: noteFor(status, 'edited', null),
      memoryRef,
      beforeText: beforeText ?? '',
    });
  }
  return out;
}

/** An item as the review shows it, without what only revert needs. */
function publicOf(c: FileChange | WikiChange | MemoryChange): ConversationChange {
  const { ref, kind, path, movedFrom, before, after, current, status, changedBy, diff, binary, note } = c;
  return { ref, kind, path, movedFrom, before, after, current, status, changedBy, diff, binary, note };
}

/**
 * The full change list with what revert needs; `conversationChanges` answers the same list without it.
 */
export async function changesForRevert(ctx: Ctx, conv: string): Promise<Array<FileChange | WikiChange | MemoryChange>> {
  return [...(await fileChanges(ctx, conv)), ...(await wikiChanges(ctx, conv)), ...(await memoryChanges(ctx, conv))];
}
