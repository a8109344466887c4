import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import '../unified-search/index.js';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createConversation } from '../conversations/conversations.js';
import type { Ctx } from '../platform.js';
import { removeDoc, searchDocs } from '../search/index.js';
import { searchAll } from '../unified-search/search-all.js';
import { createOutboxDrainer } from '../outbox/drain.js';
import { putPage, renamePage, deletePage } from './put-page.js';
import { searchWiki } from './search-wiki.js';
import { movePage } from './move-page.js';
import { importPages } from './import-pages.js';
import { WIKI_KIND } from './page-store.js';
import { wikiViewer } from './visibility.js';

// Wiki pages' search entries are written by the derived-data outbox after the commit (decision 0020).
describe.each(testDbKinds())('wiki search index through the outbox on %s', (kind) => {
  let t: TestPlatform;
  let alice: Ctx, bob: Ctx;

  beforeAll(async () => {
    t = await createTestPlatform(kind);
    alice = await t.userCtx('alice', 'editor');
    bob = await t.userCtx('bob', 'editor');
    await createConversation(alice, { channel: 'secret' });
  });
  afterAll(() => t.cleanup());

  const wiki = async (c: Ctx, word: string) => (await searchWiki(c, { query: word })).map((h) => `${h.path}|${h.title}`);
  const all = async (c: Ctx, word: string) => (await searchAll(c, { query: word, kinds: ['wiki'] })).map((h) => h.path);
  /** What the index itself holds for a word, for a viewer, without a search's drain first. */
  const indexed = async (c: Ctx, word: string) =>
    (await searchDocs(t.platform.db, { projectId: c.project.id, query: word, kinds: [WIKI_KIND], visibility: (await wikiViewer(c)).visibility })).map(
      (h) => h.path,
    );
  const pending = async () => (await t.platform.db.kysely.selectFrom('derived_outbox').select('seq').where('kind', '=', 'wiki').execute()).length;
  const pageId = async (path: string) =>
    (
      await t.platform.db.kysely
        .selectFrom('wiki_pages')
        .select('id')
        .where('project_id', '=', alice.project.id)
        .where('path', '=', path)
        .executeTakeFirstOrThrow()
    ).id;
  /** A change committed whose drain never ran (the process died right after the commit). */
  const leavePending = async (id: string, path: string) =>
    t.platform.db.kysely
      .insertInto('derived_outbox')
      .values({ project_id: alice.project.id, kind: 'wiki', ref_id: id, version: 1, path, at: new Date().toISOString() })
      .execute();

  it('a page save is found by the very next search, and a save whose drain never ran by the next search too', async () => {
    await putPage(alice, { path: 'zoo/quokka', title: 'Quokka', text: 'the quokka smiles' });
    expect(await wiki(alice, 'quokka')).toEqual(['zoo/quokka|Quokka']);
    await putPage(alice, { path: 'zoo/okapi', text: 'the okapi browses' });
    expect(await all(alice, 'okapi')).toEqual(['zoo/okapi']);
    expect(await pending()).toBe(0);

    // The state a crash between the commit and the drain leaves: the row committed, the index not written.
    await t.platform.outbox.idle();
    const id = await pageId('zoo/okapi');
    await removeDoc({ kysely: t.platform.db.kysely, dialect: kind }, { projectId: alice.project.id, kind: WIKI_KIND, refId: id });
    await leavePending(id, 'zoo/okapi');
    expect(await indexed(alice, 'okapi')).toEqual([]);
    expect(await wiki(alice, 'okapi')).toEqual(['zoo/okapi|Okapi']);
    expect(await pending()).toBe(0);

    // A new process over the same database drains it from the row alone.
    await removeDoc({ kysely: t.platform.db.kysely, dialect: kind }, { projectId: alice.project.id, kind: WIKI_KIND, refId: id });
    await leavePending(id, 'zoo/okapi');
    expect(await createOutboxDrainer(() => t.platform).drainAll()).toBe(1);
    expect(await indexed(alice, 'okapi')).toEqual(['zoo/okapi']);
  });

  it('imported pages are found by the next search', async () => {
    await importPages(alice, { files: [{ file: 'Imports/Axolotl Notes.md', text: '# Axolotl\nthe axolotl regrows' }] });
    expect(await wiki(alice, 'axolotl')).toEqual(['imports/axolotl-notes|Axolotl']);
  });

  it('two quick edits leave the last text only, even with a stale change drained last', async () => {
    await Promise.all([putPage(alice, { path: 'race/one', text: 'the aardvark wins' }), putPage(alice, { path: 'race/one', text: 'the bonobo wins' })]);
    const last = (await t.platform.db.kysely.selectFrom('wiki_pages').select('body').where('path', '=', 'race/one').executeTakeFirstOrThrow()).body.split(
      ' ',
    )[1]!;
    for (const w of ['aardvark', 'bonobo']) expect(await wiki(alice, w)).toEqual(w === last ? ['race/one|One'] : []);

    await putPage(alice, { path: 'race/one', text: 'the caracal wins' });
    await putPage(alice, { path: 'race/one', text: 'the dugong wins' });
    expect(await wiki(alice, 'caracal')).toEqual([]);
    expect(await wiki(alice, 'dugong')).toEqual(['race/one|One']);
    // A change of an older version drained after the newest one: the page's current text is what is indexed.
    await leavePending(await pageId('race/one'), 'race/one');
    expect(await wiki(alice, 'caracal')).toEqual([]);
    expect(await all(alice, 'dugong')).toEqual(['race/one']);
  });

  it('a rename, a move and a delete remove the old entry', async () => {
    await putPage(alice, { path: 'old/gharial', title: 'Gharial guide', text: 'the gharial basks' });
    await putPage(alice, { path: 'old/gharial/nested', text: 'a nested hoatzin' });
    expect(await wiki(alice, 'gharial')).toEqual(['old/gharial|Gharial guide']);

    await renamePage(alice, { path: 'old/gharial', title: 'Fossa guide' });
    expect(await wiki(alice, 'gharial')).toEqual(['old/gharial|Fossa guide']);
    expect(await wiki(alice, 'guide')).toEqual(['old/gharial|Fossa guide']);

    await movePage(alice, { from: 'old/gharial', to: 'new/gharial' });
    expect(await wiki(alice, 'gharial')).toEqual(['new/gharial|Fossa guide']);
    // A page without a title shows one derived from its path: the moved entry has the new one.
    expect(await wiki(alice, 'hoatzin')).toEqual(['new/gharial/nested|Nested']);
    expect((await searchWiki(alice, { query: 'hoatzin', prefix: 'old' })).length).toBe(0);

    await deletePage(alice, { path: 'new/gharial' });
    expect(await wiki(alice, 'gharial')).toEqual([]);
    expect(await all(alice, 'gharial')).toEqual([]);
    expect(await indexed(alice, 'gharial')).toEqual([]);
    expect(await wiki(alice, 'hoatzin')).toEqual(['new/gharial/nested|Nested']);
  });

  it('a channel page stays hidden from a non-participant in every search, after saves and a move', async () => {
    await putPage(alice, { path: 'plans/zeppelin', title: 'Zeppelin', text: 'launch the zeppelin', channel: 'secret' });
    expect(await wiki(alice, 'zeppelin')).toEqual(['plans/zeppelin|Zeppelin']);
    expect(await all(alice, 'zeppelin')).toEqual(['plans/zeppelin']);
    expect(await wiki(bob, 'zeppelin')).toEqual([]);
    expect(await all(bob, 'zeppelin')).toEqual([]);

    await putPage(alice, { path: 'plans/zeppelin', text: 'launch the zeppelin at dawn' });
    await movePage(alice, { from: 'plans', to: 'later' });
    expect(await wiki(alice, 'dawn')).toEqual(['later/zeppelin|Zeppelin']);
    expect(await wiki(bob, 'dawn')).toEqual([]);
    expect(await all(bob, 'dawn')).toEqual([]);
    expect(await indexed(bob, 'dawn')).toEqual([]);

    // Made a workspace page, it is everyone's.
    await putPage(alice, { path: 'later/zeppelin', text: 'launch the zeppelin at dawn', channel: null });
    expect(await wiki(bob, 'dawn')).toEqual(['later/zeppelin|Zeppelin']);
  });
});
