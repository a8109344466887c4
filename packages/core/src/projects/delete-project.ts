import { sql, type RawBuilder } from 'kysely';
import { StoaError } from '@stoa/contract';
import { inTx, type Platform } from '../platform.js';
import { isInstallationAdminPrincipal, type Principal } from './tokens.js';

/** How the rows of one table belong to a project. */
interface ProjectTable {
  table: string;
  where: (projectId: string) => RawBuilder<unknown>;
  /** Only on this back end (PostgreSQL keeps search postings in a table; SQLite in its FTS index). */
  only?: 'sqlite' | 'postgres';
}

const byProject = (p: string) => sql`project_id = ${p}`;

/**
 * Every table that holds a project's rows, children before their parents (foreign keys are enforced), each with
 * how a row is tied to the project. A table added with a `project_id` column must be added here: a test compares
 * this list with the schema. Blobs are not listed: they are shared by content across projects and the sweeper
 * collects the ones no version references any more.
 */
export const PROJECT_TABLES: readonly ProjectTable[] = [
  { table: 'derived_outbox', where: byProject },
  { table: 'favourites', where: byProject },
  { table: 'recent_items', where: byProject },
  { table: 'search_vectors', where: byProject },
  { table: 'search_bodies', where: (p) => sql`doc_id in (select id from search_docs where project_id = ${p})` },
  { table: 'search_blocks', where: byProject, only: 'postgres' },
  { table: 'search_singles', where: byProject, only: 'postgres' },
  { table: 'search_docs', where: byProject },
  { table: 'doc_chunks', where: byProject },
  { table: 'doc_assets', where: byProject },
  { table: 'wiki_links', where: byProject },
  { table: 'wiki_versions', where: byProject },
  { table: 'wiki_pages', where: byProject },
  { table: 'memory_seen', where: byProject },
  { table: 'memory_versions', where: byProject },
  { table: 'memory_files', where: byProject },
  { table: 'tool_calls', where: byProject },
  { table: 'agent_write_windows', where: byProject },
  { table: 'file_changes', where: byProject },
  { table: 'dav_locks', where: byProject },
  { table: 'dav_props', where: byProject },
  { table: 'upload_reservations', where: byProject },
  { table: 'share_links', where: byProject },
  { table: 'file_notes', where: (p) => sql`file_id in (select id from files where project_id = ${p})` },
  { table: 'trash_versions', where: byProject },
  { table: 'trash_files', where: byProject },
  { table: 'trash_entries', where: byProject },
  { table: 'file_versions', where: byProject },
  { table: 'files', where: byProject },
  { table: 'dirs', where: byProject },
  { table: 'audit_log', where: byProject },
  { table: 'invitations', where: byProject },
  { table: 'conversation_members', where: (p) => sql`conversation_id in (select id from conversations where project_id = ${p})` },
  { table: 'conversations', where: byProject },
  { table: 'oauth_tokens', where: (p) => sql`grant_id in (select id from oauth_grants where project_id = ${p})` },
  { table: 'oauth_grants', where: byProject },
  { table: 'tokens', where: (p) => sql`project_id = ${p} or agent_id in (select id from agents where project_id = ${p})` },
  { table: 'agents', where: byProject },
  { table: 'members', where: byProject },
];

/** Rows removed per statement, so a large project never holds one long transaction (or lock) over the database. */
const BATCH = 500;

export interface DeletedProject {
  id: string;
  name: string;
  deleted: true;
}

/**
 * Deletes a whole project (F13): files and versions, folders, wiki, memory, agents, tokens, conversations and
 * their traces, understanding and search rows, and its audit log; the deletion itself is recorded in the
 * installation's audit log. Only the installation administrator may, and only with `confirm` equal to the
 * project's name. The project is marked first (every door answers not_found from that commit on, and its tokens
 * stop working), then its rows go in bounded batches; an interrupted delete is finished by
 * `resumeProjectDeletions` at the next start.
 *
 * @example
 * await deleteProject(platform, principal, { project: 'acme', confirm: 'acme' }) // { id: 'prj_…', name: 'acme', deleted: true }
 */
export async function deleteProject(platform: Platform, principal: Principal, input: { project: string; confirm: string }): Promise<DeletedProject> {
  if (!isInstallationAdminPrincipal(principal)) {
    throw new StoaError('forbidden', 'only the installation administrator may delete a project');
  }
  const now = platform.clock().toISOString();
  const project = await inTx(platform, async (trx) => {
    const row = await trx
      .selectFrom('projects')
      .select(['id', 'name'])
      .where((eb) => eb.or([eb('id', '=', input.project), eb('name', '=', input.project)]))
      .where('catalog', '=', 'projects')
      .where('deleting_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw new StoaError('not_found', `project "${input.project}" does not exist`);
    if (input.confirm.normalize('NFC') !== row.name) {
      throw new StoaError('bad_request', `to delete project "${row.name}", confirm with its exact name`);
    }
    await trx.updateTable('projects').set({ deleting_at: now }).where('id', '=', row.id).execute();
    // Its knowledge bases, skill packages and its agents' volumes (R1) go with it.
    await trx.updateTable('projects').set({ deleting_at: now }).where('parent_project_id', '=', row.id).where('deleting_at', 'is', null).execute();
    await trx
      .insertInto('installation_audit')
      .values({
        at: now,
        actor_id: principal.userId,
        actor_label: principal.name,
        action: 'project.delete',
        subject: row.name,
        details: JSON.stringify({ projectId: row.id }),
      })
      .execute();
    return row;
  });
  const volumes = await platform.db.kysely.selectFrom('projects').select('id').where('parent_project_id', '=', project.id).execute();
  for (const v of volumes) await purgeProject(platform, v.id);
  await purgeProject(platform, project.id);
  return { id: project.id, name: project.name, deleted: true };
}

/** Removes the rows of a project marked for deletion, batch by batch, then the project itself. */
export async function purgeProject(platform: Platform, projectId: string): Promise<void> {
  const dialect = platform.db.dialect;
  // PostgreSQL has no DELETE … LIMIT: batches are picked by physical row id, ctid there and rowid on SQLite.
  const rowId = sql.raw(dialect === 'postgres' ? 'ctid' : 'rowid');
  for (const { table, where, only } of PROJECT_TABLES) {
    if (only && only !== dialect) continue;
    const t = sql.table(table);
    for (;;) {
      const result = await sql`delete from ${t} where ${rowId} in (select ${rowId} from ${t} where ${where(projectId)} limit ${sql.lit(BATCH)})`.execute(
        platform.db.kysely,
      );
      if (Number(result.numAffectedRows ?? 0) < BATCH) break;
    }
  }
  await platform.db.kysely.deleteFrom('projects').where('id', '=', projectId).where('deleting_at', 'is not', null).execute();
}

/** Finishes the deletions a crash or a restart interrupted; run at start-up. Returns how many were finished. */
export async function resumeProjectDeletions(platform: Platform): Promise<number> {
  const pending = await platform.db.kysely.selectFrom('projects').select('id').where('deleting_at', 'is not', null).execute();
  for (const p of pending) await purgeProject(platform, p.id);
  return pending.length;
}

/** The installation's audit log, newest first: events that outlive projects. Installation administrator only. */
export async function listInstallationAudit(
  platform: Platform,
  principal: Principal,
  input: { limit?: number },
): Promise<Array<{ id: number; at: string; actor: string | null; action: string; subject: string }>> {
  if (!isInstallationAdminPrincipal(principal)) {
    throw new StoaError('forbidden', "only the installation administrator may read the installation's audit log");
  }
  const rows = await platform.db.kysely
    .selectFrom('installation_audit')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(Math.min(input.limit ?? 100, 1000))
    .execute();
  return rows.map((r) => ({ id: Number(r.id), at: r.at, actor: r.actor_label, action: r.action, subject: r.subject }));
}
