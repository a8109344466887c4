import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { listAll } from './testing/streams.js';
import { BlobStorageError } from './errors.js';
import { createFsBlobStore } from './fs-store.js';
import { hashStream } from './hashing-stream.js';
import { CRASH_CHUNKS, crashChunk } from './testing/crash-content.js';

const childScript = fileURLToPath(new URL('./testing/crash-put-child.ts', import.meta.url));
const manyChildScript = fileURLToPath(new URL('./testing/crash-many-child.ts', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const roots: string[] = [];

async function newRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'stoa-blob-crash-'));
  roots.push(root);
  return root;
}

function fixture(): { stream: () => Readable; sha256: string; size: number } {
  const hash = createHash('sha256');
  for (let i = 0; i < CRASH_CHUNKS; i++) hash.update(crashChunk(i));
  return {
    stream: () =>
      Readable.from(
        (function* () {
          for (let i = 0; i < CRASH_CHUNKS; i++) yield crashChunk(i);
        })(),
      ),
    sha256: hash.digest('hex'),
    size: CRASH_CHUNKS * crashChunk(0).length,
  };
}

/** Polls until `check` is true; the deadline is generous because CI machines can be very loaded. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

describe('fs BlobStore crash safety', () => {
  it('a put killed mid-stream leaves no blob, and the same put later succeeds', async () => {
    const root = await newRoot();
    const { stream, sha256, size } = fixture();
    const child = spawn(process.execPath, ['--import', tsxLoader, childScript, root], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = once(child, 'exit');
    try {
      await until(async () => out.includes('stalled') || child.exitCode !== null, 'the child to stall');
      expect(err).toBe('');
      // Kill it mid-write: only once bytes have reached the temp file.
      await until(async () => {
        const names = await readdir(join(root, '.tmp')).catch(() => []);
        const sizes = await Promise.all(names.map(async (n) => (await stat(join(root, '.tmp', n))).size));
        return sizes.some((s) => s > 0);
      }, 'bytes in the temp file');
    } finally {
      child.kill('SIGKILL');
      await exited;
    }

    const store = createFsBlobStore({ root });
    expect(await store.stat(sha256)).toBeNull();
    expect(await listAll(store)).toEqual([]);
    const torn = await readdir(join(root, '.tmp'));
    expect(torn).toHaveLength(1);
    expect((await stat(join(root, '.tmp', torn[0]!))).size).toBeLessThan(size);

    const r = await store.put(stream());
    expect(r).toEqual({ key: sha256, sha256, size });
    expect(await hashStream(await store.get(sha256))).toEqual({ bytes: size, sha256 });
    expect(await listAll(store)).toEqual([sha256]);
  });

  it('puts killed while 16 writers share folder flushes leave every acknowledged blob whole and nothing torn under a hash', async () => {
    const root = await newRoot();
    const child = spawn(process.execPath, ['--import', tsxLoader, manyChildScript, root], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = once(child, 'exit');
    try {
      // Killed once plenty were acknowledged, with the 16 writers still in the middle of theirs.
      await until(async () => out.split('\n').filter((l) => l.startsWith('ok ')).length >= 60 || child.exitCode !== null, '60 acknowledged puts');
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    expect(err).toBe('');
    const acknowledged = out
      .split('\n')
      .filter((l) => /^ok [0-9a-f]{64}$/.test(l))
      .map((l) => l.slice(3));
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);

    // Every file under a blob folder holds exactly the bytes its name is the hash of; the folders were all made
    // before the first put, so none is missing.
    const folders = (await readdir(root)).filter((n) => /^[0-9a-f]{2}$/.test(n));
    expect(folders).toHaveLength(256);
    const stored: string[] = [];
    for (const f of folders) {
      for (const name of await readdir(join(root, f))) {
        expect(name.startsWith(f)).toBe(true);
        expect(
          createHash('sha256')
            .update(await readFile(join(root, f, name)))
            .digest('hex'),
        ).toBe(name);
        stored.push(name);
      }
    }
    const store = createFsBlobStore({ root });
    expect(stored.sort()).toEqual(await listAll(store));
    for (const key of acknowledged) expect(stored).toContain(key);
    // What was in flight is left in .tmp only, for sweepTemp; the store takes new puts at once.
    for (const name of await readdir(join(root, '.tmp'))) expect(name).toMatch(/\.part$/);
    const again = await store.put('after the crash');
    expect((await store.read(again.key)).toString()).toBe('after the crash');
  });

  it('sweepTemp removes only temp files older than the given age', async () => {
    const root = await newRoot();
    const store = createFsBlobStore({ root });
    expect(await store.sweepTemp(0)).toBe(0); // no .tmp directory yet
    const { key } = await store.put('kept');
    await writeFile(join(root, '.tmp', 'old.part'), 'torn');
    await writeFile(join(root, '.tmp', 'fresh.part'), 'in flight');
    const hourAgo = new Date(Date.now() - 3600_000);
    await utimes(join(root, '.tmp', 'old.part'), hourAgo, hourAgo);

    expect(await store.sweepTemp(10 * 60_000)).toBe(1);
    expect(await readdir(join(root, '.tmp'))).toEqual(['fresh.part']);
    expect(await store.sweepTemp(24 * 3600_000)).toBe(0);
    await new Promise((r) => setTimeout(r, 5));
    expect(await store.sweepTemp(0)).toBe(1);
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
    expect(await store.read(key)).toEqual(Buffer.from('kept')); // blobs are never swept
  });

  it('reports storage failures without host paths', async () => {
    const parent = await newRoot();
    const notADir = join(parent, 'file');
    await writeFile(notADir, 'x');
    const store = createFsBlobStore({ root: join(notADir, 'blobs') });
    const err = await store.put('content').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlobStorageError);
    expect((err as BlobStorageError).code).toBe('ENOTDIR');
    expect((err as Error).message).not.toContain(parent);
    expect((err as Error).message).not.toMatch(/[/\\]/);
    // The original error is kept for logs.
    expect(String(((err as Error).cause as Error).message)).toContain(parent);
    expect(await store.stat('a'.repeat(64))).toBeNull();
  });
});
