import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsyncDir } from './fs-atomic.js';
import { createGroupSync } from './fs-group-sync.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

/** Real folder fsyncs, each noted with the moments (a shared counter) it started and ended. */
function recordedFsync() {
  let clock = 0;
  const flushes: Array<{ dir: string; start: number; end?: number }> = [];
  const flushOne = async (dir: string): Promise<void> => {
    const f: { dir: string; start: number; end?: number } = { dir, start: ++clock };
    flushes.push(f);
    try {
      await fsyncDir(dir);
    } finally {
      f.end = ++clock;
    }
  };
  return { flushes, flushOne, tick: () => ++clock };
}

describe('group commit of folder fsyncs', () => {
  it('answers each request only after a flush of its own folder that began after the request, sharing flushes between requests', async () => {
    const root = await mkdtemp(join(tmpdir(), 'stoa-group-sync-'));
    roots.push(root);
    const dirs = ['a', 'b', 'c'].map((n) => join(root, n));
    for (const d of dirs) await mkdir(d);
    const { flushes, flushOne, tick } = recordedFsync();
    const syncDir = createGroupSync(flushOne);

    const requests: Array<{ dir: string; asked: number; answered?: number }> = [];
    const ask = async (dir: string): Promise<void> => {
      const r: { dir: string; asked: number; answered?: number } = { dir, asked: tick() };
      requests.push(r);
      await syncDir(dir);
      r.answered = tick();
    };
    // Waves of requests, the later ones made while flushes of the earlier ones are running.
    const waves: Array<Promise<void>> = [];
    for (let wave = 0; wave < 5; wave++) {
      for (let i = 0; i < 30; i++) waves.push(ask(dirs[i % dirs.length]!));
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(waves);

    for (const r of requests) {
      const covering = flushes.filter((f) => f.dir === r.dir && f.start > r.asked && f.end !== undefined && f.end < r.answered!);
      expect(covering.length, `request for ${r.dir} at ${r.asked}`).toBeGreaterThan(0);
    }
    // 150 requests over 3 folders: far fewer flushes than requests, and never two at once for one folder.
    expect(flushes.length).toBeLessThan(requests.length / 2);
    for (const d of dirs) {
      const own = flushes.filter((f) => f.dir === d).sort((x, y) => x.start - y.start);
      for (let i = 1; i < own.length; i++) expect(own[i]!.start).toBeGreaterThan(own[i - 1]!.end!);
    }
  });

  it('fails exactly the requests of a folder whose flush failed, and flushes it again for later ones', async () => {
    const root = await mkdtemp(join(tmpdir(), 'stoa-group-sync-'));
    roots.push(root);
    const good = join(root, 'good');
    const missing = join(root, 'missing');
    await mkdir(good);
    const syncDir = createGroupSync(fsyncDir);

    const results = await Promise.allSettled([syncDir(good), syncDir(missing), syncDir(good), syncDir(missing)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect(((results[1] as PromiseRejectedResult).reason as NodeJS.ErrnoException).code).toBe('ENOENT');

    await mkdir(missing);
    await expect(syncDir(missing)).resolves.toBeUndefined();
    await expect(syncDir(good)).resolves.toBeUndefined();
  });
});
