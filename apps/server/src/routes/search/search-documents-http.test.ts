import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDbKinds } from '@stoa/db/testing';
import { processPendingAssets } from '@stoa/core';
import { makeDocx, makePdf } from '@stoa/core/testing';
import { createTestApp, type TestApp } from '../../http/test-app.js';
import { startBackgroundPasses } from '../../background.js';

const base = '/api/v1/projects/default';
const q = (o: Record<string, string>) => new URLSearchParams(o).toString();

/** A multipart/form-data body with one part per file. */
function multipart(files: Array<{ name: string; content: Buffer }>): { body: Buffer; contentType: string } {
  const boundary = '----stoa' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      f.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(testDbKinds())('uploaded documents are found by their text without a manual step, on %s', (kind) => {
  let s: TestApp;
  let editor: string;
  let viewer: string;
  let stop: () => void;
  const failures: unknown[] = [];
  beforeAll(async () => {
    s = await createTestApp(kind);
    editor = await s.tokenFor('eddie', 'editor');
    viewer = await s.tokenFor('vivi', 'viewer');
    // The same background pass the server runs (start-server.ts), faster, so the test does not idle.
    stop = startBackgroundPasses(s.t.platform, { intervalMs: 100, onError: (e) => failures.push(e) });
  });
  afterAll(async () => {
    stop();
    await s.close();
  });

  const search = async (query: string, token = viewer) => {
    const res = await s.app.inject({ method: 'GET', url: `${base}/search?${q({ q: query })}`, headers: s.auth(token) });
    expect(res.statusCode).toBe(200);
    return res.json() as Array<{ kind: string; path: string; citation?: { page: number | null; version: number }; version?: number }>;
  };
  /** Asks the search until `path` is among the hits: the background pass parses on its own schedule. */
  const eventually = async (query: string, path: string) => {
    for (let i = 0; i < 600; i++) {
      const hits = await search(query);
      if (hits.some((h) => h.path === path)) return hits;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${path} was never found by "${query}"`);
  };

  it('a PDF put over HTTP and a DOCX uploaded as a form are found by words inside them', async () => {
    const put = await s.app.inject({
      method: 'PUT',
      url: `${base}/files/content?${q({ path: 'legal/lease.pdf' })}`,
      headers: { ...s.auth(editor), 'content-type': 'application/octet-stream' },
      payload: makePdf(['Lease of the flat', 'The landlord repairs the roof.']),
    });
    expect(put.statusCode).toBeLessThan(300);
    const form = multipart([{ name: 'notice.docx', content: makeDocx(['Notice to quit', 'The tenant returns the keys to the caretaker.']) }]);
    const up = await s.app.inject({
      method: 'POST',
      url: `${base}/files/upload?${q({ folder: 'legal' })}`,
      headers: { ...s.auth(editor), 'content-type': form.contentType },
      payload: form.body,
    });
    expect(up.statusCode).toBeLessThan(300);
    const lease = (await eventually('landlord', 'legal/lease.pdf')).find((h) => h.path === 'legal/lease.pdf')!;
    expect(lease).toMatchObject({ kind: 'document', version: 1, citation: { page: 2, version: 1 } });
    expect((await eventually('caretaker', 'legal/notice.docx')).find((h) => h.path === 'legal/notice.docx')).toMatchObject({ kind: 'document' });
    expect(failures).toEqual([]);
  });
});

describe('STOA_AUTO_UNDERSTAND=false', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp('sqlite');
    s.t.platform.config.autoUnderstand = false;
  });
  afterAll(() => s.close());

  it('leaves a new PDF for docs understand: the background pass does not parse it', async () => {
    const editor = await s.tokenFor('eddie', 'editor');
    const put = await s.app.inject({
      method: 'PUT',
      url: `${base}/files/content?${q({ path: 'legal/lease.pdf' })}`,
      headers: { ...s.auth(editor), 'content-type': 'application/octet-stream' },
      payload: makePdf(['The landlord repairs the roof.']),
    });
    expect(put.statusCode).toBeLessThan(300);
    expect(await processPendingAssets(s.t.platform)).toBe(0);
    const res = await s.app.inject({ method: 'GET', url: `${base}/search?${q({ q: 'landlord' })}`, headers: s.auth(editor) });
    expect(res.json()).toEqual([]);
  });
});
