import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './openapi/stoa-api.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

/**
 * HTTP acceptance through a client generated from the published OpenAPI document (openapi-typescript types,
 * openapi-fetch requests) against a real `stoa serve`: if the document drifts from what the server does —
 * a parameter, a status, a header or an error code — these calls stop compiling or stop passing.
 */
describe('a client generated from the OpenAPI document', { timeout: 120_000 }, () => {
  let server: StoaServer;
  let api: Client<paths>;
  let doc: { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> };
  const project = { project: 'default' };

  /** The error codes the document lists for one operation and status. */
  const listedCodes = (path: string, method: string, status: number): string[] => {
    const schema = doc.paths[path]?.[method]?.responses[String(status)]?.content?.['application/problem+json']?.schema as
      { allOf?: Array<{ properties?: { code?: { enum?: string[] } } }> } | undefined;
    return schema?.allOf?.[1]?.properties?.code?.enum ?? [];
  };

  beforeAll(async () => {
    server = await startStoaServer();
    api = createClient<paths>({ baseUrl: server.url, headers: { authorization: `Bearer ${server.adminToken}` } });
    const { data } = await api.GET('/api/v1/openapi.json');
    doc = data as unknown as typeof doc;
  });
  afterAll(() => server?.stop());

  it('reads health and exchanges a login code for a session token, without a token', async () => {
    const anonymous = createClient<paths>({ baseUrl: server.url });
    const health = await anonymous.GET('/api/v1/health');
    expect(health.response.status).toBe(200);
    expect(health.data?.ok).toBe(true);
    const code = new URL(server.loginUrl).searchParams.get('code')!;
    const login = await anonymous.POST('/api/v1/auth/login', { body: { code } });
    expect(login.response.status).toBe(200);
    const me = await createClient<paths>({ baseUrl: server.url, headers: { authorization: `Bearer ${login.data!.token}` } }).GET('/api/v1/me');
    expect(me.data?.name).toBe(login.data!.user);
    const again = await anonymous.POST('/api/v1/auth/login', { body: { code } });
    expect(again.response.status).toBe(401);
    expect(listedCodes('/api/v1/auth/login', 'post', 401)).toContain(again.error?.code);
  });

  it('uploads, reads metadata, lists and moves a file', async () => {
    const put = await api.PUT('/api/v1/projects/{project}/files/content', {
      params: { path: project, query: { path: 'notes/plan.md' } },
      body: 'line one\nline two\n',
      bodySerializer: (b) => b,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.response.status).toBe(201);
    expect(put.data?.created).toBe(true);
    expect(Object.keys(doc.paths['/api/v1/projects/{project}/files/content']!.put!.responses)).toEqual(expect.arrayContaining(['200', '201']));
    const stat = await api.GET('/api/v1/projects/{project}/files/stat', { params: { path: project, query: { path: 'notes/plan.md' } } });
    expect(stat.data).toMatchObject({ path: 'notes/plan.md', size: 18, version: 1 });
    const list = await api.GET('/api/v1/projects/{project}/files', { params: { path: project, query: { prefix: 'notes' } } });
    expect(list.data?.files.map((f) => f.path)).toEqual(['notes/plan.md']);
    const moved = await api.POST('/api/v1/projects/{project}/files/move', { params: { path: project }, body: { from: 'notes/plan.md', to: 'plans/' } });
    expect(moved.data?.path).toBe('plans/plan.md');
  });

  it('downloads with the file type, a byte range (206) and revalidation (304)', async () => {
    await api.PUT('/api/v1/projects/{project}/files/content', {
      params: { path: project, query: { path: 'data.csv' } },
      body: 'a,b\n1,2\n',
      bodySerializer: (b) => b,
      headers: { 'content-type': 'application/octet-stream' },
    });
    const query = { path: project, query: { path: 'data.csv' } };
    const full = await api.GET('/api/v1/projects/{project}/files/content', { params: query, parseAs: 'text' });
    expect(full.response.status).toBe(200);
    expect(full.data).toBe('a,b\n1,2\n');
    expect(full.response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(full.response.headers.get('content-disposition')).toMatch(/^attachment/);
    const etag = full.response.headers.get('etag')!;
    const part = await api.GET('/api/v1/projects/{project}/files/content', { params: { ...query, header: { Range: 'bytes=0-2' } }, parseAs: 'text' });
    expect(part.response.status).toBe(206);
    expect(part.data).toBe('a,b');
    expect(part.response.headers.get('content-range')).toBe('bytes 0-2/8');
    const same = await api.GET('/api/v1/projects/{project}/files/content', { params: { ...query, header: { 'If-None-Match': etag } }, parseAs: 'text' });
    expect(same.response.status).toBe(304);
    const beyond = await api.GET('/api/v1/projects/{project}/files/content', { params: { ...query, header: { Range: 'bytes=100-200' } } });
    expect(beyond.response.status).toBe(416);
    expect(listedCodes('/api/v1/projects/{project}/files/content', 'get', 416)).toContain(beyond.error?.code);
    for (const status of ['200', '206', '304']) expect(Object.keys(doc.paths['/api/v1/projects/{project}/files/content']!.get!.responses)).toContain(status);
  });

  it('answers errors with the status and code the document lists for the operation', async () => {
    const missing = await api.GET('/api/v1/projects/{project}/files/stat', { params: { path: project, query: { path: 'nope.txt' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(listedCodes('/api/v1/projects/{project}/files/stat', 'get', 404)).toContain(missing.error?.code);

    await api.PUT('/api/v1/projects/{project}/files/content', {
      params: { path: project, query: { path: 'v.txt' } },
      body: 'one',
      bodySerializer: (b) => b,
      headers: { 'content-type': 'application/octet-stream' },
    });
    const stale = await api.PUT('/api/v1/projects/{project}/files/content', {
      params: { path: project, query: { path: 'v.txt', expectedVersion: 0 } },
      body: 'two',
      bodySerializer: (b) => b,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(stale.response.status).toBe(409);
    expect(listedCodes('/api/v1/projects/{project}/files/content', 'put', 409)).toContain(stale.error?.code);

    const noToken = await createClient<paths>({ baseUrl: server.url }).GET('/api/v1/projects/{project}/usage', { params: { path: project } });
    expect(noToken.response.status).toBe(401);
    expect(noToken.response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(listedCodes('/api/v1/projects/{project}/usage', 'get', 401)).toContain(noToken.error?.code);
  });

  it('answers a method the path does not serve with 405 and Allow', async () => {
    const res = await fetch(`${server.url}/api/v1/projects/default/files/stat?path=x`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.adminToken}` },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(((await res.json()) as { code: string }).code).toBe('method_not_allowed');
    const unknown = await fetch(`${server.url}/api/v1/no/such/route`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    expect(unknown.status).toBe(404);
  });
});
