/**
 * Hybrid search: quality and speed in one run.
 *
 *   node --import tsx bench/search-hybrid.ts [chunks] [queries] [--speed]   (npm run bench:hybrid; --speed skips quality)
 *
 * Quality: nDCG@10 and recall@10 of lexical, vector and hybrid search on the test collections in
 * ../shared/datasets, with the embedding provider configured in the environment (STOA_EMBEDDINGS_URL,
 * STOA_EMBEDDINGS_MODEL, STOA_EMBEDDINGS_KEY — any OpenAI-compatible endpoint: Ollama, vLLM, TEI, a hosted API).
 * Without one it says so and measures with the embeddings test double instead (hashed words and a few
 * synonyms: not a language model, so its numbers show the pipeline works, not what a model gains).
 *
 * Speed: `chunks` synthetic chunks (default 100,000) embedded through the test double, which answers at
 * memory speed: embedding throughput is compared with the double's own rate (the same batches sent straight
 * to it, nothing stored) as the limit; then p50/p99 of lexical, vector and hybrid search over them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoaDb } from '@stoa/db';
import { createFsBlobStore } from '@stoa/blob';
import { assemblePlatform } from '../packages/core/src/open-platform.js';
import { loadConfig } from '../packages/core/src/config.js';
import type { Platform } from '../packages/core/src/platform.js';
import { embedPending, embedQuery } from '../packages/core/src/embeddings/embed-pending.js';
import { embedInput } from '../packages/core/src/embeddings/embed-text.js';
import { startEmbeddingDouble } from '../packages/core/src/embeddings/embedding-test-double.js';
import { searchDocs, type SearchMode } from '../packages/core/src/search/index.js';
import { seededRandom } from '../packages/core/src/search/test-helpers.js';
import { percentile } from './lib/stats.js';
import { DATASETS, datasetsDir, evaluate, f3, loadDataset, PROJECT, stoaIndex, type Doc } from './search-lib.js';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const CHUNKS = Number(args[0] ?? 100_000);
const QUERIES = Number(args[1] ?? 200);
const MODES: SearchMode[] = ['lexical', 'vector', 'hybrid'];

function platformOn(db: StoaDb, env: Record<string, string>): { platform: Platform; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'stoa-bench-hybrid-'));
  const config = loadConfig({ dataDir: dir, env });
  return {
    platform: assemblePlatform({ db, blobs: createFsBlobStore({ root: join(dir, 'blobs') }), config }),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function search(platform: Platform, query: string, mode: SearchMode, limit = 10): Promise<string[]> {
  const queryVector = mode === 'lexical' ? undefined : await embedQuery(platform, query);
  const hits = await searchDocs(platform.db, { projectId: PROJECT, query, visibility: ['project'], limit, mode, queryVector });
  return hits.map((h) => h.refId);
}

async function embedAll(platform: Platform): Promise<number> {
  let total = 0;
  for (;;) {
    const pass = await embedPending(platform, { max: 5000 });
    total += pass.embedded;
    if (pass.backingOff) throw new Error('the embedding provider failed; see embedding_state.last_error');
    if (pass.embedded + pass.refused === 0) return total;
  }
}

async function quality(env: Record<string, string>, label: string): Promise<void> {
  console.log(`\n## Quality (nDCG@10 / recall@10), embeddings: ${label}\n`);
  console.log('| dataset | docs | queries | lexical | vector | hybrid | hybrid / lexical |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const name of DATASETS) {
    const ds = loadDataset(name, datasetsDir());
    const idx = await stoaIndex(ds.docs);
    const { platform, dispose } = platformOn(idx.db, env);
    const t0 = performance.now();
    const n = await embedAll(platform);
    const secs = (performance.now() - t0) / 1000;
    const scores = {} as Record<SearchMode, { ndcg: number; recall: number }>;
    for (const mode of MODES) scores[mode] = await evaluate(ds, (q) => search(platform, q, mode));
    const cell = (m: SearchMode) => `${f3(scores[m].ndcg)} / ${f3(scores[m].recall)}`;
    console.log(
      `| ${name} | ${ds.docs.length} | ${ds.queries.length} | ${cell('lexical')} | ${cell('vector')} | ${cell('hybrid')} | ${(scores.hybrid.ndcg / scores.lexical.ndcg).toFixed(2)}× |`,
    );
    console.error(`  ${name}: embedded ${n} docs in ${secs.toFixed(1)} s`);
    dispose();
    await idx.close();
  }
}

function* syntheticChunks(words: string[]): Generator<Doc> {
  const rand = seededRandom(7);
  for (let i = 0; i < CHUNKS; i++) {
    const n = 40 + Math.floor(rand() * 160);
    const text = Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]!).join(' ');
    yield { id: `c${i}`, title: `chunk ${i}`, text };
  }
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

async function speed(): Promise<void> {
  const double = await startEmbeddingDouble({ dims: 384 });
  const env = { STOA_EMBEDDINGS_URL: double.url, STOA_EMBEDDINGS_MODEL: double.model, STOA_EMBEDDINGS_BATCH: '64' };
  const words = loadDataset('cranfield', datasetsDir()).docs.flatMap((d) => d.text.split(/\s+/).filter((w) => /^[a-z]{3,}$/.test(w)));
  const docs = [...syntheticChunks(words)];
  const t0 = performance.now();
  const idx = await stoaIndex(docs);
  console.error(`  indexed ${CHUNKS} chunks (lexical) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const { platform, dispose } = platformOn(idx.db, env);

  // The limit: the same batches sent straight to the provider, nothing read or stored.
  const texts = docs.map((d) => embedInput(d.title, d.text).text);
  const t1 = performance.now();
  for (let i = 0; i < texts.length; i += 64) await platform.embeddings!.embed(texts.slice(i, i + 64));
  const rawRate = texts.length / ((performance.now() - t1) / 1000);
  const t2 = performance.now();
  const embedded = await embedAll(platform);
  const rate = embedded / ((performance.now() - t2) / 1000);

  const rand = seededRandom(11);
  const queries = Array.from({ length: QUERIES }, () =>
    Array.from({ length: 1 + Math.floor(rand() * 3) }, () => words[Math.floor(rand() * words.length)]!).join(' '),
  );
  const times = {} as Record<SearchMode, number[]>;
  for (const mode of MODES) {
    times[mode] = [];
    for (const q of queries) {
      const t = performance.now();
      await search(platform, q, mode);
      times[mode].push(performance.now() - t);
    }
  }
  console.log(
    `\n## Speed over ${CHUNKS.toLocaleString('en')} chunks (SQLite${(await platform.db.vectorFunctions()) ? ' with sqlite-vec' : ', in-process scan'}, 384 dimensions, test double as the provider)\n`,
  );
  console.log(`| embedding | Stoa (read, embed, store) | provider alone (the limit) | ratio |`);
  console.log('| --- | --- | --- | --- |');
  console.log(`| chunks/s | ${rate.toFixed(0)} | ${rawRate.toFixed(0)} | ${(rate / rawRate).toFixed(2)}× |`);
  console.log(`\n| search (${QUERIES} queries, limit 10) | p50 ms | p99 ms |`);
  console.log('| --- | --- | --- |');
  for (const mode of MODES) console.log(`| ${mode} | ${percentile(sorted(times[mode]), 50).toFixed(1)} | ${percentile(sorted(times[mode]), 99).toFixed(1)} |`);
  dispose();
  await idx.close();
  await double.close();
}

const configured = process.env.STOA_EMBEDDINGS_URL && process.env.STOA_EMBEDDINGS_MODEL;
if (process.argv.includes('--speed')) {
  // Speed only (the quality tables take most of the run).
} else if (configured) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('STOA_EMBEDDINGS_'))) as Record<string, string>;
  await quality(env, `${process.env.STOA_EMBEDDINGS_MODEL} at ${process.env.STOA_EMBEDDINGS_URL}`);
} else {
  console.log('\nNo embedding provider is configured (STOA_EMBEDDINGS_URL, STOA_EMBEDDINGS_MODEL): quality measured with the test double.');
  const double = await startEmbeddingDouble({ dims: 384 });
  await quality(
    { STOA_EMBEDDINGS_URL: double.url, STOA_EMBEDDINGS_MODEL: double.model, STOA_EMBEDDINGS_BATCH: '64' },
    'test double (hashed words, not a model)',
  );
  await double.close();
}
await speed();
