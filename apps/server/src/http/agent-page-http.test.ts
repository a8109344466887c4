import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createLoginCode, redeemLoginCode } from '@stoa/core/testing';
import { createTestApp, type TestApp } from './test-app.js';

describe("an agent's page over HTTP: its tokens, its conversations and its write counts (A1, A4, A7)", () => {
  let s: TestApp;
  let n = 0;
  beforeAll(async () => {
    s = await createTestApp('sqlite', { agentWritesPerConversation: 3 });
  });
  afterAll(async () => s?.close());

  const api: TestApp['api'] = (...args) => s.api(...args);
  const editor = async () => {
    const m = await addMember(await s.t.admin(), { user: `page-${++n}`, role: 'editor' });
    return (await redeemLoginCode(s.t.platform, await createLoginCode(s.t.platform, m.userId))).token;
  };

  it('lists only the tokens and conversations of one agent, counts its writes, and hides them from another editor', async () => {
    const alice = await editor();
    const bob = await editor();
    const agent = (await api('POST', '/projects/default/agents', alice, { name: 'Pager', files: 'on', write: 'project' })).body;
    const other = (await api('POST', '/projects/default/agents', alice, { name: 'Other' })).body;
    expect((await api('POST', '/projects/default/agents', alice, { name: 'Pager' })).body.code).toBe('already_exists');
    const tok = await api('POST', '/projects/default/tokens', alice, { agent: agent.id, name: 'runner' });
    expect(tok.status).toBe(201);
    await api('POST', '/projects/default/tokens', alice, { agent: other.id });
    const mine = await api('GET', `/projects/default/tokens?agent=${agent.id}`, alice);
    expect(mine.body.map((t: any) => [t.id, t.agent])).toEqual([[tok.body.id, agent.id]]);

    const conv = (await api('POST', '/projects/default/conversations', alice, { members: [agent.id], kind: 'dialog' })).body;
    await api('POST', '/projects/default/conversations', alice, { members: [other.id], kind: 'dialog' });
    const call = (path: string) =>
      api('POST', '/projects/default/tools/ws_write_file/call', tok.body.token, { arguments: { path, content: 'x' } }, { 'x-stoa-conversation': conv.id });
    for (const p of ['p/a.md', 'p/b.md']) expect((await call(p)).body.refused).toBe(false);
    const convs = await api('GET', `/projects/default/conversations?agent=${agent.id}`, alice);
    expect(convs.body.map((c: any) => [c.id, c.writes.used, c.writes.max])).toEqual([[conv.id, 2, 3]]);
    expect(convs.body[0].writes.resetsAt).toEqual(expect.any(String));

    // Bob, an editor who neither owns the agent nor takes part: no tokens, no conversations, no revoking, no trace.
    expect((await api('GET', `/projects/default/tokens?agent=${agent.id}`, bob)).body).toEqual([]);
    expect((await api('GET', `/projects/default/conversations?agent=${agent.id}`, bob)).body).toEqual([]);
    const revoke = await api('DELETE', `/projects/default/tokens/${tok.body.id}`, bob);
    expect(revoke.status).toBe(403);
    // Not in the conversation: it answers exactly as a missing one (issue 27).
    const hidden = await api('GET', `/projects/default/conversations/${conv.id}/trace`, bob);
    const missing = await api('GET', `/projects/default/conversations/conv_nosuchconversation/trace`, bob);
    expect(hidden.status).toBe(404);
    const same = (r: { body: Record<string, string> }, id: string) => JSON.parse(JSON.stringify(r.body).replaceAll(id, 'X'));
    expect(same(hidden, conv.id)).toEqual(same(missing, 'conv_nosuchconversation'));
    expect((await call('p/c.md')).body.refused).toBe(false);

    // The owner revokes it; the token is refused from then on.
    expect((await api('DELETE', `/projects/default/tokens/${tok.body.id}`, alice)).status).toBe(200);
    expect((await call('p/d.md')).status).toBe(401);
  });
});
