import type { Ctx } from '../platform.js';
import { can } from '../policies/can.js';
import { decodeCursor, encodeCursor } from './change-cursor.js';

/** Rows of the feed looked at per call at most, visible or not, so a caller who sees little still gets an answer fast. */
const SCAN_ROWS = 5000;
/** Changes per page when the caller names no limit. */
const DEFAULT_LIMIT = 100;

/** One change of the feed, as its reader may see it. */
interface FileChange {
  cursor: string;
  kind: string;
  path: string;
  from_path: string | null;
  version: number;
  size: number;
  at: string;
}

/**
 * The files written, moved or deleted after `cursor`, oldest first (B7), only where the caller may read (or
 * where `readable` says); the answer ends with the cursor to pass next time. A move from a place the caller may
 * not read shows only where the file is now; a move out of sight is, for this caller, a delete where it was.
 *
 * Cursors are opaque (see change-cursor.ts): they tell nothing of how much happened elsewhere.
 *
 * @example
 * await changesAfter(ctx, { cursor: 'q3V…' })
 * // { changes: [{ cursor: 'Zk8…', kind: 'written', path: 'a.md', … }], cursor: 'Zk8…' }
 */
export async function changesAfter(
  ctx: Ctx,
  opts: { cursor?: string; limit?: number; readable?: (path: string) => boolean },
): Promise<{ changes: FileChange[]; cursor: string }> {
  if (opts.cursor === 'now') {
    // Where the feed stands: a reader that only wants what comes next (the web UI) starts here.
    const row = await ctx.platform.db.kysely
      .selectFrom('file_changes')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('project_id', '=', ctx.project.id)
      .executeTakeFirst();
    return { changes: [], cursor: await encodeCursor(ctx, Number(row?.seq ?? 0)) };
  }
  const limit = Math.max(1, Math.floor(opts.limit ?? DEFAULT_LIMIT));
  // Readable by default means what the caller may read anywhere else; the agent tool narrows it to its scopes.
  const readable = opts.readable ?? ((p: string) => can(ctx.actor, 'file.read', { kind: 'file', path: p }) === null);
  let after = opts.cursor === undefined ? 0 : await decodeCursor(ctx, opts.cursor);
  const out: FileChange[] = [];
  let scanned = 0;
  while (out.length < limit && scanned < SCAN_ROWS) {
    const rows = await ctx.platform.db.kysely
      .selectFrom('file_changes')
      .selectAll()
      .where('project_id', '=', ctx.project.id)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(Math.min(500, SCAN_ROWS - scanned))
      .execute();
    if (rows.length === 0) break;
    for (const r of rows) {
      scanned++;
      after = Number(r.seq);
      const fromOk = r.from_path !== null && readable(r.from_path);
      if (!readable(r.path) && !fromOk) continue;
      const [kind, path, from] = readable(r.path) ? [r.kind, r.path, fromOk ? r.from_path : null] : ['deleted', r.from_path!, null];
      out.push({ cursor: await encodeCursor(ctx, Number(r.seq)), kind, path, from_path: from, version: r.version, size: Number(r.size), at: r.at });
      if (out.length === limit) break;
    }
  }
  return { changes: out, cursor: await encodeCursor(ctx, after) };
}
