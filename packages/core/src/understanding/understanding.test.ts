import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { putFile } from '../files/put-file.js';
import { moveFile } from '../files/move-file.js';
import { deleteFile } from '../files/delete-file.js';
import { createAgent } from '../agents/agents.js';
import { listChunks, searchChunks } from './chunks.js';
import { processPendingAssets, understandFile, understandingStatus, retryUnderstanding } from './assets.js';
import { validateReferences } from './validate.js';
import { makeDocx, makePdf } from './test-documents.js';

const longText = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}: the turbine blade number ${i} needs inspection every ${i + 1} months.`).join('\n\n');

for (const kind of testDbKinds()) {
  describe(`file understanding on ${kind}`, () => {
    let t: TestPlatform;
    beforeAll(async () => {
      t = await createTestPlatform(kind);
    });
    afterAll(() => t.cleanup());

    it('parses, chunks and pages a text file; status is compact and says the vector index is unavailable', async () => {
      const ctx = await t.admin();
      await putFile(ctx, { path: 'manuals/turbine.md', source: longText });
      const s = await understandFile(ctx, { path: 'manuals/turbine.md' });
      expect(s).toMatchObject({ status: 'ready', vectorIndexStatus: 'unavailable', version: 1, path: 'manuals/turbine.md' });
      expect(s.chunkCount).toBeGreaterThan(2);
      expect(s).not.toHaveProperty('text');
      const p1 = await listChunks(ctx, { path: 'manuals/turbine.md', page: 1, pageSize: 2 });
      expect(p1.chunks).toHaveLength(2);
      expect(p1.hasMore).toBe(true);
      expect(longText.slice(p1.chunks[0]!.span.start, p1.chunks[0]!.span.end)).toBe(p1.chunks[0]!.text);
      const last = await listChunks(ctx, { path: 'manuals/turbine.md', page: s.chunkCount, pageSize: 1 });
      expect(last.hasMore).toBe(false);
      await expect(listChunks(ctx, { path: 'manuals/turbine.md', page: 0 })).rejects.toMatchObject({ code: 'bad_request' });
      // A page over the host's cap is answered at the cap (R6), not refused.
      expect(await listChunks(ctx, { path: 'manuals/turbine.md', pageSize: 500 })).toMatchObject({ pageSize: 50, page: 1 });
    });

    it('reads PDF pages and DOCX paragraphs, in Russian and Chinese too', async () => {
      const ctx = await t.admin();
      await putFile(ctx, { path: 'legal/lease.pdf', source: makePdf(['Lease agreement for the warehouse', 'Rent is due on the first day of each month']) });
      const s = await understandFile(ctx, { path: 'legal/lease.pdf' });
      expect(s.status).toBe('ready');
      const hits = await searchChunks(ctx, { query: 'rent due month' });
      expect(hits[0]).toMatchObject({ path: 'legal/lease.pdf', page: 2 });
      await putFile(ctx, { path: 'legal/договор.docx', source: makeDocx(['Договор аренды склада', '租金每月支付一次']) });
      expect((await understandFile(ctx, { path: 'legal/договор.docx' })).status).toBe('ready');
      expect((await searchChunks(ctx, { query: 'аренда склада' }))[0]?.path).toBe('legal/договор.docx');
      expect((await searchChunks(ctx, { query: '租金' }))[0]?.path).toBe('legal/договор.docx');
    });

    it('refuses types it cannot parse, marks broken documents failed with a reason, and retries them', async () => {
      const ctx = await t.admin();
      await putFile(ctx, { path: 'media/song.mp3', source: Buffer.from([1, 2, 3]) });
      await expect(understandFile(ctx, { path: 'media/song.mp3' })).rejects.toMatchObject({ code: 'not_a_text_file' });
      await putFile(ctx, { path: 'broken.pdf', source: 'this is not a pdf' });
      const s = await understandFile(ctx, { path: 'broken.pdf' });
      expect(s.status).toBe('failed');
      expect(s.error).toMatch(/PDF/);
      await putFile(ctx, { path: 'broken.pdf', source: makePdf(['Repaired document']) });
      await processPendingAssets(t.platform);
      expect((await understandingStatus(ctx, 'broken.pdf')).status).toBe('ready');
      await expect(retryUnderstanding(ctx, 'broken.pdf')).rejects.toMatchObject({ code: 'bad_request' });
    });

    it('cites evidence that validation tracks through moves, edits and deletes', async () => {
      const ctx = await t.admin();
      await putFile(ctx, { path: 'kb/policy.md', source: 'Refunds are paid within 14 days.\n\nShipping is free over 50 euros.' });
      await understandFile(ctx, { path: 'kb/policy.md' });
      const [hit] = await searchChunks(ctx, { query: 'refunds paid', contentLength: 10 });
      expect(hit).toMatchObject({ path: 'kb/policy.md', version: 1, content: 'Refunds ar' });
      expect(hit!.hash).toMatch(/^[0-9a-f]{64}$/);
      const ref = { fileAssetId: hit!.fileAssetId, chunkId: hit!.chunkId };
      expect((await validateReferences(ctx, [ref]))[0]!.status).toBe('valid');
      await moveFile(ctx, { from: 'kb/policy.md', to: 'kb/old/policy.md' });
      expect((await validateReferences(ctx, [ref]))[0]).toMatchObject({ status: 'moved', path: 'kb/old/policy.md' });
      await putFile(ctx, { path: 'kb/old/policy.md', source: 'Refunds are no longer offered.' });
      expect((await validateReferences(ctx, [ref]))[0]).toMatchObject({ status: 'changed', currentVersion: 2 });
      // The old version's chunks left search with the edit; the new version is searchable once parsed.
      expect((await searchChunks(ctx, { query: 'within 14 days' })).some((h) => h.chunkId === ref.chunkId)).toBe(false);
      await processPendingAssets(t.platform);
      expect((await searchChunks(ctx, { query: 'no longer offered' }))[0]?.version).toBe(2);
      await deleteFile(ctx, { path: 'kb/old/policy.md' });
      expect((await validateReferences(ctx, [ref]))[0]!.status).toBe('deleted');
      expect((await validateReferences(ctx, [{ fileAssetId: 'fa_x', chunkId: 'ch_y' }]))[0]!.status).toBe('not_found');
    });

    it('shows an own-folder agent only chunks of files it may read', async () => {
      const admin = await t.admin();
      const agent = await createAgent(admin, { name: 'Reader', files: 'on', read: 'own' });
      await putFile(admin, { path: `agents/${agent.id}/notes/turbine-own.md`, source: 'Own notes about turbine blade inspection.' });
      const actx = await t.agentCtx(agent.id);
      await understandFile(actx, { path: `agents/${agent.id}/notes/turbine-own.md` });
      const hits = await searchChunks(actx, { query: 'turbine blade inspection', limit: 50 });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => h.path.startsWith(`agents/${agent.id}/`))).toBe(true);
      await expect(searchChunks(actx, { query: 'turbine', file: 'manuals/turbine.md' })).rejects.toMatchObject({ code: 'forbidden' });
    });
  });
}

describe('document tools for agents', () => {
  it('parses, searches with citations and validates through the tool runner; refusals are text', async () => {
    const { callTool: runAnyTool } = await import('../operations/tool-ops.js');
    const { createConversation } = await import('../conversations/conversations.js');
    const t = await createTestPlatform('sqlite');
    try {
      const admin = await t.admin();
      const agent = await createAgent(admin, { name: 'Cite', files: 'on' });
      const conv = await createConversation(admin, { members: [agent.id] });
      await putFile(admin, { path: 'kb/terms.md', source: 'The notice period is three months.\n\nPayment is due on receipt.' });
      const ctx = await t.agentCtx(agent.id, conv.id);
      const u = await runAnyTool(ctx, 'docs_understand', { path: 'kb/terms.md' });
      expect(u.text).toMatch(/ready; 1 chunks/);
      const s = await runAnyTool(ctx, 'docs_search', { query: 'notice period' });
      const m = /file_asset_id (\S+), chunk_id (\S+)\)/.exec(s.text);
      expect(m).not.toBeNull();
      const v = await runAnyTool(ctx, 'docs_validate', { references: [{ file_asset_id: m![1], chunk_id: m![2] }] });
      expect(v.text).toMatch(/ — valid/);
      const bad = await runAnyTool(ctx, 'docs_chunks', { path: 'kb/none.md' });
      expect(bad.refused).toBe(true);
      expect(bad.text).toMatch(/^Refused: /);
    } finally {
      await t.cleanup();
    }
  });
});
