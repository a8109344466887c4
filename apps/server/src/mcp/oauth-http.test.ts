import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthMetadataSchema, type OAuthClientInformationMixed, type OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { testDbKinds } from '@stoa/db/testing';
import { createTestApp, type TestApp } from '../http/test-app.js';

/** The MCP SDK's client side of OAuth, kept in memory; the authorization URL is handed to the test to follow. */
class MemoryOAuthClient implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata() {
    return {
      client_name: 'Test MCP client',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let s: TestApp;
let base: string;
let ana: string;
let agent: string;

/** Starts a fresh server on `kind` with an editor (ana) who owns an agent. */
async function start(kind: 'sqlite' | 'postgres') {
  s = await createTestApp(kind);
  base = await s.app.listen({ port: 0, host: '127.0.0.1' });
  s.t.platform.config.publicUrl = base;
  ana = await s.tokenFor('ana', 'editor');
  agent = (await s.api('POST', '/projects/default/agents', ana, { name: 'Scribe', files: 'on' })).body.id;
}

/** Runs the SDK's flow up to the redirect, consents as `token` through the API the consent page uses, and exchanges the code. */
async function connect(client: MemoryOAuthClient, token: string, agentId = agent): Promise<{ grant: string }> {
  expect(await auth(client, { serverUrl: `${base}/mcp` })).toBe('REDIRECT');
  const authorize = await fetch(client.authorizationUrl!, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const consent = new URL(authorize.headers.get('location')!, base);
  expect(consent.pathname).toBe('/consent');
  const q = consent.searchParams;
  const approved = await s.api('POST', '/projects/default/oauth/grants', token, {
    agent: agentId,
    clientId: q.get('client_id'),
    redirectUri: q.get('redirect_uri'),
    codeChallenge: q.get('code_challenge'),
    codeChallengeMethod: 'S256',
    resource: q.get('resource'),
    scope: q.get('scope') ?? undefined,
    state: q.get('state') ?? undefined,
  });
  expect(approved.status).toBe(201);
  const back = new URL(approved.body.redirectTo);
  expect(`${back.origin}${back.pathname}`).toBe(client.redirectUrl);
  expect(await auth(client, { serverUrl: `${base}/mcp`, authorizationCode: back.searchParams.get('code')! })).toBe('AUTHORIZED');
  return { grant: approved.body.id };
}

async function listTools(token: string): Promise<number> {
  const r = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return r.status;
}

describe.each(testDbKinds())('MCP authorization: Stoa as the OAuth server of /mcp (MCP SDK client, real server, %s)', { timeout: 60_000 }, (kind) => {
  beforeAll(() => start(kind));
  afterAll(() => s?.close());

  it('publishes protected resource and authorization server metadata naming itself', async () => {
    const prm = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    const as = OAuthMetadataSchema.parse(await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json());
    expect(as).toMatchObject({ issuer: base, registration_endpoint: `${base}/oauth/register`, code_challenge_methods_supported: ['S256'] });
    // A forged Host changes nothing: the issuer and endpoints come from the public origin (issue 27).
    const forged = await s.app.inject({ url: '/.well-known/oauth-authorization-server', headers: { host: 'evil.example' } });
    expect(forged.body).not.toContain('evil.example');
    expect(forged.json().issuer).toBe(base);
  });

  it('lets browser-based clients (MCP Inspector) read the metadata, the challenge and the OAuth endpoints from another origin', async () => {
    const origin = { origin: 'http://localhost:6274' };
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/mcp', '/oauth/register', '/oauth/token']) {
      const pre = await fetch(`${base}${path}`, {
        method: 'OPTIONS',
        headers: {
          ...origin,
          'access-control-request-method': path.startsWith('/.well-known') ? 'GET' : 'POST',
          'access-control-request-headers': 'mcp-protocol-version, content-type',
        },
      });
      expect(pre.status, path).toBe(204);
      expect(pre.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(pre.headers.get('access-control-allow-credentials'), path).toBeNull();
    }
    const challenge = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...origin, 'content-type': 'application/json' }, body: '{}' });
    expect(challenge.headers.get('access-control-allow-origin')).toBe('*');
    expect(challenge.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
  });

  it('registers, authorizes with PKCE, serves tools/list, refreshes with rotation and revokes', async () => {
    const client = new MemoryOAuthClient('http://127.0.0.1:9/callback');
    await connect(client, ana);
    expect(client.info).not.toHaveProperty('client_secret');
    const first = client.saved!;
    const mcp = new Client({ name: 'oauth-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: client }));
    expect((await mcp.listTools()).tools.map((t) => t.name)).toContain('create_file');
    await mcp.close();

    // The access token is for /mcp only: the HTTP API refuses it.
    expect((await s.api('GET', '/me', first.access_token)).status).toBe(401);

    // Refresh: a new pair; the spent refresh token is refused, and presenting it again ends the grant (it leaked).
    expect(await auth(client, { serverUrl: `${base}/mcp` })).toBe('AUTHORIZED');
    const second = client.saved!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await listTools(second.access_token)).toBe(200);
    const reuse = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: client.info!.client_id }),
    });
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe('invalid_grant');
    expect(await listTools(second.access_token)).toBe(401);
  });

  it('revocation (RFC 7009) ends the grant; the grant is listed and revocable through the API', async () => {
    const client = new MemoryOAuthClient('http://127.0.0.1:9/callback');
    const { grant } = await connect(client, ana);
    const listed = await s.api('GET', '/projects/default/oauth/grants', ana);
    expect(listed.body.find((g: { id: string }) => g.id === grant)).toMatchObject({
      client: { name: 'Test MCP client' },
      user: 'ana',
      agent,
      resource: `${base}/mcp`,
      revokedAt: null,
    });
    const revoked = await fetch(`${base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: client.saved!.refresh_token!, client_id: client.info!.client_id }),
    });
    expect(revoked.status).toBe(200);
    expect(await listTools(client.saved!.access_token)).toBe(401);

    const other = new MemoryOAuthClient('http://127.0.0.1:9/callback');
    const second = await connect(other, ana);
    expect(await listTools(other.saved!.access_token)).toBe(200);
    expect((await s.api('DELETE', `/projects/default/oauth/grants/${second.grant}`, ana)).status).toBe(200);
    expect(await listTools(other.saved!.access_token)).toBe(401);
  });

  it('refuses a wrong verifier, an unregistered redirect, a foreign resource, and consent for an agent the person may not mint for', async () => {
    const client = new MemoryOAuthClient('http://127.0.0.1:9/callback');
    expect(await auth(client, { serverUrl: `${base}/mcp` })).toBe('REDIRECT');
    const url = client.authorizationUrl!;
    const q = url.searchParams;
    const consent = (over: Record<string, string>, token = ana) =>
      s.api('POST', '/projects/default/oauth/grants', token, {
        agent,
        clientId: q.get('client_id'),
        redirectUri: q.get('redirect_uri'),
        codeChallenge: q.get('code_challenge'),
        codeChallengeMethod: 'S256',
        resource: q.get('resource'),
        ...over,
      });
    expect((await consent({ redirectUri: 'https://evil.example/cb' })).status).toBe(400);
    const viewer = await s.tokenFor('vic', 'viewer');
    expect((await consent({}, viewer)).status).toBe(403);
    // Agents are not shown a client to consent to, nor consent.
    const agentToken = (await s.api('POST', '/projects/default/tokens', ana, { agent })).body.token;
    const seen = await s.api('GET', `/oauth/clients/${q.get('client_id')}?redirectUri=${encodeURIComponent(q.get('redirect_uri')!)}`, agentToken);
    expect(seen.status).toBe(403);
    expect((await consent({}, agentToken)).status).toBe(403);
    const foreign = new URL(url);
    foreign.searchParams.set('resource', 'https://elsewhere.example/mcp');
    const refused = await fetch(foreign, { redirect: 'manual' });
    expect(new URL(refused.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
    const plain = new URL(url);
    plain.searchParams.set('code_challenge_method', 'plain');
    expect(new URL((await fetch(plain, { redirect: 'manual' })).headers.get('location')!).searchParams.get('error')).toBe('invalid_request');

    const code = new URL((await consent({})).body.redirectTo).searchParams.get('code')!;
    const wrong = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: 'x'.repeat(64), client_id: client.info!.client_id }),
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toBe('invalid_grant');
  });

  it('refuses to register plain http redirect URIs off loopback', async () => {
    const r = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'sniffable', redirect_uris: ['http://example.com/cb'], token_endpoint_auth_method: 'none' }),
    });
    expect(r.status).toBe(400);
    expect((await r.json()).error).toBe('invalid_client_metadata');
    const malformed = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"redirect_uris": [' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: 'invalid_request', error_description: 'the request body is not valid' });
    const garbage = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=x&client_id=nope',
    });
    expect(garbage.status).toBe(400);
  });

  it('keeps API bearer tokens working at /mcp and answers 401 with the metadata to a request without one', async () => {
    const token = (await s.api('POST', '/projects/default/tokens', ana, { agent })).body.token;
    expect(await listTools(token)).toBe(200);
    const none = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource"`);
  });
});
