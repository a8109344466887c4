import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { contextFor, localAdminPrincipal } from '../context.js';
import { authenticate, createToken, listTokens, revokeToken } from './tokens.js';
import { createProjectFor } from './projects.js';
import { addMember } from './members.js';
import { acceptInvitation, createInvitation } from './invitations.js';
import { createLoginCode, redeemLoginCode } from './login.js';
import { bootstrap } from './bootstrap.js';
import { newToken } from '../ids.js';
import { createAgent } from '../agents/agents.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

describe.each(kinds)('the access model for tokens (%s)', (kind) => {
  let t: TestPlatform;
  let rootToken: string;
  /** Mallory: admin of her own project "mal", and nothing else. */
  let malToken: string;

  beforeAll(async () => {
    t = await createTestPlatform(kind, {}, { clock: () => now });
    rootToken = newToken();
    t.platform.config.adminToken = rootToken;
    t.platform.config.auth = { failures: 3, windowSeconds: 60 };
    await bootstrap(t.platform);
    const root = await authenticate(t.platform, rootToken);
    await createProjectFor(t.platform, root, { name: 'helper' });
    // The installation admin makes Mallory an admin of "default" and mints her first token; she then makes "mal".
    const adminCtx = await t.admin();
    await addMember(adminCtx, { user: 'mallory', role: 'admin' });
    const seed = await createToken(adminCtx, { user: 'mallory' });
    const malPrincipal = await authenticate(t.platform, seed.token);
    expect(malPrincipal).toMatchObject({ kind: 'user', superuser: false, projectId: adminCtx.project.id });
    // As she would with the token of her own invitation (installation-wide).
    const malEverywhere = { kind: 'user' as const, userId: (malPrincipal as { userId: string }).userId, name: 'mallory', superuser: false };
    await createProjectFor(t.platform, malEverywhere, { name: 'mal' });
    await expect(createProjectFor(t.platform, malPrincipal, { name: 'mal2' })).rejects.toMatchObject({ code: 'forbidden' });
    const inMal = await contextFor(t.platform, malEverywhere, { project: 'mal' });
    malToken = (await createToken(inMal, {})).token;
  }, 60_000);
  afterAll(() => t.cleanup());

  let now = new Date('2026-12-03T08:00:00Z');

  it('attack 1: a project admin who adds the installation admin as a member cannot mint a token for them', async () => {
    const mal = await contextFor(t.platform, await authenticate(t.platform, malToken), { project: 'mal' });
    await addMember(mal, { user: 'admin', role: 'viewer' });
    await expect(createToken(mal, { user: 'admin' })).rejects.toMatchObject({ code: 'forbidden' });
    // Her own token is confined to "mal" and is no superuser.
    const p = await authenticate(t.platform, malToken);
    expect(p).toMatchObject({ kind: 'user', superuser: false });
    await expect(contextFor(t.platform, p, { project: 'default' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(contextFor(t.platform, p, { project: 'helper' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('attack 2: a project admin cannot revoke a token of another project (and learns nothing about it)', async () => {
    const mal = await contextFor(t.platform, await authenticate(t.platform, malToken), { project: 'mal' });
    const admin = await t.admin();
    const victim = await createToken(admin, {});
    await expect(revokeToken(mal, { id: victim.id })).rejects.toMatchObject({ code: 'not_found', message: 'token does not exist' });
    await expect(revokeToken(mal, { id: 'tok_doesnotexist00' })).rejects.toMatchObject({ code: 'not_found', message: 'token does not exist' });
    expect(await authenticate(t.platform, victim.token)).toMatchObject({ kind: 'user' });
    expect((await listTokens(mal)).map((x) => x.id)).not.toContain(victim.id);
  });

  it('superuser comes from the token, not from the name "admin"', async () => {
    expect(await authenticate(t.platform, rootToken)).toMatchObject({ superuser: true });
    const own = await createToken(await t.admin(), { name: 'mine' });
    expect(await authenticate(t.platform, own.token)).toMatchObject({ name: 'admin', superuser: false });
    const code = await createLoginCode(t.platform, ((await authenticate(t.platform, rootToken)) as { userId: string }).userId, { superuser: true });
    const session = await redeemLoginCode(t.platform, code);
    expect(await authenticate(t.platform, session.token)).toMatchObject({ superuser: true });
  });

  it('a login link redeemed ten times at once gives exactly one session', async () => {
    const root = (await authenticate(t.platform, rootToken)) as { userId: string };
    const code = await createLoginCode(t.platform, root.userId);
    const tries = await Promise.allSettled(Array.from({ length: 10 }, () => redeemLoginCode(t.platform, code)));
    expect(tries.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of tries) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'unauthorized' });
  });

  it("people mint their own tokens; agents' tokens by their owner or an admin; another person's only by the installation admin", async () => {
    const admin = await t.admin();
    await addMember(admin, { user: 'ed', role: 'editor' });
    await addMember(admin, { user: 'vi', role: 'viewer' });
    const ed = await t.userCtx('ed', 'editor');
    const vi = await t.userCtx('vi', 'viewer');
    expect((await createToken(vi, {})).user).toBe('vi');
    await expect(createToken(ed, { user: 'vi' })).rejects.toMatchObject({ code: 'forbidden' });
    const agent = await createAgent(ed, { name: 'Helper' });
    expect((await createToken(ed, { agent: agent.id })).agent).toBe(agent.id);
    await expect(createToken(vi, { agent: agent.id })).rejects.toMatchObject({ code: 'forbidden' });
    expect((await createToken(admin, { user: 'vi' })).user).toBe('vi');
    const agentCtx = await t.agentCtx(agent.id);
    await expect(createToken(agentCtx, {})).rejects.toMatchObject({ code: 'forbidden' });
  });

  it("revoking: own tokens; a project admin those confined to its project; nobody else's", async () => {
    const admin = await t.admin();
    const ed = await t.userCtx('ed', 'editor');
    const vi = await t.userCtx('vi', 'viewer');
    const viTok = await createToken(vi, {});
    await expect(revokeToken(ed, { id: viTok.id })).rejects.toMatchObject({ code: 'forbidden' });
    await revokeToken(vi, { id: (await createToken(vi, {})).id });
    await revokeToken(admin, { id: viTok.id });
    await expect(authenticate(t.platform, viTok.token)).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it("an invitation is redeemed once, for a new person's own token; it never takes over an existing person", async () => {
    await t.userCtx('ed', 'editor'); // an existing person an invitation must not take over
    const mal = await contextFor(t.platform, await authenticate(t.platform, malToken), { project: 'mal' });
    const forAdmin = await createInvitation(mal, { role: 'admin', user: 'admin' });
    await expect(acceptInvitation(t.platform, null, { code: forAdmin.code })).rejects.toMatchObject({ code: 'already_exists' });
    const open = await createInvitation(mal, { role: 'editor' });
    await expect(acceptInvitation(t.platform, null, { code: open.code, user: 'ed' })).rejects.toMatchObject({ code: 'already_exists' });
    const joined = await acceptInvitation(t.platform, null, { code: open.code, user: 'newbie' });
    expect(joined).toMatchObject({ project: { name: 'mal' }, role: 'editor', user: 'newbie' });
    expect(await authenticate(t.platform, joined.token!)).toMatchObject({ name: 'newbie', superuser: false });
    await expect(acceptInvitation(t.platform, null, { code: open.code, user: 'other' })).rejects.toMatchObject({ code: 'unauthorized' });
    // A signed-in person accepts for themself.
    const forEd = await createInvitation(mal, { role: 'viewer', user: 'ed' });
    const edPrincipal = await authenticate(t.platform, (await createToken(await t.userCtx('ed', 'editor'), {})).token);
    const viPrincipal = await authenticate(t.platform, (await createToken(await t.userCtx('vi', 'viewer'), {})).token);
    await expect(acceptInvitation(t.platform, viPrincipal, { code: forEd.code })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await acceptInvitation(t.platform, edPrincipal, { code: forEd.code })).toMatchObject({ user: 'ed', role: 'viewer' });
    expect(await acceptInvitation(t.platform, edPrincipal, { code: forEd.code }).catch((e) => e.code)).toBe('unauthorized');
    await expect(createInvitation(await t.userCtx('ed', 'editor'), { role: 'viewer' })).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('failed attempts from one address are throttled with a retry time; other addresses are not', async () => {
    for (let i = 0; i < 3; i++) await expect(authenticate(t.platform, 'stoa_wrong', { client: '192.0.2.7' })).rejects.toMatchObject({ code: 'unauthorized' });
    const refused = await authenticate(t.platform, rootToken, { client: '192.0.2.7' }).catch((e) => e);
    expect(refused).toMatchObject({ code: 'rate_limited', details: { retryAfter: 60 } });
    await expect(redeemLoginCode(t.platform, 'nope', { client: '192.0.2.7' })).rejects.toMatchObject({ code: 'rate_limited' });
    expect(await authenticate(t.platform, rootToken, { client: '192.0.2.8' })).toMatchObject({ superuser: true });
    now = new Date(now.getTime() + 61_000);
    expect(await authenticate(t.platform, rootToken, { client: '192.0.2.7' })).toMatchObject({ superuser: true });
  });

  it('local mode acts as the installation administrator', async () => {
    expect(await localAdminPrincipal(t.platform)).toMatchObject({ superuser: true });
  });
});
