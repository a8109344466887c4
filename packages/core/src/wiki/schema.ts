import type { Kysely } from 'kysely';
import type { DB } from '@stoa/db';
import type { Q } from '../platform.js';

/** Row types of the wiki tables (migration 004_wiki). */
export interface WikiPagesTable {
  id: string; project_id: string; path: string; title: string; body: string; version: number; channel_id: string | null;
  created_at: string; created_by_kind: string; created_by_id: string | null; created_by_label: string | null;
  updated_at: string; updated_by_kind: string; updated_by_id: string | null; updated_by_label: string | null;
}
export interface WikiVersionsTable {
  id: string; page_id: string; project_id: string; version: number; path: string; title: string; body: string;
  channel_id: string | null; action: string; author_kind: string; author_id: string | null; author_label: string | null;
  author_meta: string | null; created_at: string;
}
export interface WikiLinksTable { project_id: string; from_page_id: string; to_path: string; label: string | null; heading: string | null }

export interface WikiDB extends DB {
  wiki_pages: WikiPagesTable;
  wiki_versions: WikiVersionsTable;
  wiki_links: WikiLinksTable;
}

export type PageRow = WikiPagesTable;

/**
 * The query handle typed with the wiki tables (the shared `DB` type leaves area tables untyped).
 *
 * @example
 * const row = await wdb(trx).selectFrom('wiki_pages').selectAll().where('id', '=', id).executeTakeFirst();
 */
export function wdb(q: Q): Kysely<WikiDB> {
  return q as unknown as Kysely<WikiDB>;
}
