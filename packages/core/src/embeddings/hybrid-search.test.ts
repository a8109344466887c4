import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import '../unified-search/index.js';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createConversation } from '../conversations/conversations.js';
import { createAgent } from '../agents/agents.js';
import { putFile } from '../files/put-file.js';
import { deleteFile } from '../files/delete-file.js';
import type { Ctx, Platform } from '../platform.js';
import { putPage } from '../wiki/put-page.js';
import { searchAll } from '../unified-search/search-all.js';
import { searchChunks } from '../understanding/chunks.js';
import { understandFile, understandingStatus } from '../understanding/assets.js';
import { runDocsTool } from '../understanding/tools.js';
import { backoffMs, embedPending, embedQuery, FAILED_AFTER, fillPgvectorColumn } from './embed-pending.js';
import { sql } from 'kysely';
import { vectorRank } from '../search/vector-rank.js';
import { startEmbeddingDouble, type EmbeddingDouble } from './embedding-test-double.js';
import { openAiCompatibleEmbeddings } from './provider.js';

const paths = (hits: Array<{ kind?: string; path: string }>) => hits.map((h) => h.path);

describe.each(testDbKinds())('vector and hybrid search on %s', (kind) => {
  let double: EmbeddingDouble;
  let t: TestPlatform;
  let plain: TestPlatform;
  let admin: Ctx, alice: Ctx, bob: Ctx;
  let now = new Date('2026-12-01T10:00:00Z');
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));

  beforeAll(async () => {
    double = await startEmbeddingDouble();
    t = await createTestPlatform(kind, {}, { clock: () => now, embeddings: { url: double.url, model: double.model, batchSize: 4, timeoutMs: 1500 } });
    plain = await createTestPlatform(kind);
    admin = await t.admin();
    alice = await t.userCtx('alice', 'editor');
    bob = await t.userCtx('bob', 'viewer');
  });
  afterAll(async () => {
    await t?.cleanup();
    await plain?.cleanup();
    await double?.close();
  });
  beforeEach(async () => {
    // Each test starts with a healthy provider and no back-off left by another.
    double.failNext(0, 0);
    double.delayMs = 0;
    await t.platform.db.kysely.deleteFrom('embedding_state').execute();
    await embedPending(t.platform, { max: 10_000 });
  });

  it('without an embedding model: vectors unavailable, search lexical, and asking for vectors is refused', async () => {
    const ctx = await plain.admin();
    await putFile(ctx, { path: 'garage/notes.md', source: 'The car needs new tyres.' });
    const s = await understandFile(ctx, { path: 'garage/notes.md' });
    expect(s.vectorIndexStatus).toBe('unavailable');
    const hits = await searchAll(ctx, { query: 'car tyres' });
    expect(paths(hits)).toEqual(['garage/notes.md']);
    expect(hits[0]!.matchedBy).toEqual(['lexical']);
    await expect(searchAll(ctx, { query: 'car', mode: 'vector' })).rejects.toMatchObject({ code: 'unavailable' });
    await expect(searchChunks(ctx, { query: 'car', mode: 'hybrid' })).rejects.toMatchObject({ code: 'unavailable' });
    const tool = await runDocsTool(ctx, 'docs_search', { query: 'tyres' });
    expect(tool.text).toMatch(/^\(Search by words only: this server has no embedding model\.\)/);
  });

  it('understanding a document embeds its chunks; vector search finds meaning that shares no word with the query', async () => {
    await putFile(alice, { path: 'fleet/policy.md', source: 'Every automobile of the company is serviced twice a year.' });
    await putFile(alice, { path: 'fleet/menu.md', source: 'Lunch is served at noon in the canteen.' });
    expect((await understandFile(alice, { path: 'fleet/policy.md' })).vectorIndexStatus).toBe('ready');
    expect((await understandFile(alice, { path: 'fleet/menu.md' })).vectorIndexStatus).toBe('ready');
    expect(await searchChunks(bob, { query: 'car', mode: 'lexical' })).toEqual([]);
    const hits = await searchChunks(bob, { query: 'car', mode: 'vector', limit: 1 });
    expect(paths(hits)).toEqual(['fleet/policy.md']);
    expect(hits[0]!.matchedBy).toEqual(['vector']);
    expect(hits[0]!.score).toBeGreaterThan(0);
  });

  it('hybrid ranks a document that both rankings found above one that only one found', async () => {
    await putPage(alice, { path: 'travel/vacation-rules', text: 'Vacation days must be requested two weeks ahead.' });
    await putPage(alice, { path: 'travel/holiday-calendar', text: 'Holiday requests: use the form, and ask your manager.' });
    await putPage(alice, { path: 'travel/parking', text: 'Requests for parking go to the front desk.' });
    await embedPending(t.platform);
    const hits = await searchAll(bob, { query: 'holiday requests', kinds: ['wiki'], mode: 'hybrid' });
    expect(hits[0]!.path).toBe('travel/holiday-calendar');
    expect(hits[0]!.matchedBy.sort()).toEqual(['lexical', 'vector']);
    // Found by meaning only ("vacation" is a holiday to the model), and by words only ("requests").
    expect(hits.find((h) => h.path === 'travel/vacation-rules')!.matchedBy).toContain('vector');
    expect(hits.find((h) => h.path === 'travel/parking')!.matchedBy).toContain('lexical');
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    // Unasked, an installation with a model searches hybrid.
    expect((await searchAll(bob, { query: 'holiday requests', kinds: ['wiki'] })).map((h) => h.path)).toEqual(paths(hits));
  });

  it('never returns or ranks what the caller may not read, however near it is', async () => {
    const c = await createConversation(alice, { channel: 'medical' });
    await putPage(alice, { path: 'private/physician', text: 'The physician visits on Mondays.', channel: c.id });
    const agent = await createAgent(admin, { name: 'Scout', files: 'on', read: 'own' });
    const scout = await t.agentCtx(agent.id);
    await putFile(admin, { path: 'clinic/doctor.md', source: 'Our doctor is available by phone.' });
    await understandFile(admin, { path: 'clinic/doctor.md' });
    await embedPending(t.platform);
    for (const mode of ['vector', 'hybrid'] as const) {
      expect(paths(await searchAll(bob, { query: 'doctor', mode }))).not.toContain('private/physician');
      expect(paths(await searchAll(alice, { query: 'doctor', mode }))).toContain('private/physician');
      expect(await searchChunks(scout, { query: 'doctor', mode })).toEqual([]);
      expect(paths(await searchAll(scout, { query: 'doctor', mode }))).not.toContain('clinic/doctor.md');
    }
  });

  it('a changed text is embedded again, and a deleted document leaves no vector', async () => {
    const scoreOf = async () =>
      (await searchAll(bob, { query: 'automobile', mode: 'vector', kinds: ['file'], limit: 100 })).find((h) => h.path === 'drafts/topic.md')!.score;
    await putFile(alice, { path: 'drafts/topic.md', source: 'A note about lunch.' });
    await embedPending(t.platform);
    const before = await scoreOf();
    await putFile(alice, { path: 'drafts/topic.md', source: 'A note about the vehicle fleet.' });
    const pass = await embedPending(t.platform);
    expect(pass.embedded).toBeGreaterThanOrEqual(1);
    expect(await scoreOf()).toBeGreaterThan(before);
    await deleteFile(alice, { path: 'drafts/topic.md' });
    expect(paths(await searchAll(bob, { query: 'automobile', mode: 'vector', kinds: ['file'] }))).not.toContain('drafts/topic.md');
    const orphans = await t.platform.db.kysely
      .selectFrom('search_vectors as v')
      .leftJoin('search_docs as d', 'd.id', 'v.doc_id')
      .select('v.doc_id')
      .where('d.id', 'is', null)
      .execute();
    expect(orphans).toEqual([]);
  });

  it('a page saved again while the provider answers keeps no vector of its old text; the next pass embeds the new one', async () => {
    await putPage(alice, { path: 'race/page', text: 'A note about lunch.' });
    double.delayMs = 600;
    const pass = embedPending(t.platform);
    await new Promise((r) => setTimeout(r, 200));
    await putPage(alice, { path: 'race/page', text: 'A note about the vehicle fleet.' });
    await pass;
    double.delayMs = 0;
    await embedPending(t.platform);
    const hit = (await searchAll(bob, { query: 'automobile', mode: 'vector', kinds: ['wiki'], limit: 100 })).find((h) => h.path === 'race/page')!;
    const lunch = (await searchAll(bob, { query: 'lunch', mode: 'vector', kinds: ['wiki'], limit: 100 })).find((h) => h.path === 'race/page')!;
    expect(hit.score).toBeGreaterThan(lunch.score);
  });

  it('backs off while the provider fails, says failed with its reason after repeated failures, and recovers', async () => {
    await putFile(alice, { path: 'outage/lease.md', source: 'The lease ends in March.' });
    double.failNext(1000, 503);
    const s0 = await understandFile(alice, { path: 'outage/lease.md' });
    expect(s0.status).toBe('ready');
    expect(s0.vectorIndexStatus).toBe('pending');
    expect(s0.vectorIndexError).toMatch(/503/);
    // Within the back-off nobody asks the provider again.
    const asked = double.requests;
    expect((await embedPending(t.platform)).backingOff).toBe(true);
    expect(double.requests).toBe(asked);
    for (let i = 1; i < FAILED_AFTER; i++) {
      advance(backoffMs(i) + 1);
      expect((await embedPending(t.platform)).backingOff).toBe(true);
    }
    const failed = await understandingStatus(alice, 'outage/lease.md');
    expect(failed.vectorIndexStatus).toBe('failed');
    expect(failed.vectorIndexError).toMatch(/the provider answered 503/);
    // Search still answers, by words.
    const during = await searchAll(bob, { query: 'lease', kinds: ['file'] });
    expect(paths(during)).toEqual(['outage/lease.md']);
    expect(during[0]!.matchedBy).toEqual(['lexical']);
    double.failNext(0, 0);
    advance(backoffMs(FAILED_AFTER) + 1);
    const pass = await embedPending(t.platform);
    expect(pass.backingOff).toBe(false);
    expect((await understandingStatus(alice, 'outage/lease.md')).vectorIndexStatus).toBe('ready');
  });

  it('a slow provider times out: hybrid search falls back to words, vector search says why', async () => {
    await putPage(alice, { path: 'slow/contract-terms', text: 'The agreement renews every year.' });
    double.delayMs = 3000;
    const pass = await embedPending(t.platform);
    expect(pass.backingOff).toBe(true);
    const state = await t.platform.db.kysely.selectFrom('embedding_state').selectAll().executeTakeFirstOrThrow();
    expect(state.last_error).toMatch(/no answer within 1500 ms/);
    const hits = await searchAll(bob, { query: 'agreement renews', kinds: ['wiki'] });
    expect(paths(hits)).toEqual(['slow/contract-terms']);
    expect(hits[0]!.matchedBy).toEqual(['lexical']);
    await expect(searchAll(bob, { query: 'agreement', mode: 'vector' })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/1500 ms/),
    });
  });

  it('a text the provider refuses is recorded with the reason and not sent again; the others are embedded', async () => {
    await putPage(alice, { path: 'refusals/bad', text: 'REFUSE this text.' });
    await putPage(alice, { path: 'refusals/good', text: 'An ordinary page about cars.' });
    const pass = await embedPending(t.platform);
    expect(pass.refused).toBe(1);
    const again = double.requests;
    expect(await embedPending(t.platform)).toEqual({ embedded: 0, refused: 0, backingOff: false });
    expect(double.requests).toBe(again);
    expect(paths(await searchAll(bob, { query: 'automobile', mode: 'vector', kinds: ['wiki'], limit: 100 }))).toContain('refusals/good');
  });

  it('SQL (sqlite-vec; pgvector where installed) and the in-process scan rank vectors alike', async () => {
    for (let i = 0; i < 30; i++) await putPage(alice, { path: `alike/p${i}`, text: `${['car', 'doctor', 'holiday', 'lunch', 'contract'][i % 5]} note ${i}` });
    await embedPending(t.platform, { max: 1000 });
    const inDb = await t.platform.db.vectorFunctions();
    // SQLite always has sqlite-vec (a dependency); PostgreSQL has pgvector only where the installation has it.
    const available = async () =>
      (await sql<{ a: boolean }>`select exists (select 1 from pg_available_extensions where name = 'vector') as a`.execute(t.platform.db.kysely)).rows[0]!.a;
    expect(inDb).toBe(kind === 'sqlite' ? true : await available());
    const q = await embedQuery(t.platform, 'automobile physician');
    const query = { projectId: admin.project.id, visibility: ['project'], kinds: ['wiki'], pathPrefix: 'alike', limit: 12 };
    const scan = await vectorRank(t.platform.db.kysely, query, q.vector, q.model, 'scan');
    expect(scan).toHaveLength(12);
    if (!inDb) return;
    const engine = kind === 'sqlite' ? 'sqlite-vec' : 'pgvector';
    const alike = async () => {
      const inSql = await vectorRank(t.platform.db.kysely, query, q.vector, q.model, engine);
      expect(inSql.map((r) => r.score)).toEqual(scan.map((r) => expect.closeTo(r.score, 5)));
      expect(new Set(inSql.slice(0, 6).map((r) => r.path))).toEqual(new Set(scan.slice(0, 6).map((r) => r.path)));
    };
    await alike();
    if (kind === 'sqlite') return;
    // Vectors stored before pgvector was enabled have no column yet: found all the same, then filled.
    const unfilled = () =>
      sql<{ n: number }>`select count(*)::int as n from search_vectors where embedding is null and vector is not null`.execute(t.platform.db.kysely);
    await sql`update search_vectors set embedding = null where doc_id in (select doc_id from search_vectors where vector is not null order by doc_id desc limit 20)`.execute(
      t.platform.db.kysely,
    );
    expect((await unfilled()).rows[0]!.n).toBe(20);
    await alike();
    expect(await fillPgvectorColumn(t.platform)).toBeGreaterThanOrEqual(20);
    expect((await unfilled()).rows[0]!.n).toBe(0);
    await alike();
  });

  it('another model means every vector is made again, with the new model stored', async () => {
    await putPage(alice, { path: 'models/page', text: 'Some text to embed.' });
    await embedPending(t.platform);
    const next = await startEmbeddingDouble({ model: 'double-embed-v2', dims: 64 });
    try {
      const swapped: Platform = { ...t.platform, embeddings: openAiCompatibleEmbeddings({ url: next.url, model: next.model, batchSize: 50, timeoutMs: 1500 }) };
      await embedPending(swapped, { max: 100_000 });
      const models = await t.platform.db.kysely.selectFrom('search_vectors').select(['model', 'dims']).where('vector', 'is not', null).distinct().execute();
      expect(models).toEqual([{ model: 'double-embed-v2', dims: 64 }]);
      expect(paths(await searchAll({ ...bob, platform: swapped }, { query: 'text to embed', kinds: ['wiki'], mode: 'vector', limit: 1 }))).toEqual([
        'models/page',
      ]);
    } finally {
      await embedPending(t.platform, { max: 100_000 });
      await next.close();
    }
  });
});
