import { sql, type Kysely, type RawBuilder } from 'kysely';
import { hotQuery } from '../hot-query.js';
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
  const [row] = await upsertDoc(db, { ...doc, ntokens });
  const id = row!.id;
  await upsertBody(db, { id, body: doc.body });
  // A contentless table cannot UPDATE a row in place from new text; delete (a no-op for a new id) and insert.
  await deleteTerms(db, { id });
  await insertTerms(db, { id, title: terms.title.join(' '), body: terms.body.join(' ') });
  // A vector made from other text is stale: dropped here, so the embedder makes it again.
  await dropStaleVector(db, { id, hash: embedHash });
}

/** A raw statement as hotQuery builds it: compiled once per engine (every indexed write runs these, issue 30). */
const raw =
  <R>(q: (db: Kysely<DB>) => RawBuilder<R>) =>
  (db: Kysely<DB>) => ({ compile: () => q(db).compile(db) });

const upsertDoc = hotQuery((db, a: Omit<SearchDocInput, 'body'> & { ntokens: number }) =>
  raw(
    () => sql<{ id: number }>`
    insert into search_docs (project_id, kind, ref_id, path, title, visibility, updated_at, ntokens)
    values (${a.projectId}, ${a.kind}, ${a.refId}, ${a.path}, ${a.title}, ${a.visibility}, ${a.updatedAt}, ${a.ntokens})
    on conflict (project_id, kind, ref_id) do update set path = excluded.path, title = excluded.title,
      visibility = excluded.visibility, updated_at = excluded.updated_at, ntokens = excluded.ntokens
    returning id`,
  )(db),
);
const upsertBody = hotQuery((db, a: { id: number; body: string }) =>
  raw(
    () => sql`insert into search_bodies (doc_id, body) values (${a.id}, ${a.body})
    on conflict (doc_id) do update set body = excluded.body`,
  )(db),
);
const deleteTerms = hotQuery((db, a: { id: number }) => raw(() => sql`delete from search_fts where rowid = ${a.id}`)(db));
const insertTerms = hotQuery((db, a: { id: number; title: string; body: string }) =>
  raw(() => sql`insert into search_fts (rowid, title, body) values (${a.id}, ${a.title}, ${a.body})`)(db),
);
const dropStaleVector = hotQuery((db, a: { id: number; hash: string }) =>
  raw(() => sql`delete from search_vectors where doc_id = ${a.id} and text_hash <> ${a.hash}`)(db),
);

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
