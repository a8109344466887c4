import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { AxeResults, RunOptions } from 'axe-core';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { createAgent, createToken, type Ctx } from '@stoa/core/testing';
import { runStoa, stoaJson } from './helpers/run-stoa.js';
import { hasChromium, startUiServer, type UiServer, newTestContext } from './browser-helpers.js';

// Evaluated, not added as a <script>: the UI's Content-Security-Policy refuses inline scripts.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations on what the page shows now, one line each. */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: RunOptions) => Promise<AxeResults> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/**
 * The client side as an MCP client application keeps it (the MCP SDK's OAuthClientProvider), with its redirect
 * URI on a loopback listener of its own, as a desktop client's is: the browser's final stop hands it the code.
 */
class LoopbackOAuthClient implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  private listener!: Server;
  private waiting: Array<(q: URLSearchParams) => void> = [];
  redirectUrl = '';

  async listen(): Promise<void> {
    this.listener = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
      const q = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
      this.waiting.shift()?.(q);
    });
    await new Promise<void>((resolve) => this.listener.listen(0, '127.0.0.1', resolve));
    const addr = this.listener.address();
    this.redirectUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/callback`;
  }
  /** The query the browser arrives at the redirect URI with. */
  nextRedirect(): Promise<URLSearchParams> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.listener.close(() => resolve()));
  }
  get clientMetadata() {
    return {
      client_name: 'Inspector-like client',
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

// MCP authorization end to end: the MCP SDK's OAuth client, the person signing in and consenting in Chromium.
// A story: each step builds on what the steps before it made, so the steps keep their order under --sequence.shuffle.
describe.skipIf(!hasChromium)(
  'MCP authorization in the browser: discovery, registration, consent, token, refresh, revoke',
  { shuffle: false, timeout: 120_000 },
  () => {
    let s: UiServer;
    let ana: Ctx;
    let agentId: string;
    let client: LoopbackOAuthClient;
    let context: BrowserContext;
    let page: Page;
    let mcpUrl: URL;

    beforeAll(async () => {
      s = await startUiServer();
      // Absolute URLs (issuer, resource) come from the configured public URL, never from the Host header.
      s.t.platform.config.publicUrl = s.url;
      mcpUrl = new URL(`${s.url}/mcp`);
      ana = await s.t.userCtx('ana', 'editor');
      agentId = (await createAgent(ana, { name: 'Scribe', files: 'on' })).id;
      client = new LoopbackOAuthClient();
      await client.listen();
      // A fresh browser profile, signed in as nobody.
      context = await newTestContext(s.browser);
      page = await context.newPage();
    });
    afterAll(async () => {
      await client?.close();
      await s?.close();
    });

    const toolsStatus = async (token: string) =>
      (
        await fetch(mcpUrl, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        })
      ).status;

    it('discovers the server from the 401, registers itself and is sent to sign in, then to the consent page', async () => {
      const refused = await fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
      expect(await auth(client, { serverUrl: mcpUrl })).toBe('REDIRECT');
      expect(client.info?.client_id).toBeTruthy();
      expect(client.authorizationUrl!.searchParams.get('code_challenge_method')).toBe('S256');
      expect(client.authorizationUrl!.searchParams.get('resource')).toBe(mcpUrl.href);

      await page.goto(client.authorizationUrl!.href);
      await page.waitForURL(/\/login$/);
      // ana opens her one-time login link in the same tab, and is brought back to the consent.
      await page.goto(await s.loginLink(ana.actor.kind === 'user' ? ana.actor.userId : ''));
      await page.waitForURL(/\/consent\?/);
      await page.getByRole('heading', { name: 'Allow an application' }).waitFor();
      await page.getByText('Inspector-like client asks to act as one of your agents').waitFor();
    });

    it('the person picks the project and the agent and allows; the client gets its code and exchanges it', async () => {
      await page.getByLabel('Project').selectOption({ label: 'default' });
      await page.getByLabel('Agent').selectOption({ label: 'Scribe' });
      const arrived = client.nextRedirect();
      await page.getByRole('button', { name: 'Allow' }).click();
      const q = await arrived;
      expect(q.get('error')).toBeNull();
      expect(await auth(client, { serverUrl: mcpUrl, authorizationCode: q.get('code')! })).toBe('AUTHORIZED');
      expect(client.saved?.refresh_token).toBeTruthy();
    });

    it('lists the tools over /mcp as the chosen agent, with the SDK transport authorizing itself', async () => {
      const mcp = new Client({ name: 'oauth-browser-e2e', version: '1.0.0' });
      await mcp.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: client }));
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_file', 'memory_append']));
      const made = await mcp.callTool({ name: 'create_file', arguments: { file_path: 'notes/from-oauth.md', file_contents: 'hello\n' } });
      // Written as the chosen agent: into its own folder (its default "write own").
      expect(JSON.stringify(made.content)).toContain(`Created agents/${agentId}/notes/from-oauth.md`);
      await mcp.close();
    });

    it('refreshes (a new pair; the old refresh token is spent), then revocation refuses every token of the grant', async () => {
      const before = client.saved!;
      expect(await auth(client, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
      const after = client.saved!;
      expect(after.refresh_token).not.toBe(before.refresh_token);
      expect(await toolsStatus(after.access_token)).toBe(200);

      const meta = await (await fetch(`${s.url}/.well-known/oauth-authorization-server`)).json();
      const revoked = await fetch(meta.revocation_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: after.refresh_token!, client_id: client.info!.client_id }),
      });
      expect(revoked.status).toBe(200);
      expect(await toolsStatus(after.access_token)).toBe(401);
      await expect(auth(client, { serverUrl: mcpUrl })).rejects.toThrow(/grant/i);
    });

    it('a second consent goes straight to the page (signed in); the grant shows under the agent and Revoke there refuses it', async () => {
      client.saved = undefined;
      expect(await auth(client, { serverUrl: mcpUrl })).toBe('REDIRECT');
      await page.goto(client.authorizationUrl!.href);
      await page.getByRole('heading', { name: 'Allow an application' }).waitFor();
      await page.getByLabel('Agent').selectOption({ label: 'Scribe' });
      const arrived = client.nextRedirect();
      await page.getByRole('button', { name: 'Allow' }).click();
      expect(await auth(client, { serverUrl: mcpUrl, authorizationCode: (await arrived).get('code')! })).toBe('AUTHORIZED');
      expect(await toolsStatus(client.saved!.access_token)).toBe(200);

      // The client's callback may see the request before the browser has finished loading its answer; a new
      // navigation before then is refused as interrupted.
      await page.waitForURL(/\/callback\?/);
      await page.goto(`${s.url}/agents/${agentId}`);
      const grants = page.locator('section.agent-grants');
      const live = grants.locator('li', { hasText: 'Inspector-like client' }).filter({ has: page.getByRole('button', { name: 'Revoke' }) });
      await live.waitFor();
      await expect.poll(() => grants.locator('li').count()).toBe(2);
      expect(await axeViolations(page)).toEqual([]);
      await live.getByRole('button', { name: 'Revoke' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await expect.poll(() => grants.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
      expect(await toolsStatus(client.saved!.access_token)).toBe(401);
    });

    it('the CLI lists the grants (stoa grants list); revoking an unknown one says not_found', async () => {
      const token = (await createToken(ana, {})).token;
      const cli = ['--url', s.url, '--token', token];
      const listed = await stoaJson<Array<{ id: string; client: { name: string }; agent: string; revokedAt: string | null }>>([
        ...cli,
        'grants',
        'list',
        '--json',
      ]);
      expect(listed).toHaveLength(2);
      expect(listed.every((g) => g.client.name === 'Inspector-like client' && g.agent === agentId && g.revokedAt !== null)).toBe(true);
      const missing = await runStoa([...cli, 'grants', 'revoke', 'oag_nope', '--json']);
      expect(missing.code).not.toBe(0);
      expect(missing.stdout + missing.stderr).toContain('not_found');
    });

    it('Deny sends the client access_denied', async () => {
      client.saved = undefined;
      expect(await auth(client, { serverUrl: mcpUrl })).toBe('REDIRECT');
      await page.goto(client.authorizationUrl!.href);
      const arrived = client.nextRedirect();
      await page.getByRole('button', { name: 'Deny' }).click();
      const q = await arrived;
      expect(q.get('error')).toBe('access_denied');
      expect(q.get('code')).toBeNull();
    });
  },
);
