/**
 * The one search over mixed kinds (issue 31): nDCG@10 and MRR@10 on bench/mixed-kinds/ (wiki pages, memory files,
 * files and small log files in English, Russian and Chinese; see mixed-kinds-build.ts), for the ranking before
 * (one BM25 list over every kind, as the one search ranked until issue 31) and after (`rankLanes`: per-kind
 * normalisation, title and path weights, length prior).
 *
 *   npm run bench:search-mixed              # SQLite
 *   npm run bench:search-mixed -- --pg      # PostgreSQL too (STOA_TEST_PG's server)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb } from '@stoa/db';
import { createTestDb } from '@stoa/db/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { indexDocs, rankDocs } from '../packages/core/src/search/index.js';
import { rankLanes } from '../packages/core/src/search/blend.js';
import { seedProject } from '../packages/core/src/search/test-helpers.js';
import { f3, metrics } from './search-lib.js';

interface MixedDoc {
  id: string;
  kind: string;
  path: string;
  title: string;
  text: string;
}
const PROJECT = 'prj_mixed';
const KINDS = ['wiki', 'memory', 'file'];
const root = join(fileURLToPath(new URL('.', import.meta.url)), 'mixed-kinds');
const jsonl = <T>(f: string): T[] =>
  readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

function mrr(ranked: string[], rels: Map<string, number>): number {
  const i = ranked.findIndex((id) => rels.has(id));
  return i < 0 ? 0 : 1 / (i + 1);
}

const dialects: Array<'sqlite' | 'postgres'> = process.argv.includes('--pg') ? ['sqlite', 'postgres'] : ['sqlite'];
const rows: string[][] = [];
for (const dialect of dialects) {
  for (const lang of ['en', 'ru', 'zh']) {
    const docs = jsonl<MixedDoc>(join(root, lang, 'docs.jsonl'));
    const queries = jsonl<{ id: string; text: string; set: string }>(join(root, lang, 'queries.jsonl'));
    const qrels = new Map<string, Map<string, number>>();
    for (const line of readFileSync(join(root, lang, 'qrels.tsv'), 'utf8')
      .split('\n')
      .slice(1)) {
      const [q, d, r] = line.split('\t');
      if (!q || !d || !r) continue;
      if (!qrels.has(q)) qrels.set(q, new Map());
      qrels.get(q)!.set(d, Number(r));
    }
    const pg = dialect === 'postgres' ? await createTestDb('postgres') : undefined;
    const dir = mkdtempSync(join(tmpdir(), 'stoa-bench-mixed-'));
    const db = pg ? pg.db : await openDb({ kind: 'sqlite', file: join(dir, 'stoa.db') });
    await seedProject(db.kysely, PROJECT);
    const index = { kysely: db.kysely, dialect };
    await db.kysely.transaction().execute((trx) =>
      indexDocs(
        { kysely: trx, dialect },
        docs.map((d) => ({
          projectId: PROJECT,
          kind: d.kind,
          refId: d.id,
          path: d.path,
          title: d.title,
          body: d.text,
          visibility: 'project',
          updatedAt: '2024-01-01T00:00:00.000Z',
        })),
      ),
    );
    for (const set of ['judged', 'named']) {
      const qs = queries.filter((q) => q.set === set);
      const score = { before: { ndcg: 0, mrr: 0 }, after: { ndcg: 0, mrr: 0 } };
      for (const q of qs) {
        const rels = qrels.get(q.id) ?? new Map<string, number>();
        const before = (await rankDocs(index, { projectId: PROJECT, query: q.text, visibility: ['project'], limit: 10 })).map((r) => r.refId);
        const after = (
          await rankLanes(index, { projectId: PROJECT, query: q.text, lanes: KINDS.map((kind) => ({ kind, visibility: ['project'] })), limit: 10 })
        ).map((r) => r.refId);
        score.before.ndcg += metrics(before, rels).ndcg;
        score.before.mrr += mrr(before, rels);
        score.after.ndcg += metrics(after, rels).ndcg;
        score.after.mrr += mrr(after, rels);
      }
      const n = qs.length;
      const b = { ndcg: score.before.ndcg / n, mrr: score.before.mrr / n };
      const a = { ndcg: score.after.ndcg / n, mrr: score.after.mrr / n };
      rows.push([
        dialect,
        lang,
        set,
        String(n),
        f3(b.ndcg),
        f3(a.ndcg),
        `${(a.ndcg / b.ndcg).toFixed(2)}×`,
        f3(b.mrr),
        f3(a.mrr),
        `${(a.mrr / b.mrr).toFixed(2)}×`,
      ]);
    }
    if (pg) await pg.cleanup();
    else await db.close();
    rmSync(dir, { recursive: true, force: true });
    console.error(`${dialect} ${lang}: done`);
  }
}
const header = ['back end', 'lang', 'queries', 'n', 'nDCG@10 before', 'nDCG@10 after', 'ratio', 'MRR@10 before', 'MRR@10 after', 'ratio'];
console.log(`| ${header.join(' | ')} |`);
console.log(`| ${header.map(() => '---').join(' | ')} |`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
