import { StoaError } from '@stoa/contract';
import { trashOf } from '../config.js';
import type { Ctx } from '../platform.js';
import { assertCan, can } from '../policies/can.js';
import { effectiveScopes } from '../policies/agent-scopes.js';
import { below } from '../files/subtree-sql.js';
import { toTrashItem, type TrashItem } from './trash-rows.js';

/**
 * The volume's trash, newest deletion first (issue 29). Whoever may read the volume's files may list it (a
 * viewer too); an agent sees only what lies in what it may read, as before the delete. `mayRestore` and
 * `mayPurge` say what the caller may do with the entries (restore: a file writer; purge: an admin).
 *
 * @example
 * const { items } = await listTrash(ctx, { limit: 50 });
 */
export async function listTrash(
  ctx: Ctx,
  input: { limit?: number; cursor?: string | null } = {},
): Promise<{ items: TrashItem[]; nextCursor: string | null; mayRestore: boolean; mayPurge: boolean }> {
  const a = ctx.actor;
  const limit = Math.min(Math.max(input.limit ?? 100, 1), 1000);
  let q = ctx.platform.db.kysely.selectFrom('trash_entries').selectAll().where('project_id', '=', ctx.project.id);
  if (a.kind === 'agent') {
    const read = effectiveScopes(a.agentId, a.access).read;
    assertCan(a, 'file.read', { kind: 'file', path: read });
    if (read !== '') q = q.where((eb) => eb.or([eb('path', '=', read), below('path', read)]));
  } else assertCan(a, 'file.read', { kind: 'project' });
  if (input.cursor) {
    const [at, id] = splitCursor(input.cursor);
    q = q.where((eb) => eb.or([eb('deleted_at', '<', at), eb.and([eb('deleted_at', '=', at), eb('id', '<', id)])]));
  }
  const rows = await q
    .orderBy('deleted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  const days = trashOf(ctx.platform.config).days;
  // Agents never purge; a person's rights come from the role, the same for every entry of the volume.
  const mayRestore =
    a.kind === 'agent'
      ? can(a, 'file.write', { kind: 'file', path: effectiveScopes(a.agentId, a.access).write }) === null
      : can(a, 'file.write', { kind: 'project' }) === null;
  return {
    items: page.map((r) => toTrashItem(r, days)),
    nextCursor: rows.length > limit ? `${page[page.length - 1]!.deleted_at}|${page[page.length - 1]!.id}` : null,
    mayRestore,
    mayPurge: a.kind === 'user' && can(a, 'project.admin', { kind: 'project' }) === null,
  };
}

function splitCursor(cursor: string): [string, string] {
  const i = cursor.lastIndexOf('|');
  if (i <= 0) throw new StoaError('bad_request', 'cursor is not one this listing gave');
  return [cursor.slice(0, i), cursor.slice(i + 1)];
}
