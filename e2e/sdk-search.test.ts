import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesRoutes } from '@stoa/contract';
import { searchPages, StoaClient } from '@stoa/sdk';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

describe("the SDK's paged search, through a real server (docs/sdk.md)", { timeout: 180_000 }, () => {
  let server: StoaServer;
  let client: StoaClient;

  beforeAll(async () => {
    server = await startStoaServer();
    client = new StoaClient({ url: server.url, token: server.adminToken });
    for (let i = 0; i < 5; i++) await client.send(filesRoutes.upload, { project: 'default', path: `sdk/marmot-${i}.md` }, `marmot ${i} whistles`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('follows the cursors page by page, with counts per kind on each page, and stops at max', async () => {
    const pages = [];
    for await (const page of searchPages(client, { project: 'default', q: 'marmot', kinds: 'file', limit: 2 })) pages.push(page);
    expect(pages.map((p) => p.hits.length)).toEqual([2, 2, 1]);
    expect(new Set(pages.flatMap((p) => p.hits.map((h) => h.path))).size).toBe(5);
    for (const p of pages) expect(p.counts).toEqual({ wiki: 0, memory: 0, file: 5, document: 0 });
    expect(pages.at(-1)!.nextCursor).toBeNull();
    const capped = [];
    for await (const page of searchPages(client, { project: 'default', q: 'marmot', limit: 2 }, { max: 3 })) capped.push(...page.hits);
    expect(capped).toHaveLength(3);
  });
});
