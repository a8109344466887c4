import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import { beginOidcSignIn, finishOidcSignIn, signInMethods } from './oidc.js';
import { startOidcProvider, type TestOidcProvider } from '../../../../e2e/helpers/oidc-provider.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const origin = 'http://localhost:8080';

// The whole round trip through the provider's pages runs in Chromium (e2e/browser-sso.test.ts); here, against the
// same real provider, what the server decides before and after it.
describe.each(kinds)('single sign-on (%s)', (kind) => {
  let t: TestPlatform;
  let idp: TestOidcProvider;

  beforeAll(async () => {
    t = await createTestPlatform(kind);
    t.platform.config.auth = { failures: 3, windowSeconds: 60 };
    idp = await startOidcProvider(`${origin}/api/v1/auth/oidc/callback`);
  }, 60_000);
  afterAll(async () => {
    await t.cleanup();
    await idp.close();
  });

  it('offers nothing and starts nothing while not configured', async () => {
    expect(signInMethods(t.platform)).toEqual({ sso: null });
    await expect(beginOidcSignIn(t.platform, {}, { origin })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('sends the browser to the provider with PKCE, a state and a nonce it remembers', async () => {
    t.platform.config.oidc = { issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, allowedDomains: [], name: 'Example SSO' };
    expect(signInMethods(t.platform)).toEqual({ sso: { name: 'Example SSO' } });
    const { location } = await beginOidcSignIn(t.platform, { invite: 'inv_x' }, { origin });
    const url = new URL(location);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(`${origin}/api/v1/auth/oidc/callback`);
    expect(url.searchParams.get('nonce')).toBeTruthy();
    const row = await t.platform.db.kysely.selectFrom('oidc_sign_ins').selectAll().where('state', '=', url.searchParams.get('state')!).executeTakeFirst();
    expect(row).toMatchObject({ invite: 'inv_x' });
    expect(row!.verifier).not.toBe(url.searchParams.get('code_challenge'));
  });

  it('refuses an answer to no sign-in, or a forged one, alike; a state works once; the address is throttled', async () => {
    const { location } = await beginOidcSignIn(t.platform, {}, { origin });
    const state = new URL(location).searchParams.get('state')!;
    const client = '10.5.5.5';
    const refusals = [
      await finishOidcSignIn(t.platform, { query: { state, code: 'forged-code', iss: idp.issuer } }, { origin, client }).catch((e: unknown) => e),
      await finishOidcSignIn(t.platform, { query: { state, code: 'forged-code', iss: idp.issuer } }, { origin, client }).catch((e: unknown) => e),
      await finishOidcSignIn(t.platform, { query: { code: 'no-state' } }, { origin, client }).catch((e: unknown) => e),
    ];
    for (const r of refusals) expect(r).toMatchObject({ code: 'unauthorized', message: 'single sign-on did not sign you in' });
    await expect(finishOidcSignIn(t.platform, { query: {} }, { origin, client })).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
