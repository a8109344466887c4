import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/** Repository root (bench/lib/ → ../..). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface StartedServer {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the process wrote, for error reports. */
  output(): string;
  stop(): Promise<void>;
}

export interface StoaServer extends StartedServer {
  token: string;
}

/**
 * Starts a Stoa server as its own process, exactly as a user would (`stoa serve --data DIR --port 0`), with
 * STOA_ADMIN_TOKEN set to a fresh random token (unless `env` gives one), and waits for its "listening on" line.
 *
 * @example
 * const s = await startStoa({ dataDir: '/tmp/stoa-bench-1' });
 * await fetch(`${s.url}/api/v1/health`, { headers: { authorization: `Bearer ${s.token}` } });
 * await s.stop();
 */
export async function startStoa(opts: { dataDir: string; env?: Record<string, string>; nodeArgs?: string[]; root?: string }): Promise<StoaServer> {
  // Servers that share one database share the admin token too (it is each server's own setting).
  const token = opts.env?.STOA_ADMIN_TOKEN ?? `bench_${randomBytes(16).toString('hex')}`;
  const s = await startProcess({
    args: [...(opts.nodeArgs ?? []), 'apps/cli/bin/stoa.js', 'serve', '--data', opts.dataDir, '--port', '0'],
    env: { ...opts.env, STOA_ADMIN_TOKEN: token },
    ready: /listening on (http:\/\/\S+)/,
    root: opts.root,
  });
  return { ...s, token };
}

/**
 * Spawns `node …args` in the repository root (or `root`: another checkout, built, to compare with) and waits until stdout matches `ready`, whose first group is
 * the server's URL. Fails (and kills the process) if it exits first or after `timeoutMs`.
 *
 * @example
 * const s = await startProcess({ args: ['--import', 'tsx', 'bench/lib/child-server.ts', 'bare', dir], ready: /listening on (\S+)/ });
 */
export function startProcess(opts: { args: string[]; env?: Record<string, string>; ready: RegExp; timeoutMs?: number; root?: string }): Promise<StartedServer> {
  const child = spawn(process.execPath, opts.args, { cwd: opts.root ?? REPO_ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`server did not start within ${opts.timeoutMs ?? 60_000} ms:\n${out}`));
    }, opts.timeoutMs ?? 60_000);
    let ready = false;
    child.stdout!.on('data', (c: Buffer): void => {
      out += c.toString();
      const m = ready ? null : opts.ready.exec(out);
      if (m) {
        ready = true;
        clearTimeout(timer);
        resolve({ url: m[1]!, pid: child.pid!, child, output: () => out, stop });
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      if (ready) return;
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${out}`));
    });
  });
}
