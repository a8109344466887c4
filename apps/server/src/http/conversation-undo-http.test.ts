import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createLoginCode, redeemLoginCode } from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';

describe('undo an agent over HTTP: review a conversation’s changes and revert them (B11)', () => {
  let s: TestApp;
  let n = 0;
  beforeAll(async () => {
    s = await createTestApp('sqlite', { agentWritesPerConversation: 100 });
  });
  afterAll(async () => s?.close());

  const api: TestApp['api'] = (...args) => s.api(...args);
  const member = async (role: 'editor' | 'viewer') => {
    const m = await addMember(await s.t.admin(), { user: `undo-${++n}`, role });
    return { name: `undo-${n}`, token: (await redeemLoginCode(s.t.platform, await createLoginCode(s.t.platform, m.userId))).token };
  };

  it('lists the changes with diffs, reverts all but the item changed since, and refuses agents, viewers and outsiders', async () => {
    const alice = await member('editor');
    const agent = (await api('POST', '/projects/default/agents', alice.token, { name: 'Undoer', files: 'on', write: 'project' })).body;
    const tok = (await api('POST', '/projects/default/tokens', alice.token, { agent: agent.id })).body.token;
    const conv = (await api('POST', '/projects/default/conversations', alice.token, { members: [agent.id], kind: 'dialog' })).body;
    const call = (name: string, args: unknown) =>
      api('POST', `/projects/default/tools/${name}/call`, tok, { arguments: args }, { 'x-stoa-conversation': conv.id });
    for (const [name, args] of [
      ['ws_write_file', { path: 'u/made.md', content: 'made by agent\n' }],
      ['ws_write_file', { path: 'u/edited.md', content: 'agent text\n' }],
      ['wiki_put', { path: 'undo/page', text: 'agent page\n' }],
    ] as const)
      expect((await call(name, args)).body.refused).toBe(false);
    // Alice edits one of them after the agent.
    expect(
      (await api('PUT', '/projects/default/files/content?path=u/edited.md', alice.token, 'alice text\n', { 'content-type': 'application/octet-stream' }))
        .status,
    ).toBeLessThan(300);

    const review = await api('GET', `/projects/default/conversations/${conv.id}/changes`, alice.token);
    expect(review.status).toBe(200);
    const by = Object.fromEntries(review.body.items.map((i: any) => [i.ref, i]));
    expect(Object.keys(by).sort()).toEqual(['file:u/edited.md', 'file:u/made.md', 'wiki:undo/page']);
    expect(by['file:u/made.md'].diff).toContain('+made by agent');
    expect(by['file:u/edited.md'].status).toBe('conflict');

    expect((await api('GET', `/projects/default/conversations/${conv.id}/changes`, tok)).status).toBe(403);
    expect((await api('GET', `/projects/default/conversations/${conv.id}/changes`, (await member('viewer')).token)).status).toBe(403);
    const outsider = await member('editor');
    expect((await api('POST', `/projects/default/conversations/${conv.id}/revert`, outsider.token, {})).body.code).toBe('not_found');
    expect((await api('POST', `/projects/default/conversations/${conv.id}/revert`, alice.token, { item: ['x'] })).status).toBe(400);

    const undo = await api('POST', `/projects/default/conversations/${conv.id}/revert`, alice.token, {});
    expect(undo.status).toBe(200);
    expect(Object.fromEntries(undo.body.results.map((r: any) => [r.ref, r.status]))).toEqual({
      'file:u/made.md': 'reverted',
      'file:u/edited.md': 'conflict',
      'wiki:undo/page': 'reverted',
    });
    expect((await api('GET', '/projects/default/files/stat?path=u/made.md', alice.token)).status).toBe(404);
    const edited = await s.app.inject({ method: 'GET', url: '/api/v1/projects/default/files/content?path=u/edited.md', headers: s.auth(alice.token) });
    expect(edited.body).toBe('alice text\n');
  });
});
