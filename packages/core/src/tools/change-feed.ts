import type { ToolArgs } from '@stoa/contract';
import { can } from '../policies/can.js';
import { isInside } from '../paths.js';
import type { ToolAnswer, ToolEnv } from './tool-env.js';

/** Rows of the feed looked at per call at most, visible or not, so a caller who sees little still gets an answer fast. */
const SCAN_ROWS = 5000;

interface Change {
  cursor: string;
  kind: string;
  path: string;
  from_path: string | null;
  version: number;
  size: number;
  at: string;
}

/**
 * `file_changes(cursor, limit)`: the files written, moved or deleted after `cursor`, oldest first (B7), only those
 * the caller may read; the answer ends with the cursor to pass next time. A move from a place the caller may not
 * read shows only where the file is now.
 *
 * @example
 * (await fileChanges(env, { cursor: '41' })).data // { changes: [{ cursor: '42', kind: 'written', path: 'a.md', … }], cursor: '42' }
 */
export async function fileChanges(env: ToolEnv, args: ToolArgs<'file_changes'>): Promise<ToolAnswer> {
  const limit = args.limit ?? env.limits.agentListMax;
  const actor = env.ctx.actor;
  const readable = (p: string) => isInside(p, env.scopes.read) && !can(actor, 'file.read', { kind: 'file', path: p });
  let after = Number(args.cursor ?? '0');
  const out: Change[] = [];
  let scanned = 0;
  while (out.length < limit && scanned < SCAN_ROWS) {
    const rows = await env.ctx.platform.db.kysely
      .selectFrom('file_changes')
      .selectAll()
      .where('project_id', '=', env.ctx.project.id)
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
      // A file moved out of sight is, for this caller, deleted from where it was.
      const [kind, path, from] = readable(r.path) ? [r.kind, r.path, fromOk ? r.from_path : null] : ['deleted', r.from_path!, null];
      out.push({ cursor: String(r.seq), kind, path, from_path: from, version: r.version, size: Number(r.size), at: r.at });
      if (out.length === limit) break;
    }
  }
  const next = String(after);
  if (out.length === 0) return { text: `No changes after cursor ${args.cursor ?? '0'}. Next cursor: ${next}`, data: { changes: [], cursor: next } };
  const lines = out.map(
    (c) => `${c.cursor}\t${c.kind}\t${c.path}${c.from_path ? ` (from ${c.from_path})` : ''}\tversion ${c.version}\t${c.size} bytes\t${c.at}`,
  );
  return { text: `${lines.join('\n')}\nNext cursor: ${next}`, data: { changes: out, cursor: next } };
}
