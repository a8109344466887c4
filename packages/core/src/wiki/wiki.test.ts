import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createConversation } from '../conversations/conversations.js';
import { createAgent } from '../agents/agents.js';
import type { Ctx } from '../platform.js';
import { putPage, renamePage, deletePage } from './put-page.js';
import { getPage, listPages } from './read-page.js';
import { searchWiki } from './search-wiki.js';
import { pageHistory, showPageVersion, diffPageVersions } from './history.js';
import { movePage } from './move-page.js';
import { importPages } from './import-pages.js';

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('the wiki', { shuffle: false }, () => {
  describe.each(testDbKinds())('wiki on %s', (kind) => {
    let t: TestPlatform;
    let admin: Ctx, alice: Ctx, bob: Ctx, vic: Ctx, agent: Ctx;
    let secret: string;

    beforeAll(async () => {
      t = await createTestPlatform(kind);
      admin = await t.admin();
      alice = await t.userCtx('alice', 'editor');
      bob = await t.userCtx('bob', 'editor');
      vic = await t.userCtx('vic', 'viewer');
      secret = (await createConversation(alice, { channel: 'secret' })).id;
      const a = await createAgent(admin, { name: 'Helper' });
      agent = await t.agentCtx(a.id);
    });
    afterAll(async () => {
      await t.cleanup();
    });

    it('finds a Chinese page by "数据库", with the match in the snippet', async () => {
      await putPage(alice, { path: 'docs/db', title: '数据库指南', text: '我们使用的数据库很快，备份每天进行。' });
      await putPage(alice, { path: 'docs/other', title: '其他', text: '这一页讲的是网络。' });
      const hits = await searchWiki(bob, { query: '数据库' });
      expect(hits.map((h) => h.path)).toEqual(['docs/db']);
      expect(hits[0]!.title).toBe('数据库指南');
      const [s, e] = hits[0]!.highlights[0]!;
      expect(hits[0]!.snippet.slice(s, e)).toContain('数据');
    });

    it('finds "Привет, мир" by "привет" and Russian words in other forms', async () => {
      await putPage(alice, { path: 'ru/hello', title: 'Привет, мир', text: 'Первая страница нашей вики.' });
      await putPage(alice, { path: 'ru/books', text: 'Мы храним книги в городской библиотеке.' });
      expect((await searchWiki(bob, { query: 'привет' })).map((h) => h.path)).toEqual(['ru/hello']);
      expect((await searchWiki(bob, { query: 'книга' })).map((h) => h.path)).toEqual(['ru/books']);
      expect((await searchWiki(bob, { query: 'библиотеки' })).map((h) => h.path)).toEqual(['ru/books']);
      expect((await searchWiki(bob, { query: 'страницы' })).map((h) => h.path)).toEqual(['ru/hello']);
    });

    it('ranks a title match above a text match and marks matches in snippets', async () => {
      await putPage(alice, { path: 'zoo/misc', title: 'Misc', text: 'Notes about zebras and other animals of the savanna.' });
      await putPage(alice, { path: 'zoo/zebras', title: 'Zebras', text: 'Notes about animals of the savanna.' });
      const hits = await searchWiki(bob, { query: 'zebra' });
      expect(hits.map((h) => h.path)).toEqual(['zoo/zebras', 'zoo/misc']);
      const m = hits[1]!;
      expect(m.snippet.slice(m.highlights[0]![0], m.highlights[0]![1]).toLowerCase()).toBe('zebras');
    });

    it('validates paths: lower case folded, non-Latin letters allowed, punctuation refused', async () => {
      const p = await putPage(alice, { path: 'Handbook/Onboarding', text: 'Welcome aboard.' });
      expect(p.path).toBe('handbook/onboarding');
      expect(p.title).toBe('Onboarding');
      expect((await putPage(alice, { path: 'справка/数据', text: 'x' })).path).toBe('справка/数据');
      expect(await code(putPage(alice, { path: 'a b', text: 'x' }))).toBe('path_invalid');
      expect(await code(putPage(alice, { path: 'a/../b', text: 'x' }))).toBe('path_invalid');
      expect(await code(putPage(alice, { path: 'a//b', text: 'x' }))).toBe('path_invalid');
      expect((await getPage(bob, { path: 'HANDBOOK/onboarding' })).text).toBe('Welcome aboard.');
    });

    it('lets viewers read but not write; agents may write', async () => {
      expect((await getPage(vic, { path: 'handbook/onboarding' })).version).toBe(1);
      expect(await code(putPage(vic, { path: 'handbook/onboarding', text: 'mine' }))).toBe('forbidden');
      expect(await code(deletePage(vic, { path: 'handbook/onboarding' }))).toBe('forbidden');
      const r = await putPage(agent, { path: 'agents-notes', text: 'written by an agent' });
      expect(r.updatedBy).toBe('agent: Helper');
    });

    it('links, "Linked here", missing links and unlinked mentions', async () => {
      await putPage(alice, { path: 'handbook/refunds', title: 'Refunds', text: '# Refunds\nRefunds take 5 days.' });
      await putPage(alice, {
        path: 'handbook',
        title: 'Handbook',
        text: 'See [[handbook/refunds|the refund rules]], [[handbook/onboarding#first-day]] and [[handbook/nowhere]].\n`[[not/a/link]]`',
      });
      await putPage(bob, { path: 'faq', title: 'FAQ', text: 'Customers often ask about refunds. Read the handbook.' });
      const refunds = await getPage(bob, { path: 'handbook/refunds' });
      expect(refunds.linkedHere).toEqual([{ path: 'handbook', title: 'Handbook' }]);
      expect(refunds.unlinkedMentions.map((m) => m.path)).toEqual(['faq']);
      expect(refunds.unlinkedMentions[0]!.snippet).toContain('refunds');
      const hb = await getPage(bob, { path: 'handbook' });
      expect(hb.links).toEqual([
        { path: 'handbook/refunds', label: 'the refund rules', heading: null, missing: false },
        { path: 'handbook/onboarding', label: null, heading: 'first-day', missing: false },
        { path: 'handbook/nowhere', label: null, heading: null, missing: true },
      ]);
      // "handbook" is mentioned by faq, which does not link it.
      expect(hb.unlinkedMentions.map((m) => m.path)).toContain('faq');
      // Creating the missing page gives it the backlink at once.
      await putPage(alice, { path: 'handbook/nowhere', text: 'now here' });
      expect((await getPage(bob, { path: 'handbook/nowhere' })).linkedHere.map((l) => l.path)).toEqual(['handbook']);
      expect((await getPage(bob, { path: 'handbook' })).links.every((l) => !l.missing)).toBe(true);
    });

    it('keeps a channel page away from non-participants everywhere', async () => {
      await putPage(alice, { path: 'handbook/secret-plan', title: 'Secret plan', text: 'Launch the zeppelin. See [[handbook/refunds]].', channel: 'secret' });
      // Alice (participant) and admins see it.
      expect((await getPage(alice, { path: 'handbook/secret-plan' })).channel).toBe(secret);
      expect((await listPages(admin)).map((p) => p.path)).toContain('handbook/secret-plan');
      expect((await searchWiki(alice, { query: 'zeppelin' })).map((h) => h.path)).toEqual(['handbook/secret-plan']);
      expect((await getPage(alice, { path: 'handbook/refunds' })).linkedHere.map((l) => l.path)).toEqual(['handbook', 'handbook/secret-plan']);
      // Bob and the agent (not participants) see nothing of it.
      for (const c of [bob, vic, agent]) {
        expect((await listPages(c)).map((p) => p.path)).not.toContain('handbook/secret-plan');
        expect((await listPages(c, { prefix: 'handbook' })).map((p) => p.path)).not.toContain('handbook/secret-plan');
        expect(await code(getPage(c, { path: 'handbook/secret-plan' }))).toBe('not_found');
        expect(await searchWiki(c, { query: 'zeppelin' })).toEqual([]);
        expect((await getPage(c, { path: 'handbook/refunds' })).linkedHere.map((l) => l.path)).toEqual(['handbook']);
        expect(await code(pageHistory(c, { path: 'handbook/secret-plan' }))).toBe('not_found');
        expect(await code(showPageVersion(c, { path: 'handbook/secret-plan', version: 1 }))).toBe('not_found');
      }
      expect(await code(deletePage(bob, { path: 'handbook/secret-plan' }))).toBe('not_found');
      expect(await code(renamePage(bob, { path: 'handbook/secret-plan', title: 'x' }))).toBe('not_found');
      // A link to it from a workspace page shows as missing for bob, present for alice.
      await putPage(alice, { path: 'pointer', text: 'Go to [[handbook/secret-plan]].' });
      expect((await getPage(bob, { path: 'pointer' })).links[0]!.missing).toBe(true);
      expect((await getPage(alice, { path: 'pointer' })).links[0]!.missing).toBe(false);
      // Bob may not put a page into a channel he is not in, nor overwrite the hidden page.
      expect(await code(putPage(bob, { path: 'x', text: 'x', channel: 'secret' }))).toBe('not_found');
      expect(await code(putPage(bob, { path: 'handbook/secret-plan', text: 'overwrite' }))).toBe('forbidden');
      // Making it a workspace page shows it to everyone.
      await putPage(alice, { path: 'handbook/secret-plan', text: 'Launch the zeppelin.', channel: null });
      expect((await searchWiki(bob, { query: 'zeppelin' })).map((h) => h.path)).toEqual(['handbook/secret-plan']);
    });

    it('versions: history with author and time, show, diff, and version_conflict on an outdated base', async () => {
      const v1 = await putPage(alice, { path: 'policy', title: 'Policy', text: 'line one\nrefunds in 5 days\nline three' });
      expect(v1.version).toBe(1);
      const results = await Promise.allSettled([
        putPage(alice, { path: 'policy', text: 'line one\nrefunds in 7 days\nline three', base: 1 }),
        putPage(bob, { path: 'policy', text: 'line one\nrefunds in 9 days\nline three', base: 1 }),
      ]);
      const ok = results.filter((r) => r.status === 'fulfilled');
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(ok).toHaveLength(1);
      expect(failed).toHaveLength(1);
      expect(failed[0]!.reason.code).toBe('version_conflict');
      expect(failed[0]!.reason.details).toEqual({ currentVersion: 2 });
      const hist = await pageHistory(bob, { path: 'policy' });
      expect(hist.map((h) => h.version)).toEqual([2, 1]);
      expect(hist[1]!.author).toBe('alice');
      expect(hist[0]!.current).toBe(true);
      expect(Date.parse(hist[1]!.time)).not.toBeNaN();
      expect((await showPageVersion(bob, { path: 'policy', version: 1 })).text).toContain('5 days');
      const d = await diffPageVersions(bob, { path: 'policy', from: 1, to: 2 });
      expect(d.text).toMatch(/^ line one\n-refunds in 5 days\n\+refunds in [79] days\n line three$/);
      expect([d.added, d.removed]).toEqual([1, 1]);
      // Saving the same content again makes no version; a rename does.
      expect((await putPage(alice, { path: 'policy', text: (await getPage(alice, { path: 'policy' })).text })).changed).toBe(false);
      const r = await renamePage(bob, { path: 'policy', title: 'Refund policy' });
      expect([r.version, r.title]).toEqual([3, 'Refund policy']);
      expect((await pageHistory(bob, { path: 'policy' }))[0]!.action).toBe('rename');
      expect(await code(putPage(alice, { path: 'policy', text: 'late', base: 2 }))).toBe('version_conflict');
    });

    it('move: dry run lists pages and broken links; nested pages move; links are not rewritten', async () => {
      await putPage(alice, { path: 'guide', title: 'Guide', text: 'Top. See [[guide/setup]].' });
      await putPage(alice, { path: 'guide/setup', text: 'Install it.' });
      await putPage(alice, { path: 'guide/setup/linux', text: 'apt install.' });
      await putPage(alice, { path: 'guide/private', text: 'hidden one', channel: 'secret' });
      await putPage(bob, { path: 'links-to-guide', text: 'Read [[guide]] and [[guide/setup/linux]].' });
      const dry = await movePage(bob, { from: 'guide', to: 'manual', dryRun: true });
      expect(dry.moved).toEqual([
        { from: 'guide', to: 'manual' },
        { from: 'guide/setup', to: 'manual/setup' },
        { from: 'guide/setup/linux', to: 'manual/setup/linux' },
      ]);
      expect(dry.hidden).toBe(1);
      expect(dry.brokenLinks).toEqual([
        { page: 'guide', title: 'Guide', target: 'guide/setup' },
        { page: 'links-to-guide', title: 'Links to guide', target: 'guide' },
        { page: 'links-to-guide', title: 'Links to guide', target: 'guide/setup/linux' },
      ]);
      expect((await getPage(bob, { path: 'guide' })).version).toBe(1);
      expect(await code(movePage(bob, { from: 'guide', to: 'guide/inner' }))).toBe('bad_request');
      expect(await code(movePage(bob, { from: 'guide', to: 'faq' }))).toBe('already_exists');
      await movePage(bob, { from: 'guide', to: 'manual' });
      expect((await listPages(bob, { prefix: 'manual' })).map((p) => p.path)).toEqual(['manual', 'manual/setup', 'manual/setup/linux']);
      expect((await listPages(alice, { prefix: 'manual' })).map((p) => p.path)).toContain('manual/private');
      expect(await code(getPage(bob, { path: 'guide' }))).toBe('not_found');
      const l = await getPage(bob, { path: 'links-to-guide' });
      expect(l.links.map((x) => [x.path, x.missing])).toEqual([
        ['guide', true],
        ['guide/setup/linux', true],
      ]);
      expect((await getPage(bob, { path: 'manual/setup/linux' })).title).toBe('Linux');
      expect((await searchWiki(bob, { query: 'apt install' }))[0]!.path).toBe('manual/setup/linux');
    });

    it('delete removes the page and its history; nested pages remain; links show missing', async () => {
      await putPage(alice, { path: 'old', text: 'old top' });
      await putPage(alice, { path: 'old', text: 'old top v2' });
      await putPage(alice, { path: 'old/child', text: 'child stays. Back to [[old]].' });
      await deletePage(bob, { path: 'old' });
      expect(await code(getPage(bob, { path: 'old' }))).toBe('not_found');
      expect(await code(pageHistory(bob, { path: 'old' }))).toBe('not_found');
      expect((await getPage(bob, { path: 'old/child' })).links[0]!.missing).toBe(true);
      expect(await searchWiki(bob, { query: 'old top' })).not.toContainEqual(expect.objectContaining({ path: 'old' }));
      // A new page at the same path starts a new history.
      const again = await putPage(alice, { path: 'old', text: 'reborn' });
      expect(again.version).toBe(1);
      expect((await pageHistory(bob, { path: 'old' })).length).toBe(1);
    });

    it('imports a folder of markdown files', async () => {
      const r = await importPages(alice, {
        files: [
          { file: 'Team/Onboarding Guide.md', text: 'intro\n# Onboarding guide\nWelcome!' },
          { file: 'team/no-heading.md', text: 'Just text' },
          { file: 'team/bad?.md', text: 'odd name' },
        ],
      });
      expect(r.imported.map((i) => [i.path, i.title])).toEqual([
        ['team/onboarding-guide', 'Onboarding guide'],
        ['team/bad', 'Bad'],
        ['team/no-heading', 'No heading'],
      ]);
      expect(r.skipped).toEqual([]);
      expect((await getPage(bob, { path: 'team/onboarding-guide' })).text).toBe('intro\n# Onboarding guide\nWelcome!');
    });
  });
});
