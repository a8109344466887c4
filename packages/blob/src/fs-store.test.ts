import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBlobContract } from './blob-contract.js';
import { createFsBlobStore } from './fs-store.js';

async function dirEntries(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

runBlobContract('fs', async () => {
  const root = await mkdtemp(join(tmpdir(), 'stoa-blob-fs-'));
  return {
    store: createFsBlobStore({ root }),
    cleanup: () => rm(root, { recursive: true, force: true }),
    leftovers: async () => [
      ...(await dirEntries(join(root, '.tmp'))).map((n) => `.tmp/${n}`),
      ...(await dirEntries(join(root, '.staging'))).map((n) => `.staging/${n}`),
    ],
  };
});
