import { can } from '../policies/can.js';
import { isTextContent } from '../files/mime.js';
import type { Ctx } from '../platform.js';
import { inSqlBatches } from '../db-batches.js';
import {
  DELETE_TOOLS,
  DIFF_MAX_BYTES,
  MOVE_TOOLS,
  diffOf,
  label,
  noteFor,
  spanOf,
  touchedIn,
  type ChangeStatus,
  type ConversationChange,
} from './change-items.js';

/** The file items, with what revert needs to act on them. */
export interface FileChange extends ConversationChange {
  kind: 'file';
  beforeVersion: number | null;
  /** The trash entry that holds what the conversation deleted, which undo restores (issue 29). */
  trashEntry: string | null;
}

export async function fileChanges(ctx: Ctx, conv: string): Promise<FileChange[]> {
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
  // A deleted file's last version, as the delete's answer gave it ("it was at version 2, 120 bytes").
  const deleted = new Map<string, { version: number; size: number } | null>();
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
        const was = /it was at version (\d+)(?:, (\d+) bytes)?/.exec(c.result);
        deleted.set(p, was ? { version: Number(was[1]), size: Number(was[2] ?? 0) } : null);
        origin.delete(p);
      }
    }
  }
  // Where each file the conversation moved is now: a person may have moved it since (their moves are audited).
  const movedSince = new Map<string, string>();
  for (const [path, from] of [...origin]) {
    const now = await pathNow(ctx, path);
    if (now === path) continue;
    origin.delete(path);
    origin.set(now, from);
    movedSince.set(now, path);
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
      movedSince: movedSince.get(f.path) ?? null,
      before: beforeRow ? { version: beforeRow.version, size: Number(beforeRow.size) } : null,
      beforeVersion: beforeRow?.version ?? null,
      trashEntry: null,
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
      movedSince: movedSince.get(path) ?? null,
      before: v,
      beforeVersion: null,
      trashEntry: null,
      after: v,
      current: v,
      status: 'revertible',
      changedBy: [],
      diff: null,
      binary: false,
      note: noteFor('revertible', 'moved', from),
    });
  }
  for (const [path, was] of deleted) {
    if (seen.has(path) || can(ctx.actor, 'file.read', { kind: 'file', path })) continue;
    // What the conversation deleted waits in the trash (issue 29) until it is purged.
    const trashed = await db
      .selectFrom('trash_entries')
      .select(['id', 'files'])
      .where('project_id', '=', ctx.project.id)
      .where('conversation_id', '=', conv)
      .where('path', '=', path)
      .orderBy('deleted_at', 'desc')
      .executeTakeFirst();
    const made = trashed ? await createdIn(ctx, trashed.id, conv) : false;
    out.push({
      ref: `file:${path}`,
      kind: 'file',
      path,
      movedFrom: null,
      movedSince: null,
      // What the file was when the conversation deleted it: "v2 → deleted", never "did not exist".
      before: was,
      beforeVersion: null,
      trashEntry: trashed && !made ? trashed.id : null,
      after: null,
      current: null,
      status: made ? 'reverted' : trashed ? 'revertible' : 'unrecoverable',
      changedBy: [],
      diff: null,
      binary: false,
      note: made
        ? 'The conversation created this file and deleted it again; there is nothing to undo.'
        : trashed
          ? 'The conversation deleted this file; it is in the trash, and undo restores it with its versions.'
          : 'The conversation deleted this file and it has been purged from the trash since, so it cannot be restored.',
    });
  }
  return out;
}

/**
 * Where a file at `path` is now, following the moves people made since (file and folder moves, from the audit
 * log, oldest first); `path` itself when nobody moved it.
 */
async function pathNow(ctx: Ctx, path: string): Promise<string> {
  const db = ctx.platform.db.kysely;
  const here = async (p: string) =>
    !!(await db.selectFrom('files').select('id').where('project_id', '=', ctx.project.id).where('path', '=', p).executeTakeFirst());
  // Only a file no longer where the conversation left it is looked for: an older move from the same path (before
  // the conversation) must not send a file that is still there elsewhere.
  if (await here(path)) return path;
  let now = path;
  let after = 0;
  // A bounded walk: each step is a later audit entry, so a file moved back and forth cannot loop.
  for (let step = 0; step < 50; step++) {
    const prefixes = now.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
    const move = await db
      .selectFrom('audit_log')
      .select(['id', 'action', 'from_path', 'to_path'])
      .where('project_id', '=', ctx.project.id)
      .where('id', '>', after)
      .where((w) =>
        w.or([w.and([w('action', '=', 'file.move'), w('from_path', '=', now)]), w.and([w('action', '=', 'folder.move'), w('from_path', 'in', prefixes)])]),
      )
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!move?.from_path || !move.to_path) return now;
    now = move.to_path + now.slice(move.from_path.length);
    after = Number(move.id);
    if (await here(now)) return now;
  }
  return now;
}

/** Whether the trashed file's first version was written in the conversation itself (it did not exist before). */
async function createdIn(ctx: Ctx, entry: string, conv: string): Promise<boolean> {
  const first = await ctx.platform.db.kysely
    .selectFrom('trash_versions')
    .select('author_meta')
    .where('entry_id', '=', entry)
    .where('version', '=', 1)
    .executeTakeFirst();
  return first !== undefined && spanOf([{ version: 1, author_meta: first.author_meta }], conv) !== null;
}
