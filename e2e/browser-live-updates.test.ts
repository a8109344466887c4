import { afterAll, beforeAll, describe, it } from 'vitest';
import { createAgent, createToken } from '@stoa/core/testing';
import { fileRow, hasChromium, startUiServer, type UiServer } from './browser-helpers.js';

// Live updates (B7): what someone else changes — here an agent over HTTP — shows in an open Files page without a reload.
describe.skipIf(!hasChromium)('web UI: live updates', () => {
  let s: UiServer;

  beforeAll(async () => {
    s = await startUiServer();
  });
  afterAll(async () => s?.close());

  it("an agent's new, moved and deleted files appear and go in the open folder without a reload", async () => {
    const admin = await s.t.admin();
    const agent = await createAgent(admin, { name: 'Live writer', files: 'on' });
    const token = (await createToken(admin, { agent: agent.id })).token;
    const api = (method: string, path: string, body?: string | object) =>
      fetch(`${s.url}/api/v1/projects/default${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': typeof body === 'string' ? 'application/octet-stream' : 'application/json' }),
        },
        body: typeof body === 'string' ? body : body && JSON.stringify(body),
      }).then((r) => {
        if (!r.ok) throw new Error(`${method} ${path}: ${r.status}`);
      });
    const own = `agents/${agent.id}`;
    await api('PUT', `/files/content?path=${encodeURIComponent(`${own}/first.md`)}`, 'first');

    const { context, page } = await s.signedIn();
    await page.goto(`${s.url}/files/${own}`);
    await fileRow(page, `${own}/first.md`).waitFor();
    // The page marks itself, so a reload (which would pass the test for the wrong reason) is noticed.
    await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

    await api('PUT', `/files/content?path=${encodeURIComponent(`${own}/report.md`)}`, 'written by the agent');
    await fileRow(page, `${own}/report.md`).waitFor();
    await api('POST', '/files/move', { from: `${own}/first.md`, to: `${own}/renamed.md` });
    await fileRow(page, `${own}/renamed.md`).waitFor();
    await fileRow(page, `${own}/first.md`).waitFor({ state: 'detached' });
    await api('DELETE', `/files?path=${encodeURIComponent(`${own}/report.md`)}`);
    await fileRow(page, `${own}/report.md`).waitFor({ state: 'detached' });

    if (!(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere))) throw new Error('the page was reloaded');
    await context.close();
  });
});
