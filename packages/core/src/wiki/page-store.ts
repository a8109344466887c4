import type { SearchDocInput } from '../search/index.js';
import { enqueueWikiPages } from '../outbox/outbox.js';
import type { Attribution } from '../actors.js';
import { newOrderedId } from '../ids.js';
import type { Ctx, Q } from '../platform.js';
import { parseLinks } from './links.js';
import type { PageRow } from './schema.js';
import { pageVisibility } from './visibility.js';
import { effectiveTitle } from './wiki-paths.js';
import { sqlBatches } from '../db-batches.js';

/** Search-index kind of wiki pages. */
export const WIKI_KIND = 'wiki';

/** Largest page text, in UTF-8 bytes. */
export const WIKI_MAX_TEXT_BYTES = 1_048_576;

/**
 * Reads the page at a path, locking its row on PostgreSQL so concurrent saves of one page queue up (SQLite
 * transactions are already serialised by BEGIN IMMEDIATE).
 *
 * @example
 * const row = await lockPage(trx, ctx, 'handbook/refunds');
 */
export async function lockPage(trx: Q, ctx: Ctx, path: string): Promise<PageRow | undefined> {
  let q = trx.selectFrom('wiki_pages').selectAll().where('project_id', '=', ctx.project.id).where('path', '=', path);
  if (ctx.platform.db.dialect === 'postgres') q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * Writes what derives from a page's content, in the caller's transaction: its outgoing links (replaced), and the
 * outbox row that has its search-index entry written right after the commit (outbox/drain.ts, decision 0020).
 */
export async function syncDerived(trx: Q, ctx: Ctx, row: PageRow): Promise<void> {
  const db = trx;
  await db.deleteFrom('wiki_links').where('from_page_id', '=', row.id).execute();
  const links = parseLinks(row.body);
  const values = links.map((l) => ({ project_id: row.project_id, from_page_id: row.id, to_path: l.path, label: l.label, heading: l.heading }));
  for (const batch of sqlBatches(ctx.platform.db.dialect, values, 5)) await db.insertInto('wiki_links').values(batch).execute();
  await enqueueWikiPages(trx, ctx, [row], row.updated_at);
}

/**
 * The search-index entry of a page as it is now: effective title, text, and the visibility of its channel (the
 * drainer writes it from the page's current row).
 *
 * @example
 * await indexDocs(index, [wikiPageDoc(row)]);
 */
export function wikiPageDoc(row: Pick<PageRow, 'id' | 'project_id' | 'path' | 'title' | 'body' | 'channel_id' | 'updated_at'>): SearchDocInput {
  return {
    projectId: row.project_id,
    kind: WIKI_KIND,
    refId: row.id,
    path: row.path,
    title: effectiveTitle(row.title, row.path),
    body: row.body,
    visibility: pageVisibility(row),
    updatedAt: row.updated_at,
  };
}

/** Appends a version row that records the page as it is now. */
export async function recordVersion(trx: Q, row: PageRow, action: 'create' | 'edit' | 'rename', a: Attribution, at: string): Promise<void> {
  await trx
    .insertInto('wiki_versions')
    .values({
      id: newOrderedId('wv'),
      page_id: row.id,
      project_id: row.project_id,
      version: row.version,
      path: row.path,
      title: row.title,
      body: row.body,
      channel_id: row.channel_id,
      action,
      author_kind: a.kind,
      author_id: a.id,
      author_label: a.label,
      author_meta: a.meta ? JSON.stringify(a.meta) : null,
      created_at: at,
    })
    .execute();
}

/**
 * How a person or an agent is named in the wiki: the person's name, or "agent: <name>".
 *
 * @example
 * authorName('agent', 'Researcher') // 'agent: Researcher'
 */
export function authorName(kind: string, label: string | null): string {
  if (kind === 'agent' || kind === 'unmapped_agent') return label ? `agent: ${label}` : 'agent';
  return label ?? kind;
}
