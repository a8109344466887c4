import { StoaError } from '@stoa/contract';
import { enqueueWikiPages } from '../outbox/outbox.js';
import { inTx, type Ctx } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { visibleOnly } from './read-page.js';
import { wikiViewer } from './visibility.js';
import { effectiveTitle, isAtOrBelow, normalizeWikiPath, subtreeRange } from './wiki-paths.js';

export interface MoveResult {
  /** Whether nothing was changed (a dry run). */
  dryRun: boolean;
  /** The pages that move (or would), the moved page first, then nested pages by path. */
  moved: Array<{ from: string; to: string }>;
  /** Nested pages the caller cannot see that move along (they are not listed). */
  hidden: number;
  /** Links that point to a moved page's old path and so open a missing page afterwards (from visible pages). */
  brokenLinks: Array<{ page: string; title: string; target: string }>;
}

/**
 * Moves a page to a new path; nested pages move too (W6). Links are not rewritten: links to the old paths
 * now point to missing pages, and `brokenLinks` lists them. With `dryRun` nothing changes and the answer says
 * what would move and which links would break. Nothing is overwritten: a page at a target path refuses the
 * move with already_exists. No new version is saved (the content does not change).
 *
 * @example
 * await movePage(ctx, { from: 'handbook', to: 'guide', dryRun: true })
 * // { dryRun: true, moved: [{ from: 'handbook', to: 'guide' }, { from: 'handbook/refunds', to: 'guide/refunds' }], hidden: 0, brokenLinks: [...] }
 */
export async function movePage(ctx: Ctx, input: { from: string; to: string; dryRun?: boolean }): Promise<MoveResult> {
  assertCan(ctx.actor, 'wiki.write', { kind: 'project' });
  const from = normalizeWikiPath(input.from);
  const to = normalizeWikiPath(input.to);
  if (to !== from && isAtOrBelow(to, from)) throw new StoaError('bad_request', `a page cannot move below itself ("${from}" → "${to}")`);
  const dryRun = input.dryRun === true;
  return inTx(ctx.platform, async (trx) => {
    const db = trx;
    const viewer = await wikiViewer(ctx, trx);
    const { lo, hi } = subtreeRange(from);
    let q = db
      .selectFrom('wiki_pages')
      .selectAll()
      .where('project_id', '=', ctx.project.id)
      .where((eb) => eb.or([eb('path', '=', from), eb.and([eb('path', '>=', lo), eb('path', '<', hi)])]));
    if (ctx.platform.db.dialect === 'postgres') q = q.forUpdate();
    const rows = (await q.execute()).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const top = rows.find((r) => r.path === from);
    if ((top && !viewer.sees(top)) || !rows.some((r) => viewer.sees(r))) throw new StoaError('not_found', `page "${from}" does not exist`);
    if (to === from) return { dryRun, moved: [], hidden: 0, brokenLinks: [] };
    const plan = rows.map((r) => ({ row: r, to: normalizeWikiPath(to + r.path.slice(from.length)) }));
    const ids = new Set(rows.map((r) => r.id));
    for (let i = 0; i < plan.length; i += 500) {
      const chunk = plan.slice(i, i + 500).map((p) => p.to);
      const taken = (
        await db.selectFrom('wiki_pages').select(['id', 'path']).where('project_id', '=', ctx.project.id).where('path', 'in', chunk).execute()
      ).filter((t) => !ids.has(t.id));
      if (taken.length > 0) throw new StoaError('already_exists', `a page already exists at "${taken[0]!.path}"; nothing was moved`);
    }
    const oldPaths = rows.map((r) => r.path);
    const broken: MoveResult['brokenLinks'] = [];
    for (let i = 0; i < oldPaths.length; i += 500) {
      const links = await visibleOnly(
        db
          .selectFrom('wiki_links')
          .innerJoin('wiki_pages', 'wiki_pages.id', 'wiki_links.from_page_id')
          .select(['wiki_pages.path', 'wiki_pages.title', 'wiki_links.to_path'])
          .where('wiki_links.project_id', '=', ctx.project.id)
          .where('wiki_links.to_path', 'in', oldPaths.slice(i, i + 500)),
        viewer.channels,
      ).execute();
      broken.push(...links.map((l) => ({ page: l.path, title: effectiveTitle(l.title, l.path), target: l.to_path })));
    }
    broken.sort((a, b) => (a.page + '\n' + a.target < b.page + '\n' + b.target ? -1 : 1));
    const result: MoveResult = {
      dryRun,
      moved: plan.filter((p) => viewer.sees(p.row)).map((p) => ({ from: p.row.path, to: p.to })),
      hidden: plan.filter((p) => !viewer.sees(p.row)).length,
      brokenLinks: broken,
    };
    if (dryRun) return result;
    // Shorter old paths first: when moving up (a/x → a), a/x must leave before a/x/x takes its place.
    for (const p of [...plan].sort((a, b) => a.row.path.length - b.row.path.length)) {
      await db.updateTable('wiki_pages').set({ path: p.to }).where('id', '=', p.row.id).execute();
    }
    // Every moved page's search entry (path, and the title derived from it) follows after the commit, hidden ones too.
    await enqueueWikiPages(
      trx,
      ctx,
      plan.map((p) => ({ id: p.row.id, version: p.row.version, path: p.to })),
      ctx.platform.clock().toISOString(),
    );
    return result;
  });
}
