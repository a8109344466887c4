/**
 * Finishing an upload in parts survives a crash (issue 27): the real server is killed (SIGKILL, through the
 * test-only STOA_TEST_CRASH_AT point) at each step inside finishing — parts joined, bytes promoted to a blob,
 * version committed — then restarted on the same data, and the same `stoa files put` is run again. It must
 * end with exactly one version of the file, the space reserved for the upload given back, the CLI's note of
 * the upload gone, and finishing once more answering the same file (2xx) instead of an error.
 * On SQLite + local disk, SQLite + object storage (s3rver), and PostgreSQL with STOA_TEST_PG=1.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDb } from '@stoa/db/testing';
import { runStoa } from './helpers/run-stoa.js';
import { startS3Bucket } from './helpers/s3.js';
import { startStoaServer, type StoaServer } from './helpers/serve.js';

const TOKEN = 'stoa_test_admin_token_for_upload_finish_crash';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const POINTS = ['upload.finish.joined', 'upload.finish.promoted', 'upload.finish.committed'];

interface Backend {
  name: string;
  /** The server's environment for this back end, and how to tear it down. */
  setup(dir: string): Promise<{ env: Record<string, string>; done: () => Promise<void> }>;
  /** Bytes of the file: over the CLI's direct-upload threshold and at least two parts on this back end. */
  size: number;
}

const backends: Backend[] = [
  { name: 'SQLite + local disk', size: 300_000, setup: async () => ({ env: {}, done: async () => undefined }) },
  {
    name: 'SQLite + object storage (s3rver)',
    size: 5 * 1024 * 1024 + 4321,
    async setup(dir) {
      const { s3, env }: { s3: S3rver; env: Record<string, string> } = await startS3Bucket(join(dir, 's3'), 'stoa', 'crash');
      return { env, done: () => s3.close() };
    },
  },
];
if (process.env.STOA_TEST_PG === '1') {
  backends.push({
    name: 'PostgreSQL + local disk',
    size: 300_000,
    async setup() {
      const db = await createTestDb('postgres');
      return { env: { STOA_DATABASE_URL: db.url! }, done: db.cleanup };
    },
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const tmp = mkdtempSync(join(tmpdir(), 'stoa-finish-crash-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe.each(backends)('finishing an upload killed midway, on $name', { timeout: 240_000 }, (backend) => {
  it.each(POINTS)('killed at %s: the same `stoa files put` after a restart ends with one version and no space held', async (point) => {
    const dir = mkdtempSync(join(tmp, 'case-'));
    const { env: storeEnv, done } = await backend.setup(dir);
    const dataDir = join(dir, 'data');
    const port = await freePort();
    const serverEnv = { STOA_ADMIN_TOKEN: TOKEN, STOA_SWEEP_INTERVAL_SECONDS: '0', STOA_UPLOAD_PART_BYTES: String(64 * 1024), ...storeEnv };
    const data = randomBytes(backend.size);
    const local = join(dir, 'big.bin');
    writeFileSync(local, data);
    const state = join(dir, 'state');
    const url = `http://127.0.0.1:${port}`;
    const cliEnv = { STOA_URL: url, STOA_TOKEN: TOKEN, STOA_DIRECT_UPLOAD_BYTES: '100000', XDG_STATE_HOME: state };
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${url}/api/v1/projects/default${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...init.headers } });
    let server: StoaServer | undefined;
    try {
      server = await startStoaServer({ dataDir, port, env: { ...serverEnv, STOA_TEST_CRASH_AT: point }, timeoutMs: 90_000 });
      const died = new Promise<NodeJS.Signals | null>((r) => server!.process.once('exit', (_code, signal) => r(signal)));
      const first = await runStoa(['files', 'put', local, 'media/big.bin', '--json'], { env: cliEnv });
      // The server died inside finishing, so this run could not report a file.
      expect(await died).toBe('SIGKILL');
      expect(first.code).not.toBe(0);
      const notes = join(state, 'stoa', 'uploads');
      const noted = readdirSync(notes).filter((n) => n.endsWith('.json'));
      expect(noted).toHaveLength(1);
      const { uploadId } = JSON.parse(readFileSync(join(notes, noted[0]!), 'utf8')) as { uploadId: string };

      server = await startStoaServer({ dataDir, port, env: serverEnv, timeoutMs: 90_000 });
      const again = await runStoa(['files', 'put', local, 'media/big.bin', '--json'], { env: cliEnv });
      expect(again.stderr, server.stderr()).toBe('');
      expect(again.code).toBe(0);
      const file = JSON.parse(again.stdout);
      expect(file).toMatchObject({ path: 'media/big.bin', size: data.length, sha256: sha(data), version: 1 });
      expect(existsSync(notes) ? readdirSync(notes) : []).toEqual([]);

      // Finishing once more says it is done, with the same file: a 2xx of the same shape, not a 404 or a 500.
      const replay = await api(`/uploads/${uploadId}/finish`, { method: 'POST' });
      expect(replay.status).toBe(200);
      expect(await replay.json()).toMatchObject({ path: 'media/big.bin', version: 1, sha256: sha(data) });

      const versions = await (await api(`/files/versions?path=media/big.bin`)).json();
      expect((versions.versions ?? versions).length).toBe(1);
      const usage = await (await api('/usage')).json();
      expect(usage).toMatchObject({ used: data.length, reserved: 0 });
      const back = Buffer.from(await (await api('/files/content?path=media/big.bin')).arrayBuffer());
      expect(sha(back)).toBe(sha(data));
    } finally {
      await server?.stop();
      await done();
    }
  });
});
