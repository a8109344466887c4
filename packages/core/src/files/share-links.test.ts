import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { createAgent } from '../agents/agents.js';
import { removeMember } from '../projects/members.js';
import { listAudit } from '../audit/audit.js';
import { putFile } from './put-file.js';
import { moveFile } from './move-file.js';
import { deleteFile } from './delete-file.js';
import { createShareLink, listShareLinks, openShareLink, revokeShareLink } from './share-links.js';

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const text = async (s: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
};

describe.each(testDbKinds())('share links on %s', (kind) => {
  let t: TestPlatform;
  let editor: Ctx;
  let now = new Date('2026-12-01T10:00:00Z');

  beforeAll(async () => {
    t = await createTestPlatform(kind, {}, { clock: () => now });
    editor = await t.userCtx('eve', 'editor');
  });
  afterAll(() => t.cleanup());

  it('opens the current version across a move until it expires; only a hash of the secret is stored', async () => {
    await putFile(editor, { path: 'share/a.txt', source: 'one' });
    const link = await createShareLink(editor, { path: 'share/a.txt', expiresIn: 3600 });
    expect(link).toMatchObject({ path: 'share/a.txt', createdBy: 'eve', url: expect.stringMatching(/^\/api\/v1\/share-links\/[\w-]{43}$/) });
    const stored = await t.platform.db.kysely.selectFrom('share_links').selectAll().where('id', '=', link.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link.url));
    await putFile(editor, { path: 'share/a.txt', source: 'two' });
    await moveFile(editor, { from: 'share/a.txt', to: 'moved/a.txt' });
    const opened = await openShareLink(t.platform, tokenOf(link.url));
    expect([opened.info.path, await text(opened.stream)]).toEqual(['moved/a.txt', 'two']);
    expect((await listShareLinks(editor, { path: 'moved/a.txt' })).map((l) => l.id)).toEqual([link.id]);
    expect((await listAudit(await t.admin(), { limit: 10 })).entries.map((e) => e.action)).toContain('share.create');
    now = new Date(now.getTime() + 3601_000);
    await expect(openShareLink(t.platform, tokenOf(link.url))).rejects.toMatchObject({ code: 'unauthorized', details: { reason: 'expired' } });
    expect(await listShareLinks(editor, { path: 'moved/a.txt' })).toEqual([]);
  });

  it('a revoked link, a deleted file and a maker who left the project share nothing', async () => {
    await putFile(editor, { path: 'share/b.txt', source: 'b' });
    const revoked = await createShareLink(editor, { path: 'share/b.txt', expiresIn: 600 });
    await revokeShareLink(editor, { id: revoked.id });
    await expect(openShareLink(t.platform, tokenOf(revoked.url))).rejects.toMatchObject({ code: 'unauthorized', details: { reason: 'revoked' } });

    const deleted = await createShareLink(editor, { path: 'share/b.txt', expiresIn: 600 });
    await deleteFile(editor, { path: 'share/b.txt' });
    await expect(openShareLink(t.platform, tokenOf(deleted.url))).rejects.toMatchObject({ code: 'not_found', details: { reason: 'gone' } });

    const leaver = await t.userCtx('lou', 'editor');
    await putFile(leaver, { path: 'share/c.txt', source: 'c' });
    const left = await createShareLink(leaver, { path: 'share/c.txt', expiresIn: 600 });
    expect(await text((await openShareLink(t.platform, tokenOf(left.url))).stream)).toBe('c');
    await removeMember(await t.admin(), { user: 'lou' });
    await expect(openShareLink(t.platform, tokenOf(left.url))).rejects.toMatchObject({ code: 'not_found', details: { reason: 'gone' } });
    await expect(openShareLink(t.platform, 'x'.repeat(43))).rejects.toMatchObject({ code: 'not_found', details: { reason: 'unknown' } });
  });

  it('viewers and agents may not publish or revoke a link; viewers see the list', async () => {
    await putFile(editor, { path: 'share/d.txt', source: 'd' });
    const link = await createShareLink(editor, { path: 'share/d.txt', expiresIn: 600 });
    const viewer = await t.userCtx('vic', 'viewer');
    await expect(createShareLink(viewer, { path: 'share/d.txt', expiresIn: 600 })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(revokeShareLink(viewer, { id: link.id })).rejects.toMatchObject({ code: 'forbidden' });
    expect((await listShareLinks(viewer, { path: 'share/d.txt' })).map((l) => l.id)).toEqual([link.id]);
    const a = await createAgent(await t.admin(), { name: 'Writer', files: 'on', read: 'project' });
    await expect(createShareLink(await t.agentCtx(a.id), { path: 'share/d.txt', expiresIn: 600 })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(revokeShareLink(editor, { id: 'shr_nope' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
