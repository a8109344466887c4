import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runBlobContract } from './blob-contract.js';
import { createFsBlobStore } from './fs-store.js';
import { sha256Hex } from './hashing-stream.js';

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

describe('fs BlobStore folders', () => {
  it('makes its 256 blob folders, .tmp and .staging at the first write, and makes one again if something removed it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'stoa-blob-fs-'));
    try {
      const store = createFsBlobStore({ root });
      expect(await dirEntries(root)).toEqual([]); // reading makes nothing
      const first = await store.put('first');
      const names = await dirEntries(root);
      expect(names.filter((n) => /^[0-9a-f]{2}$/.test(n))).toHaveLength(256);
      expect(names).toEqual(expect.arrayContaining(['.tmp', '.staging']));

      await rm(join(root, '.tmp'), { recursive: true });
      await rm(join(root, 'ab'), { recursive: true });
      const abContent = 'needle 469'; // its sha256 starts with ab
      expect(sha256Hex(abContent).slice(0, 2)).toBe('ab');
      const again = await store.put(Readable.from([Buffer.from(abContent)]));
      expect((await store.read(again.key)).toString()).toBe(abContent);
      expect((await store.read(first.key)).toString()).toBe('first');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
