import { sql, type Kysely } from 'kysely';
import type { DB } from '@stoa/db';
import { fts5Expression, type IndexTerms } from './terms.js';
import type { SearchTuning } from './tuning.js';
import type { RankRequest, RankedRow, SearchDocInput } from './types.js';
import { docFilters } from './doc-filters.js';

/**
 * Writes one document into `search_docs` + `search_fts` (SQLite), replacing an earlier version with the same
 * (project, kind, ref). Runs on whatever `db` is (a transaction, if the caller is in one).
 *
 * @example
 * await sqliteUpsert(trx, doc, indexTerms(doc.title, doc.body, DEFAULT_TUNING), embedInput(doc.title, doc.body).hash);
 */
export async function sqliteUpsert(db: Kysely<DB>, doc: SearchDocInput, terms: IndexTerms, embedHash: string): Promise<void> {
  const ntokens = terms.title.length + terms.body.length;
  const { rows } = await sql<{ id: number }>`
    insert into search_docs (project_id, kind, ref_id, path, title, visibility, updated_at, ntokens)
    values (${doc.projectId}, ${doc.kind}, ${doc.refId}, ${doc.path}, ${doc.title}, ${doc.visibility}, ${doc.updatedAt}, ${ntokens})
    on conflict (project_id, kind, ref_id) do update set path = excluded.path, title = excluded.title,
      visibility = excluded.visibility, updated_at = excluded.updated_at, ntokens = excluded.ntokens
    returning id`.execute(db);
  const id = rows[0]!.id;
  await sql`insert into search_bodies (doc_id, body) values (${id}, ${doc.body})
    on conflict (doc_id) do update set body = excluded.body`.execute(db);
  // A contentless table cannot UPDATE a row in place from new text; delete (a no-op for a new id) and insert.
  await sql`delete from search_fts where rowid = ${id}`.execute(db);
  await sql`insert into search_fts (rowid, title, body) values (${id}, ${terms.title.join(' ')}, ${terms.body.join(' ')})`.execute(db);
  // A vector made from other text is stale: dropped here, so the embedder makes it again.
  await sql`delete from search_vectors where doc_id = ${id} and text_hash <> ${embedHash}`.execute(db);
}

/**
 * Ranks the documents matching all (AND) or any (OR) of the terms with FTS5 bm25() (negated, so higher is
 * better), title weighted above body.
 *
 * @example
 * const rows = await sqliteRank(db, { projectId, terms: ['refund'], visibility: ['project'], limit: 10, offset: 0, op: 'OR' }, DEFAULT_TUNING);
 */
export async function sqliteRank(db: Kysely<DB>, req: RankRequest, tuning: SearchTuning): Promise<RankedRow[]> {
  // CROSS JOIN fixes the loop order: walk the FTS matches and look each row up, never the reverse (which would
  // re-run the MATCH per document of the project).
  const { rows } = await sql<RankedRow>`
    select d.id, d.kind, d.ref_id as "refId", d.path, d.title, d.updated_at as "updatedAt",
      -bm25(search_fts, ${sql.lit(tuning.titleWeight)}, ${sql.lit(tuning.bodyWeight)}) as score
    from search_fts cross join search_docs d on d.id = search_fts.rowid
    where search_fts match ${fts5Expression(req.terms, req.op)} and ${docFilters(req)}
    order by score desc, d.path, d.ref_id
    limit ${req.limit} offset ${req.offset}`.execute(db);
  return rows;
}
