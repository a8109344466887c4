import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDbKinds } from '@stoa/db/testing';
import { processPendingAssets } from '@stoa/core';
import { createAgent, createConversation, createToken, listTrace, makePdf, putFile, runWikiTool } from '@stoa/core/testing';
import { createTestPlatform, type TestPlatform } from '@stoa/core/testing';
import { buildApp } from '../../app.js';

// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe('wiki and search over HTTP', { shuffle: false }, () => {
  describe.each(testDbKinds())('wiki and search over HTTP on %s', (kind) => {
    let t: TestPlatform;
    let app: FastifyInstance;
    const tok: Record<string, string> = {};
    const call = async (who: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) => {
      const res = await app.inject({
        method,
        url: `/api/v1/projects/default${url}`,
        headers: { authorization: `Bearer ${tok[who]}` },
        ...(body ? { payload: body as any } : {}),
      });
      return { status: res.statusCode, body: res.json() as any };
    };

    beforeAll(async () => {
      t = await createTestPlatform(kind);
      app = await buildApp({ platform: t.platform, webRoot: null });
      const admin = await t.admin();
      const alice = await t.userCtx('alice', 'editor');
      await t.userCtx('bob', 'editor');
      await createConversation(alice, { channel: 'ops' });
      tok.alice = (await createToken(admin, { user: 'alice' })).token;
      tok.bob = (await createToken(admin, { user: 'bob' })).token;
    });
    afterAll(async () => {
      await app.close();
      await t.cleanup();
    });

    it('saves, conflicts with 409 and the current version in the body, and hides channel pages from non-members', async () => {
      expect((await call('alice', 'PUT', '/wiki/page', { path: 'runbook', title: 'Runbook', text: 'Restart the server.' })).status).toBe(200);
      expect((await call('alice', 'PUT', '/wiki/page', { path: 'runbook', text: 'Restart the server twice.', base: 1 })).body.version).toBe(2);
      const late = await call('bob', 'PUT', '/wiki/page', { path: 'runbook', text: 'mine', base: 1 });
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ code: 'version_conflict', currentVersion: 2 });

      await call('alice', 'PUT', '/wiki/page', { path: 'runbook/incident', title: 'Incident', text: 'Page the on-call. Back to [[runbook]].', channel: 'ops' });
      const a = await call('alice', 'GET', '/wiki/page?path=runbook');
      expect(a.body.linkedHere).toEqual([{ path: 'runbook/incident', title: 'Incident' }]);
      const b = await call('bob', 'GET', '/wiki/page?path=runbook');
      expect(b.body.linkedHere).toEqual([]);
      expect((await call('bob', 'GET', '/wiki/pages')).body.map((p: any) => p.path)).toContain('runbook');
      expect((await call('bob', 'GET', '/wiki/pages')).body.map((p: any) => p.path)).not.toContain('runbook/incident');
      expect((await call('bob', 'GET', '/wiki/page?path=runbook/incident')).status).toBe(404);
      expect((await call('bob', 'GET', '/wiki/history?path=runbook/incident')).status).toBe(404);
      expect((await call('bob', 'GET', '/wiki/search?q=on-call')).body).toEqual([]);
      expect((await call('bob', 'GET', '/search?q=on-call')).body).toEqual([]);
      expect((await call('alice', 'GET', '/wiki/search?q=on-call')).body.map((h: any) => h.path)).toEqual(['runbook/incident']);
      expect((await call('bob', 'DELETE', '/wiki/page?path=runbook/incident')).status).toBe(404);
    });

    it('search covers file contents with kind, path, snippet and score, best first', async () => {
      await putFile(await t.admin(), { path: 'ops/restart.md', source: 'How to restart the server safely.' });
      await runWikiTool(await t.admin(), 'wiki_put', { path: 'ops-guide', text: 'Restart the server only at night.' });
      const r = await call('bob', 'GET', '/search?q=restart%20server');
      expect(r.status).toBe(200);
      expect(r.body.map((h: any) => `${h.kind}:${h.path}`)).toEqual(expect.arrayContaining(['file:ops/restart.md', 'wiki:ops-guide']));
      for (const h of r.body) expect(h).toMatchObject({ snippet: expect.stringMatching(/restart/i), score: expect.any(Number) });
      expect((await call('bob', 'GET', '/search?q=restart&kinds=file')).body.map((h: any) => h.kind)).toEqual(['file']);
    });

    it('search finds the text of an uploaded PDF, with a citation of its chunk', async () => {
      const up = await app.inject({
        method: 'PUT',
        url: '/api/v1/projects/default/files/content?path=contracts/lease.pdf',
        headers: { authorization: `Bearer ${tok.alice}`, 'content-type': 'application/pdf' },
        payload: makePdf(['Lease of the flat', 'The landlord keeps the deposit for a month.']),
      });
      expect(up.statusCode).toBeLessThan(300);
      await processPendingAssets(t.platform); // what the server's background pass does every 2 s
      const r = await call('bob', 'GET', '/search?q=landlord');
      expect(r.status).toBe(200);
      expect(r.body).toEqual([
        expect.objectContaining({
          kind: 'document',
          path: 'contracts/lease.pdf',
          snippet: expect.stringContaining('landlord'),
          citation: expect.objectContaining({ version: 1, page: 2, chunkId: expect.any(String), fileAssetId: expect.any(String) }),
        }),
      ]);
      const { fileAssetId, chunkId } = r.body[0].citation;
      const v = await call('bob', 'POST', '/docs/validate', { references: [{ fileAssetId, chunkId }] });
      expect(v.body).toMatchObject([{ status: 'valid' }]);
      expect((await call('bob', 'GET', '/search?q=landlord&kinds=wiki,file')).body).toEqual([]);
    });

    it('diff, rename, move dry run and import through the routes; OpenAPI lists them', async () => {
      const d = await call('bob', 'GET', '/wiki/diff?path=runbook&from=1&to=2');
      expect(d.body.text).toBe('-Restart the server.\n+Restart the server twice.');
      expect((await call('bob', 'POST', '/wiki/rename', { path: 'runbook', title: 'Ops runbook' })).body).toMatchObject({ title: 'Ops runbook', version: 3 });
      const dry = await call('bob', 'POST', '/wiki/move', { from: 'runbook', to: 'ops', dryRun: true });
      expect(dry.body).toMatchObject({ dryRun: true, moved: [{ from: 'runbook', to: 'ops' }], hidden: 1, brokenLinks: [] });
      const imp = await call('bob', 'POST', '/wiki/import', { files: [{ file: 'A/B.md', text: '# Bee\nbuzz' }] });
      expect(imp.body.imported).toEqual([{ file: 'A/B.md', path: 'a/b', title: 'Bee', version: 1, created: true }]);
      const spec = (await app.inject({ url: '/api/v1/openapi.json' })).json() as any;
      expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/api/v1/projects/{project}/wiki/page', '/api/v1/projects/{project}/search']));
    });

    it('agents use the wiki tools; refusals are "Refused:" text', async () => {
      const admin = await t.admin();
      const scribe = await createAgent(admin, { name: 'Scribe' });
      const dialog = await createConversation(admin, { members: [scribe.id] });
      const agent = await t.agentCtx(scribe.id, dialog.id);
      const put = await runWikiTool(agent, 'wiki_put', { path: 'notes/agent', title: 'Agent notes', text: 'The scribe was here.' });
      expect(put).toMatchObject({ refused: false, version: 1 });
      expect((await runWikiTool(agent, 'wiki_get', { path: 'notes/agent' })).text).toContain('The scribe was here.');
      expect((await runWikiTool(agent, 'wiki_search', { query: 'scribe' })).text).toContain('notes/agent');
      expect((await runWikiTool(agent, 'search', { query: 'scribe' })).text).toContain('[wiki] notes/agent');
      const conflict = await runWikiTool(agent, 'wiki_put', { path: 'notes/agent', text: 'x', expected_version: 0 });
      expect(conflict).toMatchObject({ refused: true, code: 'version_conflict' });
      expect(conflict.text).toMatch(/^Refused: page "notes\/agent" already exists at version 1/);
      expect((await runWikiTool(agent, 'wiki_get', { path: 'runbook/incident' })).text).toBe('Refused: page "runbook/incident" does not exist');
      const trace = (await listTrace(admin, dialog.id)).entries;
      expect(trace.map((e) => [e.tool, e.refused])).toEqual([
        ['wiki_put', false],
        ['wiki_get', false],
        ['wiki_search', false],
        ['search', false],
        ['wiki_put', true],
        ['wiki_get', true],
      ]);
      expect(trace[0]).toMatchObject({ agentName: 'Scribe', path: 'notes/agent', version: 1 });
    });
  });
});
