import { sql } from 'kysely';
import type { Platform } from '../platform.js';
import { EmbeddingError, type EmbeddingProvider } from './provider.js';
import { EMBED_CHARS, embedInput } from './embed-text.js';
import { decodeVector, encodeVector, normalize, pgvectorLiteral } from './vectors.js';

/** Consecutive provider failures after which statuses say `failed` (with the provider's reason); retries go on. */
export const FAILED_AFTER = 5;
/** Back-off after the n-th consecutive failure: 2 s, 4 s, 8 s … at most 10 minutes. */
export const backoffMs = (failures: number): number => Math.min(600_000, 2000 * 2 ** Math.max(0, failures - 1));

interface PendingDoc {
  id: number;
  project_id: string;
  title: string;
  body: string;
}

/** What one pass did: vectors written, documents the provider refused, and whether it stopped to back off. */
export interface EmbedPass {
  embedded: number;
  refused: number;
  backingOff: boolean;
}

/**
 * Embeds search documents that have no vector of the configured model (new, changed since, or made by another
 * model), in batches of the provider's size, up to `max` documents; `assetChunks` limits it to the current
 * chunks of one understood document. A provider that cannot answer (network, time-out, 429, 5xx) stops the
 * pass and backs off (`backoffMs`), recorded in `embedding_state` so every server waits; a provider that
 * refuses a batch (4xx) is asked text by text, and a text it refuses alone is recorded with the reason and not
 * asked again until its text or the model changes. A full pass also fills pgvector's column of vectors stored
 * before pgvector was enabled (fillPgvectorColumn). Does nothing without a provider.
 *
 * @example
 * await embedPending(platform); // the background loop of the server
 */
export async function embedPending(platform: Platform, opts: { max?: number; assetChunks?: { assetId: string; version: number } } = {}): Promise<EmbedPass> {
  const pass: EmbedPass = { embedded: 0, refused: 0, backingOff: false };
  const provider = platform.embeddings;
  if (!provider) return pass;
  // A model that cannot be used at all (a local folder missing or broken) is reported by vectorStatus; the
  // provider itself decides when to try its files again.
  const model = await modelOrNull(provider);
  if (model === null) return { ...pass, backingOff: true };
  // Vectors are made from the search index: what committed changes left in the outbox is indexed first.
  await platform.outbox.drainAll();
  if (!opts.assetChunks) await fillPgvectorColumn(platform);
  const db = platform.db.kysely;
  const state = await db.selectFrom('embedding_state').selectAll().where('model', '=', model).executeTakeFirst();
  if (state?.next_attempt_at && state.next_attempt_at > platform.clock().toISOString()) return { ...pass, backingOff: true };
  const max = opts.max ?? 500;
  let after = -1;
  while (pass.embedded + pass.refused < max) {
    const only = opts.assetChunks
      ? sql`and d.kind = 'chunk' and d.ref_id in (select id from doc_chunks where asset_id = ${opts.assetChunks.assetId} and version = ${opts.assetChunks.version})`
      : sql``;
    const { rows } = await sql<PendingDoc>`
      select d.id as id, d.project_id as project_id, d.title as title, b.body as body
      from search_docs d join search_bodies b on b.doc_id = d.id
      left join search_vectors v on v.doc_id = d.id
      where (v.doc_id is null or v.model <> ${model}) and d.id > ${after} ${only}
      order by d.id limit ${Math.min(provider.batchSize, max - pass.embedded - pass.refused)}`.execute(db);
    if (rows.length === 0) break;
    after = Number(rows[rows.length - 1]!.id);
    try {
      pass.embedded += await embedBatch(platform, provider, model, rows);
    } catch (e) {
      if (!(e instanceof EmbeddingError)) throw e;
      if (e.retryable) {
        await recordFailure(platform, model, e.message, state?.failures ?? 0);
        return { ...pass, backingOff: true };
      }
      // Refused: find which texts, one by one, so one bad text does not hold back the rest.
      for (const doc of rows) {
        try {
          pass.embedded += await embedBatch(platform, provider, model, [doc]);
        } catch (single) {
          if (!(single instanceof EmbeddingError)) throw single;
          if (single.retryable) {
            await recordFailure(platform, model, single.message, state?.failures ?? 0);
            return { ...pass, backingOff: true };
          }
          await writeVectors(platform, model, [{ doc, vector: null, error: single.message }]);
          pass.refused++;
        }
      }
    }
  }
  if (state && state.failures > 0 && pass.embedded > 0) {
    await db
      .updateTable('embedding_state')
      .set({ failures: 0, next_attempt_at: null, last_error: null, updated_at: platform.clock().toISOString() })
      .where('model', '=', model)
      .execute();
  }
  return pass;
}

/** The provider's model name, or null (EmbeddingError) when the model cannot be used at all. */
async function modelOrNull(provider: EmbeddingProvider): Promise<string | null> {
  try {
    return await provider.model();
  } catch (e) {
    if (e instanceof EmbeddingError) return null;
    throw e;
  }
}

async function embedBatch(platform: Platform, provider: EmbeddingProvider, model: string, docs: PendingDoc[]): Promise<number> {
  const inputs = docs.map((d) => embedInput(d.title, d.body));
  const vectors = await provider.embed(inputs.map((i) => i.text));
  await writeVectors(
    platform,
    model,
    docs.map((doc, i) => ({ doc, vector: vectors[i]!, error: null, hash: inputs[i]!.hash })),
  );
  return docs.length;
}

/** One document's embedding outcome: its vector, or the provider's reason for refusing its text. */
interface VectorOutcome {
  doc: PendingDoc;
  vector: Float32Array | null;
  error: string | null;
  hash?: string;
}

/**
 * Stores the outcomes of one batch in one statement (a round trip per batch, not per document). Each is stored only
 * if its document still holds the text that was embedded: one deleted or saved again while the provider answered
 * keeps no vector, and the next pass embeds its new text.
 */
async function writeVectors(platform: Platform, model: string, outcomes: VectorOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const postgres = platform.db.dialect === 'postgres';
  const bytes = postgres ? 'bytea' : 'blob';
  const now = platform.clock().toISOString();
  // With pgvector the vector is also kept in its `vector` column, for distances in SQL (vector-rank.ts).
  const pgvector = postgres && (await platform.db.vectorFunctions());
  const rows = outcomes.map(({ doc, vector, error, hash }) => {
    const unit = vector ? normalize(vector) : null;
    const embedding = pgvector ? sql`, cast(${unit ? pgvectorLiteral(unit) : null} as vector)` : sql``;
    return sql`(cast(${Number(doc.id)} as integer), cast(${doc.title} as text), cast(${doc.body} as text), cast(${unit?.length ?? 0} as integer),
      cast(${hash ?? embedInput(doc.title, doc.body).hash} as text), cast(${unit ? encodeVector(unit) : null} as ${sql.raw(bytes)}), cast(${error} as text)${embedding})`;
  });
  const also = pgvector ? sql`, embedding` : sql``;
  await sql`
    with w(doc_id, title, body, dims, text_hash, vector, error${also}) as (values ${sql.join(rows)})
    insert into search_vectors (doc_id, project_id, model, dims, text_hash, vector, error, created_at${also})
    select d.id, d.project_id, cast(${model} as text), w.dims, w.text_hash, w.vector, w.error, cast(${now} as text)${pgvector ? sql`, w.embedding` : sql``}
    from w join search_docs d on d.id = w.doc_id join search_bodies b on b.doc_id = d.id
    where d.title = w.title and b.body = w.body
    on conflict (doc_id) do update set model = excluded.model, dims = excluded.dims, text_hash = excluded.text_hash,
      vector = excluded.vector, error = excluded.error, created_at = excluded.created_at${pgvector ? sql`, embedding = excluded.embedding` : sql``}`.execute(
    platform.db.kysely,
  );
}

/**
 * Gives vectors stored before pgvector was enabled their `vector` column, up to `max` rows, and returns how many;
 * until then vector search scans them from their bytes, so nothing is missed meanwhile.
 *
 * @example
 * await fillPgvectorColumn(platform); // each pass of the background embedder
 */
export async function fillPgvectorColumn(platform: Platform, max = 500): Promise<number> {
  if (platform.db.dialect !== 'postgres' || !(await platform.db.vectorFunctions())) return 0;
  const db = platform.db.kysely;
  const { rows } = await sql<{ id: number; vector: Uint8Array }>`
    select doc_id as id, vector from search_vectors where embedding is null and vector is not null order by doc_id limit ${max}`.execute(db);
  for (const r of rows) {
    const v = decodeVector(r.vector);
    // Only if the row still holds the same bytes: a vector rewritten meanwhile already has its column.
    await sql`update search_vectors set embedding = cast(${pgvectorLiteral(v)} as vector) where doc_id = ${r.id} and vector = ${r.vector}`.execute(db);
  }
  return rows.length;
}

async function recordFailure(platform: Platform, model: string, reason: string, before: number): Promise<void> {
  const now = platform.clock();
  const failures = before + 1;
  const row = { failures, next_attempt_at: new Date(now.getTime() + backoffMs(failures)).toISOString(), last_error: reason, updated_at: now.toISOString() };
  await platform.db.kysely
    .insertInto('embedding_state')
    .values({ model, ...row })
    .onConflict((oc) => oc.column('model').doUpdateSet(row))
    .execute();
}

/** The vector index of one understood document version, as its status reports it. */
interface VectorStatus {
  status: 'pending' | 'ready' | 'failed' | 'unavailable';
  error: string | null;
}

/**
 * Whether the chunks of a document version have vectors of the configured model: `unavailable` without a
 * provider, `ready` when all have, `failed` when the model cannot be used at all (a local model folder missing
 * or broken: the reason), when the provider refused one (its reason) or has failed `FAILED_AFTER` times in a
 * row (the last reason), `pending` otherwise.
 *
 * @example
 * await vectorStatus(platform, { assetId: 'fa_1', version: 3, parsed: true }) // { status: 'ready', error: null }
 */
export async function vectorStatus(platform: Platform, asset: { assetId: string; version: number; parsed: boolean }): Promise<VectorStatus> {
  const provider = platform.embeddings;
  if (!provider) return { status: 'unavailable', error: null };
  if (!asset.parsed) return { status: 'pending', error: null };
  let model: string;
  try {
    model = await provider.model();
  } catch (e) {
    if (!(e instanceof EmbeddingError)) throw e;
    return { status: 'failed', error: `the embedding model cannot be used: ${e.message}` };
  }
  const { rows } = await sql<{ total: number | string; ready: number | string; refused: string | null }>`
    select count(*) as total, count(v.vector) as ready, max(v.error) as refused
    from doc_chunks c join search_docs d on d.project_id = c.project_id and d.kind = 'chunk' and d.ref_id = c.id
    left join search_vectors v on v.doc_id = d.id and v.model = ${model}
    where c.asset_id = ${asset.assetId} and c.version = ${asset.version}`.execute(platform.db.kysely);
  const r = rows[0]!;
  if (r.refused) return { status: 'failed', error: `the embedding provider refused a chunk: ${r.refused}` };
  if (Number(r.ready) === Number(r.total)) return { status: 'ready', error: null };
  const state = await platform.db.kysely.selectFrom('embedding_state').selectAll().where('model', '=', model).executeTakeFirst();
  if (state && state.failures >= FAILED_AFTER)
    return { status: 'failed', error: `the embedding provider failed ${state.failures} times in a row: ${state.last_error}` };
  return { status: 'pending', error: state?.last_error ? `retrying: ${state.last_error}` : null };
}

/**
 * The query's vector for vector and hybrid search, normalised.
 *
 * @example
 * const qv = await embedQuery(platform, 'how do refunds work'); // { vector: Float32Array(384), model: 'nomic-embed-text' }
 */
export async function embedQuery(platform: Platform, text: string): Promise<{ vector: Float32Array; model: string }> {
  const provider = platform.embeddings;
  if (!provider) throw new EmbeddingError('no embedding model is configured', false);
  const model = await provider.model();
  const [v] = await provider.embed([text.slice(0, EMBED_CHARS)]);
  return { vector: normalize(v!), model };
}
