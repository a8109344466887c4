import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { authenticate } from '../projects/tokens.js';
import { removeMember } from '../projects/members.js';
import { createAgent, deleteAgent } from '../agents/agents.js';
import { createProjectFor } from '../projects/projects.js';
import { contextFor, localAdminPrincipal } from '../context.js';
import { saveOAuthClient } from './oauth-clients.js';
import { approveOAuthGrant, exchangeOAuthCode, listOAuthGrants, oauthCodeChallenge, refreshOAuthToken, sweepOAuthCredentials } from './oauth-grants.js';

const RESOURCE = 'https://stoa.example/mcp';
const REDIRECT = 'http://127.0.0.1:8123/callback';

describe.each(testDbKinds())('OAuth grants in the core (%s)', (kind) => {
  let t: TestPlatform;
  let now = new Date('2026-01-01T00:00:00Z');
  afterEach(() => t?.cleanup());

  /** An editor who owns an agent, a registered client, and a consent with its code exchanged. */
  async function granted() {
    now = new Date('2026-01-01T00:00:00Z');
    t = await createTestPlatform(kind, {}, { clock: () => now });
    const ana = await t.userCtx('ana', 'editor');
    const agent = await createAgent(ana, { name: 'Scribe', files: 'on' });
    await saveOAuthClient(t.platform, { client_id: 'cli_1', client_name: 'Test', redirect_uris: [REDIRECT] });
    const verifier = randomBytes(32).toString('base64url');
    const codeChallenge = createHash('sha256').update(verifier).digest('base64url');
    // A loopback redirect matches on any port (RFC 8252).
    const redirectUri = 'http://127.0.0.1:9999/callback';
    const { id, redirectTo } = await approveOAuthGrant(ana, {
      agent: agent.id,
      clientId: 'cli_1',
      redirectUri,
      codeChallenge,
      resource: RESOURCE,
      state: 's1',
    });
    const back = new URL(redirectTo);
    expect(back.searchParams.get('state')).toBe('s1');
    const code = back.searchParams.get('code')!;
    expect(await oauthCodeChallenge(t.platform, 'cli_1', code)).toBe(codeChallenge);
    const tokens = await exchangeOAuthCode(t.platform, { clientId: 'cli_1', code, redirectUri, resource: RESOURCE });
    return { ana, agent, grant: id, code, tokens };
  }

  it('an access token acts as the agent at its resource only, and ends with its hour', async () => {
    const { agent, tokens } = await granted();
    expect(await authenticate(t.platform, tokens.access_token, { resource: RESOURCE })).toMatchObject({ kind: 'agent', agentId: agent.id });
    await expect(authenticate(t.platform, tokens.access_token)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(authenticate(t.platform, tokens.access_token, { resource: 'https://other.example/mcp' })).rejects.toMatchObject({ code: 'unauthorized' });
    now = new Date(now.getTime() + 3601_000);
    await expect(authenticate(t.platform, tokens.access_token, { resource: RESOURCE })).rejects.toMatchObject({ code: 'unauthorized' });
    // The refresh token still works after the access token expired.
    const next = await refreshOAuthToken(t.platform, { clientId: 'cli_1', refreshToken: tokens.refresh_token });
    expect(await authenticate(t.platform, next.access_token, { resource: RESOURCE })).toMatchObject({ agentId: agent.id });
    // After the refresh token's 30 days the sweep deletes every credential of the grant; none works.
    now = new Date(now.getTime() + 31 * 24 * 3600_000);
    expect(await sweepOAuthCredentials(t.platform)).toBe(5);
    await expect(refreshOAuthToken(t.platform, { clientId: 'cli_1', refreshToken: next.refresh_token })).rejects.toMatchObject({
      details: { oauth: 'invalid_grant' },
    });
  });

  it('a code works once, for its client; presented again it ends the grant', async () => {
    const { code, tokens, ana } = await granted();
    await expect(exchangeOAuthCode(t.platform, { clientId: 'other', code })).rejects.toMatchObject({ details: { oauth: 'invalid_grant' } });
    await expect(exchangeOAuthCode(t.platform, { clientId: 'cli_1', code })).rejects.toMatchObject({ details: { oauth: 'invalid_grant' } });
    await expect(authenticate(t.platform, tokens.access_token, { resource: RESOURCE })).rejects.toMatchObject({ code: 'unauthorized' });
    expect((await listOAuthGrants(ana))[0]!.revokedAt).not.toBeNull();
  });

  it('the grant ends when its person leaves the project or its agent is deleted', async () => {
    const first = await granted();
    await removeMember(await t.admin(), { user: 'ana' });
    await expect(authenticate(t.platform, first.tokens.access_token, { resource: RESOURCE })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(refreshOAuthToken(t.platform, { clientId: 'cli_1', refreshToken: first.tokens.refresh_token })).rejects.toMatchObject({
      details: { oauth: 'invalid_grant' },
    });
    await t.cleanup();

    const second = await granted();
    await deleteAgent(second.ana, second.agent.id);
    await expect(authenticate(t.platform, second.tokens.access_token, { resource: RESOURCE })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('the installation administrator consents only where they are a member (the grant would reach nothing)', async () => {
    t = await createTestPlatform(kind, {}, { clock: () => now });
    const ana = await t.userCtx('ana', 'editor');
    if (ana.actor.kind !== 'user') throw new Error('ana is a person');
    await createProjectFor(t.platform, { kind: 'user', userId: ana.actor.userId, name: 'ana', superuser: false }, { name: 'side' });
    const anaSide = await contextFor(t.platform, { kind: 'user', userId: ana.actor.userId, name: 'ana', superuser: false }, { project: 'side' });
    const agent = await createAgent(anaSide, { name: 'Side', files: 'on' });
    await saveOAuthClient(t.platform, { client_id: 'cli_1', redirect_uris: [REDIRECT] });
    const adminSide = await contextFor(t.platform, await localAdminPrincipal(t.platform), { project: 'side' });
    const input = { agent: agent.id, clientId: 'cli_1', redirectUri: REDIRECT, codeChallenge: 'c'.repeat(43), resource: RESOURCE };
    await expect(approveOAuthGrant(adminSide, input)).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining('not a member') });
    expect((await approveOAuthGrant(anaSide, input)).redirectTo).toContain('code=');
  });

  it('a code presented after ten minutes is refused', async () => {
    t = await createTestPlatform(kind, {}, { clock: () => now });
    const ana = await t.userCtx('ana', 'editor');
    const agent = await createAgent(ana, { name: 'Scribe', files: 'on' });
    await saveOAuthClient(t.platform, { client_id: 'cli_1', redirect_uris: [REDIRECT] });
    const { redirectTo } = await approveOAuthGrant(ana, {
      agent: agent.id,
      clientId: 'cli_1',
      redirectUri: REDIRECT,
      codeChallenge: 'c'.repeat(43),
      resource: RESOURCE,
    });
    now = new Date(now.getTime() + 601_000);
    await expect(exchangeOAuthCode(t.platform, { clientId: 'cli_1', code: new URL(redirectTo).searchParams.get('code')! })).rejects.toMatchObject({
      details: { oauth: 'invalid_grant' },
    });
  });
});
