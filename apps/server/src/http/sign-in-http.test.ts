import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './test-app.js';

const kinds = process.env.STOA_TEST_PG === '1' ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

/** The session cookie a response sets, as a browser would send it back. */
function cookieOf(res: { headers: Record<string, unknown> }): string {
  const set = String(res.headers['set-cookie'] ?? '');
  expect(set).toMatch(/HttpOnly; SameSite=Strict/);
  return set.split(';')[0]!;
}

describe.each(kinds)('signing in with a password over HTTP (%s)', (kind) => {
  let s: TestApp;

  beforeAll(async () => {
    s = await createTestApp(kind);
    s.t.platform.config.auth = { failures: 4, windowSeconds: 60 };
  }, 60_000);
  afterAll(() => s.close());

  it('an invited person sets a password, is signed in by cookie, and signs in again with the password', async () => {
    const inv = await s.api('POST', '/projects/default/invitations', s.adminToken, { role: 'editor', user: 'iris' });
    expect(inv.status).toBe(201);
    const joined = await s.app.inject({
      method: 'POST',
      url: '/api/v1/invitations/accept',
      payload: { code: inv.body.code, password: 'iris likes long passwords' },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const account = await s.app.inject({ url: '/api/v1/account', headers: { cookie: cookieOf(joined) } });
    expect(account.json()).toEqual({ user: 'iris', password: true, passkeys: [] });
    // Her session reaches the project she was invited to.
    const files = await s.app.inject({ url: '/api/v1/projects/default/files', headers: { cookie: cookieOf(joined) } });
    expect(files.statusCode).toBe(200);

    const again = await s.app.inject({ method: 'POST', url: '/api/v1/auth/password', payload: { user: 'iris', password: 'iris likes long passwords' } });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().user).toBe('iris');
    expect((await s.app.inject({ url: '/api/v1/me', headers: { cookie: cookieOf(again) } })).json()).toMatchObject({ name: 'iris' });
  });

  it('answers a wrong password and an unknown name with the same 401, then 429 for the address', async () => {
    const wrong = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      payload: { user: 'iris', password: 'not her password' },
      remoteAddress: '10.1.1.1',
    });
    const unknown = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      payload: { user: 'ghost', password: 'not her password' },
      remoteAddress: '10.1.1.1',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().detail).toBe(unknown.json().detail);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    for (let i = 0; i < 2; i++)
      await s.app.inject({ method: 'POST', url: '/api/v1/auth/password', payload: { user: 'iris', password: 'guess ' + i }, remoteAddress: '10.1.1.1' });
    const limited = await s.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password',
      payload: { user: 'iris', password: 'iris likes long passwords' },
      remoteAddress: '10.1.1.1',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
  });

  it('refuses malformed sign-ins with 400, never 500', async () => {
    for (const payload of [{}, { user: 'iris' }, { user: 5, password: 'x' }, { user: 'iris', password: 'x'.repeat(5000) }]) {
      const r = await s.app.inject({ method: 'POST', url: '/api/v1/auth/password', payload, remoteAddress: '10.2.2.2' });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('changes the password of the signed-in person only with the current one', async () => {
    const session = (
      await s.app.inject({ method: 'POST', url: '/api/v1/auth/password', payload: { user: 'iris', password: 'iris likes long passwords' } })
    ).json().token;
    expect((await s.api('POST', '/account/password', session, { password: 'iris has a new one' })).status).toBe(403);
    expect((await s.api('POST', '/account/password', session, { current: 'iris likes long passwords', password: 'short' })).status).toBe(400);
    expect((await s.api('POST', '/account/password', session, { current: 'iris likes long passwords', password: 'iris has a new one' })).status).toBe(200);
    const r = await s.app.inject({ method: 'POST', url: '/api/v1/auth/password', payload: { user: 'iris', password: 'iris has a new one' } });
    expect(r.statusCode).toBe(200);
  });

  it('passkeys: a challenge for this server’s public origin; a forged answer is 401 and sets no cookie', async () => {
    // Under an IP address (the default origin of a test server) WebAuthn cannot run: the server says so.
    const atIp = await s.app.inject({ method: 'POST', url: '/api/v1/auth/passkey/options', payload: {} });
    expect(atIp.statusCode).toBe(400);
    s.t.platform.config.publicUrl = 'https://stoa.example.org';
    try {
      const begun = await s.app.inject({ method: 'POST', url: '/api/v1/auth/passkey/options', payload: {} });
      expect(begun.statusCode, begun.body).toBe(200);
      expect(begun.json().options.rpId).toBe('stoa.example.org');
      const forged = await s.app.inject({
        method: 'POST',
        url: '/api/v1/auth/passkey',
        payload: { ceremony: begun.json().ceremony, response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } },
        remoteAddress: '10.3.3.3',
      });
      expect(forged.statusCode).toBe(401);
      expect(forged.headers['set-cookie']).toBeUndefined();
      expect((await s.app.inject({ method: 'POST', url: '/api/v1/auth/passkey', payload: { ceremony: 'x' } })).statusCode).toBe(400);
    } finally {
      s.t.platform.config.publicUrl = undefined;
    }
  });

  it('single sign-on: not offered unless configured; a callback to no sign-in lands on the sign-in page with a note', async () => {
    expect((await s.app.inject({ url: '/api/v1/auth/methods' })).json()).toEqual({ sso: null });
    expect((await s.app.inject({ url: '/api/v1/auth/oidc/start' })).statusCode).toBe(404);
    s.t.platform.config.oidc = { issuer: 'http://127.0.0.1:9', clientId: 'stoa', clientSecret: 'x', allowedDomains: [], name: 'Example SSO' };
    try {
      expect((await s.app.inject({ url: '/api/v1/auth/methods' })).json()).toEqual({ sso: { name: 'Example SSO' } });
      // The provider cannot be reached: a 503 at the start, never a hang or a 500.
      expect((await s.app.inject({ url: '/api/v1/auth/oidc/start' })).statusCode).toBe(503);
      const back = await s.app.inject({ url: '/api/v1/auth/oidc/callback?state=nope&code=x', remoteAddress: '10.4.4.4' });
      expect(back.statusCode).toBe(302);
      expect(back.headers.location).toBe('/login?sso=failed');
      expect(back.headers['set-cookie']).toBeUndefined();
    } finally {
      s.t.platform.config.oidc = undefined;
    }
  });
});
