import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import '../unified-search/index.js';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { putFile } from '../files/put-file.js';
import { deleteFile } from '../files/delete-file.js';
import { moveFile } from '../files/move-file.js';
import { readText } from '../files/test-invariants.js';
import { appendMemory, setMemory } from '../memory/memory.js';
import { searchMemory } from '../memory/search.js';
import { searchAll } from '../unified-search/search-all.js';
import { removeDoc, searchDocs } from '../search/index.js';
import { FILE_KIND, FILE_VISIBILITY } from '../unified-search/file-index.js';
import { createOutboxDrainer } from './drain.js';
import { indexDelayOf, loadConfig } from '../config.js';

describe.each(testDbKinds())('derived-data outbox on %s', (kind) => {
  let t: TestPlatform;
  let alice: Ctx;
  let admin: Ctx;

  beforeAll(async () => {
    t = await createTestPlatform(kind);
    alice = await t.userCtx('alice', 'editor');
    admin = await t.admin();
  });
  afterAll(() => t.cleanup());

  /** What the index itself holds for a word, without a search's drain first. */
  const indexed = async (word: string) =>
    (await searchDocs(t.platform.db, { projectId: alice.project.id, query: word, kinds: [FILE_KIND], visibility: [FILE_VISIBILITY] })).map((h) => h.path);
  const found = async (word: string) => (await searchAll(alice, { query: word, kinds: ['file'] })).map((h) => h.path);
  /** A write's own drain runs in the background: wait for it before setting up a state by hand. */
  const settled = () => t.platform.outbox.idle();
  const pending = async () => (await t.platform.db.kysely.selectFrom('derived_outbox').select('seq').execute()).length;
  /** A change committed whose drain never ran (the process died right after the commit). */
  const leavePending = (fileId: string, version: number, path: string) =>
    t.platform.db.kysely
      .insertInto('derived_outbox')
      .values({ project_id: alice.project.id, kind: 'file', ref_id: fileId, version, path, at: new Date().toISOString() })
      .execute();

  it('a write is found by the search right after it, and leaves nothing pending', async () => {
    await putFile(alice, { path: 'notes/quokka.md', source: 'the quokka smiles' });
    expect(await found('quokka')).toEqual(['notes/quokka.md']);
    // Also while its own drain has not started: the search drains the project's pending rows itself.
    const { file: f } = await putFile(alice, { path: 'notes/okapi.md', source: 'the okapi browses' });
    await settled();
    await leavePending(f.id, f.version, f.path);
    await removeDoc({ kysely: t.platform.db.kysely, dialect: kind }, { projectId: alice.project.id, kind: FILE_KIND, refId: f.id });
    expect(await found('okapi')).toEqual(['notes/okapi.md']);
    expect(await pending()).toBe(0);
  });

  it('a change a crash left in the outbox is indexed by the next start, and by the next search', async () => {
    const { file: f } = await putFile(alice, { path: 'notes/axolotl.md', source: 'the axolotl regrows' });
    await settled();
    // The state a crash between the commit and the drain leaves: the row committed, the index not written.
    await removeDoc({ kysely: t.platform.db.kysely, dialect: kind }, { projectId: alice.project.id, kind: FILE_KIND, refId: f.id });
    await leavePending(f.id, f.version, f.path);
    expect(await indexed('axolotl')).toEqual([]);
    // A new process over the same database: no hints of what the old one held, only the rows.
    expect(await createOutboxDrainer(() => t.platform).drainAll()).toBe(1);
    expect(await indexed('axolotl')).toEqual(['notes/axolotl.md']);
    expect(await pending()).toBe(0);

    await removeDoc({ kysely: t.platform.db.kysely, dialect: kind }, { projectId: alice.project.id, kind: FILE_KIND, refId: f.id });
    await leavePending(f.id, f.version, f.path);
    expect(await found('axolotl')).toEqual(['notes/axolotl.md']);
    expect(await pending()).toBe(0);
  });

  it('concurrent writes of one file leave the index holding the latest version, even with a stale change drained last', async () => {
    const words = ['aardvark', 'bonobo', 'caracal', 'dugong', 'echidna', 'fossa', 'gharial', 'hoatzin'];
    await Promise.all(words.map((w) => putFile(alice, { path: 'race/one.md', source: `the ${w} wins` })));
    const latest = (await readText(alice, 'race/one.md')).split(' ')[1]!;
    for (const w of words) expect(await found(w)).toEqual(w === latest ? ['race/one.md'] : []);
    // A change of version 1 drained after the newest one: the file's current content is what is indexed.
    const { file: f } = await putFile(alice, { path: 'race/one.md', source: 'the ibex wins' });
    await settled();
    await leavePending(f.id, 1, f.path);
    await createOutboxDrainer(() => t.platform).drainAll();
    expect(await indexed('ibex')).toEqual(['race/one.md']);
    for (const w of words) expect(await indexed(w)).toEqual([]);
  });

  it('a delete after a write still pending leaves nothing indexed; a move after one indexes the new path', async () => {
    const { file: f } = await putFile(alice, { path: 'gone/jerboa.md', source: 'the jerboa hops' });
    await settled();
    await leavePending(f.id, f.version, f.path);
    await deleteFile(alice, { path: 'gone/jerboa.md' });
    expect(await found('jerboa')).toEqual([]);
    expect(await indexed('jerboa')).toEqual([]);

    const { file: g } = await putFile(alice, { path: 'moving/kinkajou.md', source: 'the kinkajou climbs' });
    await settled();
    await leavePending(g.id, g.version, g.path);
    await moveFile(alice, { from: 'moving/kinkajou.md', to: 'moved/kinkajou.md' });
    expect(await found('kinkajou')).toEqual(['moved/kinkajou.md']);
    expect(await pending()).toBe(0);
  });

  it('sixteen concurrent appends to one memory file are all found, and a shorter save drops the blocks past its end', async () => {
    const lines = Array.from({ length: 16 }, (_, i) => `note ${i} about the lemming${i}`);
    await Promise.all(lines.map((l) => appendMemory(admin, { file: 'AGENTS.md' }, l)));
    for (let i = 0; i < 16; i += 5) expect((await searchMemory(alice, { query: `lemming${i}` })).map((h) => h.file)).toEqual(['AGENTS.md']);
    const long = Array.from({ length: 130 }, (_, i) => (i === 120 ? 'the margay at the end' : `filler line ${i}`)).join('\n');
    const saved = await setMemory(admin, { file: 'AGENTS.md' }, long);
    expect((await searchMemory(alice, { query: 'margay' })).map((h) => h.file)).toEqual(['AGENTS.md']);
    await setMemory(admin, { file: 'AGENTS.md' }, 'only the narwhal now\n', { base: saved.version });
    expect((await searchMemory(alice, { query: 'margay' })).length).toBe(0);
    expect((await searchMemory(alice, { query: 'narwhal' })).map((h) => h.file)).toEqual(['AGENTS.md']);
    expect(await pending()).toBe(0);
  });
});

describe.each(testDbKinds())('derived data a burst at a time on %s', (kind) => {
  let t: TestPlatform;
  let alice: Ctx;

  // Ten minutes: were any step below to sit out the delay, the test would time out instead of passing.
  beforeAll(async () => {
    t = await createTestPlatform(kind, {}, { indexDelayMs: 600_000 });
    alice = await t.userCtx('alice', 'editor');
  });
  afterAll(() => t.cleanup());

  const indexed = async (word: string) =>
    (await searchDocs(t.platform.db, { projectId: alice.project.id, query: word, kinds: [FILE_KIND], visibility: [FILE_VISIBILITY] })).map((h) => h.path);
  const pending = async () => (await t.platform.db.kysely.selectFrom('derived_outbox').select('seq').execute()).length;

  it('writes wait for the delay together; a search does not wait, and neither does a closing platform', async () => {
    for (const w of ['puffin', 'tapir', 'zorilla']) await putFile(alice, { path: `burst/${w}.md`, source: `the ${w} rests` });
    // Acknowledged, not indexed yet: the pass waits out the delay for the writes that follow.
    expect(await pending()).toBe(3);
    expect(await indexed('tapir')).toEqual([]);
    // A search indexes what is pending in its project first.
    expect((await searchAll(alice, { query: 'tapir', kinds: ['file'] })).map((h) => h.path)).toEqual(['burst/tapir.md']);
    expect(await indexed('puffin')).toEqual(['burst/puffin.md']);
    expect(await pending()).toBe(0);
    // What waits when the platform closes (`idle`) is drained at once.
    await putFile(alice, { path: 'burst/quoll.md', source: 'the quoll hunts' });
    expect(await pending()).toBe(1);
    await t.platform.outbox.idle();
    expect(await indexed('quoll')).toEqual(['burst/quoll.md']);
    expect(await pending()).toBe(0);
  });

  it('a large text is indexed as it comes, without the delay: waiting pays only for small writes', async () => {
    await putFile(alice, { path: 'burst/large.md', source: 'the serval leaps\n' + 'filler words to index\n'.repeat(16_000) });
    await expect.poll(() => indexed('serval')).toEqual(['burst/large.md']);
    expect(await pending()).toBe(0);
  });
});

describe('STOA_INDEX_DELAY_MS', () => {
  it('is 50 ms by default, 0 drains on the next turn, and more than a minute is refused', () => {
    const config = (env: Record<string, string>) => loadConfig({ dataDir: '/nowhere', env });
    expect(indexDelayOf(config({}))).toBe(50);
    expect(indexDelayOf(config({ STOA_INDEX_DELAY_MS: '0' }))).toBe(0);
    expect(indexDelayOf(config({ STOA_INDEX_DELAY_MS: '250' }))).toBe(250);
    expect(() => config({ STOA_INDEX_DELAY_MS: '600000' })).toThrow(/at most/);
    expect(() => config({ STOA_INDEX_DELAY_MS: 'soon' })).toThrow();
  });
});
