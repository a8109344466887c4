import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { authenticate } from './tokens.js';
import { acceptInvitation, createInvitation } from './invitations.js';
import { listPasskeys, passkeyRegistrationOptions, passkeySignInOptions, removePasskey, signInWithPasskey, addPasskey } from './passkeys.js';
import type { Principal } from './tokens.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const origin = 'https://stoa.example.org';

// The whole ceremony with a real authenticator runs in Chromium (e2e/browser-passkeys.test.ts); here, the
// server's side of what a browser cannot show: challenges work once, for one purpose, and refusals say nothing.
describe.each(kinds)('passkeys (%s)', (kind) => {
  let t: TestPlatform;
  let pia: Principal;

  beforeAll(async () => {
    t = await createTestPlatform(kind);
    t.platform.config.auth = { failures: 3, windowSeconds: 60 };
    const inv = await createInvitation(await t.admin(), { role: 'editor', user: 'pia' });
    pia = await authenticate(t.platform, (await acceptInvitation(t.platform, null, { code: inv.code, password: 'pia has a password' })).token);
  }, 60_000);
  afterAll(() => t.cleanup());

  it('binds registration to the origin’s host name and to the signed-in person', async () => {
    const begun = await passkeyRegistrationOptions(t.platform, pia, { origin });
    expect(begun.options).toMatchObject({
      rp: { id: 'stoa.example.org', name: 'Stoa' },
      user: { name: 'pia' },
      authenticatorSelection: { residentKey: 'required' },
    });
    // Browsers refuse IP addresses as relying party: the server says so rather than failing later.
    await expect(passkeyRegistrationOptions(t.platform, pia, { origin: 'http://127.0.0.1:8080' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(passkeyRegistrationOptions(t.platform, pia, {})).rejects.toMatchObject({ code: 'bad_request' });
    await expect(passkeyRegistrationOptions(t.platform, { kind: 'agent', agentId: 'a', projectId: 'p' }, { origin })).rejects.toMatchObject({
      code: 'forbidden',
    });
  });

  it('refuses a forged registration answer, and the challenge is spent by the try', async () => {
    const begun = await passkeyRegistrationOptions(t.platform, pia, { origin });
    const forged = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'oA' }, clientExtensionResults: {} };
    await expect(addPasskey(t.platform, pia, { ceremony: begun.ceremony, response: forged }, { origin })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(addPasskey(t.platform, pia, { ceremony: begun.ceremony, response: forged }, { origin })).rejects.toMatchObject({
      message: 'this passkey registration expired; start again',
    });
    expect(await listPasskeys(t.platform, pia)).toEqual([]);
  });

  it('answers every failed passkey sign-in alike and throttles the address; a sign-in challenge cannot register', async () => {
    const unknownKey = { id: 'bm8tc3VjaC1rZXk', rawId: 'bm8tc3VjaC1rZXk', type: 'public-key', response: {}, clientExtensionResults: {} };
    const begun = await passkeySignInOptions(t.platform, { origin });
    const refusals = [
      await signInWithPasskey(t.platform, { ceremony: begun.ceremony, response: unknownKey }, { origin, client: '10.7.7.7' }).catch((e: unknown) => e),
      await signInWithPasskey(t.platform, { ceremony: begun.ceremony, response: unknownKey }, { origin, client: '10.7.7.7' }).catch((e: unknown) => e),
      await signInWithPasskey(t.platform, { ceremony: 'wac_nope', response: {} }, { origin, client: '10.7.7.7' }).catch((e: unknown) => e),
    ];
    for (const r of refusals) expect(r).toMatchObject({ code: 'unauthorized', message: 'this passkey was not accepted' });
    await expect(signInWithPasskey(t.platform, { ceremony: 'wac_nope', response: {} }, { origin, client: '10.7.7.7' })).rejects.toMatchObject({
      code: 'rate_limited',
    });
    const signIn = await passkeySignInOptions(t.platform, { origin });
    await expect(addPasskey(t.platform, pia, { ceremony: signIn.ceremony, response: unknownKey }, { origin })).rejects.toMatchObject({ code: 'bad_request' });
  });

  it('a person removes only their own passkeys', async () => {
    await t.platform.db.kysely
      .insertInto('user_passkeys')
      .values({
        id: 'key-of-admin',
        user_id: (await t.admin()).actor.kind === 'user' ? ((await t.admin()).actor as { userId: string }).userId : '',
        public_key: 'x',
        counter: 0,
        transports: null,
        name: null,
        created_at: '2026-01-01T00:00:00Z',
        last_used_at: null,
      })
      .execute();
    await expect(removePasskey(t.platform, pia, { id: 'key-of-admin' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
