import { StoaError } from '@stoa/contract';
import type { Ctx, Q } from '../platform.js';
import { parseLinks } from './links.js';
import { unlinkedMentions } from './mentions.js';
import { authorName } from './page-store.js';
import { toSummary } from './put-page.js';
import type { PageRow } from './schema.js';
import { wikiViewer } from './visibility.js';
import { effectiveTitle, normalizeWikiPath, subtreeRange } from './wiki-paths.js';
import type { WikiPage, WikiPageSummary } from './types.js';
import { inSqlBatches } from '../db-batches.js';

/** Restricts a wiki_pages query to rows the caller may see (workspace pages and pages of visible channels). */
export function visibleOnly<QB extends { where: (...a: any[]) => QB }>(qb: QB, channels: Set<string>): QB {
  const ids = [...channels];
  return qb.where((eb: any) => (ids.length > 0 ? eb.or([eb('channel_id', 'is', null), eb('channel_id', 'in', ids)]) : eb('channel_id', 'is', null)));
}

/**
 * Reads a visible page by path; a missing page and one the caller cannot see both give not_found.
 *
 * @example
 * const row = await visiblePage(ctx, 'handbook/refunds');
 */
export async function visiblePage(ctx: Ctx, rawPath: string, q: Q = ctx.platform.db.kysely, viewer?: Awaited<ReturnType<typeof wikiViewer>>): Promise<PageRow> {
  const path = normalizeWikiPath(rawPath);
  viewer ??= await wikiViewer(ctx, q);
  const row = await q.selectFrom('wiki_pages').selectAll().where('project_id', '=', ctx.project.id).where('path', '=', path).executeTakeFirst();
  if (!row || !viewer.sees(row)) throw new StoaError('not_found', `page "${path}" does not exist`);
  return row;
}

/**
 * One page with its "Linked here" backlinks (only from pages the caller can see), its links (missing ones
 * marked) and its unlinked mentions (W2, B10).
 *
 * @example
 * const p = await getPage(ctx, { path: 'handbook/refunds' });
 * p.linkedHere // [{ path: 'handbook', title: 'Handbook' }]
 */
export async function getPage(ctx: Ctx, input: { path: string }): Promise<WikiPage> {
  const viewer = await wikiViewer(ctx);
  const row = await visiblePage(ctx, input.path, ctx.platform.db.kysely, viewer);
  const db = ctx.platform.db.kysely;
  const back = await visibleOnly(
    db
      .selectFrom('wiki_links')
      .innerJoin('wiki_pages', 'wiki_pages.id', 'wiki_links.from_page_id')
      .select(['wiki_pages.path', 'wiki_pages.title'])
      .where('wiki_links.project_id', '=', ctx.project.id)
      .where('wiki_links.to_path', '=', row.path)
      .where('wiki_links.from_page_id', '!=', row.id),
    viewer.channels,
  )
    .orderBy('wiki_pages.path')
    .execute();
  const links = parseLinks(row.body);
  const targets =
    links.length === 0
      ? []
      : await inSqlBatches(ctx.platform.db.dialect, [...new Set(links.map((l) => l.path))], (paths) =>
          db.selectFrom('wiki_pages').select(['path', 'channel_id']).where('project_id', '=', ctx.project.id).where('path', 'in', paths).execute(),
        );
  const present = new Set(targets.filter((t) => viewer.sees(t)).map((t) => t.path));
  return {
    ...toSummary(row),
    text: row.body,
    created: row.created_at,
    createdBy: authorName(row.created_by_kind, row.created_by_label),
    linkedHere: back.map((b) => ({ path: b.path, title: effectiveTitle(b.title, b.path) })),
    links: links.map((l) => ({ ...l, missing: !present.has(l.path) })),
    unlinkedMentions: await unlinkedMentions(ctx, row, viewer.visibility),
  };
}

/**
 * The visible pages, ordered by path, so the list is the tree (`handbook` before `handbook/onboarding`).
 * With `prefix`, only that page and the pages below it.
 *
 * @example
 * await listPages(ctx, { prefix: 'handbook' }) // [{ path: 'handbook', … }, { path: 'handbook/refunds', … }]
 */
export async function listPages(ctx: Ctx, input: { prefix?: string } = {}): Promise<WikiPageSummary[]> {
  const viewer = await wikiViewer(ctx);
  let q = ctx.platform.db.kysely.selectFrom('wiki_pages').selectAll().where('project_id', '=', ctx.project.id);
  if (input.prefix !== undefined && input.prefix.replace(/\//g, '').trim() !== '') {
    const prefix = normalizeWikiPath(input.prefix);
    const { lo, hi } = subtreeRange(prefix);
    q = q.where((eb) => eb.or([eb('path', '=', prefix), eb.and([eb('path', '>=', lo), eb('path', '<', hi)])]));
  }
  const rows = await visibleOnly(q, viewer.channels).orderBy('path').execute();
  return rows.map(toSummary);
}
