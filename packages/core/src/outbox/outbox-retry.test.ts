import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import '../unified-search/index.js';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { putFile } from '../files/put-file.js';
import { removeDoc } from '../search/index.js';
import { searchAll } from '../unified-search/search-all.js';
import { FILE_KIND } from '../unified-search/file-index.js';
import { createOutboxDrainer } from './drain.js';

describe.each(testDbKinds())('an outbox row that keeps failing on %s', (kind) => {
  let t: TestPlatform;
  let alice: Ctx;

  beforeAll(async () => {
    t = await createTestPlatform(kind);
    alice = await t.userCtx('alice', 'editor');
  });
  afterAll(() => t.cleanup());

  const db = () => t.platform.db.kysely;
  const found = async (word: string) => (await searchAll(alice, { query: word, kinds: ['file'] })).map((h) => h.path);
  const rows = () => db().selectFrom('derived_outbox').select(['ref_id', 'attempts', 'retry_at', 'last_error']).orderBy('seq').execute();
  /** Written files whose index entries a crash left to the outbox (the rows committed, the index not written). */
  const unindexed = async (files: Record<string, string>) => {
    const out = [];
    for (const [path, text] of Object.entries(files)) out.push((await putFile(alice, { path, source: text })).file);
    await t.platform.outbox.idle();
    for (const file of out) {
      await removeDoc({ kysely: db(), dialect: kind }, { projectId: alice.project.id, kind: FILE_KIND, refId: file.id });
      await db()
        .insertInto('derived_outbox')
        .values({ project_id: alice.project.id, kind: 'file', ref_id: file.id, version: file.version, path: file.path, at: new Date().toISOString() })
        .execute();
    }
    return out;
  };

  it('is kept with its attempts, a backoff and a log line, and holds back nothing drained with it', async () => {
    const [poison] = await unindexed({ 'poison.md': 'the basilisk stares', 'fine.md': 'the griffin flies' });
    // Its bytes cannot be read: indexing it fails every time.
    const blobKey = (await db().selectFrom('files').select('blob_key').where('id', '=', poison!.id).executeTakeFirstOrThrow()).blob_key;
    await db().updateTable('files').set({ blob_key: 'missing-blob-key' }).where('id', '=', poison!.id).execute();

    const lines: string[] = [];
    const drainer = createOutboxDrainer(() => t.platform, { log: (l) => lines.push(l) });
    const before = Date.now();
    expect(await drainer.drainAll()).toBe(1);
    const [row, ...rest] = await rows();
    expect(rest).toEqual([]);
    expect(row!.ref_id).toBe(poison!.id);
    expect(Number(row!.attempts)).toBe(1);
    expect(Date.parse(row!.retry_at!)).toBeGreaterThan(before);
    expect(row!.last_error).toBeTruthy();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(poison!.id);
    expect(lines[0]).toContain('failed 1 time(s)');

    // Waiting out its backoff, it is neither retried nor waited for: the search answers, with the other file.
    expect(await drainer.drainAll()).toBe(0);
    expect(await found('griffin')).toEqual(['fine.md']);
    expect(Number((await rows())[0]!.attempts)).toBe(1);

    // Past its backoff it is tried again, counts a second attempt and waits longer; it is never dropped.
    await db()
      .updateTable('derived_outbox')
      .set({ retry_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect(await drainer.drainAll()).toBe(0);
    const second = (await rows())[0]!;
    expect(Number(second.attempts)).toBe(2);
    expect(Date.parse(second.retry_at!) - Date.now()).toBeGreaterThan(1000);
    expect(lines[1]).toContain('failed 2 time(s)');

    // Once its target can be indexed again, the next try indexes it and the row goes.
    await db().updateTable('files').set({ blob_key: blobKey }).where('id', '=', poison!.id).execute();
    await db()
      .updateTable('derived_outbox')
      .set({ retry_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect(await drainer.drainAll()).toBe(1);
    expect(await rows()).toEqual([]);
    expect(await found('basilisk')).toEqual(['poison.md']);
  });
});
