import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { testDbKinds } from '@stoa/db/testing';
import { StoaError } from '@stoa/contract';
import { createTestPlatform, type TestPlatform } from '../testing.js';
import type { Ctx } from '../platform.js';
import type { FileChangeHandler } from '../hooks.js';
import { putFile } from './put-file.js';
import { statFile } from './read-file.js';
import { moveFile } from './move-file.js';
import { deleteFile } from './delete-file.js';
import { listVersions, restoreVersion } from './versions.js';
import { usage } from './usage.js';
import { readText, storeViolations } from './test-invariants.js';

/** A body that sends some bytes and then fails, like a client whose connection drops mid-upload. */
function dropping(after: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= after) return this.destroy(new Error('connection reset by peer'));
      sent += 64 * 1024;
      this.push(Buffer.alloc(64 * 1024, 1));
    },
  });
}

describe.each(testDbKinds())('faults leave nothing behind on %s', (kind) => {
  let t: TestPlatform;
  let ctx: Ctx;
  const tmpFiles = () => {
    const dir = join(t.dataDir, 'blobs', '.tmp');
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  /** Runs `fn` with an index hook that fails inside the write transaction, after usage and rows were written. */
  async function withFailingHook<T>(fn: () => Promise<T>): Promise<T> {
    const boom: FileChangeHandler = async () => {
      throw new StoaError('unavailable', 'the search index is down');
    };
    t.platform.hooks.onFileChange.push(boom);
    try {
      return await fn();
    } finally {
      t.platform.hooks.onFileChange.splice(t.platform.hooks.onFileChange.indexOf(boom), 1);
    }
  }
  beforeAll(async () => {
    t = await createTestPlatform(kind, { quotaBytes: 1_000_000 });
    ctx = await t.userCtx('fay', 'editor');
  });
  afterAll(() => t.cleanup());

  it('an upload whose source fails midway stores nothing: no file, no usage, no temporary file', async () => {
    await expect(putFile(ctx, { path: 'drop/new.bin', source: dropping(300_000) })).rejects.toThrow();
    await expect(statFile(ctx, 'drop/new.bin')).rejects.toMatchObject({ code: 'not_found' });
    const used = (await usage(ctx)).used;
    await putFile(ctx, { path: 'drop/old.txt', source: 'old' });
    await expect(putFile(ctx, { path: 'drop/old.txt', source: dropping(300_000) })).rejects.toThrow();
    expect(await readText(ctx, 'drop/old.txt')).toBe('old');
    expect((await usage(ctx)).used).toBe(used + 3);
    expect(tmpFiles()).toEqual([]);
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('an upload cut off at the quota leaves no temporary file and counts nothing', async () => {
    const used = (await usage(ctx)).used;
    await expect(putFile(ctx, { path: 'drop/huge.bin', source: dropping(5_000_000) })).rejects.toMatchObject({ code: 'quota_exceeded' });
    expect(tmpFiles()).toEqual([]);
    expect((await usage(ctx)).used).toBe(used);
    expect(await storeViolations(ctx)).toEqual([]);
  });

  it('a failure inside the write transaction rolls back row, version, folder and usage together', async () => {
    await expect(withFailingHook(() => putFile(ctx, { path: 'tx/new/file.md', source: 'text' }))).rejects.toMatchObject({ code: 'unavailable' });
    await expect(statFile(ctx, 'tx/new/file.md')).rejects.toMatchObject({ code: 'not_found' });
    await putFile(ctx, { path: 'tx/doc.md', source: 'v1' });
    await expect(withFailingHook(() => putFile(ctx, { path: 'tx/doc.md', source: 'v2 longer' }))).rejects.toMatchObject({ code: 'unavailable' });
    expect(await statFile(ctx, 'tx/doc.md')).toMatchObject({ version: 1, size: 2 });
    expect((await listVersions(ctx, 'tx/doc.md')).length).toBe(1);
    await expect(withFailingHook(() => moveFile(ctx, { from: 'tx/doc.md', to: 'elsewhere/doc.md' }))).rejects.toMatchObject({ code: 'unavailable' });
    await expect(withFailingHook(() => deleteFile(ctx, { path: 'tx/doc.md' }))).rejects.toMatchObject({ code: 'unavailable' });
    await putFile(ctx, { path: 'tx/doc.md', source: 'v2' });
    await expect(withFailingHook(() => restoreVersion(ctx, { path: 'tx/doc.md', version: 1 }))).rejects.toMatchObject({ code: 'unavailable' });
    expect(await statFile(ctx, 'tx/doc.md')).toMatchObject({ path: 'tx/doc.md', version: 2 });
    expect(await readText(ctx, 'tx/doc.md')).toBe('v2');
    expect(await storeViolations(ctx)).toEqual([]);
  });
});
