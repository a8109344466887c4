import { StoaError } from '@stoa/contract';
import type { Ctx } from '../platform.js';
import { diffLines, renderDiff, type DiffLine } from './diff.js';
import { authorName } from './page-store.js';
import { visiblePage } from './read-page.js';
import type { WikiVersionsTable } from './schema.js';
import { effectiveTitle } from './wiki-paths.js';
import type { WikiVersionInfo } from './types.js';

function toInfo(v: WikiVersionsTable, current: number): WikiVersionInfo {
  return {
    version: v.version,
    title: effectiveTitle(v.title, v.path),
    path: v.path,
    action: v.action as WikiVersionInfo['action'],
    author: authorName(v.author_kind, v.author_label),
    authorDetail: { kind: v.author_kind, id: v.author_id, label: v.author_label },
    time: v.created_at,
    size: Buffer.byteLength(v.body, 'utf8'),
    current: v.version === current,
  };
}

/**
 * A page's versions, newest first, with author and time (W2). A page the caller cannot see has no
 * history for them (not_found).
 *
 * @example
 * await pageHistory(ctx, { path: 'handbook/refunds' }) // [{ version: 2, author: 'alice', time: '…', … }, …]
 */
export async function pageHistory(ctx: Ctx, input: { path: string }): Promise<WikiVersionInfo[]> {
  const page = await visiblePage(ctx, input.path);
  const rows = await ctx.platform.db.kysely.selectFrom('wiki_versions').selectAll().where('page_id', '=', page.id).orderBy('version', 'desc').execute();
  return rows.map((r) => toInfo(r, page.version));
}

async function versionRow(ctx: Ctx, pageId: string, path: string, version: number): Promise<WikiVersionsTable> {
  if (!Number.isInteger(version) || version < 1) throw new StoaError('bad_request', 'version must be a positive integer');
  const row = await ctx.platform.db.kysely
    .selectFrom('wiki_versions')
    .selectAll()
    .where('page_id', '=', pageId)
    .where('version', '=', version)
    .executeTakeFirst();
  if (!row) throw new StoaError('not_found', `page "${path}" has no version ${version}`);
  return row;
}

/**
 * One earlier (or the current) version of a page: its title and text as saved then.
 *
 * @example
 * await showPageVersion(ctx, { path: 'handbook/refunds', version: 1 }) // { version: 1, text: '…', … }
 */
export async function showPageVersion(ctx: Ctx, input: { path: string; version: number }): Promise<WikiVersionInfo & { text: string }> {
  const page = await visiblePage(ctx, input.path);
  const v = await versionRow(ctx, page.id, page.path, input.version);
  return { ...toInfo(v, page.version), path: page.path, text: v.body };
}

/**
 * A line diff between two versions of a page (`to` defaults to the current version): the lines with their
 * operation and a readable unified rendering, plus the title change if any.
 *
 * @example
 * const d = await diffPageVersions(ctx, { path: 'handbook/refunds', from: 1, to: 2 });
 * d.text // ' # Refunds\n-5 days\n+7 days'
 */
export async function diffPageVersions(
  ctx: Ctx,
  input: { path: string; from: number; to?: number },
): Promise<{
  path: string;
  from: number;
  to: number;
  titleBefore: string;
  titleAfter: string;
  lines: DiffLine[];
  text: string;
  added: number;
  removed: number;
}> {
  const page = await visiblePage(ctx, input.path);
  const to = input.to ?? page.version;
  const a = await versionRow(ctx, page.id, page.path, input.from);
  const b = await versionRow(ctx, page.id, page.path, to);
  const lines = diffLines(a.body, b.body);
  return {
    path: page.path,
    from: a.version,
    to: b.version,
    titleBefore: effectiveTitle(a.title, a.path),
    titleAfter: effectiveTitle(b.title, b.path),
    lines,
    text: renderDiff(lines),
    added: lines.filter((l) => l.op === '+').length,
    removed: lines.filter((l) => l.op === '-').length,
  };
}
