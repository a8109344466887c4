/**
 * Hybrid search: quality and speed in one run.
 *
 *   node --import tsx bench/search-hybrid.ts [chunks] [queries] [--speed]   (npm run bench:hybrid; --speed skips quality)
 *   node --import tsx bench/search-hybrid.ts [chunks] [queries] --speed --pg [--scan]
 *       (speed on PostgreSQL: pgvector where installed; --scan: the in-process scan instead, for the comparison)
 *   node --import tsx bench/search-hybrid.ts [chunks] --tiny-onnx            (the ONNX provider on the tiny test model)
 *   node --import tsx bench/search-hybrid.ts [chunks] --tiny-onnx=6x384x256  (… with 6 feed-forward layers 384 wide, 256 tokens)
 *   node --import tsx bench/search-hybrid.ts [chunks] --use-lite              (a real model: Universal Sentence Encoder lite)
 *
 * Quality: nDCG@10 and recall@10 of lexical, vector and hybrid search on the test collections in
 * ../shared/datasets, with the embedding provider configured in the environment (STOA_EMBEDDINGS_URL,
 * STOA_EMBEDDINGS_MODEL, STOA_EMBEDDINGS_KEY — any OpenAI-compatible endpoint: Ollama, vLLM, TEI, a hosted API —
 * or STOA_EMBEDDINGS_MODEL_PATH, a local ONNX model folder). Without one it says so and measures with the
 * embeddings test double instead (hashed words and a few synonyms: not a language model, so its numbers show
 * the pipeline works, not what a model gains).
 *
 * Speed: `chunks` synthetic chunks (default 100,000) embedded through the test double, which answers at
 * memory speed: embedding throughput is compared with the double's own rate (the same batches sent straight
 * to it, nothing stored) as the limit; then p50/p99 of lexical, vector and hybrid search over them.
 *
 * Local ONNX model (STOA_EMBEDDINGS_MODEL_PATH, or --tiny-onnx: the tiny test model of tiny-onnx-model.ts, built
 * in a temporary folder — a graph that only looks words up, not a language model): the same chunks embedded by
 * Stoa (read, embed, store) and by the provider alone, against the bare runtime (ONNX Runtime's `run` on the
 * same tokenised batches, nothing else) as the limit.
 *
 * --use-lite: a real language model from the npm registry (Universal Sentence Encoder lite, English, see
 * embeddings-server.ts), served in its own process over the OpenAI-compatible protocol and used by Stoa through
 * its HTTP provider: quality on the collections, then embedding throughput against the same model called
 * directly in this process (the limit). BENCH_DATASETS=cranfield,… picks collections.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
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
import { tinyOnnxModelFolder } from '../packages/core/src/embeddings/tiny-onnx-model.js';
import { percentile } from './lib/stats.js';
import { loadSentenceEncoder } from './embeddings-server.js';
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
  const only = process.env.BENCH_DATASETS?.split(',');
  for (const name of DATASETS.filter((d) => !only || only.includes(d))) {
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
    await platform.embeddings?.close?.();
    dispose();
    await idx.close();
  }
}

function* syntheticChunks(words: string[], count = CHUNKS): Generator<Doc> {
  const rand = seededRandom(7);
  for (let i = 0; i < count; i++) {
    const n = 40 + Math.floor(rand() * 160);
    const text = Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]!).join(' ');
    yield { id: `c${i}`, title: `chunk ${i}`, text };
  }
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

function cranfieldWords(): string[] {
  return loadDataset('cranfield', datasetsDir()).docs.flatMap((d) => d.text.split(/\s+/).filter((w) => /^[a-z]{3,}$/.test(w)));
}

/**
 * What one inference costs the bare runtime: the texts tokenised as the provider does (its tokenizer, cut at
 * model_max_length keeping the closing special token, padded per batch), then only ONNX Runtime's `run` timed.
 */
async function bareRuntimeRate(modelPath: string, texts: string[], batch: number): Promise<number> {
  const ort = await import('onnxruntime-node');
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const json = (f: string) => JSON.parse(readFileSync(join(modelPath, f), 'utf8')) as Record<string, any>;
  const tokenizerConfig = existsSync(join(modelPath, 'tokenizer_config.json')) ? json('tokenizer_config.json') : {};
  const tokenizer = new Tokenizer(json('tokenizer.json'), tokenizerConfig);
  const max = Math.min(Number(tokenizerConfig.model_max_length) < 1e6 ? Number(tokenizerConfig.model_max_length) : 512, 512);
  const file = existsSync(join(modelPath, 'onnx/model.onnx')) ? join(modelPath, 'onnx/model.onnx') : join(modelPath, 'model.onnx');
  const threads = process.env.STOA_EMBEDDINGS_THREADS ? { intraOpNumThreads: Number(process.env.STOA_EMBEDDINGS_THREADS), interOpNumThreads: 1 } : {};
  const session = await ort.InferenceSession.create(file, { executionProviders: ['cpu'], graphOptimizationLevel: 'all', logSeverityLevel: 3, ...threads });
  const feeds: Array<Record<string, InstanceType<typeof ort.Tensor>>> = [];
  for (let i = 0; i < texts.length; i += batch) {
    const rows = texts.slice(i, i + batch).map((t) => {
      const ids = (tokenizer.encode(t).ids as Array<number | undefined>).map((x) => x ?? 0);
      return ids.length <= max ? ids : [...ids.slice(0, max - 1), ids[ids.length - 1]!];
    });
    const seq = Math.max(...rows.map((r) => r.length));
    const ids = new BigInt64Array(rows.length * seq);
    const mask = new BigInt64Array(rows.length * seq);
    rows.forEach((r, j) => r.forEach((id, k) => ((ids[j * seq + k] = BigInt(id)), (mask[j * seq + k] = 1n))));
    const tensors: Record<string, BigInt64Array> = { input_ids: ids, attention_mask: mask, token_type_ids: new BigInt64Array(rows.length * seq) };
    feeds.push(Object.fromEntries(session.inputNames.map((n) => [n, new ort.Tensor('int64', tensors[n]!, [rows.length, seq])])));
  }
  const t0 = performance.now();
  for (const f of feeds) await session.run(f);
  const rate = texts.length / ((performance.now() - t0) / 1000);
  await session.release();
  return rate;
}

/** Embedding throughput with the local ONNX model: Stoa, the provider alone, and the bare runtime (the limit). */
async function onnxSpeed(modelPath: string, label: string, chunks: number): Promise<void> {
  const env = {
    STOA_EMBEDDINGS_MODEL_PATH: modelPath,
    ...(process.env.STOA_EMBEDDINGS_BATCH ? { STOA_EMBEDDINGS_BATCH: process.env.STOA_EMBEDDINGS_BATCH } : {}),
  };
  const docs = [...syntheticChunks(cranfieldWords(), chunks)];
  const idx = await stoaIndex(docs);
  const { platform, dispose } = platformOn(idx.db, env);
  const provider = platform.embeddings!;
  const model = await provider.model(); // loads it: the load is not timed
  const texts = docs.map((d) => embedInput(d.title, d.text).text);
  const bare = await bareRuntimeRate(modelPath, texts, provider.batchSize);
  const { alone, stoa } = await providerAndStoaRates(platform, texts);
  console.log(`\n## Local ONNX embeddings: ${label} (${model}), ${chunks.toLocaleString('en')} chunks, batch ${provider.batchSize}\n`);
  console.log('| chunks/s | Stoa (read, embed, store) | provider alone (tokenise, run, pool) | bare runtime (run only: the limit) |');
  console.log('| --- | --- | --- | --- |');
  console.log(`| rate | ${stoa.toFixed(0)} (${(stoa / bare).toFixed(2)}×) | ${alone.toFixed(0)} (${(alone / bare).toFixed(2)}×) | ${bare.toFixed(0)} |`);
  await provider.close?.();
  dispose();
  await idx.close();
}

/**
 * Chunks per second of the embeddings provider called alone, batch by batch, and of Stoa embedding the same
 * chunks from its index (read, embed, store): the two rates every embedding bench sets beside its limit.
 */
async function providerAndStoaRates(platform: Platform, texts: string[]): Promise<{ alone: number; stoa: number }> {
  const provider = platform.embeddings!;
  const t1 = performance.now();
  for (let i = 0; i < texts.length; i += provider.batchSize) await provider.embed(texts.slice(i, i + provider.batchSize));
  const alone = texts.length / ((performance.now() - t1) / 1000);
  const t2 = performance.now();
  const embedded = await embedAll(platform);
  return { alone, stoa: embedded / ((performance.now() - t2) / 1000) };
}

/** Starts embeddings-server.ts in its own process, as a user runs a model server beside Stoa. */
async function startModelServer(): Promise<{ url: string; model: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./embeddings-server.ts', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`the embeddings server exited with ${code}`)));
  });
  const [, url, model] = /listening on (\S+) model (\S+)/.exec(line) ?? [];
  if (!url || !model) throw new Error(`unexpected line from the embeddings server: ${line}`);
  return { url, model, stop: () => child.kill('SIGTERM') };
}

/** Embedding throughput with a model server: Stoa, the HTTP provider alone, and the model called in-process (the limit). */
async function modelServerSpeed(env: Record<string, string>, chunks: number): Promise<void> {
  const docs = [...syntheticChunks(cranfieldWords(), chunks)];
  const idx = await stoaIndex(docs);
  const { platform, dispose } = platformOn(idx.db, env);
  const provider = platform.embeddings!;
  const texts = docs.map((d) => embedInput(d.title, d.text).text);
  const encoder = await loadSentenceEncoder();
  const t0 = performance.now();
  for (let i = 0; i < texts.length; i += provider.batchSize) await encoder.embed(texts.slice(i, i + provider.batchSize));
  const bare = texts.length / ((performance.now() - t0) / 1000);
  const { alone, stoa } = await providerAndStoaRates(platform, texts);
  console.log(`\n## Embedding throughput: ${await provider.model()}, ${chunks.toLocaleString('en')} chunks, batch ${provider.batchSize}\n`);
  console.log('| chunks/s | Stoa (read, embed over HTTP, store) | HTTP provider alone | model called in-process (the limit) |');
  console.log('| --- | --- | --- | --- |');
  console.log(`| rate | ${stoa.toFixed(1)} (${(stoa / bare).toFixed(2)}×) | ${alone.toFixed(1)} (${(alone / bare).toFixed(2)}×) | ${bare.toFixed(1)} |`);
  dispose();
  await idx.close();
}

async function speed(kind: 'sqlite' | 'postgres', scanOnly: boolean): Promise<void> {
  const double = await startEmbeddingDouble({ dims: 384 });
  const env = { STOA_EMBEDDINGS_URL: double.url, STOA_EMBEDDINGS_MODEL: double.model, STOA_EMBEDDINGS_BATCH: '64' };
  const words = cranfieldWords();
  const docs = [...syntheticChunks(words)];
  const t0 = performance.now();
  const idx = await stoaIndex(docs, undefined, kind, kind === 'postgres' ? 500 : 1000);
  console.error(`  indexed ${CHUNKS} chunks (lexical) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // --scan: as on an installation without sqlite-vec or pgvector.
  const { platform, dispose } = platformOn(scanOnly ? { ...idx.db, vectorFunctions: async () => false } : idx.db, env);

  // The limit: the same batches sent straight to the provider, nothing read or stored.
  const texts = docs.map((d) => embedInput(d.title, d.text).text);
  const t1 = performance.now();
  for (let i = 0; i < texts.length; i += 64) await platform.embeddings!.embed(texts.slice(i, i + 64));
  const rawRate = texts.length / ((performance.now() - t1) / 1000);
  const t2 = performance.now();
  const embedded = await embedAll(platform);
  const rate = embedded / ((performance.now() - t2) / 1000);
  // As autovacuum leaves a table that has settled (the lexical tables got theirs in stoaIndex).
  if (kind === 'postgres') await sql`vacuum analyze search_vectors`.execute(idx.db.kysely);

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
  const inDb = await platform.db.vectorFunctions();
  const engine = !inDb ? 'in-process scan' : kind === 'postgres' ? 'with pgvector' : 'with sqlite-vec';
  console.log(
    `\n## Speed over ${CHUNKS.toLocaleString('en')} chunks (${kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}, ${engine}, 384 dimensions, test double as the provider)\n`,
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

const modelPath = process.env.STOA_EMBEDDINGS_MODEL_PATH;
const configured = (process.env.STOA_EMBEDDINGS_URL && process.env.STOA_EMBEDDINGS_MODEL) || modelPath;
const tinyArg = process.argv.find((a) => a === '--tiny-onnx' || a.startsWith('--tiny-onnx='));
if (tinyArg) {
  // The tiny test model knows 38 tokens: its quality means nothing, its speed shows Stoa's own cost per chunk;
  // with =LAYERSxWIDTHxTOKENS it also costs what an encoder of that size costs (without attention).
  const [layers, width, maxTokens] = (tinyArg.split('=')[1] ?? '').split('x').map(Number);
  const load = layers && width ? { layers, width, maxTokens: maxTokens || 256 } : undefined;
  const tiny = tinyOnnxModelFolder({ load });
  const label = load
    ? `the tiny test model with ${load.layers} feed-forward layers ${load.width} wide, ${load.maxTokens} tokens (random weights: an encoder's cost, not a language model)`
    : 'the tiny test model (tiny-onnx-model.ts: a lookup graph, not a language model)';
  await onnxSpeed(tiny.path, label, Number(args[0] ?? (load ? 1_000 : 20_000)));
  tiny.cleanup();
  process.exit(0);
}
if (process.argv.includes('--use-lite')) {
  const server = await startModelServer();
  const env = { STOA_EMBEDDINGS_URL: server.url, STOA_EMBEDDINGS_MODEL: server.model, STOA_EMBEDDINGS_BATCH: process.env.STOA_EMBEDDINGS_BATCH ?? '32' };
  try {
    if (!process.argv.includes('--speed')) await quality(env, `${server.model} (Universal Sentence Encoder lite, English only) through embeddings-server.ts`);
    await modelServerSpeed(env, Number(args[0] ?? 2_000));
  } finally {
    server.stop();
  }
  process.exit(0);
}
if (process.argv.includes('--speed')) {
  // Speed only (the quality tables take most of the run).
} else if (configured) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('STOA_EMBEDDINGS_'))) as Record<string, string>;
  await quality(
    env,
    modelPath ? `the ONNX model folder ${modelPath.split(/[\\/]/).pop()}` : `${process.env.STOA_EMBEDDINGS_MODEL} at ${process.env.STOA_EMBEDDINGS_URL}`,
  );
} else {
  console.log('\nNo embedding provider is configured (STOA_EMBEDDINGS_URL, STOA_EMBEDDINGS_MODEL): quality measured with the test double.');
  const double = await startEmbeddingDouble({ dims: 384 });
  await quality(
    { STOA_EMBEDDINGS_URL: double.url, STOA_EMBEDDINGS_MODEL: double.model, STOA_EMBEDDINGS_BATCH: '64' },
    'test double (hashed words, not a model)',
  );
  await double.close();
}
if (modelPath) await onnxSpeed(modelPath, `the ONNX model folder ${modelPath.split(/[\\/]/).pop()}`, Math.min(CHUNKS, 20_000));
await speed(process.argv.includes('--pg') ? 'postgres' : 'sqlite', process.argv.includes('--scan'));
