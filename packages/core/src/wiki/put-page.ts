import { StoaError } from '@stoa/contract';
import { attributionOf } from '../actors.js';
import { withWriteRetry } from '../files/write-retry.js';
import { newOrderedId } from '../ids.js';
import { inTx, type Ctx, type Q } from '../platform.js';
import { assertCan } from '../policies/can.js';
import { lockPage, recordVersion, syncDerived, WIKI_MAX_TEXT_BYTES, authorName } from './page-store.js';
import { enqueueWikiPages } from '../outbox/outbox.js';
import type { PageRow } from './schema.js';
import { resolveChannel, wikiViewer } from './visibility.js';
import { effectiveTitle, normalizeWikiPath } from './wiki-paths.js';
import type { WikiPageSummary } from './types.js';
import { assertNoNul } from '../text-rules.js';

export interface PutPageInput {
  path: string;
  /** Markdown text. */
  text: string;
  /** New title; absent keeps the current one (a new page then has none and shows one derived from its path). */
  title?: string;
  /** Optimistic concurrency (W7): refuse with version_conflict unless the page is at this version (0 = must not exist). */
  base?: number;
  /** Channel (ID or name) the page belongs to; null makes it a workspace page; absent keeps it as it is. */
  channel?: string | null;
}

/** The summary of a page row. */
export function toSummary(row: PageRow): WikiPageSummary {
  return {
    path: row.path,
    title: effectiveTitle(row.title, row.path),
    version: row.version,
    channel: row.channel_id,
    updated: row.updated_at,
    updatedBy: authorName(row.updated_by_kind, row.updated_by_label),
  };
}

function checkBase(path: string, base: number | undefined, current: number): void {
  if (base === undefined) return;
  if (!Number.isInteger(base) || base < 0) throw new StoaError('bad_request', 'base version must be a non-negative integer');
  if (base !== current) {
    const message =
      current === 0
        ? `page "${path}" does not exist (you based your change on version ${base}); save without a base to create it`
        : base === 0
          ? `page "${path}" already exists at version ${current}; read it and retry with that base`
          : `page "${path}" is at version ${current}, not ${base}: someone saved after you read it; read it again and retry`;
    throw new StoaError('version_conflict', message, { currentVersion: current });
  }
}

/**
 * Reads (and locks) the page at a path for a change inside a transaction. A page the caller cannot see gets the
 * same not_found as a missing one, so channel pages stay invisible to non-participants.
 */
export async function pageForChange(trx: Q, ctx: Ctx, path: string): Promise<PageRow> {
  const viewer = await wikiViewer(ctx, trx);
  const row = await lockPage(trx, ctx, path);
  if (!row || !viewer.sees(row)) throw new StoaError('not_found', `page "${path}" does not exist`);
  return row;
}

/**
 * Creates a page or saves a new version of it (W3, W7): one transaction writes the page, its version
 * row, its links and the outbox row of its search entry (written right after the commit, outbox/drain.ts). With `base`, a save on an outdated version is refused with
 * version_conflict (HTTP 409) and the current version in `details.currentVersion`. Saving the same title, text
 * and visibility again makes no new version.
 *
 * @example
 * await putPage(ctx, { path: 'handbook/refunds', text: '# Refunds\nSee [[handbook/billing]].', title: 'Refunds' });
 * await putPage(ctx, { path: 'handbook/refunds', text: '…', base: 1 }) // version_conflict if someone saved v2
 */
export async function putPage(ctx: Ctx, input: PutPageInput): Promise<WikiPageSummary & { created: boolean; changed: boolean }> {
  assertCan(ctx.actor, 'wiki.write', { kind: 'project' });
  const path = normalizeWikiPath(input.path);
  if (typeof input.text !== 'string') throw new StoaError('bad_request', 'page text is required');
  assertNoNul(input.text, 'page text');
  if (input.title) assertNoNul(input.title, 'title');
  const bytes = Buffer.byteLength(input.text, 'utf8');
  if (bytes > WIKI_MAX_TEXT_BYTES)
    throw new StoaError('too_large', `page text is ${bytes} bytes; the limit is ${WIKI_MAX_TEXT_BYTES}`, { limit: WIKI_MAX_TEXT_BYTES });
  const title = input.title?.trim();
  if (title !== undefined && Array.from(title).length > 300) throw new StoaError('bad_request', 'title must be at most 300 characters');
  const channel = input.channel === undefined ? undefined : input.channel === null || input.channel === '' ? null : await resolveChannel(ctx, input.channel);
  const a = attributionOf(ctx.actor);
  return withWriteRetry(() =>
    inTx(ctx.platform, async (trx) => {
      const now = ctx.platform.clock().toISOString();
      const viewer = await wikiViewer(ctx, trx);
      const existing = await lockPage(trx, ctx, path);
      if (existing && !viewer.sees(existing)) {
        // One path, one page: the path is taken, but by a page this caller may not see or change.
        throw new StoaError('forbidden', `the path "${path}" belongs to a page you cannot see; choose another path`);
      }
      checkBase(path, input.base, existing?.version ?? 0);
      if (!existing) {
        const row: PageRow = {
          id: newOrderedId('wpg'),
          project_id: ctx.project.id,
          path,
          title: title ?? '',
          body: input.text,
          version: 1,
          channel_id: channel ?? null,
          created_at: now,
          created_by_kind: a.kind,
          created_by_id: a.id,
          created_by_label: a.label,
          updated_at: now,
          updated_by_kind: a.kind,
          updated_by_id: a.id,
          updated_by_label: a.label,
        };
        await trx.insertInto('wiki_pages').values(row).execute();
        await recordVersion(trx, row, 'create', a, now);
        await syncDerived(trx, ctx, row);
        return { ...toSummary(row), created: true, changed: true };
      }
      const next = { title: title ?? existing.title, body: input.text, channel_id: channel === undefined ? existing.channel_id : channel };
      if (next.title === existing.title && next.body === existing.body && next.channel_id === existing.channel_id) {
        return { ...toSummary(existing), created: false, changed: false };
      }
      const row: PageRow = {
        ...existing,
        ...next,
        version: existing.version + 1,
        updated_at: now,
        updated_by_kind: a.kind,
        updated_by_id: a.id,
        updated_by_label: a.label,
      };
      await trx
        .updateTable('wiki_pages')
        .set({ ...next, version: row.version, updated_at: now, updated_by_kind: a.kind, updated_by_id: a.id, updated_by_label: a.label })
        .where('id', '=', row.id)
        .execute();
      await recordVersion(trx, row, 'edit', a, now);
      await syncDerived(trx, ctx, row);
      return { ...toSummary(row), created: false, changed: true };
    }),
  );
}

/**
 * Renames a page: changes its title and saves a new version (W6). An empty title goes back to the one
 * derived from the path.
 *
 * @example
 * await renamePage(ctx, { path: 'handbook/refunds', title: 'Refund policy' });
 */
export async function renamePage(ctx: Ctx, input: { path: string; title: string; base?: number }): Promise<WikiPageSummary> {
  assertCan(ctx.actor, 'wiki.write', { kind: 'project' });
  const path = normalizeWikiPath(input.path);
  const title = (input.title ?? '').trim();
  assertNoNul(title, 'title');
  if (Array.from(title).length > 300) throw new StoaError('bad_request', 'title must be at most 300 characters');
  const a = attributionOf(ctx.actor);
  return inTx(ctx.platform, async (trx) => {
    const now = ctx.platform.clock().toISOString();
    const existing = await pageForChange(trx, ctx, path);
    checkBase(path, input.base, existing.version);
    if (existing.title === title) return toSummary(existing);
    const row: PageRow = {
      ...existing,
      title,
      version: existing.version + 1,
      updated_at: now,
      updated_by_kind: a.kind,
      updated_by_id: a.id,
      updated_by_label: a.label,
    };
    await trx
      .updateTable('wiki_pages')
      .set({ title, version: row.version, updated_at: now, updated_by_kind: a.kind, updated_by_id: a.id, updated_by_label: a.label })
      .where('id', '=', row.id)
      .execute();
    await recordVersion(trx, row, 'rename', a, now);
    await syncDerived(trx, ctx, row);
    return toSummary(row);
  });
}

/**
 * Deletes a page and its history (W6). Nested pages remain; links to the deleted page now show as missing.
 *
 * @example
 * await deletePage(ctx, { path: 'handbook' }) // handbook/refunds stays
 */
export async function deletePage(ctx: Ctx, input: { path: string; base?: number }): Promise<WikiPageSummary> {
  assertCan(ctx.actor, 'wiki.write', { kind: 'project' });
  const path = normalizeWikiPath(input.path);
  return inTx(ctx.platform, async (trx) => {
    const row = await pageForChange(trx, ctx, path);
    checkBase(path, input.base, row.version);
    // ON DELETE CASCADE would do this too; explicit deletes keep it true whatever the connection's pragmas.
    await trx.deleteFrom('wiki_links').where('from_page_id', '=', row.id).execute();
    await trx.deleteFrom('wiki_versions').where('page_id', '=', row.id).execute();
    await trx.deleteFrom('wiki_pages').where('id', '=', row.id).execute();
    // The drainer finds the page gone and removes its search entry, after the commit.
    await enqueueWikiPages(trx, ctx, [row], ctx.platform.clock().toISOString());
    return toSummary(row);
  });
}
