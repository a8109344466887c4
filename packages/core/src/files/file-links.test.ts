import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import { createAgent } from '../agents/agents.js';
import { putFile } from './put-file.js';
import { moveFile } from './move-file.js';
import { openSignedLink, resolveFile } from './file-links.js';

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
const text = async (s: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
};

describe.each(testDbKinds())('expiring file links on %s', (kind) => {
  let t: TestPlatform;
  let editor: Ctx;
  let now = new Date('2026-12-01T10:00:00Z');

  beforeAll(async () => {
    t = await createTestPlatform(kind, { agentReadBytes: 1000 }, { clock: () => now });
    editor = await t.userCtx('eve', 'editor');
  });
  afterAll(() => t.cleanup());

  it('a link opens the version it names until it expires, and follows the file by id across a move', async () => {
    await putFile(editor, { path: 'links/a.txt', source: 'one' });
    const { file } = await putFile(editor, { path: 'links/a.txt', source: 'two' });
    const current = await resolveFile(editor, { path: 'links/a.txt', expiresIn: 60 });
    const first = await resolveFile(editor, { id: file.id, version: 1 });
    expect(current.url).toMatch(/^\/api\/v1\/files\/signed\//);
    expect(await text((await openSignedLink(t.platform, tokenOf(current.url))).stream)).toBe('two');
    expect(await text((await openSignedLink(t.platform, tokenOf(first.url))).stream)).toBe('one');
    await moveFile(editor, { from: 'links/a.txt', to: 'moved/a.txt' });
    expect((await resolveFile(editor, { id: file.id })).file.path).toBe('moved/a.txt');
    expect((await openSignedLink(t.platform, tokenOf(current.url))).info.path).toBe('moved/a.txt');
    now = new Date(now.getTime() + 61_000);
    await expect(openSignedLink(t.platform, tokenOf(current.url))).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(openSignedLink(t.platform, 'bm90IGEgdG9rZW4.AAAA')).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('asks the reader’s rights and limits: viewers resolve, agents within their read limit and scope only', async () => {
    await putFile(editor, { path: 'limits/big.txt', source: 'x'.repeat(5000) });
    await putFile(editor, { path: 'limits/small.txt', source: 'small' });
    const viewer = await t.userCtx('val', 'viewer');
    expect((await resolveFile(viewer, { path: 'limits/big.txt' })).file.size).toBe(5000);
    const a = await createAgent(await t.admin(), { name: 'Reader', files: 'on', read: 'project' });
    const agent = await t.agentCtx(a.id);
    await expect(resolveFile(agent, { path: 'limits/big.txt' })).rejects.toMatchObject({ code: 'too_large' });
    expect((await resolveFile(agent, { path: 'limits/small.txt' })).file.size).toBe(5);
    const own = await t.agentCtx((await createAgent(await t.admin(), { name: 'Own', files: 'on', read: 'own' })).id);
    await expect(resolveFile(own, { path: 'limits/small.txt' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(resolveFile(editor, { path: 'limits/small.txt', expiresIn: 100_000 })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(resolveFile(editor, { id: 'fil_nope' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
