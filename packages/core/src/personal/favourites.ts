import { StoaError } from '@stoa/contract';
import { baseName, normalizePath } from '../paths.js';
import { inTx, type Ctx, type Q } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { wikiViewer } from '../wiki/visibility.js';
import { effectiveTitle, normalizeWikiPath } from '../wiki/wiki-paths.js';

type ItemKind = 'file' | 'folder' | 'page';

/** An item of a person's lists, where it is now. */
interface PersonalItem {
  kind: ItemKind;
  path: string;
  name: string;
  at: string;
}

/** Stars a person may keep per project: the list is shown whole, so it stays short enough to read. */
const MAX_FAVOURITES = 500;
/** Opened items remembered per person and project; older ones are forgotten. */
export const MAX_RECENT = 50;

/** The person calling: favourites and recent items are people's own; agents have none. */
function personOf(ctx: Ctx): string {
  if (ctx.actor.kind !== 'user') throw new StoaError('forbidden', 'only people keep favourites and recent items');
  return ctx.actor.userId;
}

/** What a kind's item needs to be read, checked before it is looked up so a refusal says nothing of it. */
function assertReads(ctx: Ctx, kind: ItemKind): void {
  assertCan(ctx.actor, kind === 'page' ? 'wiki.read' : 'file.read', kind === 'page' ? { kind: 'project' } : { kind: 'file', path: '' });
}

/**
 * The item at a path as the caller sees it, with the key that survives a rename or move (a file's or page's ID, a
 * folder's path). A missing item and one the caller may not read are the same not_found.
 */
async function resolveItem(ctx: Ctx, kind: ItemKind, rawPath: string, q: Q): Promise<{ target: string; path: string; name: string }> {
  assertReads(ctx, kind);
  const pid = ctx.project.id;
  if (kind === 'page') {
    const path = normalizeWikiPath(rawPath);
    const viewer = await wikiViewer(ctx, q);
    const row = await q
      .selectFrom('wiki_pages')
      .select(['id', 'path', 'title', 'channel_id'])
      .where('project_id', '=', pid)
      .where('path', '=', path)
      .executeTakeFirst();
    if (!row || !viewer.sees(row)) throw new StoaError('not_found', `page "${path}" does not exist`);
    return { target: row.id, path: row.path, name: effectiveTitle(row.title, row.path) };
  }
  if (kind === 'folder') {
    const path = normalizePath(rawPath, 'folder');
    assertCan(ctx.actor, 'file.read', { kind: 'file', path });
    const row = await q.selectFrom('dirs').select('path').where('project_id', '=', pid).where('path', '=', path).executeTakeFirst();
    if (!row) throw new StoaError('not_found', `folder "${path}" does not exist`);
    return { target: row.path, path: row.path, name: baseName(row.path) };
  }
  const path = normalizePath(rawPath);
  assertCan(ctx.actor, 'file.read', { kind: 'file', path });
  const row = await q.selectFrom('files').select(['id', 'path', 'name']).where('project_id', '=', pid).where('path', '=', path).executeTakeFirst();
  if (!row) throw new StoaError('not_found', `file "${path}" does not exist`);
  return { target: row.id, path: row.path, name: row.name };
}

/**
 * Rows of a list turned into items where they are now, keeping only what the caller may still read and what
 * still exists (B13): a file deleted, a folder removed, a page of a channel the person left are left out, so a star
 * never tells what one may no longer see.
 */
async function presentItems(ctx: Ctx, rows: Array<{ kind: string; target: string; at: string }>): Promise<PersonalItem[]> {
  const q = ctx.platform.db.kysely;
  const pid = ctx.project.id;
  const ids = (k: string) => rows.filter((r) => r.kind === k).map((r) => r.target);
  const found = new Map<string, { path: string; name: string }>();
  const fileIds = ids('file');
  const folderPaths = ids('folder');
  const pageIds = ids('page');
  const canFiles = fileIds.length + folderPaths.length > 0 && refusal(() => assertReads(ctx, 'file')) === null;
  if (canFiles && fileIds.length > 0) {
    for (const part of chunks(fileIds)) {
      const files = await q.selectFrom('files').select(['id', 'path', 'name']).where('project_id', '=', pid).where('id', 'in', part).execute();
      for (const f of files) if (refusal(() => assertCan(ctx.actor, 'file.read', { kind: 'file', path: f.path })) === null) found.set(`file:${f.id}`, f);
    }
  }
  if (canFiles && folderPaths.length > 0) {
    for (const part of chunks(folderPaths)) {
      const dirs = await q.selectFrom('dirs').select('path').where('project_id', '=', pid).where('path', 'in', part).execute();
      for (const d of dirs) found.set(`folder:${d.path}`, { path: d.path, name: baseName(d.path) });
    }
  }
  if (pageIds.length > 0 && refusal(() => assertReads(ctx, 'page')) === null) {
    const viewer = await wikiViewer(ctx, q);
    for (const part of chunks(pageIds)) {
      const pages = await q
        .selectFrom('wiki_pages')
        .select(['id', 'path', 'title', 'channel_id'])
        .where('project_id', '=', pid)
        .where('id', 'in', part)
        .execute();
      for (const p of pages) if (viewer.sees(p)) found.set(`page:${p.id}`, { path: p.path, name: effectiveTitle(p.title, p.path) });
    }
  }
  return rows.flatMap((r) => {
    const f = found.get(`${r.kind}:${r.target}`);
    return f ? [{ kind: r.kind as ItemKind, path: f.path, name: f.name, at: r.at }] : [];
  });
}

function refusal(check: () => void): unknown {
  try {
    check();
    return null;
  } catch (e) {
    return e;
  }
}

/** IN lists stay well under either back end's limit on bound values. */
function chunks<T>(all: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < all.length; i += size) out.push(all.slice(i, i + size));
  return out;
}

/**
 * The caller's starred files, folders and wiki pages in the project, newest star first, each where it is now.
 *
 * @example
 * await listFavourites(ctx) // [{ kind: 'file', path: 'reports/q1.md', name: 'q1.md', at: '2026-…' }]
 */
export async function listFavourites(ctx: Ctx): Promise<PersonalItem[]> {
  const me = personOf(ctx);
  const rows = await ctx.platform.db.kysely
    .selectFrom('favourites')
    .select(['kind', 'target', 'created_at as at'])
    .where('project_id', '=', ctx.project.id)
    .where('user_id', '=', me)
    .orderBy('created_at', 'desc')
    .orderBy('target')
    .execute();
  return presentItems(ctx, rows);
}

/**
 * Stars an item the caller can read (again: nothing changes).
 *
 * @example
 * await starItem(ctx, { kind: 'page', path: 'handbook/refunds' })
 */
export async function starItem(ctx: Ctx, input: { kind: ItemKind; path: string }): Promise<PersonalItem> {
  const me = personOf(ctx);
  const at = ctx.platform.clock().toISOString();
  return inTx(ctx.platform, async (trx) => {
    const item = await resolveItem(ctx, input.kind, input.path, trx);
    const had = await trx
      .selectFrom('favourites')
      .select('created_at')
      .where('project_id', '=', ctx.project.id)
      .where('user_id', '=', me)
      .where('kind', '=', input.kind)
      .where('target', '=', item.target)
      .executeTakeFirst();
    if (had) return { kind: input.kind, path: item.path, name: item.name, at: had.created_at };
    const { n } = await trx
      .selectFrom('favourites')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', ctx.project.id)
      .where('user_id', '=', me)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_FAVOURITES) throw new StoaError('too_large', `you have ${MAX_FAVOURITES} favourites in this project; remove some first`);
    await trx
      .insertInto('favourites')
      .values({ project_id: ctx.project.id, user_id: me, kind: input.kind, target: item.target, created_at: at })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return { kind: input.kind, path: item.path, name: item.name, at };
  });
}

/**
 * Removes the caller's star from an item (none: nothing happens).
 *
 * @example
 * await unstarItem(ctx, { kind: 'file', path: 'reports/q1.md' }) // { ok: true }
 */
export async function unstarItem(ctx: Ctx, input: { kind: ItemKind; path: string }): Promise<{ ok: true }> {
  const me = personOf(ctx);
  const q = ctx.platform.db.kysely;
  const item = await resolveItem(ctx, input.kind, input.path, q).catch((e: unknown) => {
    if (e instanceof StoaError && e.code === 'not_found') return null;
    throw e;
  });
  if (item)
    await q
      .deleteFrom('favourites')
      .where('project_id', '=', ctx.project.id)
      .where('user_id', '=', me)
      .where('kind', '=', input.kind)
      .where('target', '=', item.target)
      .execute();
  return { ok: true };
}

/**
 * Notes that the caller opened a file or page now; the person's list keeps the latest MAX_RECENT.
 *
 * @example
 * await recordOpened(ctx, { kind: 'file', path: 'reports/q1.md' })
 */
export async function recordOpened(ctx: Ctx, input: { kind: 'file' | 'page'; path: string }): Promise<PersonalItem> {
  const me = personOf(ctx);
  const at = ctx.platform.clock().toISOString();
  return inTx(ctx.platform, async (trx) => {
    const item = await resolveItem(ctx, input.kind, input.path, trx);
    await trx
      .insertInto('recent_items')
      .values({ project_id: ctx.project.id, user_id: me, kind: input.kind, target: item.target, opened_at: at })
      .onConflict((oc) => oc.columns(['project_id', 'user_id', 'kind', 'target']).doUpdateSet({ opened_at: at }))
      .execute();
    const old = await trx
      .selectFrom('recent_items')
      .select(['kind', 'target'])
      .where('project_id', '=', ctx.project.id)
      .where('user_id', '=', me)
      .orderBy('opened_at', 'desc')
      .orderBy('kind')
      .orderBy('target')
      .offset(MAX_RECENT)
      .limit(MAX_RECENT)
      .execute();
    for (const o of old)
      await trx
        .deleteFrom('recent_items')
        .where('project_id', '=', ctx.project.id)
        .where('user_id', '=', me)
        .where('kind', '=', o.kind)
        .where('target', '=', o.target)
        .execute();
    return { kind: input.kind, path: item.path, name: item.name, at };
  });
}

/**
 * The files and pages the caller opened lately in the project, the latest first, each where it is now.
 *
 * @example
 * await listRecent(ctx, { limit: 10 })
 */
export async function listRecent(ctx: Ctx, input: { limit?: number } = {}): Promise<PersonalItem[]> {
  const me = personOf(ctx);
  const rows = await ctx.platform.db.kysely
    .selectFrom('recent_items')
    .select(['kind', 'target', 'opened_at as at'])
    .where('project_id', '=', ctx.project.id)
    .where('user_id', '=', me)
    .orderBy('opened_at', 'desc')
    .orderBy('kind')
    .orderBy('target')
    .execute();
  return (await presentItems(ctx, rows)).slice(0, input.limit ?? 20);
}
