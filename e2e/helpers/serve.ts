import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseEnv, REPO, STOA_BIN } from './run-stoa.js';

export interface StoaServer {
  /** The URL `stoa serve` printed, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The admin token it printed (or the STOA_ADMIN_TOKEN that was given). */
  adminToken: string;
  /** The one-time login link it printed. */
  loginUrl: string;
  /** Everything it printed on stdout up to the login link. */
  banner: string;
  /** The data folder it serves (a fresh temp folder unless one was given). */
  dataDir: string;
  process: ChildProcess;
  pid: number;
  /** Output printed on stderr so far (for diagnosing a failing test). */
  stderr(): string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes the data folder if it created it. */
  stop(): Promise<void>;
}

interface ServeOptions {
  /** Serve this data folder instead of a fresh temporary one (it is then not removed by stop()). */
  dataDir?: string;
  /** Extra environment: limits (STOA_QUOTA_BYTES…), STOA_ADMIN_TOKEN, STOA_DATABASE_URL… */
  env?: Record<string, string | undefined>;
  /** How long to wait for the banner (default 30 s). */
  timeoutMs?: number;
  /** Listen on this port instead of a free one (a restarted server keeps its URL, as clients expect). */
  port?: number;
}

/**
 * Starts a real `stoa serve --data <dir> --port 0` (the binary, in its own process) and waits until it printed
 * its URL, admin token and login link. Other acceptance tests reuse this; keep it generic.
 *
 * @example
 * const server = await startStoaServer({ env: { STOA_QUOTA_BYTES: '100000' } });
 * const r = await runStoa(['--url', server.url, '--token', server.adminToken, 'files', 'ls', '--json']);
 * await server.stop();
 */
export function startStoaServer(opts: ServeOptions = {}): Promise<StoaServer> {
  const own = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'stoa-serve-'));
  const child = spawn(process.execPath, [STOA_BIN, 'serve', '--data', dataDir, '--port', String(opts.port ?? 0), '--host', '127.0.0.1'], {
    cwd: REPO,
    env: baseEnv(opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    }
    if (own) rmSync(dataDir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`stoa serve printed no banner in time.\nstdout: ${out}\nstderr: ${err}`));
    }, opts.timeoutMs ?? 30_000);
    const early = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`stoa serve exited with ${code} before it was ready.\nstdout: ${out}\nstderr: ${err}`));
    };
    child.once('exit', early);
    let ready = false;
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      if (ready) return;
      const url = /listening on (https?:\/\/\S+)/.exec(out)?.[1];
      const login = /one-time link\): (\S+)/.exec(out)?.[1];
      if (!url || !login) return;
      ready = true;
      clearTimeout(timer);
      child.off('exit', early);
      const printed = /Admin token \(shown once, keep it\): (\S+)/.exec(out)?.[1];
      const adminToken = printed ?? opts.env?.STOA_ADMIN_TOKEN ?? '';
      resolve({ url, adminToken, loginUrl: login, banner: out, dataDir, process: child, pid: child.pid!, stderr: () => err, stop });
    });
  });
}

/**
 * Peak and current resident memory of a process in bytes, from /proc (Linux). Used to check that uploads and
 * downloads stream instead of buffering.
 *
 * @example
 * const { peak } = await processMemory(server.pid);
 */
export async function processMemory(pid: number): Promise<{ peak: number; current: number }> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { peak: kb('VmHWM'), current: kb('VmRSS') };
}
