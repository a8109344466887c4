import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import './index.js';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { createConversation } from '../conversations/conversations.js';
import { createAgent } from '../agents/agents.js';
import { putFile } from '../files/put-file.js';
import { moveFile } from '../files/move-file.js';
import { deleteFile } from '../files/delete-file.js';
import { copyFile } from '../files/copy-file.js';
import { setMemory } from '../memory/memory.js';
import type { Ctx } from '../platform.js';
import { putPage } from '../wiki/put-page.js';
import { searchAll } from './search-all.js';
import { reindexFileContents } from './reindex.js';
import { removeDoc } from '../search/index.js';
import { processPendingAssets, understandingStatus } from '../understanding/assets.js';
import { makeDocx, makePdf } from '../understanding/test-documents.js';
import { validateReferences } from '../understanding/validate.js';
import { statFile } from '../files/read-file.js';
import { runWikiTool } from '../wiki/tools.js';

const paths = async (ctx: Ctx, query: string, kinds?: string[]) => (await searchAll(ctx, { query, kinds })).map((h) => `${h.kind}:${h.path}`);

describe.each(testDbKinds())('unified search on %s', (kind) => {
  let t: TestPlatform;
  let admin: Ctx, alice: Ctx, bob: Ctx;
  let whole: Ctx, own: Ctx, off: Ctx;
  let ownId: string, otherId: string;

  beforeAll(async () => {
    t = await createTestPlatform(kind);
    admin = await t.admin();
    alice = await t.userCtx('alice', 'editor');
    bob = await t.userCtx('bob', 'viewer');
    const w = await createAgent(admin, { name: 'Whole', files: 'on', read: 'project' });
    const o = await createAgent(admin, { name: 'Own', files: 'on', read: 'own' });
    const f = await createAgent(admin, { name: 'Off', files: 'off' });
    ownId = o.id;
    otherId = w.id;
    whole = await t.agentCtx(w.id);
    own = await t.agentCtx(o.id);
    off = await t.agentCtx(f.id);
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('ranks wiki pages, memory and file contents together, best first, each with kind, path and snippet', async () => {
    await putPage(alice, { path: 'handbook/pelicans', title: 'Pelicans', text: 'Pelicans eat fish.' });
    await putFile(alice, { path: 'notes/birds.md', source: 'We saw a pelican near the lake.' });
    await setMemory(admin, { file: 'AGENTS.md' }, 'Always report pelican sightings.');
    const hits = await searchAll(bob, { query: 'pelican' });
    expect(hits.map((h) => `${h.kind}:${h.path}`).sort()).toEqual(['file:notes/birds.md', 'memory:AGENTS.md', 'wiki:handbook/pelicans'].sort());
    expect(hits[0]!.kind).toBe('wiki');
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    for (const h of hits) expect(h.snippet.toLowerCase()).toContain('pelican');
    expect(await paths(bob, 'pelican', ['file'])).toEqual(['file:notes/birds.md']);
  });

  it('ranks a page titled with the query first among 200 small log files full of the word, in English, Russian and Chinese', async () => {
    for (let i = 0; i < 200; i++)
      await putFile(alice, {
        path: `logs/app-${String(i).padStart(3, '0')}.log`,
        source: 'refund ok\nrefund retry\nrefund\nвозврат возврат возврат\n退款 退款 退款\n',
      });
    const filler = (s: string) => Array.from({ length: 12 }, () => s).join(' ');
    await putPage(alice, {
      path: 'policies/refunds',
      title: 'Refund policy',
      text: `Customers may ask for a refund within 30 days. ${filler('Our support team answers every request by email and keeps a record of it.')}`,
    });
    await putPage(alice, {
      path: 'policies/vozvrat',
      title: 'Политика возврата',
      text: `Покупатель может оформить возврат в течение 30 дней. ${filler('Служба поддержки отвечает на каждое обращение по почте и хранит его запись.')}`,
    });
    await putPage(alice, {
      path: 'policies/tuikuan',
      title: '退款政策',
      text: `顾客可以在三十天内申请退款。${filler('客服团队通过电子邮件回复每一个请求并保存记录。')}`,
    });
    for (const [query, page] of [
      ['refund', 'policies/refunds'],
      ['возврат', 'policies/vozvrat'],
      ['退款', 'policies/tuikuan'],
    ] as const) {
      const hits = await searchAll(bob, { query, limit: 100 });
      expect(hits[0], query).toMatchObject({ kind: 'wiki', path: page });
      expect(hits.filter((h) => h.path.startsWith('logs/')).length).toBeGreaterThan(50); // the logs are found, below it
      expect((await searchAll(bob, { query, kinds: ['file', 'wiki'], limit: 5 }))[0]!.path).toBe(page);
    }
    // A log file named with the word still comes before the logs that only say it.
    await putFile(alice, { path: 'logs/refund-errors.log', source: 'timeout while calling the payment gateway, retried twice' });
    const files = await searchAll(bob, { query: 'refund', kinds: ['file'] });
    expect(files[0]!.path).toBe('logs/refund-errors.log');
  });

  it('gives each hit what opens exactly what it found: the file version, the wiki heading anchor, the memory path', async () => {
    await putPage(alice, {
      path: 'handbook/returns',
      title: 'Returns',
      text: '# Returns\n\nHow goods come back.\n\n## Parcels **over** 30 kg\n\nA forklift takes them to bay 4.\n',
    });
    await putFile(alice, { path: 'ops/forklift.md', source: 'First draft.' });
    await putFile(alice, { path: 'ops/forklift.md', source: '# Checks\n\nThe forklift is checked weekly.' });
    await setMemory(admin, { file: 'AGENTS.md' }, 'Ask before booking the forklift.');
    const hits = await searchAll(bob, { query: 'forklift' });
    expect(hits.find((h) => h.kind === 'wiki')).toMatchObject({ path: 'handbook/returns', heading: 'Parcels **over** 30 kg', anchor: 'parcels-over-30-kg' });
    expect(hits.find((h) => h.kind === 'file')).toMatchObject({ path: 'ops/forklift.md', version: 2, heading: 'Checks' });
    expect(hits.find((h) => h.kind === 'file')!.anchor).toBeUndefined();
    expect(hits.find((h) => h.kind === 'memory')).toMatchObject({ path: 'AGENTS.md' });
  });

  it('finds Chinese and Russian file contents', async () => {
    await putFile(alice, { path: 'docs/说明.md', source: '数据库每天备份一次。' });
    await putFile(alice, { path: 'docs/привет.txt', source: 'Привет, мир! Отчёты лежат в папке.' });
    expect(await paths(bob, '数据库')).toEqual(['file:docs/说明.md']);
    expect(await paths(bob, 'отчёт')).toEqual(['file:docs/привет.txt']);
  });

  it('follows file moves, overwrites and deletes', async () => {
    await putFile(alice, { path: 'tmp/walrus.md', source: 'The walrus sleeps.' });
    await moveFile(alice, { from: 'tmp/walrus.md', to: 'zoo/walrus.md' });
    expect(await paths(bob, 'walrus')).toEqual(['file:zoo/walrus.md']);
    await putFile(alice, { path: 'zoo/walrus.md', source: 'Now about seals.' });
    expect(await paths(bob, 'walrus')).toEqual(['file:zoo/walrus.md']); // the file name still matches
    expect(await paths(bob, 'sleeps')).toEqual([]);
    await putFile(alice, { path: 'zoo/walrus.md', source: Buffer.from([0, 1, 2, 3]), mime: 'application/octet-stream' });
    expect(await paths(bob, 'seals')).toEqual([]);
    await putFile(alice, { path: 'zoo/otter.md', source: 'The otter swims.' });
    await deleteFile(alice, { path: 'zoo/otter.md' });
    expect(await paths(bob, 'otter')).toEqual([]);
    // Writers that do not hand over the text (a copy) are indexed from the stored bytes.
    await putFile(alice, { path: 'zoo/lynx.md', source: 'The lynx hunts at night.' });
    await copyFile(alice, { from: 'zoo/lynx.md', to: 'zoo/lynx-copy.md' });
    expect((await paths(bob, 'hunts')).sort()).toEqual(['file:zoo/lynx-copy.md', 'file:zoo/lynx.md']);
  });

  it("applies agents' read scopes to file hits (A2, A8)", async () => {
    await putFile(admin, { path: `agents/${ownId}/mine.md`, source: 'okapi notes of the own-folder agent' });
    await putFile(admin, { path: `agents/${otherId}/theirs.md`, source: 'okapi notes of the whole-project agent' });
    await putFile(alice, { path: 'shared/okapi.md', source: 'okapi shared notes' });
    const all = [`file:agents/${ownId}/mine.md`, `file:agents/${otherId}/theirs.md`, 'file:shared/okapi.md'].sort();
    expect((await paths(alice, 'okapi')).sort()).toEqual(all);
    expect((await paths(whole, 'okapi')).sort()).toEqual(all);
    expect(await paths(own, 'okapi')).toEqual([`file:agents/${ownId}/mine.md`]);
    expect(await paths(off, 'okapi')).toEqual([]);
  });

  it('keeps channel pages and channel memory to participants', async () => {
    const c = await createConversation(alice, { channel: 'birds' });
    await putPage(alice, { path: 'secret/heron', text: 'The heron nests here.', channel: c.id });
    await setMemory(alice, { file: 'MEMORY.md', conversation: c.id }, 'Remember the heron count.');
    expect((await paths(alice, 'heron')).sort()).toEqual(['memory:' + `${c.id}/MEMORY.md`, 'wiki:secret/heron'].sort());
    expect(await paths(bob, 'heron')).toEqual([]);
    expect(await paths(whole, 'heron')).toEqual([]);
  });

  it('finds the text of uploaded PDF and DOCX files, queued for understanding without a manual step, with a citation', async () => {
    await putFile(alice, { path: 'legal/lease.pdf', source: makePdf(['Lease of the flat', 'The landlord repairs the roof.']) });
    await putFile(alice, { path: 'legal/notice.docx', source: makeDocx(['Notice to the landlord', 'Keys are returned at the end.']) });
    await putPage(alice, { path: 'howto/landlord', title: 'Landlord contacts', text: 'Call the landlord on Mondays.' });
    expect(await understandingStatus(alice, 'legal/lease.pdf')).toMatchObject({ status: 'pending', version: 1 });
    expect(await paths(bob, 'landlord')).toEqual(['wiki:howto/landlord']); // not parsed yet: the server's background pass does it
    await processPendingAssets(t.platform);
    const hits = await searchAll(bob, { query: 'landlord' });
    expect(hits.map((h) => `${h.kind}:${h.path}`).sort()).toEqual(['document:legal/lease.pdf', 'document:legal/notice.docx', 'wiki:howto/landlord']);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    const lease = hits.find((h) => h.path === 'legal/lease.pdf')!;
    expect(lease.snippet).toContain('landlord');
    expect(lease.title).toBe('lease.pdf');
    expect(lease.citation).toMatchObject({ version: 1, page: 2, fileAssetId: expect.stringMatching(/^fa/), chunkId: expect.stringMatching(/^ch/) });
    expect(lease.citation!.fileAssetId).toBe((await understandingStatus(bob, 'legal/lease.pdf')).fileAssetId);
    expect(lease.id).toBe((await statFile(bob, 'legal/lease.pdf')).id); // the file's ID, to open it
    expect(await validateReferences(bob, [{ fileAssetId: lease.citation!.fileAssetId, chunkId: lease.citation!.chunkId }])).toMatchObject([
      { status: 'valid' },
    ]);
    expect(hits.find((h) => h.kind === 'wiki')!.citation).toBeUndefined();
    expect(await paths(bob, 'landlord', ['document'])).toHaveLength(2);
    // The agent's search tool says where to cite.
    const tool = (await runWikiTool(whole, 'search', { query: 'landlord', kinds: ['document'] })).text;
    expect(tool).toContain(
      `[document] legal/lease.pdf — lease.pdf (version 1, page 2; file_asset_id ${lease.citation!.fileAssetId}, chunk_id ${lease.citation!.chunkId})`,
    );
    expect(await paths(bob, 'landlord', ['file', 'wiki'])).toEqual(['wiki:howto/landlord']);
    // A new version leaves search until it is parsed again; a delete takes it out.
    await putFile(alice, { path: 'legal/lease.pdf', source: makePdf(['The tenant repairs the roof.']) });
    expect(await paths(bob, 'landlord', ['document'])).toEqual(['document:legal/notice.docx']);
    await processPendingAssets(t.platform);
    expect(await paths(bob, 'tenant', ['document'])).toEqual(['document:legal/lease.pdf']);
    await deleteFile(alice, { path: 'legal/lease.pdf' });
    expect(await paths(bob, 'tenant')).toEqual([]);
  });

  it("applies agents' read scopes to documents", async () => {
    await putFile(admin, { path: `agents/${ownId}/quokka.pdf`, source: makePdf(['quokka report of the own-folder agent']) });
    await putFile(alice, { path: 'shared/quokka.pdf', source: makePdf(['quokka shared report']) });
    await processPendingAssets(t.platform);
    expect((await paths(whole, 'quokka')).sort()).toEqual([`document:agents/${ownId}/quokka.pdf`, 'document:shared/quokka.pdf']);
    expect(await paths(own, 'quokka')).toEqual([`document:agents/${ownId}/quokka.pdf`]);
    expect((await searchAll(own, { query: 'quokka' }))[0]!.citation?.page).toBe(1);
    expect(await paths(off, 'quokka')).toEqual([]);
  });

  it('reindex brings back files stored before the index existed (admins only)', async () => {
    const f = await putFile(alice, { path: 'legacy/manatee.md', source: 'The manatee grazes.' });
    await t.platform.outbox.idle(); // its index is written after the commit (outbox): let that finish first
    await removeDoc({ kysely: t.platform.db.kysely, dialect: kind }, { projectId: admin.project.id, kind: 'file', refId: f.file.id }); // as if stored before the hook
    expect(await paths(bob, 'manatee')).toEqual([]);
    await expect(reindexFileContents(alice)).rejects.toMatchObject({ code: 'forbidden' });
    expect((await reindexFileContents(admin)).files).toBeGreaterThanOrEqual(1);
    expect(await paths(bob, 'manatee')).toEqual(['file:legacy/manatee.md']);
    // A PDF stored before uploads were queued for understanding is queued by the reindex.
    const pdf = await putFile(alice, { path: 'legacy/dugong.pdf', source: makePdf(['The dugong grazes too.']) });
    await t.platform.db.kysely.deleteFrom('doc_assets').where('file_id', '=', pdf.file.id).execute();
    await reindexFileContents(admin);
    await processPendingAssets(t.platform);
    expect(await paths(bob, 'dugong')).toEqual(['document:legacy/dugong.pdf']);
  });
});
