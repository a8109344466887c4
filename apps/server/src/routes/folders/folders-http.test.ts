import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { createTestApp, type TestApp } from '../../http/test-app.js';

const base = '/api/v1/projects/default';

describe.each(testDbKinds())('folders over HTTP on %s', (kind) => {
  let s: TestApp;
  let editor: string;
  let viewer: string;
  beforeAll(async () => {
    s = await createTestApp(kind);
    editor = await s.tokenFor('eddie', 'editor');
    viewer = await s.tokenFor('vivi', 'viewer');
  });
  afterAll(() => s.close());

  const call = (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, token = editor, payload?: unknown) =>
    s.app.inject({ method, url: `${base}${url}`, headers: s.auth(token), ...(payload === undefined ? {} : { payload: payload as object }) });

  it('creates an empty folder that lists, moves it with its files, deletes it recursively; viewers get 403', async () => {
    expect((await call('POST', '/folders', editor, { path: 'reports/2026' })).statusCode).toBe(201);
    expect((await call('POST', '/folders', editor, { path: 'reports/2026' })).json()).toMatchObject({ status: 409, code: 'already_exists' });
    expect((await call('GET', '/folders/tree')).json()).toEqual([
      { path: 'reports', name: 'reports', fileCount: 0 },
      { path: 'reports/2026', name: '2026', fileCount: 0 },
    ]);
    expect((await call('GET', '/folders/stat?path=reports%2F2026')).json()).toMatchObject({ fileCount: 0 });
    expect((await call('GET', '/folders/stat?path=nope')).statusCode).toBe(404);
    await s.app.inject({
      method: 'PUT',
      url: `${base}/files/content?path=reports%2F2026%2Fq1.md`,
      headers: { ...s.auth(editor), 'content-type': 'application/octet-stream' },
      payload: 'q1',
    });
    const moved = await call('POST', '/folders/move', editor, { from: 'reports', to: 'archive/' });
    expect(moved.json()).toEqual({ path: 'archive/reports', name: 'reports', fileCount: 1 });
    expect((await call('GET', '/files/stat?path=archive%2Freports%2F2026%2Fq1.md')).statusCode).toBe(200);
    expect((await call('POST', '/folders/move', viewer, { from: 'archive', to: 'x' })).statusCode).toBe(403);
    expect((await call('DELETE', '/folders?path=archive')).json()).toMatchObject({ status: 400, code: 'bad_request' });
    expect((await call('DELETE', '/folders?path=archive&recursive=true', viewer)).statusCode).toBe(403);
    expect((await call('DELETE', '/folders?path=archive&recursive=true')).json()).toEqual({ path: 'archive', files: 1, bytes: 2 });
    expect((await call('GET', '/folders/tree')).json()).toEqual([]);
  });
});
