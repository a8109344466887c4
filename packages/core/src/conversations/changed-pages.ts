import { wikiViewer } from '../wiki/visibility.js';
import { effectiveTitle } from '../wiki/wiki-paths.js';
import type { Ctx } from '../platform.js';
import { inSqlBatches } from '../db-batches.js';
import { diffOf, label, noteFor, spanOf, touchedIn, type ChangeStatus, type ConversationChange } from './change-items.js';

/** The wiki items, with the text and title to restore. */
export interface WikiChange extends ConversationChange {
  kind: 'wiki';
  beforeText: string | null;
  beforeTitle: string | null;
  beforeChannel: string | null;
}

export async function wikiChanges(ctx: Ctx, conv: string): Promise<WikiChange[]> {
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
      movedSince: null,
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
