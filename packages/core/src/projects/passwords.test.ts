import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { authenticate } from './tokens.js';
import { acceptInvitation, createInvitation } from './invitations.js';
import { accountOf, changePassword, signInWithPassword } from './passwords.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

describe.each(kinds)('signing in with a password (%s)', (kind) => {
  let t: TestPlatform;

  beforeAll(async () => {
    t = await createTestPlatform(kind);
    t.platform.config.auth = { failures: 3, windowSeconds: 60 };
  }, 60_000);
  afterAll(() => t.cleanup());

  it('an invitation accepted with a password gives a web session, and the password signs the person in again', async () => {
    const inv = await createInvitation(await t.admin(), { role: 'editor', user: 'paula' });
    const joined = await acceptInvitation(t.platform, null, { code: inv.code, password: 'correct horse battery' });
    expect(joined).toMatchObject({ user: 'paula', role: 'editor' });
    const session = await authenticate(t.platform, joined.token);
    expect(session).toMatchObject({ kind: 'user', name: 'paula', superuser: false });
    expect(await accountOf(t.platform, session)).toEqual({ user: 'paula', password: true });

    const again = await signInWithPassword(t.platform, { user: 'paula', password: 'correct horse battery' });
    expect(again.user).toBe('paula');
    expect(await authenticate(t.platform, again.token)).toMatchObject({ name: 'paula' });
  });

  it('refuses a short password before spending the invitation', async () => {
    const inv = await createInvitation(await t.admin(), { role: 'viewer', user: 'shorty' });
    await expect(acceptInvitation(t.platform, null, { code: inv.code, password: 'short' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(acceptInvitation(t.platform, null, { code: inv.code, password: 'long enough now' })).resolves.toMatchObject({ user: 'shorty' });
  });

  it('answers a wrong password, an unknown name and a person without a password alike, and throttles the address', async () => {
    const inv = await createInvitation(await t.admin(), { role: 'viewer', user: 'tom' });
    await acceptInvitation(t.platform, null, { code: inv.code }); // tom holds an API token, no password
    const attempts = [
      { user: 'paula', password: 'wrong password!' },
      { user: 'nobody-here', password: 'correct horse battery' },
      { user: 'tom', password: 'correct horse battery' },
    ];
    const refusals = [];
    for (const a of attempts) refusals.push(await signInWithPassword(t.platform, a, { client: '10.9.9.9' }).catch((e: unknown) => e));
    for (const r of refusals) expect(r).toMatchObject({ code: 'unauthorized', message: 'wrong name or password' });
    // The address used up its attempts: even the right password waits now; another address is unaffected.
    await expect(signInWithPassword(t.platform, { user: 'paula', password: 'correct horse battery' }, { client: '10.9.9.9' })).rejects.toMatchObject({
      code: 'rate_limited',
    });
    await expect(signInWithPassword(t.platform, { user: 'paula', password: 'correct horse battery' }, { client: '10.9.9.8' })).resolves.toMatchObject({
      user: 'paula',
    });
  });

  it('changing a password needs the current one; setting a first one does not', async () => {
    const paula = await authenticate(t.platform, (await signInWithPassword(t.platform, { user: 'paula', password: 'correct horse battery' })).token);
    await expect(changePassword(t.platform, paula, { password: 'a brand new secret' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(changePassword(t.platform, paula, { current: 'not it at all', password: 'a brand new secret' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await changePassword(t.platform, paula, { current: 'correct horse battery', password: 'a brand new secret' });
    await expect(signInWithPassword(t.platform, { user: 'paula', password: 'correct horse battery' })).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(signInWithPassword(t.platform, { user: 'paula', password: 'a brand new secret' })).resolves.toMatchObject({ user: 'paula' });

    const tom = await authenticate(
      t.platform,
      (await acceptInvitation(t.platform, null, { code: (await createInvitation(await t.admin(), { role: 'viewer', user: 'tina' })).code })).token,
    );
    expect((await accountOf(t.platform, tom)).password).toBe(false);
    await changePassword(t.platform, tom, { password: 'tina sets her first' });
    await expect(signInWithPassword(t.platform, { user: 'tina', password: 'tina sets her first' })).resolves.toMatchObject({ user: 'tina' });
  });
});
